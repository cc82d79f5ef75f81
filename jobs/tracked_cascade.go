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
	ProjectID       uuid.UUID   `json:"projectId"`
	CascadeID       uuid.UUID   `json:"cascadeId"`
	TrackedQueryIDs []uuid.UUID `json:"trackedQueryIds"`
}

// Kind names the job on the queue.
func (TrackedQueryCascadeArgs) Kind() string { return "tracked_query_cascade" }

// TrackedQueryCascadeWorker is the background half of a tracked-query bulk
// delete: it removes the deleted queries' captured answers, mention and
// search matches, search and shopping pages and rank history from every
// ClickHouse table and rollup (olap.DeleteTrackedQueries), then finishes
// the cascade: it leaves the project's ledger and projects.data_dirty_since
// is cleared when no other cascade of the project is pending.
//
// The delete removed the queries' check runs with them, so a check in
// flight stops at its next pass, but the pass it is storing may land after
// a first deletion. The worker therefore deletes at once, then again once
// lateWriteWindow has passed since the delete, and only then finishes.
type TrackedQueryCascadeWorker struct {
	river.WorkerDefaults[TrackedQueryCascadeArgs]
	Pool       *pgxpool.Pool
	ClickHouse driver.Conn
}

// Work deletes the rows and, once no late pass can arrive, finishes the
// cascade. It is safe to run again after a failure.
func (w *TrackedQueryCascadeWorker) Work(ctx context.Context, job *river.Job[TrackedQueryCascadeArgs]) error {
	if err := olap.DeleteTrackedQueries(ctx, w.ClickHouse, job.Args.ProjectID, job.Args.TrackedQueryIDs); err != nil {
		return err
	}
	if wait := lateWriteWait(job.CreatedAt); wait > 0 {
		return river.JobSnooze(wait)
	}
	return oltp.FinishCascade(ctx, w.Pool, job.Args.ProjectID, job.Args.CascadeID)
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
