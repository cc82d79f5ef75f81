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
	"github.com/riverqueue/river/rivertype"

	"github.com/sightline/sightline/oltp"
)

// The tracked-query search listing reads a projection (spec 4.2: "a query
// just created or changed may be absent or show old settings"). Two jobs
// keep it fresh:
//   - every write that changes a project's tracked queries marks the
//     project stale and enqueues RefreshTrackedQuerySearchArgs in the same
//     transaction (TrackedQueriesChanged); the job is
//     unique per project while one is waiting or running, so a burst of
//     writes costs one refresh;
//   - the periodic sweep refreshes every project still stale, which
//     catches a write whose enqueue was absorbed by a refresh already past
//     the point where it could see it.

// TxInserter enqueues jobs in the caller's transaction; River's client is one.
type TxInserter interface {
	InsertTx(ctx context.Context, tx pgx.Tx, args river.JobArgs, opts *river.InsertOpts) (*rivertype.JobInsertResult, error)
}

// TrackedQueriesChanged records, in tx, that the project's tracked queries
// changed (created, edited, deleted, checked, moved between clusters): the
// search listing is marked stale and its refresh enqueued, so that both
// commit with the change or not at all. Every such change calls it.
func TrackedQueriesChanged(ctx context.Context, tx pgx.Tx, jobs TxInserter, projectID uuid.UUID) error {
	if err := oltp.MarkTrackedQuerySearchStale(ctx, tx, projectID); err != nil {
		return err
	}
	if _, err := jobs.InsertTx(ctx, tx, RefreshTrackedQuerySearchArgs{ProjectID: projectID}, nil); err != nil {
		return fmt.Errorf("enqueueing search refresh: %w", err)
	}
	return nil
}

// refreshRounds bounds how often one refresh job repeats while writes keep
// landing during it; the sweep takes over after that.
const refreshRounds = 3

// RefreshTrackedQuerySearchArgs asks for one project's search rows to be
// brought up to date.
type RefreshTrackedQuerySearchArgs struct {
	ProjectID uuid.UUID `json:"projectId"`
}

// Kind names the job on the queue.
func (RefreshTrackedQuerySearchArgs) Kind() string { return "tracked_query_search_refresh" }

// InsertOpts makes the job unique per project among jobs not yet finished.
// Completed jobs are left out of the uniqueness: a write after a refresh
// finished must get a new one.
func (RefreshTrackedQuerySearchArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{Queue: MaintenanceQueue, UniqueOpts: river.UniqueOpts{
		ByArgs: true,
		ByState: []rivertype.JobState{rivertype.JobStateAvailable, rivertype.JobStatePending,
			rivertype.JobStateRunning, rivertype.JobStateScheduled},
	}}
}

// RefreshTrackedQuerySearchWorker refreshes one project's search rows,
// again while writes landed during the previous round.
type RefreshTrackedQuerySearchWorker struct {
	river.WorkerDefaults[RefreshTrackedQuerySearchArgs]
	Pool   *pgxpool.Pool
	Logger *slog.Logger
}

// Work runs the refresh.
func (w *RefreshTrackedQuerySearchWorker) Work(ctx context.Context, job *river.Job[RefreshTrackedQuerySearchArgs]) error {
	for range refreshRounds {
		_, stale, err := oltp.RefreshTrackedQuerySearch(ctx, w.Pool, job.Args.ProjectID)
		if err != nil || !stale {
			return err
		}
	}
	w.Logger.InfoContext(ctx, "tracked query search rows still stale; left to the sweep", "projectId", job.Args.ProjectID)
	return nil
}

// SweepTrackedQuerySearchArgs asks for every stale project's search rows to
// be refreshed.
type SweepTrackedQuerySearchArgs struct{}

// Kind names the job on the queue.
func (SweepTrackedQuerySearchArgs) Kind() string { return "tracked_query_search_sweep" }

// SweepTrackedQuerySearchInterval is how often the sweep runs: the longest
// a change can stay out of the listing when its own refresh missed it.
const SweepTrackedQuerySearchInterval = time.Minute

// InsertOpts makes concurrent sweeps collapse into one.
func (SweepTrackedQuerySearchArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{Queue: MaintenanceQueue, UniqueOpts: river.UniqueOpts{ByPeriod: SweepTrackedQuerySearchInterval}}
}

// sweepBatch bounds the projects one sweep refreshes; the next sweep takes
// the rest, longest waiting first.
const sweepBatch = 500

// SweepTrackedQuerySearchWorker refreshes the stale projects one by one.
type SweepTrackedQuerySearchWorker = MaintenanceWorker[SweepTrackedQuerySearchArgs]

func (SweepTrackedQuerySearchArgs) run(ctx context.Context, pool *pgxpool.Pool, logger *slog.Logger) error {
	projects, err := oltp.StaleTrackedQuerySearchProjects(ctx, pool, sweepBatch)
	if err != nil {
		return err
	}
	for _, id := range projects {
		if _, _, err := oltp.RefreshTrackedQuerySearch(ctx, pool, id); err != nil {
			return err
		}
	}
	logChanged(ctx, logger, slog.LevelInfo, "refreshed tracked query search rows", "projects", len(projects))
	return nil
}
