package olap

import (
	"context"
	"fmt"
	"time"

	"github.com/ClickHouse/clickhouse-go/v2/lib/driver"
	"github.com/google/uuid"

	"github.com/sightline/sightline"
)

// LastCheck is the own brand's figures in a tracked query's most recent
// completed check (all passes of its latest run), as the tracked-query
// search listing shows them. A nil figure was not measured: the engine
// does not produce it, or the brand did not reach it (no own result, no own
// citation, not named).
type LastCheck struct {
	TrackedQueryID   uuid.UUID
	CheckedAt        time.Time
	SerpPosition     *float64 // mean over the run's passes of the best own organic rank
	MentionPosition  *float64 // mean own mention position over the passes naming it
	LinkPosition     *float64 // mean position of the first own citation
	ShoppingPosition *float64 // mean best own offer rank
	// ShareOfVoice is the own worth over every brand's worth in the run's
	// answers, x100: 0 when answers were captured and the own brand was not
	// named (measured), nil for search and shopping engines.
	ShareOfVoice    *float64
	PositivityIndex *float64 // 100 x (positive + 0.5 x neutral) / own mentions; nil without mentions
	MentionCount    int      // passes of the run naming the own brand
}

// LastChecks returns the last check of each of the project's tracked
// queries that has one, of the queries in only when only is not nil. A run
// counts once every one of its passes is stored: a run in progress, or one
// that failed after some passes, is not a completed check.
func LastChecks(ctx context.Context, conn driver.Conn, projectID uuid.UUID, only []uuid.UUID) ([]LastCheck, error) {
	args, restrict := []any{projectID}, ""
	if only != nil {
		if len(only) == 0 {
			return nil, nil
		}
		args, restrict = append(args, only), " AND tracked_query_id IN (?)"
	}
	args = append(args, projectID, projectID)
	return collectRows(ctx, conn, "reading last checks", `
		WITH complete AS (
			SELECT tracked_query_id, run_id, any(captured_at) AS at
			FROM rank_rows
			WHERE project_id = ? AND relation = 'own'`+restrict+`
			GROUP BY tracked_query_id, run_id
			HAVING uniqExact(pass_index) = any(pass_count)
		),
		latest AS (
			SELECT tracked_query_id, argMax(run_id, at) AS run_id FROM complete GROUP BY tracked_query_id
		),
		own AS (
			SELECT tracked_query_id,
			       max(captured_at) AS checked_at,
			       any(engine) AS engine,
			       avg(serp_position) AS serp,
			       avg(mention_position) AS mention,
			       avg(link_position) AS link,
			       avg(shopping_position) AS shopping,
			       countIf(mention_position IS NOT NULL) AS mentioned,
			       countIf(tone = 'positive') AS positive,
			       countIf(tone = 'neutral') AS neutral
			FROM rank_rows FINAL
			WHERE project_id = ? AND relation = 'own' AND (tracked_query_id, run_id) IN (SELECT tracked_query_id, run_id FROM latest)
			GROUP BY tracked_query_id
		),
		worth AS (
			SELECT tracked_query_id, sumIf(worth, relation = 'own') AS own_worth, sum(worth) AS all_worth
			FROM mentions FINAL
			WHERE project_id = ? AND (tracked_query_id, run_id) IN (SELECT tracked_query_id, run_id FROM latest)
			GROUP BY tracked_query_id
		)
		SELECT own.tracked_query_id, own.checked_at, own.serp, own.mention, own.link, own.shopping,
		       if(own.engine IN ('google_serp', 'google_shopping'), NULL,
		          if(worth.all_worth > 0, 100 * worth.own_worth / worth.all_worth, 0)) AS share_of_voice,
		       if(own.mentioned = 0, NULL, 100 * (own.positive + 0.5 * own.neutral) / own.mentioned) AS positivity,
		       toInt64(own.mentioned)
		FROM own LEFT JOIN worth ON worth.tracked_query_id = own.tracked_query_id
		SETTINGS join_use_nulls = 1`, args, func(rows driver.Rows) (LastCheck, error) {
		var c LastCheck
		var mentioned int64
		if err := rows.Scan(&c.TrackedQueryID, &c.CheckedAt, &c.SerpPosition, &c.MentionPosition, &c.LinkPosition,
			&c.ShoppingPosition, &c.ShareOfVoice, &c.PositivityIndex, &mentioned); err != nil {
			return c, err
		}
		c.MentionCount = int(mentioned)
		return c, nil
	})
}

// ProjectMetricsSince computes the project's metrics over the passes
// captured since since.
func ProjectMetricsSince(ctx context.Context, conn driver.Conn, projectID uuid.UUID, since time.Time) (sightline.ProjectMetrics, error) {
	var m sightline.ProjectMetrics
	err := conn.QueryRow(ctx, `
		WITH ranks AS (
			SELECT
				avg(serp_position) AS serp,
				avg(shopping_position) AS shopping,
				avg(mention_position) AS mention,
				avg(link_position) AS link,
				100 * countIf(mention_position IS NOT NULL) / nullIf(countIf(engine NOT IN ('google_serp', 'google_shopping')), 0) AS mention_rate,
				100 * countIf(serp_position IS NOT NULL) / nullIf(countIf(engine = 'google_serp'), 0) AS serp_rate,
				100 * countIf(shopping_position IS NOT NULL) / nullIf(countIf(engine = 'google_shopping'), 0) AS shopping_rate,
				if(countIf(mention_position IS NOT NULL) = 0, NULL,
				   100 * (countIf(tone = 'positive') + 0.5 * countIf(tone = 'neutral')) / countIf(mention_position IS NOT NULL)) AS positivity,
				if(countIf(serp_position IS NOT NULL) < 2, NULL, stddevPopIf(toFloat64(serp_position), serp_position IS NOT NULL)) AS serp_stability,
				if(countIf(shopping_position IS NOT NULL) < 2, NULL, stddevPopIf(toFloat64(shopping_position), shopping_position IS NOT NULL)) AS shopping_stability,
				if(countIf(serp_position IS NOT NULL OR shopping_position IS NOT NULL OR mention_position IS NOT NULL) = 0, NULL,
				   maxIf(captured_at, serp_position IS NOT NULL OR shopping_position IS NOT NULL OR mention_position IS NOT NULL)) AS last_rank
			FROM rank_rows FINAL
			WHERE project_id = ? AND relation = 'own' AND captured_at >= ?
		),
		worth AS (
			SELECT 100 * sumIf(worth, relation = 'own') / nullIf(sum(worth), 0) AS share_of_voice
			FROM mentions FINAL
			WHERE project_id = ? AND captured_at >= ?
		)
		SELECT serp, shopping, mention, link, mention_rate, serp_rate, shopping_rate, positivity,
		       worth.share_of_voice, serp_stability, shopping_stability, last_rank
		FROM ranks CROSS JOIN worth`, projectID, since, projectID, since).Scan(
		&m.AvgSerpPosition, &m.AvgShoppingPosition, &m.AvgMentionPosition, &m.AvgLinkPosition,
		&m.MentionRate, &m.SerpRate, &m.ShoppingRate, &m.PositivityIndex, &m.ShareOfVoice,
		&m.SerpPositionStability, &m.ShoppingPositionStability, &m.LastRankDetectedAt)
	if err != nil {
		return m, fmt.Errorf("reading project metrics: %w", err)
	}
	return m, nil
}
