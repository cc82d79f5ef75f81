package olap_test

import (
	"context"
	"math"
	"slices"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/sightline/sightline"
	"github.com/sightline/sightline/olap"
	"github.com/sightline/sightline/olap/olaptest"
)

func TestDiscoveryReads(t *testing.T) {
	t.Parallel()
	f := newCapturesFixture(t)
	ctx := context.Background()
	none, untracked := sightline.RelationNone, sightline.RelationUntrackedCompetitor
	q, run1, run2, serp, shop := uuid.New(), uuid.New(), uuid.New(), uuid.New(), uuid.New()
	mention := func(name string, pos int) olap.Mention {
		return f.mention(name, untracked, nil, pos, sightline.MentionListing, sightline.ToneNeutral, sightline.QualifierDirect)
	}
	a := f.pass(q, run1, sightline.EngineChatGPT, 0, 2, 1)
	a.ResponseText = "Blue Fox and Zenora."
	a.Mentions = []olap.Mention{f.own(1, sightline.MentionListing, sightline.ToneNeutral, sightline.QualifierDirect),
		mention("Blue Fox", 2), mention("Zenora", 4)}
	a.Citations = []olap.Citation{f.citation(1, "bluefox.com", "/", none, nil), f.citation(2, f.ownDomain, "/", sightline.RelationOwn, nil)}
	b := f.pass(q, run1, sightline.EngineChatGPT, 1, 2, 1)
	b.ResponseText = "blue fox."
	b.Mentions = []olap.Mention{mention("blue fox", 1)}
	s := f.pass(serp, run2, sightline.EngineGoogleSERP, 0, 1, 2)
	s.SearchResults = []olap.SearchResult{f.result(1, "initech.io", none, nil), f.result(2, f.ownDomain, sightline.RelationOwn, nil),
		f.result(4, "initech.io", none, nil)}
	s.SearchResults[0].Title = "Initech - Invoicing for teams"
	o := f.pass(shop, uuid.New(), sightline.EngineGoogleShopping, 0, 1, 3)
	o.ShoppingOffers = []olap.ShoppingOffer{f.offer(3, "shop.globex.com", none, nil)}
	// A capture from another country and one from before the window.
	old := f.pass(q, uuid.New(), sightline.EngineChatGPT, 0, 1, -24*200)
	old.Mentions = []olap.Mention{mention("Ancient", 1)}
	gb := f.pass(q, uuid.New(), sightline.EngineChatGPT, 0, 1, 1)
	gb.Country = "GB"
	gb.Mentions = []olap.Mention{mention("Londoner", 1)}
	if err := olaptest.InsertPasses(ctx, f.conn, []olap.PassRows{a, b, s, o, old, gb}); err != nil {
		t.Fatal(err)
	}

	d := olap.Discovery{Conn: f.conn}
	filter := olap.DiscoveryFilter{ProjectID: f.project, Since: f.day.AddDate(0, 0, -90), Country: "US"}
	mentions, err := d.UntrackedMentions(ctx, filter)
	if err != nil {
		t.Fatal(err)
	}
	if len(mentions) != 2 || mentions[0].Name != "Blue Fox" || mentions[0].Answers != 2 || mentions[0].PositionSum != 3 ||
		math.Abs(mentions[0].Weight-(1/math.Sqrt2+1)) > 1e-9 || mentions[1].Name != "Zenora" {
		t.Fatalf("mentions %+v", mentions)
	}
	search, err := d.UntrackedSearchDomains(ctx, filter)
	if err != nil {
		t.Fatal(err)
	}
	if len(search) != 1 || search[0].Domain != "initech.io" || search[0].Items != 2 || search[0].BestRank != 1 ||
		search[0].Label != "Initech - Invoicing for teams" {
		t.Fatalf("search %+v", search)
	}
	shopping, err := d.UntrackedShoppingDomains(ctx, filter)
	if err != nil {
		t.Fatal(err)
	}
	if len(shopping) != 1 || shopping[0].Domain != "shop.globex.com" || shopping[0].BestRank != 3 {
		t.Fatalf("shopping %+v", shopping)
	}
	cited, err := d.UntrackedCitedDomains(ctx, filter)
	if err != nil {
		t.Fatal(err)
	}
	if len(cited) != 1 || cited[0].Domain != "bluefox.com" {
		t.Fatalf("cited %+v", cited)
	}
	texts, err := d.PageTexts(ctx, filter)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Initech - Invoicing for teams", "About initech.io", "Widget", "bluefox.com page"} {
		if !slices.Contains(texts, want) {
			t.Errorf("page texts %q lack %q", texts, want)
		}
	}
	all, err := d.UntrackedMentions(ctx, olap.DiscoveryFilter{ProjectID: f.project, Since: time.Time{}})
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 4 {
		t.Errorf("every country and day: %+v", all)
	}
	other, err := d.UntrackedMentions(ctx, olap.DiscoveryFilter{ProjectID: uuid.New(), Since: time.Time{}})
	if err != nil || len(other) != 0 {
		t.Errorf("another project: %+v %v", other, err)
	}
}
