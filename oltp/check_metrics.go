package oltp

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/sightline/sightline"
)

// LastCheckMetrics are a tracked query's figures in its most recent
// completed check, which the search listing rows carry.
type LastCheckMetrics struct {
	TrackedQueryID   uuid.UUID
	SerpPosition     *float64
	MentionPosition  *float64
	LinkPosition     *float64
	ShoppingPosition *float64
	ShareOfVoice     *float64
	PositivityIndex  *float64
	MentionCount     int
}

// SaveLastCheckMetrics writes the figures into the project's search rows.
// A query without a row yet (its configuration refresh has not run) is
// skipped; the caller refreshes the configuration first.
func SaveLastCheckMetrics(ctx context.Context, db DBTX, projectID uuid.UUID, checks []LastCheckMetrics) error {
	if len(checks) == 0 {
		return nil
	}
	n := len(checks)
	ids := make([]uuid.UUID, n)
	serp, mention, link, shopping := make([]*float64, n), make([]*float64, n), make([]*float64, n), make([]*float64, n)
	sov, positivity, count := make([]*float64, n), make([]*float64, n), make([]int32, n)
	for i, c := range checks {
		ids[i] = c.TrackedQueryID
		serp[i], mention[i], link[i], shopping[i] = c.SerpPosition, c.MentionPosition, c.LinkPosition, c.ShoppingPosition
		sov[i], positivity[i], count[i] = c.ShareOfVoice, c.PositivityIndex, int32(c.MentionCount)
	}
	_, err := db.Exec(ctx, `
		UPDATE tracked_query_search_rows s
		SET last_serp_position = m.serp, last_mention_position = m.mention, last_link_position = m.link,
		    last_shopping_position = m.shopping, last_share_of_voice = m.sov, last_positivity_index = m.positivity,
		    last_mention_count = m.count, refreshed_at = now()
		FROM unnest($2::uuid[], $3::float8[], $4::float8[], $5::float8[], $6::float8[], $7::float8[], $8::float8[], $9::int[])
		     AS m (id, serp, mention, link, shopping, sov, positivity, count)
		WHERE s.project_id = $1 AND s.tracked_query_id = m.id`,
		projectID, ids, serp, mention, link, shopping, sov, positivity, count)
	if err != nil {
		return fmt.Errorf("saving last check metrics: %w", err)
	}
	return nil
}

// ListingMetricsRefresh is when a project's listing metrics were last
// refreshed (nil: never) and the database's clock now, which stamps the
// refresh about to start.
func ListingMetricsRefresh(ctx context.Context, db DBTX, projectID uuid.UUID) (last *time.Time, now time.Time, err error) {
	err = db.QueryRow(ctx, `SELECT (SELECT refreshed_at FROM project_listing_metrics WHERE project_id = $1), now()`,
		projectID).Scan(&last, &now)
	if err != nil {
		return nil, now, fmt.Errorf("reading listing metrics refresh: %w", err)
	}
	return last, now, nil
}

// TrackedQueriesCheckedSince lists the project's tracked queries whose
// last check completed at since or later.
func TrackedQueriesCheckedSince(ctx context.Context, db DBTX, projectID uuid.UUID, since time.Time) ([]uuid.UUID, error) {
	return queryRows(ctx, db, pgx.RowTo[uuid.UUID], "listing recently checked queries",
		`SELECT id FROM tracked_queries WHERE project_id = $1 AND last_checked_at >= $2`, projectID, since)
}

// SaveProjectListingMetrics replaces the project's listing metrics, read
// from ClickHouse from asOf on.
func SaveProjectListingMetrics(ctx context.Context, db DBTX, projectID uuid.UUID, m sightline.ProjectMetrics, asOf time.Time) error {
	_, err := db.Exec(ctx, `
		INSERT INTO project_listing_metrics (project_id, avg_serp_position, avg_shopping_position, avg_mention_position,
			avg_link_position, mention_rate, serp_rate, shopping_rate, positivity_index, share_of_voice,
			serp_position_stability, shopping_position_stability, last_rank_detected_at, refreshed_at)
		SELECT id, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14 FROM projects WHERE id = $1
		ON CONFLICT (project_id) DO UPDATE SET
			avg_serp_position = excluded.avg_serp_position, avg_shopping_position = excluded.avg_shopping_position,
			avg_mention_position = excluded.avg_mention_position, avg_link_position = excluded.avg_link_position,
			mention_rate = excluded.mention_rate, serp_rate = excluded.serp_rate, shopping_rate = excluded.shopping_rate,
			positivity_index = excluded.positivity_index, share_of_voice = excluded.share_of_voice,
			serp_position_stability = excluded.serp_position_stability,
			shopping_position_stability = excluded.shopping_position_stability,
			last_rank_detected_at = excluded.last_rank_detected_at, refreshed_at = excluded.refreshed_at`,
		projectID, m.AvgSerpPosition, m.AvgShoppingPosition, m.AvgMentionPosition, m.AvgLinkPosition, m.MentionRate,
		m.SerpRate, m.ShoppingRate, m.PositivityIndex, m.ShareOfVoice, m.SerpPositionStability,
		m.ShoppingPositionStability, m.LastRankDetectedAt, asOf)
	if err != nil {
		return fmt.Errorf("saving project listing metrics: %w", err)
	}
	return nil
}
