package simulator_test

import (
	"context"
	"fmt"
	"math"
	"net/url"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/google/uuid"

	"github.com/sightline/sightline"
	"github.com/sightline/sightline/ingest"
	"github.com/sightline/sightline/ingest/simulator"
)

// simulatorBrands is a project whose competitors include everyday words
// ("Close", "Nimble", "Trial", the last one also used by the answers'
// wording) and a name with an ampersand.
func simulatorBrands() ingest.Brands {
	comp := func(n int, name string, names, domains []string) ingest.Competitor {
		return ingest.Competitor{ID: uuid.NewSHA1(uuid.NameSpaceOID, []byte{byte(n)}), Name: name,
			Brand: ingest.Brand{Names: names, Domains: domains}}
	}
	return ingest.Brands{
		Own: ingest.Brand{Names: []string{"Brightdesk", "Bright Desk"}, Domains: []string{"brightdesk.com", "brightdesk.io"}},
		Competitors: []ingest.Competitor{
			comp(1, "Close", []string{"Close", "Close CRM"}, []string{"close.com"}),
			comp(2, "Pipeworks", nil, []string{"pipeworks.io"}),
			comp(3, "Hale & Moss", []string{"HaleMoss"}, []string{"halemoss.com"}),
			comp(4, "Nimble", nil, []string{"nimble.com"}),
			comp(5, "Trial", []string{"Trial HQ"}, []string{"trialhq.com"}),
		},
	}
}

var simulatorQueries = []string{
	"best crm for small business", "crm with email automation", "close crm alternatives",
	"what is the best sales pipeline tool?", "brightdesk vs pipeworks", "cheapest helpdesk software",
	"top project management app for agencies", "customer support tool with live chat",
}

var simulatorDay0 = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

func simulatorRequest(e sightline.Engine, query, day, pass int) ingest.Request {
	q := simulatorQueries[query%len(simulatorQueries)]
	return ingest.Request{
		TrackedQueryID: uuid.NewSHA1(uuid.NameSpaceURL, []byte(q+string(e)+strconv.Itoa(query))),
		QueryText:      q, Engine: e, Country: "US", PassIndex: pass, PassCount: 3,
		Day: simulatorDay0.AddDate(0, 0, day), Brands: simulatorBrands(),
	}
}

var simulatorAIEngines = []sightline.Engine{sightline.EngineChatGPT, sightline.EnginePerplexity,
	sightline.EngineGoogleAIOverview, sightline.EngineGoogleAIMode}

func TestSimulatorDeterministic(t *testing.T) {
	t.Parallel()
	for _, e := range sightline.Engines {
		t.Run(string(e), func(t *testing.T) {
			t.Parallel()
			req := simulatorRequest(e, 0, 10, 1)
			c1, t1 := simulator.New(7).Generate(req)
			c2, t2 := simulator.New(7).Generate(req)
			if !reflect.DeepEqual(c1, c2) || !reflect.DeepEqual(t1, t2) {
				t.Fatal("same inputs gave different captures")
			}
			// Any time on the same UTC day, in any zone, is the same day.
			later := req
			later.Day = req.Day.Add(17*time.Hour + 45*time.Minute).In(time.FixedZone("UTC-5", -5*3600))
			if c3, _ := simulator.New(7).Generate(later); !reflect.DeepEqual(c1, c3) {
				t.Fatal("the same UTC day at another time gave a different capture")
			}
			for name, change := range map[string]func(*ingest.Request){
				"day":     func(r *ingest.Request) { r.Day = r.Day.AddDate(0, 0, 1) },
				"pass":    func(r *ingest.Request) { r.PassIndex = 2 },
				"query":   func(r *ingest.Request) { r.TrackedQueryID = uuid.New() },
				"country": func(r *ingest.Request) { r.Country = "GB" },
			} {
				other := req
				change(&other)
				c, _ := simulator.New(7).Generate(other)
				if reflect.DeepEqual(simulatorContent(c), simulatorContent(c1)) {
					t.Errorf("another %s gave the same content", name)
				}
			}
			if c, _ := simulator.New(8).Generate(req); reflect.DeepEqual(simulatorContent(c), simulatorContent(c1)) {
				t.Error("another seed gave the same content")
			}
			day := req.Day.UTC().Truncate(24 * time.Hour)
			if c1.CapturedAt.Before(day) || !c1.CapturedAt.Before(day.Add(24*time.Hour)) || c1.CapturedAt.Location() != time.UTC {
				t.Errorf("capturedAt %v is not within the UTC day %v", c1.CapturedAt, day)
			}
			first := req
			first.PassIndex = 0
			if c0, _ := simulator.New(7).Generate(first); !c0.CapturedAt.Before(c1.CapturedAt) {
				t.Errorf("pass 0 at %v is not before pass 1 at %v", c0.CapturedAt, c1.CapturedAt)
			}
		})
	}
}

// simulatorContent is what a capture says, without its time.
func simulatorContent(c ingest.Capture) any {
	switch {
	case c.Answer != nil:
		return *c.Answer
	case c.Search != nil:
		return *c.Search
	case c.Shopping != nil:
		return *c.Shopping
	}
	return nil
}

func TestSimulatorAsk(t *testing.T) {
	t.Parallel()
	s := simulator.New(3)
	for _, e := range sightline.Engines {
		req := simulatorRequest(e, 1, 3, 0)
		got, err := s.Ask(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := s.Generate(req)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: Ask differs from Generate", e)
		}
		parts := 0
		for _, set := range []bool{got.Answer != nil, got.Search != nil, got.Shopping != nil} {
			if set {
				parts++
			}
		}
		if got.Engine != e || parts != 1 || (got.Answer != nil) != e.AI() ||
			(got.Search != nil) != (e == sightline.EngineGoogleSERP) {
			t.Errorf("%s: capture parts do not match the engine: %+v", e, got)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := s.Ask(ctx, simulatorRequest(sightline.EngineChatGPT, 0, 0, 0)); err == nil {
		t.Error("Ask with a cancelled context succeeded")
	}
	if _, err := s.Ask(context.Background(), simulatorRequest("bing", 0, 0, 0)); err == nil {
		t.Error("Ask on an unknown engine succeeded")
	}
}

// simulatorAnswers generates n answers over the AI engines, queries and days.
func simulatorAnswers(n int) ([]ingest.Request, []ingest.Capture, []simulator.Truth) {
	s := simulator.New(11)
	var reqs []ingest.Request
	var caps []ingest.Capture
	var truths []simulator.Truth
	for i := range n {
		req := simulatorRequest(simulatorAIEngines[i%4], i/4%len(simulatorQueries), i/32, i%3)
		c, tr := s.Generate(req)
		reqs, caps, truths = append(reqs, req), append(caps, c), append(truths, tr)
	}
	return reqs, caps, truths
}

func TestSimulatorAnswerCoverage(t *testing.T) {
	t.Parallel()
	_, caps, truths := simulatorAnswers(800)
	seen := map[string]int{}
	withOwn, withoutTracked, vertex, google := 0, 0, 0, 0
	for i, tr := range truths {
		tracked := false
		for _, m := range tr.Mentions {
			seen[string(m.Type)]++
			seen[string(m.Tone)]++
			seen[string(m.Qualifier)]++
			seen[string(m.Relation)]++
			if m.Relation == sightline.RelationOwn {
				withOwn++
			}
			if m.Relation != sightline.RelationUntrackedCompetitor {
				tracked = true
			}
		}
		if !tracked {
			withoutTracked++
		}
		cites := caps[i].Answer.Citations
		if len(cites) > 8 || len(cites) != len(tr.Citations) {
			t.Fatalf("answer %d: %d citations, %d truths", i, len(cites), len(tr.Citations))
		}
		for k, c := range cites {
			if c.Position != k+1 || tr.Citations[k].Position != k+1 || c.Title == "" {
				t.Fatalf("answer %d: citation %d is %+v", i, k, c)
			}
			if tr.Citations[k].Unresolved {
				vertex++
			}
			if strings.HasPrefix(c.URL, "https://www.google.com/url?q=") {
				google++
			}
		}
	}
	for _, v := range []string{"recommendation", "comparison", "listing", "example", "reference",
		"positive", "neutral", "negative", "direct", "conditional", "own", "tracked-competitor", "untracked-competitor"} {
		if seen[v] < 10 {
			t.Errorf("%q appears %d times over %d answers", v, seen[v], len(truths))
		}
	}
	if rate := float64(withOwn) / float64(len(truths)); rate < 0.1 || rate > 0.8 {
		t.Errorf("own mention rate %.2f is not realistic", rate)
	}
	if withoutTracked == 0 || withoutTracked > len(truths)/5 {
		t.Errorf("%d of %d answers name no tracked brand", withoutTracked, len(truths))
	}
	if vertex == 0 || google == 0 {
		t.Errorf("redirectors: %d unresolved grounding links, %d google links", vertex, google)
	}
}

// simulatorIndexWord is the first case-insensitive occurrence of word in s
// at or after from that is a whole word, or -1.
func simulatorIndexWord(s, word string, from int) int {
	ls, lw := strings.ToLower(s), strings.ToLower(word)
	for from <= len(ls)-len(lw) {
		i := strings.Index(ls[from:], lw)
		if i < 0 {
			return -1
		}
		i += from
		before, _ := utf8.DecodeLastRuneInString(ls[:i])
		after, _ := utf8.DecodeRuneInString(ls[i+len(lw):])
		isWord := func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }
		if (i == 0 || !isWord(before)) && (i+len(lw) == len(ls) || !isWord(after)) {
			return i
		}
		from = i + 1
	}
	return -1
}

var simulatorMarker = regexp.MustCompile(`\[(\d+)\]`)

func TestSimulatorTruthMatchesText(t *testing.T) {
	t.Parallel()
	reqs, caps, truths := simulatorAnswers(800)
	for i, tr := range truths {
		text := caps[i].Answer.Text
		fail := func(format string, args ...any) {
			t.Helper()
			t.Fatalf("answer %d (%s): %s\n%s", i, reqs[i].Engine, fmt.Sprintf(format, args...), text)
		}
		prev := -1
		for k, m := range tr.Mentions {
			at := simulatorIndexWord(text, m.BrandName, 0)
			if m.Position != k+1 || at <= prev {
				fail("mention %+v at offset %d after %d", m, at, prev)
			}
			prev = at
		}
		// Every tracked brand the text names is in the truth, first written
		// where the truth's name first is; no other is.
		brands := reqs[i].Brands
		check := func(rel sightline.Relation, id *uuid.UUID, name string, b ingest.Brand) {
			var found *simulator.TruthMention
			for k, m := range tr.Mentions {
				if m.Relation == rel && reflect.DeepEqual(m.CompetitorID, id) {
					found = &tr.Mentions[k]
				}
			}
			// A name may be respelled ("Chef’s Crate", "Hale and Moss"):
			// the truth's spelling is one of the brand's too.
			names := append(append([]string{name}, b.Names...), b.Domains...)
			if found != nil {
				names = append(names, found.BrandName)
			}
			first := -1
			for _, n := range names {
				if at := simulatorIndexWord(text, n, 0); n != "" && at >= 0 && (first < 0 || at < first) {
					first = at
				}
			}
			switch {
			case found == nil && first >= 0:
				fail("%s %q is named at %d but not in the truth", rel, name, first)
			case found != nil && simulatorIndexWord(text, found.BrandName, 0) != first:
				fail("%s %q first named at %d, truth says %q", rel, name, first, found.BrandName)
			}
		}
		check(sightline.RelationOwn, nil, "", brands.Own)
		for _, c := range brands.Competitors {
			check(sightline.RelationTrackedCompetitor, &c.ID, c.Name, c.Brand)
		}
		// Inline markers number citations by first citation.
		next := 1
		for _, m := range simulatorMarker.FindAllStringSubmatch(text, -1) {
			n, _ := strconv.Atoi(m[1])
			if n > next || n > len(caps[i].Answer.Citations) {
				fail("marker [%d] before [%d] or beyond %d citations", n, next, len(caps[i].Answer.Citations))
			}
			if n == next {
				next++
			}
		}
		for k, c := range caps[i].Answer.Citations {
			simulatorCheckDomain(t, c.URL, tr.Citations[k].Domain, tr.Citations[k].Unresolved, false)
		}
	}
}

// simulatorCheckDomain checks a truth domain against its URL: the URL's
// host, a redirector's (Google /url, Vertex AI grounding, an affiliate
// network) when unresolved, as spec 4.4 has it.
func simulatorCheckDomain(t *testing.T, link, domain string, unresolved, follow bool) {
	t.Helper()
	u, err := url.Parse(link)
	if err != nil {
		t.Fatalf("%s: %v", link, err)
	}
	if follow && u.Host == "www.google.com" && u.Path == "/url" {
		// Ranked results are followed to the destination they carry.
		if u, err = url.Parse(u.Query().Get("q")); err != nil {
			t.Fatalf("%s: %v", link, err)
		}
	}
	redirector := u.Host == "www.google.com" && u.Path == "/url" || u.Host == "vertexaisearch.cloud.google.com" ||
		u.Host == "click.linksynergy.com"
	if got := strings.TrimPrefix(u.Host, "www."); got != domain || unresolved != redirector {
		t.Errorf("%s: truth says %q (unresolved %v)", link, domain, unresolved)
	}
}

func TestSimulatorDrift(t *testing.T) {
	t.Parallel()
	s := simulator.New(5)
	rate := func(query, from, to int) float64 {
		n, own := 0, 0
		for day := from; day <= to; day++ {
			for pass := range 3 {
				_, tr := s.Generate(simulatorRequest(sightline.EngineChatGPT, query, day, pass))
				n++
				for _, m := range tr.Mentions {
					if m.Relation == sightline.RelationOwn {
						own++
					}
				}
			}
		}
		return float64(own) / float64(n)
	}
	moved, diffs := 0, map[string]bool{}
	for q := range simulatorQueries {
		early, late := rate(q, 0, 30), rate(q, 60, 90)
		if math.Abs(early-late) >= 0.15 {
			moved++
		}
		diffs[fmt.Sprintf("%.2f", early-late)] = true
	}
	if moved == 0 || len(diffs) < 3 {
		t.Errorf("own mention rate: %d queries moved by 15 points between days 0-30 and 60-90; distinct changes %v", moved, diffs)
	}
	ranks := map[int]bool{}
	for day := range 90 {
		c, tr := s.Generate(simulatorRequest(sightline.EngineGoogleSERP, 0, day, 0))
		for k, r := range tr.Results {
			if r.Relation == sightline.RelationOwn {
				ranks[r.Rank] = true
			}
			simulatorCheckDomain(t, c.Search.Results[k].URL, r.Domain, false, true)
		}
	}
	if len(ranks) < 3 {
		t.Errorf("own organic ranks over 90 days: %v", ranks)
	}
}

func TestSimulatorSearchPage(t *testing.T) {
	t.Parallel()
	s := simulator.New(9)
	sizes, rated, competitor := map[int]bool{}, 0, 0
	for i := range 200 {
		c, tr := s.Generate(simulatorRequest(sightline.EngineGoogleSERP, i%len(simulatorQueries), i/8, 0))
		res := c.Search.Results
		sizes[len(res)] = true
		if len(res) != len(tr.Results) || len(res) < 6 || len(res) > 10 {
			t.Fatalf("page %d: %d results, %d truths", i, len(res), len(tr.Results))
		}
		for k, r := range res {
			if r.Rank != k+1 || tr.Results[k].Rank != k+1 || r.Title == "" || r.Snippet == "" {
				t.Fatalf("page %d: result %d is %+v", i, k, r)
			}
			if (r.Rating == nil) != (r.RatingVotes == nil) {
				t.Fatalf("page %d: rating without votes: %+v", i, r)
			}
			if r.Rating != nil {
				rated++
			}
			if tr.Results[k].Relation == sightline.RelationTrackedCompetitor {
				competitor++
			}
		}
	}
	if !sizes[10] || len(sizes) < 2 || rated == 0 || competitor == 0 {
		t.Errorf("sizes %v, %d rated, %d competitor results", sizes, rated, competitor)
	}
}

func TestSimulatorShoppingPage(t *testing.T) {
	t.Parallel()
	s := simulator.New(9)
	all, mixed, own := map[string]bool{}, 0, 0
	for i := range 200 {
		c, tr := s.Generate(simulatorRequest(sightline.EngineGoogleShopping, i%len(simulatorQueries), i/8, 0))
		offers := c.Shopping.Offers
		if len(offers) != len(tr.Offers) || len(offers) < 5 || len(offers) > 20 {
			t.Fatalf("page %d: %d offers, %d truths", i, len(offers), len(tr.Offers))
		}
		page := map[string]bool{}
		for k, o := range offers {
			if o.Rank != k+1 || o.Price <= 0 || len(o.Currency) != 3 || len(o.ProductID) != 19 || o.Merchant == "" || o.Title == "" {
				t.Fatalf("page %d: offer %+v", i, o)
			}
			page[o.Currency], all[o.Currency] = true, true
			simulatorCheckDomain(t, o.URL, tr.Offers[k].Domain, false, true)
			if tr.Offers[k].Relation == sightline.RelationOwn {
				own++
			}
		}
		if len(page) > 1 {
			mixed++
		}
	}
	if mixed < 20 || len(all) < 4 || own == 0 {
		t.Errorf("%d of 200 pages mix currencies; currencies %v; %d own offers", mixed, all, own)
	}
}

func BenchmarkSimulatorGenerate(b *testing.B) {
	s := simulator.New(1)
	for _, e := range sightline.Engines {
		b.Run(string(e), func(b *testing.B) {
			i := 0
			for b.Loop() {
				s.Generate(simulatorRequest(e, i%len(simulatorQueries), i%90, i%3))
				i++
			}
		})
	}
}
