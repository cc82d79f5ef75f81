package olap

import (
	"cmp"
	"context"
	"fmt"
	"slices"

	"github.com/ClickHouse/clickhouse-go/v2/lib/driver"
	"github.com/google/uuid"
	"golang.org/x/sync/errgroup"
)

// Movers (GET /metrics/movers) and the keyword listing (analytics_keywords.go)
// both start from the own brand's sums per tracked query over the window
// and the equally long one before it, read from ranks_daily and
// mentions_daily in two queries run together. Every figure of a row (averages, rates,
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

// queryWindow is a tracked query in one window: current = 1 from the
// window's first day, 0 before it.
type queryWindow struct {
	id      uuid.UUID
	current uint8
}

// ownRanksSQL sums, per tracked query and window, the own brand's passes
// and positions from the ranks rollups; ownVoicesSQL sums every brand's
// worth and mentions and the own brand's tones and types from the mentions
// rollups. The %s are FROM items over both windows (perQueryFrom: whole
// months from the monthly rollups, whose rows lie in the window they sum,
// so day still tells the windows apart). Two queries run together and
// joined here cost the server less than one query joining them.
const (
	ownRanksSQL = `
		SELECT tracked_query_id, toUInt8(day >= ?) AS current,
		       sumIf(passes, engine IN ('chatgpt', 'perplexity', 'google_ai_overview', 'google_ai_mode')),
		       sum(mention_count), sum(mention_position_sum), sum(mention_position_sq_sum),
		       sum(link_count), sum(link_position_sum), sum(link_position_sq_sum),
		       sum(serp_count), sum(serp_position_sum), sum(serp_position_sq_sum),
		       sum(shopping_count), sum(shopping_position_sum), sum(shopping_position_sq_sum)
		FROM %s
		WHERE relation = 'own'
		GROUP BY tracked_query_id, current`
	ownVoicesSQL = `
		SELECT tracked_query_id, toUInt8(day >= ?) AS current,
		       sumIf(worth, relation = 'own'), sum(worth), sumIf(mentions, relation = 'own'), sum(mentions),
		       sumIf(tone_positive, relation = 'own'), sumIf(tone_neutral, relation = 'own'),
		       sumIf(type_recommendation, relation = 'own'), sumIf(type_comparison, relation = 'own'),
		       sumIf(type_listing, relation = 'own'), sumIf(type_example, relation = 'own'),
		       sumIf(type_reference, relation = 'own')
		FROM %s
		GROUP BY tracked_query_id, current`
)

// ownSumsByQuery reads the own brand's sums of every tracked query in the
// scope that has a completed capture in the window or the one before it.
// Every own pass has a ranks_daily row, so the (query, window) pairs with
// rank sums are those with a completed capture; mention sums of any other
// pair are left out.
func (a *Analytics) ownSumsByQuery(ctx context.Context, scope Scope) (map[uuid.UUID]*windowSums, error) {
	out := map[uuid.UUID]*windowSums{}
	if scope.Empty() {
		return out, nil
	}
	ranks, ranksArgs := perQueryFrom("ranks_daily", scope.Previous(), scope)
	voices, voicesArgs := perQueryFrom("mentions_daily", scope.Previous(), scope)
	from := sqlDay(scope.From)
	ranked, voiced := map[queryWindow]ownSums{}, map[queryWindow]ownSums{}
	g, gctx := errgroup.WithContext(ctx)
	g.Go(func() error {
		return scanRows(gctx, a.Conn, "reading own rank sums per tracked query", fmt.Sprintf(ownRanksSQL, ranks),
			append([]any{from}, ranksArgs...), func(rows driver.Rows) error {
				var k queryWindow
				var s ownSums
				if err := rows.Scan(&k.id, &k.current, &s.aiPasses,
					&s.mention.count, &s.mention.sum, &s.mention.sq, &s.link.count, &s.link.sum, &s.link.sq,
					&s.serp.count, &s.serp.sum, &s.serp.sq, &s.shopping.count, &s.shopping.sum, &s.shopping.sq); err != nil {
					return err
				}
				ranked[k] = s
				return nil
			})
	})
	g.Go(func() error {
		return scanRows(gctx, a.Conn, "reading own mention sums per tracked query", fmt.Sprintf(ownVoicesSQL, voices),
			append([]any{from}, voicesArgs...), func(rows driver.Rows) error {
				var k queryWindow
				var s ownSums
				if err := rows.Scan(&k.id, &k.current, &s.ownWorth, &s.allWorth, &s.ownMentions, &s.allMentions,
					&s.positive, &s.neutral, &s.recommendation, &s.comparison, &s.listing, &s.example, &s.reference); err != nil {
					return err
				}
				voiced[k] = s
				return nil
			})
	})
	if err := g.Wait(); err != nil {
		return nil, err
	}
	for k, s := range ranked {
		v := voiced[k]
		s.ownWorth, s.allWorth, s.ownMentions, s.allMentions = v.ownWorth, v.allWorth, v.ownMentions, v.allMentions
		s.positive, s.neutral = v.positive, v.neutral
		s.recommendation, s.comparison, s.listing, s.example, s.reference = v.recommendation, v.comparison, v.listing,
			v.example, v.reference
		w := entryOf(out, k.id)
		if k.current == 1 {
			w.current = s
		} else {
			w.previous = s
		}
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
