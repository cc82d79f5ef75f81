package api

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"reflect"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ClickHouse/clickhouse-go/v2/lib/driver"
	"github.com/google/uuid"

	"github.com/sightline/sightline"
	"github.com/sightline/sightline/olap"
	"github.com/sightline/sightline/olap/olaptest"
)

// capturesSlot is the CaptureReader of every test fixture: empty until a
// test asks for a ClickHouse database with f.captures, so the many tests
// that never read captures do not migrate one.
type capturesSlot struct{ reader atomic.Pointer[olap.Reader] }

func (c *capturesSlot) load() (*olap.Reader, error) {
	if r := c.reader.Load(); r != nil {
		return r, nil
	}
	return nil, errors.New("no capture database: the test must call f.captures() first")
}

func (c *capturesSlot) AIAnswers(ctx context.Context, f olap.ReadFilter) ([]olap.AIAnswer, int, error) {
	r, err := c.load()
	if err != nil {
		return nil, 0, err
	}
	return r.AIAnswers(ctx, f)
}

func (c *capturesSlot) SearchSnapshots(ctx context.Context, f olap.ReadFilter) ([]olap.SearchSnapshot, int, error) {
	r, err := c.load()
	if err != nil {
		return nil, 0, err
	}
	return r.SearchSnapshots(ctx, f)
}

func (c *capturesSlot) ShoppingSnapshots(ctx context.Context, f olap.ReadFilter) ([]olap.ShoppingSnapshot, int, error) {
	r, err := c.load()
	if err != nil {
		return nil, 0, err
	}
	return r.ShoppingSnapshots(ctx, f)
}

func (c *capturesSlot) MentionMatches(ctx context.Context, f olap.ReadFilter) ([]olap.MentionMatch, int, error) {
	r, err := c.load()
	if err != nil {
		return nil, 0, err
	}
	return r.MentionMatches(ctx, f)
}

func (c *capturesSlot) SerpMatches(ctx context.Context, f olap.ReadFilter) ([]olap.SerpMatch, int, error) {
	r, err := c.load()
	if err != nil {
		return nil, 0, err
	}
	return r.SerpMatches(ctx, f)
}

// captures gives the fixture's API its own migrated ClickHouse database and
// returns a connection to it for inserting captures.
func (f *fixture) captures() driver.Conn {
	f.t.Helper()
	conn := olaptest.NewConn(f.t)
	f.server.captures.(*capturesSlot).reader.Store(&olap.Reader{Conn: conn})
	return conn
}

// capturesFixture is an organization with a project, its owner and a
// capture database.
type capturesFixture struct {
	*fixture
	conn         driver.Conn
	owner        member
	org, project uuid.UUID
	// day is a UTC day three days ago, well inside retention.
	day time.Time
}

func capturesSetup(t *testing.T) *capturesFixture {
	t.Helper()
	f := setup(t)
	owner, org := f.owner()
	y, m, d := time.Now().UTC().AddDate(0, 0, -3).Date()
	return &capturesFixture{fixture: f, conn: f.captures(), owner: owner, org: org,
		project: f.project(org, "Captures"), day: time.Date(y, m, d, 0, 0, 0, 0, time.UTC)}
}

// query inserts a tracked query of project on engine.
func (cf *capturesFixture) query(project uuid.UUID, engine sightline.Engine, text string) uuid.UUID {
	cf.t.Helper()
	id := uuid.Must(uuid.NewV7())
	passes := 3
	if !engine.AI() {
		passes = 1
	}
	if _, err := cf.pool.Exec(context.Background(), `
		INSERT INTO tracked_queries (id, project_id, query_text, engine, country, locale, check_frequency, n_passes)
		VALUES ($1, $2, $3, $4, 'US', 'en', 'daily', $5)`, id, project, text, string(engine), passes); err != nil {
		cf.t.Fatal(err)
	}
	return id
}

// pass is pass index of count of a run of query in project, captured at.
func (cf *capturesFixture) pass(project, query, run uuid.UUID, engine sightline.Engine, index, count uint8, at time.Time) olap.PassRows {
	return olap.PassRows{Pass: olap.Pass{
		OrganizationID: cf.org, ProjectID: project, TrackedQueryID: query, RunID: run, PassIndex: index,
		PassCount: count, Engine: engine, Country: "US", Locale: "en", QueryText: "best crm", CapturedAt: at,
	}}
}

func (cf *capturesFixture) insert(passes ...olap.PassRows) {
	cf.t.Helper()
	if err := olaptest.InsertPasses(context.Background(), cf.conn, passes); err != nil {
		cf.t.Fatal(err)
	}
}

// path is a path under the project, or under another project when given.
func (cf *capturesFixture) path(suffix string, project ...uuid.UUID) string {
	p := cf.project
	if len(project) > 0 {
		p = project[0]
	}
	return fmt.Sprintf("/api/v1/organizations/%s/projects/%s%s", cf.org, p, suffix)
}

func (cf *capturesFixture) get(path string) response {
	cf.t.Helper()
	return cf.do(call{method: http.MethodGet, path: path, key: cf.owner.key})
}

// capturesPage decodes a listing answer, failing unless it is 200.
func capturesPage[T any](t *testing.T, r response) listing[T] {
	t.Helper()
	if r.status != http.StatusOK {
		t.Fatalf("status %d: %s", r.status, r.body)
	}
	var l listing[T]
	if err := json.Unmarshal(r.body, &l); err != nil {
		t.Fatalf("decoding %s: %v", r.body, err)
	}
	return l
}

// capturesIDs returns the id field of every row.
func capturesIDs[T any](rows []T, id func(T) uuid.UUID) []uuid.UUID {
	out := make([]uuid.UUID, len(rows))
	for i, r := range rows {
		out[i] = id(r)
	}
	return out
}

// capturesJSON is v as generic JSON, for comparing shapes and values.
func capturesJSON(t *testing.T, v any) any {
	t.Helper()
	raw, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// capturesExpectDetail checks a 400 naming field with code.
func capturesExpectDetail(t *testing.T, r response, field, code string) {
	t.Helper()
	m := assertError(t, r, http.StatusBadRequest, sightline.CodeValidation)
	if got := detailCodesOf(t, m)[field]; !slices.Contains(got, code) {
		t.Fatalf("details %v, want %s %s", m["details"], field, code)
	}
}

// capturesAnswer is the expected record of an AI pass.
func capturesAnswer(p olap.PassRows) olap.AIAnswer {
	a := olap.AIAnswer{ID: p.CaptureID(), TrackedQueryID: p.TrackedQueryID, QueryText: p.QueryText, Engine: p.Engine,
		Country: p.Country, PassIndex: int(p.PassIndex), PassCount: int(p.PassCount),
		CapturedAt: sightline.Timestamp{Time: p.CapturedAt}, ResponseText: p.ResponseText,
		CitedSources: []olap.AIAnswerSource{}}
	if p.Locale != "" {
		a.Locale = &p.Locale
	}
	for _, c := range p.Citations {
		s := olap.AIAnswerSource{Position: c.Position, URL: c.URL, Domain: c.Domain, Unresolved: c.Unresolved}
		if c.Title != "" {
			s.Title = &c.Title
		}
		a.CitedSources = append(a.CitedSources, s)
	}
	return a
}

func TestCapturesAIResponses(t *testing.T) {
	t.Parallel()
	cf := capturesSetup(t)
	q1 := cf.query(cf.project, sightline.EngineChatGPT, "best crm")
	q2 := cf.query(cf.project, sightline.EnginePerplexity, "crm for startups")
	serp := cf.query(cf.project, sightline.EngineGoogleSERP, "best crm")
	sibling := cf.fixture.project(cf.org, "Sibling")
	theirs := cf.query(sibling, sightline.EngineChatGPT, "best crm")
	day, ms := cf.day, time.Millisecond

	// A: two passes at the first instant of day; B: the last instant of
	// day; C: the last instant of the day before; D: the first instant of
	// the day after. The sibling's answer and the search page never show.
	a0 := cf.pass(cf.project, q1, uuid.New(), sightline.EngineChatGPT, 0, 2, day)
	a0.ResponseText = "Acme leads, see sources."
	a0.Citations = []olap.Citation{
		{Position: 1, URL: "https://acme.com/pricing", Domain: "acme.com", Title: "Pricing", Relation: sightline.RelationOwn},
		{Position: 2, URL: "https://vertexaisearch.cloud.google.com/grounding-api-redirect/x",
			Domain: "vertexaisearch.cloud.google.com", Unresolved: true},
	}
	a1 := cf.pass(cf.project, q1, a0.RunID, sightline.EngineChatGPT, 1, 2, day)
	a1.ResponseText = "Second pass."
	b := cf.pass(cf.project, q1, uuid.New(), sightline.EngineChatGPT, 0, 1, day.Add(24*time.Hour-ms))
	b.ResponseText = "Late answer."
	c := cf.pass(cf.project, q2, uuid.New(), sightline.EnginePerplexity, 0, 1, day.Add(-ms))
	c.Locale, c.ResponseText = "", "Asked without a language."
	d := cf.pass(cf.project, q2, uuid.New(), sightline.EnginePerplexity, 0, 1, day.Add(24*time.Hour))
	d.ResponseText = "Next day."
	foreign := cf.pass(sibling, theirs, uuid.New(), sightline.EngineChatGPT, 0, 1, day.Add(12*time.Hour))
	foreign.ResponseText = "Sibling project."
	page := cf.pass(cf.project, serp, uuid.New(), sightline.EngineGoogleSERP, 0, 1, day.Add(12*time.Hour))
	page.SearchResults = []olap.SearchResult{{Rank: 1, URL: "https://acme.com/", Domain: "acme.com", Title: "Acme",
		Relation: sightline.RelationOwn}}
	cf.insert(a0, a1, b, c, d, foreign, page)

	base := cf.path("/ai-responses")
	id := func(a olap.AIAnswer) uuid.UUID { return a.ID }
	ids := func(ps ...olap.PassRows) []uuid.UUID {
		out := make([]uuid.UUID, len(ps))
		for i, p := range ps {
			out[i] = p.CaptureID()
		}
		return out
	}
	dayText := day.Format(time.DateOnly)

	tests := []struct {
		name          string
		query         string
		want          []uuid.UUID
		total         int
		limit, offset int
	}{
		{"newest first, passes of a run in order", "", ids(d, b, a0, a1, c), 5, 20, 0},
		{"paging", "?limit=2&offset=1", ids(b, a0), 5, 2, 1},
		{"offset past the end", "?offset=10", ids(), 5, 20, 10},
		{"one day widened to its first and last instants", "?dateFrom=" + dayText + "&dateTo=" + dayText,
			ids(b, a0, a1), 3, 20, 0},
		{"dateFrom alone runs to today", "?dateFrom=" + day.AddDate(0, 0, 1).Format(time.DateOnly), ids(d), 1, 20, 0},
		{"dateTo alone starts at the retention floor", "?dateTo=" + day.AddDate(0, 0, -1).Format(time.DateOnly),
			ids(c), 1, 20, 0},
		{"tracked query", "?trackedQueryId=" + q2.String(), ids(d, c), 2, 20, 0},
		{"a far dateTo", "?dateTo=9999-12-31", ids(d, b, a0, a1, c), 5, 20, 0},
		{"a window after tomorrow", "?dateFrom=2999-01-01&dateTo=2999-01-02", ids(), 0, 20, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := capturesPage[olap.AIAnswer](t, cf.get(base+tt.query))
			if got := capturesIDs(l.Page, id); !slices.Equal(got, tt.want) || l.Total != tt.total ||
				l.Limit != tt.limit || l.Offset != tt.offset {
				t.Fatalf("page %v total %d limit %d offset %d; want %v %d %d %d", got, l.Total, l.Limit, l.Offset,
					tt.want, tt.total, tt.limit, tt.offset)
			}
		})
	}

	t.Run("records", func(t *testing.T) {
		l := capturesPage[json.RawMessage](t, cf.get(base))
		var first map[string]any
		if err := json.Unmarshal(l.Page[2], &first); err != nil {
			t.Fatal(err)
		}
		want := map[string]any{
			"id": a0.CaptureID().String(), "trackedQueryId": q1.String(), "queryText": "best crm", "engine": "chatgpt",
			"country": "US", "locale": "en", "passIndex": 0.0, "passCount": 2.0,
			"capturedAt": day.Format(sightline.TimestampLayout), "responseText": "Acme leads, see sources.",
			"citedSources": []any{
				map[string]any{"position": 1.0, "url": "https://acme.com/pricing", "domain": "acme.com",
					"title": "Pricing", "unresolved": false},
				map[string]any{"position": 2.0, "url": "https://vertexaisearch.cloud.google.com/grounding-api-redirect/x",
					"domain": "vertexaisearch.cloud.google.com", "title": nil, "unresolved": true},
			},
		}
		if !reflect.DeepEqual(first, want) {
			t.Fatalf("record\n%v\nwant\n%v", first, want)
		}
		all := capturesPage[olap.AIAnswer](t, cf.get(base))
		for i, p := range []olap.PassRows{d, b, a0, a1, c} {
			if got, want := capturesJSON(t, all.Page[i]), capturesJSON(t, capturesAnswer(p)); !reflect.DeepEqual(got, want) {
				t.Errorf("row %d\n%v\nwant\n%v", i, got, want)
			}
		}
	})

	t.Run("refusals", func(t *testing.T) {
		floor := captureRetentionFloor(time.Now())
		refusals := []struct{ query, field, code string }{
			{"?dateFrom=" + floor.AddDate(0, 0, -1).Format(time.DateOnly), "dateFrom", "out_of_range"},
			{"?dateFrom=" + dayText + "&dateTo=" + day.AddDate(0, 0, -1).Format(time.DateOnly), "dateTo", "out_of_range"},
			{"?dateFrom=" + time.Now().UTC().AddDate(0, 0, 2).Format(time.DateOnly), "dateFrom", "out_of_range"},
			{"?dateTo=" + floor.AddDate(0, 0, -1).Format(time.DateOnly), "dateTo", "out_of_range"},
			{"?dateFrom=2025-13-01", "dateFrom", "invalid_value"},
			{"?dateTo=yesterday", "dateTo", "invalid_value"},
			{"?trackedQueryId=" + theirs.String(), "trackedQueryId", "invalid_value"},
			{"?trackedQueryId=" + uuid.NewString(), "trackedQueryId", "invalid_value"},
			{"?trackedQueryId=nope", "trackedQueryId", "invalid_uuid"},
			{"?sortOrder=asc", "sortOrder", "unknown_field"},
			{"?engines=chatgpt", "engines", "unknown_field"},
			{"?limit=101", "limit", "out_of_range"},
		}
		for _, r := range refusals {
			capturesExpectDetail(t, cf.get(base+r.query), r.field, r.code)
		}
		// The floor itself is inside retention.
		l := capturesPage[olap.AIAnswer](t, cf.get(base+"?dateFrom="+floor.Format(time.DateOnly)))
		if l.Total != 5 {
			t.Fatalf("from the floor: total %d, want 5", l.Total)
		}
	})
}

func TestCapturesRetentionFloor(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ now, want string }{
		{"2026-05-15T10:00:00Z", "2025-01-15"},
		{"2026-06-30T23:59:59Z", "2025-02-28"},
		{"2028-06-30T00:00:00Z", "2027-02-28"},
		{"2027-06-29T00:00:00Z", "2026-02-28"},
		{"2026-04-30T00:00:00Z", "2024-12-30"},
	} {
		now, _ := time.Parse(time.RFC3339, tt.now)
		if got := captureRetentionFloor(now).Format(time.DateOnly); got != tt.want {
			t.Errorf("floor of %s = %s, want %s", tt.now, got, tt.want)
		}
	}
}

// capturesSnapshotData is a project with search and shopping pages.
type capturesSnapshotData struct {
	serp1, serp2, shop      uuid.UUID
	early, empty, other     olap.PassRows // search pages
	offers, noOffers        olap.PassRows // shopping pages
	competitor, siblingSerp uuid.UUID
	sibling                 uuid.UUID
}

func (cf *capturesFixture) snapshotData() capturesSnapshotData {
	cf.t.Helper()
	s := capturesSnapshotData{competitor: uuid.New()}
	s.serp1 = cf.query(cf.project, sightline.EngineGoogleSERP, "best crm")
	s.serp2 = cf.query(cf.project, sightline.EngineGoogleSERP, "crm pricing")
	s.shop = cf.query(cf.project, sightline.EngineGoogleShopping, "crm software")
	s.sibling = cf.fixture.project(cf.org, "Sibling")
	s.siblingSerp = cf.query(s.sibling, sightline.EngineGoogleSERP, "best crm")
	rating, votes := 4.5, 120

	// Milliseconds past the second: a page's time span must still hold it.
	s.early = cf.pass(cf.project, s.serp1, uuid.New(), sightline.EngineGoogleSERP, 0, 1,
		cf.day.Add(10*time.Hour+250*time.Millisecond))
	s.early.SearchResults = []olap.SearchResult{
		{Rank: 1, URL: "https://rival.example/", Domain: "rival.example", Title: "Rival", Snippet: "The rival.",
			Relation: sightline.RelationTrackedCompetitor, CompetitorID: &s.competitor},
		{Rank: 2, URL: "https://news.example/crm", Domain: "news.example", Title: "News", Rating: &rating,
			RatingVotes: &votes},
		{Rank: 3, URL: "https://acme.com/", Domain: "acme.com", Title: "Acme", Snippet: "Our CRM.",
			Relation: sightline.RelationOwn},
		{Rank: 4, URL: "https://www.google.com/url?q=x", Domain: "google.com", Title: "Redirect", Unresolved: true},
	}
	s.empty = cf.pass(cf.project, s.serp1, uuid.New(), sightline.EngineGoogleSERP, 0, 1, cf.day.Add(34*time.Hour))
	s.other = cf.pass(cf.project, s.serp2, uuid.New(), sightline.EngineGoogleSERP, 0, 1, cf.day.Add(-14*time.Hour))
	s.other.SearchResults = []olap.SearchResult{{Rank: 1, URL: "https://acme.com/pricing", Domain: "acme.com",
		Title: "Pricing", Relation: sightline.RelationOwn}}
	foreign := cf.pass(s.sibling, s.siblingSerp, uuid.New(), sightline.EngineGoogleSERP, 0, 1, cf.day.Add(11*time.Hour))
	foreign.SearchResults = []olap.SearchResult{{Rank: 1, URL: "https://acme.com/", Domain: "acme.com", Title: "Acme"}}

	s.offers = cf.pass(cf.project, s.shop, uuid.New(), sightline.EngineGoogleShopping, 0, 1, cf.day.Add(12*time.Hour))
	s.offers.ShoppingOffers = []olap.ShoppingOffer{
		{Rank: 1, Title: "Acme CRM", Price: 19.99, Currency: "USD", ProductID: "p-1", Merchant: "Acme",
			Domain: "acme.com", URL: "https://acme.com/buy", Relation: sightline.RelationOwn},
		{Rank: 2, Title: "Rival CRM", Price: 18.5, Currency: "EUR", Merchant: "Marketplace"},
	}
	s.noOffers = cf.pass(cf.project, s.shop, uuid.New(), sightline.EngineGoogleShopping, 0, 1, cf.day.Add(36*time.Hour))
	cf.insert(s.early, s.empty, s.other, foreign, s.offers, s.noOffers)
	return s
}

func TestCapturesSearchSnapshots(t *testing.T) {
	t.Parallel()
	cf := capturesSetup(t)
	s := cf.snapshotData()
	base := cf.path("/search-snapshots")
	id := func(x olap.SearchSnapshot) uuid.UUID { return x.ID }
	early, empty, other := s.early.CaptureID(), s.empty.CaptureID(), s.other.CaptureID()

	for _, tt := range []struct {
		name  string
		query string
		want  []uuid.UUID
		total int
	}{
		{"newest first", "", []uuid.UUID{empty, early, other}, 3},
		{"oldest first", "?sortOrder=asc", []uuid.UUID{other, early, empty}, 3},
		{"paging", "?limit=1&offset=1", []uuid.UUID{early}, 3},
		{"tracked query", "?trackedQueryId=" + s.serp1.String(), []uuid.UUID{empty, early}, 2},
		{"window", "?dateFrom=" + cf.day.Format(time.DateOnly) + "&dateTo=" + cf.day.Format(time.DateOnly),
			[]uuid.UUID{early}, 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			l := capturesPage[olap.SearchSnapshot](t, cf.get(base+tt.query))
			if got := capturesIDs(l.Page, id); !slices.Equal(got, tt.want) || l.Total != tt.total {
				t.Fatalf("page %v total %d; want %v %d", got, l.Total, tt.want, tt.total)
			}
		})
	}

	t.Run("a page's newest snapshot keeps its results", func(t *testing.T) {
		l := capturesPage[olap.SearchSnapshot](t, cf.get(base+"?limit=1&offset=1"))
		if len(l.Page) != 1 || len(l.Page[0].Results) != len(s.early.SearchResults) {
			t.Fatalf("page %+v, want the early snapshot with its %d results", l.Page, len(s.early.SearchResults))
		}
	})

	t.Run("records", func(t *testing.T) {
		l := capturesPage[json.RawMessage](t, cf.get(base+"?trackedQueryId="+s.serp1.String()))
		var got []any
		for _, raw := range l.Page {
			var m any
			if err := json.Unmarshal(raw, &m); err != nil {
				t.Fatal(err)
			}
			got = append(got, m)
		}
		want := []any{
			map[string]any{"id": empty.String(), "trackedQueryId": s.serp1.String(), "queryText": "best crm",
				"country": "US", "capturedAt": s.empty.CapturedAt.Format(sightline.TimestampLayout), "results": []any{}},
			map[string]any{"id": early.String(), "trackedQueryId": s.serp1.String(), "queryText": "best crm",
				"country": "US", "capturedAt": s.early.CapturedAt.Format(sightline.TimestampLayout), "results": []any{
					map[string]any{"rank": 1.0, "url": "https://rival.example/", "domain": "rival.example", "title": "Rival",
						"snippet": "The rival.", "rating": nil, "ratingVotes": nil, "unresolved": false},
					map[string]any{"rank": 2.0, "url": "https://news.example/crm", "domain": "news.example", "title": "News",
						"snippet": nil, "rating": 4.5, "ratingVotes": 120.0, "unresolved": false},
					map[string]any{"rank": 3.0, "url": "https://acme.com/", "domain": "acme.com", "title": "Acme",
						"snippet": "Our CRM.", "rating": nil, "ratingVotes": nil, "unresolved": false},
					map[string]any{"rank": 4.0, "url": "https://www.google.com/url?q=x", "domain": "google.com",
						"title": "Redirect", "snippet": nil, "rating": nil, "ratingVotes": nil, "unresolved": true},
				}},
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("records\n%v\nwant\n%v", got, want)
		}
	})

	t.Run("refusals", func(t *testing.T) {
		capturesExpectDetail(t, cf.get(base+"?trackedQueryId="+s.siblingSerp.String()), "trackedQueryId", "invalid_value")
		capturesExpectDetail(t, cf.get(base+"?engines=google_serp"), "engines", "unknown_field")
		capturesExpectDetail(t, cf.get(base+"?sortOrder=newest"), "sortOrder", "invalid_value")
		floor := captureRetentionFloor(time.Now())
		capturesExpectDetail(t, cf.get(base+"?dateFrom="+floor.AddDate(0, 0, -1).Format(time.DateOnly)), "dateFrom", "out_of_range")
	})
}

func TestCapturesShoppingSnapshots(t *testing.T) {
	t.Parallel()
	cf := capturesSetup(t)
	s := cf.snapshotData()
	base := cf.path("/shopping-snapshots")

	l := capturesPage[json.RawMessage](t, cf.get(base))
	if l.Total != 2 || len(l.Page) != 2 {
		t.Fatalf("total %d, page %d; want 2 and 2", l.Total, len(l.Page))
	}
	var got []any
	for _, raw := range l.Page {
		var m any
		if err := json.Unmarshal(raw, &m); err != nil {
			t.Fatal(err)
		}
		got = append(got, m)
	}
	want := []any{
		map[string]any{"id": s.noOffers.CaptureID().String(), "trackedQueryId": s.shop.String(), "queryText": "best crm",
			"country": "US", "capturedAt": s.noOffers.CapturedAt.Format(sightline.TimestampLayout), "offers": []any{}},
		map[string]any{"id": s.offers.CaptureID().String(), "trackedQueryId": s.shop.String(), "queryText": "best crm",
			"country": "US", "capturedAt": s.offers.CapturedAt.Format(sightline.TimestampLayout), "offers": []any{
				map[string]any{"rank": 1.0, "title": "Acme CRM", "price": 19.99, "currency": "USD", "productId": "p-1",
					"merchant": "Acme", "domain": "acme.com", "url": "https://acme.com/buy"},
				map[string]any{"rank": 2.0, "title": "Rival CRM", "price": 18.5, "currency": "EUR", "productId": nil,
					"merchant": "Marketplace", "domain": nil, "url": nil},
			}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("records\n%v\nwant\n%v", got, want)
	}

	asc := capturesPage[olap.ShoppingSnapshot](t, cf.get(base+"?sortOrder=asc&limit=1"))
	if asc.Total != 2 || len(asc.Page) != 1 || asc.Page[0].ID != s.offers.CaptureID() {
		t.Fatalf("oldest first, one per page: %+v", asc)
	}
	// A search query's id is a tracked query of the project: it filters to
	// no shopping page.
	if l := capturesPage[olap.ShoppingSnapshot](t, cf.get(base+"?trackedQueryId="+s.serp1.String())); l.Total != 0 {
		t.Fatalf("shopping pages of a search query: %+v", l)
	}
	capturesExpectDetail(t, cf.get(base+"?trackedQueryId="+s.siblingSerp.String()), "trackedQueryId", "invalid_value")
	floor := captureRetentionFloor(time.Now())
	capturesExpectDetail(t, cf.get(base+"?dateFrom="+floor.AddDate(0, 0, -1).Format(time.DateOnly)), "dateFrom", "out_of_range")
	capturesExpectDetail(t, cf.get(base+"?dateFrom="+cf.day.Format(time.DateOnly)+"&dateTo="+
		cf.day.AddDate(0, 0, -2).Format(time.DateOnly)), "dateTo", "out_of_range")
}

// capturesListingPaths are every capture listing of the project and the
// match listings of query, under org.
func capturesListingPaths(org, project, query string) []string {
	base := "/api/v1/organizations/" + org + "/projects/" + project
	return []string{base + "/ai-responses", base + "/search-snapshots", base + "/shopping-snapshots",
		base + "/tracked-queries/" + query + "/mention-matches", base + "/tracked-queries/" + query + "/serp-matches"}
}

func TestCapturesAccess(t *testing.T) {
	t.Parallel()
	cf := capturesSetup(t)
	q := cf.query(cf.project, sightline.EngineChatGPT, "best crm")
	outsider, otherOrg := cf.fixture.owner()
	foreignProject := cf.fixture.project(otherOrg, "Foreign")
	foreignQuery := cf.query(foreignProject, sightline.EngineChatGPT, "best crm")
	viewer := cf.user()
	cf.join(cf.org, viewer, sightline.RoleViewer, sightline.MembershipActive)
	viewer = cf.keyFor(viewer, nil) // every key reads; viewer is the lowest role
	// Archived projects answer reads.
	if _, err := cf.pool.Exec(context.Background(), `UPDATE projects SET status = 'archived', archived_by = 'caller',
		archived_at = now() WHERE id = $1`, cf.project); err != nil {
		t.Fatal(err)
	}

	for _, path := range capturesListingPaths(cf.org.String(), cf.project.String(), q.String()) {
		for _, key := range []string{cf.owner.key, viewer.key} {
			if r := cf.do(call{method: http.MethodGet, path: path, key: key}); r.status != http.StatusOK {
				t.Errorf("GET %s: %d %s", path, r.status, r.body)
			}
		}
		assertError(t, cf.do(call{method: http.MethodGet, path: path, key: outsider.key}),
			http.StatusNotFound, sightline.CodeOrganizationNotFound)
	}
	// Another organization's project under this organization's path, an
	// unknown and a malformed project.
	for _, project := range []string{foreignProject.String(), uuid.NewString(), "not-a-uuid"} {
		for _, path := range capturesListingPaths(cf.org.String(), project, foreignQuery.String()) {
			assertError(t, cf.get(path), http.StatusNotFound, sightline.CodeOrganizationNotFound)
		}
	}
	// The other organization itself is not visible.
	for _, path := range capturesListingPaths(otherOrg.String(), foreignProject.String(), foreignQuery.String()) {
		assertError(t, cf.get(path), http.StatusNotFound, sightline.CodeOrganizationNotFound)
	}
}

// TestCapturesPassStoredTwiceShowsOnce stores every pass twice, through the
// writer and then as raw duplicate rows with merges stopped, and reads each
// listing once.
func TestCapturesPassStoredTwiceShowsOnce(t *testing.T) {
	t.Parallel()
	cf := capturesSetup(t)
	s := cf.snapshotData()
	ai := cf.query(cf.project, sightline.EngineChatGPT, "best crm")
	p := cf.pass(cf.project, ai, uuid.New(), sightline.EngineChatGPT, 0, 1, cf.day.Add(9*time.Hour))
	p.ResponseText = "Acme and Rival."
	p.Mentions = []olap.Mention{
		{BrandName: "Acme", Relation: sightline.RelationOwn, Position: 1, Type: sightline.MentionRecommendation,
			Tone: sightline.TonePositive, Qualifier: sightline.QualifierDirect, Sentence: "Acme is best."},
		{BrandName: "Rival", Relation: sightline.RelationTrackedCompetitor, CompetitorID: &s.competitor, Position: 2,
			Type: sightline.MentionComparison, Tone: sightline.ToneNeutral, Qualifier: sightline.QualifierDirect,
			Sentence: "Rival is second."},
	}
	p.Citations = []olap.Citation{{Position: 1, URL: "https://acme.com/", Domain: "acme.com", Relation: sightline.RelationOwn}}
	cf.insert(p)
	cf.insert(p, s.early, s.empty, s.offers) // the writer skips what is stored

	ctx := context.Background()
	tables := []string{"ai_answers", "mentions", "search_results", "shopping_offers", "rank_rows"}
	rawCount := func(table string) uint64 {
		var n uint64
		if err := cf.conn.QueryRow(ctx, "SELECT count() FROM "+table+" WHERE project_id = ?", cf.project).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	for _, table := range tables {
		before := rawCount(table)
		if err := cf.conn.Exec(ctx, "SYSTEM STOP MERGES "+table); err != nil {
			t.Fatal(err)
		}
		if err := cf.conn.Exec(ctx, "INSERT INTO "+table+" SELECT * FROM "+table+" WHERE project_id = ?", cf.project); err != nil {
			t.Fatal(err)
		}
		if after := rawCount(table); after != 2*before {
			t.Fatalf("%s: %d raw rows after duplicating %d", table, after, before)
		}
	}

	for _, tt := range []struct {
		path  string
		total int
	}{
		{"/ai-responses", 1},
		{"/search-snapshots", 3},
		{"/shopping-snapshots", 2},
		{"/tracked-queries/" + ai.String() + "/mention-matches", 2},
		{"/tracked-queries/" + s.serp1.String() + "/serp-matches", 2},
	} {
		r := cf.get(cf.path(tt.path))
		l := capturesPage[map[string]any](t, r)
		seen := map[any]bool{}
		for _, row := range l.Page {
			seen[row["id"]] = true
		}
		if l.Total != tt.total || len(l.Page) != tt.total || len(seen) != tt.total {
			t.Errorf("%s: total %d, %d rows, %d distinct; want %d", tt.path, l.Total, len(l.Page), len(seen), tt.total)
		}
		switch tt.path {
		case "/search-snapshots":
			for _, row := range l.Page {
				if row["id"] == s.early.CaptureID().String() && len(row["results"].([]any)) != len(s.early.SearchResults) {
					t.Errorf("early snapshot results %v", row["results"])
				}
			}
		case "/shopping-snapshots":
			for _, row := range l.Page {
				if row["id"] == s.offers.CaptureID().String() && len(row["offers"].([]any)) != len(s.offers.ShoppingOffers) {
					t.Errorf("offers %v", row["offers"])
				}
			}
		case "/ai-responses":
			if n := len(l.Page[0]["citedSources"].([]any)); n != 1 {
				t.Errorf("cited sources %d, want 1", n)
			}
		}
	}
}

// capturesSorted orders rows as the listings do: by time, ties by id text,
// newest first unless asc.
func capturesSorted[T any](rows []T, at func(T) time.Time, id func(T) uuid.UUID, asc bool) []T {
	out := slices.Clone(rows)
	slices.SortFunc(out, func(a, b T) int {
		c := cmp.Or(at(a).Compare(at(b)), cmp.Compare(id(a).String(), id(b).String()))
		if asc {
			return c
		}
		return -c
	})
	return out
}

// capturesQuery is a query string of the given pairs.
func capturesQuery(pairs ...string) string {
	v := url.Values{}
	for i := 0; i+1 < len(pairs); i += 2 {
		v.Add(pairs[i], pairs[i+1])
	}
	return "?" + v.Encode()
}
