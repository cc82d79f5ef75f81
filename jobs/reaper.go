package jobs

import (
	"context"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/sightline/sightline/oltp"
)

// ReapCheckRunsArgs asks for the check runs River gave up on to be failed
// (oltp.FailAbandonedCheckRuns).
type ReapCheckRunsArgs struct{ onMaintenanceQueue }

// Kind names the job on the queue.
func (ReapCheckRunsArgs) Kind() string { return "check_run_reap" }

// ReapCheckRunsInterval is how often abandoned runs are looked for. River
// keeps discarded jobs for days, far longer than this.
const ReapCheckRunsInterval = 5 * time.Minute

func (ReapCheckRunsArgs) run(ctx context.Context, pool *pgxpool.Pool, logger *slog.Logger) error {
	n, err := oltp.FailAbandonedCheckRuns(ctx, pool)
	if err != nil {
		return err
	}
	logChanged(ctx, logger, slog.LevelWarn, "failed check runs whose jobs were discarded", "runs", n)
	return nil
}

// ReapCheckRunsWorker fails abandoned check runs.
type ReapCheckRunsWorker = MaintenanceWorker[ReapCheckRunsArgs]
