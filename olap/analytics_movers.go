package olap

import (
	"cmp"
	"context"
	"fmt"
	"slices"

	"github.com/ClickHouse/clickhouse-go/v2/lib/driver"
	"github.com/google/uuid"
)

// Movers (GET /metrics/movers) and the keyword listing (analytics_keywords.go)
// both start from the own brand's sums per tracked query over the window
// and the equally long one before it, read from ranks_daily and
// mentions_daily in one query. Every figure of a row (averages, rates,
// shares, stability, intervals, tests) is derived from sums, so rows of
// several tracked queries add up exactly.

// plus is p and o together (positionSums, analytics_metrics.go).
func (p positionSums) plus(o positionSums) positionSums {
	p.add(o)
	return p
}

// significantChange is Welch's test between two windows' positions.
func (p positionSums) significantChange(o positionSums) bool {
	return SignificantMeanChange(float64(p.count), float64(p.sum), float64(p.sq), float64(o.count), float64(o.sum), float64(o.sq))
}

// ownSums are the own brand's sums over one window and some tracked
// queries.
type ownSums struct {
	aiPasses                      uint64 // completed passes on AI engines
	mention, link, serp, shopping positionSums
	ownWorth, allWorth            float64 // share-of-voice worth: the own brand's, every brand's
	ownMentions, allMentions      uint64  // mentions_daily.mentions: the own brand's, every brand's
	positive, neutral             uint64  // tones of the own brand's mentions
	recommendation, comparison    uint64  // own mentions by type
	listing, example, reference   uint64
}

func (s ownSums) plus(o ownSums) ownSums {
	return ownSums{
		aiPasses: s.aiPasses + o.aiPasses,
		mention:  s.mention.plus(o.mention), link: s.link.plus(o.link),
		serp: s.serp.plus(o.serp), shopping: s.shopping.plus(o.shopping),
		ownWorth: s.ownWorth + o.ownWorth, allWorth: s.allWorth + o.allWorth,
		ownMentions: s.ownMentions + o.ownMentions, allMentions: s.allMentions + o.allMentions,
		positive: s.positive + o.positive, neutral: s.neutral + o.neutral,
		recommendation: s.recommendation + o.recommendation, comparison: s.comparison + o.comparison,
		listing: s.listing + o.listing, example: s.example + o.example, reference: s.reference + o.reference,
	}
}

// shareOfVoice is 100 x own worth / every brand's worth, with its interval
// over n = mentions of every brand; nil when nobody was mentioned.
func (s ownSums) shareOfVoice() (*float64, *Interval) {
	if s.allWorth <= 0 || s.allMentions == 0 {
		return nil, nil
	}
	return Percent(s.ownWorth/s.allWorth*float64(s.allMentions), int64(s.allMentions))
}

// positivityIndex is 100 x (positive + 0.5 neutral) / own mentions; nil
// without mentions.
func (s ownSums) positivityIndex() (*float64, *Interval) {
	return Percent(float64(s.positive)+0.5*float64(s.neutral), int64(s.ownMentions))
}

// mentionRate is 100 x AI passes naming the own brand / AI passes.
func (s ownSums) mentionRate() (*float64, *Interval) {
	return Percent(float64(s.mention.count), int64(s.aiPasses))
}

// significantShareChange is the two-proportion z-test between two
// windows' shares of voice, each share taken over its window's mentions of
// every brand.
func (s ownSums) significantShareChange(o ownSums) bool {
	if s.allWorth <= 0 || o.allWorth <= 0 {
		return false
	}
	return SignificantChange(s.ownWorth/s.allWorth*float64(s.allMentions), int64(s.allMentions),
		o.ownWorth/o.allWorth*float64(o.allMentions), int64(o.allMentions))
}

// windowSums are a tracked query's sums in the window and the one before.
type windowSums struct {
	current, previous ownSums
}

// ownSumsSQL sums, per tracked query and window (current = 1 from the
// window's first day, 0 before it), the own brand's passes and positions
// from the ranks rollups and every brand's worth and mentions from the
// mentions rollups. The two %s are FROM items over both windows
// (perQueryFrom: whole months from the monthly rollups, whose rows lie in
// the window they sum, so day still tells the windows apart).
// Every own pass has a ranks_daily row, so the left join keeps every
// (query, window) with a completed capture.
const ownSumsSQL = `
	SELECT r.tracked_query_id, r.current, r.ai_passes,
	       r.mention_n, r.mention_sum, r.mention_sq, r.link_n, r.link_sum, r.link_sq,
	       r.serp_n, r.serp_sum, r.serp_sq, r.shopping_n, r.shopping_sum, r.shopping_sq,
	       m.own_worth, m.all_worth, m.own_mentions, m.all_mentions, m.positive, m.neutral,
	       m.recommendation, m.comparison, m.listing, m.example, m.reference
	FROM (
		SELECT tracked_query_id, toUInt8(day >= ?) AS current,
		       sumIf(passes, engine IN ('chatgpt', 'perplexity', 'google_ai_overview', 'google_ai_mode')) AS ai_passes,
		       sum(mention_count) AS mention_n, sum(mention_position_sum) AS mention_sum,
		       sum(mention_position_sq_sum) AS mention_sq,
		       sum(link_count) AS link_n, sum(link_position_sum) AS link_sum, sum(link_position_sq_sum) AS link_sq,
		       sum(serp_count) AS serp_n, sum(serp_position_sum) AS serp_sum, sum(serp_position_sq_sum) AS serp_sq,
		       sum(shopping_count) AS shopping_n, sum(shopping_position_sum) AS shopping_sum,
		       sum(shopping_position_sq_sum) AS shopping_sq
		FROM %s
		WHERE relation = 'own'
		GROUP BY tracked_query_id, current
	) AS r
	LEFT JOIN (
		SELECT tracked_query_id, toUInt8(day >= ?) AS current,
		       sumIf(worth, relation = 'own') AS own_worth, sum(worth) AS all_worth,
		       sumIf(mentions, relation = 'own') AS own_mentions, sum(mentions) AS all_mentions,
		       sumIf(tone_positive, relation = 'own') AS positive, sumIf(tone_neutral, relation = 'own') AS neutral,
		       sumIf(type_recommendation, relation = 'own') AS recommendation,
		       sumIf(type_comparison, relation = 'own') AS comparison,
		       sumIf(type_listing, relation = 'own') AS listing,
		       sumIf(type_example, relation = 'own') AS example,
		       sumIf(type_reference, relation = 'own') AS reference
		FROM %s
		GROUP BY tracked_query_id, current
	) AS m ON m.tracked_query_id = r.tracked_query_id AND m.current = r.current
	SETTINGS join_use_nulls = 0`

// ownSumsByQuery reads the own brand's sums of every tracked query in the
// scope that has a completed capture in the window or the one before it.
func (a *Analytics) ownSumsByQuery(ctx context.Context, scope Scope) (map[uuid.UUID]*windowSums, error) {
	out := map[uuid.UUID]*windowSums{}
	if scope.Empty() {
		return out, nil
	}
	ranks, ranksArgs := perQueryFrom("ranks_daily", scope.Previous(), scope)
	voices, voicesArgs := perQueryFrom("mentions_daily", scope.Previous(), scope)
	args := append(append([]any{scope.From}, ranksArgs...), scope.From)
	args = append(args, voicesArgs...)
	err := scanRows(ctx, a.Conn, "reading own sums per tracked query", fmt.Sprintf(ownSumsSQL, ranks, voices), args, func(rows driver.Rows) error {
		var (
			id      uuid.UUID
			current uint8
			s       ownSums
		)
		if err := rows.Scan(&id, &current, &s.aiPasses,
			&s.mention.count, &s.mention.sum, &s.mention.sq, &s.link.count, &s.link.sum, &s.link.sq,
			&s.serp.count, &s.serp.sum, &s.serp.sq, &s.shopping.count, &s.shopping.sum, &s.shopping.sq,
			&s.ownWorth, &s.allWorth, &s.ownMentions, &s.allMentions, &s.positive, &s.neutral,
			&s.recommendation, &s.comparison, &s.listing, &s.example, &s.reference); err != nil {
			return err
		}
		w := entryOf(out, id)
		if current == 1 {
			w.current = s
		} else {
			w.previous = s
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// trendOfPosition is previous minus current: positive when the position
// improved (went down). nil when either window has none.
func trendOfPosition(previous, current *float64) *float64 {
	if previous == nil || current == nil {
		return nil
	}
	v := *previous - *current
	return &v
}

// trendOfRate is current minus previous: positive when the rate, share or
// index improved. nil when either window has none.
func trendOfRate(previous, current *float64) *float64 {
	if previous == nil || current == nil {
		return nil
	}
	v := *current - *previous
	return &v
}

// MoverSort is a sort key of the movers: the trend of one figure.
type MoverSort string

// The movers' sort keys (spec 4.3).
const (
	MoverTrendSerp         MoverSort = "trend_serp"
	MoverTrendShopping     MoverSort = "trend_shopping"
	MoverTrendMention      MoverSort = "trend_mention"
	MoverTrendLink         MoverSort = "trend_link"
	MoverTrendShareOfVoice MoverSort = "trend_share_of_voice"
)

// MoverSorts lists the sort keys, the default last.
var MoverSorts = []string{string(MoverTrendSerp), string(MoverTrendShopping), string(MoverTrendMention),
	string(MoverTrendLink), string(MoverTrendShareOfVoice)}

// MoverQuery is one tracked query a mover row may be about: a current
// tracked query of the project, named as its row shows it.
type MoverQuery struct {
	ID        uuid.UUID
	QueryText string
	Engine    string
	Country   string
}

// MoversRequest asks for one page of movers.
type MoversRequest struct {
	// Queries are the candidates: the project's current tracked queries
	// within the scope's engines and countries. A query not listed (one
	// deleted while its cascade runs) has no row.
	Queries   []MoverQuery
	SortBy    MoverSort
	Ascending bool
	Limit     int
	Offset    int
}

// Mover is one tracked query's figures over the window, and their trends
// against the equally long window before it: positive means improved.
type Mover struct {
	TrackedQueryID          uuid.UUID `json:"trackedQueryId"`
	QueryText               string    `json:"queryText"`
	Engine                  string    `json:"engine"`
	Country                 string    `json:"country"`
	AvgSerpPosition         *float64  `json:"avgSerpPosition"`
	AvgShoppingPosition     *float64  `json:"avgShoppingPosition"`
	AvgMentionPosition      *float64  `json:"avgMentionPosition"`
	AvgLinkPosition         *float64  `json:"avgLinkPosition"`
	ShareOfVoice            *float64  `json:"shareOfVoice"`
	ShareOfVoiceInterval    *Interval `json:"shareOfVoiceInterval"`
	PositivityIndex         *float64  `json:"positivityIndex"`
	PositivityIndexInterval *Interval `json:"positivityIndexInterval"`
	TrendSerp               *float64  `json:"trendSerp"`
	TrendShopping           *float64  `json:"trendShopping"`
	TrendMention            *float64  `json:"trendMention"`
	TrendLink               *float64  `json:"trendLink"`
	TrendShareOfVoice       *float64  `json:"trendShareOfVoice"`
	// Significant: the change of the sorted-by figure is larger than
	// chance at 95% (share of voice: two-proportion z-test; positions:
	// Welch's t-test); false when its trend is null or a side has too few
	// observations.
	Significant bool `json:"significant"`
}

// Movers returns one page of the tracked queries with a completed capture
// in the scope's window or the one before it, ordered by the trend asked
// for (rows without one last in either direction; ties by query text,
// engine, country and id), and how many there are.
func (a *Analytics) Movers(ctx context.Context, scope Scope, req MoversRequest) ([]Mover, int, error) {
	sums, err := a.ownSumsByQuery(ctx, scope)
	if err != nil {
		return nil, 0, err
	}
	rows := make([]Mover, 0, len(sums))
	for _, q := range req.Queries {
		if w, ok := sums[q.ID]; ok {
			rows = append(rows, newMover(q, w, req.SortBy))
		}
	}
	key := moverSortKey(req.SortBy)
	slices.SortFunc(rows, func(a, b Mover) int {
		if c := nullsLast(key(a), key(b), req.Ascending); c != 0 {
			return c
		}
		return cmp.Or(cmp.Compare(a.QueryText, b.QueryText), cmp.Compare(a.Engine, b.Engine),
			cmp.Compare(a.Country, b.Country), slices.Compare(a.TrackedQueryID[:], b.TrackedQueryID[:]))
	})
	return pageOf(rows, req.Limit, req.Offset), len(rows), nil
}

func newMover(q MoverQuery, w *windowSums, sortBy MoverSort) Mover {
	cur, prev := w.current, w.previous
	m := Mover{
		TrackedQueryID: q.ID, QueryText: q.QueryText, Engine: q.Engine, Country: q.Country,
		AvgSerpPosition: cur.serp.avg(), AvgShoppingPosition: cur.shopping.avg(),
		AvgMentionPosition: cur.mention.avg(), AvgLinkPosition: cur.link.avg(),
	}
	m.ShareOfVoice, m.ShareOfVoiceInterval = cur.shareOfVoice()
	m.PositivityIndex, m.PositivityIndexInterval = cur.positivityIndex()
	m.TrendSerp = trendOfPosition(prev.serp.avg(), m.AvgSerpPosition)
	m.TrendShopping = trendOfPosition(prev.shopping.avg(), m.AvgShoppingPosition)
	m.TrendMention = trendOfPosition(prev.mention.avg(), m.AvgMentionPosition)
	m.TrendLink = trendOfPosition(prev.link.avg(), m.AvgLinkPosition)
	previousShare, _ := prev.shareOfVoice()
	m.TrendShareOfVoice = trendOfRate(previousShare, m.ShareOfVoice)
	if moverSortKey(sortBy)(m) != nil {
		switch sortBy {
		case MoverTrendSerp:
			m.Significant = prev.serp.significantChange(cur.serp)
		case MoverTrendShopping:
			m.Significant = prev.shopping.significantChange(cur.shopping)
		case MoverTrendMention:
			m.Significant = prev.mention.significantChange(cur.mention)
		case MoverTrendLink:
			m.Significant = prev.link.significantChange(cur.link)
		case MoverTrendShareOfVoice:
			m.Significant = prev.significantShareChange(cur)
		}
	}
	return m
}

// moverSortKey is the field a sort key orders by.
func moverSortKey(sortBy MoverSort) func(Mover) *float64 {
	switch sortBy {
	case MoverTrendSerp:
		return func(m Mover) *float64 { return m.TrendSerp }
	case MoverTrendShopping:
		return func(m Mover) *float64 { return m.TrendShopping }
	case MoverTrendMention:
		return func(m Mover) *float64 { return m.TrendMention }
	case MoverTrendLink:
		return func(m Mover) *float64 { return m.TrendLink }
	default:
		return func(m Mover) *float64 { return m.TrendShareOfVoice }
	}
}

// nullsLast orders two optional values in the direction asked for,
// with a missing value after every present one either way.
func nullsLast[T cmp.Ordered](a, b *T, ascending bool) int {
	switch {
	case a == nil && b == nil:
		return 0
	case a == nil:
		return 1
	case b == nil:
		return -1
	case ascending:
		return cmp.Compare(*a, *b)
	default:
		return cmp.Compare(*b, *a)
	}
}

// pageOf is rows[offset : offset+limit], clipped.
func pageOf[T any](rows []T, limit, offset int) []T {
	if offset >= len(rows) {
		return []T{}
	}
	return rows[offset:min(len(rows), offset+limit)]
}
