package api

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"slices"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/sightline/sightline"
	"github.com/sightline/sightline/olap"
)

// Tests of the per-query analytics (movers and keyword listings) share a
// capture fixture whose API reads analytics from its own ClickHouse
// database, tracked queries configured like the real ones, and answers
// built from brands at positions.

// queryAnalyticsSetup is a capture fixture whose API computes analytics on
// its own ClickHouse database; day is ten days ago (UTC), the window's
// last day in the tests.
func queryAnalyticsSetup(t *testing.T) *capturesFixture {
	t.Helper()
	f := setup(t, setupOptions{analytics: true})
	owner, org := f.owner()
	y, m, d := time.Now().UTC().AddDate(0, 0, -10).Date()
	return &capturesFixture{fixture: f, conn: f.server.analytics.Conn, owner: owner, org: org,
		project: f.project(org, "Analytics"), day: time.Date(y, m, d, 0, 0, 0, 0, time.UTC)}
}

// qaQuery is a tracked query of the fixture's project.
type qaQuery struct {
	id      uuid.UUID
	text    string
	engine  sightline.Engine
	country string
}

// qaConfig is how a tracked query is configured beyond its text, engine and
// country.
type qaConfig struct {
	status, frequency string
	passes            int
}

// trackedQuery inserts a tracked query into the write model; cfg defaults
// to active, daily, 3 passes on AI engines and 1 on the others.
func (cf *capturesFixture) trackedQuery(text string, engine sightline.Engine, country string, cfg ...qaConfig) qaQuery {
	cf.t.Helper()
	c := qaConfig{status: "active", frequency: "daily", passes: 3}
	if len(cfg) > 0 {
		c = cfg[0]
	}
	if !engine.AI() {
		c.passes = 1
	}
	q := qaQuery{id: uuid.Must(uuid.NewV7()), text: text, engine: engine, country: country}
	if _, err := cf.pool.Exec(context.Background(), `
		INSERT INTO tracked_queries (id, project_id, query_text, engine, country, check_frequency, n_passes, status)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
		q.id, cf.project, text, string(engine), country, c.frequency, c.passes, c.status); err != nil {
		cf.t.Fatal(err)
	}
	return q
}

// qaPass is what one pass of a check captured.
type qaPass struct {
	mentions  []olap.Mention
	citations []olap.Citation
	results   []olap.SearchResult
	offers    []olap.ShoppingOffer
}

// run is one check run of q at noon of day, one pass per element of
// passes, ready to insert.
func (cf *capturesFixture) run(q qaQuery, day time.Time, passes ...qaPass) []olap.PassRows {
	runID := uuid.New()
	out := make([]olap.PassRows, len(passes))
	for i, p := range passes {
		rows := cf.pass(cf.project, q.id, runID, q.engine, uint8(i), uint8(len(passes)), day.Add(12*time.Hour))
		rows.Country, rows.QueryText = q.country, q.text
		if q.engine.AI() {
			rows.ResponseText = "An answer."
		}
		rows.Mentions, rows.Citations, rows.SearchResults, rows.ShoppingOffers = p.mentions, p.citations, p.results, p.offers
		out[i] = rows
	}
	return out
}

// moverOwn is the own brand named at position pos.
func moverOwn(pos int, t sightline.MentionType, tone sightline.Tone) olap.Mention {
	return olap.Mention{BrandName: "Acme", Relation: sightline.RelationOwn, Position: pos, Type: t, Tone: tone,
		Qualifier: sightline.QualifierDirect, Sentence: "Acme is named."}
}

// moverUntracked is a brand nobody tracks named at position pos.
func moverUntracked(pos int, t sightline.MentionType, tone sightline.Tone) olap.Mention {
	return olap.Mention{BrandName: fmt.Sprintf("Other %d", pos), Relation: sightline.RelationUntrackedCompetitor,
		Position: pos, Type: t, Tone: tone, Qualifier: sightline.QualifierDirect, Sentence: "Another is named."}
}

// ownLink is a citation of an own page at position pos.
func ownLink(pos int) olap.Citation {
	return olap.Citation{Position: pos, URL: fmt.Sprintf("https://acme.com/%d", pos), Domain: "acme.com",
		Title: "Acme", Relation: sightline.RelationOwn}
}

// ownResult is an own organic result at rank.
func ownResult(rank int) olap.SearchResult {
	return olap.SearchResult{Rank: rank, URL: "https://acme.com/", Domain: "acme.com", Title: "Acme",
		Relation: sightline.RelationOwn}
}

// ownOffer is an own shopping offer at rank.
func ownOffer(rank int) olap.ShoppingOffer {
	return olap.ShoppingOffer{Rank: rank, Title: "Acme CRM", Price: 10, Currency: "USD", Merchant: "Acme",
		Domain: "acme.com", URL: "https://acme.com/buy", Relation: sightline.RelationOwn}
}

// insertRuns stores runs.
func (cf *capturesFixture) insertRuns(runs ...[]olap.PassRows) {
	cf.t.Helper()
	var all []olap.PassRows
	for _, r := range runs {
		all = append(all, r...)
	}
	cf.insert(all...)
}

// analyticsPath is an analytics path of the project with query parameters.
func (cf *capturesFixture) analyticsPath(suffix string, params url.Values) string {
	return cf.path(suffix) + "?" + params.Encode()
}

// window is dateFrom and dateTo: the n days ending with the fixture's day.
func (cf *capturesFixture) window(n int) url.Values {
	return url.Values{"dateFrom": {cf.day.AddDate(0, 0, 1-n).Format(time.DateOnly)},
		"dateTo": {cf.day.Format(time.DateOnly)}}
}

// with is params plus key=value pairs.
func with(params url.Values, pairs ...string) url.Values {
	out := url.Values{}
	for k, v := range params {
		out[k] = slices.Clone(v)
	}
	for i := 0; i+1 < len(pairs); i += 2 {
		out.Add(pairs[i], pairs[i+1])
	}
	return out
}

// decodeAs decodes a 200 answer.
func decodeAs[T any](t *testing.T, r response) T {
	t.Helper()
	var v T
	if r.status != http.StatusOK {
		t.Fatalf("status %d: %s", r.status, r.body)
	}
	if err := json.Unmarshal(r.body, &v); err != nil {
		t.Fatalf("decoding %s: %v", r.body, err)
	}
	return v
}

// figure is an expected nullable figure; nil expects null.
func figure(v float64) *float64 { return &v }

// checkFigure compares a nullable figure with its expectation.
func checkFigure(t *testing.T, name string, got, want *float64) {
	t.Helper()
	switch {
	case want == nil && got != nil:
		t.Errorf("%s = %v, want null", name, *got)
	case want != nil && got == nil:
		t.Errorf("%s = null, want %v", name, *want)
	case want != nil && math.Abs(*got-*want) > 1e-9:
		t.Errorf("%s = %.12f, want %.12f", name, *got, *want)
	}
}

// checkInterval checks that an interval is the Wilson interval of p percent
// over n observations, or null when want is nil.
func checkInterval(t *testing.T, name string, got *olap.Interval, want *float64, n int64) {
	t.Helper()
	if want == nil {
		if got != nil {
			t.Errorf("%s = %+v, want null", name, *got)
		}
		return
	}
	w := olap.WilsonInterval(*want/100, n)
	if got == nil || got.N != n || math.Abs(got.Low-w.Low) > 1e-9 || math.Abs(got.High-w.High) > 1e-9 {
		t.Errorf("%s = %+v, want %+v", name, got, *w)
	}
}

// moversAnswerJSON is the decoded movers answer.
type moversAnswerJSON struct {
	Rows           []olap.Mover `json:"rows"`
	Total          int          `json:"total"`
	DataDirtySince *string      `json:"dataDirtySince"`
}

// moversFixture is a project whose tracked queries moved between the
// two-day window ending on day and the two days before it.
type moversFixture struct {
	*capturesFixture
	alpha, beta, gamma, delta, epsilon, theta qaQuery
}

func moversSetup(t *testing.T) *moversFixture {
	t.Helper()
	cf := queryAnalyticsSetup(t)
	mf := &moversFixture{capturesFixture: cf,
		alpha:   cf.trackedQuery("alpha crm", sightline.EngineChatGPT, "US"),
		beta:    cf.trackedQuery("beta crm", sightline.EnginePerplexity, "US"),
		gamma:   cf.trackedQuery("gamma crm", sightline.EngineGoogleSERP, "US"),
		delta:   cf.trackedQuery("delta crm", sightline.EngineGoogleShopping, "US"),
		epsilon: cf.trackedQuery("epsilon crm", sightline.EngineChatGPT, "DE"),
		theta:   cf.trackedQuery("theta crm", sightline.EngineGoogleSERP, "US"),
	}
	cf.trackedQuery("zeta crm", sightline.EngineChatGPT, "US") // never checked: no row
	eta := cf.trackedQuery("eta crm", sightline.EngineChatGPT, "US")
	deleted := qaQuery{id: uuid.Must(uuid.NewV7()), text: "deleted crm", engine: sightline.EngineChatGPT, country: "US"}
	d := cf.day
	rec, cmp, lst := sightline.MentionRecommendation, sightline.MentionComparison, sightline.MentionListing
	pos, neu, neg := sightline.TonePositive, sightline.ToneNeutral, sightline.ToneNegative
	var betaBefore, betaNow []qaPass
	for range 10 {
		betaBefore = append(betaBefore, qaPass{mentions: []olap.Mention{moverUntracked(1, rec, neu)}})
		betaNow = append(betaNow, qaPass{mentions: []olap.Mention{moverOwn(1, rec, neu)}})
	}
	cf.insertRuns(
		// alpha: named earlier and cited earlier; share of voice up on few
		// mentions (not significant).
		cf.run(mf.alpha, d.AddDate(0, 0, -3),
			qaPass{mentions: []olap.Mention{moverUntracked(1, rec, neu), moverOwn(2, rec, pos)}, citations: []olap.Citation{ownLink(3)}},
			qaPass{mentions: []olap.Mention{moverUntracked(1, rec, neu), moverOwn(4, lst, neu)}}),
		cf.run(mf.alpha, d,
			qaPass{mentions: []olap.Mention{moverOwn(1, rec, pos), moverUntracked(2, lst, neg)}, citations: []olap.Citation{ownLink(1)}},
			qaPass{mentions: []olap.Mention{moverOwn(1, rec, pos)}, citations: []olap.Citation{ownLink(2)}}),
		// beta: from never named in 10 answers to named in all 10.
		cf.run(mf.beta, d.AddDate(0, 0, -2), betaBefore...),
		cf.run(mf.beta, d.AddDate(0, 0, -1), betaNow...),
		// gamma: ranks 5 and 3, then 2 and 2.
		cf.run(mf.gamma, d.AddDate(0, 0, -3), qaPass{results: []olap.SearchResult{ownResult(5)}}),
		cf.run(mf.gamma, d.AddDate(0, 0, -2), qaPass{results: []olap.SearchResult{ownResult(3)}}),
		cf.run(mf.gamma, d.AddDate(0, 0, -1), qaPass{results: []olap.SearchResult{ownResult(2)}}),
		cf.run(mf.gamma, d, qaPass{results: []olap.SearchResult{ownResult(2)}}),
		// theta: rank 4, then 2: the same trend as gamma.
		cf.run(mf.theta, d.AddDate(0, 0, -2), qaPass{results: []olap.SearchResult{ownResult(4)}}),
		cf.run(mf.theta, d, qaPass{results: []olap.SearchResult{ownResult(2)}}),
		// delta: first captured in the window.
		cf.run(mf.delta, d, qaPass{offers: []olap.ShoppingOffer{ownOffer(1)}}),
		// epsilon (DE): one answer a window.
		cf.run(mf.epsilon, d.AddDate(0, 0, -3), qaPass{mentions: []olap.Mention{moverUntracked(1, rec, neu), moverOwn(3, cmp, neg)}}),
		cf.run(mf.epsilon, d.AddDate(0, 0, -1), qaPass{mentions: []olap.Mention{moverOwn(2, cmp, neu)}}),
		// eta: only before both windows; deleted: not a tracked query any more.
		cf.run(eta, d.AddDate(0, 0, -5), qaPass{mentions: []olap.Mention{moverOwn(1, rec, pos)}}),
		cf.run(deleted, d, qaPass{mentions: []olap.Mention{moverOwn(1, rec, pos)}}),
	)
	return mf
}

func (mf *moversFixture) movers(t *testing.T, params url.Values) moversAnswerJSON {
	t.Helper()
	return decodeAs[moversAnswerJSON](t, mf.get(mf.analyticsPath("/metrics/movers", params)))
}

// moverTexts are the query texts of rows in order.
func moverTexts(rows []olap.Mover) []string {
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = r.QueryText
	}
	return out
}

func TestMoversFigures(t *testing.T) {
	t.Parallel()
	mf := moversSetup(t)
	got := mf.movers(t, mf.window(2))
	if got.Total != 6 || len(got.Rows) != 6 || got.DataDirtySince != nil {
		t.Fatalf("total %d, %d rows, dataDirtySince %v; want 6, 6, null", got.Total, len(got.Rows), got.DataDirtySince)
	}
	byID := map[uuid.UUID]olap.Mover{}
	for _, r := range got.Rows {
		byID[r.TrackedQueryID] = r
	}
	// Worth of a mention: type weight x tone multiplier (direct mentions):
	// recommendation 1.0, comparison 0.8, listing 0.6; positive 1.2,
	// neutral 1.0, negative 0.5.
	type want struct {
		q                                             qaQuery
		serp, shopping, mention, link                 *float64
		share                                         *float64
		shareN                                        int64
		positivity                                    *float64
		positivityN                                   int64
		trendSerp, trendShop, trendMention, trendLink *float64
		trendShare                                    *float64
		significant                                   bool
	}
	tests := []want{{
		// Before: own 1.2 + 0.6 of 1.2 + 0.6 + 1.0 + 1.0 over 4 mentions;
		// positions 2 and 4, link 3. Now: own 1.2 + 1.2 of 2.4 + 0.3 over
		// 3 mentions; positions 1 and 1, links 1 and 2. z = 1.14.
		q: mf.alpha, mention: figure(1), link: figure(1.5),
		share: figure(100 * 2.4 / 2.7), shareN: 3, positivity: figure(100), positivityN: 2,
		trendMention: figure(3 - 1), trendLink: figure(3 - 1.5),
		trendShare: figure(100*2.4/2.7 - 100*1.8/3.8),
	}, {
		// 0 of 10 mentions, then 10 of 10, all neutral: z = 4.47.
		q: mf.beta, mention: figure(1), share: figure(100), shareN: 10, positivity: figure(50), positivityN: 10,
		trendShare: figure(100), significant: true,
	}, {
		q: mf.gamma, serp: figure(2), trendSerp: figure(4 - 2),
	}, {
		q: mf.delta, shopping: figure(1),
	}, {
		// Before: own 0.4 of 1.4; now 0.8 of 0.8.
		q: mf.epsilon, mention: figure(2), share: figure(100), shareN: 1, positivity: figure(50), positivityN: 1,
		trendMention: figure(3 - 2), trendShare: figure(100 - 100*0.4/1.4),
	}, {
		q: mf.theta, serp: figure(2), trendSerp: figure(4 - 2),
	}}
	for _, w := range tests {
		t.Run(w.q.text, func(t *testing.T) {
			r, ok := byID[w.q.id]
			if !ok {
				t.Fatalf("no row for %s", w.q.text)
			}
			if r.QueryText != w.q.text || r.Engine != string(w.q.engine) || r.Country != w.q.country {
				t.Errorf("row names %q %s %s, want %q %s %s", r.QueryText, r.Engine, r.Country, w.q.text, w.q.engine, w.q.country)
			}
			checkFigure(t, "avgSerpPosition", r.AvgSerpPosition, w.serp)
			checkFigure(t, "avgShoppingPosition", r.AvgShoppingPosition, w.shopping)
			checkFigure(t, "avgMentionPosition", r.AvgMentionPosition, w.mention)
			checkFigure(t, "avgLinkPosition", r.AvgLinkPosition, w.link)
			checkFigure(t, "shareOfVoice", r.ShareOfVoice, w.share)
			checkInterval(t, "shareOfVoiceInterval", r.ShareOfVoiceInterval, w.share, w.shareN)
			checkFigure(t, "positivityIndex", r.PositivityIndex, w.positivity)
			checkInterval(t, "positivityIndexInterval", r.PositivityIndexInterval, w.positivity, w.positivityN)
			checkFigure(t, "trendSerp", r.TrendSerp, w.trendSerp)
			checkFigure(t, "trendShopping", r.TrendShopping, w.trendShop)
			checkFigure(t, "trendMention", r.TrendMention, w.trendMention)
			checkFigure(t, "trendLink", r.TrendLink, w.trendLink)
			checkFigure(t, "trendShareOfVoice", r.TrendShareOfVoice, w.trendShare)
			if r.Significant != w.significant {
				t.Errorf("significant = %v, want %v", r.Significant, w.significant)
			}
		})
	}

	// Every key of a row is present, absent values as null.
	r := mf.get(mf.analyticsPath("/metrics/movers", with(mf.window(2), "sortBy", "trend_shopping")))
	var raw struct {
		Rows []map[string]json.RawMessage `json:"rows"`
	}
	if err := json.Unmarshal(r.body, &raw); err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"trackedQueryId", "queryText", "engine", "country", "avgSerpPosition",
		"avgShoppingPosition", "avgMentionPosition", "avgLinkPosition", "shareOfVoice", "shareOfVoiceInterval",
		"positivityIndex", "positivityIndexInterval", "trendSerp", "trendShopping", "trendMention", "trendLink",
		"trendShareOfVoice", "significant"} {
		if _, ok := raw.Rows[0][key]; !ok {
			t.Errorf("row lacks %s: %s", key, r.body)
		}
	}
	if len(raw.Rows[0]) != 18 {
		t.Errorf("row has %d keys, want 18: %s", len(raw.Rows[0]), r.body)
	}
}

func TestMoversSortingAndPaging(t *testing.T) {
	t.Parallel()
	mf := moversSetup(t)
	tests := []struct {
		name   string
		params []string
		texts  []string
		total  int
	}{
		{"default: share of voice gainers", nil,
			[]string{"beta crm", "epsilon crm", "alpha crm", "delta crm", "gamma crm", "theta crm"}, 6},
		{"share of voice losers", []string{"sortOrder", "asc"},
			[]string{"alpha crm", "epsilon crm", "beta crm", "delta crm", "gamma crm", "theta crm"}, 6},
		{"serp gainers, ties by text", []string{"sortBy", "trend_serp"},
			[]string{"gamma crm", "theta crm", "alpha crm", "beta crm", "delta crm", "epsilon crm"}, 6},
		{"serp losers, ties by text", []string{"sortBy", "trend_serp", "sortOrder", "asc"},
			[]string{"gamma crm", "theta crm", "alpha crm", "beta crm", "delta crm", "epsilon crm"}, 6},
		{"mention gainers", []string{"sortBy", "trend_mention", "sortOrder", "desc"},
			[]string{"alpha crm", "epsilon crm", "beta crm", "delta crm", "gamma crm", "theta crm"}, 6},
		{"mention losers", []string{"sortBy", "trend_mention", "sortOrder", "asc"},
			[]string{"epsilon crm", "alpha crm", "beta crm", "delta crm", "gamma crm", "theta crm"}, 6},
		{"link", []string{"sortBy", "trend_link"},
			[]string{"alpha crm", "beta crm", "delta crm", "epsilon crm", "gamma crm", "theta crm"}, 6},
		{"page", []string{"limit", "2", "offset", "1"}, []string{"epsilon crm", "alpha crm"}, 6},
		{"last page", []string{"limit", "4", "offset", "4"}, []string{"gamma crm", "theta crm"}, 6},
		{"past the end", []string{"offset", "6"}, []string{}, 6},
		{"engines", []string{"engines", "google_serp,google_shopping"}, []string{"delta crm", "gamma crm", "theta crm"}, 3},
		{"countries by code", []string{"countries", "de"}, []string{"epsilon crm"}, 1},
		{"countries by name", []string{"countries", "Germany", "engines", "chatgpt"}, []string{"epsilon crm"}, 1},
		{"engine and country without captures", []string{"engines", "perplexity", "countries", "DE"}, []string{}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := mf.movers(t, with(mf.window(2), tt.params...))
			if texts := moverTexts(got.Rows); !slices.Equal(texts, tt.texts) || got.Total != tt.total {
				t.Errorf("rows %q total %d, want %q total %d", texts, got.Total, tt.texts, tt.total)
			}
		})
	}
}

func TestMoversSignificance(t *testing.T) {
	t.Parallel()
	mf := moversSetup(t)
	tests := []struct {
		sortBy string
		want   map[string]bool // by query text; every other row false
	}{
		// beta: 0 of 10 to 10 of 10 (z = 4.47); alpha and epsilon: few
		// mentions.
		{"trend_share_of_voice", map[string]bool{"beta crm": true}},
		// gamma: ranks 5, 3 then 2, 2: t = 2 on 1 degree of freedom; theta
		// has one rank a window; alpha's mention positions 2, 4 then 1, 1.
		{"trend_serp", nil},
		{"trend_mention", nil},
		{"trend_link", nil},
		{"trend_shopping", nil},
	}
	for _, tt := range tests {
		t.Run(tt.sortBy, func(t *testing.T) {
			for _, r := range mf.movers(t, with(mf.window(2), "sortBy", tt.sortBy)).Rows {
				if r.Significant != tt.want[r.QueryText] {
					t.Errorf("%s: significant = %v", r.QueryText, r.Significant)
				}
			}
		})
	}

	// A large change of positions: 5 answers a window, named at 4 and 6,
	// then at 1 and 2 (Welch t = 6.2 on about 6 degrees of freedom).
	q := mf.trackedQuery("kappa crm", sightline.EngineChatGPT, "US")
	rec, neu := sightline.MentionRecommendation, sightline.ToneNeutral
	var before, now []qaPass
	for i := range 5 {
		before = append(before, qaPass{mentions: []olap.Mention{moverOwn(4+2*(i%2), rec, neu)}})
		now = append(now, qaPass{mentions: []olap.Mention{moverOwn(1+i%2, rec, neu)}})
	}
	mf.insertRuns(mf.run(q, mf.day.AddDate(0, 0, -2), before...), mf.run(q, mf.day, now...))
	got := mf.movers(t, with(mf.window(2), "sortBy", "trend_mention"))
	if got.Rows[0].QueryText != "kappa crm" || !got.Rows[0].Significant {
		t.Fatalf("first row %s significant %v, want kappa crm significant", got.Rows[0].QueryText, got.Rows[0].Significant)
	}
	checkFigure(t, "trendMention", got.Rows[0].TrendMention, figure(4.8-1.4))
}

func TestMoversValidation(t *testing.T) {
	t.Parallel()
	mf := moversSetup(t)
	today := time.Now().UTC()
	ok := func(months int) url.Values {
		return url.Values{"dateFrom": {today.AddDate(0, -months, 0).Format(time.DateOnly)},
			"dateTo": {today.Format(time.DateOnly)}}
	}
	tests := []struct {
		name   string
		params url.Values
		field  string
		code   string
	}{
		{"dateFrom missing", url.Values{"dateTo": {"2026-01-01"}}, "dateFrom", "missing_field"},
		{"dateTo missing", url.Values{"dateFrom": {mf.day.Format(time.DateOnly)}}, "dateTo", "missing_field"},
		{"not a date", url.Values{"dateFrom": {"yesterday"}, "dateTo": {mf.day.Format(time.DateOnly)}}, "dateFrom", "invalid_value"},
		{"17 months back", ok(17), "dateFrom", "out_of_range"},
		{"dateTo before dateFrom", url.Values{"dateFrom": {mf.day.Format(time.DateOnly)},
			"dateTo": {mf.day.AddDate(0, 0, -1).Format(time.DateOnly)}}, "dateTo", "out_of_range"},
		{"unknown sortBy", with(mf.window(2), "sortBy", "trend_positivity"), "sortBy", "invalid_value"},
		{"sortBy of another operation", with(mf.window(2), "sortBy", "shareOfVoice"), "sortBy", "invalid_value"},
		{"sortOrder", with(mf.window(2), "sortOrder", "up"), "sortOrder", "invalid_value"},
		{"limit 101", with(mf.window(2), "limit", "101"), "limit", "out_of_range"},
		{"limit 0", with(mf.window(2), "limit", "0"), "limit", "out_of_range"},
		{"engine", with(mf.window(2), "engines", "bing"), "engines", "invalid_value"},
		{"country not configured", with(mf.window(2), "countries", "FR"), "countries", "invalid_value"},
		{"cluster filter not offered", with(mf.window(2), "queryClusterIds", uuid.NewString()), "queryClusterIds", "unknown_field"},
		{"unknown parameter", with(mf.window(2), "foo", "1"), "foo", "unknown_field"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			capturesExpectDetail(t, mf.get(mf.analyticsPath("/metrics/movers", tt.params)), tt.field, tt.code)
		})
	}
	if r := mf.get(mf.analyticsPath("/metrics/movers", ok(15))); r.status != http.StatusOK {
		t.Errorf("15 months back: %d %s", r.status, r.body)
	}
}

func TestMoversAccess(t *testing.T) {
	t.Parallel()
	mf := moversSetup(t)
	other, otherOrg := mf.fixture.owner()
	otherProject := mf.fixture.project(otherOrg, "Theirs")
	params := mf.window(2).Encode()
	// Another organization's project under this organization, and under
	// its own organization, which this key cannot see.
	assertError(t, mf.get(mf.path("/metrics/movers", otherProject)+"?"+params), http.StatusNotFound, sightline.CodeOrganizationNotFound)
	path := fmt.Sprintf("/api/v1/organizations/%s/projects/%s/metrics/movers?%s", otherOrg, otherProject, params)
	assertError(t, mf.get(path), http.StatusNotFound, sightline.CodeOrganizationNotFound)
	if r := mf.do(call{method: http.MethodGet, path: path, key: other.key}); r.status != http.StatusOK {
		t.Errorf("owner of the other project: %d %s", r.status, r.body)
	}
	assertError(t, mf.do(call{method: http.MethodGet, path: mf.analyticsPath("/metrics/movers", mf.window(2))}),
		http.StatusUnauthorized, sightline.CodeUnauthorized)

	// A pending recalculation shows as dataDirtySince.
	if _, err := mf.pool.Exec(context.Background(), `UPDATE projects SET data_dirty_since = now() WHERE id = $1`,
		mf.project); err != nil {
		t.Fatal(err)
	}
	if got := mf.movers(t, mf.window(2)); got.DataDirtySince == nil {
		t.Error("dataDirtySince is null while a recalculation is pending")
	}
}
