package olap

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/ClickHouse/clickhouse-go/v2/lib/driver"
	"github.com/google/uuid"

	"github.com/sightline/sightline"
)

// Mentions: single mention matches (samples, from the raw mentions table),
// the own brand's mention mix and the sentiment per engine and competitor
// (from mentions_daily).

// MentionSort orders mention samples. Every order ends with the capture
// time, newest first, then the id (its text form, ascending), so pages
// are stable.
type MentionSort string

// The orders of GET /mentions.
const (
	MentionSortRecent   MentionSort = "recent"   // newest first
	MentionSortNegative MentionSort = "negative" // negative tone first, then newest
	MentionSortEngine   MentionSort = "engine"   // engine name A-Z, then newest
	MentionSortCountry  MentionSort = "country"  // country code A-Z, then newest
)

// mentionOrder is the ORDER BY of each sort; literal text only.
var mentionOrder = map[MentionSort]string{
	MentionSortRecent:   "captured_at DESC, toString(id)",
	MentionSortNegative: "tone = 'negative' DESC, captured_at DESC, toString(id)",
	MentionSortEngine:   "engine, captured_at DESC, toString(id)",
	MentionSortCountry:  "country, captured_at DESC, toString(id)",
}

// MentionFilter narrows mention samples beyond their scope.
type MentionFilter struct {
	Tone sightline.Tone        // "" for every tone
	Type sightline.MentionType // "" for every type
	// CompetitorID keeps the mentions of that tracked competitor; nil keeps
	// the rows without one: the own brand's and untracked competitors'.
	CompetitorID  *uuid.UUID
	Sort          MentionSort
	Limit, Offset int
}

// MentionSample is one stored mention match. Country is the one the query
// was asked from; the API blanks it for a query deleted since.
type MentionSample struct {
	ID              uuid.UUID             `json:"id"`
	AIResponseID    uuid.UUID             `json:"aiResponseId"`
	TrackedQueryID  uuid.UUID             `json:"trackedQueryId"`
	DetectedAt      sightline.Timestamp   `json:"detectedAt"`
	MentionText     string                `json:"mentionText"`
	Engine          sightline.Engine      `json:"engine"`
	Country         *string               `json:"country"`
	QueryText       string                `json:"queryText"`
	Sentiment       sightline.Tone        `json:"sentiment"`
	MentionType     sightline.MentionType `json:"mentionType"`
	MentionPosition int                   `json:"mentionPosition"`
	CompetitorID    *uuid.UUID            `json:"competitorId"`
	MentionRelation sightline.Relation    `json:"mentionRelation"`
	BrandName       string                `json:"brandName"`
}

// mentionCountColumn is the mentions_daily column that counts the rows of
// a filter, when one does: a tone or a type alone, or neither.
func mentionCountColumn(f MentionFilter) (string, bool) {
	switch {
	case f.Tone != "" && f.Type != "":
		return "", false
	case f.Tone != "":
		return map[sightline.Tone]string{
			sightline.TonePositive: "tone_positive", sightline.ToneNeutral: "tone_neutral",
			sightline.ToneNegative: "tone_negative",
		}[f.Tone], true
	case f.Type != "":
		return map[sightline.MentionType]string{
			sightline.MentionRecommendation: "type_recommendation", sightline.MentionComparison: "type_comparison",
			sightline.MentionListing: "type_listing", sightline.MentionExample: "type_example",
			sightline.MentionReference: "type_reference",
		}[f.Type], true
	}
	return "mentions", true
}

// MentionSamples returns one page of the mention matches in scope and how
// many match. Rows come from the raw mentions table (FINAL: a pass stored
// twice shows once), narrowed on the head of its sorting key (project,
// capture day). When mentions_daily can count the filter's rows (a tone or
// a type alone, or neither), one read of it per day and sort group gives
// the total and the days and groups the page falls on, and the page reads
// those only: a few days of raw rows rather than the whole window.
//
// Newest first, the read starts at the window's last day and keeps the
// requested offset, so the rollup's counts only choose how far back it
// reaches: a page that comes back short without reaching the window's
// first day is read again over the whole window, and the page is exact
// even where the rollup and the raw table disagree. Sorted by a group
// first (engine, country, negative tone), the read covers the page's
// groups and days only and takes its offset from the rollup's counts, as
// the total does; a page shorter than the total promises is read again
// over the whole window.
func (a *Analytics) MentionSamples(ctx context.Context, s Scope, f MentionFilter) ([]MentionSample, int, error) {
	// A capture carries its check's time, never later than now: a window
	// ending after tomorrow is cut there, which also keeps the raw reads'
	// bounds inside DateTime64's range.
	if horizon := time.Now().UTC().Truncate(24*time.Hour).AddDate(0, 0, 1); s.To.After(horizon) {
		s.To = horizon
	}
	if s.Empty() || s.From.After(s.To) {
		return []MentionSample{}, 0, nil
	}
	latest, c, err := a.latestMentions(ctx, s, f)
	if err != nil {
		return nil, 0, err
	}
	if !c.counted {
		if c.total, err = a.mentionRawCount(ctx, s, f); err != nil {
			return nil, 0, err
		}
	}
	if latest != nil {
		return latest, c.total, nil
	}
	if c.total == 0 || f.Offset >= c.total {
		return []MentionSample{}, c.total, nil
	}
	if n, ok := narrowMentions(s, f, c.buckets); ok {
		page, err := a.mentionPage(ctx, n.scope, f, n.where, n.args, n.offset)
		trusted := len(page) >= min(f.Limit, c.total-f.Offset)
		if n.anchored {
			trusted = len(page) == f.Limit || !n.scope.From.After(s.From)
		}
		if err != nil || trusted {
			return page, c.total, err
		}
	}
	page, err := a.mentionPage(ctx, s, f, "", nil, f.Offset)
	return page, c.total, err
}

// latestMentions counts the filter's rows (mentionBuckets). Newest first
// and near the top of the order, it reads the window's last day (today at
// the latest) at the same time: a full page there is exact, the read starting where the order
// does, and spares a second round trip; it is returned, else nil. Near the
// top means a page ending within the first 100 rows, which a project's day
// of answers usually holds.
func (a *Analytics) latestMentions(ctx context.Context, s Scope, f MentionFilter) ([]MentionSample, mentionCounts, error) {
	if f.Sort != MentionSortRecent || f.Offset+f.Limit > 100 {
		c, err := a.mentionBuckets(ctx, s, f)
		return nil, c, err
	}
	var (
		c    mentionCounts
		err  error
		done = make(chan struct{})
	)
	go func() {
		defer close(done)
		c, err = a.mentionBuckets(ctx, s, f)
	}()
	// The window's last day with captures: today at the latest.
	last := s
	last.From = s.To
	if today := time.Now().UTC().Truncate(24 * time.Hour); last.From.After(today) {
		last.From = today
	}
	if last.From.Before(s.From) {
		last.From = s.From
	}
	page, pageErr := a.mentionPage(ctx, last, f, "", nil, f.Offset)
	<-done
	switch {
	case err != nil:
		return nil, c, err
	case pageErr != nil:
		return nil, c, pageErr
	case len(page) < f.Limit:
		return nil, c, nil
	}
	return page, c, nil
}

// mentionWhere is the raw mentions predicate of the scope and filter.
func mentionWhere(s Scope, f MentionFilter) (string, []any) {
	where, args := s.rawWhere()
	if f.Tone != "" {
		where += " AND tone = ?"
		args = append(args, string(f.Tone))
	}
	if f.Type != "" {
		where += " AND mention_type = ?"
		args = append(args, string(f.Type))
	}
	if f.CompetitorID != nil {
		where += " AND competitor_id = ?"
		args = append(args, *f.CompetitorID)
	} else {
		where += " AND competitor_id IS NULL"
	}
	return where, args
}

// finalWithinPartitions ends a FINAL read of a raw table partitioned by
// the month of captured_at: the rows FINAL collapses share their sorting
// key, which holds the capture day, so they always lie in one partition.
// Told so, ClickHouse prunes the partitions outside the window; otherwise
// a FINAL read of one day reads a granule of every month kept and merges
// them all.
const finalWithinPartitions = " SETTINGS do_not_merge_across_partitions_select_final = 1"

// mentionPage reads one page of the scope's mention matches, narrowed
// further by the literal predicate extra.
func (a *Analytics) mentionPage(ctx context.Context, s Scope, f MentionFilter, extra string, extraArgs []any, offset int) ([]MentionSample, error) {
	where, args := mentionWhere(s, f)
	return collectRows(ctx, a.Conn, "reading mention samples", `
		SELECT id, answer_id, tracked_query_id, captured_at, mention_text, engine, country, query_text, tone,
		       mention_type, position, competitor_id, relation, brand_name
		FROM mentions FINAL
		WHERE `+where+extra+`
		ORDER BY `+mentionOrder[f.Sort]+`
		LIMIT ? OFFSET ?`+finalWithinPartitions, append(append(args, extraArgs...), f.Limit, offset), func(rows driver.Rows) (MentionSample, error) {
		var (
			m                                     MentionSample
			country, engine, tone, kind, relation string
			position                              uint16
		)
		if err := rows.Scan(&m.ID, &m.AIResponseID, &m.TrackedQueryID, &m.DetectedAt, &m.MentionText, &engine,
			&country, &m.QueryText, &tone, &kind, &position, &m.CompetitorID, &relation, &m.BrandName); err != nil {
			return m, err
		}
		m.Engine, m.Country, m.Sentiment, m.MentionType = sightline.Engine(engine), &country, sightline.Tone(tone),
			sightline.MentionType(kind)
		m.MentionPosition, m.MentionRelation = int(position), sightline.Relation(relation)
		return m, nil
	})
}

// mentionRawCount counts the filter's rows in the raw table, for filters
// mentions_daily cannot count (a tone and a type together).
func (a *Analytics) mentionRawCount(ctx context.Context, s Scope, f MentionFilter) (int, error) {
	where, args := mentionWhere(s, f)
	var n uint64
	if err := a.Conn.QueryRow(ctx, `SELECT count() FROM mentions FINAL WHERE `+where+finalWithinPartitions, args...).Scan(&n); err != nil {
		return 0, fmt.Errorf("counting mention samples: %w", err)
	}
	return int(n), nil
}

// mentionBucket is how many of the filter's rows one day holds in one
// group of the sort (one engine, one country, negative or not; a single
// group for recent).
type mentionBucket struct {
	group string
	day   time.Time
	n     int
}

// mentionCounts are the filter's rows per sort group and day, in the order
// of the sort, and their total. counted is false when mentions_daily
// cannot count the filter (total is then unknown); buckets is nil when it
// can count it but not split it by the sort's groups (negative first with
// a mention type).
type mentionCounts struct {
	buckets []mentionBucket
	total   int
	counted bool
}

// mentionBuckets counts the filter's rows per sort group and day from
// mentions_daily: the brand's rows, the competitor's or the nil competitor
// standing for the own brand and untracked ones.
func (a *Analytics) mentionBuckets(ctx context.Context, s Scope, f MentionFilter) (mentionCounts, error) {
	var c mentionCounts
	column, ok := mentionCountColumn(f)
	if !ok {
		return c, nil
	}
	where, args := s.rollupWhere()
	competitor := uuid.Nil
	if f.CompetitorID != nil {
		competitor = *f.CompetitorID
	}
	args = append(args, competitor)
	// Each variant yields (group, day, rows, negative rows) in the sort's
	// order; literal text only.
	query := `SELECT '', day, toInt64(sum(` + column + `)), toInt64(0) FROM mentions_daily
		WHERE ` + where + ` AND competitor_id = ? GROUP BY day ORDER BY day DESC`
	switch {
	case f.Sort == MentionSortEngine:
		query = `SELECT toString(engine) AS g, day, toInt64(sum(` + column + `)), toInt64(0) FROM mentions_daily
			WHERE ` + where + ` AND competitor_id = ? GROUP BY g, day ORDER BY g, day DESC`
	case f.Sort == MentionSortCountry:
		query = `SELECT toString(country) AS g, day, toInt64(sum(` + column + `)), toInt64(0) FROM mentions_daily
			WHERE ` + where + ` AND competitor_id = ? GROUP BY g, day ORDER BY g, day DESC`
	case f.Sort == MentionSortNegative && f.Tone == "":
		query = `SELECT '', day, toInt64(sum(` + column + `)), toInt64(sum(tone_negative)) FROM mentions_daily
			WHERE ` + where + ` AND competitor_id = ? GROUP BY day ORDER BY day DESC`
	}
	var negatives []mentionBucket
	err := scanRows(ctx, a.Conn, "counting mention samples", query, args, func(rows driver.Rows) error {
		var (
			b           mentionBucket
			n, negative int64
		)
		if err := rows.Scan(&b.group, &b.day, &n, &negative); err != nil {
			return err
		}
		c.total += int(n)
		if f.Sort == MentionSortNegative && f.Tone == "" {
			// Negative rows first, then the others, each newest day first.
			negatives = append(negatives, mentionBucket{group: "negative", day: b.day, n: int(negative)})
			b.group, b.n = "other", int(n-negative)
		} else {
			b.n = int(n)
		}
		c.buckets = append(c.buckets, b)
		return nil
	})
	if err != nil {
		return c, err
	}
	c.counted = true
	if f.Sort == MentionSortNegative && f.Tone == "" {
		if f.Type != "" {
			// Negatives of one type are not counted by day.
			c.buckets = nil
			return c, nil
		}
		c.buckets = append(negatives, c.buckets...)
	}
	return c, nil
}

// mentionNarrowing is where a page of mention samples lies: the days, the
// sort groups (a literal predicate) and the offset within them.
type mentionNarrowing struct {
	scope  Scope
	where  string
	args   []any
	offset int
	// anchored: the read runs from the window's last day and offset is
	// the requested one (newest first, a single group).
	anchored bool
}

// narrowMentions finds the buckets that rows offset .. offset+limit of
// the sort fall in and returns the smallest day span and group set that
// hold them, with the page's offset among the rows of that span and set.
func narrowMentions(s Scope, f MentionFilter, buckets []mentionBucket) (mentionNarrowing, bool) {
	first, last, before, cum := -1, -1, 0, 0
	for i, b := range buckets {
		if b.n > 0 {
			if first < 0 && cum+b.n > f.Offset {
				first, before = i, cum
			}
			if first >= 0 && cum < f.Offset+f.Limit {
				last = i
			}
		}
		cum += b.n
	}
	if first < 0 {
		return mentionNarrowing{}, false
	}
	if buckets[last].group == "" {
		// One group, newest day first: read from the window's last day
		// back to the page's last day, at the requested offset.
		n := mentionNarrowing{scope: s, offset: f.Offset, anchored: true}
		n.scope.From = buckets[last].day
		return n, true
	}
	n := mentionNarrowing{scope: s, offset: f.Offset - before}
	n.scope.From, n.scope.To = buckets[first].day, buckets[first].day
	var groups []string
	for _, b := range buckets[first : last+1] {
		if b.day.Before(n.scope.From) {
			n.scope.From = b.day
		}
		if b.day.After(n.scope.To) {
			n.scope.To = b.day
		}
		if !slices.Contains(groups, b.group) {
			groups = append(groups, b.group)
		}
	}
	// Rows of the span and groups that the sort puts before the first
	// bucket count towards the offset.
	for _, b := range buckets[:first] {
		if slices.Contains(groups, b.group) && !b.day.Before(n.scope.From) && !b.day.After(n.scope.To) {
			n.offset += b.n
		}
	}
	switch f.Sort {
	case MentionSortEngine:
		n.where, n.args = " AND engine IN ?", []any{groups}
	case MentionSortCountry:
		n.where, n.args = " AND country IN ?", []any{groups}
	case MentionSortNegative:
		if len(groups) == 1 && groups[0] == "negative" {
			n.where = " AND tone = 'negative'"
		} else if len(groups) == 1 && groups[0] == "other" {
			n.where = " AND tone != 'negative'"
		}
	}
	return n, true
}

// MentionMix is how the own brand is named in the window: every bucket of
// each grouping is present, and each grouping sums to Total.
type MentionMix struct {
	ByType      MentionMixTypes      `json:"byType"`
	ByTone      MentionMixTones      `json:"byTone"`
	ByQualifier MentionMixQualifiers `json:"byQualifier"`
	Total       int64                `json:"total"`
}

// MentionMixTypes counts mentions per mention type.
type MentionMixTypes struct {
	Recommendation int64 `json:"recommendation"`
	Comparison     int64 `json:"comparison"`
	Listing        int64 `json:"listing"`
	Example        int64 `json:"example"`
	Reference      int64 `json:"reference"`
}

// MentionMixTones counts mentions per tone.
type MentionMixTones struct {
	Positive int64 `json:"positive"`
	Neutral  int64 `json:"neutral"`
	Negative int64 `json:"negative"`
}

// MentionMixQualifiers counts mentions per qualifier.
type MentionMixQualifiers struct {
	Direct      int64 `json:"direct"`
	Conditional int64 `json:"conditional"`
}

// MentionMix sums the own brand's mentions_daily rows in scope.
func (a *Analytics) MentionMix(ctx context.Context, s Scope) (MentionMix, error) {
	var m MentionMix
	if s.Empty() {
		return m, nil
	}
	from, args := s.rollupFrom("mentions_daily")
	err := a.Conn.QueryRow(ctx, `
		SELECT toInt64(sum(type_recommendation)), toInt64(sum(type_comparison)), toInt64(sum(type_listing)),
		       toInt64(sum(type_example)), toInt64(sum(type_reference)),
		       toInt64(sum(tone_positive)), toInt64(sum(tone_neutral)), toInt64(sum(tone_negative)),
		       toInt64(sum(qualifier_direct)), toInt64(sum(qualifier_conditional)), toInt64(sum(mentions))
		FROM `+from+`
		WHERE relation = 'own'`, args...).Scan(
		&m.ByType.Recommendation, &m.ByType.Comparison, &m.ByType.Listing, &m.ByType.Example, &m.ByType.Reference,
		&m.ByTone.Positive, &m.ByTone.Neutral, &m.ByTone.Negative,
		&m.ByQualifier.Direct, &m.ByQualifier.Conditional, &m.Total)
	if err != nil {
		return m, fmt.Errorf("reading mention mix: %w", err)
	}
	return m, nil
}

// SentimentFigures are a brand's mentions by tone and its positivity index,
// 100 x (positive + 0.5 x neutral) / mentions, with its interval; both nil
// without mentions.
type SentimentFigures struct {
	Positive                int64     `json:"positive"`
	Neutral                 int64     `json:"neutral"`
	Negative                int64     `json:"negative"`
	MentionCount            int64     `json:"mentionCount"`
	PositivityIndex         *float64  `json:"positivityIndex"`
	PositivityIndexInterval *Interval `json:"positivityIndexInterval"`
}

func sentimentFigures(positive, neutral, negative, mentions int64) SentimentFigures {
	t := SentimentFigures{Positive: positive, Neutral: neutral, Negative: negative, MentionCount: mentions}
	t.PositivityIndex, t.PositivityIndexInterval = Percent(float64(positive)+0.5*float64(neutral), mentions)
	return t
}

// EngineSentiment is the own brand's tone on one AI engine.
type EngineSentiment struct {
	Engine sightline.Engine `json:"engine"`
	SentimentFigures
}

// Sentiment is the tone of the own brand's mentions per AI engine in scope
// (every AI engine the scope's engines allow, in the order of
// sightline.Engines, with or without mentions) and of each of competitors'
// mentions, in the order given, from one read of mentions_daily.
func (a *Analytics) Sentiment(ctx context.Context, s Scope, competitors []uuid.UUID) ([]EngineSentiment, []SentimentFigures, error) {
	type counts struct{ positive, neutral, negative, mentions int64 }
	own := map[sightline.Engine]*counts{}
	theirs := map[uuid.UUID]*counts{}
	if !s.Empty() {
		from, args := s.rollupFrom("mentions_daily")
		err := scanRows(ctx, a.Conn, "reading sentiment", `
			SELECT toString(relation), competitor_id, engine, toInt64(sum(tone_positive)), toInt64(sum(tone_neutral)),
			       toInt64(sum(tone_negative)), toInt64(sum(mentions))
			FROM `+from+`
			WHERE relation IN ('own', 'tracked-competitor')
			GROUP BY relation, competitor_id, engine`, args, func(rows driver.Rows) error {
			var (
				relation, engine string
				competitor       uuid.UUID
				c                counts
			)
			if err := rows.Scan(&relation, &competitor, &engine, &c.positive, &c.neutral, &c.negative, &c.mentions); err != nil {
				return err
			}
			if relation == string(sightline.RelationOwn) {
				own[sightline.Engine(engine)] = &c
				return nil
			}
			sum := entryOf(theirs, competitor)
			sum.positive, sum.neutral = sum.positive+c.positive, sum.neutral+c.neutral
			sum.negative, sum.mentions = sum.negative+c.negative, sum.mentions+c.mentions
			return nil
		})
		if err != nil {
			return nil, nil, err
		}
	}
	perEngine := []EngineSentiment{}
	for _, e := range sentimentEngines(s) {
		c := own[e]
		if c == nil {
			c = &counts{}
		}
		perEngine = append(perEngine, EngineSentiment{Engine: e,
			SentimentFigures: sentimentFigures(c.positive, c.neutral, c.negative, c.mentions)})
	}
	perCompetitor := make([]SentimentFigures, len(competitors))
	for i, id := range competitors {
		c := theirs[id]
		if c == nil {
			c = &counts{}
		}
		perCompetitor[i] = sentimentFigures(c.positive, c.neutral, c.negative, c.mentions)
	}
	return perEngine, perCompetitor, nil
}

// sentimentEngines are the AI engines the scope allows, in the order of
// sightline.Engines: every one without an engine filter.
func sentimentEngines(s Scope) []sightline.Engine {
	var out []sightline.Engine
	for _, e := range sightline.Engines {
		if e.AI() && (len(s.Engines) == 0 || slices.Contains(s.Engines, e)) {
			out = append(out, e)
		}
	}
	return out
}
