package jobs_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertest"
	"github.com/riverqueue/river/rivertype"

	"github.com/sightline/sightline"
	"github.com/sightline/sightline/ingest"
	"github.com/sightline/sightline/jobs"
)

// checksEngine is a fake answer engine: it answers every pass unless
// failAt says otherwise, and records what it was asked.
type checksEngine struct {
	mu    sync.Mutex
	asked []ingest.Request
	// failAt returns the error of a pass, or nil to answer it.
	failAt func(ctx context.Context, req ingest.Request) error
}

func (f *checksEngine) Ask(ctx context.Context, req ingest.Request) (ingest.Capture, error) {
	f.mu.Lock()
	f.asked = append(f.asked, req)
	f.mu.Unlock()
	if f.failAt != nil {
		if err := f.failAt(ctx, req); err != nil {
			return ingest.Capture{}, err
		}
	}
	return ingest.Capture{Engine: req.Engine, CapturedAt: time.Now(),
		Answer: &ingest.Answer{Text: fmt.Sprintf("Pass %d: Acme is great.", req.PassIndex)}}, nil
}

func (f *checksEngine) passes() []int {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []int
	for _, r := range f.asked {
		out = append(out, r.PassIndex)
	}
	return out
}

// checksSink keeps stored passes in memory.
type checksSink struct {
	mu     sync.Mutex
	stored []jobs.PassResult
}

func (s *checksSink) StorePass(_ context.Context, p jobs.PassResult) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stored = append(s.stored, p)
	return nil
}

func (s *checksSink) passes() []int {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []int
	for _, p := range s.stored {
		out = append(out, p.PassIndex)
	}
	return out
}

// checksRetryable is an engine error that says whether to retry, like
// ingest/engine.Error.
type checksRetryable struct{ retry bool }

func (e checksRetryable) Error() string   { return fmt.Sprintf("engine failed (retryable %v)", e.retry) }
func (e checksRetryable) Retryable() bool { return e.retry }

// checksWorkerEnv is a checksEnv with one scheduled run of a 3-pass query.
type checksWorkerEnv struct {
	*checksEnv
	org, sub, project, query, run uuid.UUID
	engine                        *checksEngine
	sink                          *checksSink
	worker                        *jobs.CheckWorker
}

func checksWorkerSetup(t *testing.T) *checksWorkerEnv {
	t.Helper()
	e := checksSetup(t)
	w := &checksWorkerEnv{checksEnv: e, engine: &checksEngine{}, sink: &checksSink{}}
	w.org, w.sub = e.org(10)
	w.project = e.project(w.org)
	w.query = e.query(w.project, checksQuery{text: "best crm", passes: 3})
	if n := e.schedule(); n != 1 {
		t.Fatalf("scheduled %d runs", n)
	}
	if err := e.pool.QueryRow(e.ctx, `SELECT id FROM check_runs WHERE tracked_query_id = $1`, w.query).Scan(&w.run); err != nil {
		t.Fatal(err)
	}
	w.worker = &jobs.CheckWorker{Pool: e.pool, Engine: w.engine, Sink: w.sink, Logger: slog.New(slog.DiscardHandler)}
	return w
}

// work runs the worker on the run as River's attempt n would.
func (w *checksWorkerEnv) work(ctx context.Context, attempt int) error {
	job := &river.Job[jobs.CheckArgs]{
		JobRow: &rivertype.JobRow{ID: 1, Attempt: attempt, MaxAttempts: jobs.CheckMaxAttempts, Kind: "check"},
		Args:   jobs.CheckArgs{RunID: w.run},
	}
	return w.worker.Work(rivertest.WorkContext(ctx, w.client), job)
}

// state returns the run's status, passes done, charged and reserved units
// and error code.
func (w *checksWorkerEnv) state() string {
	w.t.Helper()
	var s string
	if err := w.pool.QueryRow(w.ctx, `
		SELECT status || ' done=' || passes_done || ' charged=' || charged_units || ' reserved=' || reserved_units ||
		       ' error=' || coalesce(error_code, '-')
		FROM check_runs WHERE id = $1`, w.run).Scan(&s); err != nil {
		w.t.Fatal(err)
	}
	return s
}

func (w *checksWorkerEnv) lastChecked() *time.Time {
	w.t.Helper()
	var at *time.Time
	if err := w.pool.QueryRow(w.ctx, `SELECT last_checked_at FROM tracked_queries WHERE id = $1`, w.query).Scan(&at); err != nil {
		w.t.Fatal(err)
	}
	return at
}

func (w *checksWorkerEnv) wantUnits(used, reserved int) {
	w.t.Helper()
	if u, r := w.units(w.sub); u != used || r != reserved {
		w.t.Fatalf("subscription used %d reserved %d, want %d and %d", u, r, used, reserved)
	}
}

func TestChecksWorkerRunsEveryPassAndCompletes(t *testing.T) {
	t.Parallel()
	w := checksWorkerSetup(t)
	w.wantUnits(0, 3)
	if err := w.work(w.ctx, 1); err != nil {
		t.Fatal(err)
	}
	if got := w.state(); got != "completed done=3 charged=3 reserved=0 error=-" {
		t.Fatalf("run %s", got)
	}
	w.wantUnits(3, 0)
	if !slices.Equal(w.engine.passes(), []int{0, 1, 2}) || !slices.Equal(w.sink.passes(), []int{0, 1, 2}) {
		t.Fatalf("asked %v stored %v", w.engine.passes(), w.sink.passes())
	}
	p := w.sink.stored[1]
	if p.RunID != w.run || p.TrackedQueryID != w.query || p.ProjectID != w.project || p.OrganizationID != w.org ||
		p.Engine != sightline.EngineChatGPT || p.Country != "US" || p.Locale != "en" || p.QueryText != "best crm" ||
		p.PassCount != 3 || p.Capture.Answer == nil {
		t.Fatalf("stored pass %+v", p)
	}
	if !slices.Equal(p.Brands.Own.Names, []string{"Acme", "Acme Co"}) || !slices.Equal(p.Brands.Own.Domains, []string{"acme.com"}) ||
		len(p.Brands.Competitors) != 1 || p.Brands.Competitors[0].Name != "Globex" ||
		!slices.Equal(p.Brands.Competitors[0].Domains, []string{"globex.com"}) {
		t.Fatalf("brands %+v", p.Brands)
	}
	if req := w.engine.asked[0]; req.QueryText != "best crm" || req.Locale != "en" || req.PassCount != 3 ||
		req.Day.IsZero() || len(req.Brands.Competitors) != 1 {
		t.Fatalf("request %+v", req)
	}
	if at := w.lastChecked(); at == nil || time.Since(*at) > time.Minute {
		t.Fatalf("lastCheckedAt %v", at)
	}
	// The search listing is marked stale and its refresh enqueued with the completion.
	if w.count(`SELECT count(*) FROM tracked_query_search_pending WHERE project_id = $1`, w.project) != 1 {
		t.Fatal("search rows not marked stale")
	}
	if w.count(`SELECT count(*) FROM river_job WHERE kind = 'tracked_query_search_refresh' AND args->>'projectId' = $1`,
		w.project.String()) != 1 {
		t.Fatal("no search refresh enqueued")
	}
	// A completed run is not worked again, and the query is no longer due.
	if err := w.work(w.ctx, 2); err != nil {
		t.Fatal(err)
	}
	if len(w.engine.passes()) != 3 {
		t.Fatal("a completed run was worked again")
	}
	if n := w.schedule(); n != 0 {
		t.Fatalf("a query checked just now was scheduled again (%d)", n)
	}
}

func TestChecksWorkerResumesAfterARestartWithoutRepeatingOrDoubleCharging(t *testing.T) {
	t.Parallel()
	w := checksWorkerSetup(t)
	ctx, stop := context.WithCancel(w.ctx)
	// The worker is stopped while asking pass 1, after pass 0 was stored.
	w.engine.failAt = func(c context.Context, req ingest.Request) error {
		if req.PassIndex == 1 {
			stop()
			return c.Err()
		}
		return nil
	}
	if err := w.work(ctx, 1); !errors.Is(err, context.Canceled) {
		t.Fatalf("stopped worker returned %v", err)
	}
	if got := w.state(); got != "awaiting_retry done=1 charged=1 reserved=2 error=interrupted" {
		t.Fatalf("run after the stop: %s", got)
	}
	w.wantUnits(1, 2)
	if w.lastChecked() != nil {
		t.Fatal("an unfinished run set lastCheckedAt")
	}

	w.engine.failAt = nil
	w.engine.asked = nil
	if err := w.work(w.ctx, 2); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(w.engine.passes(), []int{1, 2}) {
		t.Fatalf("the restarted run asked passes %v, want [1 2]", w.engine.passes())
	}
	if !slices.Equal(w.sink.passes(), []int{0, 1, 2}) {
		t.Fatalf("stored passes %v, want each once", w.sink.passes())
	}
	if got := w.state(); got != "completed done=3 charged=3 reserved=0 error=-" {
		t.Fatalf("run %s", got)
	}
	w.wantUnits(3, 0)
}

func TestChecksWorkerRetriesRetryableFailuresThenFails(t *testing.T) {
	t.Parallel()
	w := checksWorkerSetup(t)
	w.engine.failAt = func(_ context.Context, req ingest.Request) error {
		if req.PassIndex == 1 {
			return checksRetryable{retry: true}
		}
		return nil
	}
	for attempt := 1; attempt < jobs.CheckMaxAttempts; attempt++ {
		err := w.work(w.ctx, attempt)
		var cancel *rivertype.JobCancelError
		if err == nil || errors.As(err, &cancel) {
			t.Fatalf("attempt %d: %v, want an error River retries", attempt, err)
		}
		if got := w.state(); got != "awaiting_retry done=1 charged=1 reserved=2 error=engine_error" {
			t.Fatalf("attempt %d: run %s", attempt, got)
		}
	}
	if err := w.work(w.ctx, jobs.CheckMaxAttempts); err == nil {
		t.Fatal("the last attempt succeeded")
	}
	// Failed for good: the passes not run go back, the one stored stays charged.
	if got := w.state(); got != "failed done=1 charged=1 reserved=0 error=engine_error" {
		t.Fatalf("run after the last attempt: %s", got)
	}
	w.wantUnits(1, 0)
	if w.lastChecked() != nil {
		t.Fatal("a failed run set lastCheckedAt")
	}
	if !slices.Equal(w.sink.passes(), []int{0}) {
		t.Fatalf("stored %v; a failure must store nothing", w.sink.passes())
	}
	// A failed query is left alone for a while instead of failing every minute.
	if n := w.schedule(); n != 0 {
		t.Fatalf("a query that just failed was scheduled again (%d)", n)
	}
}

func TestChecksWorkerFailsAtOnceOnAPermanentError(t *testing.T) {
	t.Parallel()
	w := checksWorkerSetup(t)
	w.engine.failAt = func(context.Context, ingest.Request) error { return checksRetryable{retry: false} }
	err := w.work(w.ctx, 1)
	var cancel *rivertype.JobCancelError
	if !errors.As(err, &cancel) {
		t.Fatalf("permanent failure returned %v, want a job cancellation", err)
	}
	if got := w.state(); got != "failed done=0 charged=0 reserved=0 error=engine_error" {
		t.Fatalf("run %s", got)
	}
	w.wantUnits(0, 0)
}

func TestChecksWorkerStopsQuietlyWhenTheRunLeavesFlight(t *testing.T) {
	t.Parallel()
	t.Run("query deleted before the run starts", func(t *testing.T) {
		t.Parallel()
		w := checksWorkerSetup(t)
		w.exec(`DELETE FROM tracked_queries WHERE id = $1`, w.query)
		if err := w.work(w.ctx, 1); err != nil {
			t.Fatal(err)
		}
		if len(w.engine.passes()) != 0 {
			t.Fatal("a deleted query was asked")
		}
		w.wantUnits(0, 0)
	})
	t.Run("query deleted mid-run", func(t *testing.T) {
		t.Parallel()
		w := checksWorkerSetup(t)
		w.engine.failAt = func(_ context.Context, req ingest.Request) error {
			if req.PassIndex == 1 {
				w.exec(`DELETE FROM tracked_queries WHERE id = $1`, w.query)
			}
			return nil
		}
		if err := w.work(w.ctx, 1); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(w.engine.passes(), []int{0, 1}) {
			t.Fatalf("asked %v after the delete", w.engine.passes())
		}
		// Pass 0 stays charged; the rest of the reservation went with the run.
		w.wantUnits(1, 0)
	})
	t.Run("run cancelled", func(t *testing.T) {
		t.Parallel()
		w := checksWorkerSetup(t)
		w.exec(`UPDATE check_runs SET status = 'cancelled', reserved_units = 0, finished_at = now() WHERE id = $1`, w.run)
		if err := w.work(w.ctx, 1); err != nil {
			t.Fatal(err)
		}
		if len(w.engine.passes()) != 0 {
			t.Fatal("a cancelled run was worked")
		}
		w.wantUnits(0, 0)
	})
}

func TestChecksWorkerBacksOff(t *testing.T) {
	t.Parallel()
	w := &jobs.CheckWorker{}
	for attempt, base := range []time.Duration{time.Minute, 5 * time.Minute, 25 * time.Minute, 2 * time.Hour, 2 * time.Hour} {
		delay := time.Until(w.NextRetry(&river.Job[jobs.CheckArgs]{JobRow: &rivertype.JobRow{Attempt: attempt + 1}}))
		if delay < base-time.Second || delay > base+base/10+time.Second {
			t.Fatalf("attempt %d waits %s, want %s plus at most 10%%", attempt+1, delay, base)
		}
	}
}

// checksRateLimited is a retryable engine error that asks for a wait, like
// an ingest/engine.Error with a Retry-After.
type checksRateLimited struct{ wait time.Duration }

func (e checksRateLimited) Error() string             { return "rate limited" }
func (e checksRateLimited) Retryable() bool           { return true }
func (e checksRateLimited) RetryDelay() time.Duration { return e.wait }

func TestChecksWorkerSnoozesForTheEnginesRetryAfter(t *testing.T) {
	t.Parallel()
	w := checksWorkerSetup(t)
	w.engine.failAt = func(_ context.Context, req ingest.Request) error {
		if req.PassIndex == 1 {
			return checksRateLimited{3 * time.Hour}
		}
		return nil
	}
	// Even the last attempt snoozes: a provider's wait spends no attempt.
	err := w.work(w.ctx, jobs.CheckMaxAttempts)
	var snooze *river.JobSnoozeError
	if !errors.As(err, &snooze) || snooze.Duration != 3*time.Hour {
		t.Fatalf("rate-limited attempt returned %v, want a 3h snooze", err)
	}
	if got := w.state(); got != "awaiting_retry done=1 charged=1 reserved=2 error=engine_error" {
		t.Fatalf("run %s", got)
	}
	w.engine.failAt = nil
	w.engine.asked = nil
	if err := w.work(w.ctx, jobs.CheckMaxAttempts); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(w.engine.passes(), []int{1, 2}) {
		t.Fatalf("after the snooze the run asked %v, want [1 2]", w.engine.passes())
	}
	w.wantUnits(3, 0)
}

func TestChecksWorkerSpendsAttemptsOnProviderWaitsPastTheLimit(t *testing.T) {
	t.Parallel()
	w := checksWorkerSetup(t)
	w.engine.failAt = func(context.Context, ingest.Request) error { return checksRateLimited{time.Hour} }
	var snooze *river.JobSnoozeError
	if err := w.work(w.ctx, 1); !errors.As(err, &snooze) {
		t.Fatalf("a fresh run's rate-limited attempt returned %v, want a snooze", err)
	}
	// A day of waiting later the provider still asks for an hour more.
	w.exec(`UPDATE check_runs SET started_at = now() - $2::interval WHERE id = $1`, w.run,
		(jobs.ProviderWaitLimit - 30*time.Minute).String())
	err := w.work(w.ctx, 2)
	if err == nil || errors.As(err, &snooze) {
		t.Fatalf("a run waiting past the limit returned %v, want an attempt spent", err)
	}
	if got := w.state(); got != "awaiting_retry done=0 charged=0 reserved=3 error=engine_error" {
		t.Fatalf("run %s", got)
	}
	if err := w.work(w.ctx, jobs.CheckMaxAttempts); err == nil || errors.As(err, &snooze) {
		t.Fatalf("the last attempt returned %v, want the failure", err)
	}
	if got := w.state(); got != "failed done=0 charged=0 reserved=0 error=engine_error" {
		t.Fatalf("run after its last attempt: %s", got)
	}
	w.wantUnits(0, 0)
}

func TestChecksReaperFailsRunsWhoseJobWasDiscarded(t *testing.T) {
	t.Parallel()
	w := checksWorkerSetup(t)
	w.wantUnits(0, 3)
	reap := &jobs.ReapCheckRunsWorker{Pool: w.pool, Logger: slog.New(slog.DiscardHandler)}
	if err := reap.Work(w.ctx, &river.Job[jobs.ReapCheckRunsArgs]{}); err != nil {
		t.Fatal(err)
	}
	if got := w.state(); got != "pending done=0 charged=0 reserved=3 error=-" {
		t.Fatalf("a run whose job is alive was touched: %s", got)
	}
	// River gives up on the job (last attempt failed, rescued, panicked)
	// without the worker closing the run.
	w.exec(`UPDATE river_job SET state = 'discarded', finalized_at = now()
	        WHERE kind = 'check' AND (args->>'runId')::uuid = $1`, w.run)
	if err := reap.Work(w.ctx, &river.Job[jobs.ReapCheckRunsArgs]{}); err != nil {
		t.Fatal(err)
	}
	if got := w.state(); got != "failed done=0 charged=0 reserved=0 error=abandoned" {
		t.Fatalf("run after the reap: %s", got)
	}
	w.wantUnits(0, 0)
	if n := w.count(`SELECT count(*) FROM check_runs WHERE tracked_query_id = $1 AND status IN ('pending', 'running', 'awaiting_retry')`, w.query); n != 0 {
		t.Fatalf("%d runs still hold the query's open slot", n)
	}
}

func TestChecksWorkerCancelsTheRunOfAQueryPausedBeforeItStarted(t *testing.T) {
	t.Parallel()
	w := checksWorkerSetup(t)
	w.exec(`UPDATE tracked_queries SET status = 'paused' WHERE id = $1`, w.query)
	if err := w.work(w.ctx, 1); err != nil {
		t.Fatal(err)
	}
	if len(w.engine.passes()) != 0 {
		t.Fatalf("asked the engine %v for a paused query", w.engine.passes())
	}
	if got := w.state(); got != "cancelled done=0 charged=0 reserved=0 error=-" {
		t.Fatalf("run %s", got)
	}
	w.wantUnits(0, 0)
}
