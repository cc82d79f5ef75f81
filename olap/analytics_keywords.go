package olap

import (
	"cmp"
	"context"
	"slices"
	"time"

	"github.com/google/uuid"

	"github.com/sightline/sightline"
)

// The keyword listing (GET /keyword-listings): one row per distinct query
// text, over the tracked queries behind it (its variants: one per engine
// and country). The variants and what the write model knows of them come
// from Postgres; the figures are the own brand's sums of every variant
// (ownSumsByQuery) added up per keyword, so a keyword's average position
// weighs each variant by its observations.

// KeywordSort is a sort key of the keyword listing.
type KeywordSort string

// The keyword listing's sort keys (spec 4.3).
const (
	KeywordSortKeyword                  KeywordSort = "keyword"
	KeywordSortVariantCount             KeywordSort = "variantCount"
	KeywordSortLastCheckedAt            KeywordSort = "lastCheckedAt"
	KeywordSortStatusSummary            KeywordSort = "statusSummary"
	KeywordSortPositivityIndex          KeywordSort = "positivityIndex"
	KeywordSortShareOfVoice             KeywordSort = "shareOfVoice"
	KeywordSortAvgMentionPosition       KeywordSort = "avgMentionPosition"
	KeywordSortAvgLinkPosition          KeywordSort = "avgLinkPosition"
	KeywordSortMentionPositionStability KeywordSort = "mentionPositionStability"
	KeywordSortAvgSerpPosition          KeywordSort = "avgSerpPosition"
	KeywordSortAvgShoppingPosition      KeywordSort = "avgShoppingPosition"
)

// KeywordSorts lists the sort keys, the default first.
var KeywordSorts = []string{string(KeywordSortKeyword), string(KeywordSortVariantCount),
	string(KeywordSortLastCheckedAt), string(KeywordSortStatusSummary), string(KeywordSortPositivityIndex),
	string(KeywordSortShareOfVoice), string(KeywordSortAvgMentionPosition), string(KeywordSortAvgLinkPosition),
	string(KeywordSortMentionPositionStability), string(KeywordSortAvgSerpPosition),
	string(KeywordSortAvgShoppingPosition)}

// byWriteModel reports whether the key is known without the figures, so
// that a page can be cut before they are read.
func (k KeywordSort) byWriteModel() bool {
	switch k {
	case KeywordSortKeyword, KeywordSortVariantCount, KeywordSortLastCheckedAt, KeywordSortStatusSummary:
		return true
	}
	return false
}

// KeywordVariants is a keyword and its variants as the write model has
// them.
type KeywordVariants struct {
	Keyword       string
	VariantIDs    []uuid.UUID
	Active        int // variants active
	Paused        int // variants paused
	LastCheckedAt *time.Time
}

// KeywordListingRequest asks for one page of the keyword listing.
type KeywordListingRequest struct {
	// Keywords are every keyword the filters keep, each with its variants
	// that match every filter.
	Keywords  []KeywordVariants
	SortBy    KeywordSort
	Ascending bool
	Limit     int
	Offset    int
}

// KeywordMentionTypes counts the own brand's mentions by type.
type KeywordMentionTypes struct {
	Recommendation uint64 `json:"recommendation"`
	Comparison     uint64 `json:"comparison"`
	Listing        uint64 `json:"listing"`
	Example        uint64 `json:"example"`
	Reference      uint64 `json:"reference"`
}

// KeywordRow is one keyword: its variants, the own brand's figures over
// them in the window, and their trends against the equally long window
// before it (positive means improved).
type KeywordRow struct {
	Keyword                  string               `json:"keyword"`
	VariantIDs               []uuid.UUID          `json:"variantIds"`
	VariantCount             int                  `json:"variantCount"`
	StatusSummary            string               `json:"statusSummary"` // active, paused or mixed
	LastCheckedAt            *sightline.Timestamp `json:"lastCheckedAt"`
	ShareOfVoice             *float64             `json:"shareOfVoice"`
	ShareOfVoiceInterval     *Interval            `json:"shareOfVoiceInterval"`
	PositivityIndex          *float64             `json:"positivityIndex"`
	PositivityIndexInterval  *Interval            `json:"positivityIndexInterval"`
	MentionRate              *float64             `json:"mentionRate"`
	MentionRateInterval      *Interval            `json:"mentionRateInterval"`
	AvgMentionPosition       *float64             `json:"avgMentionPosition"`
	AvgLinkPosition          *float64             `json:"avgLinkPosition"`
	MentionPositionStability *float64             `json:"mentionPositionStability"`
	AvgSerpPosition          *float64             `json:"avgSerpPosition"`
	AvgShoppingPosition      *float64             `json:"avgShoppingPosition"`
	MentionTypeCounts        KeywordMentionTypes  `json:"mentionTypeCounts"`
	TrendShareOfVoice        *float64             `json:"trendShareOfVoice"`
	TrendPositivityIndex     *float64             `json:"trendPositivityIndex"`
	TrendMention             *float64             `json:"trendMention"`
	TrendLink                *float64             `json:"trendLink"`
	TrendSerp                *float64             `json:"trendSerp"`
	TrendShopping            *float64             `json:"trendShopping"`
}

// KeywordListing returns one page of the keywords, ordered by the key
// asked for (rows without a value of it last in either direction; ties by
// keyword). Every keyword is ordered before the page is cut; when the key
// needs no figure, figures are read for the page's variants only.
func (a *Analytics) KeywordListing(ctx context.Context, scope Scope, req KeywordListingRequest) ([]KeywordRow, error) {
	rows := make([]KeywordRow, len(req.Keywords))
	for i, k := range req.Keywords {
		rows[i] = newKeywordRow(k)
	}
	order := keywordOrder(req.SortBy, req.Ascending)
	if req.SortBy.byWriteModel() {
		slices.SortFunc(rows, order)
		rows = pageOf(rows, req.Limit, req.Offset)
		if err := a.keywordFigures(ctx, scope, rows); err != nil {
			return nil, err
		}
		return rows, nil
	}
	if err := a.keywordFigures(ctx, scope, rows); err != nil {
		return nil, err
	}
	slices.SortFunc(rows, order)
	return pageOf(rows, req.Limit, req.Offset), nil
}

func newKeywordRow(k KeywordVariants) KeywordRow {
	row := KeywordRow{Keyword: k.Keyword, VariantIDs: k.VariantIDs, VariantCount: len(k.VariantIDs)}
	switch {
	case k.Paused == 0:
		row.StatusSummary = "active"
	case k.Active == 0:
		row.StatusSummary = "paused"
	default:
		row.StatusSummary = "mixed"
	}
	if k.LastCheckedAt != nil {
		row.LastCheckedAt = &sightline.Timestamp{Time: *k.LastCheckedAt}
	}
	return row
}

// keywordVariantsSent is the most variant ids a read of the figures sends
// to narrow itself. The ids cannot skip any of the rollups' granules (the
// tracked query comes after the day in their keys), so they only spare the
// aggregation of other queries' rows, while each id costs the server
// parsing: a larger set reads the whole scope instead, and only the rows'
// variants are added up either way.
const keywordVariantsSent = 256

// keywordFigures fills in the figures of rows in one read.
func (a *Analytics) keywordFigures(ctx context.Context, scope Scope, rows []KeywordRow) error {
	var ids []uuid.UUID
	for _, r := range rows {
		ids = append(ids, r.VariantIDs...)
	}
	if len(ids) == 0 {
		return nil
	}
	scope.TrackedQueryIDs = nil
	if len(ids) <= keywordVariantsSent {
		scope.TrackedQueryIDs = ids
	}
	sums, err := a.ownSumsByQuery(ctx, scope)
	if err != nil {
		return err
	}
	for i := range rows {
		var w windowSums
		for _, id := range rows[i].VariantIDs {
			if s, ok := sums[id]; ok {
				w.current, w.previous = w.current.plus(s.current), w.previous.plus(s.previous)
			}
		}
		rows[i].setFigures(w)
	}
	return nil
}

func (r *KeywordRow) setFigures(w windowSums) {
	cur, prev := w.current, w.previous
	r.ShareOfVoice, r.ShareOfVoiceInterval = cur.shareOfVoice()
	r.PositivityIndex, r.PositivityIndexInterval = cur.positivityIndex()
	r.MentionRate, r.MentionRateInterval = cur.mentionRate()
	r.AvgMentionPosition, r.AvgLinkPosition = cur.mention.avg(), cur.link.avg()
	r.AvgSerpPosition, r.AvgShoppingPosition = cur.serp.avg(), cur.shopping.avg()
	r.MentionPositionStability = cur.mention.stability()
	r.MentionTypeCounts = KeywordMentionTypes{Recommendation: cur.recommendation, Comparison: cur.comparison,
		Listing: cur.listing, Example: cur.example, Reference: cur.reference}
	previousShare, _ := prev.shareOfVoice()
	previousPositivity, _ := prev.positivityIndex()
	r.TrendShareOfVoice = trendOfRate(previousShare, r.ShareOfVoice)
	r.TrendPositivityIndex = trendOfRate(previousPositivity, r.PositivityIndex)
	r.TrendMention = trendOfPosition(prev.mention.avg(), r.AvgMentionPosition)
	r.TrendLink = trendOfPosition(prev.link.avg(), r.AvgLinkPosition)
	r.TrendSerp = trendOfPosition(prev.serp.avg(), r.AvgSerpPosition)
	r.TrendShopping = trendOfPosition(prev.shopping.avg(), r.AvgShoppingPosition)
}

// keywordOrder compares rows by the key in the direction asked for,
// missing values last either way, then by keyword.
func keywordOrder(sortBy KeywordSort, ascending bool) func(a, b KeywordRow) int {
	dir := func(c int) int {
		if ascending {
			return c
		}
		return -c
	}
	var byKey func(a, b KeywordRow) int
	switch sortBy {
	case KeywordSortKeyword:
		byKey = func(a, b KeywordRow) int { return dir(cmp.Compare(a.Keyword, b.Keyword)) }
	case KeywordSortVariantCount:
		byKey = func(a, b KeywordRow) int { return dir(cmp.Compare(a.VariantCount, b.VariantCount)) }
	case KeywordSortStatusSummary:
		byKey = func(a, b KeywordRow) int { return dir(cmp.Compare(a.StatusSummary, b.StatusSummary)) }
	case KeywordSortLastCheckedAt:
		byKey = func(a, b KeywordRow) int {
			return nullsLast(keywordCheckedNanos(a), keywordCheckedNanos(b), ascending)
		}
	default:
		figure, ok := keywordFigures[sortBy]
		if !ok {
			figure = keywordFigures[KeywordSortAvgShoppingPosition]
		}
		byKey = func(a, b KeywordRow) int { return nullsLast(figure(a), figure(b), ascending) }
	}
	return func(a, b KeywordRow) int {
		return cmp.Or(byKey(a, b), cmp.Compare(a.Keyword, b.Keyword))
	}
}

func keywordCheckedNanos(r KeywordRow) *int64 {
	if r.LastCheckedAt == nil {
		return nil
	}
	n := r.LastCheckedAt.UnixNano()
	return &n
}

// keywordFigures are the figures the sort keys that need one order by.
var keywordFigures = map[KeywordSort]func(KeywordRow) *float64{
	KeywordSortPositivityIndex:          func(r KeywordRow) *float64 { return r.PositivityIndex },
	KeywordSortShareOfVoice:             func(r KeywordRow) *float64 { return r.ShareOfVoice },
	KeywordSortAvgMentionPosition:       func(r KeywordRow) *float64 { return r.AvgMentionPosition },
	KeywordSortAvgLinkPosition:          func(r KeywordRow) *float64 { return r.AvgLinkPosition },
	KeywordSortMentionPositionStability: func(r KeywordRow) *float64 { return r.MentionPositionStability },
	KeywordSortAvgSerpPosition:          func(r KeywordRow) *float64 { return r.AvgSerpPosition },
	KeywordSortAvgShoppingPosition:      func(r KeywordRow) *float64 { return r.AvgShoppingPosition },
}
