package jobs

import (
	"context"
	"encoding/json"

	"github.com/ClickHouse/clickhouse-go/v2/lib/driver"
	"github.com/google/uuid"
	"github.com/riverqueue/river"

	"github.com/sightline/sightline/olap"
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

// InsertOpts puts the job on the maintenance queue.
func (CompetitorCascadeArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{Queue: MaintenanceQueue}
}

// cascade names the project and the ledger entry of its cascade.
func (a CompetitorCascadeArgs) cascade() (projectID, cascadeID uuid.UUID) {
	return a.ProjectID, a.CascadeID
}

// deleteRows removes what was attributed to the competitor: its mentions,
// rank rows and rollup rows go, and citations, search results and shopping
// offers are unlinked from it (olap.DeleteCompetitor). A check that loaded
// the project's brands before the delete may still store a pass naming the
// competitor, hence the second deletion of CascadeWorker.
func (a CompetitorCascadeArgs) deleteRows(ctx context.Context, conn driver.Conn) error {
	return olap.DeleteCompetitor(ctx, conn, a.ProjectID, a.CompetitorID)
}

// CompetitorCascadeWorker finishes a competitor's deletion.
type CompetitorCascadeWorker = CascadeWorker[CompetitorCascadeArgs]
