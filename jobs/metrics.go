package jobs

import (
	"context"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"

	"github.com/sightline/sightline/oltp"
)

// queues are the queues reported even before any process has worked them.
var queues = []string{CheckQueue, MaintenanceQueue, ProposalQueue, river.QueueDefault}

// NewQueueCollector returns a collector of River's queue depth: jobs per
// queue and state that are not finished yet, and how long the oldest job
// ready to run has waited.
func NewQueueCollector(pool *pgxpool.Pool) *oltp.QueryCollector {
	depth := oltp.NewGauge("sightline_river_jobs",
		"River jobs not yet finished, by queue and state.", "queue", "state")
	oldest := oltp.NewGauge("sightline_river_oldest_available_job_age_seconds",
		"Time since the oldest job ready to run (available) was due, by queue; 0 when none waits.", "queue")
	return oltp.NewQueryCollector(pool, func(ctx context.Context, db oltp.DBTX, set oltp.SetFunc) error {
		// Every queue and state is reported, zeros included, so that an
		// empty queue reads as 0 rather than as a missing series.
		rows, err := db.Query(ctx, `
			SELECT q.name, s.state, count(j.id),
			       coalesce(extract(epoch FROM now() - min(j.scheduled_at) FILTER (WHERE s.state = 'available')), 0)::float8
			FROM (SELECT name FROM river_queue UNION SELECT unnest($1::text[])) q
			CROSS JOIN unnest(ARRAY['available', 'scheduled', 'retryable', 'running', 'pending']) s (state)
			LEFT JOIN river_job j ON j.queue = q.name AND j.state::text = s.state
			GROUP BY 1, 2`, queues)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var queue, state string
			var n int64
			var age float64
			if err := rows.Scan(&queue, &state, &n, &age); err != nil {
				return err
			}
			set(depth, float64(n), queue, state)
			if state == "available" {
				set(oldest, max(0, age), queue)
			}
		}
		return rows.Err()
	}, depth, oldest)
}

// NewCheckAnswersCollector returns a collector of the answered passes
// waiting for ClickHouse in the check_answers outbox, and the age of the
// oldest.
func NewCheckAnswersCollector(pool *pgxpool.Pool) *oltp.QueryCollector {
	waiting := oltp.NewGauge("sightline_check_answers_waiting",
		"Answered check passes kept in Postgres until ClickHouse stores them.")
	oldest := oltp.NewGauge("sightline_check_answers_oldest_seconds",
		"Age of the oldest answered check pass waiting for ClickHouse; 0 when none waits.")
	return oltp.NewQueryCollector(pool, func(ctx context.Context, db oltp.DBTX, set oltp.SetFunc) error {
		n, age, err := oltp.CheckAnswersWaiting(ctx, db)
		if err != nil {
			return err
		}
		set(waiting, float64(n))
		set(oldest, age)
		return nil
	}, waiting, oldest)
}
