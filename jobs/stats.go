package jobs

import (
	"context"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"

	"github.com/sightline/sightline/oltp"
)

// Membership stats (spec 2.8) are a periodic snapshot of every
// organization, answering 404 until first computed. The projected monthly
// checks are computed on request (oltp.GetProjectedChecks).

// StatsInterval is how often the membership stats are recomputed: a new
// organization's stats, and every change, show within it.
const StatsInterval = time.Minute

// MembershipStatsArgs asks for every organization's membership stats to be
// recomputed.
type MembershipStatsArgs struct{}

// Kind names the job on the queue.
func (MembershipStatsArgs) Kind() string { return "organization_membership_stats" }

// InsertOpts makes concurrent refreshes collapse into one.
func (MembershipStatsArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{Queue: MaintenanceQueue, UniqueOpts: river.UniqueOpts{ByPeriod: StatsInterval}}
}

func (MembershipStatsArgs) run(ctx context.Context, pool *pgxpool.Pool, logger *slog.Logger) error {
	organizations, err := oltp.RefreshMembershipStats(ctx, pool)
	if err != nil {
		return err
	}
	logger.InfoContext(ctx, "refreshed membership stats", "organizations", organizations)
	return nil
}

// MembershipStatsWorker recomputes the membership stats of every organization.
type MembershipStatsWorker = MaintenanceWorker[MembershipStatsArgs]
