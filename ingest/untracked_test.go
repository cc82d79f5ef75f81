package ingest

import (
	"slices"
	"testing"
)

// TestExtractUntrackedNames checks which brands the project does not track
// an answer is read to name, against a project tracking Square and BP.
func TestExtractUntrackedNames(t *testing.T) {
	t.Parallel()
	brands := Brands{Own: Brand{Names: []string{"Square"}}, Competitors: []Competitor{{ID: extractZendeskID, Name: "BP"}}}
	cases := []struct {
		name, text string
		want       []string
	}{
		// A tracked name run on into a longer word is not that brand: at a
		// change of case it is its product, in the same case another brand.
		{"tracked name run on in one case", "Squarespace Commerce is easier for a simple storefront. SumUp is the cheapest reader.",
			[]string{"Squarespace", "SumUp"}},
		{"tracked name run on at a change of case", "Square and BPme are the most generous programs.", []string{"Square"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			got := ExtractAnswer(brands, Answer{Text: c.text})
			var names []string
			for _, m := range got.Mentions {
				names = append(names, m.BrandName)
			}
			if !slices.Equal(names, c.want) {
				t.Errorf("brands %q, want %q", names, c.want)
			}
		})
	}
}
