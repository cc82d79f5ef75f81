// Package refine asks the chatgpt engine's model (the OpenAI Responses
// API, with structured JSON output) to improve what the local proposal
// methods propose: the names of new keyword clusters and brand-name
// suggestions. It is used only with SIGHTLINE_ENGINES=live and
// OPENAI_API_KEY set; the local proposal stays the default, and the
// fallback whenever the model fails or answers something unusable. The
// model is asked without web search and nothing is stored at OpenAI
// (store=false).
package refine

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/sightline/sightline/ingest/openai"
)

// Defaults, as the chatgpt engine's.
const (
	DefaultBaseURL = openai.DefaultBaseURL
	DefaultModel   = "gpt-5-mini"
	DefaultTimeout = 60 * time.Second
)

// Config configures the model.
type Config struct {
	APIKey string
	// Model is any Responses API model with structured outputs; empty
	// means DefaultModel.
	Model string
	// BaseURL is the API root, with or without a trailing /v1; empty means
	// DefaultBaseURL.
	BaseURL string
	// Client sends the requests; nil means http.DefaultClient.
	Client *http.Client
	// Timeout bounds one request; 0 means DefaultTimeout.
	Timeout time.Duration
}

// OpenAI asks the model.
type OpenAI struct {
	client  openai.Client
	model   string
	timeout time.Duration
}

// New returns the model client.
func New(cfg Config) *OpenAI {
	return &OpenAI{client: openai.Client{BaseURL: cfg.BaseURL, APIKey: cfg.APIKey, HTTP: cfg.Client},
		model: cmp.Or(cfg.Model, DefaultModel), timeout: cmp.Or(cfg.Timeout, DefaultTimeout)}
}

// stringsSchema is the JSON schema of an answer {key: [string, ...]}.
func stringsSchema(key string) map[string]any {
	return map[string]any{
		"type":                 "object",
		"properties":           map[string]any{key: map[string]any{"type": "array", "items": map[string]any{"type": "string"}}},
		"required":             []string{key},
		"additionalProperties": false,
	}
}

// askNames asks for a list of names, answered as {"names": [...]}.
func (o *OpenAI) askNames(ctx context.Context, name, instructions string, input any) ([]string, error) {
	var out struct {
		Names []string `json:"names"`
	}
	if err := o.ask(ctx, name, instructions, input, stringsSchema("names"), &out); err != nil {
		return nil, err
	}
	return out.Names, nil
}

// ClusterNames asks for a short name for each group of keyword queries;
// local are the names the local method gave, as a hint. It returns one
// name per group, as the model wrote it: callers check them.
func (o *OpenAI) ClusterNames(ctx context.Context, groups [][]string, local []string) ([]string, error) {
	type group struct {
		Queries   []string `json:"queries"`
		LocalName string   `json:"currentName"`
	}
	in := make([]group, len(groups))
	for i, g := range groups {
		in[i] = group{Queries: g, LocalName: local[i]}
	}
	names, err := o.askNames(ctx, "cluster_names",
		"You name keyword clusters for an SEO and AI-visibility tool. For each group of search queries, give one "+
			"short topic name (1 to 4 words, lower case, no punctuation, no quotes) that says what the queries are "+
			"about, not who they are for or what kind of answer they want. Answer with exactly one name per group, "+
			"in the order given; keep currentName when it is already the best name; never give two groups the same name.",
		in)
	if err != nil {
		return nil, err
	}
	if len(names) != len(groups) {
		return nil, fmt.Errorf("model gave %d names for %d groups", len(names), len(groups))
	}
	return names, nil
}

// BrandNames asks for the other ways a brand is written: spellings,
// abbreviations, former or product names. known are the names already
// proposed or entered, which the model need not repeat.
func (o *OpenAI) BrandNames(ctx context.Context, name string, domains, known []string) ([]string, error) {
	in := map[string]any{"brandName": name, "websiteDomains": domains, "knownNames": known}
	return o.askNames(ctx, "brand_names",
		"You help a brand-monitoring tool find how answers and web pages write a brand's name. Given the brand's "+
			"name and website domains, list other names it is commonly written as: other spellings and spacings, "+
			"abbreviations, the names of its main products, former names. Only names of this brand that you are "+
			"confident about; nothing generic; none of knownNames; at most 10.",
		in)
}

// request is a Responses API request with a JSON schema output format.
type request struct {
	Model        string `json:"model"`
	Instructions string `json:"instructions"`
	Input        string `json:"input"`
	Store        bool   `json:"store"`
	Text         struct {
		Format struct {
			Type   string         `json:"type"`
			Name   string         `json:"name"`
			Strict bool           `json:"strict"`
			Schema map[string]any `json:"schema"`
		} `json:"format"`
	} `json:"text"`
}

// ErrRefused is returned when the model declines to answer.
var ErrRefused = openai.ErrRefused

// ask sends one request and decodes the structured answer into out.
func (o *OpenAI) ask(ctx context.Context, name, instructions string, input any, schema map[string]any, out any) error {
	payload, err := json.Marshal(input)
	if err != nil {
		return fmt.Errorf("encoding input: %w", err)
	}
	req := request{Model: o.model, Instructions: instructions, Input: string(payload)}
	req.Text.Format.Type, req.Text.Format.Name, req.Text.Format.Strict, req.Text.Format.Schema = "json_schema", name, true, schema
	ctx, cancel := context.WithTimeout(ctx, o.timeout)
	defer cancel()
	var r openai.Response
	if err := o.client.Post(ctx, "/v1/responses", req, &r); err != nil {
		return err
	}
	if r.Status != "completed" {
		msg := r.Status
		if r.Error != nil {
			msg += ": " + r.Error.Code + " " + r.Error.Message
		}
		return fmt.Errorf("the model's response is %.300s", msg)
	}
	message, ok := r.Answer()
	if !ok {
		return errors.New("the model's response has no answer")
	}
	var text strings.Builder
	for _, part := range message.Content {
		switch part.Type {
		case "output_text":
			text.WriteString(part.Text)
		case "refusal":
			return fmt.Errorf("%w: %.300s", ErrRefused, part.Refusal)
		}
	}
	if err := json.Unmarshal([]byte(text.String()), out); err != nil {
		return fmt.Errorf("the model's answer is not the asked JSON: %w", err)
	}
	return nil
}
