package engine

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sightline/sightline"
	"github.com/sightline/sightline/ingest"
)

// fuzzSeeds adds every testdata sample whose name starts with prefix, plus a
// few hostile bodies.
func fuzzSeeds(f *testing.F, prefix string) {
	f.Helper()
	names, err := filepath.Glob(filepath.Join("testdata", prefix+"*.json"))
	if err != nil || len(names) == 0 {
		f.Fatalf("no %s samples: %v", prefix, err)
	}
	for _, n := range names {
		data, err := os.ReadFile(n)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	for _, s := range []string{``, `null`, `[]`, `{}`, `"x"`, `{"output":null}`, `{"choices":[{}]}`,
		`{"ai_overview":{"text_blocks":[{"type":"list","list":[{"list":[{"list":null}]}]}]}}`,
		`{"tasks":[{"status_code":20000,"result":[{"items":[{"type":"ai_overview","items":[{"type":"ai_overview_table_element","table":{"table_content":[[1]]}}]}]}]}],"status_code":20000}`} {
		f.Add([]byte(s))
	}
}

// checkAnswer holds for every answer a parser returns.
func checkAnswer(t *testing.T, a *ingest.Answer) {
	t.Helper()
	if a == nil {
		t.Fatal("nil answer without an error")
	}
	seen := map[string]bool{}
	for i, c := range a.Citations {
		if c.Position != i+1 || c.URL == "" || seen[c.URL] {
			t.Fatalf("citation %d: %+v", i, c)
		}
		seen[c.URL] = true
	}
}

func FuzzParseOpenAI(f *testing.F) {
	fuzzSeeds(f, "openai-")
	f.Fuzz(func(t *testing.T, data []byte) {
		a, err := parseOpenAI(sightline.EngineChatGPT, data)
		if err == nil {
			checkAnswer(t, a)
		}
	})
}

func FuzzParsePerplexity(f *testing.F) {
	fuzzSeeds(f, "perplexity-")
	f.Add([]byte(`{"citations":["a","a"],"choices":[{"message":{"content":"<think>[1]</think>[2][1][99999]"}}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		a, err := parsePerplexity(sightline.EnginePerplexity, data)
		if err == nil {
			checkAnswer(t, a)
		}
	})
}

func FuzzParseSerpAPI(f *testing.F) {
	fuzzSeeds(f, "serpapi-")
	f.Fuzz(func(t *testing.T, data []byte) {
		if page, err := parseSerpAPISearch(sightline.EngineGoogleSERP, data); err == nil {
			for _, r := range page.Results {
				if r.Rank <= 0 || r.URL == "" {
					t.Fatalf("result %+v", r)
				}
			}
		}
		if page, err := parseSerpAPIShopping(sightline.EngineGoogleShopping, data, "US"); err == nil {
			for _, o := range page.Offers {
				if o.Rank <= 0 || (o.Currency != "" && len(o.Currency) != 3) {
					t.Fatalf("offer %+v", o)
				}
			}
		}
		if a, token, err := parseSerpAPIAIOverview(sightline.EngineGoogleAIOverview, data); err == nil && token == "" {
			checkAnswer(t, a)
		}
		if a, err := parseSerpAPIAIMode(sightline.EngineGoogleAIMode, data); err == nil {
			checkAnswer(t, a)
		}
	})
}

func FuzzParseDataForSEO(f *testing.F) {
	fuzzSeeds(f, "dataforseo-")
	f.Fuzz(func(t *testing.T, data []byte) {
		items, err := decodeDataForSEO(sightline.EngineGoogleSERP, data)
		if err != nil {
			return
		}
		for _, r := range dataForSEOSearch(items).Results {
			if r.Rank <= 0 || r.URL == "" {
				t.Fatalf("result %+v", r)
			}
		}
		for _, first := range []bool{true, false} {
			if a, err := dataForSEOAnswer(sightline.EngineGoogleAIMode, items, first); err == nil {
				checkAnswer(t, a)
			}
		}
	})
}

func FuzzOfferCurrency(f *testing.F) {
	for _, s := range []string{"$829.00", "12,99 €", "CA$1", "¥", "CHF 1", "kr", "\xff\xfe", "XXX"} {
		f.Add(s, "US")
		f.Add(s, "JP")
	}
	f.Fuzz(func(t *testing.T, display, country string) {
		got := offerCurrency(display, country)
		if got != "" && (len(got) != 3 || strings.ToUpper(got) != got) {
			t.Fatalf("offerCurrency(%q, %q) = %q", display, country, got)
		}
	})
}
