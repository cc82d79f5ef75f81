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

// RefreshCheckMetricsArgs asks for a project's listing figures to be
// brought up to date with its checks: the last-check metrics of the
// tracked-query search rows and the project listing's metrics. Every
// completed check enqueues it in its completion's transaction.
type RefreshCheckMetricsArgs struct {
	ProjectID uuid.UUID `json:"projectId"`
}

// Kind names the job on the queue.
func (RefreshCheckMetricsArgs) Kind() string { return "check_metrics_refresh" }

// checkMetricsDelay lets the checks of a burst complete before their
// project's figures are read, so a burst costs one refresh.
const checkMetricsDelay = 5 * time.Second

// CheckMetricsMinInterval spaces a project's refreshes while its checks
// keep completing: each reads the project's 30 days in ClickHouse (and the
// last checks of the queries checked since the previous one), which every
// few seconds per project was the heaviest load of a large drain.
// The listing's figures follow a check within this interval at worst.
const CheckMetricsMinInterval = 30 * time.Second

// CompletionSkew bounds how long before its transaction committed a
// completed check's lastCheckedAt and its refresh job's creation (both the
// transaction's start) may be: a refresh reads the last checks of the
// queries checked since the previous refresh began, less this, and a job
// counts as read by a refresh only when the refresh began this long after
// the job was created, so that a completion committing while a refresh
// ran is read by a later one.
const CompletionSkew = 5 * time.Minute

// InsertOpts delays the job by checkMetricsDelay and makes it unique per
// project and period of that length, counted on the scheduled time. A
// check completing while a refresh runs always gets a new one (its
// scheduled time falls in a later period), since the running refresh may
// have read ClickHouse before the check's rows.
func (RefreshCheckMetricsArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{
		Queue:       MaintenanceQueue,
		ScheduledAt: time.Now().Add(checkMetricsDelay),
		UniqueOpts:  river.UniqueOpts{ByArgs: true, ByPeriod: checkMetricsDelay},
	}
}

// ProjectMetricsWindow is the trailing window the project listing's
// metrics cover.
const ProjectMetricsWindow = 30 * 24 * time.Hour

// RefreshCheckMetricsWorker runs RefreshCheckMetrics.
type RefreshCheckMetricsWorker struct {
	river.WorkerDefaults[RefreshCheckMetricsArgs]
	Pool       *pgxpool.Pool
	ClickHouse driver.Conn
}

// Work runs the refresh unless one that began CompletionSkew after the job
// was enqueued (and so read the check that enqueued it) has run since; within
// CheckMetricsMinInterval of the last refresh it snoozes until the
// interval is over. It is idempotent.
func (w *RefreshCheckMetricsWorker) Work(ctx context.Context, job *river.Job[RefreshCheckMetricsArgs]) error {
	last, now, err := oltp.ListingMetricsRefresh(ctx, w.Pool, job.Args.ProjectID)
	if err != nil {
		return err
	}
	if last != nil {
		if last.After(job.CreatedAt.Add(CompletionSkew)) {
			return nil
		}
		if wait := last.Add(CheckMetricsMinInterval).Sub(now); wait > 0 {
			return river.JobSnooze(wait)
		}
	}
	return refreshCheckMetrics(ctx, w.Pool, w.ClickHouse, job.Args.ProjectID, now, last)
}

// RefreshCheckMetrics brings a project's listing figures up to date with
// its checks in ClickHouse: the search rows' configuration first, so a
// query checked for the first time has a row to carry its figures, then
// their last-check metrics and the project listing's metrics.
func RefreshCheckMetrics(ctx context.Context, pool *pgxpool.Pool, ch driver.Conn, projectID uuid.UUID) error {
	_, now, err := oltp.ListingMetricsRefresh(ctx, pool, projectID)
	if err != nil {
		return err
	}
	return refreshCheckMetrics(ctx, pool, ch, projectID, now, nil)
}

// refreshCheckMetrics is RefreshCheckMetrics started at start, by the
// database's clock. With previous, when the last refresh began, only the
// last checks of the queries checked since then are read again: a refresh
// costs what changed, not the project's size.
func refreshCheckMetrics(ctx context.Context, pool *pgxpool.Pool, ch driver.Conn, projectID uuid.UUID, start time.Time,
	previous *time.Time) error {
	if _, _, err := oltp.RefreshTrackedQuerySearch(ctx, pool, projectID); err != nil {
		return err
	}
	var only []uuid.UUID
	if previous != nil {
		var err error
		if only, err = oltp.TrackedQueriesCheckedSince(ctx, pool, projectID, previous.Add(-CompletionSkew)); err != nil {
			return err
		}
		if only == nil {
			only = []uuid.UUID{}
		}
	}
	checks, err := olap.LastChecks(ctx, ch, projectID, only)
	if err != nil {
		return err
	}
	rows := make([]oltp.LastCheckMetrics, len(checks))
	for i, c := range checks {
		rows[i] = oltp.LastCheckMetrics{
			TrackedQueryID: c.TrackedQueryID, SerpPosition: c.SerpPosition, MentionPosition: c.MentionPosition,
			LinkPosition: c.LinkPosition, ShoppingPosition: c.ShoppingPosition, ShareOfVoice: c.ShareOfVoice,
			PositivityIndex: c.PositivityIndex, MentionCount: c.MentionCount,
		}
	}
	if err := oltp.SaveLastCheckMetrics(ctx, pool, projectID, rows); err != nil {
		return err
	}
	m, err := olap.ProjectMetricsSince(ctx, ch, projectID, time.Now().Add(-ProjectMetricsWindow))
	if err != nil {
		return err
	}
	return oltp.SaveProjectListingMetrics(ctx, pool, projectID, m, start)
}
