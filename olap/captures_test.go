package olap_test

import (
	"context"
	"errors"
	"math"
	"testing"
	"time"

	"github.com/ClickHouse/clickhouse-go/v2/lib/driver"
	"github.com/google/uuid"

	"github.com/sightline/sightline"
	"github.com/sightline/sightline/olap"
	"github.com/sightline/sightline/olap/olaptest"
)

// capturesFixture is a project with two tracked competitors in a fresh
// database, and factories for its passes.
type capturesFixture struct {
	t                testing.TB
	conn             driver.Conn
	org, project     uuid.UUID
	compA, compB     uuid.UUID
	day              time.Time // a recent UTC day, well inside retention
	ownDomain, aDom  string
	bDom, newsDomain string
}

func newCapturesFixture(t testing.TB) *capturesFixture {
	t.Helper()
	return capturesFixtureOn(t, olaptest.NewConn(t))
}

// capturesFixtureOn is a fixture on a database of the test's own making.
func capturesFixtureOn(t testing.TB, conn driver.Conn) *capturesFixture {
	return &capturesFixture{
		t: t, conn: conn,
		org: uuid.New(), project: uuid.New(), compA: uuid.New(), compB: uuid.New(),
		day:       time.Now().UTC().AddDate(0, 0, -3).Truncate(24 * time.Hour),
		ownDomain: "own.example", aDom: "a.example", bDom: "b.example", newsDomain: "news.example",
	}
}

// pass returns a pass of tq in run at hours after the fixture's day.
func (f *capturesFixture) pass(tq, run uuid.UUID, engine sightline.Engine, index, count uint8, hours int) olap.PassRows {
	return olap.PassRows{Pass: olap.Pass{
		OrganizationID: f.org, ProjectID: f.project, TrackedQueryID: tq, RunID: run,
		PassIndex: index, PassCount: count, Engine: engine, Country: "US", Locale: "en",
		QueryText: "best crm", CapturedAt: f.day.Add(time.Duration(hours) * time.Hour),
	}}
}

func (f *capturesFixture) mention(name string, rel sightline.Relation, competitor *uuid.UUID, pos int,
	typ sightline.MentionType, tone sightline.Tone, q sightline.Qualifier) olap.Mention {
	return olap.Mention{BrandName: name, Relation: rel, CompetitorID: competitor, Position: pos, Type: typ,
		Tone: tone, Qualifier: q, Sentence: name + " is mentioned here."}
}

func (f *capturesFixture) own(pos int, typ sightline.MentionType, tone sightline.Tone, q sightline.Qualifier) olap.Mention {
	return f.mention("Own", sightline.RelationOwn, nil, pos, typ, tone, q)
}

func (f *capturesFixture) competitor(id uuid.UUID, name string, pos int, typ sightline.MentionType, tone sightline.Tone, q sightline.Qualifier) olap.Mention {
	return f.mention(name, sightline.RelationTrackedCompetitor, &id, pos, typ, tone, q)
}

func (f *capturesFixture) citation(pos int, domain, path string, rel sightline.Relation, competitor *uuid.UUID) olap.Citation {
	return olap.Citation{Position: pos, URL: "https://" + domain + path, Domain: domain, Title: domain + " page",
		Relation: rel, CompetitorID: competitor}
}

func (f *capturesFixture) result(rank int, domain string, rel sightline.Relation, competitor *uuid.UUID) olap.SearchResult {
	return olap.SearchResult{Rank: rank, URL: "https://" + domain + "/", Domain: domain, Title: domain,
		Snippet: "About " + domain, Relation: rel, CompetitorID: competitor}
}

func (f *capturesFixture) offer(rank int, domain string, rel sightline.Relation, competitor *uuid.UUID) olap.ShoppingOffer {
	return olap.ShoppingOffer{Rank: rank, Title: "Widget", Price: 19.99, Currency: "USD", ProductID: "p1",
		Merchant: domain, Domain: domain, URL: "https://" + domain + "/widget", Relation: rel, CompetitorID: competitor}
}

// capturesDataset is the hand-made dataset the rollup, dedup and delete
// tests share; capturesExpected* in rollups_test.go are its figures,
// worked out by hand.
type capturesDataset struct {
	q1, q2, serp, shopping uuid.UUID
	passes                 []olap.PassRows
}

func (f *capturesFixture) dataset() capturesDataset {
	d := capturesDataset{q1: uuid.New(), q2: uuid.New(), serp: uuid.New(), shopping: uuid.New()}
	a, b := f.compA, f.compB
	none := sightline.RelationNone
	own, tracked := sightline.RelationOwn, sightline.RelationTrackedCompetitor
	r1, r2, r3, r3b, r4, r4b := uuid.New(), uuid.New(), uuid.New(), uuid.New(), uuid.New(), uuid.New()

	// q1 (chatgpt), two passes of one run.
	p := f.pass(d.q1, r1, sightline.EngineChatGPT, 0, 2, 9)
	p.ResponseText = "Competitor A leads, then Own, then Foo."
	p.Mentions = []olap.Mention{
		f.competitor(a, "A", 1, sightline.MentionComparison, sightline.ToneNeutral, sightline.QualifierDirect), // 0.8
		f.own(2, sightline.MentionRecommendation, sightline.TonePositive, sightline.QualifierDirect),           // 1.2
		f.mention("Foo", sightline.RelationUntrackedCompetitor, nil, 3, sightline.MentionListing, sightline.ToneNegative, // 0.21
			sightline.QualifierConditional),
	}
	p.Citations = []olap.Citation{
		f.citation(1, f.ownDomain, "/pricing", own, nil),
		f.citation(2, f.aDom, "/", tracked, &a),
		{Position: 3, URL: "https://vertexaisearch.cloud.google.com/grounding-api-redirect/x", Domain: "vertexaisearch.cloud.google.com", Unresolved: true},
		f.citation(4, f.newsDomain, "/a", none, nil),
	}
	d.passes = append(d.passes, p)

	p = f.pass(d.q1, r1, sightline.EngineChatGPT, 1, 2, 9)
	p.ResponseText = "A, then B."
	p.Mentions = []olap.Mention{
		f.competitor(a, "A", 1, sightline.MentionRecommendation, sightline.TonePositive, sightline.QualifierConditional), // 0.84
		f.competitor(b, "B", 2, sightline.MentionExample, sightline.ToneNeutral, sightline.QualifierDirect),              // 0.5
	}
	p.Citations = []olap.Citation{
		f.citation(1, f.newsDomain, "/a", none, nil),
		f.citation(2, f.ownDomain, "/", own, nil),
	}
	d.passes = append(d.passes, p)

	// q2 (perplexity), one pass.
	p = f.pass(d.q2, r2, sightline.EnginePerplexity, 0, 1, 10)
	p.ResponseText = "Own, then B."
	p.Mentions = []olap.Mention{
		f.own(1, sightline.MentionReference, sightline.ToneNegative, sightline.QualifierDirect),                    // 0.15
		f.competitor(b, "B", 2, sightline.MentionRecommendation, sightline.ToneNeutral, sightline.QualifierDirect), // 1.0
	}
	p.Citations = []olap.Citation{f.citation(1, f.newsDomain, "/a", none, nil)}
	d.passes = append(d.passes, p)

	// Search: own best rank 3 on the day, 1 the day after; A ranks 1 once.
	p = f.pass(d.serp, r3, sightline.EngineGoogleSERP, 0, 1, 11)
	p.SearchResults = []olap.SearchResult{
		f.result(1, f.aDom, tracked, &a), f.result(2, "other.example", none, nil),
		f.result(3, f.ownDomain, own, nil), f.result(5, f.ownDomain, own, nil),
	}
	rating, votes := 4.5, 120
	p.SearchResults[1].Rating, p.SearchResults[1].RatingVotes = &rating, &votes
	d.passes = append(d.passes, p)
	p = f.pass(d.serp, r3b, sightline.EngineGoogleSERP, 0, 1, 24+11)
	p.SearchResults = []olap.SearchResult{f.result(1, f.ownDomain, own, nil)}
	d.passes = append(d.passes, p)

	// Shopping: own offer at rank 1 and B at 2; a second snapshot without own.
	p = f.pass(d.shopping, r4, sightline.EngineGoogleShopping, 0, 1, 12)
	p.ShoppingOffers = []olap.ShoppingOffer{f.offer(1, f.ownDomain, own, nil), f.offer(2, f.bDom, tracked, &b)}
	p.ShoppingOffers[1].Currency, p.ShoppingOffers[1].Price = "EUR", 18.5
	d.passes = append(d.passes, p)
	p = f.pass(d.shopping, r4b, sightline.EngineGoogleShopping, 0, 1, 13)
	p.ShoppingOffers = []olap.ShoppingOffer{f.offer(1, "other.example", none, nil)}
	d.passes = append(d.passes, p)
	return d
}

func (f *capturesFixture) count(query string, args ...any) uint64 {
	f.t.Helper()
	var n uint64
	if err := f.conn.QueryRow(context.Background(), query, args...).Scan(&n); err != nil {
		f.t.Fatalf("%s: %v", query, err)
	}
	return n
}

func TestCapturesRoundTrip(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newCapturesFixture(t)
	d := f.dataset()
	if err := olaptest.InsertPasses(ctx, f.conn, d.passes); err != nil {
		t.Fatal(err)
	}

	// The AI answer with its cited sources, under its derived id.
	first := d.passes[0]
	var (
		id                    uuid.UUID
		locale, text, country string
		passIndex, passCount  uint8
		positions             []uint16
		urls, domains         []string
		unresolved            []bool
		capturedAt            time.Time
	)
	if err := f.conn.QueryRow(ctx, `
		SELECT id, locale, response_text, country, pass_index, pass_count, citations.position, citations.url,
		       citations.domain, citations.unresolved, captured_at
		FROM ai_answers FINAL WHERE project_id = ? AND run_id = ? AND pass_index = 0`, f.project, first.RunID).
		Scan(&id, &locale, &text, &country, &passIndex, &passCount, &positions, &urls, &domains, &unresolved, &capturedAt); err != nil {
		t.Fatal(err)
	}
	if id != first.CaptureID() || id.Version() != 7 || locale != "en" || text != first.ResponseText || country != "US" ||
		passIndex != 0 || passCount != 2 || !capturedAt.Equal(first.CapturedAt) {
		t.Errorf("answer = %v %q %q %q %d/%d %v", id, locale, text, country, passIndex, passCount, capturedAt)
	}
	if len(positions) != 4 || positions[2] != 3 || !unresolved[2] || unresolved[0] || domains[3] != f.newsDomain || urls[0] != "https://own.example/pricing" {
		t.Errorf("cited sources = %v %v %v %v", positions, urls, domains, unresolved)
	}

	// Mentions: one row per brand with its relation, competitor and worth.
	rows, err := f.conn.Query(ctx, `
		SELECT id, answer_id, brand_name, relation, competitor_id, position, mention_type, tone, qualifier, worth
		FROM mentions FINAL WHERE project_id = ? AND run_id = ? AND pass_index = 0 ORDER BY position`, f.project, first.RunID)
	if err != nil {
		t.Fatal(err)
	}
	type mentionRow struct {
		id, answer           uuid.UUID
		name, relation       string
		competitor           *uuid.UUID
		position             uint16
		typ, tone, qualifier string
		worth                float64
	}
	var mentions []mentionRow
	for rows.Next() {
		var m mentionRow
		if err := rows.Scan(&m.id, &m.answer, &m.name, &m.relation, &m.competitor, &m.position, &m.typ, &m.tone, &m.qualifier, &m.worth); err != nil {
			t.Fatal(err)
		}
		mentions = append(mentions, m)
	}
	rows.Close()
	if len(mentions) != 3 {
		t.Fatalf("mentions = %+v, want 3", mentions)
	}
	a := mentions[0]
	if a.id != first.MentionID(0) || a.answer != first.CaptureID() || a.relation != "tracked-competitor" ||
		a.competitor == nil || *a.competitor != f.compA || a.typ != "comparison" || a.tone != "neutral" || math.Abs(a.worth-0.8) > 1e-9 {
		t.Errorf("competitor mention = %+v", a)
	}
	if o := mentions[1]; o.relation != "own" || o.competitor != nil || math.Abs(o.worth-1.2) > 1e-9 {
		t.Errorf("own mention = %+v", o)
	}
	if u := mentions[2]; u.relation != "untracked-competitor" || u.qualifier != "conditional" || math.Abs(u.worth-0.21) > 1e-9 {
		t.Errorf("untracked mention = %+v", u)
	}

	// Citations keep the unresolved redirector with no owner.
	if n := f.count(`SELECT count() FROM citations FINAL WHERE project_id = ? AND run_id = ? AND unresolved AND relation = ''`,
		f.project, first.RunID); n != 1 {
		t.Errorf("unresolved citations = %d, want 1", n)
	}

	// Search results: rating and votes where given, NULL elsewhere; serp matches by relation.
	serp := d.passes[3]
	var (
		rating     *float64
		votes      *uint32
		snapshotID uuid.UUID
	)
	if err := f.conn.QueryRow(ctx, `SELECT rating, rating_votes, snapshot_id FROM search_results FINAL
		WHERE project_id = ? AND run_id = ? AND rank = 2`, f.project, serp.RunID).Scan(&rating, &votes, &snapshotID); err != nil {
		t.Fatal(err)
	}
	if rating == nil || *rating != 4.5 || votes == nil || *votes != 120 || snapshotID != serp.CaptureID() {
		t.Errorf("rated result = %v %v %v", rating, votes, snapshotID)
	}
	if n := f.count(`SELECT count() FROM search_results FINAL WHERE project_id = ? AND run_id = ? AND rating IS NULL`,
		f.project, serp.RunID); n != 3 {
		t.Errorf("results without rating = %d, want 3", n)
	}
	if n := f.count(`SELECT count() FROM search_results FINAL WHERE project_id = ? AND relation != ''`, f.project); n != 4 {
		t.Errorf("serp matches = %d, want 4", n)
	}

	// Shopping offers keep their own currencies.
	if n := f.count(`SELECT uniqExact(currency) FROM shopping_offers FINAL WHERE project_id = ? AND run_id = ?`,
		f.project, d.passes[5].RunID); n != 2 {
		t.Errorf("currencies on one page = %d, want 2", n)
	}

	// Rank rows: an own row per pass, a row per competitor present.
	if n := f.count(`SELECT count() FROM rank_rows FINAL WHERE project_id = ? AND relation = 'own'`, f.project); n != uint64(len(d.passes)) {
		t.Errorf("own rank rows = %d, want %d", n, len(d.passes))
	}
	var (
		mentionPos, linkPos, ownPos *uint16
		tone                        string
	)
	if err := f.conn.QueryRow(ctx, `SELECT mention_position, link_position, tone, own_mention_position FROM rank_rows FINAL
		WHERE project_id = ? AND run_id = ? AND pass_index = 0 AND competitor_id = ?`, f.project, first.RunID, f.compA).
		Scan(&mentionPos, &linkPos, &tone, &ownPos); err != nil {
		t.Fatal(err)
	}
	if mentionPos == nil || *mentionPos != 1 || linkPos == nil || *linkPos != 2 || tone != "neutral" || ownPos == nil || *ownPos != 2 {
		t.Errorf("competitor rank row = %v %v %q %v", mentionPos, linkPos, tone, ownPos)
	}
	var serpPos *uint16
	if err := f.conn.QueryRow(ctx, `SELECT serp_position FROM rank_rows FINAL WHERE project_id = ? AND run_id = ? AND relation = 'own'`,
		f.project, serp.RunID).Scan(&serpPos); err != nil {
		t.Fatal(err)
	}
	if serpPos == nil || *serpPos != 3 {
		t.Errorf("own serp position = %v, want the best own rank 3", serpPos)
	}
}

func TestCapturesIDsAreStable(t *testing.T) {
	t.Parallel()
	p := olap.Pass{RunID: uuid.New(), PassIndex: 1, CapturedAt: time.Date(2026, 11, 20, 9, 30, 0, 0, time.UTC)}
	if p.CaptureID() != p.CaptureID() || p.MentionID(0) == p.MentionID(1) || p.CaptureID() == p.MentionID(0) ||
		p.SearchResultID(0) == p.ShoppingOfferID(0) {
		t.Fatal("ids are not deterministic and distinct")
	}
	other := p
	other.PassIndex = 0
	if other.CaptureID() == p.CaptureID() {
		t.Fatal("two passes share a capture id")
	}
	id := p.CaptureID()
	sec, nsec := id.Time().UnixTime()
	if id.Version() != 7 || id.Variant() != uuid.RFC4122 || !time.Unix(sec, nsec).Equal(p.CapturedAt) {
		t.Fatalf("capture id %v: version %d, time %v; want a v7 id at %v", id, id.Version(), time.Unix(sec, nsec).UTC(), p.CapturedAt)
	}
}

func TestCapturesValidate(t *testing.T) {
	t.Parallel()
	f := &capturesFixture{org: uuid.New(), project: uuid.New(), compA: uuid.New(), day: time.Now().UTC()}
	a := f.compA
	ai := func(edit func(*olap.PassRows)) olap.PassRows {
		p := f.pass(uuid.New(), uuid.New(), sightline.EngineChatGPT, 0, 1, 0)
		p.Mentions = []olap.Mention{f.own(1, sightline.MentionListing, sightline.ToneNeutral, sightline.QualifierDirect)}
		edit(&p)
		return p
	}
	cases := []struct {
		name string
		pass olap.PassRows
	}{
		{"no run", ai(func(p *olap.PassRows) { p.RunID = uuid.Nil })},
		{"unknown engine", ai(func(p *olap.PassRows) { p.Engine = "bing" })},
		{"pass index outside count", ai(func(p *olap.PassRows) { p.PassIndex = 1 })},
		{"long country", ai(func(p *olap.PassRows) { p.Country = "USA" })},
		{"no capture time", ai(func(p *olap.PassRows) { p.CapturedAt = time.Time{} })},
		{"mention without relation", ai(func(p *olap.PassRows) { p.Mentions[0].Relation = sightline.RelationNone })},
		{"tracked mention without id", ai(func(p *olap.PassRows) { p.Mentions[0].Relation = sightline.RelationTrackedCompetitor })},
		{"own mention with id", ai(func(p *olap.PassRows) { p.Mentions[0].CompetitorID = &a })},
		{"unknown tone", ai(func(p *olap.PassRows) { p.Mentions[0].Tone = "angry" })},
		{"position zero", ai(func(p *olap.PassRows) { p.Mentions[0].Position = 0 })},
		{"two brands at one position", ai(func(p *olap.PassRows) {
			p.Mentions = append(p.Mentions, f.competitor(a, "A", 1, sightline.MentionListing, sightline.ToneNeutral, sightline.QualifierDirect))
		})},
		{"own brand twice", ai(func(p *olap.PassRows) {
			p.Mentions = append(p.Mentions, f.own(2, sightline.MentionListing, sightline.ToneNeutral, sightline.QualifierDirect))
		})},
		{"untracked citation", ai(func(p *olap.PassRows) {
			p.Citations = []olap.Citation{{Position: 1, URL: "https://x", Relation: sightline.RelationUntrackedCompetitor}}
		})},
		{"search results from an AI engine", ai(func(p *olap.PassRows) { p.SearchResults = []olap.SearchResult{f.result(1, "x", "", nil)} })},
		{"mentions from search", ai(func(p *olap.PassRows) { p.Engine = sightline.EngineGoogleSERP })},
		{"offer rank zero", ai(func(p *olap.PassRows) {
			p.Engine, p.Mentions = sightline.EngineGoogleShopping, nil
			p.ShoppingOffers = []olap.ShoppingOffer{f.offer(0, "x", "", nil)}
		})},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if err := c.pass.Validate(); !errors.Is(err, olap.ErrInvalidPass) {
				t.Fatalf("Validate = %v, want ErrInvalidPass", err)
			}
		})
	}
	if err := ai(func(*olap.PassRows) {}).Validate(); err != nil {
		t.Fatalf("a valid pass: %v", err)
	}
}

func TestCapturesInsertedOnce(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newCapturesFixture(t)
	d := f.dataset()
	if err := olaptest.InsertPasses(ctx, f.conn, d.passes); err != nil {
		t.Fatal(err)
	}
	before := capturesTableCounts(t, f)

	// The same passes again, alone, in another grouping and twice within a
	// batch: nothing changes, in raw tables (even read without FINAL) or rollups.
	for _, again := range [][]olap.PassRows{d.passes, d.passes[:1], {d.passes[2], d.passes[0], d.passes[2]}} {
		if err := olaptest.InsertPasses(ctx, f.conn, again); err != nil {
			t.Fatal(err)
		}
	}
	after := capturesTableCounts(t, f)
	for table, n := range before {
		if after[table] != n {
			t.Errorf("%s: %d rows after re-inserting, want %d", table, after[table], n)
		}
	}
	if before["mentions"] != 7 || before["rank_rows"] != 13 {
		t.Errorf("counts = %v, want 7 mentions and 13 rank rows", before)
	}
	c := capturesReadRollups(t, f)
	if c.answers != 3 || math.Abs(c.totalWorth-4.7) > 1e-9 {
		t.Errorf("rollups after re-inserting: %d answers, total worth %v; want 3 and 4.7", c.answers, c.totalWorth)
	}
}

// capturesTableCounts counts the rows of every capture table and the sums of
// the rollups, without FINAL: what is physically there.
func capturesTableCounts(t *testing.T, f *capturesFixture) map[string]uint64 {
	t.Helper()
	counts := map[string]uint64{}
	for _, q := range []struct{ name, sql string }{
		{"ai_answers", "SELECT count() FROM ai_answers WHERE project_id = ?"},
		{"mentions", "SELECT count() FROM mentions WHERE project_id = ?"},
		{"citations", "SELECT count() FROM citations WHERE project_id = ?"},
		{"search_results", "SELECT count() FROM search_results WHERE project_id = ?"},
		{"shopping_offers", "SELECT count() FROM shopping_offers WHERE project_id = ?"},
		{"rank_rows", "SELECT count() FROM rank_rows WHERE project_id = ?"},
		{"mentions_daily", "SELECT sum(mentions) FROM mentions_daily WHERE project_id = ?"},
		{"ranks_daily", "SELECT sum(passes) FROM ranks_daily WHERE project_id = ?"},
		{"cooccurrence_daily", "SELECT sum(shared_answers) FROM cooccurrence_daily WHERE project_id = ?"},
		{"cited_sources_daily", "SELECT sum(citations) FROM cited_sources_daily WHERE project_id = ?"},
	} {
		counts[q.name] = f.count(q.sql, f.project)
	}
	return counts
}
