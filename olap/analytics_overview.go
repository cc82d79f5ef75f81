package olap

import (
	"cmp"
	"context"
	"slices"
	"strings"
	"time"

	"github.com/ClickHouse/clickhouse-go/v2/lib/driver"
	"github.com/google/uuid"
	"golang.org/x/sync/errgroup"
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
// then by name. Two reads run together: ranks_daily and mentions_daily per project.
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
// and the equally long window before them, in two queries run together: the
// current window's own AI ranks per project, and the mentions of both
// windows per project and brand in one pass (the previous window's share of
// voice is all the trend needs). Both sum plain columns per project and
// brand, so the rollups' per-market projections answer them; the own brand
// is picked here.
func (a *Analytics) projectSums(ctx context.Context, projects []OverviewProject, from, to time.Time) (map[uuid.UUID]projectSums, error) {
	ids := make([]uuid.UUID, len(projects))
	for i, p := range projects {
		ids[i] = p.ID
	}
	cur := Scope{From: from, To: to}.bounded()
	prev := Scope{From: from, To: to}.Previous().bounded()
	ranks := map[uuid.UUID]rankSums{}
	type window struct {
		project uuid.UUID
		current uint8
	}
	voices := map[window]*voiceSums{}
	g, gctx := errgroup.WithContext(ctx)
	g.Go(func() error {
		return scanRows(gctx, a.Conn, "reading project rank sums", `
			SELECT project_id, sum(passes), sum(mention_count), sum(mention_position_sum)
			FROM ranks_daily
			WHERE project_id IN ? AND day >= ? AND day <= ? AND relation = 'own'
			  AND engine IN ('chatgpt', 'perplexity', 'google_ai_overview', 'google_ai_mode')
			GROUP BY project_id`, []any{ids, cur.From, cur.To}, func(rows driver.Rows) error {
			var id uuid.UUID
			var r rankSums
			if err := rows.Scan(&id, &r.aiPasses, &r.mention.count, &r.mention.sum); err != nil {
				return err
			}
			ranks[id] = r
			return nil
		})
	})
	g.Go(func() error {
		return scanRows(gctx, a.Conn, "reading project mention sums", `
			SELECT toUInt8(day >= ?) AS current, project_id, toString(relation), sum(worth), sum(mentions),
			       sum(tone_positive), sum(tone_neutral), sum(tone_negative)
			FROM mentions_daily
			WHERE project_id IN ? AND day >= ? AND day <= ?
			GROUP BY current, project_id, relation`, []any{cur.From, ids, prev.From, cur.To}, func(rows driver.Rows) error {
			var w window
			var relation string
			var worth float64
			var mentions, positive, neutral, negative uint64
			if err := rows.Scan(&w.current, &w.project, &relation, &worth, &mentions, &positive, &neutral, &negative); err != nil {
				return err
			}
			v := entryOf(voices, w)
			v.allWorth += worth
			v.allMentions += mentions
			if relation == "own" {
				v.worth = worth
				if w.current == 1 {
					v.positive, v.neutral, v.negative = positive, neutral, negative
				}
			}
			return nil
		})
	})
	if err := g.Wait(); err != nil {
		return nil, err
	}
	out := map[uuid.UUID]projectSums{}
	for _, id := range ids {
		s := projectSums{ranks: ranks[id]}
		if v := voices[window{id, 1}]; v != nil {
			s.cur = *v
		}
		if v := voices[window{id, 0}]; v != nil {
			s.prev = *v
		}
		out[id] = s
	}
	return out, nil
}
