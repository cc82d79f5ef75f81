package engine

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/sightline/sightline/ingest"
)

// testNow is the clock every test adapter reads.
var testNow = time.Date(2026, 3, 14, 9, 26, 53, 0, time.FixedZone("CET", 3600))

func testOptions(timeout time.Duration) Options {
	return Options{Timeout: timeout, NowFunc: func() time.Time { return testNow }}
}

// sample reads a response body from testdata (copies of
// /work/shared/engine-samples, unchanged).
func sample(t testing.TB, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// sampleFragment is one labelled fragment of a file of fragments
// (serpapi-google-ai-overview-docs-examples.json), re-encoded as a body.
func sampleFragment(t testing.TB, name, label string) []byte {
	t.Helper()
	var all map[string]json.RawMessage
	if err := json.Unmarshal(sample(t, name), &all); err != nil {
		t.Fatal(err)
	}
	frag, ok := all[label]
	if !ok {
		t.Fatalf("%s has no %q", name, label)
	}
	return frag
}

// seen is a request as the test server received it.
type seen struct {
	Method string
	Path   string
	Query  url.Values
	Header http.Header
	Body   []byte
}

// provider is a fake provider: it records every request and answers with
// respond.
type provider struct {
	mu       sync.Mutex
	requests []seen
	srv      *httptest.Server
}

func newProvider(t *testing.T, respond func(w http.ResponseWriter, r *http.Request)) *provider {
	t.Helper()
	p := &provider{}
	p.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		p.mu.Lock()
		p.requests = append(p.requests, seen{Method: r.Method, Path: r.URL.Path, Query: r.URL.Query(), Header: r.Header.Clone(), Body: body})
		p.mu.Unlock()
		respond(w, r)
	}))
	t.Cleanup(p.srv.Close)
	return p
}

// serving answers every request with 200 and body.
func serving(body []byte) func(http.ResponseWriter, *http.Request) {
	return func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(body)
	}
}

func (p *provider) only(t *testing.T) seen {
	t.Helper()
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.requests) != 1 {
		t.Fatalf("provider got %d requests, want 1", len(p.requests))
	}
	return p.requests[0]
}

func (p *provider) all() []seen {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]seen(nil), p.requests...)
}

func decodeJSON(t *testing.T, data []byte, into any) {
	t.Helper()
	if err := json.Unmarshal(data, into); err != nil {
		t.Fatalf("decoding %s: %v", data, err)
	}
}

func ask(t *testing.T, e ingest.Engine, req ingest.Request) ingest.Capture {
	t.Helper()
	c, err := e.Ask(context.Background(), req)
	if err != nil {
		t.Fatalf("Ask: %v", err)
	}
	if c.Engine != req.Engine {
		t.Errorf("capture engine %q, want %q", c.Engine, req.Engine)
	}
	if !c.CapturedAt.Equal(testNow) || c.CapturedAt.Location() != time.UTC {
		t.Errorf("capturedAt %v, want %v in UTC", c.CapturedAt, testNow)
	}
	return c
}

func assertCitations(t *testing.T, got, want []ingest.Citation) {
	t.Helper()
	if len(got) == 0 && len(want) == 0 {
		return
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("citations:\n got %#v\nwant %#v", got, want)
	}
}

// cites numbers url/title pairs 1, 2, ...
func cites(pairs ...string) []ingest.Citation {
	var out []ingest.Citation
	for i := 0; i+1 < len(pairs); i += 2 {
		out = append(out, ingest.Citation{Position: len(out) + 1, URL: pairs[i], Title: pairs[i+1]})
	}
	return out
}
