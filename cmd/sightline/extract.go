package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/google/uuid"

	"github.com/sightline/sightline"
	"github.com/sightline/sightline/ingest"
)

const extractUsage = `usage: sightline extract [--input FILE] [--llm]

Reads one JSON object (from FILE, or standard input when FILE is "-" or not
given) and prints what Sightline extracts from the answer as one JSON object.
Nothing is stored and no database is used.

Input:
  {
    "engine": "chatgpt",                   optional: chatgpt, perplexity,
                                           google_ai_overview, google_ai_mode
    "answerText": "markdown answer",       required
    "citations": [                         optional, in order of citation
      {"url": "https://...", "title": "..."}          url required, title optional
    ],
    "ownBrand": {                          required, at least one name or domain
      "names": ["Acme"], "domains": ["acme.com"]
    },
    "competitors": [                       optional
      {"id": "uuid (optional)", "name": "Zendesk",    name required
       "names": ["Zendesk Suite"], "domains": ["zendesk.com"]}
    ]
  }
Domains may be bare hosts ("acme.com") or URLs ("https://www.acme.com/").
Unknown fields are refused.

Output:
  {
    "engine": "chatgpt" | null,
    "extractionVersion": n,                version of the extraction rules read by
    "mentions": [{"brandName", "mentionRelation" (own, tracked-competitor,
      untracked-competitor), "competitorId" (null unless given), "competitorName"
      (tracked competitors), "mentionPosition" (1-based order of first appearance
      among all brands named), "mentionType" (recommendation, comparison,
      listing, example, reference), "sentiment" (positive, neutral, negative),
      "qualifier" (direct, conditional), "mentionText" (the sentence)}],
    "citedSources": [{"position", "url", "domain", "title", "unresolved" (the URL
      is still a redirector: Google /url, Vertex AI grounding, Bing, affiliate
      networks, shorteners; its domain is then the redirector's),
      "relation" (own, tracked-competitor, none), "competitorId", "competitorName"}]
  }

With --llm (and SIGHTLINE_ENGINES=live, OPENAI_API_KEY set; OPENAI_BASE_URL
and OPENAI_EXTRACTION_MODEL optional) an OpenAI model settles the mentions the
local rules are unsure of; without it, or when the model fails, the local
extraction is printed (a failure is reported on standard error).

Bad input is reported on standard error with exit status 2; nothing is
printed on standard output then.
`

// maxExtractInput bounds what extract reads: answers are kilobytes.
const maxExtractInput = 16 << 20

// usageError is a mistake in a command's arguments or input. Its exit
// status is 2, the convention for usage errors (flag.ExitOnError uses it).
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

// ExitCode is the process exit status for the error.
func (e usageError) ExitCode() int { return 2 }

func badInput(format string, a ...any) error {
	return usageError{fmt.Errorf("extract: "+format, a...)}
}

type extractInput struct {
	Engine      string              `json:"engine"`
	AnswerText  *string             `json:"answerText"`
	Citations   []extractCitation   `json:"citations"`
	OwnBrand    *extractBrand       `json:"ownBrand"`
	Competitors []extractCompetitor `json:"competitors"`
}

type extractCitation struct {
	URL   string `json:"url"`
	Title string `json:"title"`
}

type extractBrand struct {
	Names   []string `json:"names"`
	Domains []string `json:"domains"`
}

type extractCompetitor struct {
	ID      *string  `json:"id"`
	Name    string   `json:"name"`
	Names   []string `json:"names"`
	Domains []string `json:"domains"`
}

type extractOutput struct {
	Engine            *string                 `json:"engine"`
	ExtractionVersion int                     `json:"extractionVersion"`
	Mentions          []extractMentionOut     `json:"mentions"`
	CitedSources      []extractCitedSourceOut `json:"citedSources"`
}

type extractMentionOut struct {
	BrandName       string                `json:"brandName"`
	MentionRelation sightline.Relation    `json:"mentionRelation"`
	CompetitorID    *uuid.UUID            `json:"competitorId"`
	CompetitorName  *string               `json:"competitorName"`
	MentionPosition int                   `json:"mentionPosition"`
	MentionType     sightline.MentionType `json:"mentionType"`
	Sentiment       sightline.Tone        `json:"sentiment"`
	Qualifier       sightline.Qualifier   `json:"qualifier"`
	MentionText     string                `json:"mentionText"`
}

type extractCitedSourceOut struct {
	Position       int        `json:"position"`
	URL            string     `json:"url"`
	Domain         *string    `json:"domain"`
	Title          string     `json:"title"`
	Unresolved     bool       `json:"unresolved"`
	Relation       string     `json:"relation"`
	CompetitorID   *uuid.UUID `json:"competitorId"`
	CompetitorName *string    `json:"competitorName"`
}

// extract runs `sightline extract`: the extraction of one answer, read as
// JSON, printed as JSON. stdin is read unless --input names a file; the
// LLM pass is configured from getenv and reports its failure on stderr.
func extract(ctx context.Context, getenv func(string) string, stdin io.Reader, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("extract", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	input := fs.String("input", "-", "")
	useLLM := fs.Bool("llm", false, "")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			_, err := io.WriteString(stdout, extractUsage)
			return err
		}
		return usageError{fmt.Errorf("extract: %v\n%s", err, extractUsage)}
	}
	if fs.NArg() > 0 {
		return usageError{fmt.Errorf("extract: unexpected argument %q\n%s", fs.Arg(0), extractUsage)}
	}
	r := stdin
	if *input != "-" {
		f, err := os.Open(*input)
		if err != nil {
			return usageError{fmt.Errorf("extract: %w", err)}
		}
		defer f.Close()
		r = f
	}
	raw, err := io.ReadAll(io.LimitReader(r, maxExtractInput+1))
	if err != nil {
		return fmt.Errorf("extract: reading input: %w", err)
	}
	if len(raw) > maxExtractInput {
		return badInput("input is larger than %d bytes", maxExtractInput)
	}
	in, err := decodeExtractInput(raw)
	if err != nil {
		return err
	}
	brands, names, err := in.brands()
	if err != nil {
		return err
	}
	answer := ingest.Answer{Text: *in.AnswerText}
	for i, c := range in.Citations {
		if strings.TrimSpace(c.URL) == "" {
			return badInput("citations[%d].url is required", i)
		}
		answer.Citations = append(answer.Citations, ingest.Citation{Position: i + 1, URL: c.URL, Title: c.Title})
	}
	e := ingest.ExtractAnswer(brands, answer)
	if *useLLM {
		if getenv("SIGHTLINE_ENGINES") != "live" || getenv("OPENAI_API_KEY") == "" {
			return usageError{fmt.Errorf("extract: --llm needs SIGHTLINE_ENGINES=live and OPENAI_API_KEY")}
		}
		l := &ingest.LLM{BaseURL: getenv("OPENAI_BASE_URL"), APIKey: getenv("OPENAI_API_KEY"), Model: getenv("OPENAI_EXTRACTION_MODEL")}
		var err error
		if e, err = l.ExtractAnswer(ctx, brands, answer); err != nil {
			fmt.Fprintln(stderr, "extract: LLM pass failed, printing the local extraction:", err)
		}
	}

	out := extractOutput{ExtractionVersion: ingest.ExtractionVersion, Mentions: []extractMentionOut{}, CitedSources: []extractCitedSourceOut{}}
	if in.Engine != "" {
		out.Engine = &in.Engine
	}
	for _, m := range e.Mentions {
		id, name := names.of(m.CompetitorID)
		out.Mentions = append(out.Mentions, extractMentionOut{
			BrandName: m.BrandName, MentionRelation: m.Relation, CompetitorID: id, CompetitorName: name,
			MentionPosition: m.Position, MentionType: m.Type, Sentiment: m.Tone, Qualifier: m.Qualifier, MentionText: m.Sentence,
		})
	}
	for _, c := range e.Citations {
		id, name := names.of(c.CompetitorID)
		rel := string(c.Relation)
		if c.Relation == sightline.RelationNone {
			rel = "none"
		}
		cs := extractCitedSourceOut{Position: c.Position, URL: c.URL, Title: c.Title, Unresolved: c.Unresolved,
			Relation: rel, CompetitorID: id, CompetitorName: name}
		if c.Domain != "" {
			cs.Domain = &c.Domain
		}
		out.CitedSources = append(out.CitedSources, cs)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(out); err != nil {
		return fmt.Errorf("extract: encoding output: %w", err)
	}
	_, err = stdout.Write(buf.Bytes())
	return err
}

// decodeExtractInput decodes exactly one JSON object with known fields.
func decodeExtractInput(raw []byte) (*extractInput, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	var in extractInput
	if err := dec.Decode(&in); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, badInput("no JSON object on input")
		}
		return nil, badInput("input is not the expected JSON object: %v", err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, badInput("input holds more than one JSON value")
	}
	if in.AnswerText == nil {
		return nil, badInput("answerText is required")
	}
	if in.Engine != "" && !sightline.Engine(in.Engine).AI() {
		return nil, badInput("engine %q is not an AI engine (chatgpt, perplexity, google_ai_overview, google_ai_mode)", in.Engine)
	}
	if in.OwnBrand == nil {
		return nil, badInput("ownBrand is required")
	}
	return &in, nil
}

// competitorNames maps the ids extraction reports back to what the input
// gave: competitors without an id get a stand-in id for extraction and
// are printed with "competitorId": null.
type competitorNames map[uuid.UUID]struct {
	given bool
	name  string
}

func (n competitorNames) of(id *uuid.UUID) (*uuid.UUID, *string) {
	if id == nil {
		return nil, nil
	}
	c, ok := n[*id]
	if !ok {
		return nil, nil
	}
	name := c.name
	if !c.given {
		return nil, &name
	}
	out := *id
	return &out, &name
}

func (in *extractInput) brands() (ingest.Brands, competitorNames, error) {
	own, err := extractBrandOf("ownBrand", *in.OwnBrand)
	if err != nil {
		return ingest.Brands{}, nil, err
	}
	if len(own.Names) == 0 && len(own.Domains) == 0 {
		return ingest.Brands{}, nil, badInput("ownBrand needs at least one name or domain")
	}
	b := ingest.Brands{Own: own}
	names := competitorNames{}
	for i, c := range in.Competitors {
		path := fmt.Sprintf("competitors[%d]", i)
		if strings.TrimSpace(c.Name) == "" {
			return ingest.Brands{}, nil, badInput("%s.name is required", path)
		}
		br, err := extractBrandOf(path, extractBrand{Names: c.Names, Domains: c.Domains})
		if err != nil {
			return ingest.Brands{}, nil, err
		}
		id := uuid.Must(uuid.NewV7())
		given := c.ID != nil
		if given {
			if id, err = uuid.Parse(*c.ID); err != nil {
				return ingest.Brands{}, nil, badInput("%s.id %q is not a UUID", path, *c.ID)
			}
			if _, dup := names[id]; dup {
				return ingest.Brands{}, nil, badInput("%s.id %s repeats an earlier competitor's", path, id)
			}
		}
		names[id] = struct {
			given bool
			name  string
		}{given, c.Name}
		b.Competitors = append(b.Competitors, ingest.Competitor{ID: id, Name: c.Name, Brand: br})
	}
	return b, names, nil
}

func extractBrandOf(path string, in extractBrand) (ingest.Brand, error) {
	var b ingest.Brand
	for i, n := range in.Names {
		if strings.TrimSpace(n) == "" {
			return b, badInput("%s.names[%d] is empty", path, i)
		}
		b.Names = append(b.Names, n)
	}
	for i, d := range in.Domains {
		norm, ok := ingest.NormalizeDomain(d)
		if !ok {
			return b, badInput("%s.domains[%d] %q is neither a host nor a URL with a host", path, i, d)
		}
		b.Domains = append(b.Domains, norm)
	}
	return b, nil
}
