package api

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ClickHouse/clickhouse-go/v2"
	"github.com/google/uuid"

	"github.com/sightline/sightline"
	"github.com/sightline/sightline/olap"
	"github.com/sightline/sightline/oltp"
)

// The mentions family of analytics (mentions, mix, sentiment, cited
// sources, co-occurrence, available filters) over one hand-built project.
// Every expectation below is counted by hand from the passes in
// mentionsSetup; the comments there list what each pass holds.

// mentionsFixture is a project with tracked queries, competitors, clusters
// and AI answers on a day D (three days ago) and the day before, in the
// API's own analytics database.
type mentionsFixture struct {
	*capturesFixture
	qA, qB, qC, qSerp, qShop   uuid.UUID // qC is deleted from Postgres, its captures are not
	beta, delta, rival, zeta   uuid.UUID // competitors; by name Beta, Delta, Rival, Zeta
	enterprise, smb            uuid.UUID // clusters: enterprise holds qA, smb holds nothing
	p1, p2, p3, p4, p5, p6, p7 olap.PassRows
	tieAnswer                  uuid.UUID // the answer of the hand-written tie with Zeta
	sibling                    uuid.UUID // another project of the organization
	siblingRival               uuid.UUID // its competitor
	// window is dateFrom=D-1&dateTo=D.
	window string
}

func mentionsSetup(t *testing.T) *mentionsFixture {
	t.Helper()
	f := setup(t, setupOptions{analytics: true})
	owner, org := f.owner()
	y, m, d := time.Now().UTC().AddDate(0, 0, -3).Date()
	cf := &capturesFixture{fixture: f, conn: f.server.analytics.Conn, owner: owner, org: org,
		project: f.project(org, "Analytics"), day: time.Date(y, m, d, 0, 0, 0, 0, time.UTC)}
	mf := &mentionsFixture{capturesFixture: cf}
	ctx := context.Background()
	exec := func(sql string, args ...any) {
		t.Helper()
		if _, err := f.pool.Exec(ctx, sql, args...); err != nil {
			t.Fatal(err)
		}
	}
	query := func(engine sightline.Engine, text, country string) uuid.UUID {
		id := cf.query(cf.project, engine, text)
		exec(`UPDATE tracked_queries SET country = $2 WHERE id = $1`, id, country)
		return id
	}
	competitor := func(project uuid.UUID, name string) uuid.UUID {
		id := uuid.Must(uuid.NewV7())
		exec(`INSERT INTO competitors (id, project_id, name, website_domains, brand_names)
			VALUES ($1, $2, $3, $4, $5)`, id, project, name, []string{strings.ToLower(name) + ".example"}, []string{name})
		return id
	}
	cluster := func(project uuid.UUID, name string, members ...uuid.UUID) uuid.UUID {
		c, err := oltp.CreateCluster(ctx, f.pool, project, name)
		if err != nil {
			t.Fatal(err)
		}
		for _, q := range members {
			exec(`INSERT INTO tracked_query_clusters (project_id, tracked_query_id, cluster_id) VALUES ($1, $2, $3)`,
				project, q, c.ID)
		}
		return c.ID
	}

	mf.qA = query(sightline.EngineChatGPT, "best crm", "US")
	mf.qB = query(sightline.EnginePerplexity, "crm for startups", "DE")
	mf.qC = query(sightline.EngineGoogleAIOverview, "crm pricing", "US")
	mf.qSerp = query(sightline.EngineGoogleSERP, "best crm", "US")
	mf.qShop = query(sightline.EngineGoogleShopping, "crm software", "FR")
	// Created out of name order: rows are ordered by name, not creation.
	mf.rival = competitor(cf.project, "Rival")
	mf.zeta = competitor(cf.project, "Zeta")
	mf.beta = competitor(cf.project, "Beta")
	mf.delta = competitor(cf.project, "Delta")
	mf.smb = cluster(cf.project, "smb")
	mf.enterprise = cluster(cf.project, "enterprise", mf.qA)
	mf.sibling = f.project(org, "Sibling")
	mf.siblingRival = competitor(mf.sibling, "Rival")
	siblingQuery := cf.query(mf.sibling, sightline.EngineChatGPT, "best crm")
	cluster(mf.sibling, "elsewhere", siblingQuery)

	own := func(pos int, kind sightline.MentionType, tone sightline.Tone, q sightline.Qualifier, text string) olap.Mention {
		return olap.Mention{BrandName: "Acme", Relation: sightline.RelationOwn, Position: pos, Type: kind, Tone: tone,
			Qualifier: q, Sentence: text}
	}
	tracked := func(id uuid.UUID, name string, pos int, kind sightline.MentionType, tone sightline.Tone,
		q sightline.Qualifier) olap.Mention {
		return olap.Mention{BrandName: name, Relation: sightline.RelationTrackedCompetitor, CompetitorID: &id,
			Position: pos, Type: kind, Tone: tone, Qualifier: q, Sentence: name + " is named."}
	}
	untracked := func(name string, pos int, kind sightline.MentionType, tone sightline.Tone) olap.Mention {
		return olap.Mention{BrandName: name, Relation: sightline.RelationUntrackedCompetitor, Position: pos,
			Type: kind, Tone: tone, Qualifier: sightline.QualifierDirect, Sentence: name + " exists."}
	}
	cite := func(pos int, url, domain, title string) olap.Citation {
		return olap.Citation{Position: pos, URL: url, Domain: domain, Title: title}
	}
	pass := func(q uuid.UUID, engine sightline.Engine, country, text string, run uuid.UUID, index, count uint8,
		at time.Time) olap.PassRows {
		p := cf.pass(cf.project, q, run, engine, index, count, at)
		p.Country, p.QueryText, p.ResponseText = country, text, "An answer."
		return p
	}
	day := cf.day
	const (
		rec, cmp, lst, exm, ref = sightline.MentionRecommendation, sightline.MentionComparison, sightline.MentionListing,
			sightline.MentionExample, sightline.MentionReference
		pos, neu, neg  = sightline.TonePositive, sightline.ToneNeutral, sightline.ToneNegative
		direct, hedged = sightline.QualifierDirect, sightline.QualifierConditional
	)

	// p1, p2: the two passes of one chatgpt run on D 10:00 (qA, US).
	run1 := uuid.New()
	mf.p1 = pass(mf.qA, sightline.EngineChatGPT, "US", "best crm", run1, 0, 2, day.Add(10*time.Hour))
	mf.p1.Mentions = []olap.Mention{
		own(1, rec, pos, direct, "Acme is the best CRM."),
		tracked(mf.rival, "Rival", 2, cmp, neg, direct),
		untracked("Other", 3, lst, neu),
	}
	mf.p1.Citations = []olap.Citation{
		cite(1, "https://acme.com/pricing", "acme.com", "Pricing"),
		cite(2, "https://news.example/a", "news.example", "A"),
		{Position: 3, URL: "https://vertexaisearch.cloud.google.com/grounding-api-redirect/x",
			Domain: "vertexaisearch.cloud.google.com", Title: "Hidden", Unresolved: true},
	}
	mf.p2 = pass(mf.qA, sightline.EngineChatGPT, "US", "best crm", run1, 1, 2, day.Add(10*time.Hour))
	mf.p2.Mentions = []olap.Mention{
		tracked(mf.rival, "Rival", 1, rec, pos, direct),
		own(2, exm, neu, hedged, "If you need X, Acme."),
	}
	mf.p2.Citations = []olap.Citation{
		cite(1, "https://news.example/a", "news.example", "A"),
		cite(2, "https://news.example/b", "news.example", ""),
	}
	// p3: perplexity on D 12:00 (qB, DE).
	mf.p3 = pass(mf.qB, sightline.EnginePerplexity, "DE", "crm for startups", uuid.New(), 0, 1, day.Add(12*time.Hour))
	mf.p3.Mentions = []olap.Mention{
		own(1, ref, neg, direct, "Acme is expensive."),
		tracked(mf.beta, "Beta", 2, lst, neu, direct),
		tracked(mf.rival, "Rival", 3, exm, pos, hedged),
	}
	mf.p3.Citations = []olap.Citation{
		cite(1, "https://news.example/a", "news.example", "A Title"),
		{Position: 2, URL: "https://beta.example/", Domain: "beta.example", Title: "Beta",
			Relation: sightline.RelationTrackedCompetitor, CompetitorID: &mf.beta},
	}
	// p4: google_ai_overview on D 14:00 (qC, deleted below).
	mf.p4 = pass(mf.qC, sightline.EngineGoogleAIOverview, "US", "crm pricing", uuid.New(), 0, 1, day.Add(14*time.Hour))
	mf.p4.Mentions = []olap.Mention{
		own(1, rec, pos, direct, "Acme pricing is fair."),
		untracked("Gamma", 2, ref, neu),
	}
	mf.p4.Citations = []olap.Citation{{Position: 1, URL: "https://acme.com/", Domain: "acme.com", Title: "Acme",
		Relation: sightline.RelationOwn}}
	// p5: chatgpt on D-1 20:00 (qA).
	mf.p5 = pass(mf.qA, sightline.EngineChatGPT, "US", "best crm", uuid.New(), 0, 1, day.Add(-4*time.Hour))
	mf.p5.Mentions = []olap.Mention{
		tracked(mf.beta, "Beta", 1, rec, pos, direct),
		own(2, lst, neg, direct, "Acme lists too."),
	}
	mf.p5.Citations = []olap.Citation{cite(1, "https://news.example/a", "news.example", "A")}
	// p6: D-5, outside every window used; p7: the sibling project on D.
	mf.p6 = pass(mf.qA, sightline.EngineChatGPT, "US", "best crm", uuid.New(), 0, 1, day.AddDate(0, 0, -5))
	mf.p6.Mentions = []olap.Mention{own(1, rec, pos, direct, "Long ago."), tracked(mf.rival, "Rival", 2, rec, neg, direct)}
	mf.p6.Citations = []olap.Citation{cite(1, "https://news.example/a", "news.example", "A")}
	mf.p7 = cf.pass(mf.sibling, siblingQuery, uuid.New(), sightline.EngineChatGPT, 0, 1, day.Add(11*time.Hour))
	mf.p7.Mentions = []olap.Mention{own(1, rec, pos, direct, "Sibling."),
		tracked(mf.siblingRival, "Rival", 2, rec, neg, direct)}
	mf.p7.Citations = []olap.Citation{cite(1, "https://sibling.example/", "sibling.example", "S")}
	cf.insert(mf.p1, mf.p2, mf.p3, mf.p4, mf.p5, mf.p6, mf.p7)

	// The writer never stores two brands at one position, so a tie is
	// written by hand: qB on D 16:00, own brand and Zeta both second.
	mf.tieAnswer = uuid.New()
	second := uint16(2)
	tieRun := uuid.New()
	insert := clickhouse.Context(ctx, clickhouse.WithSettings(clickhouse.Settings{"async_insert": 0}))
	batch, err := cf.conn.PrepareBatch(insert, `INSERT INTO rank_rows (organization_id, project_id, tracked_query_id,
		run_id, pass_index, pass_count, engine, country, query_text, captured_at, capture_id, relation, competitor_id,
		mention_position, tone, own_mention_position)`)
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range []struct {
		relation   string
		competitor uuid.UUID
	}{{"own", uuid.Nil}, {"tracked-competitor", mf.zeta}} {
		if err := batch.Append(org, cf.project, mf.qB, tieRun, uint8(0), uint8(1), "perplexity", "DE",
			"crm for startups", day.Add(16*time.Hour), mf.tieAnswer, row.relation, row.competitor, &second, "neutral",
			&second); err != nil {
			t.Fatal(err)
		}
	}
	if err := batch.Send(); err != nil {
		t.Fatal(err)
	}

	// qC is deleted; its cascade has not reached the analytics store yet.
	exec(`DELETE FROM tracked_queries WHERE id = $1`, mf.qC)
	mf.window = "dateFrom=" + mf.date(-1) + "&dateTo=" + mf.date(0)
	return mf
}

// date is D plus days, as a query parameter.
func (mf *mentionsFixture) date(days int) string {
	return mf.day.AddDate(0, 0, days).Format(time.DateOnly)
}

// ok fetches path under the project and fails unless it answers 200.
func (mf *mentionsFixture) ok(t *testing.T, path string) []byte {
	t.Helper()
	r := mf.get(mf.path(path))
	if r.status != http.StatusOK {
		t.Fatalf("GET %s: %d %s", path, r.status, r.body)
	}
	return r.body
}

// mentionsSame compares a JSON body with want (marshalled), numbers to
// within rounding.
func mentionsSame(t *testing.T, what string, body []byte, want any) {
	t.Helper()
	var got any
	if err := json.Unmarshal(body, &got); err != nil {
		t.Fatalf("%s: %v\n%s", what, err, body)
	}
	if w := capturesJSON(t, want); !mentionsApprox(got, w) {
		wantBody, _ := json.Marshal(w)
		t.Fatalf("%s\n got %s\nwant %s", what, body, wantBody)
	}
}

func mentionsApprox(a, b any) bool {
	switch x := a.(type) {
	case float64:
		y, ok := b.(float64)
		return ok && math.Abs(x-y) <= 1e-9*math.Max(1, math.Abs(y))
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, v := range x {
			if w, ok := y[k]; !ok || !mentionsApprox(v, w) {
				return false
			}
		}
		return true
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !mentionsApprox(x[i], y[i]) {
				return false
			}
		}
		return true
	}
	return reflect.DeepEqual(a, b)
}

// sample is the expected record of mention i of pass p; deleted blanks the
// query's country and text.
func (mf *mentionsFixture) sample(p olap.PassRows, i int, deleted bool) olap.MentionSample {
	m := p.Mentions[i]
	s := olap.MentionSample{ID: p.MentionID(i), AIResponseID: p.CaptureID(), TrackedQueryID: p.TrackedQueryID,
		DetectedAt: sightline.Timestamp{Time: p.CapturedAt}, MentionText: m.Sentence, Engine: p.Engine,
		Country: &p.Country, QueryText: p.QueryText, Sentiment: m.Tone, MentionType: m.Type,
		MentionPosition: m.Position, CompetitorID: m.CompetitorID, MentionRelation: m.Relation, BrandName: m.BrandName}
	if deleted {
		s.Country, s.QueryText = nil, ""
	}
	return s
}

// byID orders samples captured at the same instant: by id.
func mentionsByID(samples ...olap.MentionSample) []olap.MentionSample {
	slices.SortFunc(samples, func(a, b olap.MentionSample) int { return strings.Compare(a.ID.String(), b.ID.String()) })
	return samples
}

func TestMentionSamples(t *testing.T) {
	t.Parallel()
	mf := mentionsSetup(t)
	p1, p2, p3, p4, p5 := mf.p1, mf.p2, mf.p3, mf.p4, mf.p5
	s := mf.sample
	// Rows without a competitor id in the window, newest first: p4 (D 14:00,
	// deleted query), p3 (D 12:00), p1 and p2 (D 10:00), p5 (D-1).
	recent := slices.Concat(mentionsByID(s(p4, 0, true), s(p4, 1, true)), []olap.MentionSample{s(p3, 0, false)},
		mentionsByID(s(p1, 0, false), s(p1, 2, false), s(p2, 1, false)), []olap.MentionSample{s(p5, 1, false)})
	concat := func(parts ...[]olap.MentionSample) []olap.MentionSample { return slices.Concat(parts...) }
	one := func(x ...olap.MentionSample) []olap.MentionSample { return append([]olap.MentionSample{}, x...) }

	tests := []struct {
		name  string
		query string
		want  []olap.MentionSample
		total int
	}{
		{"own brand and untracked competitors, newest first", "", recent, 7},
		{"negative tone first", "&sortBy=negative",
			concat(one(s(p3, 0, false), s(p5, 1, false)), mentionsByID(s(p4, 0, true), s(p4, 1, true)),
				mentionsByID(s(p1, 0, false), s(p1, 2, false), s(p2, 1, false))), 7},
		{"by engine", "&sortBy=engine",
			concat(mentionsByID(s(p1, 0, false), s(p1, 2, false), s(p2, 1, false)), one(s(p5, 1, false)),
				mentionsByID(s(p4, 0, true), s(p4, 1, true)), one(s(p3, 0, false))), 7},
		{"by country, the deleted query's stored one", "&sortBy=country",
			concat(one(s(p3, 0, false)), mentionsByID(s(p4, 0, true), s(p4, 1, true)),
				mentionsByID(s(p1, 0, false), s(p1, 2, false), s(p2, 1, false)), one(s(p5, 1, false))), 7},
		{"paging", "&limit=2&offset=1", recent[1:3], 7},
		{"offset past the end", "&offset=7", one(), 7},
		{"sentiment", "&sentiment=negative", one(s(p3, 0, false), s(p5, 1, false)), 2},
		{"mention type", "&mentionType=recommendation", one(s(p4, 0, true), s(p1, 0, false)), 2},
		{"sentiment and mention type", "&sentiment=neutral&mentionType=listing", one(s(p1, 2, false)), 1},
		{"a competitor", "&competitorId=" + mf.rival.String(),
			concat(one(s(p3, 2, false)), mentionsByID(s(p1, 1, false), s(p2, 0, false))), 3},
		{"a competitor and a tone", "&competitorId=" + mf.rival.String() + "&sentiment=positive",
			one(s(p3, 2, false), s(p2, 0, false)), 2},
		{"a competitor, type and tone", "&competitorId=" + mf.beta.String() + "&sentiment=neutral&mentionType=listing",
			one(s(p3, 1, false)), 1},
		{"a competitor never named", "&competitorId=" + mf.delta.String(), one(), 0},
		{"engines and countries", "&engines=chatgpt&countries=united+states",
			concat(mentionsByID(s(p1, 0, false), s(p1, 2, false), s(p2, 1, false)), one(s(p5, 1, false))), 4},
		{"countries by code", "&countries=de", one(s(p3, 0, false)), 1},
		{"search engines answer nothing", "&engines=google_serp,google_shopping", one(), 0},
		{"one day", "&dateTo=" + mf.date(-1), one(s(p5, 1, false)), 1},
		{"a far dateTo", "&dateTo=9999-12-31", recent, 7},
		{"a window after tomorrow", "&dateTo=9999-12-31&dateFrom=2999-01-01", one(), 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := "/mentions?" + mf.window + tt.query
			if strings.HasPrefix(tt.query, "&dateTo=") {
				path = "/mentions?dateFrom=" + mf.date(-1) + tt.query
				if strings.Contains(tt.query, "dateFrom") {
					path = "/mentions?" + strings.TrimPrefix(tt.query, "&")
				}
			}
			mentionsSame(t, path, mf.ok(t, path), mentionSamples{Samples: tt.want, Total: tt.total})
			if strings.Contains(tt.query, "offset=") || strings.Contains(tt.query, "limit=") {
				return
			}
			// Every page of every size is the same slice of that order,
			// wherever it starts and ends among days and sort groups.
			for _, limit := range []int{1, 3} {
				for offset := 0; offset <= len(tt.want); offset++ {
					paged := fmt.Sprintf("%s&limit=%d&offset=%d", path, limit, offset)
					want := tt.want[offset:min(offset+limit, len(tt.want))]
					mentionsSame(t, paged, mf.ok(t, paged), mentionSamples{Samples: want, Total: tt.total})
				}
			}
		})
	}

	t.Run("records as served", func(t *testing.T) {
		body := mf.ok(t, "/mentions?"+mf.window+"&sentiment=negative&limit=1")
		var page struct {
			Samples []map[string]any `json:"samples"`
			Total   int              `json:"total"`
		}
		if err := json.Unmarshal(body, &page); err != nil {
			t.Fatal(err)
		}
		want := map[string]any{
			"id": p3.MentionID(0).String(), "aiResponseId": p3.CaptureID().String(), "trackedQueryId": mf.qB.String(),
			"detectedAt": p3.CapturedAt.Format(sightline.TimestampLayout), "mentionText": "Acme is expensive.",
			"engine": "perplexity", "country": "DE", "queryText": "crm for startups", "sentiment": "negative",
			"mentionType": "reference", "mentionPosition": 1.0, "competitorId": nil, "mentionRelation": "own",
			"brandName": "Acme",
		}
		if !reflect.DeepEqual(page.Samples[0], want) || page.Total != 2 {
			t.Fatalf("record %v total %d\nwant %v total 2", page.Samples[0], page.Total, want)
		}
	})

	t.Run("deleted query", func(t *testing.T) {
		body := mf.ok(t, "/mentions?"+mf.window+"&engines=google_ai_overview&mentionType=recommendation")
		var page struct {
			Samples []map[string]any `json:"samples"`
		}
		if err := json.Unmarshal(body, &page); err != nil {
			t.Fatal(err)
		}
		if len(page.Samples) != 1 || page.Samples[0]["country"] != nil || page.Samples[0]["queryText"] != "" ||
			page.Samples[0]["trackedQueryId"] != mf.qC.String() {
			t.Fatalf("deleted query's sample: %s", body)
		}
	})
}

func TestMentionMix(t *testing.T) {
	t.Parallel()
	mf := mentionsSetup(t)
	mix := func(rec, cmp, lst, exm, ref, pos, neu, neg, direct, hedged, total int64) olap.MentionMix {
		return olap.MentionMix{
			ByType:      olap.MentionMixTypes{Recommendation: rec, Comparison: cmp, Listing: lst, Example: exm, Reference: ref},
			ByTone:      olap.MentionMixTones{Positive: pos, Neutral: neu, Negative: neg},
			ByQualifier: olap.MentionMixQualifiers{Direct: direct, Conditional: hedged},
			Total:       total,
		}
	}
	// The own brand's mentions in the window: p1 (recommendation, positive,
	// direct), p2 (example, neutral, conditional), p3 (reference, negative,
	// direct), p4 (recommendation, positive, direct, its query deleted but
	// not yet cascaded), p5 (listing, negative, direct). Competitors and
	// untracked brands never count.
	for _, tt := range []struct {
		name, query string
		want        olap.MentionMix
	}{
		{"window", mf.window, mix(2, 0, 1, 1, 1, 2, 1, 2, 4, 1, 5)},
		{"chatgpt", mf.window + "&engines=chatgpt", mix(1, 0, 1, 1, 0, 1, 1, 1, 2, 1, 3)},
		{"Germany", mf.window + "&countries=Germany", mix(0, 0, 0, 0, 1, 0, 0, 1, 1, 0, 1)},
		{"one day", "dateFrom=" + mf.date(0) + "&dateTo=" + mf.date(0), mix(2, 0, 0, 1, 1, 2, 1, 1, 3, 1, 4)},
		{"wider window", "dateFrom=" + mf.date(-5) + "&dateTo=" + mf.date(2), mix(3, 0, 1, 1, 1, 3, 1, 2, 5, 1, 6)},
		{"empty window", "dateFrom=" + mf.date(-3) + "&dateTo=" + mf.date(-2), mix(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)},
		{"search engines", mf.window + "&engines=google_serp", mix(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			mentionsSame(t, tt.query, mf.ok(t, "/mentions/mix?"+tt.query), tt.want)
		})
	}
}

// tone is the expected sentiment of mentions with these tones.
func mentionsTone(positive, neutral, negative int64) olap.SentimentFigures {
	n := positive + neutral + negative
	t := olap.SentimentFigures{Positive: positive, Neutral: neutral, Negative: negative, MentionCount: n}
	if n > 0 {
		p := (float64(positive) + 0.5*float64(neutral)) / float64(n)
		t.PositivityIndex, t.PositivityIndexInterval = ptr(100*p), olap.WilsonInterval(p, n)
	}
	return t
}

func TestSentiment(t *testing.T) {
	t.Parallel()
	mf := mentionsSetup(t)
	engines := func(rows ...olap.SentimentFigures) []olap.EngineSentiment {
		all := []sightline.Engine{sightline.EngineChatGPT, sightline.EnginePerplexity, sightline.EngineGoogleAIOverview,
			sightline.EngineGoogleAIMode}
		out := []olap.EngineSentiment{}
		for i, r := range rows {
			out = append(out, olap.EngineSentiment{Engine: all[i], SentimentFigures: r})
		}
		return out
	}
	competitors := func(beta, delta, rival, zeta olap.SentimentFigures) []competitorSentiment {
		return []competitorSentiment{{mf.beta, "Beta", beta}, {mf.delta, "Delta", delta}, {mf.rival, "Rival", rival},
			{mf.zeta, "Zeta", zeta}}
	}
	none := mentionsTone(0, 0, 0)

	// Hand counts over the window. Own brand: chatgpt p1 positive, p2
	// neutral, p5 negative (index 50); perplexity p3 negative (0);
	// google_ai_overview p4 positive (100); google_ai_mode none (null).
	// Beta: p3 neutral, p5 positive (75). Rival: p1 negative, p2 and p3
	// positive (66.7). Delta and Zeta: never named (null).
	window := sentimentAnswer{
		PerEngine:     engines(mentionsTone(1, 1, 1), mentionsTone(0, 0, 1), mentionsTone(1, 0, 0), none),
		PerCompetitor: competitors(mentionsTone(1, 1, 0), none, mentionsTone(2, 0, 1), none),
	}
	if got := *window.PerEngine[0].PositivityIndex; got != 50 {
		t.Fatalf("hand count: chatgpt index %v, want 50", got)
	}
	if got := *window.PerCompetitor[0].PositivityIndex; got != 75 {
		t.Fatalf("hand count: Beta index %v, want 75", got)
	}
	gone, err := oltp.CreateCluster(context.Background(), mf.pool, mf.project, "gone")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := oltp.DeleteCluster(context.Background(), mf.pool, mf.org, mf.project, gone.ID); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name, query string
		want        sentimentAnswer
	}{
		{"window", mf.window, window},
		{"engines: AI engines asked for only", mf.window + "&engines=google_serp,perplexity", sentimentAnswer{
			PerEngine:     []olap.EngineSentiment{{Engine: sightline.EnginePerplexity, SentimentFigures: mentionsTone(0, 0, 1)}},
			PerCompetitor: competitors(mentionsTone(0, 1, 0), none, mentionsTone(1, 0, 0), none)}},
		{"search engines only", mf.window + "&engines=google_shopping", sentimentAnswer{
			PerEngine: []olap.EngineSentiment{}, PerCompetitor: competitors(none, none, none, none)}},
		{"cluster", mf.window + "&queryClusterIds=" + mf.enterprise.String(), sentimentAnswer{
			PerEngine:     engines(mentionsTone(1, 1, 1), none, none, none),
			PerCompetitor: competitors(mentionsTone(1, 0, 0), none, mentionsTone(1, 0, 1), none)}},
		{"ungrouped alone narrows to them", mf.window + "&includeUngroupedQueries=true", sentimentAnswer{
			// qB only: qC is deleted, so no longer among the ungrouped queries.
			PerEngine:     engines(none, mentionsTone(0, 0, 1), none, none),
			PerCompetitor: competitors(mentionsTone(0, 1, 0), none, mentionsTone(1, 0, 0), none)}},
		{"cluster and ungrouped", mf.window + "&queryClusterIds=" + mf.enterprise.String() + "&includeUngroupedQueries=true",
			sentimentAnswer{
				PerEngine:     engines(mentionsTone(1, 1, 1), mentionsTone(0, 0, 1), none, none),
				PerCompetitor: competitors(mentionsTone(1, 1, 0), none, mentionsTone(2, 0, 1), none)}},
		{"empty cluster", mf.window + "&queryClusterIds=" + mf.smb.String(), sentimentAnswer{
			PerEngine: engines(none, none, none, none), PerCompetitor: competitors(none, none, none, none)}},
		{"deleted cluster", mf.window + "&queryClusterIds=" + gone.ID.String(), sentimentAnswer{
			PerEngine: engines(none, none, none, none), PerCompetitor: competitors(none, none, none, none)}},
		{"empty window", "dateFrom=" + mf.date(-3) + "&dateTo=" + mf.date(-2), sentimentAnswer{
			PerEngine: engines(none, none, none, none), PerCompetitor: competitors(none, none, none, none)}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			mentionsSame(t, tt.query, mf.ok(t, "/sentiment?"+tt.query), tt.want)
		})
	}
}

func TestCitedSources(t *testing.T) {
	t.Parallel()
	mf := mentionsSetup(t)
	source := func(domain, url string, citations, answers, queries int64, avg float64, title string) olap.CitedSource {
		s := olap.CitedSource{Domain: &domain, CitationCount: citations, DistinctResponseCount: answers,
			DistinctQueryCount: queries, AvgPosition: &avg}
		if url != "" {
			s.URL = &url
		}
		if title != "" {
			s.SampleTitle = &title
		}
		return s
	}
	// Resolved citations in the window (the redirect in p1 is left out):
	// news.example: /a in p1 (2), p2 (1), p3 (1), p5 (1) and /b in p2 (2):
	// 5 citations, 4 answers, 2 queries (qA, qB), positions 7 / 5.
	// acme.com: /pricing in p1 (1), / in p4 (1). beta.example: / in p3 (2).
	domains := []olap.CitedSource{
		source("news.example", "", 5, 4, 2, 1.4, "A Title"),
		source("acme.com", "", 2, 2, 2, 1, "Pricing"),
		source("beta.example", "", 1, 1, 1, 2, "Beta"),
	}
	pages := []olap.CitedSource{
		source("news.example", "https://news.example/a", 4, 4, 2, 1.25, "A Title"),
		source("acme.com", "https://acme.com/", 1, 1, 1, 1, "Acme"),
		source("acme.com", "https://acme.com/pricing", 1, 1, 1, 1, "Pricing"),
		source("beta.example", "https://beta.example/", 1, 1, 1, 2, "Beta"),
		source("news.example", "https://news.example/b", 1, 1, 1, 2, ""),
	}
	for _, tt := range []struct {
		name, query string
		want        citedSourcesAnswer
	}{
		{"by domain (default)", mf.window, citedSourcesAnswer{Sources: domains, Total: 3}},
		{"by domain", mf.window + "&groupBy=domain", citedSourcesAnswer{Sources: domains, Total: 3}},
		{"by page", mf.window + "&groupBy=page", citedSourcesAnswer{Sources: pages, Total: 5}},
		{"page of pages", mf.window + "&groupBy=page&limit=2&offset=1", citedSourcesAnswer{Sources: pages[1:3], Total: 5}},
		{"past the last page", mf.window + "&groupBy=page&offset=5", citedSourcesAnswer{Sources: []olap.CitedSource{}, Total: 5}},
		{"perplexity: ties by domain", mf.window + "&engines=perplexity", citedSourcesAnswer{Sources: []olap.CitedSource{
			source("beta.example", "", 1, 1, 1, 2, "Beta"), source("news.example", "", 1, 1, 1, 1, "A Title")}, Total: 2}},
		{"search engines answer nothing", mf.window + "&engines=google_serp,google_shopping",
			citedSourcesAnswer{Sources: []olap.CitedSource{}, Total: 0}},
		{"empty window", "dateFrom=" + mf.date(-3) + "&dateTo=" + mf.date(-2),
			citedSourcesAnswer{Sources: []olap.CitedSource{}, Total: 0}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			mentionsSame(t, tt.query, mf.ok(t, "/cited-sources?"+tt.query), tt.want)
		})
	}
}

func TestCoOccurrence(t *testing.T) {
	t.Parallel()
	mf := mentionsSetup(t)
	row := func(id uuid.UUID, name string, shared, wins, losses, ties int64, own, theirs float64, example olap.PassRows,
		answer uuid.UUID) coOccurrenceRow {
		c := olap.CoOccurrence{SharedResponseCount: shared, BrandWins: wins, CompetitorWins: losses, Ties: ties,
			AvgOwnPosition: &own, AvgCompetitorPosition: &theirs, ExampleQueryText: &example.QueryText,
			ExampleAIResponseID: &answer}
		c.WinRate, c.WinRateInterval = ptr(100*float64(wins)/float64(shared)), olap.WilsonInterval(float64(wins)/float64(shared), shared)
		return coOccurrenceRow{CompetitorID: id, Name: name, CoOccurrence: c}
	}
	never := func(id uuid.UUID, name string) coOccurrenceRow { return coOccurrenceRow{CompetitorID: id, Name: name} }
	p3 := mf.p3
	// Shared answers in the window. Rival: p1 (own 1, Rival 2: win), p2
	// (own 2, Rival 1: loss), p3 (own 1, Rival 3: win). Beta: p3 (own 1,
	// Beta 2: win), p5 (own 2, Beta 1: loss). Zeta: the hand-written tie at
	// D 16:00 (both 2). Delta: never. Examples are the latest shared answer.
	window := coOccurrenceAnswer{Competitors: []coOccurrenceRow{
		row(mf.beta, "Beta", 2, 1, 1, 0, 1.5, 1.5, p3, p3.CaptureID()),
		never(mf.delta, "Delta"),
		row(mf.rival, "Rival", 3, 2, 1, 0, 4.0/3, 2, p3, p3.CaptureID()),
		row(mf.zeta, "Zeta", 1, 0, 0, 1, 2, 2, p3, mf.tieAnswer),
	}}
	if w := window.Competitors[2].WinRate; math.Abs(*w-66.66666666666667) > 1e-9 {
		t.Fatalf("hand count: Rival win rate %v", *w)
	}
	chatgpt := coOccurrenceAnswer{Competitors: []coOccurrenceRow{
		row(mf.beta, "Beta", 1, 0, 1, 0, 2, 1, mf.p5, mf.p5.CaptureID()),
		never(mf.delta, "Delta"),
		row(mf.rival, "Rival", 2, 1, 1, 0, 1.5, 1.5, mf.p1, mf.p1.CaptureID()),
		never(mf.zeta, "Zeta"),
	}}
	// p1 and p2 are passes of one run, captured at the same instant: either
	// is the latest shared answer with Rival on chatgpt.
	var served coOccurrenceAnswer
	if err := json.Unmarshal(mf.ok(t, "/competitors/co-occurrence?"+mf.window+"&engines=chatgpt"), &served); err != nil {
		t.Fatal(err)
	}
	if id := served.Competitors[2].ExampleAIResponseID; id != nil && *id == mf.p2.CaptureID() {
		chatgpt.Competitors[2] = row(mf.rival, "Rival", 2, 1, 1, 0, 1.5, 1.5, mf.p2, mf.p2.CaptureID())
	}
	for _, tt := range []struct {
		name, query string
		want        coOccurrenceAnswer
	}{
		{"window", mf.window, window},
		{"one competitor", mf.window + "&competitorId=" + mf.rival.String(),
			coOccurrenceAnswer{Competitors: window.Competitors[2:3]}},
		{"a competitor never named with the own brand", mf.window + "&competitorId=" + mf.delta.String(),
			coOccurrenceAnswer{Competitors: window.Competitors[1:2]}},
		{"chatgpt", mf.window + "&engines=chatgpt", chatgpt},
		{"countries", mf.window + "&countries=US", chatgpt},
		{"empty window", "dateFrom=" + mf.date(-3) + "&dateTo=" + mf.date(-2), coOccurrenceAnswer{Competitors: []coOccurrenceRow{
			never(mf.beta, "Beta"), never(mf.delta, "Delta"), never(mf.rival, "Rival"), never(mf.zeta, "Zeta")}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			mentionsSame(t, tt.query, mf.ok(t, "/competitors/co-occurrence?"+tt.query), tt.want)
		})
	}
}

func TestAvailableFilters(t *testing.T) {
	t.Parallel()
	mf := mentionsSetup(t)
	// qC is deleted; the sibling project's cluster and query never show.
	mentionsSame(t, "filters", mf.ok(t, "/available-filters"), oltp.AvailableFilters{
		Engines:   []string{"chatgpt", "perplexity", "google_serp", "google_shopping"},
		Countries: []string{"DE", "FR", "US"},
		Clusters:  []oltp.Cluster{{ID: mf.enterprise, Name: "enterprise"}, {ID: mf.smb, Name: "smb"}},
	})
	empty := mf.fixture.project(mf.org, "Empty")
	r := mf.get(mf.path("/available-filters", empty))
	if r.status != http.StatusOK {
		t.Fatalf("%d %s", r.status, r.body)
	}
	mentionsSame(t, "empty project", r.body, map[string]any{"engines": []any{}, "countries": []any{}, "clusters": []any{}})
	for _, q := range []string{"?engines=chatgpt", "?dateFrom=" + mf.date(0), "?x=1"} {
		field := strings.SplitN(strings.TrimPrefix(q, "?"), "=", 2)[0]
		capturesExpectDetail(t, mf.get(mf.path("/available-filters"+q)), field, "unknown_field")
	}
}

func TestMentionsFamilyValidation(t *testing.T) {
	t.Parallel()
	mf := mentionsSetup(t)
	today := time.Now().UTC()
	monthsBack := func(n int) string { return today.AddDate(0, -n, 0).Format(time.DateOnly) }
	w := mf.window
	windowed := []string{"/mentions", "/mentions/mix", "/sentiment", "/cited-sources", "/competitors/co-occurrence"}

	type refusal struct {
		path, query string
		details     map[string]string // field -> detail code
	}
	var refusals []refusal
	for _, p := range windowed {
		refusals = append(refusals,
			refusal{p, "", map[string]string{"dateFrom": "missing_field", "dateTo": "missing_field"}},
			refusal{p, "dateFrom=" + mf.date(0), map[string]string{"dateTo": "missing_field"}},
			refusal{p, "dateFrom=" + monthsBack(17) + "&dateTo=" + mf.date(0), map[string]string{"dateFrom": "out_of_range"}},
			refusal{p, "dateFrom=" + mf.date(0) + "&dateTo=" + mf.date(-1), map[string]string{"dateTo": "out_of_range"}},
			refusal{p, "dateFrom=yesterday&dateTo=" + mf.date(0), map[string]string{"dateFrom": "invalid_value"}},
			refusal{p, w + "&engines=bing", map[string]string{"engines": "invalid_value"}},
			refusal{p, w + "&unknown=1", map[string]string{"unknown": "unknown_field"}},
		)
	}
	for _, p := range []string{"/mentions", "/mentions/mix", "/sentiment", "/competitors/co-occurrence"} {
		refusals = append(refusals,
			refusal{p, w + "&countries=JP", map[string]string{"countries": "invalid_value"}}, // not configured
			refusal{p, w + "&countries=Atlantis", map[string]string{"countries": "invalid_value"}})
	}
	refusals = append(refusals,
		refusal{"/mentions", w + "&sentiment=happy", map[string]string{"sentiment": "invalid_value"}},
		refusal{"/mentions", w + "&mentionType=mention", map[string]string{"mentionType": "invalid_value"}},
		refusal{"/mentions", w + "&sortBy=oldest", map[string]string{"sortBy": "invalid_value"}},
		refusal{"/mentions", w + "&competitorId=nope", map[string]string{"competitorId": "invalid_uuid"}},
		refusal{"/mentions", w + "&competitorId=" + uuid.NewString(), map[string]string{"competitorId": "invalid_value"}},
		refusal{"/mentions", w + "&competitorId=" + mf.siblingRival.String(), map[string]string{"competitorId": "invalid_value"}},
		refusal{"/mentions", "competitorId=" + uuid.NewString(),
			map[string]string{"dateFrom": "missing_field", "dateTo": "missing_field", "competitorId": "invalid_value"}},
		refusal{"/mentions", w + "&limit=101", map[string]string{"limit": "out_of_range"}},
		refusal{"/mentions", w + "&limit=0", map[string]string{"limit": "out_of_range"}},
		refusal{"/mentions", w + "&offset=-1", map[string]string{"offset": "out_of_range"}},
		refusal{"/mentions", w + "&sentiment=positive&sentiment=negative", map[string]string{"sentiment": "invalid_value"}},
		refusal{"/mentions", w + "&queryClusterIds=" + mf.enterprise.String(), map[string]string{"queryClusterIds": "unknown_field"}},
		refusal{"/mentions/mix", w + "&queryClusterIds=" + mf.enterprise.String(), map[string]string{"queryClusterIds": "unknown_field"}},
		refusal{"/mentions/mix", w + "&sortBy=recent", map[string]string{"sortBy": "unknown_field"}},
		refusal{"/sentiment", w + "&queryClusterIds=" + uuid.NewString(), map[string]string{"queryClusterIds": "invalid_value"}},
		refusal{"/sentiment", w + "&includeUngroupedQueries=yes", map[string]string{"includeUngroupedQueries": "invalid_type"}},
		refusal{"/sentiment", w + "&limit=10", map[string]string{"limit": "unknown_field"}},
		refusal{"/cited-sources", w + "&groupBy=site", map[string]string{"groupBy": "invalid_value"}},
		refusal{"/cited-sources", w + "&limit=101", map[string]string{"limit": "out_of_range"}},
		refusal{"/cited-sources", w + "&countries=US", map[string]string{"countries": "unknown_field"}},
		refusal{"/cited-sources", w + "&queryClusterIds=" + mf.enterprise.String(), map[string]string{"queryClusterIds": "unknown_field"}},
		refusal{"/competitors/co-occurrence", w + "&competitorId=" + uuid.NewString(), map[string]string{"competitorId": "invalid_value"}},
		refusal{"/competitors/co-occurrence", w + "&competitorId=" + mf.siblingRival.String(), map[string]string{"competitorId": "invalid_value"}},
		refusal{"/competitors/co-occurrence", w + "&competitorId=x", map[string]string{"competitorId": "invalid_uuid"}},
		refusal{"/competitors/co-occurrence", w + "&limit=5", map[string]string{"limit": "unknown_field"}},
	)
	for _, r := range refusals {
		res := mf.get(mf.path(r.path + "?" + r.query))
		m := assertError(t, res, http.StatusBadRequest, sightline.CodeValidation)
		got := detailCodesOf(t, m)
		for field, code := range r.details {
			if !slices.Contains(got[field], code) {
				t.Errorf("%s?%s: details %v, want %s %s", r.path, r.query, got, field, code)
			}
		}
		if len(got) != len(r.details) {
			t.Errorf("%s?%s: details %v, want only %v", r.path, r.query, got, r.details)
		}
	}

	// The retention floor: 15 months back is inside it.
	for _, p := range windowed {
		if res := mf.get(mf.path(p + "?dateFrom=" + monthsBack(15) + "&dateTo=" + today.Format(time.DateOnly))); res.status != http.StatusOK {
			t.Errorf("%s from 15 months back: %d %s", p, res.status, res.body)
		}
	}
}

func TestMentionsFamilyNotFound(t *testing.T) {
	t.Parallel()
	mf := mentionsSetup(t)
	_, theirOrg := mf.fixture.owner()
	theirProject := mf.fixture.project(theirOrg, "Theirs")
	paths := []string{"/mentions?" + mf.window, "/mentions/mix?" + mf.window, "/sentiment?" + mf.window,
		"/cited-sources?" + mf.window, "/competitors/co-occurrence?" + mf.window, "/available-filters"}
	for _, p := range paths {
		// Another organization's project under our organization, and under
		// its own (which our key cannot see); an unknown project.
		assertError(t, mf.get(mf.path(p, theirProject)), http.StatusNotFound, sightline.CodeOrganizationNotFound)
		res := mf.get(strings.Replace(mf.path(p, theirProject), mf.org.String(), theirOrg.String(), 1))
		if res.status != http.StatusNotFound {
			t.Errorf("%s in another organization: %d %s", p, res.status, res.body)
		}
		assertError(t, mf.get(mf.path(p, uuid.New())), http.StatusNotFound, sightline.CodeOrganizationNotFound)
	}
}

func TestMentionSamplesRollupAhead(t *testing.T) {
	t.Parallel()
	mf := mentionsSetup(t)
	// A rollup row with no raw rows behind it (two own mentions of qA on D,
	// as a pass counted twice by the views would leave): the total counts
	// them, but pages are the raw table's: newest first, the read starts at
	// the window's last day with the requested offset, and a short page
	// that did not reach the window's first day is read again over all of
	// it.
	insert := clickhouse.Context(context.Background(), clickhouse.WithSettings(clickhouse.Settings{"async_insert": 0}))
	if err := mf.conn.Exec(insert, `INSERT INTO mentions_daily (project_id, day, tracked_query_id, engine, country, relation,
		competitor_id, mentions, worth, tone_positive, type_recommendation, qualifier_direct)
		VALUES (?, ?, ?, 'chatgpt', 'US', 'own', ?, 2, 2.4, 2, 2, 2)`, mf.project, mf.day, mf.qA, uuid.Nil); err != nil {
		t.Fatal(err)
	}
	s := mf.sample
	for _, tt := range []struct {
		query string
		want  []olap.MentionSample
	}{
		{"&offset=6&limit=2", []olap.MentionSample{s(mf.p5, 1, false)}},
		{"&offset=5&limit=1", mentionsByID(s(mf.p1, 0, false), s(mf.p1, 2, false), s(mf.p2, 1, false))[2:]},
		{"&offset=8&limit=1", []olap.MentionSample{}},
		{"&offset=3&limit=3", append(mentionsByID(s(mf.p1, 0, false), s(mf.p1, 2, false), s(mf.p2, 1, false)),
			s(mf.p5, 1, false))[:3]},
	} {
		path := "/mentions?" + mf.window + tt.query
		mentionsSame(t, path, mf.ok(t, path), mentionSamples{Samples: tt.want, Total: 9})
	}
}

func TestMentionsFamilyAfterCascades(t *testing.T) {
	t.Parallel()
	mf := mentionsSetup(t)
	ctx := context.Background()
	// The cascades of deleting qC and Rival: window reads that span every
	// tracked query are served by the rollups' projections, which the
	// deletes must reach as well as the rollups themselves.
	if err := olap.DeleteTrackedQueries(ctx, mf.conn, mf.project, []uuid.UUID{mf.qC}); err != nil {
		t.Fatal(err)
	}
	if err := olap.DeleteCompetitor(ctx, mf.conn, mf.project, mf.rival); err != nil {
		t.Fatal(err)
	}
	// Own mentions without p4: p1, p2, p3, p5.
	mentionsSame(t, "mix", mf.ok(t, "/mentions/mix?"+mf.window), olap.MentionMix{
		ByType:      olap.MentionMixTypes{Recommendation: 1, Listing: 1, Example: 1, Reference: 1},
		ByTone:      olap.MentionMixTones{Positive: 1, Neutral: 1, Negative: 2},
		ByQualifier: olap.MentionMixQualifiers{Direct: 3, Conditional: 1},
		Total:       4,
	})
	mentionsSame(t, "samples", mf.ok(t, "/mentions?"+mf.window+"&sortBy=engine&limit=1&offset=3"), mentionSamples{
		Samples: []olap.MentionSample{mf.sample(mf.p5, 1, false)}, Total: 5})
	scope := olap.Scope{ProjectID: mf.project, From: mf.day.AddDate(0, 0, -1), To: mf.day}
	perEngine, perCompetitor, err := mf.server.analytics.Sentiment(ctx, scope, []uuid.UUID{mf.rival, mf.beta})
	if err != nil {
		t.Fatal(err)
	}
	mentionsSame(t, "sentiment", mentionsJSONBytes(t, sentimentAnswer{PerEngine: perEngine}), sentimentAnswer{
		PerEngine: []olap.EngineSentiment{{Engine: sightline.EngineChatGPT, SentimentFigures: mentionsTone(1, 1, 1)},
			{Engine: sightline.EnginePerplexity, SentimentFigures: mentionsTone(0, 0, 1)},
			{Engine: sightline.EngineGoogleAIOverview, SentimentFigures: mentionsTone(0, 0, 0)},
			{Engine: sightline.EngineGoogleAIMode, SentimentFigures: mentionsTone(0, 0, 0)}}})
	if !reflect.DeepEqual(perCompetitor, []olap.SentimentFigures{mentionsTone(0, 0, 0), mentionsTone(1, 1, 0)}) {
		t.Fatalf("competitors after the cascade: %+v", perCompetitor)
	}
	pairs, err := mf.server.analytics.CoOccurrences(ctx, scope, []uuid.UUID{mf.rival})
	if err != nil {
		t.Fatal(err)
	}
	if pairs[0].SharedResponseCount != 0 || pairs[0].ExampleAIResponseID != nil {
		t.Fatalf("Rival still shares answers after its cascade: %+v", pairs[0])
	}
	// acme.com/ was cited in p4 only: acme.com keeps p1's citation.
	var sources citedSourcesAnswer
	if err := json.Unmarshal(mf.ok(t, "/cited-sources?"+mf.window), &sources); err != nil {
		t.Fatal(err)
	}
	if sources.Total != 3 || sources.Sources[1].CitationCount != 1 || *sources.Sources[1].Domain != "acme.com" ||
		sources.Sources[1].DistinctQueryCount != 1 {
		t.Fatalf("cited sources after the cascade: %+v", sources)
	}
}

// mentionsJSONBytes marshals v.
func mentionsJSONBytes(t *testing.T, v any) []byte {
	t.Helper()
	raw, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return raw
}
