package openai_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/sightline/sightline/ingest/openai"
)

func TestPost(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var in map[string]string
		if r.URL.Path != "/v1/echo" || r.Header.Get("Authorization") != "Bearer sk-test" ||
			r.Header.Get("Content-Type") != "application/json" || json.NewDecoder(r.Body).Decode(&in) != nil {
			t.Errorf("request %s %s %v", r.Method, r.URL.Path, r.Header)
		}
		if in["say"] == "fail" {
			w.WriteHeader(http.StatusTooManyRequests)
			w.Write([]byte(`{"error":{"message":"` + strings.Repeat("slow down ", 50) + `"}}`)) //nolint:errcheck
			return
		}
		json.NewEncoder(w).Encode(in) //nolint:errcheck
	}))
	t.Cleanup(srv.Close)
	for _, base := range []string{srv.URL, srv.URL + "/", srv.URL + "/v1", srv.URL + "/v1/"} {
		c := openai.Client{BaseURL: base, APIKey: "sk-test", HTTP: srv.Client()}
		var out map[string]string
		if err := c.Post(context.Background(), "/v1/echo", map[string]string{"say": "hi"}, &out); err != nil || out["say"] != "hi" {
			t.Errorf("base %s: %v %v", base, out, err)
		}
	}
	c := openai.Client{BaseURL: srv.URL, APIKey: "sk-test", HTTP: srv.Client()}
	err := c.Post(context.Background(), "/v1/echo", map[string]string{"say": "fail"}, new(any))
	if err == nil || !strings.Contains(err.Error(), "429: {\"error\"") || len(err.Error()) > 400 {
		t.Errorf("a 429: %v", err)
	}
}

func TestResponseAnswer(t *testing.T) {
	t.Parallel()
	var r openai.Response
	body := `{"status":"completed","output":[
		{"type":"reasoning"},
		{"type":"message","role":"assistant","content":[{"type":"output_text","text":"checking"}]},
		{"type":"web_search_call"},
		{"type":"message","role":"assistant","content":[{"type":"output_text","text":"the answer"}]},
		{"type":"reasoning"}]}`
	if err := json.Unmarshal([]byte(body), &r); err != nil {
		t.Fatal(err)
	}
	if m, ok := r.Answer(); !ok || m.Content[0].Text != "the answer" {
		t.Errorf("answer %+v %v", m, ok)
	}
	if _, ok := (&openai.Response{Output: r.Output[:1]}).Answer(); ok {
		t.Error("an answer without an assistant message")
	}
}
