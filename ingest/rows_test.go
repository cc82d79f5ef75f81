package ingest_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/sightline/sightline"
	"github.com/sightline/sightline/ingest"
	"github.com/sightline/sightline/ingest/simulator"
	"github.com/sightline/sightline/olap"
)

// TestPassRowsFitTheCaptureTables builds the rows of simulated passes on
// every engine and checks that the capture tables accept them and that
// search and shopping rows carry the owners the simulator placed.
func TestPassRowsFitTheCaptureTables(t *testing.T) {
	t.Parallel()
	rival := uuid.MustParse("0193c6e4-0000-7000-8000-000000000001")
	brands := ingest.Brands{
		Own: ingest.Brand{Names: []string{"Acme"}, Domains: []string{"acme.com"}},
		Competitors: []ingest.Competitor{{ID: rival, Name: "Globex",
			Brand: ingest.Brand{Names: []string{"Globex"}, Domains: []string{"globex.com"}}}},
	}
	sim := simulator.New(7)
	day0 := time.Date(2026, 9, 1, 0, 0, 0, 0, time.UTC)
	for _, engine := range sightline.Engines {
		for day := range 40 {
			req := ingest.Request{TrackedQueryID: uuid.NewSHA1(uuid.NameSpaceOID, []byte(engine)),
				QueryText: "best crm for startups", Engine: engine, Country: "US", PassIndex: 0, PassCount: 1,
				Day: day0.AddDate(0, 0, day), Brands: brands}
			capture, truth := sim.Generate(req)
			p := olap.Pass{OrganizationID: uuid.New(), ProjectID: uuid.New(), TrackedQueryID: req.TrackedQueryID,
				RunID: uuid.New(), PassCount: 1, Engine: engine, Country: "US", QueryText: req.QueryText,
				CapturedAt: capture.CapturedAt}
			rows := ingest.PassRows(p, capture, brands)
			name := fmt.Sprintf("%s day %d", engine, day)
			if err := rows.Validate(); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			switch {
			case engine.AI():
				if rows.ResponseText == "" || len(rows.SearchResults)+len(rows.ShoppingOffers) != 0 {
					t.Fatalf("%s: answer rows %+v", name, rows)
				}
				if rows.ExtractionVersion != ingest.ExtractionVersion {
					t.Fatalf("%s: extraction version %d, want %d", name, rows.ExtractionVersion, ingest.ExtractionVersion)
				}
			case engine == sightline.EngineGoogleSERP:
				checkOwners(t, name, truth.Results, len(rows.SearchResults), func(i int) (int, sightline.Relation) {
					return rows.SearchResults[i].Rank, rows.SearchResults[i].Relation
				})
			default:
				checkOwners(t, name, truth.Offers, len(rows.ShoppingOffers), func(i int) (int, sightline.Relation) {
					return rows.ShoppingOffers[i].Rank, rows.ShoppingOffers[i].Relation
				})
			}
		}
	}
}

func checkOwners(t *testing.T, name string, truth []simulator.TruthRank, n int, row func(int) (int, sightline.Relation)) {
	t.Helper()
	if n != len(truth) {
		t.Fatalf("%s: %d rows for %d ranked items", name, n, len(truth))
	}
	for i, want := range truth {
		rank, rel := row(i)
		if rank != want.Rank || rel != want.Relation {
			t.Errorf("%s: row %d = rank %d %q, want rank %d %q", name, i, rank, rel, want.Rank, want.Relation)
		}
	}
}

// TestPassRowsStoreRankedDestinations checks that search results and
// shopping offers behind a redirector that carries its destination are
// stored as the destination, and that one carrying none stays the
// redirector, unresolved.
func TestPassRowsStoreRankedDestinations(t *testing.T) {
	t.Parallel()
	brands := ingest.Brands{Own: ingest.Brand{Names: []string{"Acme"}, Domains: []string{"acme.com"}}}
	p := olap.Pass{Engine: sightline.EngineGoogleSERP}
	tests := []struct {
		name, url, wantURL, wantDomain string
		unresolved                     bool
		relation                       sightline.Relation
	}{
		{"direct link", "https://www.acme.com/crm", "https://www.acme.com/crm", "acme.com", false, sightline.RelationOwn},
		{"google /url with q", "https://www.google.com/url?q=https%3A%2F%2Facme.com%2Fpricing&sa=U",
			"https://acme.com/pricing", "acme.com", false, sightline.RelationOwn},
		{"paid click with adurl", "https://www.google.com/aclk?sa=l&adurl=https://shop.acme.com/p/1",
			"https://shop.acme.com/p/1", "shop.acme.com", false, sightline.RelationOwn},
		{"google /url without a destination", "https://www.google.com/url?sa=t", "https://www.google.com/url?sa=t",
			"google.com", true, ""},
		{"shortener", "https://t.co/abc", "https://t.co/abc", "t.co", true, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			search := ingest.PassRows(p, ingest.Capture{Search: &ingest.SearchPage{
				Results: []ingest.SearchResult{{Rank: 1, URL: tt.url, Title: "A result"}}}}, brands).SearchResults
			if len(search) != 1 {
				t.Fatalf("%d search rows", len(search))
			}
			r := search[0]
			if r.URL != tt.wantURL || r.Domain != tt.wantDomain || r.Unresolved != tt.unresolved || r.Relation != tt.relation {
				t.Errorf("search row %q %q unresolved %v relation %q, want %q %q %v %q",
					r.URL, r.Domain, r.Unresolved, r.Relation, tt.wantURL, tt.wantDomain, tt.unresolved, tt.relation)
			}
			offers := ingest.PassRows(p, ingest.Capture{Shopping: &ingest.ShoppingPage{
				Offers: []ingest.Offer{{Rank: 1, Title: "An offer", Price: 10, Currency: "USD", URL: tt.url}}}}, brands).ShoppingOffers
			if len(offers) != 1 {
				t.Fatalf("%d offer rows", len(offers))
			}
			if o := offers[0]; o.URL != tt.wantURL || o.Domain != tt.wantDomain || o.Relation != tt.relation {
				t.Errorf("offer row %q %q relation %q, want %q %q %q", o.URL, o.Domain, o.Relation,
					tt.wantURL, tt.wantDomain, tt.relation)
			}
		})
	}
}
