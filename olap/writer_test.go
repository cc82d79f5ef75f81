package olap_test

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ClickHouse/clickhouse-go/v2/lib/driver"
	"github.com/google/uuid"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/sightline/sightline"
	"github.com/sightline/sightline/olap"
	"github.com/sightline/sightline/olap/olaptest"
)

// writerFlakyConn fails inserts into chosen tables: the first failures
// inserts of each reach the server and are stored, but the call still
// fails, as when a connection drops after the server committed; with
// refuse set, inserts fail before anything is sent.
type writerFlakyConn struct {
	driver.Conn
	mu       sync.Mutex
	failures map[string]int // table -> failures left
	refuse   bool
}

func (c *writerFlakyConn) PrepareBatch(ctx context.Context, query string, opts ...driver.PrepareBatchOption) (driver.Batch, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for table, n := range c.failures {
		if n > 0 && strings.HasPrefix(query, "INSERT INTO "+table+" ") {
			c.failures[table] = n - 1
			if c.refuse {
				return nil, errors.New("connection refused")
			}
			b, err := c.Conn.PrepareBatch(ctx, query, opts...)
			return writerLostAnswer{b}, err
		}
	}
	return c.Conn.PrepareBatch(ctx, query, opts...)
}

// writerLostAnswer stores its rows and reports a failure.
type writerLostAnswer struct{ driver.Batch }

func (b writerLostAnswer) Send() error {
	if err := b.Batch.Send(); err != nil {
		return err
	}
	return errors.New("connection reset after the insert was sent")
}

// writerMetric reads a counter from reg: the series whose one label has
// value label, or the unlabelled one when label is empty.
func writerMetric(t *testing.T, reg *prometheus.Registry, name, label string) float64 {
	t.Helper()
	families, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range families {
		if mf.GetName() != name {
			continue
		}
		for _, m := range mf.GetMetric() {
			if label == "" || (len(m.GetLabel()) == 1 && m.GetLabel()[0].GetValue() == label) {
				return m.GetCounter().GetValue()
			}
		}
	}
	return 0
}

// writerAIPass is one AI pass naming the own brand and citing a page.
func writerAIPass(f *capturesFixture, tq uuid.UUID) olap.PassRows {
	p := f.pass(tq, uuid.New(), sightline.EngineChatGPT, 0, 1, 9)
	p.ResponseText = "Own is good."
	p.Mentions = []olap.Mention{f.own(1, sightline.MentionRecommendation, sightline.TonePositive, sightline.QualifierDirect)}
	p.Citations = []olap.Citation{f.citation(1, f.ownDomain, "/", sightline.RelationOwn, nil)}
	return p
}

// Concurrent callers share flushes, one at a time or several in flight
// (the bulk path), and every pass is stored once.
func TestWriterBatchesConcurrentCallers(t *testing.T) {
	t.Parallel()
	for _, inFlight := range []int{1, 4} {
		t.Run(fmt.Sprintf("in flight %d", inFlight), func(t *testing.T) {
			t.Parallel()
			writerBatchesConcurrentCallers(t, inFlight)
		})
	}
}

func writerBatchesConcurrentCallers(t *testing.T, inFlight int) {
	f := newCapturesFixture(t)
	reg := prometheus.NewRegistry()
	w := olap.NewWriter(f.conn, olap.WriterOptions{FlushRows: 10_000, MaxInFlight: inFlight, Registerer: reg})
	const callers, writes = 40, 5
	tq := uuid.New()
	var wg sync.WaitGroup
	var failed atomic.Int32
	for range callers {
		wg.Go(func() {
			for range writes {
				if err := w.Write(context.Background(), writerAIPass(f, tq)); err != nil {
					t.Error(err)
					failed.Add(1)
				}
			}
		})
	}
	wg.Wait()
	if err := w.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if failed.Load() > 0 {
		t.FailNow()
	}
	// Every acknowledged pass is stored, once, in every table and rollup.
	const passes = callers * writes
	for table, want := range map[string]uint64{"ai_answers": passes, "mentions": passes, "citations": passes, "rank_rows": passes} {
		if n := f.count("SELECT count() FROM "+table+" WHERE project_id = ?", f.project); n != want {
			t.Errorf("%s rows = %d, want %d", table, n, want)
		}
	}
	if n := f.count("SELECT sum(passes) FROM ranks_daily WHERE project_id = ?", f.project); n != passes {
		t.Errorf("ranks_daily passes = %d, want %d", n, passes)
	}
	flushes := writerMetric(t, reg, "sightline_olap_writer_flushes_total", "stored")
	if flushes < 1 || flushes >= passes/2 {
		t.Errorf("%v flushes for %d concurrent writes: not batched", flushes, passes)
	}
	if n := writerMetric(t, reg, "sightline_olap_writer_rows_total", "mentions"); n != passes {
		t.Errorf("rows metric for mentions = %v, want %d", n, passes)
	}
	if err := w.Write(context.Background(), writerAIPass(f, tq)); !errors.Is(err, olap.ErrWriterClosed) {
		t.Errorf("Write after Close = %v, want ErrWriterClosed", err)
	}
}

// A lone writer is flushed at once, by itself: it does not wait for company
// (the default options would hold a write for no interval at all), and a
// batch never grows past FlushRows.
func TestWriterCommitsInGroups(t *testing.T) {
	t.Parallel()
	f := newCapturesFixture(t)
	reg := prometheus.NewRegistry()
	w := olap.NewWriter(f.conn, olap.WriterOptions{FlushRows: 3, Registerer: reg})
	tq := uuid.New()
	for i := range 3 {
		if err := w.Write(context.Background(), writerAIPass(f, tq)); err != nil {
			t.Fatal(err)
		}
		if n := writerMetric(t, reg, "sightline_olap_writer_flushes_total", "stored"); n != float64(i+1) {
			t.Fatalf("after %d sequential writes %v flushes: each lone write is its own flush", i+1, n)
		}
	}
	// Twelve passes written together: batches of at most three passes (one
	// mention row each), so at least four flushes.
	var wg sync.WaitGroup
	for range 12 {
		wg.Go(func() {
			if err := w.Write(context.Background(), writerAIPass(f, tq)); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if err := w.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if n := writerMetric(t, reg, "sightline_olap_writer_flushes_total", "stored"); n < 3+4 {
		t.Errorf("%v flushes in all, want at least 7: a batch holds at most FlushRows rows of a table", n)
	}
	if n := f.count("SELECT count() FROM mentions WHERE project_id = ?", f.project); n != 15 {
		t.Errorf("mentions rows = %d, want 15", n)
	}
}

func TestWriterRetriesWithTheSameToken(t *testing.T) {
	t.Parallel()
	f := newCapturesFixture(t)
	// mentions and rank_rows store their rows but answer with an error, and
	// rank_rows does it again on its first retry: two retries (a flush
	// sends its tables' blocks in parallel) re-send blocks the server
	// already holds, which must not be stored twice, in raw tables or
	// rollups.
	conn := &writerFlakyConn{Conn: f.conn, failures: map[string]int{"mentions": 1, "rank_rows": 2}}
	reg := prometheus.NewRegistry()
	w := olap.NewWriter(conn, olap.WriterOptions{RetryDelay: time.Millisecond, Registerer: reg})
	d := f.dataset()
	if err := w.Write(context.Background(), d.passes...); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := writerMetric(t, reg, "sightline_olap_writer_retries_total", ""); got != 2 {
		t.Errorf("retries = %v, want 2", got)
	}
	counts := capturesTableCounts(t, f)
	if counts["mentions"] != 7 || counts["rank_rows"] != 13 || counts["mentions_daily"] != 7 || counts["ranks_daily"] != 13 ||
		counts["cooccurrence_daily"] != 2 {
		t.Errorf("counts after retried flushes = %v, want every pass once", counts)
	}
	r := capturesReadRollups(t, f)
	if !capturesNear(r.totalWorth, 4.7) || r.answers != 3 {
		t.Errorf("rollups after retried flushes: worth %v, answers %d; want 4.7 and 3", r.totalWorth, r.answers)
	}
}

func TestWriterFailsRowsBackToTheirWriters(t *testing.T) {
	t.Parallel()
	f := newCapturesFixture(t)
	conn := &writerFlakyConn{Conn: f.conn, failures: map[string]int{"ai_answers": 100}, refuse: true}
	reg := prometheus.NewRegistry()
	w := olap.NewWriter(conn, olap.WriterOptions{Attempts: 3,
		RetryDelay: time.Millisecond, Registerer: reg})
	defer w.Close(context.Background()) //nolint:errcheck // the failure is asserted on Write

	var wg sync.WaitGroup
	errs := make([]error, 3)
	for i := range errs {
		wg.Go(func() { errs[i] = w.Write(context.Background(), writerAIPass(f, uuid.New())) })
	}
	wg.Wait()
	for i, err := range errs {
		if err == nil || !strings.Contains(err.Error(), "connection refused") {
			t.Errorf("writer %d: %v, want the flush's error", i, err)
		}
	}
	if n := writerMetric(t, reg, "sightline_olap_writer_flushes_total", "failed"); n < 1 {
		t.Errorf("failed flushes = %v", n)
	}
	// A later write of the same pass, once the server is back, stores it.
	conn.mu.Lock()
	conn.failures = nil
	conn.mu.Unlock()
	p := writerAIPass(f, uuid.New())
	if err := w.Write(context.Background(), p); err != nil {
		t.Fatal(err)
	}
	if n := f.count("SELECT count() FROM ai_answers WHERE project_id = ? AND run_id = ?", f.project, p.RunID); n != 1 {
		t.Errorf("answer rows = %d, want 1", n)
	}
}

func TestWriterFlushAndCancel(t *testing.T) {
	t.Parallel()
	f := newCapturesFixture(t)
	w := olap.NewWriter(f.conn, olap.WriterOptions{})
	if err := w.Flush(context.Background()); err != nil {
		t.Fatalf("flushing nothing: %v", err)
	}

	// A caller that stops waiting leaves its pass queued; Flush stores it.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	p := writerAIPass(f, uuid.New())
	if err := w.Write(ctx, p); !errors.Is(err, context.Canceled) {
		t.Fatalf("Write with a cancelled context = %v", err)
	}
	done := make(chan error, 1)
	q := writerAIPass(f, uuid.New())
	go func() { done <- w.Write(context.Background(), q) }()
	time.Sleep(50 * time.Millisecond) // let the write queue
	if err := w.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("Write did not return after Flush")
	}
	if n := f.count("SELECT count() FROM rank_rows WHERE project_id = ? AND run_id IN (?, ?)", f.project, p.RunID, q.RunID); n != 2 {
		t.Errorf("rank rows = %d, want both passes", n)
	}

	// Close flushes what waits.
	r := writerAIPass(f, uuid.New())
	go func() { done <- w.Write(context.Background(), r) }()
	time.Sleep(50 * time.Millisecond)
	if err := w.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if n := f.count("SELECT count() FROM ai_answers WHERE project_id = ? AND run_id = ?", f.project, r.RunID); n != 1 {
		t.Errorf("answer written before Close = %d rows, want 1", n)
	}

	if err := w.Write(context.Background(), olap.PassRows{}); !errors.Is(err, olap.ErrInvalidPass) {
		t.Errorf("invalid pass: %v, want ErrInvalidPass before ErrWriterClosed", err)
	}
}

func TestWriterStoresFreshPassesWithoutLookingThemUp(t *testing.T) {
	t.Parallel()
	f := newCapturesFixture(t)
	w := olap.NewWriter(f.conn, olap.WriterOptions{})
	t.Cleanup(func() { _ = w.Close(context.Background()) })
	d := f.dataset()
	fresh := make([]olap.PassRows, len(d.passes))
	for i, p := range d.passes {
		p.Fresh = true
		fresh[i] = p
	}
	if err := w.Write(context.Background(), fresh...); err != nil {
		t.Fatal(err)
	}
	before := capturesTableCounts(t, f)
	// A later attempt of the same runs is not fresh: looked up, skipped.
	if err := w.Write(context.Background(), d.passes...); err != nil {
		t.Fatal(err)
	}
	if after := capturesTableCounts(t, f); !maps.Equal(before, after) || after["rank_rows"] != 13 {
		t.Errorf("counts %v after re-sending the stored passes, want %v (13 rank rows)", after, before)
	}
}

// A drain after an outage sends many passes that earlier attempts may have
// stored; one flush must look them all up, however many runs they span,
// within ClickHouse's default max_query_size of 256 KiB.
func TestWriterLooksUpAFlushOfManyRetriedPasses(t *testing.T) {
	t.Parallel()
	conn, err := olap.Connect(context.Background(), olaptest.NewDatabase(t)+"?max_query_size=262144", nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	f := capturesFixtureOn(t, conn)
	const runs = 3000
	passes := make([]olap.PassRows, runs)
	for i := range passes {
		p := f.pass(uuid.New(), uuid.New(), sightline.EngineChatGPT, 0, 1, i%20)
		p.ResponseText = "Own is named."
		p.Mentions = []olap.Mention{f.own(1, sightline.MentionListing, sightline.ToneNeutral, sightline.QualifierDirect)}
		passes[i] = p
	}
	w := olap.NewWriter(f.conn, olap.WriterOptions{Attempts: 1})
	t.Cleanup(func() { _ = w.Close(context.Background()) })
	ctx := context.Background()
	if err := w.Write(ctx, passes[:runs/2]...); err != nil {
		t.Fatal(err)
	}
	// Half of them again, as a retry would send them, with the rest.
	if err := w.Write(ctx, passes...); err != nil {
		t.Fatal(err)
	}
	if n := f.count("SELECT count() FROM rank_rows WHERE project_id = ?", f.project); n != runs {
		t.Errorf("rank_rows holds %d rows, want one per pass: %d", n, runs)
	}
}
