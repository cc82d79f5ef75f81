package jobs_test

import (
	"errors"
	"testing"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"github.com/sightline/sightline/jobs"
	"github.com/sightline/sightline/olap/olaptest"
	"github.com/sightline/sightline/oltp"
)

// A project's listing refresh runs once for every check it has not read
// yet, and at most once per CheckMetricsMinInterval while checks keep
// completing.
func TestCheckMetricsRefreshesAreSpaced(t *testing.T) {
	t.Parallel()
	e := checksSetup(t)
	org, _ := e.org(10)
	project := e.project(org)
	e.query(project, checksQuery{text: "best crm"})
	w := &jobs.RefreshCheckMetricsWorker{Pool: e.pool, ClickHouse: olaptest.NewConn(t)}
	work := func(enqueued time.Time) error {
		return w.Work(e.ctx, &river.Job[jobs.RefreshCheckMetricsArgs]{JobRow: &rivertype.JobRow{CreatedAt: enqueued},
			Args: jobs.RefreshCheckMetricsArgs{ProjectID: project}})
	}
	refreshedAt := func() time.Time {
		t.Helper()
		var at time.Time
		if err := e.pool.QueryRow(e.ctx, `SELECT refreshed_at FROM project_listing_metrics WHERE project_id = $1`,
			project).Scan(&at); err != nil {
			t.Fatal(err)
		}
		return at
	}

	if err := work(time.Now()); err != nil {
		t.Fatal(err)
	}
	first := refreshedAt()
	// Enqueued well before that refresh began (its completion committed
	// by then): it read the job's check already.
	if err := work(first.Add(-jobs.CompletionSkew - time.Second)); err != nil || !refreshedAt().Equal(first) {
		t.Fatalf("a covered job: %v, refreshed at %v (first %v)", err, refreshedAt(), first)
	}
	// Enqueued after it, or just before it began (its completion may have
	// committed after the refresh read Postgres), within the interval:
	// snoozed until it is over.
	for _, enqueued := range []time.Time{first.Add(time.Second), first.Add(-time.Second)} {
		var snooze *river.JobSnoozeError
		if err := work(enqueued); !errors.As(err, &snooze) ||
			snooze.Duration <= 0 || snooze.Duration > jobs.CheckMetricsMinInterval {
			t.Fatalf("a job enqueued at %v within the interval returned %v, want a snooze of at most %v",
				enqueued, err, jobs.CheckMetricsMinInterval)
		}
	}
	if !refreshedAt().Equal(first) {
		t.Fatal("a snoozed job refreshed")
	}
	// Once the interval is over, it refreshes.
	e.exec(`UPDATE project_listing_metrics SET refreshed_at = refreshed_at - $2::interval WHERE project_id = $1`,
		project, (jobs.CheckMetricsMinInterval + time.Second).String())
	if err := work(first.Add(time.Second)); err != nil {
		t.Fatal(err)
	}
	if !refreshedAt().After(first) {
		t.Fatalf("refreshed at %v, not after %v", refreshedAt(), first)
	}
}

// A refresh after the first reads again only the queries checked since the
// previous one began (less the completion skew).
func TestCheckMetricsRefreshReadsOnlyRecentChecks(t *testing.T) {
	t.Parallel()
	e := checksSetup(t)
	org, _ := e.org(10)
	project := e.project(org)
	old := e.query(project, checksQuery{text: "old", checkedAgo: time.Hour})
	recent := e.query(project, checksQuery{text: "recent", checkedAgo: time.Minute})
	e.query(project, checksQuery{text: "never"})
	got, err := oltp.TrackedQueriesCheckedSince(e.ctx, e.pool, project, time.Now().Add(-10*time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0] != recent || got[0] == old {
		t.Fatalf("checked in the last 10 minutes: %v, want [%s]", got, recent)
	}
}
