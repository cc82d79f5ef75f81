package olap

import (
	"cmp"
	"context"
	"slices"
	"strings"
	"time"

	"github.com/ClickHouse/clickhouse-go/v2/lib/driver"
	"github.com/google/uuid"
)

// OverviewProject is an active project of the organization the overview
// covers: the write model's part of its row.
type OverviewProject struct {
	ID                uuid.UUID
	Name              string
	TrackedQueryCount int
}

// Overview is the organization overview: one row per active project and
// the organization's aggregate, over one window.
type Overview struct {
	Projects  []OverviewRow     `json:"projects"`
	Aggregate OverviewAggregate `json:"aggregate"`
}

// OverviewRow is the own brand's figures of one project over the window,
// with the share of voice's change against the previous window (current
// minus previous).
type OverviewRow struct {
	ProjectID uuid.UUID `json:"projectId"`
	Name      string    `json:"name"`
	OverviewFigures
	TrackedQueryCount int      `json:"trackedQueryCount"`
	TrendShareOfVoice *float64 `json:"trendShareOfVoice"`
}

// OverviewFigures are the own brand's figures the overview shows for a
// project and for all of them together.
type OverviewFigures struct {
	AnswerRates
	AvgMentionPosition      *float64  `json:"avgMentionPosition"`
	PositivityIndex         *float64  `json:"positivityIndex"`
	PositivityIndexInterval *Interval `json:"positivityIndexInterval"`
}

// overviewFiguresOf computes the figures of the own brand's rank sums and
// the voice sums of the same window: the headline Rates it shows, and the
// mean mention position.
func overviewFiguresOf(r rankSums, v voiceSums) OverviewFigures {
	rates := ratesOf(r, v)
	return OverviewFigures{AnswerRates: rates.AnswerRates, AvgMentionPosition: r.mention.avg(),
		PositivityIndex: rates.PositivityIndex, PositivityIndexInterval: rates.PositivityIndexInterval}
}

// OverviewAggregate is the own brand's figures over every listed project
// together: pooled sums, so a project weighs by how much was captured for
// it, not one vote each.
type OverviewAggregate struct {
	OverviewFigures
	TotalTrackedQueries int `json:"totalTrackedQueries"`
	ProjectCount        int `json:"projectCount"`
}

// projectSums are a project's own-brand sums in the current and the
// previous window.
type projectSums struct {
	ranks     rankSums // current window, AI engines
	cur, prev voiceSums
}

// Overview computes the overview of projects over the days from..to, with
// the share of voice's trend against the equally long window before. Rows
// are ordered by share of voice, greatest first, projects without one last,
// then by name. One read: ranks_daily joined to mentions_daily per project.
func (a *Analytics) Overview(ctx context.Context, projects []OverviewProject, from, to time.Time) (*Overview, error) {
	sums := map[uuid.UUID]projectSums{}
	if len(projects) > 0 {
		var err error
		if sums, err = a.projectSums(ctx, projects, from, to); err != nil {
			return nil, err
		}
	}
	out := &Overview{Projects: make([]OverviewRow, 0, len(projects))}
	var all projectSums
	for _, p := range projects {
		s := sums[p.ID]
		all.ranks.add(s.ranks)
		all.cur.add(s.cur)
		all.prev.add(s.prev)
		row := OverviewRow{ProjectID: p.ID, Name: p.Name, TrackedQueryCount: p.TrackedQueryCount,
			OverviewFigures: overviewFiguresOf(s.ranks, s.cur)}
		prev, _ := s.prev.shareOfVoice()
		row.TrendShareOfVoice = trend(row.ShareOfVoice, prev)
		out.Projects = append(out.Projects, row)
		out.Aggregate.TotalTrackedQueries += p.TrackedQueryCount
	}
	slices.SortStableFunc(out.Projects, func(a, b OverviewRow) int {
		return cmp.Or(nullsLast(a.ShareOfVoice, b.ShareOfVoice, false), cmp.Compare(a.Name, b.Name),
			strings.Compare(a.ProjectID.String(), b.ProjectID.String()))
	})
	agg := &out.Aggregate
	agg.ProjectCount = len(projects)
	agg.OverviewFigures = overviewFiguresOf(all.ranks, all.cur)
	return out, nil
}

// projectSums reads each project's own-brand sums over the days from..to
// and the equally long window before them: one query of three arms, the
// current window's own AI ranks, its mentions, and the previous window's
// mentions (its share of voice is all the trend needs). Every arm sums
// plain columns per project and brand, so the rollups' per-market
// projections answer them; the own brand is picked after that.
func (a *Analytics) projectSums(ctx context.Context, projects []OverviewProject, from, to time.Time) (map[uuid.UUID]projectSums, error) {
	ids := make([]uuid.UUID, len(projects))
	for i, p := range projects {
		ids[i] = p.ID
	}
	cur := Scope{From: from, To: to}.bounded()
	prev := Scope{From: from, To: to}.Previous().bounded()
	out := map[uuid.UUID]projectSums{}
	err := scanRows(ctx, a.Conn, "reading project sums", `
		SELECT 0 AS arm, project_id, sum(passes) AS ai_passes, sum(mention_count) AS mention_count,
		       sum(mention_position_sum) AS mention_sum, toFloat64(0) AS own_worth, toFloat64(0) AS all_worth,
		       toUInt64(0) AS all_mentions, toUInt64(0) AS positive, toUInt64(0) AS neutral, toUInt64(0) AS negative
		FROM ranks_daily
		WHERE project_id IN ? AND day >= ? AND day <= ? AND relation = 'own'
		  AND engine IN ('chatgpt', 'perplexity', 'google_ai_overview', 'google_ai_mode')
		GROUP BY project_id
		UNION ALL
		SELECT 1 AS arm, project_id, toUInt64(0) AS ai_passes, toUInt64(0) AS mention_count, toUInt64(0) AS mention_sum,
		       sumIf(brand_worth, relation = 'own') AS own_worth, sum(brand_worth) AS all_worth,
		       sum(brand_mentions) AS all_mentions,
		       sumIf(brand_positive, relation = 'own') AS positive, sumIf(brand_neutral, relation = 'own') AS neutral,
		       sumIf(brand_negative, relation = 'own') AS negative
		FROM (
			SELECT project_id, relation, sum(worth) AS brand_worth, sum(mentions) AS brand_mentions,
			       sum(tone_positive) AS brand_positive, sum(tone_neutral) AS brand_neutral,
			       sum(tone_negative) AS brand_negative
			FROM mentions_daily
			WHERE project_id IN ? AND day >= ? AND day <= ?
			GROUP BY project_id, relation
		)
		GROUP BY project_id
		UNION ALL
		SELECT 2 AS arm, project_id, toUInt64(0) AS ai_passes, toUInt64(0) AS mention_count, toUInt64(0) AS mention_sum,
		       sumIf(brand_worth, relation = 'own') AS own_worth, sum(brand_worth) AS all_worth,
		       sum(brand_mentions) AS all_mentions,
		       toUInt64(0) AS positive, toUInt64(0) AS neutral, toUInt64(0) AS negative
		FROM (
			SELECT project_id, relation, sum(worth) AS brand_worth, sum(mentions) AS brand_mentions
			FROM mentions_daily
			WHERE project_id IN ? AND day >= ? AND day <= ?
			GROUP BY project_id, relation
		)
		GROUP BY project_id`, []any{ids, cur.From, cur.To, ids, cur.From, cur.To, ids, prev.From, prev.To}, func(rows driver.Rows) error {
		var arm uint8
		var id uuid.UUID
		var r rankSums
		var v voiceSums
		if err := rows.Scan(&arm, &id, &r.aiPasses, &r.mention.count, &r.mention.sum,
			&v.worth, &v.allWorth, &v.allMentions, &v.positive, &v.neutral, &v.negative); err != nil {
			return err
		}
		s := out[id]
		switch arm {
		case 0:
			s.ranks = r
		case 1:
			s.cur = v
		default:
			s.prev = v
		}
		out[id] = s
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
