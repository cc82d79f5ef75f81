package olap

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

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
	ProjectID               uuid.UUID `json:"projectId"`
	Name                    string    `json:"name"`
	ShareOfVoice            *float64  `json:"shareOfVoice"`
	ShareOfVoiceInterval    *Interval `json:"shareOfVoiceInterval"`
	MentionRate             *float64  `json:"mentionRate"`
	MentionRateInterval     *Interval `json:"mentionRateInterval"`
	AvgMentionPosition      *float64  `json:"avgMentionPosition"`
	PositivityIndex         *float64  `json:"positivityIndex"`
	PositivityIndexInterval *Interval `json:"positivityIndexInterval"`
	TrackedQueryCount       int       `json:"trackedQueryCount"`
	TrendShareOfVoice       *float64  `json:"trendShareOfVoice"`
}

// OverviewAggregate is the own brand's figures over every listed project
// together: pooled sums, so a project weighs by how much was captured for
// it, not one vote each.
type OverviewAggregate struct {
	ShareOfVoice            *float64  `json:"shareOfVoice"`
	ShareOfVoiceInterval    *Interval `json:"shareOfVoiceInterval"`
	MentionRate             *float64  `json:"mentionRate"`
	MentionRateInterval     *Interval `json:"mentionRateInterval"`
	AvgMentionPosition      *float64  `json:"avgMentionPosition"`
	PositivityIndex         *float64  `json:"positivityIndex"`
	PositivityIndexInterval *Interval `json:"positivityIndexInterval"`
	TotalTrackedQueries     int       `json:"totalTrackedQueries"`
	ProjectCount            int       `json:"projectCount"`
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
		row := OverviewRow{ProjectID: p.ID, Name: p.Name, TrackedQueryCount: p.TrackedQueryCount}
		row.ShareOfVoice, row.ShareOfVoiceInterval = s.cur.shareOfVoice()
		row.MentionRate, row.MentionRateInterval = rate(s.ranks.mention.count, s.ranks.aiPasses)
		row.AvgMentionPosition = s.ranks.mention.avg()
		row.PositivityIndex, row.PositivityIndexInterval = s.cur.positivityIndex()
		prev, _ := s.prev.shareOfVoice()
		row.TrendShareOfVoice = trend(row.ShareOfVoice, prev)
		out.Projects = append(out.Projects, row)
		out.Aggregate.TotalTrackedQueries += p.TrackedQueryCount
	}
	slices.SortStableFunc(out.Projects, func(a, b OverviewRow) int {
		return cmp.Or(descNullsLast(a.ShareOfVoice, b.ShareOfVoice), cmp.Compare(a.Name, b.Name),
			strings.Compare(a.ProjectID.String(), b.ProjectID.String()))
	})
	agg := &out.Aggregate
	agg.ProjectCount = len(projects)
	agg.ShareOfVoice, agg.ShareOfVoiceInterval = all.cur.shareOfVoice()
	agg.MentionRate, agg.MentionRateInterval = rate(all.ranks.mention.count, all.ranks.aiPasses)
	agg.AvgMentionPosition = all.ranks.mention.avg()
	agg.PositivityIndex, agg.PositivityIndexInterval = all.cur.positivityIndex()
	return out, nil
}

// projectSums reads each project's own-brand sums over the days from..to
// and the equally long window before them.
func (a *Analytics) projectSums(ctx context.Context, projects []OverviewProject, from, to time.Time) (map[uuid.UUID]projectSums, error) {
	ids := make([]uuid.UUID, len(projects))
	for i, p := range projects {
		ids[i] = p.ID
	}
	scope := Scope{From: from, To: to}
	wide, current := scope.spanning()
	rows, err := a.Conn.Query(ctx, `
		SELECT r.project_id, r.ai_passes, r.mention_count, r.mention_sum,
		       v.own_worth, v.all_worth, v.all_mentions, v.positive, v.neutral, v.negative,
		       v.own_worth_prev, v.all_worth_prev, v.all_mentions_prev
		FROM (
			SELECT project_id,
			       sumIf(passes, day >= toDate(?)) AS ai_passes,
			       sumIf(mention_count, day >= toDate(?)) AS mention_count,
			       sumIf(mention_position_sum, day >= toDate(?)) AS mention_sum
			FROM ranks_daily
			WHERE project_id IN ? AND day >= ? AND day <= ? AND relation = 'own'
			  AND engine IN ('chatgpt', 'perplexity', 'google_ai_overview', 'google_ai_mode')
			GROUP BY project_id
		) AS r
		LEFT JOIN (
			SELECT project_id,
			       sumIf(worth, relation = 'own' AND day >= toDate(?)) AS own_worth,
			       sumIf(worth, day >= toDate(?)) AS all_worth,
			       sumIf(mentions, day >= toDate(?)) AS all_mentions,
			       sumIf(tone_positive, relation = 'own' AND day >= toDate(?)) AS positive,
			       sumIf(tone_neutral, relation = 'own' AND day >= toDate(?)) AS neutral,
			       sumIf(tone_negative, relation = 'own' AND day >= toDate(?)) AS negative,
			       sumIf(worth, relation = 'own' AND day < toDate(?)) AS own_worth_prev,
			       sumIf(worth, day < toDate(?)) AS all_worth_prev,
			       sumIf(mentions, day < toDate(?)) AS all_mentions_prev
			FROM mentions_daily
			WHERE project_id IN ? AND day >= ? AND day <= ?
			GROUP BY project_id
		) AS v ON v.project_id = r.project_id`,
		current, current, current, ids, wide.From, wide.To,
		current, current, current, current, current, current, current, current, current, ids, wide.From, wide.To)
	if err != nil {
		return nil, fmt.Errorf("reading project sums: %w", err)
	}
	defer rows.Close()
	out := map[uuid.UUID]projectSums{}
	for rows.Next() {
		var id uuid.UUID
		var s projectSums
		if err := rows.Scan(&id, &s.ranks.aiPasses, &s.ranks.mention.count, &s.ranks.mention.sum,
			&s.cur.worth, &s.cur.allWorth, &s.cur.allMentions, &s.cur.positive, &s.cur.neutral, &s.cur.negative,
			&s.prev.worth, &s.prev.allWorth, &s.prev.allMentions); err != nil {
			return nil, fmt.Errorf("reading project sums: %w", err)
		}
		out[id] = s
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("reading project sums: %w", err)
	}
	return out, nil
}
