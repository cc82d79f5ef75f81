package olap

import (
	"cmp"
	"context"
	"math"
	"math/bits"
	"slices"
	"strings"
	"time"

	"github.com/ClickHouse/clickhouse-go/v2/lib/driver"
	"github.com/google/uuid"
	"golang.org/x/sync/errgroup"

	"github.com/sightline/sightline"
)

// The headline metrics: GET /metrics (the own brand and every tracked
// competitor over a window, with trends against the window before), GET
// /metrics/clusters (the own brand per cluster of tracked queries) and the
// organization overview (the own brand per active project). Every figure is
// summed from ranks_daily (passes and positions) and mentions_daily (share
// of voice worth, tones, mention types). GET /metrics sends three queries,
// run together, each a single pass over its rows: the rank sums and the
// mention sums of the current and the previous window at once (a row per
// window, brand and engine or brand, told apart by day), and the own
// brand's per-query counters of the current window. The server's cost is
// mostly per query, per arm and per column read rather than per row, so one
// scan of both windows beats an arm per window even where the previous
// window's rows carry sums its figures do not need. Window-wide sums come
// from the per-market projections when no cluster filter applies; per-query
// figures read whole months from the monthly rollups. The figures are
// computed here from the sums, so one definition serves the three
// operations.

// MentionTypeCounts counts mentions by type.
type MentionTypeCounts struct {
	Recommendation uint64 `json:"recommendation"`
	Comparison     uint64 `json:"comparison"`
	Listing        uint64 `json:"listing"`
	Example        uint64 `json:"example"`
	Reference      uint64 `json:"reference"`
}

// PositionDistribution counts AI answers naming the brand by its mention
// position.
type PositionDistribution struct {
	First       uint64 `json:"1"`
	SecondThird uint64 `json:"2-3"`
	FourthFifth uint64 `json:"4-5"`
	SixthTenth  uint64 `json:"6-10"`
	Lower       uint64 `json:"11+"`
}

// Metrics are the figures of GET /metrics: the own brand's over the window,
// its trends against the previous window (current minus previous for every
// figure, positions included; nil when either side has no value) and every
// current tracked competitor's.
type Metrics struct {
	Rates

	AvgMentionPosition   *float64 `json:"avgMentionPosition"`
	BestMentionPosition  *int     `json:"bestMentionPosition"`
	AvgLinkPosition      *float64 `json:"avgLinkPosition"`
	BestLinkPosition     *int     `json:"bestLinkPosition"`
	AvgSerpPosition      *float64 `json:"avgSerpPosition"`
	BestSerpPosition     *int     `json:"bestSerpPosition"`
	AvgShoppingPosition  *float64 `json:"avgShoppingPosition"`
	BestShoppingPosition *int     `json:"bestShoppingPosition"`

	MentionPositionStability  *float64 `json:"mentionPositionStability"`
	LinkPositionStability     *float64 `json:"linkPositionStability"`
	SerpPositionStability     *float64 `json:"serpPositionStability"`
	ShoppingPositionStability *float64 `json:"shoppingPositionStability"`

	MentionCount                uint64               `json:"mentionCount"`
	SentimentPositive           uint64               `json:"sentimentPositive"`
	SentimentNeutral            uint64               `json:"sentimentNeutral"`
	SentimentNegative           uint64               `json:"sentimentNegative"`
	MentionTypeCounts           MentionTypeCounts    `json:"mentionTypeCounts"`
	MentionPositionDistribution PositionDistribution `json:"mentionPositionDistribution"`

	AITrackedQueryCount       uint64 `json:"aiTrackedQueryCount"`
	SerpTrackedQueryCount     uint64 `json:"serpTrackedQueryCount"`
	ShoppingTrackedQueryCount uint64 `json:"shoppingTrackedQueryCount"`
	MentionQueriesWithResult  uint64 `json:"mentionQueriesWithResult"`
	LinkQueriesWithResult     uint64 `json:"linkQueriesWithResult"`
	SerpQueriesWithResult     uint64 `json:"serpQueriesWithResult"`
	ShoppingQueriesWithResult uint64 `json:"shoppingQueriesWithResult"`

	Competitors []CompetitorMetrics `json:"competitors"`

	TrendShareOfVoice        *float64 `json:"trendShareOfVoice"`
	TrendMentionRate         *float64 `json:"trendMentionRate"`
	TrendSerpRate            *float64 `json:"trendSerpRate"`
	TrendShoppingRate        *float64 `json:"trendShoppingRate"`
	TrendPositivityIndex     *float64 `json:"trendPositivityIndex"`
	TrendAvgMentionPosition  *float64 `json:"trendAvgMentionPosition"`
	TrendAvgLinkPosition     *float64 `json:"trendAvgLinkPosition"`
	TrendAvgSerpPosition     *float64 `json:"trendAvgSerpPosition"`
	TrendAvgShoppingPosition *float64 `json:"trendAvgShoppingPosition"`
}

// CompetitorMetrics are a tracked competitor's figures over the window. Its
// mention rate divides the AI answers naming it by every AI answer
// captured (the own brand's passes).
type CompetitorMetrics struct {
	CompetitorID         uuid.UUID `json:"competitorId"`
	Name                 string    `json:"name"`
	ShareOfVoice         *float64  `json:"shareOfVoice"`
	ShareOfVoiceInterval *Interval `json:"shareOfVoiceInterval"`
	MentionRate          *float64  `json:"mentionRate"`
	MentionRateInterval  *Interval `json:"mentionRateInterval"`
	MentionCount         uint64    `json:"mentionCount"`
	AvgMentionPosition   *float64  `json:"avgMentionPosition"`
}

// Competitor names a current tracked competitor of the project.
type Competitor struct {
	ID   uuid.UUID
	Name string
}

// positionSums are one kind of position's rollup sums: observations, sum,
// sum of squares and the best (lowest) position.
type positionSums struct {
	count, sum, sq uint64
	min            *uint16
}

func (p *positionSums) add(o positionSums) {
	p.count += o.count
	p.sum += o.sum
	p.sq += o.sq
	if o.min != nil && (p.min == nil || *o.min < *p.min) {
		p.min = o.min
	}
}

// avg is the mean position; nil without observations.
func (p positionSums) avg() *float64 {
	if p.count == 0 {
		return nil
	}
	v := float64(p.sum) / float64(p.count)
	return &v
}

// best is the lowest position; nil without observations.
func (p positionSums) best() *int {
	if p.min == nil || p.count == 0 {
		return nil
	}
	v := int(*p.min)
	return &v
}

// stability is the population standard deviation of the positions; nil
// under two observations. The variance is (n·Σx² − (Σx)²) / n², its
// numerator taken in exact 128-bit integers: positions spread alike then
// give the same figure at any level, so sorts by stability tie them.
func (p positionSums) stability() *float64 {
	if p.count < 2 {
		return nil
	}
	nsqHi, nsqLo := bits.Mul64(p.count, p.sq)
	sum2Hi, sum2Lo := bits.Mul64(p.sum, p.sum)
	lo, borrow := bits.Sub64(nsqLo, sum2Lo, 0)
	hi, _ := bits.Sub64(nsqHi, sum2Hi, borrow)
	numerator := float64(hi)*(1<<64) + float64(lo)
	n := float64(p.count)
	v := math.Sqrt(numerator) / n
	return &v
}

// Rates are the headline rates and shares of a set of passes, each with
// its interval: the same figures for a project (Metrics) and for a cluster
// (ClusterMetrics).
type Rates struct {
	AnswerRates
	SerpRate                *float64  `json:"serpRate"`
	SerpRateInterval        *Interval `json:"serpRateInterval"`
	ShoppingRate            *float64  `json:"shoppingRate"`
	ShoppingRateInterval    *Interval `json:"shoppingRateInterval"`
	PositivityIndex         *float64  `json:"positivityIndex"`
	PositivityIndexInterval *Interval `json:"positivityIndexInterval"`
}

// ratesOf computes the Rates of the own brand's rank sums and the voice
// sums of the same passes.
func ratesOf(r rankSums, v voiceSums) Rates {
	var out Rates
	out.ShareOfVoice, out.ShareOfVoiceInterval = v.shareOfVoice()
	out.MentionRate, out.MentionRateInterval = rate(r.mention.count, r.aiPasses)
	out.SerpRate, out.SerpRateInterval = rate(r.serp.count, r.serpPasses)
	out.ShoppingRate, out.ShoppingRateInterval = rate(r.shopping.count, r.shoppingPasses)
	out.PositivityIndex, out.PositivityIndexInterval = v.positivityIndex()
	return out
}

// AnswerRates are the own brand's share of voice and mention rate in AI
// answers, each with its interval: the figures every headline set starts
// with (Rates, OverviewFigures).
type AnswerRates struct {
	ShareOfVoice         *float64  `json:"shareOfVoice"`
	ShareOfVoiceInterval *Interval `json:"shareOfVoiceInterval"`
	MentionRate          *float64  `json:"mentionRate"`
	MentionRateInterval  *Interval `json:"mentionRateInterval"`
}

// rankSums are one brand's ranks_daily sums over one window: the own
// brand's passes by kind of engine (competitor rows' passes are not a
// denominator) and the four kinds of position.
type rankSums struct {
	aiPasses, serpPasses, shoppingPasses uint64
	mention, link, serp, shopping        positionSums
}

func (r *rankSums) add(o rankSums) {
	r.aiPasses += o.aiPasses
	r.serpPasses += o.serpPasses
	r.shoppingPasses += o.shoppingPasses
	r.mention.add(o.mention)
	r.link.add(o.link)
	r.serp.add(o.serp)
	r.shopping.add(o.shopping)
}

// voiceSums are mentions_daily sums over one window: the brand's worth and
// tones, and the worth and mentions of every brand named alongside (the
// share-of-voice denominator and its sample size).
type voiceSums struct {
	worth, allWorth             float64
	allMentions                 uint64
	positive, neutral, negative uint64
}

func (v *voiceSums) add(o voiceSums) {
	v.worth += o.worth
	v.allWorth += o.allWorth
	v.allMentions += o.allMentions
	v.positive += o.positive
	v.neutral += o.neutral
	v.negative += o.negative
}

// shareOfVoice is 100 x the brand's worth over every brand's, with the
// interval over every brand's mentions; nil when nobody was named.
func (v voiceSums) shareOfVoice() (*float64, *Interval) {
	if v.allWorth <= 0 {
		return nil, nil
	}
	p := v.worth / v.allWorth
	s := 100 * p
	return &s, WilsonInterval(p, int64(v.allMentions))
}

// positivityIndex is 100 x (positive + 0.5 x neutral) / mentions; nil
// without mentions.
func (v voiceSums) positivityIndex() (*float64, *Interval) {
	return Percent(float64(v.positive)+0.5*float64(v.neutral), int64(v.positive+v.neutral+v.negative))
}

// rate is 100 x part / whole with its interval; nil when whole is 0.
func rate(part, whole uint64) (*float64, *Interval) {
	return Percent(float64(part), int64(whole))
}

// trend is current minus previous; nil when either is.
func trend(cur, prev *float64) *float64 {
	if cur == nil || prev == nil {
		return nil
	}
	v := *cur - *prev
	return &v
}

// sqlDay keeps a window bound inside what ClickHouse's DateTime holds; no
// rollup row lies outside it, so a far dateTo (or the previous window of a
// long one) reads the same rows.
func sqlDay(t time.Time) time.Time {
	lo, hi := time.Date(1970, 1, 2, 0, 0, 0, 0, time.UTC), time.Date(2105, 12, 31, 0, 0, 0, 0, time.UTC)
	switch {
	case t.Before(lo):
		return lo
	case t.After(hi):
		return hi
	}
	return t
}

// bounded is the scope with its days kept inside what ClickHouse's
// DateTime holds (sqlDay).
func (s Scope) bounded() Scope {
	s.From, s.To = sqlDay(s.From), sqlDay(s.To)
	return s
}

// brandKey is a brand of a rollup row: relation and competitor id (nil for
// the own brand and untracked brands).
type brandKey struct {
	relation   string
	competitor uuid.UUID
}

var ownBrand = brandKey{relation: "own"}

// brandRanks are a brand's ranks_daily sums in the current and previous
// window.
type brandRanks struct {
	cur, prev rankSums
}

// ownQueries are the own brand's per-query counters of the current window
// and its mention position distribution.
type ownQueries struct {
	positions  map[uint16]uint64
	queries    [3]uint64 // AI, search, shopping queries with a pass
	withResult [4]uint64 // of those, queries with a mention, link, search and shopping result
}

// brandVoices are a brand's mentions_daily sums in the current and previous
// window, with its mention types in the current one.
type brandVoices struct {
	cur, prev voiceSums
	types     MentionTypeCounts
}

// Metrics computes GET /metrics over scope for the own brand and each of
// competitors (every current tracked competitor of the project), with the
// trends against scope.Previous(). Three queries, run together: the rank
// sums and the mention sums of both windows, and the own brand's per-query
// counters.
func (a *Analytics) Metrics(ctx context.Context, scope Scope, competitors []Competitor) (*Metrics, error) {
	ranks := map[brandKey]*brandRanks{}
	var counters ownQueries
	var voices map[brandKey]*brandVoices
	var total [2]voiceSums // every brand's worth and mentions: current, previous
	if !scope.Empty() {
		g, gctx := errgroup.WithContext(ctx)
		g.Go(func() (err error) {
			ranks, err = a.metricsRanks(gctx, scope)
			return err
		})
		g.Go(func() (err error) {
			counters, err = a.metricsQueries(gctx, scope)
			return err
		})
		g.Go(func() (err error) {
			voices, total, err = a.metricsVoices(gctx, scope)
			return err
		})
		if err := g.Wait(); err != nil {
			return nil, err
		}
	}
	own := ranks[ownBrand]
	if own == nil {
		own = &brandRanks{}
	}
	ownVoice := voices[ownBrand]
	if ownVoice == nil {
		ownVoice = &brandVoices{}
	}
	withTotals := func(v voiceSums, t voiceSums) voiceSums {
		v.allWorth, v.allMentions = t.allWorth, t.allMentions
		return v
	}
	cur, prev := withTotals(ownVoice.cur, total[0]), withTotals(ownVoice.prev, total[1])

	m := &Metrics{Rates: ratesOf(own.cur, cur), Competitors: []CompetitorMetrics{}}

	m.AvgMentionPosition, m.BestMentionPosition = own.cur.mention.avg(), own.cur.mention.best()
	m.AvgLinkPosition, m.BestLinkPosition = own.cur.link.avg(), own.cur.link.best()
	m.AvgSerpPosition, m.BestSerpPosition = own.cur.serp.avg(), own.cur.serp.best()
	m.AvgShoppingPosition, m.BestShoppingPosition = own.cur.shopping.avg(), own.cur.shopping.best()
	m.MentionPositionStability = own.cur.mention.stability()
	m.LinkPositionStability = own.cur.link.stability()
	m.SerpPositionStability = own.cur.serp.stability()
	m.ShoppingPositionStability = own.cur.shopping.stability()

	m.MentionCount = own.cur.mention.count
	m.SentimentPositive, m.SentimentNeutral, m.SentimentNegative = cur.positive, cur.neutral, cur.negative
	m.MentionTypeCounts = ownVoice.types
	for pos, n := range counters.positions {
		switch {
		case pos <= 1:
			m.MentionPositionDistribution.First += n
		case pos <= 3:
			m.MentionPositionDistribution.SecondThird += n
		case pos <= 5:
			m.MentionPositionDistribution.FourthFifth += n
		case pos <= 10:
			m.MentionPositionDistribution.SixthTenth += n
		default:
			m.MentionPositionDistribution.Lower += n
		}
	}
	m.AITrackedQueryCount, m.SerpTrackedQueryCount, m.ShoppingTrackedQueryCount = counters.queries[0], counters.queries[1],
		counters.queries[2]
	m.MentionQueriesWithResult, m.LinkQueriesWithResult = counters.withResult[0], counters.withResult[1]
	m.SerpQueriesWithResult, m.ShoppingQueriesWithResult = counters.withResult[2], counters.withResult[3]

	prevSOV, _ := prev.shareOfVoice()
	prevMention, _ := rate(own.prev.mention.count, own.prev.aiPasses)
	prevSerp, _ := rate(own.prev.serp.count, own.prev.serpPasses)
	prevShopping, _ := rate(own.prev.shopping.count, own.prev.shoppingPasses)
	prevPositivity, _ := prev.positivityIndex()
	m.TrendShareOfVoice = trend(m.ShareOfVoice, prevSOV)
	m.TrendMentionRate = trend(m.MentionRate, prevMention)
	m.TrendSerpRate = trend(m.SerpRate, prevSerp)
	m.TrendShoppingRate = trend(m.ShoppingRate, prevShopping)
	m.TrendPositivityIndex = trend(m.PositivityIndex, prevPositivity)
	m.TrendAvgMentionPosition = trend(m.AvgMentionPosition, own.prev.mention.avg())
	m.TrendAvgLinkPosition = trend(m.AvgLinkPosition, own.prev.link.avg())
	m.TrendAvgSerpPosition = trend(m.AvgSerpPosition, own.prev.serp.avg())
	m.TrendAvgShoppingPosition = trend(m.AvgShoppingPosition, own.prev.shopping.avg())

	for _, c := range competitors {
		key := brandKey{relation: "tracked-competitor", competitor: c.ID}
		row := CompetitorMetrics{CompetitorID: c.ID, Name: c.Name}
		var cr rankSums
		if r := ranks[key]; r != nil {
			cr = r.cur
		}
		var cv voiceSums
		if v := voices[key]; v != nil {
			cv = v.cur
		}
		row.ShareOfVoice, row.ShareOfVoiceInterval = withTotals(cv, total[0]).shareOfVoice()
		row.MentionRate, row.MentionRateInterval = rate(cr.mention.count, own.cur.aiPasses)
		row.MentionCount = cr.mention.count
		row.AvgMentionPosition = cr.mention.avg()
		m.Competitors = append(m.Competitors, row)
	}
	slices.SortStableFunc(m.Competitors, func(a, b CompetitorMetrics) int {
		return cmp.Or(nullsLast(a.ShareOfVoice, b.ShareOfVoice, false), cmp.Compare(a.Name, b.Name),
			strings.Compare(a.CompetitorID.String(), b.CompetitorID.String()))
	})
	return m, nil
}

// engineKind is the index of an engine's kind in the own brand's pass
// counts: AI answers, search pages, shopping pages; -1 for none.
func engineKind(engine string) int {
	switch e := sightline.Engine(engine); {
	case e.AI():
		return 0
	case e == sightline.EngineGoogleSERP:
		return 1
	case e == sightline.EngineGoogleShopping:
		return 2
	}
	return -1
}

// metricsRanks reads the ranks_daily sums of every brand in the current
// and the previous window in one pass (trendFrom), a row per window, brand
// and engine: the own brand's passes by kind of engine and its positions
// in both windows (the trends), the competitors' in the current one.
// Without a cluster filter ranks_daily's per-market projection answers it.
func (a *Analytics) metricsRanks(ctx context.Context, scope Scope) (map[brandKey]*brandRanks, error) {
	from, fromArgs := scope.trendFrom("ranks_daily")
	out := map[brandKey]*brandRanks{}
	err := scanRows(ctx, a.Conn, "reading rank sums", `
		SELECT toUInt8(day >= ?) AS current, toString(relation) AS brand, competitor_id, engine, sum(passes),
		       sum(mention_count), sum(mention_position_sum), sum(mention_position_sq_sum), min(mention_position_min),
		       sum(link_count), sum(link_position_sum), sum(link_position_sq_sum), min(link_position_min),
		       sum(serp_count), sum(serp_position_sum), sum(serp_position_sq_sum), min(serp_position_min),
		       sum(shopping_count), sum(shopping_position_sum), sum(shopping_position_sq_sum), min(shopping_position_min)
		FROM `+from+`
		GROUP BY current, relation, competitor_id, engine`, append([]any{sqlDay(scope.From)}, fromArgs...), func(rows driver.Rows) error {
		var (
			current uint8
			k       brandKey
			engine  string
			passes  uint64
			r       rankSums
		)
		dest := []any{&current, &k.relation, &k.competitor, &engine, &passes}
		for _, p := range []*positionSums{&r.mention, &r.link, &r.serp, &r.shopping} {
			dest = append(dest, &p.count, &p.sum, &p.sq, &p.min)
		}
		if err := rows.Scan(dest...); err != nil {
			return err
		}
		if k == ownBrand {
			// Only the own brand's passes divide rates.
			switch engineKind(engine) {
			case 0:
				r.aiPasses = passes
			case 1:
				r.serpPasses = passes
			case 2:
				r.shoppingPasses = passes
			}
		}
		b := entryOf(out, k)
		if current == 1 {
			b.cur.add(r)
		} else {
			b.prev.add(r)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// metricsQueries reads the own brand's per-query counters of the current
// window and its mention position distribution, whole months from
// ranks_monthly (perQueryFrom), per engine: a query counts for an engine
// when any of its rows there has a pass (or a result), the sums being of
// counts that are never negative.
func (a *Analytics) metricsQueries(ctx context.Context, scope Scope) (ownQueries, error) {
	out := ownQueries{positions: map[uint16]uint64{}}
	from, args := perQueryFrom("ranks_daily", scope)
	err := scanRows(ctx, a.Conn, "reading per-query counts", `
		SELECT engine, sumMap(mention_positions), uniqExactIf(tracked_query_id, passes > 0),
		       uniqExactIf(tracked_query_id, mention_count > 0), uniqExactIf(tracked_query_id, link_count > 0),
		       uniqExactIf(tracked_query_id, serp_count > 0), uniqExactIf(tracked_query_id, shopping_count > 0)
		FROM `+from+`
		WHERE relation = 'own'
		GROUP BY engine`, args, func(rows driver.Rows) error {
		var (
			engine     string
			positions  map[uint16]uint64
			queries    uint64
			withResult [4]uint64
		)
		if err := rows.Scan(&engine, &positions, &queries,
			&withResult[0], &withResult[1], &withResult[2], &withResult[3]); err != nil {
			return err
		}
		if kind := engineKind(engine); kind >= 0 {
			out.queries[kind] += queries
		}
		for i, n := range withResult {
			out.withResult[i] += n
		}
		for pos, n := range positions {
			out.positions[pos] += n
		}
		return nil
	})
	return out, err
}

// metricsVoices reads every brand's mentions_daily sums in the current and
// the previous window in one pass (trendFrom), mention types kept for the
// current one, and their totals over every brand, untracked ones included.
func (a *Analytics) metricsVoices(ctx context.Context, scope Scope) (map[brandKey]*brandVoices, [2]voiceSums, error) {
	var total [2]voiceSums
	from, fromArgs := scope.trendFrom("mentions_daily")
	out := map[brandKey]*brandVoices{}
	err := scanRows(ctx, a.Conn, "reading mention sums", `
		SELECT toUInt8(day >= ?) AS current, toString(relation) AS brand, competitor_id, sum(worth), sum(mentions),
		       sum(tone_positive), sum(tone_neutral), sum(tone_negative), sum(type_recommendation),
		       sum(type_comparison), sum(type_listing), sum(type_example), sum(type_reference)
		FROM `+from+`
		GROUP BY current, relation, competitor_id`, append([]any{sqlDay(scope.From)}, fromArgs...), func(rows driver.Rows) error {
		var current uint8
		var k brandKey
		var v voiceSums
		var mentions uint64
		var types MentionTypeCounts
		if err := rows.Scan(&current, &k.relation, &k.competitor, &v.worth, &mentions,
			&v.positive, &v.neutral, &v.negative,
			&types.Recommendation, &types.Comparison, &types.Listing, &types.Example, &types.Reference); err != nil {
			return err
		}
		b := entryOf(out, k)
		window := 0
		if current == 1 {
			b.cur, b.types = v, types
		} else {
			b.prev, window = v, 1
		}
		total[window].allWorth += v.worth
		total[window].allMentions += mentions
		return nil
	})
	if err != nil {
		return nil, total, err
	}
	return out, total, nil
}

// QueryGroup is a set of tracked queries whose figures are summed
// together: a cluster's members today, or the queries in no cluster.
type QueryGroup struct {
	ClusterID       *uuid.UUID // nil for the ungrouped bucket
	ClusterName     *string    // nil for the ungrouped bucket
	TrackedQueryIDs []uuid.UUID
}

// ClusterMetrics are the own brand's figures over a group of tracked
// queries: a row of GET /metrics/clusters.
type ClusterMetrics struct {
	ClusterID         *uuid.UUID `json:"clusterId"`
	ClusterName       *string    `json:"clusterName"`
	TrackedQueryCount int        `json:"trackedQueryCount"`
	Rates
	AvgMentionPosition  *float64 `json:"avgMentionPosition"`
	AvgLinkPosition     *float64 `json:"avgLinkPosition"`
	AvgSerpPosition     *float64 `json:"avgSerpPosition"`
	AvgShoppingPosition *float64 `json:"avgShoppingPosition"`
	MentionCount        uint64   `json:"mentionCount"`
}

// ClusterMetrics computes one row per group, in the groups' order, over
// scope and the groups' tracked queries. One read returns the own brand's
// sums per tracked query (ranks and mentions, whole months from the
// monthly rollups); a query in several groups counts in each. The read is
// narrowed to the union of the groups (scope's own tracked-query filter is
// replaced by it) when the union is small; a long list of ids costs more to match row by row than
// summing the project's other queries too, whose rows the sorting key (day
// before tracked query) makes the read fetch anyway.
func (a *Analytics) ClusterMetrics(ctx context.Context, scope Scope, groups []QueryGroup) ([]ClusterMetrics, error) {
	seen := map[uuid.UUID]bool{}
	union := []uuid.UUID{}
	for _, g := range groups {
		for _, id := range g.TrackedQueryIDs {
			if !seen[id] {
				seen[id] = true
				union = append(union, id)
			}
		}
	}
	scope.TrackedQueryIDs = union // empty: selects nothing, no read
	if len(union) > maxQueryFilter {
		scope.TrackedQueryIDs = nil
	}
	perQuery := map[uuid.UUID]querySums{}
	if !scope.Empty() {
		var err error
		if perQuery, err = a.querySums(ctx, scope); err != nil {
			return nil, err
		}
	}
	out := make([]ClusterMetrics, 0, len(groups))
	for _, g := range groups {
		var sum querySums
		for _, id := range g.TrackedQueryIDs {
			q := perQuery[id]
			sum.ranks.add(q.ranks)
			sum.voice.add(q.voice)
		}
		row := ClusterMetrics{ClusterID: g.ClusterID, ClusterName: g.ClusterName, TrackedQueryCount: len(g.TrackedQueryIDs),
			Rates: ratesOf(sum.ranks, sum.voice)}
		row.AvgMentionPosition, row.AvgLinkPosition = sum.ranks.mention.avg(), sum.ranks.link.avg()
		row.AvgSerpPosition, row.AvgShoppingPosition = sum.ranks.serp.avg(), sum.ranks.shopping.avg()
		row.MentionCount = sum.ranks.mention.count
		out = append(out, row)
	}
	return out, nil
}

// maxQueryFilter is the longest list of tracked queries ClusterMetrics
// sends as a filter.
const maxQueryFilter = 200

// querySums are the own brand's sums over one tracked query.
type querySums struct {
	ranks rankSums
	voice voiceSums
}

// querySums reads the own brand's sums per tracked query over scope: the
// rank sums of every query with a completed capture, with its mention sums
// (two queries run together, joined here).
func (a *Analytics) querySums(ctx context.Context, scope Scope) (map[uuid.UUID]querySums, error) {
	ranks, ranksArgs := perQueryFrom("ranks_daily", scope)
	voices, voicesArgs := perQueryFrom("mentions_daily", scope)
	out := map[uuid.UUID]querySums{}
	voiced := map[uuid.UUID]voiceSums{}
	g, gctx := errgroup.WithContext(ctx)
	g.Go(func() error {
		return scanRows(gctx, a.Conn, "reading per-query rank sums", `
			SELECT tracked_query_id,
			       sumIf(passes, engine IN ('chatgpt', 'perplexity', 'google_ai_overview', 'google_ai_mode')),
			       sumIf(passes, engine = 'google_serp'), sumIf(passes, engine = 'google_shopping'),
			       sum(mention_count), sum(mention_position_sum), sum(link_count), sum(link_position_sum),
			       sum(serp_count), sum(serp_position_sum), sum(shopping_count), sum(shopping_position_sum)
			FROM `+ranks+`
			WHERE relation = 'own'
			GROUP BY tracked_query_id`, ranksArgs, func(rows driver.Rows) error {
			var id uuid.UUID
			var q querySums
			if err := rows.Scan(&id, &q.ranks.aiPasses, &q.ranks.serpPasses, &q.ranks.shoppingPasses,
				&q.ranks.mention.count, &q.ranks.mention.sum, &q.ranks.link.count, &q.ranks.link.sum,
				&q.ranks.serp.count, &q.ranks.serp.sum, &q.ranks.shopping.count, &q.ranks.shopping.sum); err != nil {
				return err
			}
			out[id] = q
			return nil
		})
	})
	g.Go(func() error {
		return scanRows(gctx, a.Conn, "reading per-query mention sums", `
			SELECT tracked_query_id, sumIf(worth, relation = 'own'), sum(worth), sum(mentions),
			       sumIf(tone_positive, relation = 'own'), sumIf(tone_neutral, relation = 'own'),
			       sumIf(tone_negative, relation = 'own')
			FROM `+voices+`
			GROUP BY tracked_query_id`, voicesArgs, func(rows driver.Rows) error {
			var id uuid.UUID
			var v voiceSums
			if err := rows.Scan(&id, &v.worth, &v.allWorth, &v.allMentions, &v.positive, &v.neutral, &v.negative); err != nil {
				return err
			}
			voiced[id] = v
			return nil
		})
	})
	if err := g.Wait(); err != nil {
		return nil, err
	}
	for id, q := range out {
		q.voice = voiced[id]
		out[id] = q
	}
	return out, nil
}
