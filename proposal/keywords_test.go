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

// TestDiscoverKeywordsShapes runs discovery on fixed inputs and checks
// properties of every proposal: the shape of a query, nothing tracked or
// excluded, no brand name glued to a topic, nothing off the input's topic.
func TestDiscoverKeywordsShapes(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		req  KeywordRequest
		want []string // proposed
		off  []string // words no proposal may hold: other brands, other topics
	}{
		{
			name: "crm",
			req: KeywordRequest{
				Input: "Acme CRM is the easiest CRM for small businesses. It helps teams track deals in a simple sales " +
					"pipeline, send follow-up emails and see which customers are ready to buy. Set up in minutes, with " +
					"customer stories from 2,000 teams.",
				Pages: []string{
					"Best CRM Software 2025 - Reviews & Pricing | Capterra", "Best CRM Software for Small Business | G2",
					"Customer Stories | Acme CRM", "Customer Stories | Globex",
					"Blue Fox CRM helps teams with reporting. Plans for every budget; start a free trial today.",
					"Granite Oak Group CRM helps teams with integrations. Plans for every budget.",
					"Acme CRM Crm for Small Business Black", "Blue Fox Easiest crm to set up Bundle",
					"How to Bake Sourdough Bread - Wikipedia", "Best How to Bake Sourdough Bread | PCMag",
					"Sales Pipeline Management Software: The Complete Guide", "Best sales pipeline management software",
				},
				Tracked:         []string{"best crm", "how to bake sourdough bread", "crm for small business"},
				Exclude:         []string{"CRM Pricing"},
				OwnNames:        []string{"Acme CRM", "Acme"},
				CompetitorNames: []string{"Globex"},
				OtherBrandNames: []string{"Blue Fox", "Granite Oak Group"},
			},
			want: []string{"easiest crm", "sales pipeline", "globex alternatives", "acme crm vs globex", "crm alternatives",
				"best crm software"},
			off: []string{"fox", "group", "oak", "sourdough", "bread", "bake", "black", "bundle", "stories"},
		},
		{
			name: "running shoes",
			req: KeywordRequest{
				Input: "RunFast makes lightweight running shoes for road and trail runners. Our cushioned running shoes " +
					"help you train for your first 5k or marathon. Free returns on all running shoes.",
				Pages: []string{
					"Best Running Shoes 2025 | Runner's World", "The best cheap running shoes, tested",
					"Nike Pegasus 41 Review", "Best Protein Powder for Women", "Best Protein Powder 2025",
					"Best 5k Training Plan Of 2025 – Forbes Advisor", "Best 5k Training Plan - Reviews | TrustRadius",
				},
				Tracked:         []string{"best running shoes", "best protein powder", "5k training plan"},
				OwnNames:        []string{"RunFast"},
				CompetitorNames: []string{"Nike"},
			},
			want: []string{"lightweight running shoes", "cushioned running shoes", "nike alternatives", "runfast vs nike"},
			off:  []string{"protein", "powder", "pricing"},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			got := DiscoverKeywords(c.req)
			texts := map[string]bool{}
			for _, k := range got {
				texts[k.QueryText] = true
			}
			for _, w := range c.want {
				if !texts[w] {
					t.Errorf("%q not proposed in %v", w, got)
				}
			}
			skip := map[string]bool{}
			for _, q := range append(append([]string{}, c.req.Tracked...), c.req.Exclude...) {
				skip[stemKey(q, "")] = true
			}
			for _, k := range got {
				ws := strings.Fields(k.QueryText)
				if len(ws) < 2 {
					t.Errorf("%q is a single word", k.QueryText)
				}
				stems := map[string]bool{}
				for _, w := range ws {
					if stems[stem(w, "")] {
						t.Errorf("%q repeats %q", k.QueryText, w)
					}
					stems[stem(w, "")] = true
					if verbs[w] || englishStopWords[w] && w != "for" && w != "vs" {
						t.Errorf("%q holds the verb or function word %q", k.QueryText, w)
					}
					for _, o := range c.off {
						if w == o {
							t.Errorf("%q is off the topic (%q)", k.QueryText, o)
						}
					}
				}
				if danglingEnds[ws[len(ws)-1]] || tailWords[ws[0]] || ws[len(ws)-1] == "for" {
					t.Errorf("%q is a fragment", k.QueryText)
				}
				if skip[stemKey(k.QueryText, "")] {
					t.Errorf("%q is tracked or excluded", k.QueryText)
				}
			}
		})
	}
}

// Words that are verbs in copy but nouns in queries ("help desk") stay in
// the phrases they start.
func TestDiscoverKeywordsKeepsQueryNouns(t *testing.T) {
	t.Parallel()
	got := DiscoverKeywords(KeywordRequest{
		Input:   "help desk software for small teams\nhelp desk for startups",
		Pages:   []string{"Help desk pricing compared", "The best help desk software for small teams"},
		Tracked: []string{"help desk pricing"},
	})
	texts := map[string]bool{}
	for _, k := range got {
		texts[k.QueryText] = true
		if strings.HasPrefix(k.QueryText, "desk") {
			t.Errorf("%q lost the word before desk", k.QueryText)
		}
	}
	if !texts["help desk software"] && !texts["help desk software for small teams"] {
		t.Errorf("no help desk software query among %v", got)
	}
}
