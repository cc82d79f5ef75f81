package api

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/sightline/sightline"
	"github.com/sightline/sightline/olap"
	"github.com/sightline/sightline/oltp"
)

// tsFixture is an organization with a project, its owner, and an API with
// its own analytics database.
type tsFixture struct {
	*capturesFixture
	// mon is a Monday about ten weeks back, well inside retention.
	mon     time.Time
	queries map[uuid.UUID]tsQuery
}

// tsQuery is what a pass of a tracked query repeats.
type tsQuery struct {
	project uuid.UUID
	engine  sightline.Engine
	country string
	passes  uint8
}

func tsSetup(t *testing.T) *tsFixture {
	t.Helper()
	f := setup(t, setupOptions{analytics: true})
	owner, org := f.owner()
	today := tsToday()
	mon := today.AddDate(0, 0, -70)
	mon = mon.AddDate(0, 0, -((int(mon.Weekday()) + 6) % 7))
	return &tsFixture{
		capturesFixture: &capturesFixture{fixture: f, conn: f.server.analytics.Conn, owner: owner, org: org,
			project: f.project(org, "Timeseries"), day: today.AddDate(0, 0, -3)},
		mon: mon, queries: map[uuid.UUID]tsQuery{},
	}
}

// tsToday is today's UTC midnight.
func tsToday() time.Time {
	y, m, d := time.Now().UTC().Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

// trackedQuery inserts a tracked query of project.
func (tf *tsFixture) trackedQuery(project uuid.UUID, engine sightline.Engine, country, text string, passes uint8) uuid.UUID {
	tf.t.Helper()
	id := uuid.Must(uuid.NewV7())
	if _, err := tf.pool.Exec(context.Background(), `
		INSERT INTO tracked_queries (id, project_id, query_text, engine, country, check_frequency, n_passes)
		VALUES ($1, $2, $3, $4, $5, 'daily', $6)`, id, project, text, string(engine), country, int(passes)); err != nil {
		tf.t.Fatal(err)
	}
	tf.queries[id] = tsQuery{project: project, engine: engine, country: country, passes: passes}
	return id
}

// competitor adds a tracked competitor to project.
func (tf *tsFixture) competitor(project uuid.UUID, name string) uuid.UUID {
	tf.t.Helper()
	c, err := oltp.CreateCompetitor(context.Background(), tf.pool, project, oltp.NewCompetitor{Name: name,
		BrandLists: oltp.BrandLists{WebsiteDomains: []string{strings.ToLower(name) + ".com"}, BrandNames: []string{name}}})
	if err != nil {
		tf.t.Fatal(err)
	}
	return c.ID
}

// cluster creates a cluster of project with members.
func (tf *tsFixture) cluster(project uuid.UUID, name string, members ...uuid.UUID) uuid.UUID {
	tf.t.Helper()
	c, err := oltp.CreateCluster(context.Background(), tf.pool, project, name)
	if err != nil {
		tf.t.Fatal(err)
	}
	for _, q := range members {
		if _, err := tf.pool.Exec(context.Background(), `
			INSERT INTO tracked_query_clusters (project_id, tracked_query_id, cluster_id) VALUES ($1, $2, $3)`,
			project, q, c.ID); err != nil {
			tf.t.Fatal(err)
		}
	}
	return c.ID
}

// run stores a completed check run of query at: one pass per content, in
// order.
func (tf *tsFixture) run(query uuid.UUID, at time.Time, contents ...olap.PassRows) {
	tf.t.Helper()
	q := tf.queries[query]
	runID := uuid.New()
	passes := make([]olap.PassRows, len(contents))
	for i, c := range contents {
		c.Pass = olap.Pass{OrganizationID: tf.org, ProjectID: q.project, TrackedQueryID: query, RunID: runID,
			PassIndex: uint8(i), PassCount: uint8(len(contents)), Engine: q.engine, Country: q.country,
			QueryText: "query", CapturedAt: at}
		if q.engine.AI() {
			c.ResponseText = fmt.Sprintf("answer %d", i)
		}
		passes[i] = c
	}
	tf.insert(passes...)
}

// named is an answer's content naming the brands in mentions.
func named(mentions ...olap.Mention) olap.PassRows { return olap.PassRows{Mentions: mentions} }

// tsMention names the own brand (competitor uuid.Nil with relation own), a
// tracked competitor or an untracked brand at position.
func tsMention(rel sightline.Relation, competitor uuid.UUID, position int, kind sightline.MentionType,
	tone sightline.Tone, qualifier sightline.Qualifier) olap.Mention {
	m := olap.Mention{BrandName: "Acme", Relation: rel, Position: position, Type: kind, Tone: tone,
		Qualifier: qualifier, Sentence: "A sentence."}
	switch rel {
	case sightline.RelationTrackedCompetitor:
		m.BrandName, m.CompetitorID = "Rival "+competitor.String()[:8], &competitor
	case sightline.RelationUntrackedCompetitor:
		m.BrandName = "Someone"
	}
	return m
}

// ownAt names the own brand at position, recommended, positive, direct
// (worth 1.2).
func ownAt(position int) olap.Mention {
	return tsMention(sightline.RelationOwn, uuid.Nil, position, sightline.MentionRecommendation,
		sightline.TonePositive, sightline.QualifierDirect)
}

// tsRatio is an expected percentage 100 x p computed over n observations:
// the value and its Wilson interval.
type tsRatio struct {
	p float64
	n int64
}

func ratio(p float64, n int64) *tsRatio { return &tsRatio{p, n} }

func (r *tsRatio) percent() (*float64, *olap.Interval) {
	if r == nil {
		return nil, nil
	}
	v := 100 * r.p
	if r.n == 0 {
		return &v, &olap.Interval{N: 0, Low: 0, High: 100}
	}
	return &v, olap.WilsonInterval(r.p, r.n)
}

// tsWant is one brand's expected figures in a bucket; nil is null.
type tsWant struct {
	serp, shopping, mention, link               *float64
	positivity, share, mentionRate, serpRateVal *tsRatio
}

func num(v float64) *float64 { return &v }

func (w tsWant) figures() olap.TimeseriesFigures {
	f := olap.TimeseriesFigures{Serp: w.serp, Shopping: w.shopping, Mention: w.mention, Link: w.link}
	f.Positivity, f.PositivityInterval = w.positivity.percent()
	f.ShareOfVoice, f.ShareOfVoiceInterval = w.share.percent()
	f.MentionRate, f.MentionRateInterval = w.mentionRate.percent()
	f.SerpRate, f.SerpRateInterval = w.serpRateVal.percent()
	return f
}

// tsPoint is an expected point.
type tsPoint struct {
	date        time.Time
	own         tsWant
	competitors map[uuid.UUID]tsWant
}

// series gets a time series, failing unless it is 200.
func (tf *tsFixture) series(path string) timeseriesAnswer {
	tf.t.Helper()
	r := tf.get(path)
	if r.status != http.StatusOK {
		tf.t.Fatalf("GET %s: status %d: %s", path, r.status, r.body)
	}
	var a timeseriesAnswer
	if err := json.Unmarshal(r.body, &a); err != nil {
		tf.t.Fatalf("decoding %s: %v", r.body, err)
	}
	return a
}

// tsCheck compares points with the expected ones, every figure of every
// brand; competitors of a point are exactly the expected ones.
func tsCheck(t *testing.T, got []timeseriesPoint, want []tsPoint) {
	t.Helper()
	if len(got) != len(want) {
		dates := make([]string, len(got))
		for i, p := range got {
			dates[i] = p.Date
		}
		t.Fatalf("%d points %v, want %d", len(got), dates, len(want))
	}
	for i, w := range want {
		g := got[i]
		day := w.date.Format(time.DateOnly)
		if g.Date != day {
			t.Errorf("point %d: date %s, want %s", i, g.Date, day)
		}
		tsCheckFigures(t, day+" own", g.TimeseriesFigures, w.own.figures())
		if len(g.Competitors) != len(w.competitors) {
			t.Errorf("%s: %d competitors, want %d", day, len(g.Competitors), len(w.competitors))
		}
		for id, cw := range w.competitors {
			cg, ok := g.Competitors[id]
			if !ok {
				t.Errorf("%s: no entry for competitor %s", day, id)
				continue
			}
			tsCheckFigures(t, day+" competitor "+id.String()[:8], cg, cw.figures())
		}
	}
}

// tsCheckFigures compares figures field by field: nulls exactly, numbers
// to 1e-9, interval sizes exactly.
func tsCheckFigures(t *testing.T, label string, got, want olap.TimeseriesFigures) {
	t.Helper()
	near := func(a, b float64) bool { return math.Abs(a-b) < 1e-9 }
	g, w := reflect.ValueOf(got), reflect.ValueOf(want)
	for i := range g.NumField() {
		name := g.Type().Field(i).Tag.Get("json")
		gf, wf := g.Field(i), w.Field(i)
		switch {
		case gf.IsNil() && wf.IsNil():
		case gf.IsNil() || wf.IsNil():
			t.Errorf("%s: %s = %s, want %s", label, name, tsShow(gf), tsShow(wf))
		case gf.Elem().Kind() == reflect.Float64:
			if !near(gf.Elem().Float(), wf.Elem().Float()) {
				t.Errorf("%s: %s = %s, want %s", label, name, tsShow(gf), tsShow(wf))
			}
		default:
			gi, wi := gf.Interface().(*olap.Interval), wf.Interface().(*olap.Interval)
			if gi.N != wi.N || !near(gi.Low, wi.Low) || !near(gi.High, wi.High) {
				t.Errorf("%s: %s = %+v, want %+v", label, name, *gi, *wi)
			}
		}
	}
}

func tsShow(v reflect.Value) string {
	if v.IsNil() {
		return "null"
	}
	return fmt.Sprint(v.Elem().Interface())
}

// tsDays are the days from..to.
func tsDays(from, to time.Time) []time.Time { return olap.GranularityDaily.Buckets(from, to) }

// tsWindow is the query string of the window from..to plus extra.
func tsWindow(from, to time.Time, extra string) string {
	q := "?dateFrom=" + from.Format(time.DateOnly) + "&dateTo=" + to.Format(time.DateOnly)
	if extra != "" {
		q += "&" + extra
	}
	return q
}

func TestTimeseriesPoints(t *testing.T) {
	t.Parallel()
	tf := tsSetup(t)
	mon, h := tf.mon, time.Hour
	c1, c2 := tf.competitor(tf.project, "Rival"), tf.competitor(tf.project, "Contender")
	chat := tf.trackedQuery(tf.project, sightline.EngineChatGPT, "US", "best crm", 2)
	perplexity := tf.trackedQuery(tf.project, sightline.EnginePerplexity, "DE", "best crm", 1)
	serp := tf.trackedQuery(tf.project, sightline.EngineGoogleSERP, "US", "best crm", 1)
	shopping := tf.trackedQuery(tf.project, sightline.EngineGoogleShopping, "US", "crm software", 1)
	sibling := tf.fixture.project(tf.org, "Sibling")
	theirs := tf.trackedQuery(sibling, sightline.EngineChatGPT, "US", "best crm", 1)

	// Monday: two answers and a search page. The first answer names Acme
	// first (recommendation, positive, direct: worth 1.2), Rival second
	// (comparison, neutral: 0.8) and an untracked brand third (listing,
	// negative: 0.3), and cites Rival's page first and Acme's second; the
	// second names Rival only (1.2). The page ranks Rival first and Acme
	// third. All brands' worth: 3.5 over 4 mentions.
	pass0 := named(ownAt(1),
		tsMention(sightline.RelationTrackedCompetitor, c1, 2, sightline.MentionComparison, sightline.ToneNeutral, sightline.QualifierDirect),
		tsMention(sightline.RelationUntrackedCompetitor, uuid.Nil, 3, sightline.MentionListing, sightline.ToneNegative, sightline.QualifierDirect))
	pass0.Citations = []olap.Citation{
		{Position: 1, URL: "https://rival.com/a", Domain: "rival.com", Relation: sightline.RelationTrackedCompetitor, CompetitorID: &c1},
		{Position: 2, URL: "https://acme.com/b", Domain: "acme.com", Relation: sightline.RelationOwn},
	}
	pass1 := named(tsMention(sightline.RelationTrackedCompetitor, c1, 1, sightline.MentionRecommendation,
		sightline.TonePositive, sightline.QualifierDirect))
	tf.run(chat, mon.Add(10*h), pass0, pass1)
	tf.run(serp, mon.Add(11*h), olap.PassRows{SearchResults: []olap.SearchResult{
		{Rank: 1, URL: "https://rival.com/", Domain: "rival.com", Title: "Rival", Relation: sightline.RelationTrackedCompetitor, CompetitorID: &c1},
		{Rank: 2, URL: "https://else.com/", Domain: "else.com", Title: "Else"},
		{Rank: 3, URL: "https://acme.com/", Domain: "acme.com", Title: "Acme", Relation: sightline.RelationOwn},
	}})
	// Tuesday: nothing. Wednesday: one answer naming Acme second (example,
	// neutral, conditional: 0.35) and Contender first (reference, negative:
	// 0.15), and a shopping page with Acme's offer second and Contender's
	// fourth.
	tf.run(perplexity, mon.Add(48*h+9*h), named(
		tsMention(sightline.RelationOwn, uuid.Nil, 2, sightline.MentionExample, sightline.ToneNeutral, sightline.QualifierConditional),
		tsMention(sightline.RelationTrackedCompetitor, c2, 1, sightline.MentionReference, sightline.ToneNegative, sightline.QualifierDirect)))
	tf.run(shopping, mon.Add(48*h+12*h), olap.PassRows{ShoppingOffers: []olap.ShoppingOffer{
		{Rank: 1, Title: "Else", Price: 9, Currency: "USD", Merchant: "Else"},
		{Rank: 2, Title: "Acme CRM", Price: 10, Currency: "USD", Merchant: "Acme", Domain: "acme.com", URL: "https://acme.com/buy", Relation: sightline.RelationOwn},
		{Rank: 4, Title: "Contender CRM", Price: 11, Currency: "USD", Merchant: "Contender", Domain: "contender.com", URL: "https://contender.com/buy", Relation: sightline.RelationTrackedCompetitor, CompetitorID: &c2},
	}})
	// Thursday: two answers naming nobody.
	tf.run(chat, mon.Add(72*h+8*h), named(), named())
	// Outside the window by a millisecond on either side, and another
	// project's answer inside it: never counted.
	tf.run(chat, mon.Add(-time.Millisecond), named(ownAt(9)))
	tf.run(chat, mon.Add(96*h), named(ownAt(9)))
	tf.run(theirs, mon.Add(10*h), named(ownAt(9)))

	daily := []tsPoint{{
		date: mon,
		own: tsWant{serp: num(3), mention: num(1), link: num(2), positivity: ratio(1, 1),
			share: ratio(1.2/3.5, 4), mentionRate: ratio(0.5, 2), serpRateVal: ratio(1, 1)},
		competitors: map[uuid.UUID]tsWant{
			c1: {serp: num(1), mention: num(1.5), link: num(1), positivity: ratio(0.75, 2),
				share: ratio(2.0/3.5, 4), mentionRate: ratio(1, 2), serpRateVal: ratio(1, 1)},
			c2: {share: ratio(0, 4), mentionRate: ratio(0, 2), serpRateVal: ratio(0, 1)},
		},
	}, {
		date: mon.AddDate(0, 0, 1), competitors: map[uuid.UUID]tsWant{c1: {}, c2: {}},
	}, {
		date: mon.AddDate(0, 0, 2),
		own: tsWant{shopping: num(2), mention: num(2), positivity: ratio(0.5, 1), share: ratio(0.35/0.5, 2),
			mentionRate: ratio(1, 1)},
		competitors: map[uuid.UUID]tsWant{
			c1: {share: ratio(0, 2), mentionRate: ratio(0, 1)},
			c2: {shopping: num(4), mention: num(1), positivity: ratio(0, 1), share: ratio(0.15/0.5, 2),
				mentionRate: ratio(1, 1)},
		},
	}, {
		date:        mon.AddDate(0, 0, 3),
		own:         tsWant{mentionRate: ratio(0, 2)},
		competitors: map[uuid.UUID]tsWant{c1: {mentionRate: ratio(0, 2)}, c2: {mentionRate: ratio(0, 2)}},
	}}
	// The same four days as one ISO week: 5 answers, 1 search page, 1
	// shopping page; worth 4.0 over 6 mentions.
	weekly := []tsPoint{{
		date: mon,
		own: tsWant{serp: num(3), shopping: num(2), mention: num(1.5), link: num(2), positivity: ratio(0.75, 2),
			share: ratio(1.55/4, 6), mentionRate: ratio(0.4, 5), serpRateVal: ratio(1, 1)},
		competitors: map[uuid.UUID]tsWant{
			c1: {serp: num(1), mention: num(1.5), link: num(1), positivity: ratio(0.75, 2),
				share: ratio(2.0/4, 6), mentionRate: ratio(0.4, 5), serpRateVal: ratio(1, 1)},
			c2: {shopping: num(4), mention: num(1), positivity: ratio(0, 1), share: ratio(0.15/4, 6),
				mentionRate: ratio(0.2, 5), serpRateVal: ratio(0, 1)},
		},
	}}
	withoutCompetitors := func(points []tsPoint) []tsPoint {
		out := make([]tsPoint, len(points))
		for i, p := range points {
			out[i] = tsPoint{date: p.date, own: p.own}
		}
		return out
	}
	to := mon.AddDate(0, 0, 3)
	for _, tt := range []struct {
		name, query string
		want        []tsPoint
	}{
		{"daily by default", fmt.Sprintf("competitorIds=%s,%s", c1, c2), daily},
		{"daily, competitors repeated", fmt.Sprintf("granularity=daily&competitorIds=%s&competitorIds=%s", c2, c1), daily},
		{"weekly", fmt.Sprintf("granularity=weekly&competitorIds=%s,%s", c1, c2), weekly},
		{"no competitors asked", "", withoutCompetitors(daily)},
		{"one competitor", "competitorIds=" + c2.String(), []tsPoint{
			{date: mon, own: daily[0].own, competitors: map[uuid.UUID]tsWant{c2: daily[0].competitors[c2]}},
			{date: mon.AddDate(0, 0, 1), competitors: map[uuid.UUID]tsWant{c2: {}}},
			{date: mon.AddDate(0, 0, 2), own: daily[2].own, competitors: map[uuid.UUID]tsWant{c2: daily[2].competitors[c2]}},
			{date: mon.AddDate(0, 0, 3), own: daily[3].own, competitors: map[uuid.UUID]tsWant{c2: daily[3].competitors[c2]}},
		}},
		{"duplicates collapse", fmt.Sprintf("competitorIds=%s,%s&competitorIds=%s", c1, c1, c2), daily},
	} {
		t.Run(tt.name, func(t *testing.T) {
			a := tf.series(tf.path("/timeseries" + tsWindow(mon, to, tt.query)))
			tsCheck(t, a.Points, tt.want)
			if a.DataDirtySince != nil {
				t.Errorf("dataDirtySince = %v, want null", a.DataDirtySince)
			}
		})
	}

	// Gaps are null in the JSON itself, never 0 or absent, and competitors
	// is an object even when none was asked for.
	raw := tf.get(tf.path("/timeseries" + tsWindow(mon.AddDate(0, 0, 1), mon.AddDate(0, 0, 1), "competitorIds="+c1.String()))).json(t)
	point := raw["points"].([]any)[0].(map[string]any)
	for _, key := range []string{"serp", "shopping", "mention", "link", "positivity", "shareOfVoice", "mentionRate",
		"serpRate", "shareOfVoiceInterval", "mentionRateInterval", "serpRateInterval", "positivityInterval"} {
		if v, ok := point[key]; !ok || v != nil {
			t.Errorf("gap point %s = %v (present %t), want null", key, v, ok)
		}
		if v, ok := point["competitors"].(map[string]any)[c1.String()].(map[string]any)[key]; !ok || v != nil {
			t.Errorf("gap point competitor %s = %v (present %t), want null", key, v, ok)
		}
	}
	raw = tf.get(tf.path("/timeseries" + tsWindow(mon, mon, ""))).json(t)
	if c, ok := raw["points"].([]any)[0].(map[string]any)["competitors"].(map[string]any); !ok || len(c) != 0 {
		t.Errorf("competitors = %v, want {}", raw["points"].([]any)[0].(map[string]any)["competitors"])
	}
}

func TestTimeseriesBuckets(t *testing.T) {
	t.Parallel()
	tf := tsSetup(t)
	mon, h := tf.mon, time.Hour

	// Weekly: one answer a day naming Acme at the position given.
	weeks := tf.fixture.project(tf.org, "Weeks")
	wq := tf.trackedQuery(weeks, sightline.EngineChatGPT, "US", "weekly", 1)
	for day, position := range map[int]int{1: 9, 2: 1, 6: 2, 7: 5, 13: 7, 22: 2, 23: 9} {
		tf.run(wq, mon.AddDate(0, 0, day).Add(12*h), named(ownAt(position)))
	}
	// Monthly: m is the first day of the month four months back; M2 and M3
	// the two months after it.
	months := tf.fixture.project(tf.org, "Months")
	mq := tf.trackedQuery(months, sightline.EngineChatGPT, "US", "monthly", 1)
	y, mo, _ := tsToday().AddDate(0, -4, 0).Date()
	m := time.Date(y, mo, 1, 0, 0, 0, 0, time.UTC)
	m2, m3 := m.AddDate(0, 1, 0), m.AddDate(0, 2, 0)
	endM1 := m2.AddDate(0, 0, -1)
	for at, position := range map[time.Time]int{
		m.AddDate(0, 0, 8): 9, m.AddDate(0, 0, 9): 1, endM1.Add(23 * h): 3, m2: 4, m3.AddDate(0, 0, 4): 6, m3.AddDate(0, 0, 5): 9,
	} {
		tf.run(mq, at, named(ownAt(position)))
	}

	// at is a bucket whose n answers named Acme at positions averaging
	// mean, each positive, recommended and the only brand named.
	at := func(date time.Time, mean float64, n int64) tsPoint {
		return tsPoint{date: date, own: tsWant{mention: num(mean), positivity: ratio(1, n), share: ratio(1, n),
			mentionRate: ratio(1, n)}}
	}
	empty := func(date time.Time) tsPoint { return tsPoint{date: date} }
	for _, tt := range []struct {
		name     string
		project  uuid.UUID
		from, to time.Time
		query    string
		want     []tsPoint
	}{
		{"weekly, first week clipped to a Wednesday, a gap, last week cut at dateTo", weeks,
			mon.AddDate(0, 0, 2), mon.AddDate(0, 0, 22), "granularity=weekly", []tsPoint{
				at(mon.AddDate(0, 0, 2), 1.5, 2), at(mon.AddDate(0, 0, 7), 6, 2), empty(mon.AddDate(0, 0, 14)),
				at(mon.AddDate(0, 0, 21), 2, 1)}},
		{"weekly from a Monday", weeks, mon.AddDate(0, 0, 7), mon.AddDate(0, 0, 13), "granularity=weekly",
			[]tsPoint{at(mon.AddDate(0, 0, 7), 6, 2)}},
		{"weekly from a Sunday", weeks, mon.AddDate(0, 0, 6), mon.AddDate(0, 0, 7), "granularity=weekly",
			[]tsPoint{at(mon.AddDate(0, 0, 6), 2, 1), at(mon.AddDate(0, 0, 7), 5, 1)}},
		{"daily across a week", weeks, mon.AddDate(0, 0, 5), mon.AddDate(0, 0, 8), "", []tsPoint{
			empty(mon.AddDate(0, 0, 5)), at(mon.AddDate(0, 0, 6), 2, 1), at(mon.AddDate(0, 0, 7), 5, 1),
			empty(mon.AddDate(0, 0, 8))}},
		{"monthly, first month clipped to the 10th, last cut at the 5th", months, m.AddDate(0, 0, 9),
			m3.AddDate(0, 0, 4), "granularity=monthly", []tsPoint{at(m.AddDate(0, 0, 9), 2, 2), at(m2, 4, 1),
				at(m3, 6, 1)}},
		{"monthly from a month's first day", months, m, m3.AddDate(0, 0, -1), "granularity=monthly",
			[]tsPoint{at(m, 13.0/3, 3), at(m2, 4, 1)}},
		{"monthly, one day", months, endM1, endM1, "granularity=monthly", []tsPoint{at(endM1, 3, 1)}},
		{"daily across a month boundary", months, endM1.AddDate(0, 0, -1), m2.AddDate(0, 0, 1), "granularity=daily",
			[]tsPoint{empty(endM1.AddDate(0, 0, -1)), at(endM1, 3, 1), at(m2, 4, 1), empty(m2.AddDate(0, 0, 1))}},
		{"a window past today ends today", weeks, tsToday().AddDate(0, 0, -1), time.Date(9999, 12, 31, 0, 0, 0, 0, time.UTC),
			"", []tsPoint{empty(tsToday().AddDate(0, 0, -1)), empty(tsToday())}},
		{"a window yet to come has no point", weeks, tsToday().AddDate(0, 0, 1), tsToday().AddDate(0, 0, 9),
			"granularity=weekly", nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tsCheck(t, tf.series(tf.path("/timeseries"+tsWindow(tt.from, tt.to, tt.query), tt.project)).Points, tt.want)
		})
	}
}

func TestTimeseriesFilters(t *testing.T) {
	t.Parallel()
	tf := tsSetup(t)
	day := tf.mon.Add(12 * time.Hour)
	// Answers per query: 1, 2 and 4, so the answers a filter keeps (the
	// mention rate's n) say which AI queries it kept; the search page shows
	// in serpRate.
	q1 := tf.trackedQuery(tf.project, sightline.EngineChatGPT, "US", "one", 1)
	q2 := tf.trackedQuery(tf.project, sightline.EnginePerplexity, "DE", "two", 2)
	q3 := tf.trackedQuery(tf.project, sightline.EngineChatGPT, "FR", "three", 4)
	q4 := tf.trackedQuery(tf.project, sightline.EngineGoogleSERP, "US", "four", 1)
	k1, k2 := tf.cluster(tf.project, "first", q1), tf.cluster(tf.project, "second", q2)
	gone := tf.cluster(tf.project, "gone", q1, q3)
	if _, err := oltp.DeleteCluster(context.Background(), tf.pool, tf.org, tf.project, gone); err != nil {
		t.Fatal(err)
	}
	empty := tf.cluster(tf.project, "empty")
	c1 := tf.competitor(tf.project, "Rival")
	for q, n := range map[uuid.UUID]int{q1: 1, q2: 2, q3: 4} {
		passes := make([]olap.PassRows, n)
		for i := range passes {
			passes[i] = named(ownAt(1))
		}
		tf.run(q, day, passes...)
	}
	tf.run(q4, day, olap.PassRows{SearchResults: []olap.SearchResult{
		{Rank: 2, URL: "https://acme.com/", Domain: "acme.com", Title: "Acme", Relation: sightline.RelationOwn}}})

	// kept is the point of a filter keeping answers AI answers and, with
	// serp, the search page.
	kept := func(answers int64, serp bool) []tsPoint {
		p := tsPoint{date: tf.mon, competitors: map[uuid.UUID]tsWant{c1: {}}}
		if answers > 0 {
			p.own = tsWant{mention: num(1), positivity: ratio(1, answers), share: ratio(1, answers),
				mentionRate: ratio(1, answers)}
			p.competitors[c1] = tsWant{share: ratio(0, answers), mentionRate: ratio(0, answers)}
		}
		if serp {
			p.own.serp, p.own.serpRateVal = num(2), ratio(1, 1)
			c := p.competitors[c1]
			c.serpRateVal = ratio(0, 1)
			p.competitors[c1] = c
		}
		return []tsPoint{p}
	}
	for _, tt := range []struct {
		name, query string
		want        []tsPoint
	}{
		{"no filter", "", kept(7, true)},
		{"engines", "engines=chatgpt", kept(5, false)},
		{"engines comma-separated", "engines=chatgpt,google_serp", kept(5, true)},
		{"engines repeated", "engines=perplexity&engines=google_serp", kept(2, true)},
		{"country code", "countries=DE", kept(2, false)},
		{"country name", "countries=germany", kept(2, false)},
		{"countries", "countries=US,fr", kept(5, true)},
		{"engine and country", "engines=chatgpt&countries=FR", kept(4, false)},
		{"a cluster", "queryClusterIds=" + k1.String(), kept(1, false)},
		{"two clusters", fmt.Sprintf("queryClusterIds=%s,%s", k1, k2), kept(3, false)},
		{"clusters repeated", fmt.Sprintf("queryClusterIds=%s&queryClusterIds=%s", k1, k2), kept(3, false)},
		{"ungrouped alone narrows to the queries in no cluster", "includeUngroupedQueries=true", kept(4, true)},
		{"ungrouped false alone changes nothing", "includeUngroupedQueries=false", kept(7, true)},
		{"ungrouped with a cluster widens", "includeUngroupedQueries=true&queryClusterIds=" + k1.String(), kept(5, true)},
		{"cluster and engine that share no query", "engines=chatgpt&queryClusterIds=" + k2.String(), kept(0, false)},
		{"deleted cluster: no point", "queryClusterIds=" + gone.String(), []tsPoint{}},
		{"deleted cluster with ungrouped", "includeUngroupedQueries=true&queryClusterIds=" + gone.String(), kept(4, true)},
		{"cluster without members: no point", "queryClusterIds=" + empty.String(), []tsPoint{}},
		{"deleted and empty clusters: no point", fmt.Sprintf("queryClusterIds=%s,%s", gone, empty), []tsPoint{}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			path := tf.path("/timeseries" + tsWindow(tf.mon, tf.mon, tt.query+"&competitorIds="+c1.String()))
			tsCheck(t, tf.series(path).Points, tt.want)
		})
	}

	// A deleted cluster over a longer window, weekly: still no point.
	from, to := tf.mon.AddDate(0, 0, -3), tf.mon.AddDate(0, 0, 9)
	a := tf.series(tf.path("/timeseries" + tsWindow(from, to, "granularity=weekly&queryClusterIds="+gone.String()+
		"&competitorIds="+c1.String())))
	tsCheck(t, a.Points, []tsPoint{})
}

func TestTimeseriesTrackedQuery(t *testing.T) {
	t.Parallel()
	tf := tsSetup(t)
	mon, h := tf.mon, time.Hour
	c1 := tf.competitor(tf.project, "Rival")
	mine := tf.trackedQuery(tf.project, sightline.EngineChatGPT, "US", "mine", 1)
	other := tf.trackedQuery(tf.project, sightline.EngineChatGPT, "US", "other", 1)
	serp := tf.trackedQuery(tf.project, sightline.EngineGoogleSERP, "US", "mine", 1)

	// Monday: mine's answer names only Rival; other's names only Acme.
	// Tuesday: mine's answer names nobody. Wednesday: only other answers.
	rival := tsMention(sightline.RelationTrackedCompetitor, c1, 1, sightline.MentionRecommendation,
		sightline.TonePositive, sightline.QualifierDirect)
	tf.run(mine, mon.Add(9*h), named(rival))
	tf.run(other, mon.Add(9*h), named(ownAt(1)))
	tf.run(mine, mon.Add(33*h), named())
	tf.run(other, mon.Add(57*h), named(ownAt(2)))
	tf.run(serp, mon.Add(10*h), olap.PassRows{SearchResults: []olap.SearchResult{
		{Rank: 2, URL: "https://acme.com/", Domain: "acme.com", Title: "Acme", Relation: sightline.RelationOwn}}})

	to := mon.AddDate(0, 0, 2)
	competitors := "competitorIds=" + c1.String()
	mineSeries := tf.series(tf.path(fmt.Sprintf("/tracked-queries/%s/timeseries%s", mine, tsWindow(mon, to, competitors))))
	tsCheck(t, mineSeries.Points, []tsPoint{{
		// Measured, never mentioned: 0 of the 1 mention in the bucket.
		date: mon, own: tsWant{share: ratio(0, 1), mentionRate: ratio(0, 1)},
		competitors: map[uuid.UUID]tsWant{c1: {mention: num(1), positivity: ratio(1, 1), share: ratio(1, 1),
			mentionRate: ratio(1, 1)}},
	}, {
		// Measured on an answer that named no brand at all: 0 still.
		date: mon.AddDate(0, 0, 1), own: tsWant{share: ratio(0, 0), mentionRate: ratio(0, 1)},
		competitors: map[uuid.UUID]tsWant{c1: {share: ratio(0, 0), mentionRate: ratio(0, 1)}},
	}, {
		// No answer: no measurement.
		date: mon.AddDate(0, 0, 2), competitors: map[uuid.UUID]tsWant{c1: {}},
	}})

	// The project's series over the same days: a bucket whose answers name
	// nobody has no share of voice.
	project := tf.series(tf.path("/timeseries" + tsWindow(mon, to, competitors)))
	tsCheck(t, project.Points, []tsPoint{{
		date: mon, own: tsWant{mention: num(1), positivity: ratio(1, 1), share: ratio(0.5, 2), mentionRate: ratio(0.5, 2),
			serp: num(2), serpRateVal: ratio(1, 1)},
		competitors: map[uuid.UUID]tsWant{c1: {mention: num(1), positivity: ratio(1, 1), share: ratio(0.5, 2),
			mentionRate: ratio(0.5, 2), serpRateVal: ratio(0, 1)}},
	}, {
		date: mon.AddDate(0, 0, 1), own: tsWant{mentionRate: ratio(0, 1)},
		competitors: map[uuid.UUID]tsWant{c1: {mentionRate: ratio(0, 1)}},
	}, {
		date: mon.AddDate(0, 0, 2), own: tsWant{mention: num(2), positivity: ratio(1, 1), share: ratio(1, 1),
			mentionRate: ratio(1, 1)},
		competitors: map[uuid.UUID]tsWant{c1: {share: ratio(0, 1), mentionRate: ratio(0, 1)}},
	}})

	// A search query's series: positions and serpRate, no share of voice
	// (no AI answer measures one).
	serpSeries := tf.series(tf.path(fmt.Sprintf("/tracked-queries/%s/timeseries%s", serp, tsWindow(mon, mon, competitors))))
	tsCheck(t, serpSeries.Points, []tsPoint{{date: mon, own: tsWant{serp: num(2), serpRateVal: ratio(1, 1)},
		competitors: map[uuid.UUID]tsWant{c1: {serpRateVal: ratio(0, 1)}}}})

	// Weekly: the first two days' answers in one bucket.
	weekly := tf.series(tf.path(fmt.Sprintf("/tracked-queries/%s/timeseries%s", mine, tsWindow(mon, to, "granularity=weekly"))))
	tsCheck(t, weekly.Points, []tsPoint{{date: mon, own: tsWant{share: ratio(0, 1), mentionRate: ratio(0, 2)}}})

	// dataDirtySince is the project's pending recalculation.
	dirty := time.Date(2026, 1, 2, 3, 4, 5, 6_000_000, time.UTC)
	if _, err := tf.pool.Exec(context.Background(), `UPDATE projects SET data_dirty_since = $2 WHERE id = $1`,
		tf.project, dirty); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{
		fmt.Sprintf("/tracked-queries/%s/timeseries%s", mine, tsWindow(mon, mon, "")),
		"/timeseries" + tsWindow(mon, mon, ""),
	} {
		raw := tf.get(tf.path(path)).json(t)
		if raw["dataDirtySince"] != "2026-01-02T03:04:05.006Z" {
			t.Errorf("%s: dataDirtySince = %v", path, raw["dataDirtySince"])
		}
	}
}

func TestTimeseriesEmptyProject(t *testing.T) {
	t.Parallel()
	tf := tsSetup(t)
	c1 := tf.competitor(tf.project, "Rival")
	for _, query := range []string{"", "granularity=monthly&competitorIds=" + c1.String()} {
		raw := tf.get(tf.path("/timeseries" + tsWindow(tf.mon, tf.mon.AddDate(0, 1, 0), query))).json(t)
		if points, ok := raw["points"].([]any); !ok || len(points) != 0 {
			t.Errorf("points = %v, want []", raw["points"])
		}
	}
	// The window is still checked.
	capturesExpectDetail(t, tf.get(tf.path("/timeseries?dateFrom="+tf.mon.Format(time.DateOnly))), "dateTo", "missing_field")
}

func TestTimeseriesRefusals(t *testing.T) {
	t.Parallel()
	tf := tsSetup(t)
	c1 := tf.competitor(tf.project, "Rival")
	q := tf.trackedQuery(tf.project, sightline.EngineChatGPT, "US", "best crm", 1)
	sibling := tf.fixture.project(tf.org, "Sibling")
	theirCompetitor := tf.competitor(sibling, "Theirs")
	theirQuery := tf.trackedQuery(sibling, sightline.EngineChatGPT, "US", "best crm", 1)
	deleted := tf.competitor(tf.project, "Gone")
	if _, err := oltp.DeleteCompetitor(context.Background(), tf.pool, tf.org, tf.project, deleted); err != nil {
		t.Fatal(err)
	}
	_, otherOrg := tf.fixture.owner()
	foreign := tf.fixture.project(otherOrg, "Foreign")

	today := tsToday()
	day := func(t time.Time) string { return t.Format(time.DateOnly) }
	ok := tsWindow(tf.mon, tf.mon.AddDate(0, 0, 6), "")
	single := fmt.Sprintf("/tracked-queries/%s/timeseries", q)
	for _, tt := range []struct {
		name, path, field, code string
	}{
		{"dateFrom missing", "/timeseries?dateTo=" + day(today), "dateFrom", "missing_field"},
		{"dateTo missing", "/timeseries?dateFrom=" + day(tf.mon), "dateTo", "missing_field"},
		{"both missing", "/timeseries", "dateTo", "missing_field"},
		{"dateFrom not a date", "/timeseries?dateFrom=yesterday&dateTo=" + day(today), "dateFrom", "invalid_value"},
		{"17 months back", "/timeseries" + tsWindow(today.AddDate(0, -17, 0), today, ""), "dateFrom", "out_of_range"},
		{"dateTo before dateFrom", "/timeseries" + tsWindow(tf.mon, tf.mon.AddDate(0, 0, -1), ""), "dateTo", "out_of_range"},
		{"granularity", "/timeseries" + ok + "&granularity=hourly", "granularity", "invalid_value"},
		{"granularity twice", "/timeseries" + ok + "&granularity=daily&granularity=weekly", "granularity", "invalid_value"},
		{"unknown parameter", "/timeseries" + ok + "&limit=10", "limit", "unknown_field"},
		{"competitor not a uuid", "/timeseries" + ok + "&competitorIds=rival", "competitorIds", "invalid_uuid"},
		{"unknown competitor", "/timeseries" + ok + "&competitorIds=" + uuid.NewString(), "competitorIds", "invalid_value"},
		{"another project's competitor", "/timeseries" + ok + "&competitorIds=" + c1.String() + "," + theirCompetitor.String(),
			"competitorIds", "invalid_value"},
		{"deleted competitor", "/timeseries" + ok + "&competitorIds=" + deleted.String(), "competitorIds", "invalid_value"},
		{"unknown cluster", "/timeseries" + ok + "&queryClusterIds=" + uuid.NewString(), "queryClusterIds", "invalid_value"},
		{"engine", "/timeseries" + ok + "&engines=bing", "engines", "invalid_value"},
		{"country not configured", "/timeseries" + ok + "&countries=DE", "countries", "invalid_value"},
		{"single: engines", single + ok + "&engines=chatgpt", "engines", "unknown_field"},
		{"single: countries", single + ok + "&countries=US", "countries", "unknown_field"},
		{"single: clusters", single + ok + "&queryClusterIds=" + uuid.NewString(), "queryClusterIds", "unknown_field"},
		{"single: ungrouped", single + ok + "&includeUngroupedQueries=true", "includeUngroupedQueries", "unknown_field"},
		{"single: dates missing", single, "dateFrom", "missing_field"},
		{"single: 17 months back", single + tsWindow(today.AddDate(0, -17, 0), today, ""), "dateFrom", "out_of_range"},
		{"single: another project's competitor", single + ok + "&competitorIds=" + theirCompetitor.String(),
			"competitorIds", "invalid_value"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			capturesExpectDetail(t, tf.get(tf.path(tt.path)), tt.field, tt.code)
		})
	}

	// Every problem in one answer.
	m := assertError(t, tf.get(tf.path("/timeseries?dateFrom="+day(tf.mon)+"&granularity=weekly&competitorIds="+
		uuid.NewString())), http.StatusBadRequest, sightline.CodeValidation)
	if got := detailCodesOf(t, m); len(got["dateTo"]) != 1 || len(got["competitorIds"]) != 1 {
		t.Errorf("details %v, want dateTo and competitorIds", m["details"])
	}

	// 15 months back is inside retention: a point per day.
	from := today.AddDate(0, -15, 0)
	a := tf.series(tf.path("/timeseries" + tsWindow(from, today, "")))
	if want := len(tsDays(from, today)); len(a.Points) != want || a.Points[0].Date != day(from) ||
		a.Points[want-1].Date != day(today) {
		t.Errorf("%d points from %s, want %d from %s", len(a.Points), a.Points[0].Date, want, day(from))
	}
	tf.series(tf.path(single + tsWindow(from, today, "granularity=monthly")))

	for _, tt := range []struct {
		name, path string
		code       sightline.Code
	}{
		{"unknown tracked query", tf.path(fmt.Sprintf("/tracked-queries/%s/timeseries%s", uuid.New(), ok)),
			sightline.CodeOrganizationNotFound},
		{"another project's tracked query", tf.path(fmt.Sprintf("/tracked-queries/%s/timeseries%s", theirQuery, ok)),
			sightline.CodeOrganizationNotFound},
		{"malformed tracked query id", tf.path("/tracked-queries/nope/timeseries" + ok), sightline.CodeOrganizationNotFound},
		{"another organization's project", tf.path("/timeseries"+ok, foreign), sightline.CodeOrganizationNotFound},
		{"unknown project, single query", tf.path(single+ok, uuid.New()), sightline.CodeOrganizationNotFound},
	} {
		t.Run(tt.name, func(t *testing.T) {
			assertError(t, tf.get(tt.path), http.StatusNotFound, tt.code)
		})
	}
}
