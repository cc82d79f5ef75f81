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
type MembershipStatsArgs struct{ statsRefresh }

// Kind names the job on the queue.
func (MembershipStatsArgs) Kind() string { return "organization_membership_stats" }

func (MembershipStatsArgs) refresh(ctx context.Context, db oltp.DBTX) (int64, string, error) {
	n, err := oltp.RefreshMembershipStats(ctx, db)
	return n, "refreshed membership stats", err
}

// MembershipStatsWorker recomputes the membership stats of every organization.
type MembershipStatsWorker = StatsWorker[MembershipStatsArgs]

// ProjectedChecksArgs asks for every organization's projected monthly
// checks to be recomputed.
type ProjectedChecksArgs struct{ statsRefresh }

// Kind names the job on the queue.
func (ProjectedChecksArgs) Kind() string { return "organization_projected_checks" }

func (ProjectedChecksArgs) refresh(ctx context.Context, db oltp.DBTX) (int64, string, error) {
	n, err := oltp.RefreshProjectedChecks(ctx, db)
	return n, "refreshed projected monthly checks", err
}

// ProjectedChecksWorker recomputes the projected monthly checks of every
// organization.
type ProjectedChecksWorker = StatsWorker[ProjectedChecksArgs]

// statsRefresh gives the args of a snapshot refresh their insert options.
type statsRefresh struct{}

// InsertOpts makes concurrent refreshes collapse into one.
func (statsRefresh) InsertOpts() river.InsertOpts {
	return river.InsertOpts{UniqueOpts: river.UniqueOpts{ByPeriod: StatsInterval}}
}

// statsArgs are the args of a snapshot refresh: refresh recomputes the
// snapshot of every organization and says what it did for the log.
type statsArgs interface {
	river.JobArgs
	refresh(ctx context.Context, db oltp.DBTX) (organizations int64, done string, err error)
}

// StatsWorker runs one snapshot refresh.
type StatsWorker[T statsArgs] struct {
	river.WorkerDefaults[T]
	Pool   *pgxpool.Pool
	Logger *slog.Logger
}

// Work runs one refresh.
func (w *StatsWorker[T]) Work(ctx context.Context, job *river.Job[T]) error {
	n, done, err := job.Args.refresh(ctx, w.Pool)
	if err != nil {
		return err
	}
	w.Logger.InfoContext(ctx, done, "organizations", n)
	return nil
}
