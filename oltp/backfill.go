package oltp

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
)

// BackfillQuery is a tracked query as a history backfill replays it.
type BackfillQuery struct {
	ID             uuid.UUID `db:"id"`
	OrganizationID uuid.UUID `db:"organization_id"`
	ProjectID      uuid.UUID `db:"project_id"`
	QueryText      string    `db:"query_text"`
	Engine         string    `db:"engine"`
	Country        string    `db:"country"`
	Locale         *string   `db:"locale"`
	CheckFrequency string    `db:"check_frequency"`
	NPasses        int       `db:"n_passes"`
}

// BackfillQueries lists the active tracked queries of the organization's
// active projects, project by project.
func BackfillQueries(ctx context.Context, db DBTX, organizationID uuid.UUID) ([]BackfillQuery, error) {
	return queryRows(ctx, db, pgx.RowToStructByName[BackfillQuery], "listing queries to backfill", `
		SELECT q.id, p.organization_id, q.project_id, q.query_text, q.engine, q.country, q.locale,
		       q.check_frequency, q.n_passes
		FROM tracked_queries q JOIN projects p ON p.id = q.project_id
		WHERE p.organization_id = $1 AND p.status = 'active' AND q.status = 'active'
		ORDER BY q.project_id, q.id`, organizationID)
}

// AdvanceLastCheckedAt moves each query's lastCheckedAt forward to the
// given time, never back.
func AdvanceLastCheckedAt(ctx context.Context, db DBTX, projectID uuid.UUID, at map[uuid.UUID]time.Time) error {
	ids := make([]uuid.UUID, 0, len(at))
	times := make([]time.Time, 0, len(at))
	for id, t := range at {
		ids, times = append(ids, id), append(times, t)
	}
	_, err := db.Exec(ctx, `
		UPDATE tracked_queries q SET last_checked_at = greatest(q.last_checked_at, u.at)
		FROM unnest($2::uuid[], $3::timestamptz[]) AS u (id, at)
		WHERE q.project_id = $1 AND q.id = u.id`, projectID, ids, times)
	if err != nil {
		return fmt.Errorf("advancing last checked times: %w", err)
	}
	return nil
}
