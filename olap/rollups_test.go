package olap_test

import (
	"context"
	"math"
	"testing"

	"github.com/google/uuid"
	"github.com/sightline/sightline/olap/olaptest"
)

// capturesBrand is one brand's figures read from the rollups.
type capturesBrand struct {
	mentions                    uint64
	worth                       float64
	positive, neutral, negative uint64
	recommendation, reference   uint64
	direct, conditional         uint64
}

// capturesPositions is one kind of position read from ranks_daily.
type capturesPositions struct {
	count, sum, sqSum uint64
	best              *uint16
	histogram         map[uint16]uint64
}

func (p capturesPositions) avg() float64 { return float64(p.sum) / float64(p.count) }

// stability is the population standard deviation of the positions.
func (p capturesPositions) stability() float64 {
	n := float64(p.count)
	return math.Sqrt(float64(p.sqSum)/n - math.Pow(float64(p.sum)/n, 2))
}

type capturesSource struct {
	citations, answers, queries, positionSum uint64
	title                                    string
}

type capturesHeadToHead struct {
	shared, brandWins, competitorWins, ties, ownSum, competitorSum uint64
	exampleAnswer                                                  uuid.UUID
	exampleQuery                                                   string
}

// capturesRollups is what the analytics readers take from the rollups,
// read the way they read it: re-aggregated over a window with GROUP BY.
type capturesRollups struct {
	answers, serpSnapshots, shoppingSnapshots uint64 // own rows: the rate denominators
	totalWorth                                float64
	brands                                    map[uuid.UUID]capturesBrand // uuid.Nil: own
	untracked                                 capturesBrand
	ownMention, ownLink, ownSERP, ownShopping capturesPositions
	competitorSERP, competitorShopping        map[uuid.UUID]capturesPositions
	competitorMentioned                       map[uuid.UUID]uint64
	domains, pages                            map[string]capturesSource
	headToHead                                map[uuid.UUID]capturesHeadToHead
}

func capturesReadRollups(t *testing.T, f *capturesFixture) capturesRollups {
	t.Helper()
	ctx := context.Background()
	r := capturesRollups{
		brands: map[uuid.UUID]capturesBrand{}, competitorSERP: map[uuid.UUID]capturesPositions{},
		competitorShopping: map[uuid.UUID]capturesPositions{}, competitorMentioned: map[uuid.UUID]uint64{},
		domains: map[string]capturesSource{}, pages: map[string]capturesSource{}, headToHead: map[uuid.UUID]capturesHeadToHead{},
	}
	from, to := f.day.AddDate(0, 0, -1), f.day.AddDate(0, 0, 2)

	rows, err := f.conn.Query(ctx, `
		SELECT relation, competitor_id, sum(mentions), sum(worth), sum(tone_positive), sum(tone_neutral),
		       sum(tone_negative), sum(type_recommendation), sum(type_reference), sum(qualifier_direct),
		       sum(qualifier_conditional)
		FROM mentions_daily
		WHERE project_id = ? AND day BETWEEN ? AND ?
		GROUP BY relation, competitor_id`, f.project, from, to)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var (
			relation string
			id       uuid.UUID
			b        capturesBrand
		)
		if err := rows.Scan(&relation, &id, &b.mentions, &b.worth, &b.positive, &b.neutral, &b.negative,
			&b.recommendation, &b.reference, &b.direct, &b.conditional); err != nil {
			t.Fatal(err)
		}
		r.totalWorth += b.worth
		if relation == "untracked-competitor" {
			r.untracked = b
		} else {
			r.brands[id] = b
		}
	}
	rows.Close()

	rows, err = f.conn.Query(ctx, `
		SELECT if(engine IN ('google_serp', 'google_shopping'), engine, 'ai') AS kind, relation, competitor_id,
		       sum(passes), sum(mention_count),
		       sum(mention_position_sum), sum(mention_position_sq_sum), min(mention_position_min), sumMap(mention_positions),
		       sum(link_count), sum(link_position_sum), sum(link_position_sq_sum), min(link_position_min),
		       sum(serp_count), sum(serp_position_sum), sum(serp_position_sq_sum), min(serp_position_min),
		       sum(shopping_count), sum(shopping_position_sum), sum(shopping_position_sq_sum), min(shopping_position_min)
		FROM ranks_daily
		WHERE project_id = ? AND day BETWEEN ? AND ?
		GROUP BY kind, relation, competitor_id`, f.project, from, to)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var (
			kind, relation                string
			id                            uuid.UUID
			passes                        uint64
			mention, link, serp, shopping capturesPositions
		)
		if err := rows.Scan(&kind, &relation, &id, &passes, &mention.count,
			&mention.sum, &mention.sqSum, &mention.best, &mention.histogram,
			&link.count, &link.sum, &link.sqSum, &link.best,
			&serp.count, &serp.sum, &serp.sqSum, &serp.best,
			&shopping.count, &shopping.sum, &shopping.sqSum, &shopping.best); err != nil {
			t.Fatal(err)
		}
		switch {
		case relation == "own" && kind == "ai":
			r.answers, r.ownMention, r.ownLink = passes, mention, link
		case relation == "own" && kind == "google_serp":
			r.serpSnapshots, r.ownSERP = passes, serp
		case relation == "own":
			r.shoppingSnapshots, r.ownShopping = passes, shopping
		case kind == "ai":
			r.competitorMentioned[id] = mention.count
		case kind == "google_serp":
			r.competitorSERP[id] = serp
		default:
			r.competitorShopping[id] = shopping
		}
	}
	rows.Close()

	for _, by := range []struct {
		group string
		into  map[string]capturesSource
	}{{"domain", r.domains}, {"url", r.pages}} {
		rows, err = f.conn.Query(ctx, `
			SELECT `+by.group+`, sum(citations), uniqExactMerge(answers), uniqExact(tracked_query_id), sum(position_sum),
			       max(sample_title)
			FROM cited_sources_daily
			WHERE project_id = ? AND day BETWEEN ? AND ?
			GROUP BY `+by.group, f.project, from, to)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var (
				key string
				s   capturesSource
			)
			if err := rows.Scan(&key, &s.citations, &s.answers, &s.queries, &s.positionSum, &s.title); err != nil {
				t.Fatal(err)
			}
			by.into[key] = s
		}
		rows.Close()
	}

	rows, err = f.conn.Query(ctx, `
		SELECT competitor_id, sum(shared_answers), sum(brand_wins), sum(competitor_wins), sum(ties),
		       sum(own_position_sum), sum(competitor_position_sum), argMaxMerge(example)
		FROM cooccurrence_daily
		WHERE project_id = ? AND day BETWEEN ? AND ?
		GROUP BY competitor_id`, f.project, from, to)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var (
			id uuid.UUID
			h  capturesHeadToHead
			ex []any
		)
		if err := rows.Scan(&id, &h.shared, &h.brandWins, &h.competitorWins, &h.ties, &h.ownSum, &h.competitorSum, &ex); err != nil {
			t.Fatal(err)
		}
		h.exampleAnswer, h.exampleQuery = ex[0].(uuid.UUID), ex[1].(string)
		r.headToHead[id] = h
	}
	rows.Close()
	return r
}

func capturesNear(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

func TestRollupsServeEveryMetric(t *testing.T) {
	t.Parallel()
	f := newCapturesFixture(t)
	d := f.dataset()
	// Two inserts, so the rollups hold several partial rows per key to re-aggregate.
	if err := olaptest.InsertPasses(context.Background(), f.conn, d.passes[:2]); err != nil {
		t.Fatal(err)
	}
	if err := olaptest.InsertPasses(context.Background(), f.conn, d.passes[2:]); err != nil {
		t.Fatal(err)
	}
	r := capturesReadRollups(t, f)

	// Share of voice: worth = weight(type) x multiplier(tone) x qualifier multiplier.
	own, a, b := r.brands[uuid.Nil], r.brands[f.compA], r.brands[f.compB]
	if !capturesNear(r.totalWorth, 4.7) || !capturesNear(own.worth, 1.35) || !capturesNear(a.worth, 1.64) ||
		!capturesNear(b.worth, 1.5) || !capturesNear(r.untracked.worth, 0.21) || r.untracked.mentions != 1 {
		t.Errorf("worth: total %v, own %v, A %v, B %v, untracked %v; want 4.7, 1.35, 1.64, 1.5, 0.21",
			r.totalWorth, own.worth, a.worth, b.worth, r.untracked.worth)
	}
	if sov := 100 * own.worth / r.totalWorth; math.Abs(sov-28.7234) > 1e-3 {
		t.Errorf("own share of voice = %v, want 28.72", sov)
	}

	// Mention rate, positions and their stability.
	if r.answers != 3 || r.ownMention.count != 2 || own.mentions != 2 {
		t.Errorf("answers %d, naming own %d (mentions %d); want 3 and 2", r.answers, r.ownMention.count, own.mentions)
	}
	if m := r.ownMention; m.avg() != 1.5 || m.stability() != 0.5 || m.best == nil || *m.best != 1 ||
		m.histogram[1] != 1 || m.histogram[2] != 1 || len(m.histogram) != 2 {
		t.Errorf("own mention positions = %+v, want mean 1.5, stability 0.5, best 1, one each at 1 and 2", m)
	}
	if l := r.ownLink; l.count != 2 || l.avg() != 1.5 || *l.best != 1 {
		t.Errorf("own link positions = %+v, want 2 links averaging 1.5", l)
	}
	if r.competitorMentioned[f.compA] != 2 || r.competitorMentioned[f.compB] != 2 {
		t.Errorf("competitor mention counts = %v, want 2 each", r.competitorMentioned)
	}

	// Sentiment (positivity = 100 x (positive + 0.5 neutral) / mentions) and the own mention mix.
	positivity := func(b capturesBrand) float64 {
		return 100 * (float64(b.positive) + 0.5*float64(b.neutral)) / float64(b.mentions)
	}
	if positivity(own) != 50 || positivity(a) != 75 {
		t.Errorf("positivity own %v, A %v; want 50 and 75", positivity(own), positivity(a))
	}
	if own.recommendation != 1 || own.reference != 1 || own.positive != 1 || own.negative != 1 || own.direct != 2 || own.conditional != 0 {
		t.Errorf("own mix = %+v", own)
	}
	if a.conditional != 1 || a.direct != 1 {
		t.Errorf("A qualifiers = %+v, want one of each", a)
	}

	// Search and shopping: rates over snapshots, best rank per snapshot.
	if r.serpSnapshots != 2 || r.ownSERP.count != 2 || r.ownSERP.avg() != 2 || r.ownSERP.stability() != 1 {
		t.Errorf("serp: %d snapshots, own %+v; want 2 of 2 at mean 2, stability 1", r.serpSnapshots, r.ownSERP)
	}
	if c := r.competitorSERP[f.compA]; c.count != 1 || c.avg() != 1 {
		t.Errorf("A serp = %+v, want 1 snapshot at rank 1", c)
	}
	if r.shoppingSnapshots != 2 || r.ownShopping.count != 1 || r.ownShopping.avg() != 1 {
		t.Errorf("shopping: %d snapshots, own %+v; want 1 of 2 at rank 1", r.shoppingSnapshots, r.ownShopping)
	}
	if c := r.competitorShopping[f.compB]; c.count != 1 || c.avg() != 2 {
		t.Errorf("B shopping = %+v, want rank 2", c)
	}

	// Cited sources: unresolved left out; distinct answers and queries per domain and page.
	news := r.domains[f.newsDomain]
	if news.citations != 3 || news.answers != 3 || news.queries != 2 || float64(news.positionSum)/3 != 2 || news.title != "news.example page" {
		t.Errorf("news.example = %+v, want 3 citations in 3 answers of 2 queries at mean position 2", news)
	}
	if o := r.domains[f.ownDomain]; o.citations != 2 || o.answers != 2 || o.queries != 1 {
		t.Errorf("own.example = %+v", o)
	}
	if len(r.pages) != 4 || r.pages["https://own.example/pricing"].citations != 1 {
		t.Errorf("pages = %v, want 4 resolved pages", r.pages)
	}
	if _, ok := r.domains["vertexaisearch.cloud.google.com"]; ok {
		t.Error("an unresolved citation reached the cited sources")
	}

	// Co-occurrence: A beats the brand in the one shared answer, the brand beats B.
	ha, hb := r.headToHead[f.compA], r.headToHead[f.compB]
	if ha.shared != 1 || ha.competitorWins != 1 || ha.brandWins != 0 || ha.ownSum != 2 || ha.competitorSum != 1 ||
		ha.exampleAnswer != d.passes[0].CaptureID() || ha.exampleQuery != "best crm" {
		t.Errorf("head to head with A = %+v", ha)
	}
	if hb.shared != 1 || hb.brandWins != 1 || hb.ownSum != 1 || hb.competitorSum != 2 || hb.exampleAnswer != d.passes[2].CaptureID() {
		t.Errorf("head to head with B = %+v", hb)
	}
}
