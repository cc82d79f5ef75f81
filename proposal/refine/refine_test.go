package refine_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/sightline/sightline/proposal/refine"
)

// The answers served below follow the Responses API's format (a reasoning
// item, then the assistant message whose output_text is the JSON the
// schema asks for), as recorded from the API.

// server answers every request with the file and records the request.
func server(t *testing.T, status int, file string) (*refine.OpenAI, *map[string]any) {
	t.Helper()
	var got map[string]any
	body, err := os.ReadFile("testdata/" + file)
	if err != nil && file != "" {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/responses" || r.Header.Get("Authorization") != "Bearer sk-test" {
			t.Errorf("%s %s auth %q", r.Method, r.URL.Path, r.Header.Get("Authorization"))
		}
		raw, _ := io.ReadAll(r.Body)
		if err := json.Unmarshal(raw, &got); err != nil {
			t.Errorf("request is not JSON: %s", raw)
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		w.Write(body) //nolint:errcheck
	}))
	t.Cleanup(srv.Close)
	return refine.New(refine.Config{APIKey: "sk-test", BaseURL: srv.URL + "/v1/", Client: srv.Client()}), &got
}

func TestClusterNames(t *testing.T) {
	t.Parallel()
	m, req := server(t, 200, "openai-responses-cluster-names.json")
	names, err := m.ClusterNames(context.Background(),
		[][]string{{"best crm for startups", "crm pricing"}, {"email marketing tool pricing"}}, []string{"crm", "email marketing"})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(names, []string{"crm software", "email marketing"}) {
		t.Fatalf("names %q", names)
	}
	format := (*req)["text"].(map[string]any)["format"].(map[string]any)
	if (*req)["model"] != refine.DefaultModel || (*req)["store"] != false || format["type"] != "json_schema" ||
		format["strict"] != true || format["name"] != "cluster_names" || !strings.Contains((*req)["input"].(string), "crm pricing") {
		t.Fatalf("request %v", *req)
	}
	if _, tools := (*req)["tools"]; tools {
		t.Fatal("the model was given tools")
	}
	// One name per group or nothing.
	if _, err := m.ClusterNames(context.Background(), [][]string{{"a"}}, []string{"a"}); err == nil {
		t.Fatal("two names for one group accepted")
	}
}

func TestBrandNames(t *testing.T) {
	t.Parallel()
	m, req := server(t, 200, "openai-responses-brand-names.json")
	names, err := m.BrandNames(context.Background(), "HubSpot", []string{"hubspot.com"}, []string{"Hub Spot"})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(names, []string{"HubSpot CRM", "HubSpot Marketing Hub", "Hubspot.com"}) {
		t.Fatalf("names %q", names)
	}
	if !strings.Contains((*req)["input"].(string), `"knownNames":["Hub Spot"]`) {
		t.Fatalf("input %v", (*req)["input"])
	}
}

func TestFailures(t *testing.T) {
	t.Parallel()
	refused, _ := server(t, 200, "openai-responses-refusal.json")
	if _, err := refused.BrandNames(context.Background(), "X", nil, nil); !errors.Is(err, refine.ErrRefused) {
		t.Errorf("refusal: %v", err)
	}
	down, _ := server(t, 503, "")
	if _, err := down.BrandNames(context.Background(), "X", nil, nil); err == nil || !strings.Contains(err.Error(), "503") {
		t.Errorf("503: %v", err)
	}
	gone := refine.New(refine.Config{APIKey: "sk-test", BaseURL: "http://127.0.0.1:1"})
	if _, err := gone.BrandNames(context.Background(), "X", nil, nil); err == nil {
		t.Error("no server, no error")
	}
}
