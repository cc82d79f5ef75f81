// Package openai is the part of the OpenAI API that Sightline asks models
// through: a client that posts a JSON request with the API key and decodes
// the JSON answer, used by the extraction pass (chat completions) and by
// proposal refinement (the Responses API), and the Responses API's output,
// which refinement and the chatgpt engine adapter both read. The engine
// adapter sends its own requests, through the engine transport that
// classifies failures for retries.
package openai

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// DefaultBaseURL is the API root when none is configured.
const DefaultBaseURL = "https://api.openai.com"

// maxBody bounds what is read of one answer.
const maxBody = 4 << 20

// ErrRefused is returned, wrapped, when the model declines to answer: a
// refusal in place of the asked JSON.
var ErrRefused = errors.New("the model refused")

// Client posts requests to the OpenAI API.
type Client struct {
	// BaseURL is the API root, with or without a trailing /v1 (the SDKs'
	// OPENAI_BASE_URL has it); empty means DefaultBaseURL.
	BaseURL string
	APIKey  string
	// HTTP sends the requests; nil means http.DefaultClient.
	HTTP *http.Client
}

// Post sends in as JSON to path ("/v1/responses") and decodes the JSON of a
// 200 answer into out. Any other status is an error quoting the start of
// the body, where the API explains itself.
func (c Client) Post(ctx context.Context, path string, in, out any) error {
	body, err := json.Marshal(in)
	if err != nil {
		return fmt.Errorf("encoding request: %w", err)
	}
	base := strings.TrimSuffix(strings.TrimRight(c.BaseURL, "/"), "/v1")
	if base == "" {
		base = DefaultBaseURL
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, base+path, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+c.APIKey)
	req.Header.Set("Content-Type", "application/json")
	client := c.HTTP
	if client == nil {
		client = http.DefaultClient
	}
	res, err := client.Do(req)
	if err != nil {
		return fmt.Errorf("asking the model: %w", err)
	}
	defer res.Body.Close()
	data, err := io.ReadAll(io.LimitReader(res.Body, maxBody))
	if err != nil {
		return fmt.Errorf("reading the model's answer: %w", err)
	}
	if res.StatusCode != http.StatusOK {
		return fmt.Errorf("the model answered %d: %.300s", res.StatusCode, data)
	}
	if err := json.Unmarshal(data, out); err != nil {
		return fmt.Errorf("decoding the model's answer: %w", err)
	}
	return nil
}

// Response is the part of a Responses API response Sightline reads.
type Response struct {
	// Status is completed, failed or incomplete.
	Status string `json:"status"`
	Error  *struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
	IncompleteDetails *struct {
		Reason string `json:"reason"`
	} `json:"incomplete_details"`
	Output []Item `json:"output"`
}

// Item is one output item: a message, or a step such as reasoning or a
// web_search_call.
type Item struct {
	Type    string    `json:"type"`
	Role    string    `json:"role"`
	Content []Content `json:"content"`
}

// Content is one part of a message: output_text, with its annotations, or
// a refusal.
type Content struct {
	Type        string       `json:"type"`
	Text        string       `json:"text"`
	Refusal     string       `json:"refusal"`
	Annotations []Annotation `json:"annotations"`
}

// Annotation marks a source in output_text; a url_citation names a URL.
type Annotation struct {
	Type       string `json:"type"`
	URL        string `json:"url"`
	Title      string `json:"title"`
	StartIndex int    `json:"start_index"`
}

// Answer returns the last assistant message, which is the answer:
// reasoning models interleave reasoning and tool calls and may send
// commentary messages before it. ok is false when there is none.
func (r *Response) Answer() (message Item, ok bool) {
	for i := len(r.Output) - 1; i >= 0; i-- {
		if item := r.Output[i]; item.Type == "message" && item.Role == "assistant" {
			return item, true
		}
	}
	return Item{}, false
}
