package engine

import (
	"context"
	"encoding/json"
	"sort"

	"github.com/sightline/sightline"
	"github.com/sightline/sightline/ingest"
	"github.com/sightline/sightline/ingest/openai"
)

// OpenAIConfig configures the chatgpt adapter. Model is any Responses API
// model that supports the web_search tool (empty means DefaultOpenAIModel);
// BaseURL may end in /v1 (empty means DefaultOpenAIBaseURL).
type OpenAIConfig = AnswerAPIConfig

// The OpenAI defaults.
const (
	DefaultOpenAIBaseURL = openai.DefaultBaseURL
	DefaultOpenAIModel   = "gpt-5-mini"
)

// openAIProvider is the provider of the chatgpt adapter.
var openAIProvider = answerProvider{engine: sightline.EngineChatGPT, name: "OpenAI", model: DefaultOpenAIModel,
	base: DefaultOpenAIBaseURL, version: "v1"}

// OpenAI answers chatgpt checks through the OpenAI Responses API
// (POST {base}/v1/responses) with the web_search tool, the closest the API
// comes to ChatGPT with search.
//
// The request carries the query text as the only input, the web_search tool
// with user_location {type: approximate, country} so the search is run from
// the tracked country, and store=false. The API has no language parameter:
// a tracked query's locale reaches the model only through the language of
// its text. The model decides itself whether to search, as ChatGPT does.
//
// The answer is the text of the last assistant message (reasoning models
// interleave reasoning and web_search_call items and may send commentary
// messages before it; the last message is the answer). Its citations are
// the url_citation annotations, ranked by first appearance in the text and
// de-duplicated by URL; URLs are kept exactly as given, so the
// ?utm_source=openai (or &utm_source=openai) OpenAI appends stays and
// extraction strips it when matching domains. An answer may have no
// citations even when the model searched.
type OpenAI struct{ answerAPI }

// NewOpenAI returns the chatgpt adapter.
func NewOpenAI(cfg OpenAIConfig, o Options) *OpenAI {
	return &OpenAI{newAnswerAPI(openAIProvider, cfg, o)}
}

type openAIRequest struct {
	Model string       `json:"model"`
	Input string       `json:"input"`
	Tools []openAITool `json:"tools"`
	Store bool         `json:"store"`
}

type openAITool struct {
	Type         string          `json:"type"`
	UserLocation *openAILocation `json:"user_location,omitempty"`
}

type openAILocation struct {
	Type    string `json:"type"`
	Country string `json:"country"`
}

// Ask asks ChatGPT one pass of a check.
func (a *OpenAI) Ask(ctx context.Context, req ingest.Request) (ingest.Capture, error) {
	tool := openAITool{Type: "web_search"}
	if req.Country != "" {
		tool.UserLocation = &openAILocation{Type: "approximate", Country: req.Country}
	}
	return a.ask(ctx, req.Engine, "/v1/responses",
		openAIRequest{Model: a.model, Input: req.QueryText, Tools: []openAITool{tool}}, parseOpenAI)
}

// parseOpenAI reads a Responses API response body. A failed response is
// Unavailable (OpenAI reports its own server errors this way), an
// incomplete one too (the answer was cut short; a new pass may complete).
func parseOpenAI(engine sightline.Engine, data []byte) (*ingest.Answer, *Error) {
	var r openai.Response
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, newError(engine, Malformed, "decoding response: %w", err)
	}
	switch r.Status {
	case "failed":
		msg := "response failed"
		if r.Error != nil && r.Error.Message != "" {
			msg = r.Error.Code + ": " + r.Error.Message
		}
		return nil, newError(engine, Unavailable, "%s", truncate(msg, 300))
	case "incomplete":
		reason := ""
		if r.IncompleteDetails != nil {
			reason = r.IncompleteDetails.Reason
		}
		return nil, newError(engine, Unavailable, "response incomplete: %s", reason)
	}
	message, ok := r.Answer()
	if !ok {
		return nil, newError(engine, Malformed, "response has no assistant message")
	}
	var t text
	var cites citations
	for _, part := range message.Content {
		switch part.Type {
		case "output_text":
			anns := part.Annotations
			sort.SliceStable(anns, func(i, j int) bool { return anns[i].StartIndex < anns[j].StartIndex })
			for _, ann := range anns {
				if ann.Type == "url_citation" {
					cites.add(ann.URL, ann.Title)
				}
			}
			t.b.WriteString(part.Text)
		case "refusal":
			t.b.WriteString(part.Refusal)
		}
	}
	return &ingest.Answer{Text: t.String(), Citations: cites.list}, nil
}
