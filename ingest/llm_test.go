package ingest

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sightline/sightline"
	"github.com/sightline/sightline/ingest/openai"
)

// llmServer answers chat completions with a response body from testdata
// and hands the request it got to check.
func llmServer(t *testing.T, file string, status int, check func(r *http.Request, body map[string]any)) *httptest.Server {
	t.Helper()
	resp, err := os.ReadFile(filepath.Join("testdata", file))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		raw, _ := io.ReadAll(r.Body)
		var body map[string]any
		if err := json.Unmarshal(raw, &body); err != nil {
			t.Errorf("request body: %v", err)
		}
		if check != nil {
			check(r, body)
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		w.Write(resp)
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestLLMSettlesUncertainMentions(t *testing.T) {
	t.Parallel()
	answer := Answer{Text: "Highly rated options:\n\n- **Acme**\n- **Zendesk**\n\nZorblax has a free plan for students."}
	local := ExtractAnswer(extractBrands(), answer)
	if len(local.Mentions) != 3 || !local.Mentions[0].Uncertain || !local.Mentions[2].Uncertain || local.Mentions[1].Tone != sightline.TonePositive {
		t.Fatalf("local extraction %+v: want lead-in tones and a subject-only brand marked uncertain", local.Mentions)
	}
	srv := llmServer(t, "openai-chat-extraction.json", http.StatusOK, func(r *http.Request, body map[string]any) {
		if r.URL.Path != "/v1/chat/completions" || r.Header.Get("Authorization") != "Bearer sk-test" {
			t.Errorf("request %s %s", r.URL.Path, r.Header.Get("Authorization"))
		}
		format, _ := body["response_format"].(map[string]any)
		if body["model"] != "gpt-4o-mini" || format["type"] != "json_schema" {
			t.Errorf("request body %v", body)
		}
		if msgs, _ := body["messages"].([]any); len(msgs) != 2 || !strings.Contains(msgs[1].(map[string]any)["content"].(string), "Zorblax") {
			t.Errorf("messages %v", body["messages"])
		}
	})
	l := &LLM{BaseURL: srv.URL + "/v1", APIKey: "sk-test", Client: srv.Client()}
	got, err := l.ExtractAnswer(context.Background(), extractBrands(), answer)
	if err != nil {
		t.Fatal(err)
	}
	// Zorblax is not in the model's reading: dropped. Zendesk's tone is the
	// model's; Acme keeps positive.
	if len(got.Mentions) != 2 || got.Mentions[0].BrandName != "Acme" || got.Mentions[0].Tone != sightline.TonePositive ||
		got.Mentions[1].BrandName != "Zendesk" || got.Mentions[1].Tone != sightline.ToneNeutral || got.Mentions[1].Position != 2 {
		t.Errorf("settled %+v", got.Mentions)
	}
	for _, m := range got.Mentions {
		if m.Uncertain {
			t.Errorf("%s still uncertain", m.BrandName)
		}
	}
}

func TestLLMIsSkippedWhenCertainAndFailsSoft(t *testing.T) {
	t.Parallel()
	calls := 0
	srv := llmServer(t, "openai-chat-extraction.json", http.StatusTooManyRequests, func(*http.Request, map[string]any) { calls++ })
	l := &LLM{BaseURL: srv.URL, APIKey: "sk-test", Client: srv.Client()}
	certain := Answer{Text: "I'd recommend Acme over Zendesk for most teams."}
	if _, err := l.ExtractAnswer(context.Background(), extractBrands(), certain); err != nil || calls != 0 {
		t.Errorf("certain answer: err %v, %d calls", err, calls)
	}
	uncertain := Answer{Text: "Zorblax has a free plan for students."}
	got, err := l.ExtractAnswer(context.Background(), extractBrands(), uncertain)
	if err == nil || calls != 1 || len(got.Mentions) != 1 {
		t.Errorf("a failing model: err %v, %d calls, mentions %+v; want the local extraction and the error", err, calls, got.Mentions)
	}
}

func TestLLMRefusal(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"choices":[{"message":{"role":"assistant","content":null,"refusal":"I can't help with that."}}]}`))
	}))
	t.Cleanup(srv.Close)
	l := &LLM{BaseURL: srv.URL, APIKey: "sk-test", Client: srv.Client()}
	got, err := l.ExtractAnswer(context.Background(), extractBrands(), Answer{Text: "Zorblax has a free plan for students."})
	if !errors.Is(err, openai.ErrRefused) || len(got.Mentions) != 1 {
		t.Errorf("a refusal: err %v, mentions %+v; want ErrRefused and the local extraction", err, got.Mentions)
	}
}
