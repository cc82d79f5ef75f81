package jobs

import (
	"context"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"

	"github.com/sightline/sightline/oltp"
)

// Periodic snapshots of every organization (spec 2.8): membership stats,
// which answer 404 until first computed, and the projected monthly checks,
// which are computed on request until first refreshed.

// StatsInterval is how often both snapshots are recomputed.
const StatsInterval = 10 * time.Minute

// MembershipStatsArgs asks for every organization's membership stats to be
// recomputed.
type MembershipStatsArgs struct{}

// Kind names the job on the queue.
func (MembershipStatsArgs) Kind() string { return "organization_membership_stats" }

// InsertOpts makes concurrent refreshes collapse into one.
func (MembershipStatsArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{UniqueOpts: river.UniqueOpts{ByPeriod: StatsInterval}}
}

// MembershipStatsWorker recomputes the membership stats of every organization.
type MembershipStatsWorker struct {
	river.WorkerDefaults[MembershipStatsArgs]
	Pool   *pgxpool.Pool
	Logger *slog.Logger
}

// Work runs one refresh.
func (w *MembershipStatsWorker) Work(ctx context.Context, _ *river.Job[MembershipStatsArgs]) error {
	n, err := oltp.RefreshMembershipStats(ctx, w.Pool)
	if err != nil {
		return err
	}
	w.Logger.InfoContext(ctx, "refreshed membership stats", "organizations", n)
	return nil
}

// ProjectedChecksArgs asks for every organization's projected monthly
// checks to be recomputed.
type ProjectedChecksArgs struct{}

// Kind names the job on the queue.
func (ProjectedChecksArgs) Kind() string { return "organization_projected_checks" }

// InsertOpts makes concurrent refreshes collapse into one.
func (ProjectedChecksArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{UniqueOpts: river.UniqueOpts{ByPeriod: StatsInterval}}
}

// ProjectedChecksWorker recomputes the projected monthly checks of every
// organization.
type ProjectedChecksWorker struct {
	river.WorkerDefaults[ProjectedChecksArgs]
	Pool   *pgxpool.Pool
	Logger *slog.Logger
}

// Work runs one refresh.
func (w *ProjectedChecksWorker) Work(ctx context.Context, _ *river.Job[ProjectedChecksArgs]) error {
	n, err := oltp.RefreshProjectedChecks(ctx, w.Pool)
	if err != nil {
		return err
	}
	w.Logger.InfoContext(ctx, "refreshed projected monthly checks", "organizations", n)
	return nil
}
