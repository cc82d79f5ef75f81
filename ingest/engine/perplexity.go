package engine

import (
	"context"
	"encoding/json"
	"regexp"
	"strconv"
	"strings"

	"github.com/sightline/sightline"
	"github.com/sightline/sightline/ingest"
)

// PerplexityConfig configures the perplexity adapter. Model is a Sonar
// model (empty means DefaultPerplexityModel); empty BaseURL means
// DefaultPerplexityBaseURL.
type PerplexityConfig = AnswerAPIConfig

// The Perplexity defaults.
const (
	DefaultPerplexityBaseURL = "https://api.perplexity.ai"
	DefaultPerplexityModel   = "sonar"
)

// perplexityProvider is the provider of the perplexity adapter.
var perplexityProvider = answerProvider{engine: sightline.EnginePerplexity, name: "Perplexity", model: DefaultPerplexityModel, base: DefaultPerplexityBaseURL}

// Perplexity answers perplexity checks through the Sonar chat completions
// API (POST {base}/chat/completions).
//
// The request carries the query text as the only user message and
// web_search_options.user_location.country so the search is run from the
// tracked country. The locale is not sent: Perplexity's language filter
// restricts the sources' language, which a user asking in that language
// does not; the locale reaches the model through the language of the text.
//
// The answer is choices[0].message.content (a leading <think> block of the
// reasoning models is dropped). Its sources are `citations` (URLs), with
// titles from `search_results` where the response has them; without
// `citations`, `search_results` alone. The text marks them with plain
// [n] markers, n being 1-based into that list. Citations are ranked by the
// first marker naming them, as for every engine; sources the text never
// marks follow in Perplexity's order (Perplexity lists them with the
// answer). Duplicated URLs count once.
type Perplexity struct{ answerAPI }

// NewPerplexity returns the perplexity adapter.
func NewPerplexity(cfg PerplexityConfig, o Options) *Perplexity {
	return &Perplexity{newAnswerAPI(perplexityProvider, cfg, o)}
}

type perplexityRequest struct {
	Model            string                  `json:"model"`
	Messages         []perplexityMessage     `json:"messages"`
	WebSearchOptions *perplexitySearchOption `json:"web_search_options,omitempty"`
}

type perplexityMessage struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

type perplexitySearchOption struct {
	UserLocation struct {
		Country string `json:"country"`
	} `json:"user_location"`
}

// Ask asks Perplexity one pass of a check.
func (a *Perplexity) Ask(ctx context.Context, req ingest.Request) (ingest.Capture, error) {
	in := perplexityRequest{Model: a.model, Messages: []perplexityMessage{{Role: "user", Content: req.QueryText}}}
	if req.Country != "" {
		in.WebSearchOptions = &perplexitySearchOption{}
		in.WebSearchOptions.UserLocation.Country = req.Country
	}
	return a.ask(ctx, req.Engine, "/chat/completions", in, parsePerplexity)
}

type perplexityResponse struct {
	Citations     []string `json:"citations"`
	SearchResults []struct {
		Title string `json:"title"`
		URL   string `json:"url"`
	} `json:"search_results"`
	Choices []struct {
		Message struct {
			Content string `json:"content"`
		} `json:"message"`
	} `json:"choices"`
}

var perplexityMarker = regexp.MustCompile(`\[(\d{1,4})\]`)

func parsePerplexity(engine sightline.Engine, data []byte) (*ingest.Answer, *Error) {
	var r perplexityResponse
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, newError(engine, Malformed, "decoding response: %w", err)
	}
	if len(r.Choices) == 0 {
		return nil, newError(engine, Malformed, "response has no choices")
	}
	content := stripThink(r.Choices[0].Message.Content)

	titles := make(map[string]string, len(r.SearchResults))
	sources := r.Citations
	if len(sources) == 0 {
		sources = make([]string, 0, len(r.SearchResults))
		for _, s := range r.SearchResults {
			sources = append(sources, s.URL)
		}
	}
	for _, s := range r.SearchResults {
		if _, ok := titles[s.URL]; !ok {
			titles[s.URL] = s.Title
		}
	}
	var cites citations
	for _, m := range perplexityMarker.FindAllStringSubmatch(content, -1) {
		n, _ := strconv.Atoi(m[1])
		if n >= 1 && n <= len(sources) {
			cites.add(sources[n-1], titles[sources[n-1]])
		}
	}
	for _, u := range sources {
		cites.add(u, titles[u])
	}
	return &ingest.Answer{Text: content, Citations: cites.list}, nil
}

// stripThink drops the <think>...</think> block Sonar reasoning models put
// before their answer.
func stripThink(s string) string {
	trimmed := strings.TrimLeft(s, " \t\r\n")
	if !strings.HasPrefix(trimmed, "<think>") {
		return s
	}
	end := strings.Index(trimmed, "</think>")
	if end < 0 {
		return s
	}
	return strings.TrimLeft(trimmed[end+len("</think>"):], " \t\r\n")
}
