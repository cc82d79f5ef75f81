// Package jobs runs Sightline's background work on River, the Postgres job
// queue: periodic maintenance now, and the checks, projection refreshes and
// cascades of the product. Each job's args struct is its wire format on
// the queue; renaming a field or a Kind breaks jobs already enqueued.
package jobs

import (
	"cmp"
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/ClickHouse/clickhouse-go/v2/lib/driver"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"

	"github.com/sightline/sightline/ingest"
	"github.com/sightline/sightline/olap"
	"github.com/sightline/sightline/oltp"
)

// The queues, one per kind of work, so that no kind can starve another:
// a burst of checks does not hold up deletions and listing refreshes.
const (
	// CheckQueue holds the check runs: many at once, since a check mostly
	// waits on an engine.
	CheckQueue = "checks"
	// MaintenanceQueue holds cascades, projections, search listing
	// refreshes, brand descriptions and the periodic jobs.
	MaintenanceQueue = "maintenance"
)

// Config tunes the River client.
type Config struct {
	Logger *slog.Logger
	// Work says whether this process works jobs (worker, run) or only
	// inserts them (serve).
	Work bool
	// CheckWorkers bounds concurrent jobs of CheckQueue; 0 means
	// DefaultCheckWorkers.
	CheckWorkers int
	// PassConcurrency bounds the passes of one run asked at once; 0 means
	// one at a time.
	PassConcurrency int
	// MaintenanceWorkers bounds concurrent jobs of MaintenanceQueue, and
	// of River's default queue, where earlier versions put every job: the
	// jobs they left there still run. 0 means DefaultMaintenanceWorkers.
	MaintenanceWorkers int
	// ProposalWorkers bounds concurrent jobs of the proposals queue
	// (ProposalQueue); 0 means 2.
	ProposalWorkers int
	// Limits, when set, holds the check passes to per-provider limits.
	Limits *ProviderLimits
	// Registerer, when set, receives the checks' metrics.
	Registerer prometheus.Registerer
	// Refiner, when set, lets a language model improve proposals.
	Refiner ProposalRefiner
	// Engine and Sink serve the check worker (CheckWorker); processes that
	// only insert jobs may leave them nil.
	Engine ingest.Engine
	Sink   CaptureSink
	// ClickHouse is where the cascades delete and the listing projections
	// read check metrics from.
	ClickHouse driver.Conn
}

// The queues' default sizes.
const (
	DefaultCheckWorkers       = 500
	DefaultMaintenanceWorkers = 20
)

// NewClient builds the River client with every worker and periodic job.
func NewClient(pool *pgxpool.Pool, cfg Config) (*river.Client[pgx.Tx], error) {
	workers := river.NewWorkers()
	river.AddWorker(workers, &PruneWorker{Pool: pool, Logger: cfg.Logger})
	river.AddWorker(workers, &MembershipStatsWorker{Pool: pool, Logger: cfg.Logger})
	river.AddWorker(workers, &RefreshTrackedQuerySearchWorker{Pool: pool, Logger: cfg.Logger})
	river.AddWorker(workers, &SweepTrackedQuerySearchWorker{Pool: pool, Logger: cfg.Logger})
	river.AddWorker(workers, &TrackedQueryCascadeWorker{Pool: pool, ClickHouse: cfg.ClickHouse})
	river.AddWorker(workers, &CompetitorCascadeWorker{Pool: pool, ClickHouse: cfg.ClickHouse})
	var checkMetrics *CheckMetrics
	if cfg.Registerer != nil {
		var err error
		if checkMetrics, err = NewCheckMetrics(cfg.Registerer); err != nil {
			return nil, err
		}
	}
	river.AddWorker(workers, &CheckWorker{Pool: pool, Engine: cfg.Engine, Sink: cfg.Sink, Logger: cfg.Logger,
		PassConcurrency: cfg.PassConcurrency, Limits: cfg.Limits, Metrics: checkMetrics})
	river.AddWorker(workers, &RelayCheckAnswersWorker{Pool: pool, Sink: cfg.Sink, Logger: cfg.Logger})
	river.AddWorker(workers, &ScheduleChecksWorker{Pool: pool, Logger: cfg.Logger})
	river.AddWorker(workers, &RefreshCheckMetricsWorker{Pool: pool, ClickHouse: cfg.ClickHouse})
	river.AddWorker(workers, &DescribeBrandWorker{Pool: pool, Engine: cfg.Engine})
	river.AddWorker(workers, &ReapCheckRunsWorker{Pool: pool, Logger: cfg.Logger})
	river.AddWorker(workers, &ProposalWorker{Pool: pool, Discovery: olap.Discovery{Conn: cfg.ClickHouse}, Logger: cfg.Logger,
		Refiner: cfg.Refiner})
	river.AddWorker(workers, &ProposalMaintenanceWorker{Pool: pool, Logger: cfg.Logger})
	// (end of workers)

	riverCfg := &river.Config{
		Logger:  cfg.Logger,
		Workers: workers,
	}
	if cfg.Work {
		cfg.CheckWorkers = cmp.Or(cfg.CheckWorkers, DefaultCheckWorkers)
		cfg.MaintenanceWorkers = cmp.Or(cfg.MaintenanceWorkers, DefaultMaintenanceWorkers)
		cfg.ProposalWorkers = cmp.Or(cfg.ProposalWorkers, 2)
		riverCfg.Queues = map[string]river.QueueConfig{
			CheckQueue:         {MaxWorkers: cfg.CheckWorkers},
			MaintenanceQueue:   {MaxWorkers: cfg.MaintenanceWorkers},
			river.QueueDefault: {MaxWorkers: cfg.MaintenanceWorkers},
			ProposalQueue:      {MaxWorkers: cfg.ProposalWorkers},
		}
		riverCfg.PeriodicJobs = []*river.PeriodicJob{
			periodic(15*time.Minute, PruneArgs{}, "prune"),
			periodic(StatsInterval, MembershipStatsArgs{}, "organization_membership_stats"),
			periodic(SweepTrackedQuerySearchInterval, SweepTrackedQuerySearchArgs{}, "tracked_query_search_sweep"),
			periodic(ScheduleChecksInterval, ScheduleChecksArgs{}, "check_schedule"),
			periodic(ReapCheckRunsInterval, ReapCheckRunsArgs{}, "check_run_reap"),
			periodic(RelayCheckAnswersInterval, RelayCheckAnswersArgs{}, "check_answer_relay"),
			periodic(ProposalMaintenanceInterval, ProposalMaintenanceArgs{}, "proposal_maintenance"),
			// (end of periodic jobs)
		}
	}
	client, err := river.NewClient(riverpgxv5.New(pool), riverCfg)
	if err != nil {
		return nil, fmt.Errorf("creating river client: %w", err)
	}
	return client, nil
}

// onMaintenanceQueue, embedded in a job's args, puts the job on the
// maintenance queue.
type onMaintenanceQueue struct{}

// InsertOpts puts the job on the maintenance queue.
func (onMaintenanceQueue) InsertOpts() river.InsertOpts {
	return river.InsertOpts{Queue: MaintenanceQueue}
}

// periodic runs the job of args every interval, and once at start.
func periodic(every time.Duration, args river.JobArgs, id string) *river.PeriodicJob {
	return river.NewPeriodicJob(river.PeriodicInterval(every),
		func() (river.JobArgs, *river.InsertOpts) { return args, nil },
		&river.PeriodicJobOpts{RunOnStart: true, ID: id})
}

// PruneArgs asks for expired request state to be deleted.
type PruneArgs struct{}

// Kind names the job on the queue.
func (PruneArgs) Kind() string { return "prune" }

// InsertOpts makes concurrent prunes collapse into one.
func (PruneArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{Queue: MaintenanceQueue, UniqueOpts: river.UniqueOpts{ByPeriod: 15 * time.Minute}}
}

func (PruneArgs) run(ctx context.Context, pool *pgxpool.Pool, logger *slog.Logger) error {
	records, err := oltp.DeleteExpiredIdempotencyRecords(ctx, pool)
	if err != nil {
		return err
	}
	buckets, err := oltp.DeleteIdleRateLimits(ctx, pool, time.Minute)
	if err != nil {
		return err
	}
	logger.InfoContext(ctx, "pruned request state", "idempotencyRecords", records, "rateLimitBuckets", buckets)
	return nil
}

// PruneWorker deletes idempotency records past their retention and
// rate-limit buckets nobody has used for two windows.
type PruneWorker = MaintenanceWorker[PruneArgs]

// maintenanceArgs are the args of a periodic upkeep job on Postgres: run
// does one pass and logs what it changed.
type maintenanceArgs interface {
	river.JobArgs
	run(ctx context.Context, pool *pgxpool.Pool, logger *slog.Logger) error
}

// MaintenanceWorker runs one pass of a periodic upkeep job.
type MaintenanceWorker[T maintenanceArgs] struct {
	river.WorkerDefaults[T]
	Pool   *pgxpool.Pool
	Logger *slog.Logger
}

// Work runs one pass.
func (w *MaintenanceWorker[T]) Work(ctx context.Context, job *river.Job[T]) error {
	return job.Args.run(ctx, w.Pool, w.Logger)
}

// logChanged logs msg at level with n, the count of unit a pass changed,
// when it changed any: a pass that found nothing to do stays quiet.
func logChanged[N int | int64](ctx context.Context, logger *slog.Logger, level slog.Level, msg, unit string, n N) {
	if n > 0 {
		logger.Log(ctx, level, msg, unit, n)
	}
}
