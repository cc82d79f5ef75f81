package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

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
	if err := extract(strings.NewReader(in), nil, &out); err != nil {
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
			err := extract(strings.NewReader(in), nil, &out)
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
