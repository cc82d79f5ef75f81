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

func (MembershipStatsArgs) run(ctx context.Context, pool *pgxpool.Pool, logger *slog.Logger) error {
	return refreshStats(ctx, pool, logger, oltp.RefreshMembershipStats, "refreshed membership stats")
}

// MembershipStatsWorker recomputes the membership stats of every organization.
type MembershipStatsWorker = MaintenanceWorker[MembershipStatsArgs]

// ProjectedChecksArgs asks for every organization's projected monthly
// checks to be recomputed.
type ProjectedChecksArgs struct{ statsRefresh }

// Kind names the job on the queue.
func (ProjectedChecksArgs) Kind() string { return "organization_projected_checks" }

func (ProjectedChecksArgs) run(ctx context.Context, pool *pgxpool.Pool, logger *slog.Logger) error {
	return refreshStats(ctx, pool, logger, oltp.RefreshProjectedChecks, "refreshed projected monthly checks")
}

// ProjectedChecksWorker recomputes the projected monthly checks of every
// organization.
type ProjectedChecksWorker = MaintenanceWorker[ProjectedChecksArgs]

// statsRefresh gives the args of a snapshot refresh their insert options.
type statsRefresh struct{}

// InsertOpts makes concurrent refreshes collapse into one.
func (statsRefresh) InsertOpts() river.InsertOpts {
	return river.InsertOpts{Queue: MaintenanceQueue, UniqueOpts: river.UniqueOpts{ByPeriod: StatsInterval}}
}

// refreshStats runs refresh over every organization and logs done.
func refreshStats(ctx context.Context, pool *pgxpool.Pool, logger *slog.Logger,
	refresh func(context.Context, oltp.DBTX) (int64, error), done string) error {
	organizations, err := refresh(ctx, pool)
	if err != nil {
		return err
	}
	logger.InfoContext(ctx, done, "organizations", organizations)
	return nil
}
