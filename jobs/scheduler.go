package jobs

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"

	"github.com/sightline/sightline/oltp"
)

// ScheduleChecksArgs asks for every due tracked query to be given a
// scheduled check run.
type ScheduleChecksArgs struct{}

// Kind names the job on the queue.
func (ScheduleChecksArgs) Kind() string { return "check_schedule" }

// ScheduleChecksInterval is how often the scheduler runs: how late a due
// query's check may start.
const ScheduleChecksInterval = time.Minute

// InsertOpts makes concurrent schedules collapse into one.
func (ScheduleChecksArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{Queue: MaintenanceQueue, UniqueOpts: river.UniqueOpts{ByPeriod: ScheduleChecksInterval}}
}

// scheduleBatch is how many due queries one statement of the scheduler
// looks at, each batch in its own transaction; scheduleMaxRuns bounds the
// runs of one scheduling (by at most one batch more), the next scheduling
// taking the rest. A scheduling walks the due queries from the first, so
// the ones a capped scheduling left behind are walked again past every
// query it gave a run: the cap is high enough for a day's million due
// queries to be scheduled in one walk, and ScheduleChecksTimeout gives that
// walk the time it needs.
const (
	scheduleBatch   = 10_000
	scheduleMaxRuns = 2_000_000
)

// ScheduleChecksTimeout bounds one scheduling: River's default minute is
// too short for a million due queries.
const ScheduleChecksTimeout = 15 * time.Minute

// ScheduleChecksWorker runs the scheduler.
type ScheduleChecksWorker struct {
	river.WorkerDefaults[ScheduleChecksArgs]
	Pool   *pgxpool.Pool
	Logger *slog.Logger
}

// Timeout is ScheduleChecksTimeout.
func (w *ScheduleChecksWorker) Timeout(*river.Job[ScheduleChecksArgs]) time.Duration {
	return ScheduleChecksTimeout
}

// Work runs one scheduling pass.
func (w *ScheduleChecksWorker) Work(ctx context.Context, _ *river.Job[ScheduleChecksArgs]) error {
	client, err := river.ClientFromContextSafely[pgx.Tx](ctx)
	if err != nil {
		return err
	}
	n, err := ScheduleChecks(ctx, w.Pool, client)
	if err != nil {
		return err
	}
	logChanged(ctx, w.Logger, slog.LevelInfo, "scheduled checks", "runs", n)
	return nil
}

// ScheduleChecks gives every due query a pending scheduled run (see
// oltp.ScheduleDueChecks for which queries, in which order and within
// which budget) and enqueues each run's job. It works in set-based batches
// of scheduleBatch queries, each in its own transaction with its runs'
// jobs and reservations, so a crash never leaves a run without its job or
// a reservation without its run, and no batch holds its query and contract
// locks while the next is chosen. It returns the runs created. Two
// schedulers at once take disjoint queries (SKIP LOCKED) and never
// schedule one twice.
func ScheduleChecks(ctx context.Context, pool *pgxpool.Pool, client *river.Client[pgx.Tx]) (int, error) {
	var (
		cursor oltp.ScheduleCursor
		skip   []uuid.UUID
		total  int
	)
	for total < scheduleMaxRuns {
		var batch *oltp.ScheduledBatch
		err := pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
			var err error
			if batch, err = oltp.ScheduleDueChecks(ctx, tx, cursor, scheduleBatch, skip); err != nil {
				return err
			}
			if len(batch.Runs) == 0 {
				return nil
			}
			params := make([]river.InsertManyParams, len(batch.Runs))
			for i, id := range batch.Runs {
				params[i] = CheckJob(id, oltp.CheckTriggerScheduled)
			}
			if _, err := client.InsertManyFastTx(ctx, tx, params); err != nil {
				return fmt.Errorf("enqueueing scheduled checks: %w", err)
			}
			return nil
		})
		if err != nil {
			return total, fmt.Errorf("scheduling checks: %w", err)
		}
		total += len(batch.Runs)
		skip = append(skip, batch.Exhausted...)
		cursor = batch.Next
		if batch.Done {
			break
		}
	}
	return total, nil
}
