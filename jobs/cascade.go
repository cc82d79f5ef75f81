package jobs

import (
	"context"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"

	"github.com/sightline/sightline/oltp"
)

// CompetitorCascadeArgs asks for what was attributed to a deleted competitor
// to be removed. The DELETE that removed the competitor enqueued it in its
// own transaction, together with the project's cascade ledger entry
// (oltp.BeginCascade) that CascadeID names.
type CompetitorCascadeArgs struct {
	CascadeID      uuid.UUID `json:"cascade_id"`
	OrganizationID uuid.UUID `json:"organization_id"`
	ProjectID      uuid.UUID `json:"project_id"`
	CompetitorID   uuid.UUID `json:"competitor_id"`
}

// Kind names the job on the queue.
func (CompetitorCascadeArgs) Kind() string { return "competitor_cascade" }

// CompetitorCascadeWorker finishes a competitor's deletion. Today it only
// settles the project's bookkeeping: it removes its entry from the cascade
// ledger and clears the project's data_dirty_since once the project has no
// cascade pending (oltp.FinishCascade). The stored mentions, search results
// and shopping results attributed to the competitor live in ClickHouse
// capture tables that do not exist yet; when they arrive, this worker
// deletes the competitor's rows from them and from every rollup fed by
// them before finishing the cascade, so that data_dirty_since is cleared
// only once the figures have stopped moving.
type CompetitorCascadeWorker struct {
	river.WorkerDefaults[CompetitorCascadeArgs]
	Pool *pgxpool.Pool
}

// Work runs one cascade. It is safe to run again after a failure.
func (w *CompetitorCascadeWorker) Work(ctx context.Context, job *river.Job[CompetitorCascadeArgs]) error {
	return oltp.FinishCascade(ctx, w.Pool, job.Args.ProjectID, job.Args.CascadeID)
}
