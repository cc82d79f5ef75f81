package oltp

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"
)

// BeatWorkerProcess records that worker process id is alive, forgets the
// processes not seen for ttl, and returns how many are alive, id included.
func BeatWorkerProcess(ctx context.Context, db DBTX, id uuid.UUID, ttl time.Duration) (int, error) {
	var n int
	err := db.QueryRow(ctx, `
		WITH beat AS (
			INSERT INTO worker_processes (id) VALUES ($1) ON CONFLICT (id) DO UPDATE SET seen_at = now()
		), gone AS (
			DELETE FROM worker_processes WHERE id <> $1 AND seen_at < now() - $2::interval
		)
		SELECT count(*) + 1 FROM worker_processes WHERE id <> $1 AND seen_at >= now() - $2::interval`,
		id, ttl.String()).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("recording worker process: %w", err)
	}
	return n, nil
}

// ForgetWorkerProcess removes a worker process that is stopping, so the
// others take its share at their next beat.
func ForgetWorkerProcess(ctx context.Context, db DBTX, id uuid.UUID) error {
	if _, err := db.Exec(ctx, `DELETE FROM worker_processes WHERE id = $1`, id); err != nil {
		return fmt.Errorf("forgetting worker process: %w", err)
	}
	return nil
}
