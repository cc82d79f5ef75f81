package olap

import (
	"context"
	"fmt"
	"time"

	"github.com/ClickHouse/clickhouse-go/v2/lib/driver"
	"github.com/google/uuid"
)

// CheckResult is one engine pass of a check, as stored in check_results.
type CheckResult struct {
	OrganizationID uuid.UUID
	ProjectID      uuid.UUID
	TrackedQueryID uuid.UUID
	RunID          uuid.UUID
	Engine         string
	Country        string
	PassIndex      uint8
	Status         string // completed or failed
	ErrorCode      string
	StartedAt      time.Time
	FinishedAt     time.Time
}

// InsertCheckResults writes results in one batch. check_results is a
// ReplacingMergeTree keyed by run and pass, so a retried batch replaces
// rather than doubles its rows.
func InsertCheckResults(ctx context.Context, conn driver.Conn, results []CheckResult) error {
	batch, err := conn.PrepareBatch(ctx, `INSERT INTO check_results
		(organization_id, project_id, tracked_query_id, run_id, engine, country, pass_index,
		 status, error_code, started_at, finished_at)`)
	if err != nil {
		return fmt.Errorf("preparing check_results batch: %w", err)
	}
	defer batch.Abort() //nolint:errcheck // a no-op once sent
	for _, r := range results {
		if err := batch.Append(r.OrganizationID, r.ProjectID, r.TrackedQueryID, r.RunID, r.Engine,
			r.Country, r.PassIndex, r.Status, r.ErrorCode, r.StartedAt, r.FinishedAt); err != nil {
			return fmt.Errorf("appending check result: %w", err)
		}
	}
	if err := batch.Send(); err != nil {
		return fmt.Errorf("sending check_results batch: %w", err)
	}
	return nil
}

// CheckOutcomes counts a project's passes per outcome over [from, to).
type CheckOutcomes struct {
	Completed uint64
	Failed    uint64
	// AvgDurationMs is the mean duration of completed passes; nil without any.
	AvgDurationMs *float64
}

// ProjectCheckOutcomes summarises a project's passes in a time range,
// counting a re-inserted pass once.
func ProjectCheckOutcomes(ctx context.Context, conn driver.Conn, projectID uuid.UUID, from, to time.Time) (CheckOutcomes, error) {
	var out CheckOutcomes
	row := conn.QueryRow(ctx, `
		SELECT countIf(status = 'completed'), countIf(status = 'failed'),
		       if(countIf(status = 'completed') = 0, NULL, avgIf(duration_ms, status = 'completed'))
		FROM check_results FINAL
		WHERE project_id = ? AND finished_at >= ? AND finished_at < ?`, projectID, from, to)
	if err := row.Scan(&out.Completed, &out.Failed, &out.AvgDurationMs); err != nil {
		return CheckOutcomes{}, fmt.Errorf("summarising check results: %w", err)
	}
	return out, nil
}
