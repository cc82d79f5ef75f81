package olap

import (
	"context"
	"time"

	"github.com/ClickHouse/clickhouse-go/v2/lib/driver"
	"github.com/google/uuid"
)

// Time series (spec 4.3, GET /timeseries and the single tracked query's):
// the own brand's and requested competitors' figures per bucket of the
// window. Every bucket of the window gets a point, data or not; a bucket
// without a completed capture behind a figure has it nil (a gap), never 0.
// All buckets come from one query over ranks_daily and mentions_daily,
// re-aggregated per bucket and brand: no round trip per bucket.

// Granularity is the width of a time-series bucket (spec 2.2).
type Granularity string

// The granularities of spec 2.2.
const (
	// GranularityDaily buckets are UTC days.
	GranularityDaily Granularity = "daily"
	// GranularityWeekly buckets are ISO weeks, Monday to Sunday.
	GranularityWeekly Granularity = "weekly"
	// GranularityMonthly buckets are calendar months.
	GranularityMonthly Granularity = "monthly"
)

// Granularities lists every granularity in a stable order.
var Granularities = []Granularity{GranularityDaily, GranularityWeekly, GranularityMonthly}

// Buckets returns the first day of every bucket of the window from..to
// (UTC midnights, inclusive): each day; each ISO week's Monday; each
// month's first day. The first bucket is clipped to from, so it starts on
// from even when from is not a Monday or a month's first day.
func (g Granularity) Buckets(from, to time.Time) []time.Time {
	var out []time.Time
	for d := from; !d.After(to); d = g.next(d) {
		out = append(out, d)
	}
	return out
}

// next is the first day of the bucket after the one d lies in.
func (g Granularity) next(d time.Time) time.Time {
	switch g {
	case GranularityWeekly:
		sinceMonday := (int(d.Weekday()) + 6) % 7
		return d.AddDate(0, 0, 7-sinceMonday)
	case GranularityMonthly:
		y, m, _ := d.Date()
		return time.Date(y, m+1, 1, 0, 0, 0, 0, time.UTC)
	default:
		return d.AddDate(0, 0, 1)
	}
}

// bucketSQL is the first day of a rollup row's bucket, clipped to the
// window's first day, which is its one argument. It is the SQL twin of
// Buckets.
var bucketSQL = map[Granularity]string{
	GranularityDaily:   "greatest(day, toDate(?))",
	GranularityWeekly:  "greatest(toMonday(day), toDate(?))",
	GranularityMonthly: "greatest(toStartOfMonth(day), toDate(?))",
}

// TimeseriesQuery selects a time series: the scope's passes, cut into
// buckets of Granularity.
type TimeseriesQuery struct {
	Scope
	Granularity Granularity
	// CompetitorIDs are the tracked competitors each point carries figures
	// for, besides the own brand.
	CompetitorIDs []uuid.UUID
	// MeasuredShare makes a brand's share of voice 0 rather than nil in a
	// bucket whose AI answers name nobody at all: the single tracked query's
	// series, where 0 means measured and never mentioned and nil means no
	// AI answer was captured.
	MeasuredShare bool
}

// TimeseriesFigures are one brand's figures in one bucket. Positions are
// means over the passes that have one; rates divide by the own brand's
// completed passes of the bucket (AI answers for mentionRate, search
// snapshots for serpRate), competitors' too; shareOfVoice is the brand's
// worth over every brand's worth in the bucket. Each rate, share and index
// carries its interval, nil exactly when it is.
type TimeseriesFigures struct {
	Serp                 *float64  `json:"serp"`
	Shopping             *float64  `json:"shopping"`
	Mention              *float64  `json:"mention"`
	Link                 *float64  `json:"link"`
	Positivity           *float64  `json:"positivity"`
	ShareOfVoice         *float64  `json:"shareOfVoice"`
	MentionRate          *float64  `json:"mentionRate"`
	SerpRate             *float64  `json:"serpRate"`
	ShareOfVoiceInterval *Interval `json:"shareOfVoiceInterval"`
	MentionRateInterval  *Interval `json:"mentionRateInterval"`
	SerpRateInterval     *Interval `json:"serpRateInterval"`
	PositivityInterval   *Interval `json:"positivityInterval"`
}

// TimeseriesPoint is one bucket of a time series.
type TimeseriesPoint struct {
	// Start is the bucket's first day (UTC midnight), clipped to the window.
	Start time.Time
	Own   TimeseriesFigures
	// Competitors has an entry for every requested competitor.
	Competitors map[uuid.UUID]TimeseriesFigures
}

// brandSums are one brand's rollup sums in one bucket.
type brandSums struct {
	aiPasses, serpSnapshots     uint64 // own rows only: the denominators
	mentionCount, mentionPosSum uint64
	linkCount, linkPosSum       uint64
	serpCount, serpPosSum       uint64
	shoppingCount, shopPosSum   uint64
	mentions                    uint64
	worth                       float64
	positive, neutral           uint64
}

// bucketSums are the sums of one bucket: the own brand's, each requested
// competitor's, and every brand's mentions and worth (untracked and
// unrequested ones included), which shares of voice divide by.
type bucketSums struct {
	own         brandSums
	competitors map[uuid.UUID]*brandSums
	allMentions uint64
	allWorth    float64
}

// Timeseries returns one point per bucket of q's window, in order.
func (a *Analytics) Timeseries(ctx context.Context, q TimeseriesQuery) ([]TimeseriesPoint, error) {
	sums := map[int64]*bucketSums{}
	if !q.Empty() {
		var err error
		if sums, err = a.timeseriesSums(ctx, q); err != nil {
			return nil, err
		}
	}
	starts := q.Granularity.Buckets(q.From, q.To)
	points := make([]TimeseriesPoint, len(starts))
	for i, start := range starts {
		b := sums[start.Unix()]
		if b == nil {
			b = &bucketSums{}
		}
		p := TimeseriesPoint{Start: start, Competitors: make(map[uuid.UUID]TimeseriesFigures, len(q.CompetitorIDs))}
		p.Own = b.figures(&b.own, q.MeasuredShare)
		for _, id := range q.CompetitorIDs {
			c := b.competitors[id]
			if c == nil {
				c = &brandSums{}
			}
			p.Competitors[id] = b.figures(c, q.MeasuredShare)
		}
		points[i] = p
	}
	return points, nil
}

// timeseriesSums reads the sums of every bucket of q that has rollup rows,
// keyed by the Unix time of the bucket's first day, in one query of two halves, each
// re-aggregated per bucket and brand: ranks_daily gives the positions and
// pass counts of the own brand and the requested competitors;
// mentions_daily gives mentions, worth and tones of every brand, the
// unrequested ones counting only towards the bucket's totals.
func (a *Analytics) timeseriesSums(ctx context.Context, q TimeseriesQuery) (map[int64]*bucketSums, error) {
	bucket, ok := bucketSQL[q.Granularity]
	if !ok {
		bucket = bucketSQL[GranularityDaily]
	}
	ranks, ranksWhere, ranksArgs := q.seriesRows("ranks_daily")
	voices, voicesWhere, voicesArgs := q.seriesRows("mentions_daily")
	competitors := q.CompetitorIDs
	if competitors == nil {
		competitors = []uuid.UUID{}
	}
	sql := `
		SELECT 'ranks' AS source, bucket, toString(relation) AS brand, competitor_id,
		       sumIf(engine_passes, engine IN ('chatgpt', 'perplexity', 'google_ai_overview', 'google_ai_mode')),
		       sumIf(engine_passes, engine = 'google_serp'),
		       sum(mention_n), sum(mention_sum), sum(link_n), sum(link_sum),
		       sum(serp_n), sum(serp_sum), sum(shopping_n), sum(shopping_sum),
		       toUInt64(0), toFloat64(0), toUInt64(0), toUInt64(0)
		FROM (
			SELECT ` + bucket + ` AS bucket, relation, competitor_id, engine, sum(passes) AS engine_passes,
			       sum(mention_count) AS mention_n, sum(mention_position_sum) AS mention_sum,
			       sum(link_count) AS link_n, sum(link_position_sum) AS link_sum,
			       sum(serp_count) AS serp_n, sum(serp_position_sum) AS serp_sum,
			       sum(shopping_count) AS shopping_n, sum(shopping_position_sum) AS shopping_sum
			FROM ` + ranks + `
			WHERE ` + ranksWhere + ` AND (relation = 'own' OR competitor_id IN ?)
			GROUP BY bucket, relation, competitor_id, engine
		)
		GROUP BY bucket, relation, competitor_id
		UNION ALL
		SELECT 'mentions' AS source, ` + bucket + ` AS bucket, toString(relation) AS brand, competitor_id,
		       toUInt64(0), toUInt64(0), toUInt64(0), toUInt64(0), toUInt64(0), toUInt64(0),
		       toUInt64(0), toUInt64(0), toUInt64(0), toUInt64(0),
		       sum(mentions), sum(worth), sum(tone_positive), sum(tone_neutral)
		FROM ` + voices + `
		WHERE ` + voicesWhere + `
		GROUP BY bucket, relation, competitor_id`
	args := append(append([]any{q.From}, ranksArgs...), competitors, q.From)
	args = append(args, voicesArgs...)
	requested := make(map[uuid.UUID]bool, len(competitors))
	for _, id := range competitors {
		requested[id] = true
	}
	out := map[int64]*bucketSums{}
	err := scanRows(ctx, a.Conn, "reading time series", sql, args, func(rows driver.Rows) error {
		var (
			source, brand string
			start         time.Time
			id            uuid.UUID
			s             brandSums
		)
		if err := rows.Scan(&source, &start, &brand, &id, &s.aiPasses, &s.serpSnapshots,
			&s.mentionCount, &s.mentionPosSum, &s.linkCount, &s.linkPosSum,
			&s.serpCount, &s.serpPosSum, &s.shoppingCount, &s.shopPosSum,
			&s.mentions, &s.worth, &s.positive, &s.neutral); err != nil {
			return err
		}
		y, m, d := start.Date()
		key := time.Date(y, m, d, 0, 0, 0, 0, time.UTC).Unix()
		b := out[key]
		if b == nil {
			b = &bucketSums{competitors: map[uuid.UUID]*brandSums{}}
			out[key] = b
		}
		if source == "mentions" {
			b.allMentions += s.mentions
			b.allWorth += s.worth
		}
		switch {
		case brand == "own":
			b.own.add(s)
		case brand == "tracked-competitor" && requested[id]:
			entryOf(b.competitors, id).add(s)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// seriesRows is the FROM item and the predicate of the series' rows of
// daily (ranks_daily or mentions_daily): the daily rollup and the scope's
// predicate, the per-market projection answering reads without a
// tracked-query filter. Monthly buckets over such a filter (a single
// tracked query's series, a cluster filter) leave the projection unused and
// would read the daily rollup a row per query and day, so they take the
// window's whole months from the monthly rollup, whose rows fall in their
// month's bucket (perQueryFrom, which holds the scope's predicate).
func (q TimeseriesQuery) seriesRows(daily string) (from, where string, args []any) {
	if q.Granularity == GranularityMonthly && q.TrackedQueryIDs != nil {
		from, args = perQueryFrom(daily, q.Scope)
		return from, "1", args
	}
	where, args = q.rollupWhere()
	return daily, where, args
}

// add adds the sums of another row of the same brand and bucket.
func (s *brandSums) add(o brandSums) {
	s.aiPasses += o.aiPasses
	s.serpSnapshots += o.serpSnapshots
	s.mentionCount += o.mentionCount
	s.mentionPosSum += o.mentionPosSum
	s.linkCount += o.linkCount
	s.linkPosSum += o.linkPosSum
	s.serpCount += o.serpCount
	s.serpPosSum += o.serpPosSum
	s.shoppingCount += o.shoppingCount
	s.shopPosSum += o.shopPosSum
	s.mentions += o.mentions
	s.worth += o.worth
	s.positive += o.positive
	s.neutral += o.neutral
}

// figures computes brand's figures in bucket b; rates divide by the own
// brand's pass counts of the bucket.
func (b *bucketSums) figures(brand *brandSums, measuredShare bool) TimeseriesFigures {
	var f TimeseriesFigures
	f.Serp = meanPosition(brand.serpPosSum, brand.serpCount)
	f.Shopping = meanPosition(brand.shopPosSum, brand.shoppingCount)
	f.Mention = meanPosition(brand.mentionPosSum, brand.mentionCount)
	f.Link = meanPosition(brand.linkPosSum, brand.linkCount)
	f.MentionRate, f.MentionRateInterval = Percent(float64(brand.mentionCount), int64(b.own.aiPasses))
	f.SerpRate, f.SerpRateInterval = Percent(float64(brand.serpCount), int64(b.own.serpSnapshots))
	f.Positivity, f.PositivityInterval = Percent(float64(brand.positive)+0.5*float64(brand.neutral), int64(brand.mentions))
	switch {
	case b.allWorth > 0:
		share := brand.worth / b.allWorth
		v := 100 * share
		f.ShareOfVoice, f.ShareOfVoiceInterval = &v, WilsonInterval(share, int64(b.allMentions))
	case measuredShare && b.own.aiPasses > 0:
		// Answers were captured and named no brand at all: a measured 0 of
		// no mention, whose interval, like Wilson's as n goes to 0, spans
		// everything.
		zero := 0.0
		f.ShareOfVoice, f.ShareOfVoiceInterval = &zero, &Interval{N: 0, Low: 0, High: 100}
	}
	return f
}

// meanPosition is sum / count, nil without observations.
func meanPosition(sum, count uint64) *float64 {
	if count == 0 {
		return nil
	}
	v := float64(sum) / float64(count)
	return &v
}
