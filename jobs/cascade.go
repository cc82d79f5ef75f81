package jobs

import (
	"context"
	"encoding/json"

	"github.com/ClickHouse/clickhouse-go/v2/lib/driver"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"

	"github.com/sightline/sightline/olap"
	"github.com/sightline/sightline/oltp"
)

// CompetitorCascadeArgs asks for what was attributed to a deleted competitor
// to be removed. The DELETE that removed the competitor enqueued it in its
// own transaction, together with the project's cascade ledger entry
// (oltp.BeginCascade) that CascadeID names.
type CompetitorCascadeArgs struct {
	CascadeID      uuid.UUID `json:"cascadeId"`
	OrganizationID uuid.UUID `json:"organizationId"`
	ProjectID      uuid.UUID `json:"projectId"`
	CompetitorID   uuid.UUID `json:"competitorId"`
}

// UnmarshalJSON also reads the snake_case names the args had before they
// were made camelCase like every other job's, so that jobs enqueued then
// still run.
func (a *CompetitorCascadeArgs) UnmarshalJSON(b []byte) error {
	type camelCase CompetitorCascadeArgs // the fields without this method
	var v struct {
		camelCase
		CascadeID      uuid.UUID `json:"cascade_id"`
		OrganizationID uuid.UUID `json:"organization_id"`
		ProjectID      uuid.UUID `json:"project_id"`
		CompetitorID   uuid.UUID `json:"competitor_id"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*a = CompetitorCascadeArgs(v.camelCase)
	for _, f := range []struct{ dst, snake *uuid.UUID }{
		{&a.CascadeID, &v.CascadeID}, {&a.OrganizationID, &v.OrganizationID},
		{&a.ProjectID, &v.ProjectID}, {&a.CompetitorID, &v.CompetitorID},
	} {
		if *f.dst == uuid.Nil {
			*f.dst = *f.snake
		}
	}
	return nil
}

// Kind names the job on the queue.
func (CompetitorCascadeArgs) Kind() string { return "competitor_cascade" }

// CompetitorCascadeWorker finishes a competitor's deletion: it removes the
// competitor's mentions, rank rows and rollup rows and unlinks it from
// citations, search results and shopping offers (olap.DeleteCompetitor),
// then finishes the cascade so that data_dirty_since is cleared only once
// the figures have stopped moving. A check that loaded the project's brands
// before the delete may still store a pass naming the competitor, so like
// the tracked-query cascade it deletes again once lateWriteWindow has
// passed before finishing.
type CompetitorCascadeWorker struct {
	river.WorkerDefaults[CompetitorCascadeArgs]
	Pool       *pgxpool.Pool
	ClickHouse driver.Conn
}

// Work runs one cascade. It is safe to run again after a failure.
func (w *CompetitorCascadeWorker) Work(ctx context.Context, job *river.Job[CompetitorCascadeArgs]) error {
	if err := olap.DeleteCompetitor(ctx, w.ClickHouse, job.Args.ProjectID, job.Args.CompetitorID); err != nil {
		return err
	}
	if wait := lateWriteWait(job.CreatedAt); wait > 0 {
		return river.JobSnooze(wait)
	}
	return oltp.FinishCascade(ctx, w.Pool, job.Args.ProjectID, job.Args.CascadeID)
}
