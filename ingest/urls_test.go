package ingest

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/sightline/sightline"
)

func TestExtractResolveURL(t *testing.T) {
	t.Parallel()
	// Answer citations: a redirector is unresolved and keeps its domain
	// (spec 4.4), even when it carries its destination.
	for in, domain := range map[string]string{
		"https://www.google.com/url?q=https://www.acme.com/a&sa=U":                      "google.com",
		"https://www.google.co.uk/url?q=https://acme.co.uk/":                            "google.co.uk",
		"https://vertexaisearch.cloud.google.com/grounding-api-redirect/AUZIYQFx9k":     "vertexaisearch.cloud.google.com",
		"https://www.bing.com/ck/a?!&&p=abc&u=a1aHR0cHM6Ly93d3cuYWNtZS5jb20vYQ&ntb=1":   "bing.com",
		"https://click.linksynergy.com/deeplink?id=x&mid=1&murl=https%3A%2F%2Facme.com": "click.linksynergy.com",
		"https://www.awin1.com/cread.php?awinmid=1&ued=https%3A%2F%2Facme.com":          "awin1.com",
		"https://go.skimresources.com/?id=1X&url=https%3A%2F%2Facme.com":                "go.skimresources.com",
		"https://t.co/abc": "t.co",
		"https://acme.sjv.io/c/1/2/3?u=https%3A%2F%2Facme.com": "acme.sjv.io",
	} {
		if got := ResolveURL(in); !got.Unresolved || got.Domain != domain || got.URL != in {
			t.Errorf("ResolveURL(%q) = %+v, want unresolved on %s", in, got, domain)
		}
	}
	for _, in := range []string{"https://www.acme.com/pricing?utm_source=openai", "https://www.amazon.com/dp/B08X?tag=x-20",
		"https://www.google.com/search?q=acme"} {
		if got := ResolveURL(in); got.Unresolved {
			t.Errorf("ResolveURL(%q) = %+v, want resolved", in, got)
		}
	}
}

// TestExtractFollowRedirects: ranked search and shopping URLs are followed
// to the destination a redirector carries.
func TestExtractFollowRedirects(t *testing.T) {
	t.Parallel()
	cases := []struct {
		in         string
		url        string // "" means as given
		domain     string
		unresolved bool
	}{
		{"https://www.acme.com/pricing?utm_source=openai", "", "acme.com", false},
		{"https://vertexaisearch.cloud.google.com/grounding-api-redirect/AUZIYQFx9k", "", "vertexaisearch.cloud.google.com", true},
		{"https://www.google.com/url?sa=t&source=web&rct=j&opi=89978449&url=https://davidstea.com/collections/matcha%3Fsrsltid%3DAfm&ved=2ah",
			"https://davidstea.com/collections/matcha?srsltid=Afm", "davidstea.com", false},
		{"https://google.com/url?q=https://www.acme.com/a&sa=U", "https://www.acme.com/a", "acme.com", false},
		{"https://www.google.co.uk/url?q=https://acme.co.uk/", "https://acme.co.uk/", "acme.co.uk", false},
		{"https://www.google.com/url?q=not-a-url", "", "google.com", true},
		{"https://www.google.com/aclk?sa=L&ai=DCh&adurl=", "", "google.com", true},
		{"https://www.google.com/aclk?sa=L&adurl=https://www.walmart.com/ip/1", "https://www.walmart.com/ip/1", "walmart.com", false},
		{"https://www.google.com/searchviewer/10?svid=CAwS", "", "google.com", true},
		{"https://www.google.com/search?q=Ruby+on+Rails", "", "google.com", false},
		{"https://www.google.com/shopping/product/2022324658094041775?gl=us", "", "google.com", false},
		{"https://news.google.com/rss/articles/CBMiK2h0?oc=5", "", "news.google.com", true},
		{"https://www.bing.com/ck/a?!&&p=abc&u=a1aHR0cHM6Ly93d3cuYWNtZS5jb20vYQ&ntb=1", "https://www.acme.com/a", "acme.com", false},
		{"https://duckduckgo.com/l/?uddg=https%3A%2F%2Facme.com%2Fx&rut=1", "https://acme.com/x", "acme.com", false},
		{"https://l.facebook.com/l.php?u=https%3A%2F%2Facme.com%2F&h=AT0", "https://acme.com/", "acme.com", false},
		{"https://r.search.yahoo.com/_ylt=A0/RV=2/RE=1/RO=10/RU=https%3a%2f%2facme.com%2fy/RK=2/RS=x-", "https://acme.com/y", "acme.com", false},
		{"https://href.li/?https://acme.com/z", "https://acme.com/z", "acme.com", false},
		{"https://bit.ly/3xyz", "", "bit.ly", true},
		{"https://t.co/abc", "", "t.co", true},
		{"https://www.google.com/url?q=https://bit.ly/3xyz", "https://bit.ly/3xyz", "bit.ly", true},
		{"not a url", "", "", false},
	}
	for _, tc := range cases {
		got := followRedirects(tc.in)
		want := tc.url
		if want == "" {
			want = tc.in
		}
		if got.URL != want || got.Domain != tc.domain || got.Unresolved != tc.unresolved {
			t.Errorf("followRedirects(%q) = %+v; want {%s %s %v}", tc.in, got, want, tc.domain, tc.unresolved)
		}
	}
}

func TestExtractCitations(t *testing.T) {
	t.Parallel()
	b := extractBrands()
	a := Answer{Text: "Acme.", Citations: []Citation{
		{Position: 1, URL: "https://www.acme.com/pricing?utm_source=openai", Title: "Pricing"},
		{Position: 2, URL: "https://blog.acmehq.com/post", Title: "Blog"},
		{Position: 3, URL: "https://notacme.com/", Title: "Other"},
		{Position: 4, URL: "https://support.zendesk.com/hc", Title: "Zendesk help"},
		{Position: 5, URL: "https://docs.cloud.acme.com/start", Title: "Cloud docs"},
		{Position: 6, URL: "https://vertexaisearch.cloud.google.com/grounding-api-redirect/AbC", Title: "acme.com"},
		{Position: 7, URL: "https://www.google.com/url?q=https://www.hubspot.com/crm&sa=U", Title: "HubSpot"},
		{Position: 8, URL: "HTTPS://WWW.ACME.COM:443/", Title: ""},
		{Position: 9, URL: "::not a url::", Title: "Broken"},
	}}
	type want struct {
		url        string
		domain     string
		unresolved bool
		rel        sightline.Relation
		id         string
	}
	wants := []want{
		{"https://www.acme.com/pricing?utm_source=openai", "acme.com", false, sightline.RelationOwn, ""},
		{"https://blog.acmehq.com/post", "blog.acmehq.com", false, sightline.RelationOwn, ""},
		{"https://notacme.com/", "notacme.com", false, sightline.RelationNone, ""},
		{"https://support.zendesk.com/hc", "support.zendesk.com", false, sightline.RelationTrackedCompetitor, extractZendeskID.String()},
		{"https://docs.cloud.acme.com/start", "docs.cloud.acme.com", false, sightline.RelationTrackedCompetitor, extractAcmeCloudID.String()},
		{"https://vertexaisearch.cloud.google.com/grounding-api-redirect/AbC", "vertexaisearch.cloud.google.com", true, sightline.RelationNone, ""},
		{"https://www.google.com/url?q=https://www.hubspot.com/crm&sa=U", "google.com", true, sightline.RelationNone, ""},
		{"HTTPS://WWW.ACME.COM:443/", "acme.com", false, sightline.RelationOwn, ""},
		{"::not a url::", "", false, sightline.RelationNone, ""},
	}
	got := ExtractAnswer(b, a).Citations
	if len(got) != len(wants) {
		t.Fatalf("%d citations", len(got))
	}
	for i, w := range wants {
		g := got[i]
		id := ""
		if g.CompetitorID != nil {
			id = g.CompetitorID.String()
		}
		if g.Position != a.Citations[i].Position || g.Title != a.Citations[i].Title || g.URL != w.url || g.Domain != w.domain ||
			g.Unresolved != w.unresolved || g.Relation != w.rel || id != w.id {
			t.Errorf("citation %d = %+v, want %+v", i+1, g, w)
		}
	}
}

// FuzzExtractNormalizeDomain checks that normalisation never panics, is
// idempotent, and returns lower-case hosts without "www." or a port.
func FuzzExtractNormalizeDomain(f *testing.F) {
	for _, s := range []string{"acme.com", "https://www.Acme.com:8443/x", "//a.b", "www.www.x.y.", "http://[::1]/",
		"xn--cole-9oa.fr", "ÉCOLE.fr", "%41cme.com", "a@b@c.com:1", "İ.com", "ǅ.com", "a..b", "http://a%2eb.com/"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, ok := NormalizeDomain(s)
		if !ok {
			if d != "" {
				t.Fatalf("NormalizeDomain(%q) = %q but not ok", s, d)
			}
			return
		}
		again, ok2 := NormalizeDomain(d)
		if !ok2 || again != d {
			t.Fatalf("NormalizeDomain(%q) = %q, then %q (%v)", s, d, again, ok2)
		}
		if !utf8.ValidString(d) || strings.HasPrefix(d, "www.") || strings.ContainsAny(d, ":/?#@ ") || d != strings.ToLower(d) {
			t.Fatalf("NormalizeDomain(%q) = %q", s, d)
		}
		r := ResolveURL(s)
		if r.Domain != "" {
			if again, _ := NormalizeDomain(r.Domain); again != r.Domain {
				t.Fatalf("ResolveURL(%q).Domain = %q is not normal", s, r.Domain)
			}
		}
	})
}
