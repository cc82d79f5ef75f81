package proposal

import (
	"strings"
	"testing"
)

func TestDiscoverKeywords(t *testing.T) {
	t.Parallel()
	got := DiscoverKeywords(KeywordRequest{
		Input: "Acme is a CRM for small businesses. We help sales teams manage their sales pipeline, " +
			"automate follow-up emails and forecast revenue.\ncrm for startups\nsales pipeline software",
		Pages: []string{
			"Best CRM Software in 2025: Compare Reviews | G2",
			"The 10 Best CRM Software for Small Business (2025) - Forbes Advisor",
			"Sales pipeline management: a guide for small teams",
			"Best sales pipeline management tools compared",
			"Celebrity gossip and recipes",
			"Celebrity gossip daily",
		},
		Tracked:         []string{"best crm for startups", "crm software"},
		Exclude:         []string{"Sales Pipeline Software "},
		OwnNames:        []string{"Acme"},
		CompetitorNames: []string{"Globex"},
	})
	texts := map[string]string{}
	for _, k := range got {
		texts[k.QueryText] = k.Source
		t.Logf("%-40s %-9s %.2f", k.QueryText, k.Source, k.Score)
	}
	for _, want := range []string{"crm for startups", "sales pipeline", "sales pipeline management", "globex alternatives",
		"acme vs globex", "crm for small businesses"} {
		if _, ok := texts[want]; !ok {
			t.Errorf("%q not proposed", want)
		}
	}
	for _, never := range []string{"crm software", "sales pipeline software", "best crm for startups", "celebrity gossip",
		"crm softwares"} {
		if _, ok := texts[never]; ok {
			t.Errorf("%q proposed", never)
		}
	}
	for text := range texts {
		if text != strings.ToLower(text) || strings.Contains(text, "  ") {
			t.Errorf("%q is not normalised", text)
		}
	}
	if len(got) > MaxKeywords {
		t.Errorf("%d keywords", len(got))
	}
}
