package jobs

import (
	"context"
	"encoding/json"
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
	"golang.org/x/sync/errgroup"

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

// InsertOpts puts check jobs on their queue and gives them their attempts.
func (CheckArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{Queue: CheckQueue, MaxAttempts: CheckMaxAttempts}
}

// CheckJob is the job of a run, for InsertManyTx and friends. Checks asked
// for on demand go ahead of the scheduled backlog.
func CheckJob(runID uuid.UUID, trigger string) river.InsertManyParams {
	priority := 2
	if trigger == oltp.CheckTriggerOnDemand {
		priority = 1
	}
	return river.InsertManyParams{Args: CheckArgs{RunID: runID},
		InsertOpts: &river.InsertOpts{Queue: CheckQueue, MaxAttempts: CheckMaxAttempts, Priority: priority}}
}

// PassResult is one answered pass of a check: what the engine returned,
// with everything needed to store and analyse it. It is also the pass's
// record in the check_answers outbox, as JSON: renaming a field breaks
// answers already kept there.
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
	// Fresh says the pass has just been answered, so nothing can have
	// stored it yet and the sink need not look for it; an answer taken
	// back from the outbox is not fresh.
	Fresh   bool `json:"-"`
	Capture ingest.Capture
	// Brands is the project's brand configuration when the pass ran.
	Brands ingest.Brands
}

// CaptureSink stores a pass (extraction and the analytics store). It must
// be idempotent per (RunID, PassIndex): a worker that dies between storing
// a pass and forgetting its answer stores that answer a second time.
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

// CheckWorker works check runs. It asks the engine the passes the run has
// not answered, up to PassConcurrency at once, each within the limits of
// its provider (Limits). An answer is kept in the check_answers outbox and
// its unit charged in one statement before it goes to the sink, and
// forgotten once the sink has stored it: a run stopped at any point
// resumes with the passes it has not answered, and stores the answers it
// kept without asking the engine again, so no pass is asked, stored or
// charged twice. The run completes once every pass is answered and
// stored: it sets the tracked query's lastCheckedAt and marks the search
// listing stale, in one transaction with the listing's refresh job.
//
// A retryable engine failure (timeouts, outages) leaves the run
// awaiting_retry and River retries with backoff (NextRetry); a provider
// that asked to wait (429 or 503 with Retry-After, or a provider this
// process is holding back for that reason) snoozes the job for that long
// without spending an attempt, within ProviderWaitLimit, as does a storage
// failure once the answers are kept: ClickHouse being down costs no attempt
// and no engine call. A
// permanent failure, or the last attempt's, fails the run, giving back the
// units of the passes not answered. A failure is recorded as a failure on
// the run and never stored as a zero metric. A run that is no longer in
// flight (cancelled, or deleted with its tracked query) stops quietly.
type CheckWorker struct {
	river.WorkerDefaults[CheckArgs]
	Pool   *pgxpool.Pool
	Engine ingest.Engine
	Sink   CaptureSink
	Logger *slog.Logger
	// PassConcurrency bounds the passes of one run asked at once; 0 asks
	// them one after the other.
	PassConcurrency int
	// Limits, when set, bounds every provider's concurrency and rate.
	Limits *ProviderLimits
	// Metrics, when set, counts checks and passes by engine and outcome and
	// times the engines.
	Metrics *CheckMetrics
}

// StorageSnooze is how long a run whose answers are kept waits before it
// tries ClickHouse again.
const StorageSnooze = 30 * time.Second

// ProviderWaitLimit bounds how long after its start a run may keep
// snoozing on providers' requested waits: River never discards a snoozed
// job, so a provider that answers 429 for good (an exhausted quota) would
// otherwise hold the run, its reservation and its query's open slot for
// ever. Past the limit a requested wait spends an attempt like any
// retryable failure, and the run fails once its attempts are spent.
const ProviderWaitLimit = 24 * time.Hour

// Timeout bounds one attempt.
func (w *CheckWorker) Timeout(*river.Job[CheckArgs]) time.Duration { return CheckTimeout }

// NextRetry backs off 1, 5, 25 minutes then 2 hours after the attempts
// that failed, with up to 10% jitter so that a burst of failures does not
// come back at once.
func (w *CheckWorker) NextRetry(job *river.Job[CheckArgs]) time.Time {
	return time.Now().Add(checkBackoff(job.Attempt))
}

func checkBackoff(attempt int) time.Duration {
	delay := time.Minute
	for i := 1; i < attempt && delay < 2*time.Hour; i++ {
		delay *= 5
	}
	delay = min(delay, 2*time.Hour)
	return delay + rand.N(delay/10+1)
}

// checkAttempt gathers what the passes of one attempt ran into.
type checkAttempt struct {
	mu         sync.Mutex
	engineErr  error // the first engine failure
	storageErr error // the first storage failure
	leftFlight bool
}

func (a *checkAttempt) fail(engine bool, err error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if engine && a.engineErr == nil {
		a.engineErr = err
	} else if !engine && a.storageErr == nil {
		a.storageErr = err
	}
}

func (a *checkAttempt) left() {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.leftFlight = true
}

// stopped says no further pass should be asked: the engine failed or the
// run left flight.
func (a *checkAttempt) stopped() bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.engineErr != nil || a.leftFlight
}

// Work stores the run's kept answers and asks its remaining passes.
func (w *CheckWorker) Work(ctx context.Context, job *river.Job[CheckArgs]) error {
	if w.Engine == nil || w.Sink == nil {
		return errors.New("check worker has no engine or capture sink configured")
	}
	client, err := river.ClientFromContextSafely[pgx.Tx](ctx)
	if err != nil {
		return err
	}
	run, cancelled, err := oltp.StartCheckRun(ctx, w.Pool, job.Args.RunID, job.Attempt)
	if err != nil {
		return err
	}
	if cancelled {
		w.Logger.InfoContext(ctx, "check run cancelled: its query was paused before it started", "runId", job.Args.RunID)
		return nil
	}
	if run == nil {
		w.Logger.InfoContext(ctx, "check run no longer in flight; nothing to do", "runId", job.Args.RunID)
		return nil
	}
	w.Metrics.started(run.Engine)
	// Only answered passes can have answers kept: a fresh run has none.
	var kept []oltp.CheckAnswer
	if run.AnsweredPasses != 0 {
		if kept, err = oltp.CheckAnswersOfRun(ctx, w.Pool, run); err != nil {
			return w.failed(ctx, job, run, checkErrorStorage, err)
		}
	}
	brands, err := w.brands(ctx, run.ProjectID)
	if err != nil {
		return w.failed(ctx, job, run, checkErrorStorage, err)
	}

	attempt := &checkAttempt{}
	var group errgroup.Group
	group.SetLimit(max(1, w.PassConcurrency))
	for _, answer := range kept {
		group.Go(func() error {
			if err := storeKept(ctx, w.Pool, w.Sink, answer); err != nil {
				attempt.fail(false, err)
			}
			return nil
		})
	}
	for pass := range run.NPasses {
		if run.AnsweredPasses&(1<<pass) != 0 {
			continue
		}
		group.Go(func() error {
			// Checked once the pass has its turn: a pass that failed
			// meanwhile, or a stopping worker, ends the asking.
			if ctx.Err() == nil && !attempt.stopped() {
				w.ask(ctx, run, pass, brands, attempt)
			}
			return nil
		})
	}
	_ = group.Wait() // the passes report through attempt
	switch {
	case attempt.leftFlight:
		w.Logger.InfoContext(ctx, "check run left flight mid-run; stopping", "runId", run.ID)
		return nil
	case attempt.engineErr != nil:
		return w.failed(ctx, job, run, checkErrorEngine, attempt.engineErr)
	case attempt.storageErr != nil:
		return w.failed(ctx, job, run, checkErrorStorage, attempt.storageErr)
	}
	return w.complete(ctx, client, run)
}

// ask asks the engine one pass, keeps and charges its answer, then stores
// it.
func (w *CheckWorker) ask(ctx context.Context, run *oltp.CheckRun, pass int, brands ingest.Brands, attempt *checkAttempt) {
	engine := sightline.Engine(run.Engine)
	var locale string
	if run.Locale != nil {
		locale = *run.Locale
	}
	asked := time.Now()
	capture, err := w.Limits.Ask(ctx, w.Engine, ingest.Request{
		TrackedQueryID: run.TrackedQueryID, QueryText: run.QueryText, Engine: engine,
		Country: run.Country, Locale: locale, PassIndex: pass, PassCount: run.NPasses,
		Day: run.StartedAt.UTC().Truncate(24 * time.Hour), Brands: brands,
	})
	w.Metrics.asked(run.Engine, time.Since(asked))
	if err != nil {
		w.Metrics.pass(run.Engine, checkErrorEngine)
		attempt.fail(true, err)
		return
	}
	result := PassResult{
		RunID: run.ID, TrackedQueryID: run.TrackedQueryID, ProjectID: run.ProjectID,
		OrganizationID: run.OrganizationID, Engine: engine, Country: run.Country, Locale: locale,
		QueryText: run.QueryText, PassIndex: pass, PassCount: run.NPasses, CapturedAt: run.StartedAt,
		Fresh: true, Capture: capture, Brands: brands,
	}
	encoded, err := json.Marshal(result)
	if err != nil {
		attempt.fail(false, permanentError{fmt.Errorf("encoding the answer of pass %d: %w", pass, err)})
		return
	}
	// Kept even if the attempt is being stopped: the answer is paid for.
	keep, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	recorded, err := oltp.RecordCheckAnswer(keep, w.Pool, run, pass, encoded)
	if err != nil {
		attempt.fail(false, err)
		return
	}
	if !recorded {
		attempt.left()
		return
	}
	answer := oltp.CheckAnswer{RunID: run.ID, ProjectID: run.ProjectID, PassIndex: pass, Pass: encoded}
	if err := store(ctx, w.Pool, w.Sink, answer, result); err != nil {
		w.Metrics.pass(run.Engine, checkErrorStorage)
		attempt.fail(false, err)
		return
	}
	w.Metrics.pass(run.Engine, "stored")
}

// storeKept stores an answer kept in the outbox and not stored yet.
func storeKept(ctx context.Context, pool *pgxpool.Pool, sink CaptureSink, answer oltp.CheckAnswer) error {
	result, err := decodeAnswer(answer)
	if err != nil {
		return err
	}
	return store(ctx, pool, sink, answer, result)
}

// store hands a kept answer to the sink and forgets it once stored.
func store(ctx context.Context, pool *pgxpool.Pool, sink CaptureSink, answer oltp.CheckAnswer, result PassResult) error {
	if err := sink.StorePass(ctx, result); err != nil {
		return sinkError{err}
	}
	return oltp.DeleteCheckAnswer(ctx, pool, answer)
}

// sinkError is a failure of the sink to store an answer that is kept, so
// trying later costs nothing but the wait.
type sinkError struct{ err error }

func (e sinkError) Error() string { return e.err.Error() }
func (e sinkError) Unwrap() error { return e.err }

func decodeAnswer(answer oltp.CheckAnswer) (PassResult, error) {
	var result PassResult
	if err := json.Unmarshal(answer.Pass, &result); err != nil {
		return result, permanentError{fmt.Errorf("decoding the kept answer of run %s pass %d: %w",
			answer.RunID, answer.PassIndex, err)}
	}
	return result, nil
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
	w.Metrics.finished(run.Engine, checkCompleted)
	return nil
}

// failed records a failed attempt and tells River what to do with the job.
// The record is written even when the attempt's context is done (a stopped
// worker), so the run never stays running without a worker.
func (w *CheckWorker) failed(ctx context.Context, job *river.Job[CheckArgs], run *oltp.CheckRun, code string, cause error) error {
	if ctx.Err() != nil {
		code = checkErrorInterrupted
		// With its cause, so that River tells a stopping client's
		// cancellation (the job is worked again at once, attempt given
		// back) from a timeout.
		cause = fmt.Errorf("%w (%w)", cause, context.Cause(ctx))
	}
	record, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	var r retryable
	permanent := errors.As(cause, &r) && !r.Retryable()
	snooze := snoozeFor(code, cause)
	if code == checkErrorEngine && time.Since(run.StartedAt)+snooze > ProviderWaitLimit {
		snooze = 0
	}
	// A stopped worker's last attempt leaves the run open: River gives a
	// soft stop's attempt back, and the reaper fails the run if River
	// discards the job instead.
	stopped := errors.Is(ctx.Err(), context.Canceled)
	if permanent || (snooze == 0 && !stopped && job.Attempt >= job.MaxAttempts) {
		if err := oltp.FailCheckRun(record, w.Pool, run, code, cause.Error()); err != nil {
			return errors.Join(cause, err)
		}
		w.Logger.WarnContext(ctx, "check run failed", "runId", run.ID, "attempt", job.Attempt, "error", cause.Error())
		w.Metrics.finished(run.Engine, checkFailed)
		if permanent {
			return river.JobCancel(cause)
		}
		return cause
	}
	if err := oltp.DelayCheckRun(record, w.Pool, run, code, cause.Error()); err != nil {
		return errors.Join(cause, err)
	}
	if snooze > 0 {
		w.Logger.InfoContext(ctx, "check run snoozed", "runId", run.ID, "for", snooze, "error", cause.Error())
		w.Metrics.finished(run.Engine, checkSnoozed)
		return river.JobSnooze(snooze)
	}
	w.Metrics.finished(run.Engine, checkRetried)
	return cause
}

// snoozeFor is how long to snooze a job instead of spending an attempt,
// zero to spend one: a provider's requested wait, or StorageSnooze when
// storage failed with every answer kept (ClickHouse unreachable).
func snoozeFor(code string, cause error) time.Duration {
	var asked interface{ RetryDelay() time.Duration }
	var sink sinkError
	switch {
	case code == checkErrorEngine && errors.As(cause, &asked) && asked.RetryDelay() > 0:
		return asked.RetryDelay()
	case code == checkErrorStorage && errors.As(cause, &sink):
		return StorageSnooze
	}
	return 0
}

// brands loads the project's brand configuration for the engines and the
// sink.
func (w *CheckWorker) brands(ctx context.Context, projectID uuid.UUID) (ingest.Brands, error) {
	return ProjectBrands(ctx, w.Pool, projectID)
}

// ProjectBrands loads a project's brand configuration as extraction
// matches against it.
func ProjectBrands(ctx context.Context, db oltp.Batcher, projectID uuid.UUID) (ingest.Brands, error) {
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
