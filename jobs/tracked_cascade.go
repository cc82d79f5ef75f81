package jobs

import (
	"context"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"

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
// delete. The ClickHouse rows it must delete (captured answers, mention
// and search matches, search and shopping pages, rank history of the
// deleted queries) arrive later with the capture tables; until then it
// only finishes the cascade: it removes it from the project's ledger and
// clears projects.data_dirty_since when no other cascade of the project is
// pending (oltp.FinishCascade).
type TrackedQueryCascadeWorker struct {
	river.WorkerDefaults[TrackedQueryCascadeArgs]
	Pool *pgxpool.Pool
}

// Work finishes the cascade.
func (w *TrackedQueryCascadeWorker) Work(ctx context.Context, job *river.Job[TrackedQueryCascadeArgs]) error {
	return oltp.FinishCascade(ctx, w.Pool, job.Args.ProjectID, job.Args.CascadeID)
}
