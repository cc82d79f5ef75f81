package proposal

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzProposals feeds arbitrary text to every method: none may panic, and
// what they propose must be storable (valid UTF-8, within the lengths of
// cluster names, brand names and query texts).
func FuzzProposals(f *testing.F) {
	for _, seed := range []string{"best crm for startups", "E-Mail Marketing — Preise?", "HubSpot Inc.", "ÉlantaCRM",
		"o'neill's 2025 guide", "\x00\xff", "for for for", "-a- b-"} {
		f.Add(seed, "acme.com")
	}
	f.Fuzz(func(t *testing.T, text, domain string) {
		var existing []ExistingCluster
		if name := truncateName(text); name != "" {
			existing = append(existing, ExistingCluster{ID: [16]byte{9}, Name: name})
		}
		p := Cluster(ClusterRequest{Queries: []ClusterQuery{
			{ID: [16]byte{1}, Text: text}, {ID: [16]byte{2}, Text: text + " pricing"}, {ID: [16]byte{3}, Text: "crm " + text},
		}, Existing: existing})
		for _, c := range p.Clusters {
			if utf8.RuneCountInString(c.Name) > 200 || c.Name == "" || c.Name != strings.ToLower(c.Name) {
				t.Fatalf("cluster name %q", c.Name)
			}
		}
		for _, s := range SuggestBrandNames(text, []string{domain}, nil, "US") {
			if s.Name == "" || utf8.RuneCountInString(s.Name) > 255 {
				t.Fatalf("suggestion %q", s.Name)
			}
		}
		for _, k := range DiscoverKeywords(KeywordRequest{Input: text, Pages: []string{text, text}}) {
			if k.QueryText == "" || utf8.RuneCountInString(k.QueryText) > 500 {
				t.Fatalf("keyword %q", k.QueryText)
			}
		}
		DiscoverBrands(BrandSignals{Mentions: []MentionSignal{{Name: text, Answers: 1, Weight: 1}},
			Search: []DomainSignal{{Domain: domain, Items: 1, Weight: 1, Label: text}}}, TrackedBrands{Names: []string{text}})
	})
}
