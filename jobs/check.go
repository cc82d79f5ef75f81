package jobs

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"

	"github.com/sightline/sightline"
	"github.com/sightline/sightline/ingest"
	"github.com/sightline/sightline/oltp"
)

// CheckArgs asks for one check run (oltp check_runs) to be worked: its
// passes asked of its engine, stored, and charged.
type CheckArgs struct {
	RunID uuid.UUID `json:"runId"`
}

// Kind names the job on the queue.
func (CheckArgs) Kind() string { return "check" }

// CheckMaxAttempts bounds the attempts of one run; after the last
// retryable failure the run fails and gives back its unused units.
const CheckMaxAttempts = 5

// CheckTimeout bounds one attempt: up to ten passes of answer engines
// that may each take a minute.
const CheckTimeout = 15 * time.Minute

// InsertOpts gives check jobs their attempts.
func (CheckArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{MaxAttempts: CheckMaxAttempts}
}

// CheckJob is the job of a run, for InsertManyTx and friends. Checks asked
// for on demand go ahead of the scheduled backlog.
func CheckJob(runID uuid.UUID, trigger string) river.InsertManyParams {
	priority := 2
	if trigger == oltp.CheckTriggerOnDemand {
		priority = 1
	}
	return river.InsertManyParams{Args: CheckArgs{RunID: runID},
		InsertOpts: &river.InsertOpts{MaxAttempts: CheckMaxAttempts, Priority: priority}}
}

// PassResult is one stored pass of a check: what the engine returned, with
// everything needed to store and analyse it.
type PassResult struct {
	RunID          uuid.UUID
	TrackedQueryID uuid.UUID
	ProjectID      uuid.UUID
	OrganizationID uuid.UUID
	Engine         sightline.Engine
	Country        string
	Locale         string // empty: no language was asked for
	QueryText      string
	PassIndex      int // 0-based
	PassCount      int
	// CapturedAt is the run's capture time, shared by all its passes and
	// retries (the run's first start).
	CapturedAt time.Time
	// FirstAttempt says no earlier attempt of the run can have stored this
	// pass, so the sink need not look for it.
	FirstAttempt bool
	Capture      ingest.Capture
	// Brands is the project's brand configuration when the pass ran.
	Brands ingest.Brands
}

// CaptureSink stores a pass (extraction and the analytics store). It must
// be idempotent per (RunID, PassIndex): a worker that dies between storing
// a pass and recording it asks that pass again and stores it a second time.
// An error with Retryable() false fails the check at once; any other error
// is retried.
type CaptureSink interface {
	StorePass(ctx context.Context, pass PassResult) error
}

// retryable is what an engine (ingest/engine.Error) or sink error says
// about trying again.
type retryable interface{ Retryable() bool }

// Error codes recorded on failed or delayed runs.
const (
	checkErrorEngine      = "engine_error"
	checkErrorStorage     = "storage_error"
	checkErrorInterrupted = "interrupted"
)

// CheckWorker works check runs. For each pass the run has not stored yet
// it asks the engine, hands the capture to the sink and records the pass,
// which charges its unit; a restarted run resumes at the next pass, so no
// pass is stored or charged twice. The last pass completes the run, sets
// the tracked query's lastCheckedAt and marks the search listing stale,
// in one transaction with the listing's refresh job.
//
// A retryable failure (engine timeouts, rate limits, outages; storage
// errors) leaves the run awaiting_retry and River retries with backoff
// (NextRetry); a permanent one, or the last attempt's, fails the run,
// giving back the units of the passes not run. A failure is recorded as
// a failure on the run and never stored as a zero metric. A run that is no
// longer in flight (cancelled, or deleted with its tracked query) stops
// quietly.
type CheckWorker struct {
	river.WorkerDefaults[CheckArgs]
	Pool   *pgxpool.Pool
	Engine ingest.Engine
	Sink   CaptureSink
	Logger *slog.Logger
	// Metrics, when set, counts passes and runs and times the engines.
	Metrics *CheckMetrics

	// retryDelays holds, per job id, the wait an engine asked for on the
	// attempt that just failed, from failed until NextRetry reads it; River
	// calls both in the process that ran the attempt.
	retryDelays sync.Map
}

// Timeout bounds one attempt.
func (w *CheckWorker) Timeout(*river.Job[CheckArgs]) time.Duration { return CheckTimeout }

// NextRetry backs off 1, 5, 25 minutes then 2 hours after the attempts
// that failed, with up to 10% jitter so that a burst of failures does not
// come back at once, and never sooner than the engine's Retry-After.
func (w *CheckWorker) NextRetry(job *river.Job[CheckArgs]) time.Time {
	delay := checkBackoff(job.Attempt)
	if asked, ok := w.retryDelays.LoadAndDelete(job.ID); ok {
		delay = max(delay, asked.(time.Duration))
	}
	return time.Now().Add(delay)
}

func checkBackoff(attempt int) time.Duration {
	delay := time.Minute
	for i := 1; i < attempt && delay < 2*time.Hour; i++ {
		delay *= 5
	}
	delay = min(delay, 2*time.Hour)
	return delay + rand.N(delay/10+1)
}

// Work runs the run's remaining passes.
func (w *CheckWorker) Work(ctx context.Context, job *river.Job[CheckArgs]) error {
	if w.Engine == nil || w.Sink == nil {
		return errors.New("check worker has no engine or capture sink configured")
	}
	client, err := river.ClientFromContextSafely[pgx.Tx](ctx)
	if err != nil {
		return err
	}
	cancelled, err := oltp.CancelCheckRunOfPausedQuery(ctx, w.Pool, job.Args.RunID)
	if err != nil {
		return err
	}
	if cancelled {
		w.Logger.InfoContext(ctx, "check run cancelled: its query was paused before it started", "runId", job.Args.RunID)
		return nil
	}
	run, err := oltp.StartCheckRun(ctx, w.Pool, job.Args.RunID, job.Attempt)
	if err != nil {
		return err
	}
	if run == nil {
		w.Logger.InfoContext(ctx, "check run no longer in flight; nothing to do", "runId", job.Args.RunID)
		return nil
	}
	brands, err := w.brands(ctx, run.ProjectID)
	if err != nil {
		return w.failed(ctx, job, run, checkErrorStorage, err)
	}
	engine := sightline.Engine(run.Engine)
	var locale string
	if run.Locale != nil {
		locale = *run.Locale
	}
	for pass := run.PassesDone; pass < run.NPasses; pass++ {
		asked := time.Now()
		capture, err := w.Engine.Ask(ctx, ingest.Request{
			TrackedQueryID: run.TrackedQueryID, QueryText: run.QueryText, Engine: engine,
			Country: run.Country, Locale: locale, PassIndex: pass, PassCount: run.NPasses,
			Day: run.StartedAt.UTC().Truncate(24 * time.Hour), Brands: brands,
		})
		w.Metrics.asked(run.Engine, time.Since(asked))
		if err != nil {
			w.Metrics.pass(run.Engine, checkErrorEngine)
			return w.failed(ctx, job, run, checkErrorEngine, err)
		}
		err = w.Sink.StorePass(ctx, PassResult{
			RunID: run.ID, TrackedQueryID: run.TrackedQueryID, ProjectID: run.ProjectID,
			OrganizationID: run.OrganizationID, Engine: engine, Country: run.Country, Locale: locale,
			QueryText: run.QueryText, PassIndex: pass, PassCount: run.NPasses, CapturedAt: run.StartedAt,
			FirstAttempt: job.Attempt == 1,
			Capture:      capture, Brands: brands,
		})
		if err != nil {
			w.Metrics.pass(run.Engine, checkErrorStorage)
			return w.failed(ctx, job, run, checkErrorStorage, err)
		}
		w.Metrics.pass(run.Engine, "stored")
		recorded, err := oltp.RecordCheckPass(ctx, w.Pool, run, pass)
		if err != nil {
			return w.failed(ctx, job, run, checkErrorStorage, err)
		}
		if !recorded {
			w.Logger.InfoContext(ctx, "check run left flight mid-run; stopping", "runId", run.ID, "pass", pass)
			return nil
		}
	}
	return w.complete(ctx, client, run)
}

// complete closes the run and refreshes what its check changed.
func (w *CheckWorker) complete(ctx context.Context, client *river.Client[pgx.Tx], run *oltp.CheckRun) error {
	tx, err := w.Pool.Begin(ctx)
	if err != nil {
		return fmt.Errorf("beginning check completion: %w", err)
	}
	defer tx.Rollback(context.WithoutCancel(ctx)) //nolint:errcheck // a no-op after Commit
	completed, err := oltp.CompleteCheckRun(ctx, tx, run)
	if err != nil {
		return err
	}
	if !completed {
		w.Logger.InfoContext(ctx, "check run left flight before completing", "runId", run.ID)
		return nil
	}
	if err := TrackedQueriesChanged(ctx, tx, client, run.ProjectID); err != nil {
		return err
	}
	if _, err := client.InsertTx(ctx, tx, RefreshCheckMetricsArgs{ProjectID: run.ProjectID}, nil); err != nil {
		return fmt.Errorf("enqueueing check metrics refresh: %w", err)
	}
	if err := tx.Commit(ctx); err != nil {
		return fmt.Errorf("committing check completion: %w", err)
	}
	w.Metrics.run(run.Engine, "completed")
	return nil
}

// failed records a failed attempt and tells River what to do with the job.
// The record is written even when the attempt's context is done (a stopped
// worker), so the run never stays running without a worker.
func (w *CheckWorker) failed(ctx context.Context, job *river.Job[CheckArgs], run *oltp.CheckRun, code string, cause error) error {
	if ctx.Err() != nil {
		code = checkErrorInterrupted
	}
	record, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	var r retryable
	permanent := errors.As(cause, &r) && !r.Retryable()
	if permanent || job.Attempt >= job.MaxAttempts {
		if err := oltp.FailCheckRun(record, w.Pool, run, code, cause.Error()); err != nil {
			return errors.Join(cause, err)
		}
		w.Metrics.run(run.Engine, "failed")
		w.Logger.WarnContext(ctx, "check run failed", "runId", run.ID, "attempt", job.Attempt, "error", cause.Error())
		if permanent {
			return river.JobCancel(cause)
		}
		return cause
	}
	if err := oltp.DelayCheckRun(record, w.Pool, run, code, cause.Error()); err != nil {
		return errors.Join(cause, err)
	}
	var asked interface{ RetryDelay() time.Duration }
	if errors.As(cause, &asked) && asked.RetryDelay() > 0 {
		w.retryDelays.Store(job.ID, asked.RetryDelay())
	}
	return cause
}

// brands loads the project's brand configuration for the engines and the
// sink.
func (w *CheckWorker) brands(ctx context.Context, projectID uuid.UUID) (ingest.Brands, error) {
	return ProjectBrands(ctx, w.Pool, projectID)
}

// ProjectBrands loads a project's brand configuration as extraction
// matches against it.
func ProjectBrands(ctx context.Context, db oltp.DBTX, projectID uuid.UUID) (ingest.Brands, error) {
	own, competitors, err := oltp.CheckBrands(ctx, db, projectID)
	if err != nil {
		return ingest.Brands{}, err
	}
	b := ingest.Brands{Own: ingest.Brand{Names: own.BrandNames, Domains: own.WebsiteDomains}}
	for _, c := range competitors {
		b.Competitors = append(b.Competitors, ingest.Competitor{ID: c.ID, Name: c.Name,
			Brand: ingest.Brand{Names: c.BrandNames, Domains: c.WebsiteDomains}})
	}
	return b, nil
}
