package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sightline/sightline/ingest"
)

// noEnv is an empty environment.
func noEnv(string) string { return "" }

func TestExtract(t *testing.T) {
	t.Parallel()
	in := `{
		"engine": "chatgpt",
		"answerText": "The best CRMs for small teams:\n\n1. **Acme** is the one I recommend: simple and affordable.\n2. **Zendesk** is solid but expensive.\n3. **Freshdesk** works for support-heavy teams.",
		"citations": [{"url": "https://www.acme.com/pricing", "title": "Acme pricing"},
		              {"url": "https://vertexaisearch.cloud.google.com/grounding-api-redirect/AbC", "title": "x"}],
		"ownBrand": {"names": ["Acme"], "domains": ["https://www.acme.com/"]},
		"competitors": [{"name": "Zendesk", "names": ["Zendesk"], "domains": ["zendesk.com"]}]
	}`
	var out bytes.Buffer
	if err := extract(context.Background(), noEnv, strings.NewReader(in), nil, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	var got extractOutput
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatalf("%v: %s", err, out.String())
	}
	want := []struct {
		name     string
		relation string
		position int
	}{{"Acme", "own", 1}, {"Zendesk", "tracked-competitor", 2}, {"Freshdesk", "untracked-competitor", 3}}
	if len(got.Mentions) != len(want) {
		t.Fatalf("mentions %+v", got.Mentions)
	}
	for i, w := range want {
		m := got.Mentions[i]
		if m.BrandName != w.name || string(m.MentionRelation) != w.relation || m.MentionPosition != w.position {
			t.Errorf("mention %d = %+v, want %+v", i, m, w)
		}
	}
	if got.Mentions[0].MentionType != "recommendation" || got.Mentions[0].Sentiment != "positive" {
		t.Errorf("own mention %+v", got.Mentions[0])
	}
	if len(got.CitedSources) != 2 || got.CitedSources[0].Relation != "own" || *got.CitedSources[0].Domain != "acme.com" ||
		!got.CitedSources[1].Unresolved {
		t.Errorf("cited sources %+v", got.CitedSources)
	}
}

func TestExtractRefusesBadInput(t *testing.T) {
	t.Parallel()
	for name, in := range map[string]string{
		"not json":        `{`,
		"unknown field":   `{"answerText": "x", "ownBrand": {"names": ["A"]}, "bogus": 1}`,
		"no answer":       `{"ownBrand": {"names": ["A"]}}`,
		"no own brand":    `{"answerText": "x"}`,
		"bad engine":      `{"engine": "altavista", "answerText": "x", "ownBrand": {"names": ["A"]}}`,
		"two objects":     `{"answerText": "x", "ownBrand": {"names": ["A"]}} {}`,
		"competitor name": `{"answerText": "x", "ownBrand": {"names": ["A"]}, "competitors": [{"names": ["B"]}]}`,
	} {
		t.Run(name, func(t *testing.T) {
			var out bytes.Buffer
			err := extract(context.Background(), noEnv, strings.NewReader(in), nil, &out, io.Discard)
			var coded interface{ ExitCode() int }
			if !errors.As(err, &coded) || coded.ExitCode() != 2 {
				t.Fatalf("err = %v, want a usage error", err)
			}
			if out.Len() != 0 {
				t.Errorf("printed %q", out.String())
			}
		})
	}
}

// extractRun runs `sightline extract args...` through run, as main does,
// with nothing on standard input.
func extractRun(t *testing.T, args ...string) (stdout string, err error) {
	t.Helper()
	return extractRunWithInput(t, "", args...)
}

func extractRunWithInput(t *testing.T, stdin string, args ...string) (stdout string, err error) {
	t.Helper()
	var out, errOut bytes.Buffer
	err = run(context.Background(), append([]string{"extract"}, args...), func(string) string { return "" },
		strings.NewReader(stdin), &out, &errOut)
	return out.String(), err
}

func extractInputFile(t *testing.T, body string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "in.json")
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestExtractThroughRun(t *testing.T) {
	t.Parallel()
	path := extractInputFile(t, `{
		"answerText": "Compared with Zendesk, **Acme** is cheaper. Try acme.com.",
		"citations": [{"url": "https://www.google.com/url?q=https://blog.acme.com/post&sa=U"}, {"url": "https://zendesk.com/x", "title": "Z"}],
		"ownBrand": {"names": ["Acme"], "domains": ["acme.com"]},
		"competitors": [{"id": "0193a7e4-0000-7000-8000-000000000001", "name": "Zendesk", "domains": ["https://www.zendesk.com"]}]
	}`)
	out, err := extractRun(t, "--input", path)
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if got["engine"] != nil {
		t.Errorf("engine %v, want null", got["engine"])
	}
	mentions := got["mentions"].([]any)
	if len(mentions) != 2 {
		t.Fatalf("mentions %v", mentions)
	}
	zendesk := mentions[0].(map[string]any)
	wantKeys := []string{"brandName", "competitorId", "competitorName", "mentionPosition", "mentionRelation", "mentionText", "mentionType", "qualifier", "sentiment"}
	if keys := slices.Sorted(maps.Keys(zendesk)); !slices.Equal(keys, wantKeys) {
		t.Errorf("mention keys %v, want %v", keys, wantKeys)
	}
	if zendesk["competitorId"] != "0193a7e4-0000-7000-8000-000000000001" || zendesk["competitorName"] != "Zendesk" ||
		zendesk["mentionType"] != "comparison" || zendesk["mentionText"] != "Compared with Zendesk, Acme is cheaper." {
		t.Errorf("zendesk %v", zendesk)
	}
	cited := got["citedSources"].([]any)
	first, second := cited[0].(map[string]any), cited[1].(map[string]any)
	// Spec 4.4: a redirector stays unresolved on its own domain, even one
	// that carries the own site.
	if first["url"] != "https://www.google.com/url?q=https://blog.acme.com/post&sa=U" || first["domain"] != "google.com" ||
		first["relation"] != "none" || first["unresolved"] != true {
		t.Errorf("first citation %v", first)
	}
	if got["extractionVersion"] != float64(ingest.ExtractionVersion) {
		t.Errorf("extractionVersion %v", got["extractionVersion"])
	}
	if second["relation"] != "tracked-competitor" || second["competitorName"] != "Zendesk" || second["position"] != 2.0 {
		t.Errorf("second citation %v", second)
	}
}

func TestExtractReadsStdin(t *testing.T) {
	t.Parallel()
	out, err := extractRunWithInput(t, `{"engine": "perplexity", "answerText": "Acme rocks.", "ownBrand": {"names": ["Acme"]}}`)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, `"engine": "perplexity"`) || !strings.Contains(out, `"brandName": "Acme"`) || !strings.Contains(out, `"citedSources": []`) {
		t.Errorf("printed %s", out)
	}
}

func TestExtractRefusalsThroughRun(t *testing.T) {
	t.Parallel()
	valid := `{"answerText": "x", "ownBrand": {"names": ["A"]}}`
	cases := map[string][]string{
		"missing file":     {"--input", filepath.Join(t.TempDir(), "none.json")},
		"extra argument":   {"--input", extractInputFile(t, valid), "more"},
		"unknown flag":     {"--verbose"},
		"empty input":      {"--input", extractInputFile(t, "")},
		"empty own brand":  {"--input", extractInputFile(t, `{"answerText": "x", "ownBrand": {}}`)},
		"blank name":       {"--input", extractInputFile(t, `{"answerText": "x", "ownBrand": {"names": [" "]}}`)},
		"bad domain":       {"--input", extractInputFile(t, `{"answerText": "x", "ownBrand": {"domains": ["https://"]}}`)},
		"bad id":           {"--input", extractInputFile(t, `{"answerText": "x", "ownBrand": {"names": ["A"]}, "competitors": [{"id": "7", "name": "B"}]}`)},
		"duplicate id":     {"--input", extractInputFile(t, `{"answerText": "x", "ownBrand": {"names": ["A"]}, "competitors": [{"id": "0193a7e4-0000-7000-8000-000000000001", "name": "B"}, {"id": "0193a7e4-0000-7000-8000-000000000001", "name": "C"}]}`)},
		"citation url":     {"--input", extractInputFile(t, `{"answerText": "x", "ownBrand": {"names": ["A"]}, "citations": [{"title": "t"}]}`)},
		"null answer":      {"--input", extractInputFile(t, `{"answerText": null, "ownBrand": {"names": ["A"]}}`)},
		"wrong type":       {"--input", extractInputFile(t, `{"answerText": "x", "ownBrand": {"names": "A"}}`)},
		"trailing garbage": {"--input", extractInputFile(t, valid+` x`)},
		"array":            {"--input", extractInputFile(t, `[`+valid+`]`)},
	}
	for name, args := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			out, err := extractRun(t, args...)
			var coded interface{ ExitCode() int }
			if !errors.As(err, &coded) || coded.ExitCode() != 2 || !strings.HasPrefix(err.Error(), "extract: ") {
				t.Fatalf("err = %v, want a usage error", err)
			}
			if out != "" {
				t.Errorf("printed %q", out)
			}
		})
	}
}

func TestExtractHelp(t *testing.T) {
	t.Parallel()
	out, err := extractRun(t, "--help")
	if err != nil || !strings.Contains(out, `"answerText"`) || !strings.Contains(out, "exit status 2") {
		t.Errorf("help printed %q, %v", out, err)
	}
}

// TestExtractWithLLM runs --llm against a recorded chat completions
// response: the model settles the mentions the local rules are unsure of.
func TestExtractWithLLM(t *testing.T) {
	body, err := os.ReadFile("../../ingest/testdata/openai-chat-extraction.json")
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write(body)
	}))
	defer srv.Close()
	in := `{"answerText": "Highly rated options:\n\n- **Acme**\n- **Zendesk**\n\nZorblax has a free plan for students.",
		"ownBrand": {"names": ["Acme"]}, "competitors": [{"name": "Zendesk"}]}`
	vars := map[string]string{"SIGHTLINE_ENGINES": "live", "OPENAI_API_KEY": "sk-test", "OPENAI_BASE_URL": srv.URL}
	getenv := func(k string) string { return vars[k] }
	var out bytes.Buffer
	if err := extract(context.Background(), getenv, strings.NewReader(in), []string{"--llm"}, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	var got extractOutput
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Mentions) != 2 || got.Mentions[1].BrandName != "Zendesk" || got.Mentions[1].Sentiment != "neutral" {
		t.Errorf("mentions %+v", got.Mentions)
	}
	vars["SIGHTLINE_ENGINES"] = "simulator"
	if err := extract(context.Background(), getenv, strings.NewReader(in), []string{"--llm"}, &out, io.Discard); err == nil {
		t.Error("--llm without live engines was accepted")
	}
}
