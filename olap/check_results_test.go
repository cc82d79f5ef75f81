package olap_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/sightline/sightline/olap"
	"github.com/sightline/sightline/olap/olaptest"
)

func TestCheckResultsRoundTrip(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	conn := olaptest.NewConn(t)
	org, project, other := uuid.New(), uuid.New(), uuid.New()
	day := time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC)

	var batch []olap.CheckResult
	for i := range 1000 {
		started := day.Add(time.Duration(i) * time.Minute)
		r := olap.CheckResult{
			OrganizationID: org, ProjectID: project, TrackedQueryID: uuid.New(), RunID: uuid.New(),
			Engine: "chatgpt", Country: "US", Status: "completed",
			StartedAt: started, FinishedAt: started.Add(1500 * time.Millisecond),
		}
		if i%10 == 0 {
			r.Status, r.ErrorCode, r.FinishedAt = "failed", "engine_timeout", started.Add(30*time.Second)
		}
		batch = append(batch, r)
	}
	batch = append(batch, olap.CheckResult{OrganizationID: org, ProjectID: other, TrackedQueryID: uuid.New(), RunID: uuid.New(),
		Engine: "google_serp", Country: "DE", Status: "completed", StartedAt: day, FinishedAt: day.Add(time.Second)})
	if err := olap.InsertCheckResults(ctx, conn, batch); err != nil {
		t.Fatal(err)
	}
	// A retried batch replaces its rows instead of doubling them.
	if err := olap.InsertCheckResults(ctx, conn, batch[:100]); err != nil {
		t.Fatal(err)
	}

	got, err := olap.ProjectCheckOutcomes(ctx, conn, project, day, day.AddDate(0, 0, 1))
	if err != nil {
		t.Fatal(err)
	}
	if got.Completed != 900 || got.Failed != 100 {
		t.Fatalf("outcomes = %+v, want 900 completed and 100 failed", got)
	}
	if got.AvgDurationMs == nil || *got.AvgDurationMs != 1500 {
		t.Fatalf("average duration = %v, want 1500 ms", got.AvgDurationMs)
	}

	empty, err := olap.ProjectCheckOutcomes(ctx, conn, project, day.AddDate(0, 0, 1), day.AddDate(0, 0, 2))
	if err != nil {
		t.Fatal(err)
	}
	if empty.Completed != 0 || empty.Failed != 0 || empty.AvgDurationMs != nil {
		t.Fatalf("a day without checks = %+v, want zeros and no average", empty)
	}
}
