package ingest

import (
	"slices"
	"strconv"
	"testing"

	"github.com/google/uuid"
)

var (
	extractZendeskID   = uuid.MustParse("0193a7e4-0000-7000-8000-000000000001")
	extractHubSpotID   = uuid.MustParse("0193a7e4-0000-7000-8000-000000000002")
	extractAcmeCloudID = uuid.MustParse("0193a7e4-0000-7000-8000-000000000003")
	extractCafeID      = uuid.MustParse("0193a7e4-0000-7000-8000-000000000004")
)

// extractBrands is the brand set of most extraction tests: own Acme, and
// competitors whose names overlap it (Acme Cloud), carry a possessive-prone
// capital (HubSpot) or accents (Café Bleu).
func extractBrands() Brands {
	return Brands{
		Own: Brand{Names: []string{"Acme"}, Domains: []string{"acme.com", "acmehq.com"}},
		Competitors: []Competitor{
			{ID: extractZendeskID, Name: "Zendesk", Brand: Brand{Domains: []string{"zendesk.com"}}},
			{ID: extractHubSpotID, Name: "HubSpot", Brand: Brand{Names: []string{"HubSpot CRM"}, Domains: []string{"hubspot.com"}}},
			{ID: extractAcmeCloudID, Name: "Acme Cloud", Brand: Brand{Domains: []string{"cloud.acme.com"}}},
			{ID: extractCafeID, Name: "Café Bleu", Brand: Brand{Domains: []string{"cafebleu.fr"}}},
		},
	}
}

// extractNamed renders mentions as "Name/relation/position" for comparison.
func extractNamed(ms []Mention) []string {
	out := []string{}
	for _, m := range ms {
		out = append(out, m.BrandName+"/"+string(m.Relation)+"/"+strconv.Itoa(m.Position))
	}
	return out
}

func TestExtractMatching(t *testing.T) {
	t.Parallel()
	words := Brands{
		Own: Brand{Names: []string{"Target"}},
		Competitors: []Competitor{
			{ID: extractZendeskID, Name: "Friday"},
			{ID: extractHubSpotID, Name: "Ben & Jerry's"},
			{ID: extractAcmeCloudID, Name: "Nestlé"},
			{ID: extractCafeID, Name: "Ford"},
		},
	}
	devices := Brands{Own: Brand{Names: []string{"Ring"}}, Competitors: []Competitor{{ID: extractZendeskID, Name: "Square"}}}
	plain := Brands{
		Own:         Brand{Names: []string{"Apple"}},
		Competitors: []Competitor{{ID: extractZendeskID, Name: "Amazon"}, {ID: extractHubSpotID, Name: "Shell"}, {ID: extractCafeID, Name: "Square"}},
	}
	cases := []struct {
		brands Brands
		text   string
		want   []string
	}{
		{extractBrands(), "Acme Cloud beats Acme, and HubSpot's CRM is fine.", []string{"Acme Cloud/tracked-competitor/1", "Acme/own/2", "HubSpot/tracked-competitor/3"}},
		{extractBrands(), "We drove past acmeville; superacme is a word.", []string{}},
		{extractBrands(), "Cafe Bleu and CAFÉ BLEU are one.", []string{"Cafe Bleu/tracked-competitor/1"}},
		{extractBrands(), "Support matters ([zendesk.com](https://www.zendesk.com/blog?utm_source=openai)).", []string{"zendesk.com/tracked-competitor/1"}},
		{words, "The target audience is wide; Target is cheap.", []string{"Target/own/1"}},
		{words, "Target audience matters. Buy it by Friday afternoon.", []string{}},
		{words, "Ben and Jerry’s beats Nestle; Fords are affordable.", []string{"Ben and Jerry’s/tracked-competitor/1", "Nestle/tracked-competitor/2", "Ford/tracked-competitor/3"}},
		{words, "Friday is a label; Black Friday is a sale.", []string{"Friday/tracked-competitor/1"}},
		// A title-cased heading repeating a phrase the answer writes in
		// lower case is that phrase; one that does not may name a product.
		{words, "## Target Audience\n\nKnow your target audience before you pick Ford.", []string{"Ford/tracked-competitor/1"}},
		{words, "## Target Circle\n\nTarget's loyalty program saves 5%.", []string{"Target/own/1"}},
		// A word-named brand before one capitalised word may open a longer
		// name; before "the" or several capitalised words it names a product.
		{devices, "Square Enix games go on sale often.", []string{}},
		// A plain-word name before a capitalised word names the brand's
		// product where the answer leads a line with those words too.
		{devices, "SimpliSafe and Ring Alarm are the most popular choices. ADT remains the best-known name.\n\n* **Ring Alarm:** The cheapest monitoring.\n",
			[]string{"SimpliSafe/untracked-competitor/1", "Ring/own/2", "ADT/untracked-competitor/3"}},
		{devices, "Get the Ring Stick Up Cam for the porch.", []string{"Ring/own/1"}},
		{devices, "| Need | Pick |\n|---|---|\n| Porch | Ring Stick Up Cam |\n", []string{"Ring/own/1"}},
		// A plain-word brand opening a sentence or after "the" is the word
		// before a noun it qualifies, and the brand before the people,
		// places and goods a company has, or a verb.
		{plain, "Apple cider vinegar is a popular remedy. The Amazon rainforest is vast.", []string{}},
		{plain, "Apple users get iMessage. Amazon sellers pay referral fees.", []string{"Apple/own/1", "Amazon/tracked-competitor/2"}},
		{plain, "Square footage drives rent. Shell out for more space only if you must.", []string{}},
		{plain, "Shell stations are everywhere.", []string{"Shell/tracked-competitor/1"}},
		{devices, "The Ring camera is easy to set up.", []string{"Ring/own/1"}},
		{words, "Target carries a wide range of groceries.", []string{"Target/own/1"}},
	}
	for _, tc := range cases {
		got := extractNamed(ExtractAnswer(tc.brands, Answer{Text: tc.text}).Mentions)
		if !slices.Equal(got, tc.want) {
			t.Errorf("%q\n got %q\nwant %q", tc.text, got, tc.want)
		}
	}
}

func TestExtractMatcherIsLeftmostLongest(t *testing.T) {
	t.Parallel()
	m := &matcher{}
	m.add("Acme", 0, false)
	m.add("Acme Nimbus Pro", 1, false)
	m.add("Nimbus", 2, false)
	text := []rune("Acme Nimbus Pro, Acme Nimbus, nimbus")
	var got []string
	for _, x := range m.find(text, foldRunes(text)) {
		got = append(got, string(text[x.start:x.end]))
	}
	want := []string{"Acme Nimbus Pro", "Acme", "Nimbus", "nimbus"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}
