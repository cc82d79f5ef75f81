package api

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/sightline/sightline"
	"github.com/sightline/sightline/ingest"
	"github.com/sightline/sightline/ingest/simulator"
	"github.com/sightline/sightline/jobs"
	"github.com/sightline/sightline/olap"
	"github.com/sightline/sightline/olap/olaptest"
)

// The analytics oracle: simulated history for a project, with a deleted
// tracked query, a deleted competitor, a deleted cluster and failed passes,
// then for many random windows and filters every figure the analytics
// operations return is compared with a computation written here, in Go, from
// the raw capture tables' rows. It shares nothing with the readers: not the
// rollups, not their SQL, not their helpers.

const oracleDays = 70

type oracleQuery struct {
	id       uuid.UUID
	text     string
	engine   sightline.Engine
	country  string
	passes   int
	clusters []uuid.UUID
}

// oracleRow is one raw row reduced to what the figures need. Passes come
// from rank_rows' own rows (the only record of a completed pass with an
// empty page), everything else from the capture tables.
type oracleRow struct {
	capture   uuid.UUID // ai_answers.id or snapshot id
	query     uuid.UUID
	engine    string
	country   string
	day       time.Time
	relation  string
	competit  uuid.UUID // uuid.Nil unless a tracked competitor
	position  int       // mention position, citation position or rank
	mtype     string
	tone      string
	qualifier string
	worth     float64
	domain    string
	url       string
	title     string
}

type oracleData struct {
	passes, mentions, citations, results, offers []oracleRow
}

type oracleFixture struct {
	*fixture
	owner       member
	org         uuid.UUID
	project     uuid.UUID
	queries     []oracleQuery // current ones
	competitors []uuid.UUID   // current ones
	clusters    []uuid.UUID   // current ones
	deleted     uuid.UUID     // the deleted cluster
	today       time.Time
	data        oracleData
}

func oracleSetup(t *testing.T) *oracleFixture {
	t.Helper()
	f := setup(t, setupOptions{analytics: true})
	owner, org := f.owner()
	of := &oracleFixture{fixture: f, owner: owner, org: org, project: f.project(org, "Oracle"),
		today: time.Now().UTC().Truncate(24 * time.Hour)}
	ctx := context.Background()
	exec := func(sql string, args ...any) {
		t.Helper()
		if _, err := f.pool.Exec(ctx, sql, args...); err != nil {
			t.Fatal(err)
		}
	}
	var competitors []uuid.UUID
	for _, c := range []struct{ name, domain string }{{"Zendesk", "zendesk.com"}, {"Freshdesk", "freshdesk.com"}, {"Intercom", "intercom.com"}} {
		id := uuid.Must(uuid.NewV7())
		exec(`INSERT INTO competitors (id, project_id, name, website_domains, brand_names) VALUES ($1, $2, $3, $4, $5)`,
			id, of.project, c.name, []string{c.domain}, []string{c.name})
		competitors = append(competitors, id)
	}
	var clusters []uuid.UUID
	for _, name := range []string{"support", "pricing", "reviews"} {
		id := uuid.Must(uuid.NewV7())
		exec(`INSERT INTO query_clusters (id, project_id, name) VALUES ($1, $2, $3)`, id, of.project, name)
		clusters = append(clusters, id)
	}
	texts := []string{"best help desk software", "help desk pricing", "customer support tools", "acme reviews"}
	var queries []oracleQuery
	for i, engine := range sightline.Engines {
		for j, text := range texts {
			if (i+j)%2 == 1 {
				continue
			}
			q := oracleQuery{id: uuid.Must(uuid.NewV7()), text: text, engine: engine, country: []string{"US", "DE"}[(i+j/2)%2], passes: 1}
			if engine.AI() && j%2 == 0 {
				q.passes = 2
			}
			if j < 3 {
				q.clusters = []uuid.UUID{clusters[j]}
			}
			if j == 0 && i%3 == 0 {
				q.clusters = append(q.clusters, clusters[2])
			}
			exec(`INSERT INTO tracked_queries (id, project_id, query_text, engine, country, check_frequency, n_passes)
				VALUES ($1, $2, $3, $4, $5, 'daily', $6)`, q.id, of.project, q.text, string(q.engine), q.country, q.passes)
			for _, c := range q.clusters {
				exec(`INSERT INTO tracked_query_clusters (project_id, tracked_query_id, cluster_id) VALUES ($1, $2, $3)`,
					of.project, q.id, c)
			}
			queries = append(queries, q)
		}
	}
	of.writeHistory(queries)

	// Deletions after the history is stored, as in production: a tracked
	// query and a competitor with their cascades, and a cluster.
	gone := queries[1]
	exec(`DELETE FROM tracked_queries WHERE id = $1`, gone.id)
	if err := olap.DeleteTrackedQueries(ctx, f.server.analytics.Conn, of.project, []uuid.UUID{gone.id}); err != nil {
		t.Fatal(err)
	}
	exec(`DELETE FROM competitors WHERE id = $1`, competitors[2])
	if err := olap.DeleteCompetitor(ctx, f.server.analytics.Conn, of.project, competitors[2]); err != nil {
		t.Fatal(err)
	}
	of.deleted = clusters[1]
	if r := of.do(call{method: "DELETE", path: of.path("/clusters/" + of.deleted.String()), key: owner.key,
		header: map[string]string{"Idempotency-Key": uuid.NewString()}}); r.status != 200 {
		t.Fatalf("deleting cluster: %d %s", r.status, r.body)
	}
	for _, q := range queries {
		if q.id == gone.id {
			continue
		}
		q.clusters = slices.DeleteFunc(q.clusters, func(c uuid.UUID) bool { return c == of.deleted })
		of.queries = append(of.queries, q)
	}
	of.competitors = competitors[:2]
	of.clusters = []uuid.UUID{clusters[0], clusters[2]}
	of.loadRaw()
	return of
}

// writeHistory stores oracleDays of simulated daily checks. Some runs lose
// passes (failed passes store nothing) and some days are skipped.
func (of *oracleFixture) writeHistory(queries []oracleQuery) {
	of.t.Helper()
	ctx := context.Background()
	brands, err := jobs.ProjectBrands(ctx, of.pool, of.project)
	if err != nil {
		of.t.Fatal(err)
	}
	sim := simulator.New(7)
	r := rand.New(rand.NewPCG(7, 11))
	var rows []olap.PassRows
	for _, q := range queries {
		for d := oracleDays; d >= 1; d-- {
			if r.IntN(10) == 0 {
				continue // no check that day
			}
			day := of.today.AddDate(0, 0, -d)
			run := uuid.NewSHA1(uuid.NameSpaceOID, []byte(q.id.String()+day.Format(time.DateOnly)))
			var capturedAt time.Time
			for pass := range q.passes {
				capture, _ := sim.Generate(ingest.Request{TrackedQueryID: q.id, QueryText: q.text, Engine: q.engine,
					Country: q.country, PassIndex: pass, PassCount: q.passes, Day: day, Brands: brands})
				if pass == 0 {
					capturedAt = capture.CapturedAt
				}
				if q.passes > 1 && r.IntN(8) == 0 {
					continue // a failed pass
				}
				rows = append(rows, ingest.PassRows(olap.Pass{
					OrganizationID: of.org, ProjectID: of.project, TrackedQueryID: q.id, RunID: run,
					PassIndex: uint8(pass), PassCount: uint8(q.passes), Engine: q.engine, Country: q.country,
					QueryText: q.text, CapturedAt: capturedAt,
				}, capture, brands))
			}
		}
	}
	for i := 0; i < len(rows); i += 200 {
		if err := olaptest.InsertPasses(ctx, of.server.analytics.Conn, rows[i:min(i+200, len(rows))]); err != nil {
			of.t.Fatal(err)
		}
	}
}

// loadRaw reads the raw tables' rows back, FINAL, as the truth to compute
// from.
func (of *oracleFixture) loadRaw() {
	of.t.Helper()
	conn := of.server.analytics.Conn
	read := func(sql string, scan func(scan func(...any) error) oracleRow) []oracleRow {
		rows, err := conn.Query(context.Background(), sql, of.project)
		if err != nil {
			of.t.Fatal(err)
		}
		defer rows.Close()
		var out []oracleRow
		for rows.Next() {
			out = append(out, scan(rows.Scan))
		}
		if err := rows.Err(); err != nil {
			of.t.Fatal(err)
		}
		return out
	}
	base := func(o *oracleRow, at time.Time) { o.day = at.UTC().Truncate(24 * time.Hour) }
	of.data.passes = read(`SELECT capture_id, tracked_query_id, engine, country, captured_at FROM rank_rows FINAL
		WHERE project_id = ? AND relation = 'own'`, func(scan func(...any) error) oracleRow {
		var o oracleRow
		var at time.Time
		if err := scan(&o.capture, &o.query, &o.engine, &o.country, &at); err != nil {
			of.t.Fatal(err)
		}
		base(&o, at)
		return o
	})
	of.data.mentions = read(`SELECT answer_id, tracked_query_id, engine, country, captured_at, toString(relation),
		competitor_id, position, toString(mention_type), toString(tone), toString(qualifier), worth
		FROM mentions FINAL WHERE project_id = ?`, func(scan func(...any) error) oracleRow {
		var o oracleRow
		var at time.Time
		var competitor *uuid.UUID
		var pos uint16
		if err := scan(&o.capture, &o.query, &o.engine, &o.country, &at, &o.relation, &competitor, &pos, &o.mtype,
			&o.tone, &o.qualifier, &o.worth); err != nil {
			of.t.Fatal(err)
		}
		base(&o, at)
		o.position = int(pos)
		if competitor != nil {
			o.competit = *competitor
		}
		return o
	})
	of.data.citations = read(`SELECT answer_id, tracked_query_id, engine, country, captured_at, toString(relation), position,
		domain, url, title, unresolved FROM citations FINAL WHERE project_id = ?`, func(scan func(...any) error) oracleRow {
		var o oracleRow
		var at time.Time
		var pos uint16
		var unresolved bool
		if err := scan(&o.capture, &o.query, &o.engine, &o.country, &at, &o.relation, &pos, &o.domain, &o.url, &o.title,
			&unresolved); err != nil {
			of.t.Fatal(err)
		}
		base(&o, at)
		o.position = int(pos)
		if unresolved {
			o.relation = "unresolved"
		}
		return o
	})
	ranked := func(table string) []oracleRow {
		return read(`SELECT snapshot_id, tracked_query_id, engine, country, captured_at, toString(relation), competitor_id, rank
			FROM `+table+` FINAL WHERE project_id = ? AND relation != ''`, func(scan func(...any) error) oracleRow {
			var o oracleRow
			var at time.Time
			var competitor *uuid.UUID
			var rank uint16
			if err := scan(&o.capture, &o.query, &o.engine, &o.country, &at, &o.relation, &competitor, &rank); err != nil {
				of.t.Fatal(err)
			}
			base(&o, at)
			o.position = int(rank)
			if competitor != nil {
				o.competit = *competitor
			}
			return o
		})
	}
	of.data.results = ranked("search_results")
	of.data.offers = ranked("shopping_offers")
	if len(of.data.passes) == 0 || len(of.data.mentions) == 0 || len(of.data.citations) == 0 || len(of.data.results) == 0 {
		of.t.Fatalf("simulated history is missing rows: %d passes, %d mentions, %d citations, %d results",
			len(of.data.passes), len(of.data.mentions), len(of.data.citations), len(of.data.results))
	}
}

func (of *oracleFixture) path(suffix string) string {
	return fmt.Sprintf("/api/v1/organizations/%s/projects/%s%s", of.org, of.project, suffix)
}

// oracleScope is a window and filters, as the test asks the API and as it
// selects raw rows.
type oracleScope struct {
	from, to  time.Time
	engines   []string
	countries []string
	clusters  []uuid.UUID // asked for; nil: no cluster filter
	ungrouped bool
	// queries is the tracked-query selection the cluster parameters make
	// on the endpoint being checked; nil: every query.
	queries map[uuid.UUID]bool
}

func (s oracleScope) params() url.Values {
	v := url.Values{"dateFrom": {s.from.Format(time.DateOnly)}, "dateTo": {s.to.Format(time.DateOnly)}}
	if len(s.engines) > 0 {
		v.Set("engines", strings.Join(s.engines, ","))
	}
	for _, c := range s.countries {
		v.Add("countries", c)
	}
	for _, c := range s.clusters {
		v.Add("queryClusterIds", c.String())
	}
	if s.ungrouped {
		v.Set("includeUngroupedQueries", "true")
	}
	return v
}

// withoutClusters is the scope with only the window, engines and countries.
func (s oracleScope) withoutClusters() oracleScope {
	s.clusters, s.ungrouped, s.queries = nil, false, nil
	return s
}

func (s oracleScope) previous() oracleScope {
	days := int(s.to.Sub(s.from).Hours()/24) + 1
	s.to = s.from.AddDate(0, 0, -1)
	s.from = s.to.AddDate(0, 0, -(days - 1))
	return s
}

func (s oracleScope) has(o oracleRow) bool {
	return !o.day.Before(s.from) && !o.day.After(s.to) &&
		(len(s.engines) == 0 || slices.Contains(s.engines, o.engine)) &&
		(len(s.countries) == 0 || slices.Contains(s.countries, o.country)) &&
		(s.queries == nil || s.queries[o.query])
}

// selectQueries is what queryClusterIds and includeUngroupedQueries select
// over the current memberships; aloneNarrows says what ungrouped does
// without clusters.
func (of *oracleFixture) selectQueries(s oracleScope, aloneNarrows bool) map[uuid.UUID]bool {
	if s.clusters == nil && (!s.ungrouped || !aloneNarrows) {
		return nil
	}
	sel := map[uuid.UUID]bool{}
	for _, q := range of.queries {
		in := s.ungrouped && len(q.clusters) == 0
		for _, c := range q.clusters {
			in = in || slices.Contains(s.clusters, c)
		}
		if in {
			sel[q.id] = true
		}
	}
	return sel
}

func oracleFilter(rows []oracleRow, keep func(oracleRow) bool) []oracleRow {
	var out []oracleRow
	for _, r := range rows {
		if keep(r) {
			out = append(out, r)
		}
	}
	return out
}

func oracleIsAI(engine string) bool { return sightline.Engine(engine).AI() }

// oracleFigures are a brand's figures over a scope, computed from raw rows.
type oracleFigures struct {
	aiPasses, serpPasses, shopPasses          int
	mentions                                  []oracleRow // the brand's
	links, serps, shops                       []float64   // best position per capture
	worth, allWorth                           float64
	allMentions                               int
	positive, neutral, negative               int
	shareOfVoice, mentionRate, serpRate       *float64
	shoppingRate, positivity                  *float64
	avgMention, avgLink, avgSerp, avgShopping *float64
}

// figures computes the figures of the own brand (competitor uuid.Nil) or of
// a tracked competitor.
func (d oracleData) figures(s oracleScope, competitor uuid.UUID) oracleFigures {
	var f oracleFigures
	brand := func(r oracleRow) bool {
		if competitor == uuid.Nil {
			return r.relation == "own"
		}
		return r.competit == competitor
	}
	for _, p := range oracleFilter(d.passes, s.has) {
		switch {
		case oracleIsAI(p.engine):
			f.aiPasses++
		case p.engine == string(sightline.EngineGoogleSERP):
			f.serpPasses++
		default:
			f.shopPasses++
		}
	}
	for _, m := range oracleFilter(d.mentions, s.has) {
		f.allWorth += m.worth
		f.allMentions++
		if brand(m) {
			f.mentions = append(f.mentions, m)
			f.worth += m.worth
			switch m.tone {
			case "positive":
				f.positive++
			case "neutral":
				f.neutral++
			default:
				f.negative++
			}
		}
	}
	best := func(rows []oracleRow) []float64 {
		min := map[uuid.UUID]int{}
		for _, r := range rows {
			if s.has(r) && brand(r) {
				if cur, ok := min[r.capture]; !ok || r.position < cur {
					min[r.capture] = r.position
				}
			}
		}
		var out []float64
		for _, v := range min {
			out = append(out, float64(v))
		}
		return out
	}
	f.links, f.serps, f.shops = best(d.citations), best(d.results), best(d.offers)
	if f.allWorth > 0 {
		f.shareOfVoice = ptr(100 * f.worth / f.allWorth)
	}
	f.mentionRate = oracleRatio(100*float64(len(f.mentions)), f.aiPasses)
	f.serpRate = oracleRatio(100*float64(len(f.serps)), f.serpPasses)
	f.shoppingRate = oracleRatio(100*float64(len(f.shops)), f.shopPasses)
	f.positivity = oracleRatio(100*(float64(f.positive)+0.5*float64(f.neutral)), len(f.mentions))
	var positions []float64
	for _, m := range f.mentions {
		positions = append(positions, float64(m.position))
	}
	f.avgMention, f.avgLink, f.avgSerp, f.avgShopping = oracleMean(positions), oracleMean(f.links), oracleMean(f.serps), oracleMean(f.shops)
	return f
}

func oracleRatio(part float64, whole int) *float64 {
	if whole == 0 {
		return nil
	}
	return ptr(part / float64(whole))
}

func oracleMean(vs []float64) *float64 {
	if len(vs) == 0 {
		return nil
	}
	var sum float64
	for _, v := range vs {
		sum += v
	}
	return ptr(sum / float64(len(vs)))
}

// delta is a - b, nil when either is.
func oracleDelta(a, b *float64) *float64 {
	if a == nil || b == nil {
		return nil
	}
	return ptr(*a - *b)
}

// oracleCheck compares one figure of an answer with the oracle's.
type oracleCheck struct {
	t     *testing.T
	where string
}

func (c oracleCheck) num(obj map[string]any, key string, want *float64) {
	c.t.Helper()
	raw, ok := obj[key]
	if !ok {
		c.t.Errorf("%s: %s is missing", c.where, key)
		return
	}
	got, isNum := raw.(float64)
	switch {
	case want == nil && raw != nil:
		c.t.Errorf("%s: %s = %v, want null", c.where, key, raw)
	case want != nil && !isNum:
		c.t.Errorf("%s: %s = %v, want %.6f", c.where, key, raw, *want)
	case want != nil && math.Abs(got-*want) > 1e-6*math.Max(1, math.Abs(*want)):
		c.t.Errorf("%s: %s = %.9f, want %.9f", c.where, key, got, *want)
	}
}

func (c oracleCheck) count(obj map[string]any, key string, want int) {
	c.t.Helper()
	c.num(obj, key, ptr(float64(want)))
}

// get asks path with params and decodes the 200 answer.
func (of *oracleFixture) get(t *testing.T, suffix string, params url.Values) map[string]any {
	t.Helper()
	r := of.do(call{method: "GET", path: of.path(suffix) + "?" + params.Encode(), key: of.owner.key})
	if r.status != 200 {
		t.Fatalf("GET %s?%s: %d %s", suffix, params.Encode(), r.status, r.body)
	}
	var m map[string]any
	if err := json.Unmarshal(r.body, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// randomScope draws a window inside the history (or, rarely, an empty one
// before it) and random filters.
func (of *oracleFixture) randomScope(r *rand.Rand) oracleScope {
	days := 1 + r.IntN(35)
	end := of.today.AddDate(0, 0, -r.IntN(oracleDays-days+3))
	s := oracleScope{to: end, from: end.AddDate(0, 0, -(days - 1))}
	if r.IntN(12) == 0 {
		s.to = of.today.AddDate(0, 0, -200)
		s.from = s.to.AddDate(0, 0, -(days - 1))
	}
	if r.IntN(2) == 0 {
		for _, e := range sightline.Engines {
			if r.IntN(2) == 0 {
				s.engines = append(s.engines, string(e))
			}
		}
	}
	if r.IntN(3) == 0 {
		s.countries = []string{[]string{"US", "DE"}[r.IntN(2)]}
	}
	switch r.IntN(5) {
	case 0:
		s.clusters = []uuid.UUID{of.clusters[r.IntN(len(of.clusters))]}
	case 1:
		s.clusters = []uuid.UUID{of.deleted}
	case 2:
		s.clusters = append([]uuid.UUID{}, of.clusters...)
		s.ungrouped = true
	case 3:
		s.ungrouped = true
	}
	return s
}

func TestAnalyticsOracle(t *testing.T) {
	of := oracleSetup(t)
	r := rand.New(rand.NewPCG(2026, 11))
	for i := range 24 {
		s := of.randomScope(r)
		t.Run(fmt.Sprintf("scope%02d", i), func(t *testing.T) {
			t.Logf("window %s..%s engines %v countries %v clusters %v ungrouped %v", s.from.Format(time.DateOnly),
				s.to.Format(time.DateOnly), s.engines, s.countries, s.clusters, s.ungrouped)
			of.checkMetrics(t, s)
			of.checkTimeseries(t, s, []string{"daily", "weekly", "monthly"}[i%3])
			of.checkClusters(t, s)
			of.checkSentimentAndMix(t, s)
			of.checkCitedSources(t, s)
			of.checkCooccurrence(t, s)
			of.checkMovers(t, s)
			of.checkKeywords(t, s)
			of.checkMentionSamples(t, s)
		})
	}
}

func (of *oracleFixture) checkMetrics(t *testing.T, s oracleScope) {
	s.queries = of.selectQueries(s, false)
	got := of.get(t, "/metrics", s.params())
	cur, prev := of.data.figures(s, uuid.Nil), of.data.figures(s.previous(), uuid.Nil)
	c := oracleCheck{t, "metrics"}
	c.num(got, "shareOfVoice", cur.shareOfVoice)
	c.num(got, "mentionRate", cur.mentionRate)
	c.num(got, "serpRate", cur.serpRate)
	c.num(got, "shoppingRate", cur.shoppingRate)
	c.num(got, "positivityIndex", cur.positivity)
	c.num(got, "avgMentionPosition", cur.avgMention)
	c.num(got, "avgLinkPosition", cur.avgLink)
	c.num(got, "avgSerpPosition", cur.avgSerp)
	c.num(got, "avgShoppingPosition", cur.avgShopping)
	c.count(got, "mentionCount", len(cur.mentions))
	c.count(got, "sentimentPositive", cur.positive)
	c.count(got, "sentimentNeutral", cur.neutral)
	c.count(got, "sentimentNegative", cur.negative)
	c.num(got, "trendShareOfVoice", oracleDelta(cur.shareOfVoice, prev.shareOfVoice))
	c.num(got, "trendMentionRate", oracleDelta(cur.mentionRate, prev.mentionRate))
	c.num(got, "trendAvgMentionPosition", oracleDelta(cur.avgMention, prev.avgMention))
	c.num(got, "trendAvgSerpPosition", oracleDelta(cur.avgSerp, prev.avgSerp))
	if iv, _ := got["shareOfVoiceInterval"].(map[string]any); cur.shareOfVoice != nil {
		if iv == nil {
			t.Errorf("metrics: shareOfVoiceInterval missing beside %v", *cur.shareOfVoice)
		} else {
			c.count(iv, "n", cur.allMentions)
		}
	}
	if iv, _ := got["mentionRateInterval"].(map[string]any); cur.mentionRate != nil {
		if iv == nil {
			t.Errorf("metrics: mentionRateInterval missing beside %v", *cur.mentionRate)
		} else {
			c.count(iv, "n", cur.aiPasses)
		}
	} else if got["mentionRateInterval"] != nil {
		t.Errorf("metrics: mentionRateInterval %v beside a null mentionRate", got["mentionRateInterval"])
	}
	types := map[string]int{}
	for _, m := range cur.mentions {
		types[m.mtype]++
	}
	counts, _ := got["mentionTypeCounts"].(map[string]any)
	for _, mt := range sightline.MentionTypes {
		c.count(counts, string(mt), types[string(mt)])
	}
	competitors, _ := got["competitors"].([]any)
	if len(competitors) != len(of.competitors) {
		t.Errorf("metrics: %d competitor rows, want %d (deleted competitors are gone)", len(competitors), len(of.competitors))
	}
	for _, row := range competitors {
		row := row.(map[string]any)
		id := uuid.MustParse(row["competitorId"].(string))
		cf := of.data.figures(s, id)
		cc := oracleCheck{t, "metrics competitor " + id.String()}
		cc.num(row, "shareOfVoice", cf.shareOfVoice)
		cc.num(row, "mentionRate", cf.mentionRate)
		cc.count(row, "mentionCount", len(cf.mentions))
	}
}

// bucketStart is the start of the time-series bucket holding day.
func oracleBucketStart(day, from time.Time, granularity string) time.Time {
	var start time.Time
	switch granularity {
	case "weekly":
		start = day.AddDate(0, 0, -((int(day.Weekday()) + 6) % 7))
	case "monthly":
		start = time.Date(day.Year(), day.Month(), 1, 0, 0, 0, 0, time.UTC)
	default:
		start = day
	}
	if start.Before(from) {
		return from
	}
	return start
}

func (of *oracleFixture) checkTimeseries(t *testing.T, s oracleScope, granularity string) {
	s.queries = of.selectQueries(s, true)
	params := s.params()
	params.Set("granularity", granularity)
	competitor := of.competitors[0]
	params.Set("competitorIds", competitor.String())
	got := of.get(t, "/timeseries", params)
	points, _ := got["points"].([]any)
	// A point per bucket, gaps included; none when the clusters leave no
	// tracked query.
	var starts []time.Time
	for d := s.from; !d.After(s.to) && (s.queries == nil || len(s.queries) > 0); d = d.AddDate(0, 0, 1) {
		if b := oracleBucketStart(d, s.from, granularity); len(starts) == 0 || !starts[len(starts)-1].Equal(b) {
			starts = append(starts, b)
		}
	}
	if len(points) != len(starts) {
		t.Fatalf("timeseries %s: %d points, want %d", granularity, len(points), len(starts))
	}
	for i, p := range points {
		p := p.(map[string]any)
		bucket := s
		bucket.from = starts[i]
		bucket.to = s.to
		if i+1 < len(starts) {
			bucket.to = starts[i+1].AddDate(0, 0, -1)
		}
		if p["date"] != starts[i].Format(time.DateOnly) {
			t.Errorf("timeseries %s point %d: date %v, want %s", granularity, i, p["date"], starts[i].Format(time.DateOnly))
		}
		own := of.data.figures(bucket, uuid.Nil)
		c := oracleCheck{t, fmt.Sprintf("timeseries %s %s", granularity, starts[i].Format(time.DateOnly))}
		c.num(p, "shareOfVoice", own.shareOfVoice)
		c.num(p, "mentionRate", own.mentionRate)
		c.num(p, "serpRate", own.serpRate)
		c.num(p, "mention", own.avgMention)
		c.num(p, "serp", own.avgSerp)
		c.num(p, "link", own.avgLink)
		c.num(p, "shopping", own.avgShopping)
		c.num(p, "positivity", own.positivity)
		entries, _ := p["competitors"].(map[string]any)
		entry, _ := entries[competitor.String()].(map[string]any)
		if entry == nil {
			t.Errorf("%s: no entry for competitor %s", c.where, competitor)
			continue
		}
		cf := of.data.figures(bucket, competitor)
		cc := oracleCheck{t, c.where + " competitor"}
		cc.num(entry, "shareOfVoice", cf.shareOfVoice)
		cc.num(entry, "mentionRate", cf.mentionRate)
		cc.num(entry, "mention", cf.avgMention)
	}
}

func (of *oracleFixture) checkClusters(t *testing.T, s oracleScope) {
	got := of.get(t, "/metrics/clusters", s.params())
	rows, _ := got["rows"].([]any)
	type want struct {
		id *uuid.UUID
	}
	var wants []want
	switch {
	case s.clusters == nil && s.ungrouped:
	case s.clusters == nil:
		for _, c := range of.clusters {
			wants = append(wants, want{id: &c})
		}
	default:
		for _, c := range s.clusters {
			if c != of.deleted {
				wants = append(wants, want{id: &c})
			}
		}
	}
	if s.ungrouped {
		wants = append(wants, want{})
	}
	if len(rows) != len(wants) {
		t.Fatalf("metrics/clusters: %d rows, want %d", len(rows), len(wants))
	}
	for _, w := range wants {
		sel := s.withoutClusters()
		if w.id != nil {
			sel.clusters = []uuid.UUID{*w.id}
		} else {
			sel.ungrouped = true
		}
		sel.queries = of.selectQueries(sel, true)
		var row map[string]any
		for _, r := range rows {
			r := r.(map[string]any)
			if (w.id == nil && r["clusterId"] == nil) || (w.id != nil && r["clusterId"] == w.id.String()) {
				row = r
			}
		}
		if row == nil {
			t.Errorf("metrics/clusters: no row for cluster %v", w.id)
			continue
		}
		f := of.data.figures(sel, uuid.Nil)
		c := oracleCheck{t, fmt.Sprintf("metrics/clusters %v", w.id)}
		c.num(row, "shareOfVoice", f.shareOfVoice)
		c.num(row, "mentionRate", f.mentionRate)
		c.num(row, "serpRate", f.serpRate)
		c.num(row, "avgMentionPosition", f.avgMention)
		c.count(row, "mentionCount", len(f.mentions))
	}
}

func (of *oracleFixture) checkSentimentAndMix(t *testing.T, s oracleScope) {
	s.queries = of.selectQueries(s, true)
	got := of.get(t, "/sentiment", s.params())
	perEngine, _ := got["perEngine"].([]any)
	for _, row := range perEngine {
		row := row.(map[string]any)
		es := s
		es.engines = []string{row["engine"].(string)}
		if len(s.engines) > 0 && !slices.Contains(s.engines, es.engines[0]) {
			t.Errorf("sentiment: engine %s outside the filter %v", es.engines[0], s.engines)
		}
		f := of.data.figures(es, uuid.Nil)
		c := oracleCheck{t, "sentiment " + es.engines[0]}
		c.count(row, "positive", f.positive)
		c.count(row, "neutral", f.neutral)
		c.count(row, "negative", f.negative)
		c.num(row, "positivityIndex", f.positivity)
	}
	perCompetitor, _ := got["perCompetitor"].([]any)
	if len(perCompetitor) != len(of.competitors) {
		t.Errorf("sentiment: %d competitor rows, want %d", len(perCompetitor), len(of.competitors))
	}
	for _, row := range perCompetitor {
		row := row.(map[string]any)
		f := of.data.figures(s, uuid.MustParse(row["competitorId"].(string)))
		c := oracleCheck{t, "sentiment competitor"}
		c.count(row, "positive", f.positive)
		c.count(row, "negative", f.negative)
		c.num(row, "positivityIndex", f.positivity)
	}

	mixScope := s.withoutClusters()
	mix := of.get(t, "/mentions/mix", mixScope.params())
	f := of.data.figures(mixScope, uuid.Nil)
	byType, byTone, byQualifier := map[string]int{}, map[string]int{}, map[string]int{}
	for _, m := range f.mentions {
		byType[m.mtype]++
		byTone[m.tone]++
		byQualifier[m.qualifier]++
	}
	c := oracleCheck{t, "mentions/mix"}
	for _, mt := range sightline.MentionTypes {
		c.count(mix["byType"].(map[string]any), string(mt), byType[string(mt)])
	}
	for _, tone := range sightline.Tones {
		c.count(mix["byTone"].(map[string]any), string(tone), byTone[string(tone)])
	}
	for _, q := range sightline.Qualifiers {
		c.count(mix["byQualifier"].(map[string]any), string(q), byQualifier[string(q)])
	}
}

func (of *oracleFixture) checkCitedSources(t *testing.T, s oracleScope) {
	s = s.withoutClusters()
	params := s.params()
	params.Del("countries")
	s.countries = nil
	params.Set("limit", "100")
	got := of.get(t, "/cited-sources", params)
	type agg struct {
		count, posSum   int
		answers, querys map[uuid.UUID]bool
	}
	byDomain := map[string]*agg{}
	for _, c := range oracleFilter(of.data.citations, s.has) {
		if c.relation == "unresolved" {
			continue
		}
		a := byDomain[c.domain]
		if a == nil {
			a = &agg{answers: map[uuid.UUID]bool{}, querys: map[uuid.UUID]bool{}}
			byDomain[c.domain] = a
		}
		a.count++
		a.posSum += c.position
		a.answers[c.capture] = true
		a.querys[c.query] = true
	}
	c := oracleCheck{t, "cited-sources"}
	c.count(got, "total", len(byDomain))
	sources, _ := got["sources"].([]any)
	prev := math.MaxInt
	for _, row := range sources {
		row := row.(map[string]any)
		domain, _ := row["domain"].(string)
		a := byDomain[domain]
		if a == nil {
			t.Errorf("cited-sources: unexpected domain %q", domain)
			continue
		}
		rc := oracleCheck{t, "cited-sources " + domain}
		rc.count(row, "citationCount", a.count)
		rc.count(row, "distinctResponseCount", len(a.answers))
		rc.count(row, "distinctQueryCount", len(a.querys))
		rc.num(row, "avgPosition", ptr(float64(a.posSum)/float64(a.count)))
		if a.count > prev {
			t.Errorf("cited-sources: not ordered by citationCount at %s", domain)
		}
		prev = a.count
	}
}

func (of *oracleFixture) checkCooccurrence(t *testing.T, s oracleScope) {
	s = s.withoutClusters()
	got := of.get(t, "/competitors/co-occurrence", s.params())
	own := map[uuid.UUID]int{}
	for _, m := range oracleFilter(of.data.mentions, s.has) {
		if m.relation == "own" {
			own[m.capture] = m.position
		}
	}
	rows, _ := got["competitors"].([]any)
	if len(rows) != len(of.competitors) {
		t.Errorf("co-occurrence: %d rows, want %d", len(rows), len(of.competitors))
	}
	for _, row := range rows {
		row := row.(map[string]any)
		id := uuid.MustParse(row["competitorId"].(string))
		var shared, wins, losses, ties, ownSum int
		for _, m := range oracleFilter(of.data.mentions, s.has) {
			pos, ok := own[m.capture]
			if m.competit != id || !ok {
				continue
			}
			shared++
			ownSum += pos
			switch {
			case pos < m.position:
				wins++
			case pos > m.position:
				losses++
			default:
				ties++
			}
		}
		c := oracleCheck{t, "co-occurrence " + id.String()}
		c.count(row, "sharedResponseCount", shared)
		c.count(row, "brandWins", wins)
		c.count(row, "competitorWins", losses)
		c.count(row, "ties", ties)
		c.num(row, "winRate", oracleRatio(100*float64(wins), shared))
		c.num(row, "avgOwnPosition", oracleRatio(float64(ownSum), shared))
	}
}

func (of *oracleFixture) checkMovers(t *testing.T, s oracleScope) {
	s = s.withoutClusters()
	params := s.params()
	params.Set("limit", "100")
	got := of.get(t, "/metrics/movers", params)
	rows, _ := got["rows"].([]any)
	seen := map[uuid.UUID]bool{}
	var last *float64
	nullSeen := false
	for _, row := range rows {
		row := row.(map[string]any)
		id := uuid.MustParse(row["trackedQueryId"].(string))
		seen[id] = true
		qs := s
		qs.queries = map[uuid.UUID]bool{id: true}
		cur, prev := of.data.figures(qs, uuid.Nil), of.data.figures(qs.previous(), uuid.Nil)
		c := oracleCheck{t, "movers " + id.String()}
		c.num(row, "shareOfVoice", cur.shareOfVoice)
		c.num(row, "avgMentionPosition", cur.avgMention)
		c.num(row, "avgSerpPosition", cur.avgSerp)
		trend := oracleDelta(cur.shareOfVoice, prev.shareOfVoice)
		c.num(row, "trendShareOfVoice", trend)
		c.num(row, "trendMention", oracleDelta(prev.avgMention, cur.avgMention))
		switch {
		case trend == nil:
			nullSeen = true
		case nullSeen:
			t.Errorf("movers: a row with a trend after one without")
		case last != nil && *trend > *last+1e-9:
			t.Errorf("movers: not ordered by trendShareOfVoice desc")
		}
		if trend != nil {
			last = trend
		}
	}
	for _, q := range of.queries {
		qs := s
		qs.queries = map[uuid.UUID]bool{q.id: true}
		if len(oracleFilter(of.data.passes, qs.has))+len(oracleFilter(of.data.passes, qs.previous().has)) > 0 && !seen[q.id] {
			t.Errorf("movers: tracked query %s with captures is missing", q.id)
		}
	}
}

func (of *oracleFixture) checkKeywords(t *testing.T, s oracleScope) {
	s.queries = of.selectQueries(s, true)
	params := s.params()
	params.Set("limit", "100")
	got := of.get(t, "/keyword-listings", params)
	variants := map[string]map[uuid.UUID]bool{}
	for _, q := range of.queries {
		if (len(s.engines) > 0 && !slices.Contains(s.engines, string(q.engine))) ||
			(len(s.countries) > 0 && !slices.Contains(s.countries, q.country)) || (s.queries != nil && !s.queries[q.id]) {
			continue
		}
		if variants[q.text] == nil {
			variants[q.text] = map[uuid.UUID]bool{}
		}
		variants[q.text][q.id] = true
	}
	c := oracleCheck{t, "keyword-listings"}
	c.count(got, "total", len(variants))
	page, _ := got["page"].([]any)
	var keywords []string
	for _, row := range page {
		row := row.(map[string]any)
		keyword := row["keyword"].(string)
		keywords = append(keywords, keyword)
		ks := s
		ks.queries = variants[keyword]
		f := of.data.figures(ks, uuid.Nil)
		rc := oracleCheck{t, "keyword-listings " + keyword}
		rc.count(row, "variantCount", len(variants[keyword]))
		rc.num(row, "shareOfVoice", f.shareOfVoice)
		rc.num(row, "avgMentionPosition", f.avgMention)
		rc.num(row, "avgSerpPosition", f.avgSerp)
		rc.num(row, "positivityIndex", f.positivity)
	}
	if !slices.IsSortedFunc(keywords, cmp.Compare[string]) {
		t.Errorf("keyword-listings: default order is by keyword ascending: %v", keywords)
	}
}

func (of *oracleFixture) checkMentionSamples(t *testing.T, s oracleScope) {
	s = s.withoutClusters()
	got := of.get(t, "/mentions", s.params())
	want := 0
	for _, m := range oracleFilter(of.data.mentions, s.has) {
		if m.competit == uuid.Nil {
			want++
		}
	}
	oracleCheck{t, "mentions"}.count(got, "total", want)
}
