package olap

import (
	"context"
	"fmt"
	"slices"

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
// many match. The page reads the raw mentions table (FINAL: a pass stored
// twice shows once), narrowed on the head of its sorting key (project,
// capture day). The total comes from mentions_daily when the filter is one
// of its columns (a tone or a type alone, or neither), and from the raw
// table otherwise.
func (a *Analytics) MentionSamples(ctx context.Context, s Scope, f MentionFilter) ([]MentionSample, int, error) {
	page := []MentionSample{}
	if s.Empty() {
		return page, 0, nil
	}
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
	total, err := a.mentionTotal(ctx, s, f, where, args)
	if err != nil || total == 0 || f.Offset >= total {
		return page, total, err
	}
	rows, err := a.Conn.Query(ctx, `
		SELECT id, answer_id, tracked_query_id, captured_at, mention_text, engine, country, query_text, tone,
		       mention_type, position, competitor_id, relation, brand_name
		FROM mentions FINAL
		WHERE `+where+`
		ORDER BY `+mentionOrder[f.Sort]+`
		LIMIT ? OFFSET ?`, append(args, f.Limit, f.Offset)...)
	if err != nil {
		return nil, 0, fmt.Errorf("reading mention samples: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var (
			m                                     MentionSample
			country, engine, tone, kind, relation string
			position                              uint16
		)
		if err := rows.Scan(&m.ID, &m.AIResponseID, &m.TrackedQueryID, &m.DetectedAt, &m.MentionText, &engine,
			&country, &m.QueryText, &tone, &kind, &position, &m.CompetitorID, &relation, &m.BrandName); err != nil {
			return nil, 0, fmt.Errorf("reading mention samples: %w", err)
		}
		m.Engine, m.Country, m.Sentiment, m.MentionType = sightline.Engine(engine), &country, sightline.Tone(tone),
			sightline.MentionType(kind)
		m.MentionPosition, m.MentionRelation = int(position), sightline.Relation(relation)
		page = append(page, m)
	}
	if err := rows.Err(); err != nil {
		return nil, 0, fmt.Errorf("reading mention samples: %w", err)
	}
	return page, total, nil
}

// mentionTotal counts the mention matches of the filter: from
// mentions_daily (a brand's rows: the competitor's, or the nil competitor
// that stands for the own brand and untracked ones) when one of its
// columns counts them, else from the raw rows.
func (a *Analytics) mentionTotal(ctx context.Context, s Scope, f MentionFilter, rawWhere string, rawArgs []any) (int, error) {
	var n uint64
	column, ok := mentionCountColumn(f)
	if !ok {
		if err := a.Conn.QueryRow(ctx, `SELECT count() FROM mentions FINAL WHERE `+rawWhere, rawArgs...).Scan(&n); err != nil {
			return 0, fmt.Errorf("counting mention samples: %w", err)
		}
		return int(n), nil
	}
	where, args := s.rollupWhere()
	competitor := uuid.Nil
	if f.CompetitorID != nil {
		competitor = *f.CompetitorID
	}
	err := a.Conn.QueryRow(ctx, `SELECT sum(`+column+`) FROM mentions_daily WHERE `+where+` AND competitor_id = ?`,
		append(args, competitor)...).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("counting mention samples: %w", err)
	}
	return int(n), nil
}

// MentionMix is how the own brand is named in the window: every bucket of
// each grouping is present, and each grouping sums to Total.
type MentionMix struct {
	ByType      MentionTypeCounts `json:"byType"`
	ByTone      ToneCounts        `json:"byTone"`
	ByQualifier QualifierCounts   `json:"byQualifier"`
	Total       int64             `json:"total"`
}

// MentionTypeCounts counts mentions per mention type.
type MentionTypeCounts struct {
	Recommendation int64 `json:"recommendation"`
	Comparison     int64 `json:"comparison"`
	Listing        int64 `json:"listing"`
	Example        int64 `json:"example"`
	Reference      int64 `json:"reference"`
}

// ToneCounts counts mentions per tone.
type ToneCounts struct {
	Positive int64 `json:"positive"`
	Neutral  int64 `json:"neutral"`
	Negative int64 `json:"negative"`
}

// QualifierCounts counts mentions per qualifier.
type QualifierCounts struct {
	Direct      int64 `json:"direct"`
	Conditional int64 `json:"conditional"`
}

// MentionMix sums the own brand's mentions_daily rows in scope.
func (a *Analytics) MentionMix(ctx context.Context, s Scope) (MentionMix, error) {
	var m MentionMix
	if s.Empty() {
		return m, nil
	}
	where, args := s.rollupWhere()
	err := a.Conn.QueryRow(ctx, `
		SELECT toInt64(sum(type_recommendation)), toInt64(sum(type_comparison)), toInt64(sum(type_listing)),
		       toInt64(sum(type_example)), toInt64(sum(type_reference)),
		       toInt64(sum(tone_positive)), toInt64(sum(tone_neutral)), toInt64(sum(tone_negative)),
		       toInt64(sum(qualifier_direct)), toInt64(sum(qualifier_conditional)), toInt64(sum(mentions))
		FROM mentions_daily
		WHERE `+where+` AND relation = 'own'`, args...).Scan(
		&m.ByType.Recommendation, &m.ByType.Comparison, &m.ByType.Listing, &m.ByType.Example, &m.ByType.Reference,
		&m.ByTone.Positive, &m.ByTone.Neutral, &m.ByTone.Negative,
		&m.ByQualifier.Direct, &m.ByQualifier.Conditional, &m.Total)
	if err != nil {
		return m, fmt.Errorf("reading mention mix: %w", err)
	}
	return m, nil
}

// ToneFigures are a brand's mentions by tone and its positivity index,
// 100 x (positive + 0.5 x neutral) / mentions, with its interval; both nil
// without mentions.
type ToneFigures struct {
	Positive                int64     `json:"positive"`
	Neutral                 int64     `json:"neutral"`
	Negative                int64     `json:"negative"`
	MentionCount            int64     `json:"mentionCount"`
	PositivityIndex         *float64  `json:"positivityIndex"`
	PositivityIndexInterval *Interval `json:"positivityIndexInterval"`
}

func toneFigures(positive, neutral, negative, mentions int64) ToneFigures {
	t := ToneFigures{Positive: positive, Neutral: neutral, Negative: negative, MentionCount: mentions}
	t.PositivityIndex, t.PositivityIndexInterval = Percent(float64(positive)+0.5*float64(neutral), mentions)
	return t
}

// EngineSentiment is the own brand's tone on one AI engine.
type EngineSentiment struct {
	Engine sightline.Engine `json:"engine"`
	ToneFigures
}

// Sentiment is the tone of the own brand's mentions per AI engine in scope
// (every AI engine the scope's engines allow, in the order of
// sightline.Engines, with or without mentions) and of each of competitors'
// mentions, in the order given, from one read of mentions_daily.
func (a *Analytics) Sentiment(ctx context.Context, s Scope, competitors []uuid.UUID) ([]EngineSentiment, []ToneFigures, error) {
	type counts struct{ positive, neutral, negative, mentions int64 }
	own := map[sightline.Engine]*counts{}
	theirs := map[uuid.UUID]*counts{}
	if !s.Empty() {
		where, args := s.rollupWhere()
		rows, err := a.Conn.Query(ctx, `
			SELECT toString(relation), competitor_id, engine, toInt64(sum(tone_positive)), toInt64(sum(tone_neutral)),
			       toInt64(sum(tone_negative)), toInt64(sum(mentions))
			FROM mentions_daily
			WHERE `+where+` AND relation IN ('own', 'tracked-competitor')
			GROUP BY relation, competitor_id, engine`, args...)
		if err != nil {
			return nil, nil, fmt.Errorf("reading sentiment: %w", err)
		}
		defer rows.Close()
		for rows.Next() {
			var (
				relation, engine string
				competitor       uuid.UUID
				c                counts
			)
			if err := rows.Scan(&relation, &competitor, &engine, &c.positive, &c.neutral, &c.negative, &c.mentions); err != nil {
				return nil, nil, fmt.Errorf("reading sentiment: %w", err)
			}
			if relation == string(sightline.RelationOwn) {
				own[sightline.Engine(engine)] = &c
				continue
			}
			sum := theirs[competitor]
			if sum == nil {
				sum = &counts{}
				theirs[competitor] = sum
			}
			sum.positive, sum.neutral = sum.positive+c.positive, sum.neutral+c.neutral
			sum.negative, sum.mentions = sum.negative+c.negative, sum.mentions+c.mentions
		}
		if err := rows.Err(); err != nil {
			return nil, nil, fmt.Errorf("reading sentiment: %w", err)
		}
	}
	perEngine := []EngineSentiment{}
	for _, e := range sentimentEngines(s) {
		c := own[e]
		if c == nil {
			c = &counts{}
		}
		perEngine = append(perEngine, EngineSentiment{Engine: e,
			ToneFigures: toneFigures(c.positive, c.neutral, c.negative, c.mentions)})
	}
	perCompetitor := make([]ToneFigures, len(competitors))
	for i, id := range competitors {
		c := theirs[id]
		if c == nil {
			c = &counts{}
		}
		perCompetitor[i] = toneFigures(c.positive, c.neutral, c.negative, c.mentions)
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
