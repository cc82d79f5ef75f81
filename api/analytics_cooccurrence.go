package api

import (
	"github.com/getkin/kin-openapi/openapi3"
	"github.com/google/uuid"

	"github.com/sightline/sightline/olap"
	"github.com/sightline/sightline/oltp"
)

// GET /competitors/co-occurrence: the own brand head to head with each
// tracked competitor (routes in analytics_mentions.go).

func coOccurrenceParams() []*openapi3.Parameter {
	return append(analyticsWindowParams(), analyticsEnginesParam(), analyticsCountriesParam(),
		analyticsCompetitorParamSchema("Only this tracked competitor's row."))
}

func (s *server) coOccurrenceSchema() *openapi3.Schema {
	row := s.component("CoOccurrence", object(props{
		"competitorId":        uuidSchema(),
		"name":                stringSchema(),
		"sharedResponseCount": described(mixCountSchema(), "AI answers naming both the own brand and the competitor."),
		"brandWins":           described(mixCountSchema(), "Shared answers naming the own brand first."),
		"competitorWins":      described(mixCountSchema(), "Shared answers naming the competitor first."),
		"ties":                described(mixCountSchema(), "Shared answers giving both the same position."),
		"winRate": described(nullable(openapi3.NewFloat64Schema().WithMin(0).WithMax(100)),
			"100 x brandWins / sharedResponseCount; null without shared answers."),
		"winRateInterval": s.intervalSchema(),
		"avgOwnPosition": described(nullable(openapi3.NewFloat64Schema().WithMin(1)),
			"Mean position of the own brand in the shared answers; null without any."),
		"avgCompetitorPosition": described(nullable(openapi3.NewFloat64Schema().WithMin(1)),
			"Mean position of the competitor in the shared answers; null without any."),
		"exampleQueryText": described(nullable(stringSchema()),
			"Query text of the latest shared answer; null without any."),
		"exampleAiResponseId": described(nullable(uuidSchema()),
			"The latest shared answer (an ai-responses id); null without any."),
	}, "competitorId", "name", "sharedResponseCount", "brandWins", "competitorWins", "ties", "winRate",
		"winRateInterval", "avgOwnPosition", "avgCompetitorPosition", "exampleQueryText", "exampleAiResponseId"))
	return s.component("CoOccurrences", object(props{
		"competitors": described(arrayOf(row), "Every current tracked competitor by name, or only competitorId's."),
	}, "competitors"))
}

// coOccurrences is the answer of GET /competitors/co-occurrence.
type coOccurrenceAnswer struct {
	Competitors []coOccurrenceRow `json:"competitors"`
}

type coOccurrenceRow struct {
	CompetitorID uuid.UUID `json:"competitorId"`
	Name         string    `json:"name"`
	olap.CoOccurrence
}

func (s *server) handleCoOccurrence(r *request) (any, error) {
	p, scope, one, err := s.competitorAnalyticsScope(r)
	if err != nil {
		return nil, err
	}
	var competitors []oltp.CompetitorName
	if one != nil {
		competitors = []oltp.CompetitorName{*one}
	} else if competitors, err = oltp.CompetitorNames(r.Context(), s.pool, p.ID); err != nil {
		return nil, err
	}
	figures, err := s.analytics.CoOccurrences(r.Context(), scope, competitorNameIDs(competitors))
	if err != nil {
		return nil, err
	}
	out := coOccurrenceAnswer{Competitors: make([]coOccurrenceRow, len(competitors))}
	for i, c := range competitors {
		out.Competitors[i] = coOccurrenceRow{CompetitorID: c.ID, Name: c.Name, CoOccurrence: figures[i]}
	}
	return out, nil
}
