package jobs

import (
	"context"
	"time"

	"github.com/ClickHouse/clickhouse-go/v2/lib/driver"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"

	"github.com/sightline/sightline/olap"
	"github.com/sightline/sightline/oltp"
)

// TrackedQueryCascadeArgs finishes a bulk delete of tracked queries: the
// rows are gone from Postgres (memberships with them) in the delete's own
// transaction, which also registered the cascade (oltp.BeginCascade) and
// set the project's data_dirty_since.
type TrackedQueryCascadeArgs struct {
	onMaintenanceQueue
	ProjectID       uuid.UUID   `json:"projectId"`
	CascadeID       uuid.UUID   `json:"cascadeId"`
	TrackedQueryIDs []uuid.UUID `json:"trackedQueryIds"`
}

// Kind names the job on the queue.
func (TrackedQueryCascadeArgs) Kind() string { return "tracked_query_cascade" }

// cascade names the project and the ledger entry of its cascade.
func (a TrackedQueryCascadeArgs) cascade() (projectID, cascadeID uuid.UUID) {
	return a.ProjectID, a.CascadeID
}

// deleteRows removes the deleted queries' captured answers, mention and
// search matches, search and shopping pages and rank history from every
// ClickHouse table and rollup (olap.DeleteTrackedQueries). The delete
// removed the queries' check runs with them, so a check in flight stops at
// its next pass, but the pass it is storing may land after a first
// deletion, hence the second deletion of CascadeWorker.
func (a TrackedQueryCascadeArgs) deleteRows(ctx context.Context, conn driver.Conn) error {
	return olap.DeleteTrackedQueries(ctx, conn, a.ProjectID, a.TrackedQueryIDs)
}

// TrackedQueryCascadeWorker is the background half of a tracked-query bulk
// delete.
type TrackedQueryCascadeWorker = CascadeWorker[TrackedQueryCascadeArgs]

// cascadeArgs are the args of a cascade: a deletion whose ClickHouse rows
// are removed in the background, registered in the project's cascade ledger
// (oltp.BeginCascade) in the transaction that enqueued the job.
type cascadeArgs interface {
	river.JobArgs
	cascade() (projectID, cascadeID uuid.UUID)
	deleteRows(ctx context.Context, conn driver.Conn) error
}

// CascadeWorker runs a cascade: it deletes the rows at once, then again
// once lateWriteWindow has passed since the deletion was enqueued (a check
// in flight may store a pass after the first), and only then finishes the
// cascade, so that the project's data_dirty_since is cleared once its
// figures have stopped moving and no other cascade of it is pending. After
// each deletion it refreshes the project's listing figures in full (the
// last-check metrics of the tracked-query listing and the project
// listing's), which otherwise follow only the project's next check.
type CascadeWorker[T cascadeArgs] struct {
	river.WorkerDefaults[T]
	Pool       *pgxpool.Pool
	ClickHouse driver.Conn
}

// Work runs one cascade. It is safe to run again after a failure.
func (w *CascadeWorker[T]) Work(ctx context.Context, job *river.Job[T]) error {
	if err := job.Args.deleteRows(ctx, w.ClickHouse); err != nil {
		return err
	}
	projectID, cascadeID := job.Args.cascade()
	if err := RefreshCheckMetrics(ctx, w.Pool, w.ClickHouse, projectID); err != nil {
		return err
	}
	if wait := lateWriteWait(job.CreatedAt); wait > 0 {
		return river.JobSnooze(wait)
	}
	return oltp.FinishCascade(ctx, w.Pool, projectID, cascadeID)
}

// lateWriteWindow bounds how long after its run left flight a check can
// still store a pass: one engine request (ENGINE_TIMEOUT, 60 s by default)
// and one writer flush, with room to spare.
const lateWriteWindow = 5 * time.Minute

// lateWriteWait is how long a cascade enqueued at enqueued still waits
// before its final deletion.
func lateWriteWait(enqueued time.Time) time.Duration {
	return time.Until(enqueued.Add(lateWriteWindow))
}
