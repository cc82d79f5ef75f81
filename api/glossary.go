package api

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"

	"github.com/getkin/kin-openapi/openapi3"
)

// The metric glossary (spec 4.3): a static catalogue of every figure the
// analytics operations serve, so a dashboard can explain each number in
// plain words, say what it divides by and where else to find it.

// glossaryEntry is one figure of the catalogue.
type glossaryEntry struct {
	Metric        string `json:"metric"`
	EverydayWords string `json:"everydayWords"`
	Unit          string `json:"unit"`
	Range         string `json:"range"`
	// Direction is higher_is_better, lower_is_better or neutral.
	Direction        string   `json:"direction"`
	Numerator        string   `json:"numerator"`
	Denominator      *string  `json:"denominator"`
	ServedBy         []string `json:"servedBy"`
	ExampleQuestions []string `json:"exampleQuestions"`
}

// The directions of a figure.
const (
	glossaryHigher  = "higher_is_better"
	glossaryLower   = "lower_is_better"
	glossaryNeutral = "neutral"
)

// glossaryJSON is the catalogue as served. It is prose, kept as a document
// of its own rather than as code; operations are named by method and path
// template, as in the OpenAPI document.
//
//go:embed glossary.json
var glossaryJSON []byte

// metricGlossary is the catalogue, in the order it is served.
var metricGlossary = decodeGlossary(glossaryJSON)

// decodeGlossary reads the embedded catalogue strictly; a malformed one
// stops the program as it starts, never a request.
func decodeGlossary(data []byte) []glossaryEntry {
	var doc glossaryResponse
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&doc); err != nil {
		panic(fmt.Sprintf("decoding glossary.json: %v", err))
	}
	for _, e := range doc.Metrics {
		switch e.Direction {
		case glossaryHigher, glossaryLower, glossaryNeutral:
		default:
			panic(fmt.Sprintf("glossary.json: %s has direction %q", e.Metric, e.Direction))
		}
	}
	return doc.Metrics
}

type glossaryResponse struct {
	Metrics []glossaryEntry `json:"metrics"`
}

func (s *server) handleGlossary(*request) (any, error) {
	return glossaryResponse{Metrics: metricGlossary}, nil
}

func (s *server) glossarySchema() *openapi3.Schema {
	text := func(t string) *openapi3.Schema { return described(stringSchema(), t) }
	entry := object(props{
		"metric":        text("The field name(s) as the operations serve them."),
		"everydayWords": text("What the figure says, in plain words."),
		"unit":          text("Unit of the value."),
		"range":         text("Values it can take."),
		"direction":     described(enumOf(glossaryHigher, glossaryLower, glossaryNeutral), "Which way is better."),
		"numerator":     text("What is counted or summed, in plain words."),
		"denominator": described(nullable(stringSchema()),
			"What it is divided by, in plain words, and when it is null; null for plain counts and extremes."),
		"servedBy":         described(arrayOf(stringSchema()), "Operations serving it: method and path template."),
		"exampleQuestions": described(arrayOf(stringSchema()), "Questions the figure answers."),
	}, "metric", "everydayWords", "unit", "range", "direction", "numerator", "denominator", "servedBy",
		"exampleQuestions")
	return s.component("MetricGlossary", object(props{"metrics": arrayOf(entry)}, "metrics"))
}
