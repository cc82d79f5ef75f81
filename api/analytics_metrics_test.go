package api

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/sightline/sightline"
	"github.com/sightline/sightline/olap"
	"github.com/sightline/sightline/oltp"
)

// metricsFixture is a project with tracked queries on several engines and
// countries, competitors and clusters, and passes with hand-chosen
// mentions, citations, results and offers in two consecutive 7-day
// windows: cur (9 to 3 days ago) and prev (16 to 10 days ago).
type metricsFixture struct {
	*capturesFixture
	q        map[string]uuid.UUID // tracked queries: A, B, C, S, P
	comp     map[string]uuid.UUID // competitors by name
	cluster  map[string]uuid.UUID // clusters by name, "gone" deleted
	cur      [2]time.Time         // first and last day of the current window
	prev     [2]time.Time         // first and last day of the previous window
	todayUTC time.Time
}

// metricsSetup seeds the fixture. The figures every test expects are
// computed by hand in the comments beside the passes.
func metricsSetup(t *testing.T) *metricsFixture {
	t.Helper()
	f := setup(t, setupOptions{analytics: true})
	owner, org := f.owner()
	y, m, d := time.Now().UTC().Date()
	today := time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
	mf := &metricsFixture{
		capturesFixture: &capturesFixture{fixture: f, conn: f.server.analytics.Conn, owner: owner, org: org,
			project: f.project(org, "Metrics"), day: today.AddDate(0, 0, -3)},
		q: map[string]uuid.UUID{}, comp: map[string]uuid.UUID{}, cluster: map[string]uuid.UUID{},
		cur:      [2]time.Time{today.AddDate(0, 0, -9), today.AddDate(0, 0, -3)},
		prev:     [2]time.Time{today.AddDate(0, 0, -16), today.AddDate(0, 0, -10)},
		todayUTC: today,
	}
	// Tracked queries: A chatgpt US (alpha), B perplexity DE (alpha, beta),
	// C chatgpt DE (ungrouped), S google_serp US (beta), P google_shopping
	// US (ungrouped).
	for _, q := range []struct {
		name    string
		engine  sightline.Engine
		country string
	}{{"A", sightline.EngineChatGPT, "US"}, {"B", sightline.EnginePerplexity, "DE"}, {"C", sightline.EngineChatGPT, "DE"},
		{"S", sightline.EngineGoogleSERP, "US"}, {"P", sightline.EngineGoogleShopping, "US"}} {
		mf.q[q.name] = mf.trackedQuery(mf.project, q.engine, q.country, "query "+q.name)
	}
	for _, name := range []string{"Bolt", "Zenith", "Quiet", "Apex"} {
		mf.comp[name] = mf.competitor(mf.project, name)
	}
	for _, name := range []string{"beta", "alpha", "empty", "gone"} {
		mf.cluster[name] = uuid.Must(uuid.NewV7())
		mf.exec(`INSERT INTO query_clusters (id, project_id, name) VALUES ($1, $2, $3)`, mf.cluster[name], mf.project, name)
	}
	for _, m := range [][2]string{{"A", "alpha"}, {"B", "alpha"}, {"B", "beta"}, {"S", "beta"}, {"A", "gone"}} {
		mf.exec(`INSERT INTO tracked_query_clusters (project_id, tracked_query_id, cluster_id) VALUES ($1, $2, $3)`,
			mf.project, mf.q[m[0]], mf.cluster[m[1]])
	}
	if _, err := oltp.DeleteCluster(context.Background(), mf.pool, org, mf.project, mf.cluster["gone"]); err != nil {
		t.Fatal(err)
	}

	bolt, zenith := mf.comp["Bolt"], mf.comp["Zenith"]
	at := func(day time.Time) time.Time { return day.Add(10 * time.Hour) }
	c0 := mf.cur[0]

	// Current window. A: a run of 3 passes of which only 2 were stored (the
	// third failed): 2 AI answers count, not 3.
	runA := uuid.New()
	a0 := mf.ai("A", runA, 0, 3, at(c0.AddDate(0, 0, 1)),
		own(1, sightline.MentionRecommendation, sightline.TonePositive, sightline.QualifierDirect),    // worth 1.2
		rival(bolt, 2, sightline.MentionComparison, sightline.ToneNeutral, sightline.QualifierDirect), // 0.8
		untracked(3, sightline.MentionListing, sightline.ToneNegative))                                // 0.3
	a0.Citations = []olap.Citation{
		{Position: 1, URL: "https://bolt.io/", Domain: "bolt.io", Relation: sightline.RelationTrackedCompetitor, CompetitorID: &bolt},
		{Position: 2, URL: "https://acme.com/a", Domain: "acme.com", Relation: sightline.RelationOwn},
	}
	a1 := mf.ai("A", runA, 1, 3, at(c0.AddDate(0, 0, 1)),
		rival(bolt, 1, sightline.MentionRecommendation, sightline.TonePositive, sightline.QualifierDirect), // 1.2
		own(2, sightline.MentionListing, sightline.ToneNeutral, sightline.QualifierConditional))            // 0.42
	// B: one answer naming only Zenith; it cites the own domain first.
	b0 := mf.ai("B", uuid.New(), 0, 1, at(c0.AddDate(0, 0, 2)),
		rival(zenith, 1, sightline.MentionExample, sightline.ToneNeutral, sightline.QualifierDirect)) // 0.5
	b0.Citations = []olap.Citation{
		{Position: 1, URL: "https://acme.com/b", Domain: "acme.com", Relation: sightline.RelationOwn},
		{Position: 2, URL: "https://vertexaisearch.cloud.google.com/x", Domain: "vertexaisearch.cloud.google.com", Unresolved: true},
	}
	// C: two passes, the own brand 4th and 11th.
	runC := uuid.New()
	cp0 := mf.ai("C", runC, 0, 2, at(c0.AddDate(0, 0, 3)),
		own(4, sightline.MentionReference, sightline.ToneNegative, sightline.QualifierDirect)) // 0.15
	cp1 := mf.ai("C", runC, 1, 2, at(c0.AddDate(0, 0, 3)),
		rival(bolt, 1, sightline.MentionListing, sightline.TonePositive, sightline.QualifierDirect), // 0.72
		own(11, sightline.MentionExample, sightline.TonePositive, sightline.QualifierDirect))        // 0.6
	// S: three search pages, the own domain at 3, then 5 (and 7), then absent.
	s1 := mf.serp(at(c0.AddDate(0, 0, 1)), result(1, "bolt.io", &bolt), result(3, "acme.com", nil))
	s2 := mf.serp(at(c0.AddDate(0, 0, 4)), result(5, "acme.com", nil), result(7, "acme.com", nil))
	s3 := mf.serp(at(c0.AddDate(0, 0, 5)), result(2, "zenith.io", &zenith))
	// P: two shopping pages, an own offer at 2, then none.
	p1 := mf.shopping(at(c0.AddDate(0, 0, 2)), offer(2, "acme.com", sightline.RelationOwn))
	p2 := mf.shopping(at(c0.AddDate(0, 0, 3)), offer(1, "shop.example", sightline.RelationNone))

	// Previous window: one answer of A (own 3rd, Bolt 1st, own link at 4)
	// and one search page with the own domain at 2; no shopping page.
	pa := mf.ai("A", uuid.New(), 0, 1, at(mf.prev[0].AddDate(0, 0, 1)),
		rival(bolt, 1, sightline.MentionRecommendation, sightline.TonePositive, sightline.QualifierDirect), // 1.2
		own(3, sightline.MentionRecommendation, sightline.ToneNeutral, sightline.QualifierDirect))          // 1.0
	pa.Citations = []olap.Citation{{Position: 4, URL: "https://acme.com/p", Domain: "acme.com", Relation: sightline.RelationOwn}}
	ps := mf.serp(at(mf.prev[0].AddDate(0, 0, 2)), result(2, "acme.com", nil))

	mf.insert(a0, a1, b0, cp0, cp1, s1, s2, s3, p1, p2, pa, ps)
	return mf
}

func (mf *metricsFixture) exec(sql string, args ...any) {
	mf.t.Helper()
	if _, err := mf.pool.Exec(context.Background(), sql, args...); err != nil {
		mf.t.Fatal(err)
	}
}

// trackedQuery inserts a tracked query of project on engine in country.
func (mf *metricsFixture) trackedQuery(project uuid.UUID, engine sightline.Engine, country, text string) uuid.UUID {
	mf.t.Helper()
	id := uuid.Must(uuid.NewV7())
	passes := 3
	if !engine.AI() {
		passes = 1
	}
	mf.exec(`INSERT INTO tracked_queries (id, project_id, query_text, engine, country, locale, check_frequency, n_passes)
		VALUES ($1, $2, $3, $4, $5, 'en', 'daily', $6)`, id, project, text, string(engine), country, passes)
	return id
}

// competitor adds a tracked competitor to project's brand profile.
func (mf *metricsFixture) competitor(project uuid.UUID, name string) uuid.UUID {
	mf.t.Helper()
	id := uuid.Must(uuid.NewV7())
	domain := strings.ToLower(name) + ".io"
	mf.exec(`INSERT INTO competitors (id, project_id, name, website_domains, brand_names) VALUES ($1, $2, $3, $4, $5)`,
		id, project, name, []string{domain}, []string{name})
	return id
}

// passOf is a pass of the fixture's tracked query name, in its country.
func (mf *metricsFixture) passOf(project uuid.UUID, query uuid.UUID, engine sightline.Engine, country string,
	run uuid.UUID, index, count uint8, at time.Time) olap.PassRows {
	p := mf.pass(project, query, run, engine, index, count, at)
	p.Country = country
	return p
}

func (mf *metricsFixture) ai(name string, run uuid.UUID, index, count uint8, at time.Time, mentions ...olap.Mention) olap.PassRows {
	engine, country := sightline.EngineChatGPT, "US"
	switch name {
	case "B":
		engine, country = sightline.EnginePerplexity, "DE"
	case "C":
		country = "DE"
	}
	p := mf.passOf(mf.project, mf.q[name], engine, country, run, index, count, at)
	p.ResponseText = "answer"
	p.Mentions = mentions
	return p
}

func (mf *metricsFixture) serp(at time.Time, results ...olap.SearchResult) olap.PassRows {
	p := mf.passOf(mf.project, mf.q["S"], sightline.EngineGoogleSERP, "US", uuid.New(), 0, 1, at)
	p.SearchResults = results
	return p
}

func (mf *metricsFixture) shopping(at time.Time, offers ...olap.ShoppingOffer) olap.PassRows {
	p := mf.passOf(mf.project, mf.q["P"], sightline.EngineGoogleShopping, "US", uuid.New(), 0, 1, at)
	p.ShoppingOffers = offers
	return p
}

func mention(rel sightline.Relation, competitor *uuid.UUID, pos int, typ sightline.MentionType, tone sightline.Tone,
	q sightline.Qualifier) olap.Mention {
	return olap.Mention{BrandName: fmt.Sprintf("brand %d", pos), Relation: rel, CompetitorID: competitor, Position: pos,
		Type: typ, Tone: tone, Qualifier: q, Sentence: "sentence"}
}

func own(pos int, typ sightline.MentionType, tone sightline.Tone, q sightline.Qualifier) olap.Mention {
	return mention(sightline.RelationOwn, nil, pos, typ, tone, q)
}

func rival(id uuid.UUID, pos int, typ sightline.MentionType, tone sightline.Tone, q sightline.Qualifier) olap.Mention {
	return mention(sightline.RelationTrackedCompetitor, &id, pos, typ, tone, q)
}

func untracked(pos int, typ sightline.MentionType, tone sightline.Tone) olap.Mention {
	return mention(sightline.RelationUntrackedCompetitor, nil, pos, typ, tone, sightline.QualifierDirect)
}

func result(rank int, domain string, competitor *uuid.UUID) olap.SearchResult {
	rel := sightline.RelationOwn
	if competitor != nil {
		rel = sightline.RelationTrackedCompetitor
	}
	return olap.SearchResult{Rank: rank, URL: "https://" + domain + "/", Domain: domain, Title: domain, Relation: rel,
		CompetitorID: competitor}
}

func offer(rank int, domain string, rel sightline.Relation) olap.ShoppingOffer {
	return olap.ShoppingOffer{Rank: rank, Title: "offer", Price: 10, Currency: "USD", Merchant: domain, Domain: domain,
		URL: "https://" + domain + "/p", Relation: rel}
}

// window is the query string of a window and extra parameters.
func window(from, to time.Time, extra ...string) string {
	v := url.Values{}
	v.Set("dateFrom", from.Format(time.DateOnly))
	v.Set("dateTo", to.Format(time.DateOnly))
	for i := 0; i+1 < len(extra); i += 2 {
		v.Add(extra[i], extra[i+1])
	}
	return "?" + v.Encode()
}

// okJSON decodes a 200 answer.
func okJSON(t *testing.T, r response) map[string]any {
	t.Helper()
	if r.status != http.StatusOK {
		t.Fatalf("status %d: %s", r.status, r.body)
	}
	return r.json(t)
}

// expectFields checks every field of want against got: numbers within
// 1e-9, nil as JSON null, nested maps recursively.
func expectFields(t *testing.T, where string, got map[string]any, want map[string]any) {
	t.Helper()
	for k, w := range want {
		g, ok := got[k]
		if !ok {
			t.Errorf("%s: no field %s", where, k)
			continue
		}
		switch w := w.(type) {
		case nil:
			if g != nil {
				t.Errorf("%s.%s = %v, want null", where, k, g)
			}
		case map[string]any:
			gm, ok := g.(map[string]any)
			if !ok {
				t.Errorf("%s.%s = %v, want an object", where, k, g)
				continue
			}
			expectFields(t, where+"."+k, gm, w)
		case string:
			if g != w {
				t.Errorf("%s.%s = %v, want %q", where, k, g, w)
			}
		default:
			var wf float64
			switch w := w.(type) {
			case int:
				wf = float64(w)
			case float64:
				wf = w
			default:
				t.Fatalf("unsupported expectation %T", w)
			}
			gf, ok := g.(float64)
			if !ok || math.Abs(gf-wf) > 1e-9*math.Max(1, math.Abs(wf)) {
				t.Errorf("%s.%s = %v, want %v", where, k, g, wf)
			}
		}
	}
}

// expectIntervals checks every XInterval of obj and its nested objects: null
// exactly when X is, else n > 0 and low <= X <= high.
func expectIntervals(t *testing.T, where string, obj map[string]any) {
	t.Helper()
	for k, v := range obj {
		switch v := v.(type) {
		case map[string]any:
			if !strings.HasSuffix(k, "Interval") {
				expectIntervals(t, where+"."+k, v)
			}
		case []any:
			for i, e := range v {
				if m, ok := e.(map[string]any); ok {
					expectIntervals(t, fmt.Sprintf("%s.%s[%d]", where, k, i), m)
				}
			}
		}
		base, ok := strings.CutSuffix(k, "Interval")
		if !ok {
			continue
		}
		x, iv := obj[base], obj[k]
		if (x == nil) != (iv == nil) {
			t.Errorf("%s: %s = %v but %s = %v", where, base, x, k, iv)
			continue
		}
		if x == nil {
			continue
		}
		m := iv.(map[string]any)
		xf, n, lo, hi := x.(float64), m["n"].(float64), m["low"].(float64), m["high"].(float64)
		if n < 1 || lo > xf+1e-9 || hi < xf-1e-9 {
			t.Errorf("%s: %s %v outside its interval %v", where, base, x, iv)
		}
	}
}

func pct(part, whole float64) float64 { return 100 * part / whole }

func TestMetrics(t *testing.T) {
	t.Parallel()
	mf := metricsSetup(t)
	base := mf.path("/metrics")
	nilTrends := map[string]any{"trendShareOfVoice": nil, "trendMentionRate": nil, "trendSerpRate": nil,
		"trendShoppingRate": nil, "trendPositivityIndex": nil, "trendAvgMentionPosition": nil,
		"trendAvgLinkPosition": nil, "trendAvgSerpPosition": nil, "trendAvgShoppingPosition": nil}
	nothing := map[string]any{
		"shareOfVoice": nil, "mentionRate": nil, "serpRate": nil, "shoppingRate": nil, "positivityIndex": nil,
		"avgMentionPosition": nil, "bestMentionPosition": nil, "avgLinkPosition": nil, "bestLinkPosition": nil,
		"avgSerpPosition": nil, "bestSerpPosition": nil, "avgShoppingPosition": nil, "bestShoppingPosition": nil,
		"mentionPositionStability": nil, "linkPositionStability": nil, "serpPositionStability": nil,
		"shoppingPositionStability": nil, "mentionCount": 0, "sentimentPositive": 0, "sentimentNeutral": 0,
		"sentimentNegative": 0, "aiTrackedQueryCount": 0, "serpTrackedQueryCount": 0, "shoppingTrackedQueryCount": 0,
		"mentionQueriesWithResult": 0, "linkQueriesWithResult": 0, "serpQueriesWithResult": 0,
		"shoppingQueriesWithResult": 0,
		"mentionTypeCounts": map[string]any{"recommendation": 0, "comparison": 0, "listing": 0, "example": 0,
			"reference": 0},
		"mentionPositionDistribution": map[string]any{"1": 0, "2-3": 0, "4-5": 0, "6-10": 0, "11+": 0},
		"dataDirtySince":              nil,
	}
	merge := func(ms ...map[string]any) map[string]any {
		out := map[string]any{}
		for _, m := range ms {
			for k, v := range m {
				out[k] = v
			}
		}
		return out
	}
	// Current window by hand. AI answers: A 2 (of a run of 3 whose third
	// pass failed), B 1, C 2 = 5; own named in 4 at 1, 2, 4, 11. Own links
	// at 2 (A) and 1 (B). Search pages 3, own at 3 and 5. Shopping pages 2,
	// own at 2. Worth: own 1.2+0.42+0.15+0.6 = 2.37, Bolt 0.8+1.2+0.72 =
	// 2.72, Zenith 0.5, untracked 0.3: 5.89 over 9 mentions.
	current := map[string]any{
		"shareOfVoice": pct(2.37, 5.89), "shareOfVoiceInterval": map[string]any{"n": 9},
		"mentionRate": 80, "mentionRateInterval": map[string]any{"n": 5},
		"serpRate": pct(2, 3), "serpRateInterval": map[string]any{"n": 3},
		"shoppingRate": 50, "shoppingRateInterval": map[string]any{"n": 2},
		"positivityIndex": 62.5, "positivityIndexInterval": map[string]any{"n": 4},
		"avgMentionPosition": 4.5, "bestMentionPosition": 1,
		"avgLinkPosition": 1.5, "bestLinkPosition": 1,
		"avgSerpPosition": 4, "bestSerpPosition": 3,
		"avgShoppingPosition": 2, "bestShoppingPosition": 2,
		"mentionPositionStability": math.Sqrt(142.0/4 - 4.5*4.5), "linkPositionStability": 0.5,
		"serpPositionStability": 1, "shoppingPositionStability": nil,
		"mentionCount": 4, "sentimentPositive": 2, "sentimentNeutral": 1, "sentimentNegative": 1,
		"mentionTypeCounts": map[string]any{"recommendation": 1, "comparison": 0, "listing": 1, "example": 1,
			"reference": 1},
		"mentionPositionDistribution": map[string]any{"1": 1, "2-3": 1, "4-5": 1, "6-10": 0, "11+": 1},
		"aiTrackedQueryCount":         3, "serpTrackedQueryCount": 1, "shoppingTrackedQueryCount": 1,
		"mentionQueriesWithResult": 2, "linkQueriesWithResult": 2, "serpQueriesWithResult": 1,
		"shoppingQueriesWithResult": 1,
		// Previous window: 1 AI answer naming the own brand 3rd (worth 1.0 of
		// 2.2), own link 4, one search page with the own domain at 2.
		"trendShareOfVoice": pct(2.37, 5.89) - pct(1.0, 2.2), "trendMentionRate": 80 - 100.0,
		"trendSerpRate": pct(2, 3) - 100, "trendShoppingRate": nil, "trendPositivityIndex": 62.5 - 50,
		"trendAvgMentionPosition": 4.5 - 3, "trendAvgLinkPosition": 1.5 - 4, "trendAvgSerpPosition": 4 - 2.0,
		"trendAvgShoppingPosition": nil,
		"dataDirtySince":           nil,
	}
	type competitor struct {
		name string
		want map[string]any
	}
	currentCompetitors := []competitor{
		{"Bolt", map[string]any{"shareOfVoice": pct(2.72, 5.89), "mentionRate": 60, "mentionCount": 3,
			"avgMentionPosition": 4.0 / 3, "shareOfVoiceInterval": map[string]any{"n": 9},
			"mentionRateInterval": map[string]any{"n": 5}}},
		{"Zenith", map[string]any{"shareOfVoice": pct(0.5, 5.89), "mentionRate": 20, "mentionCount": 1,
			"avgMentionPosition": 1}},
		{"Apex", map[string]any{"shareOfVoice": 0, "mentionRate": 0, "mentionCount": 0, "avgMentionPosition": nil}},
		{"Quiet", map[string]any{"shareOfVoice": 0, "mentionRate": 0, "mentionCount": 0, "avgMentionPosition": nil}},
	}
	noCompetitorData := []competitor{}
	for _, name := range []string{"Apex", "Bolt", "Quiet", "Zenith"} { // no value: last, by name
		noCompetitorData = append(noCompetitorData, competitor{name, map[string]any{"shareOfVoice": nil,
			"shareOfVoiceInterval": nil, "mentionRate": nil, "mentionRateInterval": nil, "mentionCount": 0,
			"avgMentionPosition": nil}})
	}
	yesterday := mf.todayUTC.AddDate(0, 0, -1)

	cases := []struct {
		name        string
		query       string
		want        map[string]any
		competitors []competitor
	}{
		{"current window with trends", window(mf.cur[0], mf.cur[1]), current, currentCompetitors},
		{"includeUngroupedQueries alone changes nothing",
			window(mf.cur[0], mf.cur[1], "includeUngroupedQueries", "true"), current, currentCompetitors},
		{"previous window has no window before it: trends null", window(mf.prev[0], mf.prev[1]),
			merge(nilTrends, map[string]any{"shareOfVoice": pct(1.0, 2.2), "mentionRate": 100, "avgMentionPosition": 3,
				"avgLinkPosition": 4, "serpRate": 100, "avgSerpPosition": 2, "shoppingRate": nil, "positivityIndex": 50,
				"mentionPositionStability": nil, "mentionCount": 1, "aiTrackedQueryCount": 1, "serpTrackedQueryCount": 1,
				"shoppingTrackedQueryCount": 0}),
			[]competitor{
				{"Bolt", map[string]any{"shareOfVoice": pct(1.2, 2.2), "mentionRate": 100, "mentionCount": 1}},
				{"Apex", map[string]any{"shareOfVoice": 0, "mentionRate": 0}},
				{"Quiet", map[string]any{"shareOfVoice": 0}},
				{"Zenith", map[string]any{"shareOfVoice": 0, "mentionRate": 0, "mentionCount": 0}},
			}},
		{"empty window: nulls and zero counters", window(yesterday, yesterday), merge(nothing, nilTrends), noCompetitorData},
		{"both windows together", window(mf.prev[0], mf.cur[1]),
			merge(nilTrends, map[string]any{"mentionRate": pct(5, 6), "avgMentionPosition": 21.0 / 5,
				"shareOfVoice": pct(3.37, 8.09), "shareOfVoiceInterval": map[string]any{"n": 11},
				"serpRate": 75, "avgSerpPosition": 10.0 / 3, "bestSerpPosition": 2, "avgLinkPosition": 7.0 / 3}),
			nil},
		{"engines: search only", window(mf.cur[0], mf.cur[1], "engines", "google_serp"),
			merge(nothing, map[string]any{"serpRate": pct(2, 3), "avgSerpPosition": 4, "bestSerpPosition": 3,
				"serpPositionStability": 1, "serpTrackedQueryCount": 1, "serpQueriesWithResult": 1,
				"trendSerpRate": pct(2, 3) - 100, "trendAvgSerpPosition": 2}),
			noCompetitorData},
		{"engines: two AI engines comma-separated", window(mf.cur[0], mf.cur[1], "engines", "perplexity,google_shopping"),
			map[string]any{"mentionRate": 0, "mentionCount": 0, "avgLinkPosition": 1, "shoppingRate": 50,
				"shareOfVoice": 0, "aiTrackedQueryCount": 1, "shoppingTrackedQueryCount": 1, "serpRate": nil},
			[]competitor{{"Zenith", map[string]any{"shareOfVoice": 100, "mentionRate": 100}},
				{"Apex", map[string]any{"shareOfVoice": 0}}, {"Bolt", map[string]any{"shareOfVoice": 0}},
				{"Quiet", map[string]any{"shareOfVoice": 0}}}},
		{"countries by code", window(mf.cur[0], mf.cur[1], "countries", "DE"),
			map[string]any{"mentionRate": pct(2, 3), "avgMentionPosition": 7.5, "serpRate": nil, "shoppingRate": nil,
				"shareOfVoice": pct(0.75, 1.97), "aiTrackedQueryCount": 2, "avgLinkPosition": 1}, nil},
		{"countries by English name", window(mf.cur[0], mf.cur[1], "countries", "germany"),
			map[string]any{"mentionRate": pct(2, 3), "avgMentionPosition": 7.5}, nil},
		{"cluster alpha (A, B)", window(mf.cur[0], mf.cur[1], "queryClusterIds", mf.cluster["alpha"].String()),
			map[string]any{"mentionRate": pct(2, 3), "avgMentionPosition": 1.5, "serpRate": nil,
				"shareOfVoice": pct(1.62, 4.42), "shareOfVoiceInterval": map[string]any{"n": 6},
				"aiTrackedQueryCount": 2, "mentionQueriesWithResult": 1, "linkQueriesWithResult": 2}, nil},
		{"cluster beta (B, S)", window(mf.cur[0], mf.cur[1], "queryClusterIds", mf.cluster["beta"].String()),
			map[string]any{"mentionRate": 0, "serpRate": pct(2, 3), "shoppingRate": nil, "shareOfVoice": 0,
				"positivityIndex": nil}, nil},
		{"cluster beta widened by the ungrouped queries (C, P)",
			window(mf.cur[0], mf.cur[1], "queryClusterIds", mf.cluster["beta"].String(), "includeUngroupedQueries", "true"),
			map[string]any{"mentionRate": pct(2, 3), "serpRate": pct(2, 3), "shoppingRate": 50,
				"shareOfVoice": pct(0.75, 1.97), "aiTrackedQueryCount": 2}, nil},
		{"a deleted cluster selects nothing", window(mf.cur[0], mf.cur[1], "queryClusterIds", mf.cluster["gone"].String()),
			merge(nothing, nilTrends), noCompetitorData},
		{"a cluster without members selects nothing",
			window(mf.cur[0], mf.cur[1], "queryClusterIds", mf.cluster["empty"].String()), merge(nothing, nilTrends), nil},
		{"a run whose third pass failed counts its two stored passes",
			window(mf.cur[0].AddDate(0, 0, 1), mf.cur[0].AddDate(0, 0, 1), "engines", "chatgpt"),
			map[string]any{"mentionRate": 100, "mentionRateInterval": map[string]any{"n": 2}, "mentionCount": 2,
				"aiTrackedQueryCount": 1, "avgMentionPosition": 1.5}, nil},
		{"a far dateTo reads the same captures", window(mf.cur[0], time.Date(2300, 1, 1, 0, 0, 0, 0, time.UTC)),
			current, currentCompetitors},
		{"a window in the far future is empty",
			window(time.Date(2200, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(2200, 1, 2, 0, 0, 0, 0, time.UTC)),
			merge(nothing, nilTrends), noCompetitorData},
		{"dateFrom 15 months back", window(mf.todayUTC.AddDate(0, -15, 0), mf.cur[1]),
			map[string]any{"mentionRate": pct(5, 6)}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := okJSON(t, mf.get(base+c.query))
			expectFields(t, "metrics", got, c.want)
			expectIntervals(t, "metrics", got)
			if c.competitors == nil {
				return
			}
			rows := got["competitors"].([]any)
			if len(rows) != len(c.competitors) {
				t.Fatalf("competitors %v, want %d", rows, len(c.competitors))
			}
			for i, want := range c.competitors {
				row := rows[i].(map[string]any)
				expectFields(t, fmt.Sprintf("competitors[%d]", i), row, merge(want.want,
					map[string]any{"name": want.name, "competitorId": mf.comp[want.name].String()}))
			}
		})
	}
}

func TestMetricsRefusals(t *testing.T) {
	t.Parallel()
	mf := metricsSetup(t)
	_, otherOrg := mf.fixture.owner()
	theirs := mf.fixture.project(otherOrg, "Theirs")
	theirCluster := mf.otherCluster(theirs)
	today := mf.todayUTC
	for _, path := range []string{"/metrics", "/metrics/clusters"} {
		t.Run(path, func(t *testing.T) {
			cases := []struct {
				name, query, field, code string
			}{
				{"no window", "", "dateFrom", string(sightline.DetailMissingField)},
				{"no dateTo", "?dateFrom=" + today.Format(time.DateOnly), "dateTo", string(sightline.DetailMissingField)},
				{"not a date", "?dateFrom=yesterday&dateTo=2026-01-01", "dateFrom", string(sightline.DetailInvalidValue)},
				{"dateFrom 17 months back", window(today.AddDate(0, -17, 0), today), "dateFrom",
					string(sightline.DetailOutOfRange)},
				{"dateTo before dateFrom", window(today, today.AddDate(0, 0, -1)), "dateTo",
					string(sightline.DetailOutOfRange)},
				{"unknown parameter", window(today, today, "sortBy", "name"), "sortBy", string(sightline.DetailUnknownField)},
				{"unknown engine", window(today, today, "engines", "bing"), "engines", string(sightline.DetailInvalidValue)},
				{"country not configured", window(today, today, "countries", "FR"), "countries",
					string(sightline.DetailInvalidValue)},
				{"unknown cluster", window(today, today, "queryClusterIds", uuid.NewString()), "queryClusterIds",
					string(sightline.DetailInvalidValue)},
				{"another project's cluster", window(today, today, "queryClusterIds", theirCluster.String()),
					"queryClusterIds", string(sightline.DetailInvalidValue)},
			}
			for _, c := range cases {
				t.Run(c.name, func(t *testing.T) {
					capturesExpectDetail(t, mf.get(mf.path(path+c.query)), c.field, c.code)
				})
			}
			t.Run("missing both dates names both", func(t *testing.T) {
				m := assertError(t, mf.get(mf.path(path)), http.StatusBadRequest, sightline.CodeValidation)
				details := detailCodesOf(t, m)
				if !slices.Contains(details["dateFrom"], "missing_field") || !slices.Contains(details["dateTo"], "missing_field") {
					t.Fatalf("details %v", details)
				}
			})
			t.Run("another organization's project", func(t *testing.T) {
				assertError(t, mf.get(mf.path(path+window(today, today), theirs)), http.StatusNotFound,
					sightline.CodeOrganizationNotFound)
			})
			t.Run("no key", func(t *testing.T) {
				r := mf.do(call{method: http.MethodGet, path: mf.path(path + window(today, today))})
				assertError(t, r, http.StatusUnauthorized, sightline.CodeUnauthorized)
			})
		})
	}
	t.Run("formula of another organization's project", func(t *testing.T) {
		assertError(t, mf.get(mf.path("/metrics/share-of-voice-formula", theirs)), http.StatusNotFound,
			sightline.CodeOrganizationNotFound)
	})
	t.Run("formula takes no parameters", func(t *testing.T) {
		capturesExpectDetail(t, mf.get(mf.path("/metrics/share-of-voice-formula?dateFrom=2026-01-01")), "dateFrom",
			string(sightline.DetailUnknownField))
	})
}

// otherCluster creates a cluster in another project.
func (mf *metricsFixture) otherCluster(project uuid.UUID) uuid.UUID {
	id := uuid.Must(uuid.NewV7())
	mf.exec(`INSERT INTO query_clusters (id, project_id, name) VALUES ($1, $2, 'theirs')`, id, project)
	return id
}

func TestMetricsClusters(t *testing.T) {
	t.Parallel()
	mf := metricsSetup(t)
	base := mf.path("/metrics/clusters")
	w := func(extra ...string) string { return window(mf.cur[0], mf.cur[1], extra...) }
	str := func(id uuid.UUID) string { return id.String() }
	// alpha = A, B: 3 answers, own named in 2 (1st, 2nd), links 2 and 1;
	// worth own 1.62 of 4.42 over 6 mentions; tones positive, neutral.
	alpha := map[string]any{"clusterId": str(mf.cluster["alpha"]), "clusterName": "alpha", "trackedQueryCount": 2,
		"shareOfVoice": pct(1.62, 4.42), "shareOfVoiceInterval": map[string]any{"n": 6},
		"mentionRate": pct(2, 3), "mentionRateInterval": map[string]any{"n": 3},
		"serpRate": nil, "shoppingRate": nil, "positivityIndex": 75, "positivityIndexInterval": map[string]any{"n": 2},
		"avgMentionPosition": 1.5, "avgLinkPosition": 1.5, "avgSerpPosition": nil, "avgShoppingPosition": nil,
		"mentionCount": 2}
	// beta = B, S: 1 answer not naming the own brand (Zenith's 0.5), 3
	// search pages with the own domain on 2 (3rd, 5th).
	beta := map[string]any{"clusterId": str(mf.cluster["beta"]), "clusterName": "beta", "trackedQueryCount": 2,
		"shareOfVoice": 0, "shareOfVoiceInterval": map[string]any{"n": 1}, "mentionRate": 0,
		"serpRate": pct(2, 3), "serpRateInterval": map[string]any{"n": 3}, "shoppingRate": nil,
		"positivityIndex": nil, "avgMentionPosition": nil, "avgLinkPosition": 1, "avgSerpPosition": 4,
		"avgShoppingPosition": nil, "mentionCount": 0}
	empty := map[string]any{"clusterId": str(mf.cluster["empty"]), "clusterName": "empty", "trackedQueryCount": 0,
		"shareOfVoice": nil, "mentionRate": nil, "serpRate": nil, "shoppingRate": nil, "positivityIndex": nil,
		"avgMentionPosition": nil, "avgLinkPosition": nil, "avgSerpPosition": nil, "avgShoppingPosition": nil,
		"mentionCount": 0}
	// ungrouped = C, P: 2 answers naming the own brand 4th and 11th (worth
	// 0.75 of 1.47 over 3 mentions; negative and positive), 2 shopping
	// pages with an own offer on 1 at 2.
	ungrouped := map[string]any{"clusterId": nil, "clusterName": nil, "trackedQueryCount": 2,
		"shareOfVoice": pct(0.75, 1.47), "shareOfVoiceInterval": map[string]any{"n": 3}, "mentionRate": 100,
		"serpRate": nil, "shoppingRate": 50, "positivityIndex": 50, "avgMentionPosition": 7.5, "avgLinkPosition": nil,
		"avgSerpPosition": nil, "avgShoppingPosition": 2, "mentionCount": 2}
	cases := []struct {
		name  string
		query string
		want  []map[string]any
	}{
		{"every cluster, by name, no ungrouped bucket", w(), []map[string]any{alpha, beta, empty}},
		{"named clusters", w("queryClusterIds", str(mf.cluster["beta"])), []map[string]any{beta}},
		{"named clusters and the ungrouped bucket last",
			w("queryClusterIds", str(mf.cluster["beta"])+","+str(mf.cluster["alpha"]), "includeUngroupedQueries", "true"),
			[]map[string]any{alpha, beta, ungrouped}},
		{"includeUngroupedQueries alone: only the ungrouped bucket", w("includeUngroupedQueries", "true"),
			[]map[string]any{ungrouped}},
		{"includeUngroupedQueries=false is the default", w("includeUngroupedQueries", "false"),
			[]map[string]any{alpha, beta, empty}},
		{"a deleted cluster is absent", w("queryClusterIds", str(mf.cluster["gone"])), []map[string]any{}},
		{"a deleted cluster next to a live one", w("queryClusterIds", str(mf.cluster["gone"])+","+str(mf.cluster["alpha"])),
			[]map[string]any{alpha}},
		{"engines narrow the members", w("engines", "chatgpt"), []map[string]any{
			{"clusterName": "alpha", "trackedQueryCount": 1, "mentionRate": 100, "avgMentionPosition": 1.5,
				"avgLinkPosition": 2, "shareOfVoice": pct(1.62, 3.92)},
			{"clusterName": "beta", "trackedQueryCount": 0, "mentionRate": nil, "serpRate": nil, "shareOfVoice": nil},
			{"clusterName": "empty", "trackedQueryCount": 0}}},
		{"countries narrow the members", w("countries", "US", "includeUngroupedQueries", "true"), []map[string]any{
			{"clusterId": nil, "trackedQueryCount": 1, "mentionRate": nil, "shoppingRate": 50, "shareOfVoice": nil}}},
		{"empty window", window(mf.todayUTC, mf.todayUTC), []map[string]any{
			merge2(alpha, nilFigures), merge2(beta, nilFigures), empty}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := okJSON(t, mf.get(base+c.query))
			if got["dataDirtySince"] != nil {
				t.Errorf("dataDirtySince %v", got["dataDirtySince"])
			}
			rows := got["rows"].([]any)
			if len(rows) != len(c.want) {
				t.Fatalf("rows %v, want %d", rows, len(c.want))
			}
			for i, want := range c.want {
				row := rows[i].(map[string]any)
				expectFields(t, fmt.Sprintf("rows[%d]", i), row, want)
				expectIntervals(t, fmt.Sprintf("rows[%d]", i), row)
			}
		})
	}
}

// nilFigures are a row's figures without any capture.
var nilFigures = map[string]any{"shareOfVoice": nil, "mentionRate": nil, "serpRate": nil, "shoppingRate": nil,
	"positivityIndex": nil, "avgMentionPosition": nil, "avgLinkPosition": nil, "avgSerpPosition": nil,
	"avgShoppingPosition": nil, "mentionCount": 0, "shareOfVoiceInterval": nil, "mentionRateInterval": nil,
	"serpRateInterval": nil, "positivityIndexInterval": nil}

func merge2(a, b map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range a {
		out[k] = v
	}
	for k, v := range b {
		out[k] = v
	}
	return out
}

func TestShareOfVoiceFormula(t *testing.T) {
	t.Parallel()
	cf := capturesSetup(t)
	got := okJSON(t, cf.get(cf.path("/metrics/share-of-voice-formula")))
	expectFields(t, "formula", got, map[string]any{
		"mentionTypeWeights": map[string]any{"recommendation": 1.0, "comparison": 0.8, "listing": 0.6, "example": 0.5,
			"reference": 0.3},
		"sentimentMultipliers":  map[string]any{"positive": 1.2, "neutral": 1.0, "negative": 0.5},
		"conditionalMultiplier": 0.7, "directMultiplier": 1.0,
	})
}

func TestMetricGlossary(t *testing.T) {
	t.Parallel()
	f := setup(t)
	owner, _ := f.owner()
	viewer := f.keyFor(f.user(), nil, sightline.CapabilityRead) // no organization at all
	r := f.do(call{method: http.MethodGet, path: "/api/v1/metric-glossary", key: viewer.key})
	got := okJSON(t, r)
	entries := got["metrics"].([]any)
	var names []string
	for _, e := range entries {
		m := e.(map[string]any)
		names = append(names, m["metric"].(string))
		for _, k := range []string{"everydayWords", "unit", "range", "numerator"} {
			if s, _ := m[k].(string); s == "" {
				t.Errorf("%s: empty %s", m["metric"], k)
			}
		}
		if len(m["servedBy"].([]any)) == 0 || len(m["exampleQuestions"].([]any)) == 0 {
			t.Errorf("%s: no servedBy or exampleQuestions", m["metric"])
		}
	}
	// Every figure GET /metrics serves is explained.
	all := strings.Join(names, ", ")
	for _, field := range []string{"shareOfVoice", "mentionRate", "serpRate", "shoppingRate", "positivityIndex",
		"avgMentionPosition", "bestMentionPosition", "avgLinkPosition", "bestLinkPosition", "avgSerpPosition",
		"bestSerpPosition", "avgShoppingPosition", "bestShoppingPosition", "mentionPositionStability",
		"linkPositionStability", "serpPositionStability", "shoppingPositionStability", "mentionCount",
		"sentimentPositive", "mentionTypeCounts", "mentionPositionDistribution", "aiTrackedQueryCount",
		"mentionQueriesWithResult", "trendShareOfVoice", "significant", "Interval", "winRate", "trackedQueryCount",
		"totalTrackedQueries", "citationCount"} {
		if !strings.Contains(all, field) {
			t.Errorf("glossary lacks %s", field)
		}
	}
	// A single tracked query's share of voice measured at 0 without any
	// brand named carries the interval {n: 0, low: 0, high: 100}, so the
	// intervals' range must admit n = 0.
	for _, e := range entries {
		m := e.(map[string]any)
		if strings.HasPrefix(m["metric"].(string), "*Interval") && !strings.Contains(m["range"].(string), "n 0 and up") {
			t.Errorf("%s: range %q does not admit n = 0", m["metric"], m["range"])
		}
	}
	capturesExpectDetail(t, f.do(call{method: http.MethodGet, path: "/api/v1/metric-glossary?metric=mentionRate",
		key: owner.key}), "metric", string(sightline.DetailUnknownField))
	assertError(t, f.do(call{method: http.MethodGet, path: "/api/v1/metric-glossary"}), http.StatusUnauthorized,
		sightline.CodeUnauthorized)
}

func TestOrganizationOverview(t *testing.T) {
	t.Parallel()
	mf := metricsSetup(t)
	// Leader: one answer naming only the own brand, 5 days ago (worth 1.2
	// of 1.2); 40 days ago (previous 30 days) one naming it 2nd as a neutral
	// listing (0.6) after an untracked brand's positive recommendation (1.2).
	leader := mf.fixture.project(mf.org, "Leader")
	lq := mf.trackedQuery(leader, sightline.EngineChatGPT, "US", "leader query")
	now := mf.passOf(leader, lq, sightline.EngineChatGPT, "US", uuid.New(), 0, 1, mf.todayUTC.AddDate(0, 0, -5))
	now.Mentions = []olap.Mention{own(1, sightline.MentionRecommendation, sightline.TonePositive, sightline.QualifierDirect)}
	before := mf.passOf(leader, lq, sightline.EngineChatGPT, "US", uuid.New(), 0, 1, mf.todayUTC.AddDate(0, 0, -40))
	before.Mentions = []olap.Mention{untracked(1, sightline.MentionRecommendation, sightline.TonePositive),
		own(2, sightline.MentionListing, sightline.ToneNeutral, sightline.QualifierDirect)}
	// Archived: would lead, but archived projects are left out.
	archived := mf.fixture.project(mf.org, "Archived")
	aq := mf.trackedQuery(archived, sightline.EngineChatGPT, "US", "archived query")
	gone := mf.passOf(archived, aq, sightline.EngineChatGPT, "US", uuid.New(), 0, 1, mf.todayUTC.AddDate(0, 0, -5))
	gone.Mentions = []olap.Mention{own(1, sightline.MentionRecommendation, sightline.TonePositive, sightline.QualifierDirect)}
	// The window is the last 30 days, today included: today's answer counts
	// (naming the own brand alone), one from 30 days ago does not (it names
	// nobody, so the previous window's figures stay as they are).
	today := mf.passOf(leader, lq, sightline.EngineChatGPT, "US", uuid.New(), 0, 1, mf.todayUTC.Add(time.Minute))
	today.Mentions = []olap.Mention{own(1, sightline.MentionRecommendation, sightline.TonePositive, sightline.QualifierDirect)}
	late := mf.passOf(leader, lq, sightline.EngineChatGPT, "US", uuid.New(), 0, 1, mf.todayUTC.AddDate(0, 0, -30))
	mf.insert(now, before, gone, today, late)
	mf.exec(`UPDATE projects SET status = 'archived', archived_by = 'caller', archived_at = now() WHERE id = $1`, archived)
	// Silent: active, no capture at all.
	silent := mf.fixture.project(mf.org, "Silent")
	mf.trackedQuery(silent, sightline.EngineGoogleSERP, "US", "silent query")

	r0 := mf.get(fmt.Sprintf("/api/v1/organizations/%s/overview", mf.org))
	if r0.status != http.StatusOK {
		t.Log(mf.logs.String())
	}
	got := okJSON(t, r0)
	expectFields(t, "overview", got, map[string]any{
		"windowFrom": mf.todayUTC.AddDate(0, 0, -29).Format(time.DateOnly), "windowTo": mf.todayUTC.Format(time.DateOnly)})
	rows := got["projects"].([]any)
	// Metrics project over its whole history (both 7-day windows lie in the
	// last 30 days): 6 answers, own named in 5 at 1, 2, 4, 11, 3; worth
	// 3.37 of 8.09 over 11 mentions; tones 2 positive, 2 neutral, 1 negative.
	want := []map[string]any{
		{"projectId": leader.String(), "name": "Leader", "shareOfVoice": 100, "mentionRate": 100,
			"avgMentionPosition": 1, "positivityIndex": 100, "trackedQueryCount": 1,
			"trendShareOfVoice": 100 - pct(0.6, 1.8), "shareOfVoiceInterval": map[string]any{"n": 2}},
		{"projectId": mf.project.String(), "name": "Metrics", "shareOfVoice": pct(3.37, 8.09),
			"shareOfVoiceInterval": map[string]any{"n": 11}, "mentionRate": pct(5, 6),
			"mentionRateInterval": map[string]any{"n": 6}, "avgMentionPosition": 21.0 / 5, "positivityIndex": 60,
			"trackedQueryCount": 5, "trendShareOfVoice": nil},
		{"projectId": silent.String(), "name": "Silent", "shareOfVoice": nil, "mentionRate": nil,
			"avgMentionPosition": nil, "positivityIndex": nil, "trackedQueryCount": 1, "trendShareOfVoice": nil},
	}
	if len(rows) != len(want) {
		t.Fatalf("projects %v, want %d", rows, len(want))
	}
	for i, w := range want {
		expectFields(t, fmt.Sprintf("projects[%d]", i), rows[i].(map[string]any), w)
	}
	expectIntervals(t, "overview", got)
	// Aggregate: 8 answers, own named in 7 (positions sum 23); worth 5.77
	// of 10.49 over 13 mentions; tones 4 positive, 2 neutral, 1 negative.
	expectFields(t, "aggregate", got["aggregate"].(map[string]any), map[string]any{
		"shareOfVoice": pct(5.77, 10.49), "shareOfVoiceInterval": map[string]any{"n": 13},
		"mentionRate": pct(7, 8), "avgMentionPosition": 23.0 / 7, "positivityIndex": pct(5, 7),
		"totalTrackedQueries": 7, "projectCount": 3})

	t.Run("the document names the window answered", func(t *testing.T) {
		op := documentedOperations(t, mf.fixture)["GET /api/v1/organizations/{organizationId}/overview"]
		if !strings.Contains(op.Description, "today included") || strings.Contains(op.Description, "yesterday") {
			t.Errorf("the overview's description does not say its window ends today, as windowTo does: %q", op.Description)
		}
	})
	t.Run("any parameter is refused", func(t *testing.T) {
		capturesExpectDetail(t, mf.get(fmt.Sprintf("/api/v1/organizations/%s/overview?dateFrom=2026-01-01", mf.org)),
			"dateFrom", string(sightline.DetailUnknownField))
	})
	t.Run("another organization", func(t *testing.T) {
		_, otherOrg := mf.fixture.owner()
		assertError(t, mf.get(fmt.Sprintf("/api/v1/organizations/%s/overview", otherOrg)), http.StatusNotFound,
			sightline.CodeOrganizationNotFound)
	})
	t.Run("an organization without active projects", func(t *testing.T) {
		owner, org := mf.fixture.owner()
		r := mf.do(call{method: http.MethodGet, path: fmt.Sprintf("/api/v1/organizations/%s/overview", org), key: owner.key})
		got := okJSON(t, r)
		if rows := got["projects"].([]any); len(rows) != 0 {
			t.Fatalf("projects %v", rows)
		}
		expectFields(t, "aggregate", got["aggregate"].(map[string]any), map[string]any{"shareOfVoice": nil,
			"shareOfVoiceInterval": nil, "mentionRate": nil, "avgMentionPosition": nil, "positivityIndex": nil,
			"totalTrackedQueries": 0, "projectCount": 0})
	})
}
