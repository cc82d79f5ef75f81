package api

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/go-chi/chi/v5"

	"github.com/sightline/sightline"
)

func TestContractListsEveryRoute(t *testing.T) {
	t.Parallel()
	f := setup(t)
	r := f.do(call{method: "GET", path: "/api/v1/doc/json"}) // no key needed
	if r.status != http.StatusOK {
		t.Fatalf("%d %s", r.status, r.body)
	}
	var doc struct {
		OpenAPI string `json:"openapi"`
		Info    struct {
			Version string `json:"version"`
		} `json:"info"`
		Paths map[string]map[string]json.RawMessage `json:"paths"`
	}
	if err := json.Unmarshal(r.body, &doc); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(doc.OpenAPI, "3.0") || doc.Info.Version != "1.0.0" {
		t.Fatalf("openapi %s version %s", doc.OpenAPI, doc.Info.Version)
	}
	var documented []string
	for path, ops := range doc.Paths {
		for method := range ops {
			if method != "parameters" {
				documented = append(documented, strings.ToUpper(method)+" "+path)
			}
		}
	}
	var served []string
	err := chi.Walk(f.server.router, func(method, route string, _ http.Handler, _ ...func(http.Handler) http.Handler) error {
		if strings.HasPrefix(route, "/api/") {
			served = append(served, method+" "+route)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(documented)
	slices.Sort(served)
	if !slices.Equal(documented, served) {
		t.Fatalf("served and documented operations differ\nserved:     %v\ndocumented: %v", served, documented)
	}

	// The document says what checkQuery enforces: a list filter takes at
	// least one value.
	arrays := 0
	for path, ops := range doc.Paths {
		for method, raw := range ops {
			var op struct {
				Parameters []struct {
					Name, In string
					Schema   struct {
						Type     string `json:"type"`
						MinItems int    `json:"minItems"`
					} `json:"schema"`
				} `json:"parameters"`
			}
			_ = json.Unmarshal(raw, &op) // "parameters" entries of a path are no operation
			for _, p := range op.Parameters {
				if p.In == "query" && p.Schema.Type == "array" {
					arrays++
					if p.Schema.MinItems != 1 {
						t.Errorf("%s %s: query parameter %s has minItems %d, want 1", method, path, p.Name, p.Schema.MinItems)
					}
				}
			}
		}
	}
	if arrays == 0 {
		t.Error("no array query parameter found in the document")
	}
}

// documentedOperation is an operation of the served document: its
// description, query parameters and the descriptions of its answers by
// status.
type documentedOperation struct {
	Description string `json:"description"`
	Parameters  []struct {
		Name     string `json:"name"`
		In       string `json:"in"`
		Required bool   `json:"required"`
	} `json:"parameters"`
	Responses map[string]struct {
		Description string `json:"description"`
	} `json:"responses"`
}

// documentedOperations reads the served document's operations, keyed by
// "METHOD path".
func documentedOperations(t *testing.T, f *fixture) map[string]documentedOperation {
	t.Helper()
	r := f.do(call{method: http.MethodGet, path: "/api/v1/doc/json"})
	if r.status != http.StatusOK {
		t.Fatalf("%d %s", r.status, r.body)
	}
	var doc struct {
		Paths map[string]map[string]json.RawMessage `json:"paths"`
	}
	if err := json.Unmarshal(r.body, &doc); err != nil {
		t.Fatal(err)
	}
	out := map[string]documentedOperation{}
	for path, ops := range doc.Paths {
		for method, raw := range ops {
			if method == "parameters" {
				continue
			}
			var op documentedOperation
			if err := json.Unmarshal(raw, &op); err != nil {
				t.Fatal(err)
			}
			out[strings.ToUpper(method)+" "+path] = op
		}
	}
	return out
}

// TestAnalyticsRefusalsNameTheirOwnFilters checks that the 400 answer of
// every windowed analytics operation documents the refusals of the filters
// it takes, and no others: a filter it does not take is refused as
// unknown_field, not for its value.
func TestAnalyticsRefusalsNameTheirOwnFilters(t *testing.T) {
	t.Parallel()
	f := setup(t)
	windowed := 0
	for name, op := range documentedOperations(t, f) {
		declared := map[string]bool{}
		for _, p := range op.Parameters {
			if p.In == "query" {
				declared[p.Name] = p.Required || declared[p.Name]
			}
		}
		if required, ok := declared["dateFrom"]; !ok || !required {
			continue // not a windowed analytics operation
		}
		windowed++
		refusals := op.Responses["400"].Description
		for _, filter := range []string{"engines", "countries", "queryClusterIds"} {
			_, takes := declared[filter]
			if documented := strings.Contains(refusals, filter+" invalid_value"); documented != takes {
				t.Errorf("%s takes %s: %v, but its 400 answer documents the filter's refusal: %v", name, filter, takes, documented)
			}
		}
	}
	if windowed == 0 {
		t.Fatal("no windowed analytics operation found in the document")
	}
}

func TestOperationalEndpoints(t *testing.T) {
	t.Parallel()
	f := setup(t)
	m, _ := f.owner()
	f.do(call{method: "GET", path: "/api/v1/me", key: m.key})
	f.do(call{method: "GET", path: "/api/v1/me"})

	if r := f.do(call{method: "GET", path: "/healthz"}); r.status != 200 {
		t.Errorf("/healthz: %d %s", r.status, r.body)
	}
	if r := f.do(call{method: "GET", path: "/readyz"}); r.status != 200 || string(r.body) != `{"status":"ready","failing":[]}`+"\n" {
		t.Errorf("/readyz: %d %s", r.status, r.body)
	}
	// Metrics are not served on the API's listener.
	assertError(t, f.do(call{method: "GET", path: "/metrics"}), http.StatusNotFound, sightline.CodeNotFound)
	rec := httptest.NewRecorder()
	MetricsHandler(f.registry).ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	r := response{status: rec.Code, header: rec.Header(), body: rec.Body.Bytes()}
	for _, want := range []string{
		`sightline_http_requests_total{method="GET",route="/api/v1/me",status="200"} 1`,
		`sightline_http_requests_total{method="GET",route="/api/v1/me",status="401"} 1`,
		`sightline_http_request_duration_seconds_bucket{method="GET",route="/api/v1/me"`,
	} {
		if !strings.Contains(string(r.body), want) {
			t.Errorf("metrics lack %s", want)
		}
	}
}

// failingPinger is a store that does not answer, with a cause that must
// not reach the client.
type failingPinger struct{}

func (failingPinger) Ping(context.Context) error {
	return errors.New("dial tcp 10.0.0.7:9000: password authentication failed for user \"sightline\"")
}

func TestReadinessNamesTheFailingStoreOnly(t *testing.T) {
	t.Parallel()
	f := setup(t, setupOptions{mount: func(s *server) { s.ch = failingPinger{} }})
	r := f.do(call{method: "GET", path: "/readyz"})
	if r.status != http.StatusServiceUnavailable || string(r.body) != `{"status":"not_ready","failing":["clickhouse"]}`+"\n" {
		t.Fatalf("/readyz: %d %s", r.status, r.body)
	}
	if !strings.Contains(f.logs.String(), "password authentication failed") {
		t.Errorf("the cause was not logged:\n%s", f.logs.String())
	}
}

// A nullable enum admits null only when null is one of its values (OpenAPI
// 3.0.3; nullable alone leaves the enum closed), so every nullable enum of
// the document lists it: a subscription of status none answers
// billingInterval null.
func TestContractNullableEnumsListNull(t *testing.T) {
	t.Parallel()
	f := setup(t)
	r := f.do(call{method: "GET", path: "/api/v1/doc/json"})
	if r.status != http.StatusOK {
		t.Fatalf("%d %s", r.status, r.body)
	}
	var doc any
	if err := json.Unmarshal(r.body, &doc); err != nil {
		t.Fatal(err)
	}
	found := 0
	var walk func(v any, path string)
	walk = func(v any, path string) {
		switch v := v.(type) {
		case map[string]any:
			if enum, ok := v["enum"].([]any); ok && v["nullable"] == true {
				found++
				if !slices.Contains(enum, nil) {
					t.Errorf("%s: nullable enum %v does not list null", path, enum)
				}
			}
			for k, child := range v {
				walk(child, path+"/"+k)
			}
		case []any:
			for i, child := range v {
				walk(child, fmt.Sprintf("%s/%d", path, i))
			}
		}
	}
	walk(doc, "#")
	if found == 0 {
		t.Fatal("no nullable enum found in the document")
	}
}
