package proposal

import (
	"reflect"
	"testing"
)

func TestDiscoverBrands(t *testing.T) {
	t.Parallel()
	signals := BrandSignals{
		Mentions: []MentionSignal{
			{Name: "Blue Fox", Answers: 6, Weight: 4.5, PositionSum: 12, BrandAnswers: 6, BrandWeight: 4.5},
			{Name: "Globex", Answers: 9, Weight: 9, PositionSum: 9, BrandAnswers: 9, BrandWeight: 9},    // tracked competitor
			{Name: "Acme", Answers: 10, Weight: 10, PositionSum: 10, BrandAnswers: 10, BrandWeight: 10}, // own brand
			{Name: "Zenora", Answers: 1, Weight: 0.5, PositionSum: 4, BrandAnswers: 1, BrandWeight: 0.5},
			{Name: "blue fox", Answers: 1, Weight: 0.4, PositionSum: 6, BrandAnswers: 1, BrandWeight: 0.4},
			// Named only as a source ("Stream's guide", "according to
			// Lumière"): a publisher, not a competitor.
			{Name: "Stream", Answers: 8, Weight: 6, PositionSum: 10},
			// A brand whose domain spells its name without accents or suffix.
			{Name: "Crème Digital Group", Answers: 2, Weight: 1, PositionSum: 4, BrandAnswers: 2, BrandWeight: 1},
		},
		Search: []DomainSignal{
			{Domain: "bluefox.com", Items: 4, Weight: 2, BestRank: 2, Label: "Blue Fox"},
			{Domain: "www.g2.com", Items: 20, Weight: 12, BestRank: 1},
			{Domain: "initech.io", Items: 8, Weight: 6, BestRank: 1, Label: "Initech"},
			{Domain: "blog.acme.com", Items: 3, Weight: 3, BestRank: 1},
			{Domain: "globex.co.uk", Items: 3, Weight: 3, BestRank: 1},
		},
		Shopping: []DomainSignal{{Domain: "shop.initech.io", Items: 2, Weight: 1, BestRank: 3, Label: "Initech Store"}},
		Cited: []DomainSignal{{Domain: "zenora.com", Items: 2}, {Domain: "stream.io", Items: 8},
			{Domain: "cremedigital.com", Items: 1}},
	}
	got := DiscoverBrands(signals, TrackedBrands{
		Names: []string{"Acme", "Globex Corp"}, Domains: []string{"acme.com", "globex.com"},
	})
	var names []string
	for _, b := range got {
		names = append(names, b.Name)
	}
	if want := []string{"Blue Fox", "Initech", "Crème Digital Group", "Zenora"}; !reflect.DeepEqual(names, want) {
		t.Fatalf("brands %q, want %q", names, want)
	}
	fox := got[0]
	if !reflect.DeepEqual(fox.WebsiteDomains, []string{"bluefox.com"}) || fox.MentionCount != 7 ||
		*fox.AvgMentionPosition != 2.57 || fox.SearchResultCount != 4 || *fox.BestSearchRank != 2 || fox.Score != 6.1 {
		t.Errorf("Blue Fox: %+v", fox)
	}
	if !reflect.DeepEqual(fox.BrandNames, []string{"Blue Fox"}) {
		t.Errorf("Blue Fox names %q", fox.BrandNames)
	}
	initech := got[1]
	if initech.AvgMentionPosition != nil || initech.ShoppingOfferCount != 2 || *initech.BestShoppingRank != 3 ||
		!reflect.DeepEqual(initech.WebsiteDomains, []string{"initech.io"}) {
		t.Errorf("Initech: %+v", initech)
	}
	if !reflect.DeepEqual(got[3].WebsiteDomains, []string{"zenora.com"}) {
		t.Errorf("Zenora's site from citations: %+v", got[3])
	}
	if !reflect.DeepEqual(got[2].WebsiteDomains, []string{"cremedigital.com"}) {
		t.Errorf("Crème Digital Group's site from citations: %+v", got[2])
	}
	if len(DiscoverBrands(BrandSignals{}, TrackedBrands{})) != 0 {
		t.Error("brands from no captures")
	}
}

func TestTitleLabel(t *testing.T) {
	t.Parallel()
	for title, want := range map[string]string{
		"Globex - CRM for teams": "Globex",
		"Blue Fox | Home":        "Blue Fox",
		"The 10 best CRM tools for startups in 2025 tested": "",
		"Initech: Invoicing": "Initech",
	} {
		if got := TitleLabel(title); got != want {
			t.Errorf("TitleLabel(%q) = %q, want %q", title, got, want)
		}
	}
}
