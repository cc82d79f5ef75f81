package jobs_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/url"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/riverqueue/river"

	"github.com/sightline/sightline/ingest"
	"github.com/sightline/sightline/jobs"
	"github.com/sightline/sightline/olap"
	"github.com/sightline/sightline/olap/olaptest"
)

func TestChecksWorkerAsksARunsPassesConcurrently(t *testing.T) {
	t.Parallel()
	w := checksWorkerSetup(t)
	w.worker.PassConcurrency = 3
	// Every pass waits until all three are being asked: asked one after
	// the other, the first would wait forever (until the deadline).
	var arrived sync.WaitGroup
	arrived.Add(3)
	all := make(chan struct{})
	go func() { arrived.Wait(); close(all) }()
	w.engine.failAt = func(ctx context.Context, _ ingest.Request) error {
		arrived.Done()
		select {
		case <-all:
			return nil
		case <-time.After(10 * time.Second):
			return errors.New("the passes were not asked at the same time")
		}
	}
	if err := w.work(w.ctx, 1); err != nil {
		t.Fatal(err)
	}
	if got := w.state(); got != "completed done=3 charged=3 reserved=0 error=-" {
		t.Fatalf("run %s", got)
	}
	w.wantUnits(3, 0)
	stored := w.sink.passes()
	slices.Sort(stored)
	if !slices.Equal(stored, []int{0, 1, 2}) {
		t.Fatalf("stored %v", stored)
	}
}

// checksProxy forwards TCP connections to a server until it is shut, which
// makes the server unreachable, as a ClickHouse outage does.
type checksProxy struct {
	t      *testing.T
	target string
	addr   string

	mu       sync.Mutex
	listener net.Listener
	conns    []net.Conn
}

func newChecksProxy(t *testing.T, target string) *checksProxy {
	p := &checksProxy{t: t, target: target, addr: "127.0.0.1:0"}
	p.open()
	t.Cleanup(p.shut)
	return p
}

// open listens (again) on the proxy's address.
func (p *checksProxy) open() {
	l, err := net.Listen("tcp", p.addr)
	if err != nil {
		p.t.Fatal(err)
	}
	p.mu.Lock()
	p.listener, p.addr = l, l.Addr().String()
	p.mu.Unlock()
	go func() {
		for {
			in, err := l.Accept()
			if err != nil {
				return
			}
			out, err := net.Dial("tcp", p.target)
			if err != nil {
				in.Close()
				continue
			}
			p.mu.Lock()
			p.conns = append(p.conns, in, out)
			p.mu.Unlock()
			go func() { _, _ = io.Copy(out, in); out.Close() }()
			go func() { _, _ = io.Copy(in, out); in.Close() }()
		}
	}()
}

// shut closes the listener and every connection through it.
func (p *checksProxy) shut() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.listener.Close()
	for _, c := range p.conns {
		c.Close()
	}
	p.conns = nil
}

func TestChecksKeepAnswersWhileClickHouseIsUnreachable(t *testing.T) {
	t.Parallel()
	w := checksWorkerSetup(t)
	dbURL, err := url.Parse(olaptest.NewDatabase(t))
	if err != nil {
		t.Fatal(err)
	}
	proxy := newChecksProxy(t, dbURL.Host)
	dbURL.Host = proxy.addr
	conn, err := olap.Connect(w.ctx, dbURL.String(), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	writer := olap.NewWriter(conn, olap.WriterOptions{Attempts: 2, RetryDelay: 10 * time.Millisecond,
		AttemptTimeout: 5 * time.Second})
	t.Cleanup(func() { _ = writer.Close(context.Background()) })
	w.worker.Sink = jobs.AnalyticsSink{Writer: writer}
	// ClickHouse goes away once pass 0 is stored, while pass 1 is asked.
	w.engine.failAt = func(_ context.Context, req ingest.Request) error {
		if req.PassIndex == 1 {
			proxy.shut()
		}
		return nil
	}

	for try := range 2 {
		// The same attempt each time: waiting on ClickHouse spends none.
		err := w.work(w.ctx, 1)
		var snooze *river.JobSnoozeError
		if !errors.As(err, &snooze) || snooze.Duration != jobs.StorageSnooze {
			t.Fatalf("try %d with ClickHouse down returned %v, want a snooze", try, err)
		}
		if got := w.state(); got != "awaiting_retry done=3 charged=3 reserved=0 error=storage_error" {
			t.Fatalf("try %d: run %s", try, got)
		}
		if n := w.count(`SELECT count(*) FROM check_answers WHERE run_id = $1`, w.run); n != 2 {
			t.Fatalf("try %d: %d answers kept, want passes 1 and 2", try, n)
		}
	}
	w.wantUnits(3, 0)

	proxy.open()
	if err := w.work(w.ctx, 1); err != nil {
		t.Fatal(err)
	}
	if got := w.state(); got != "completed done=3 charged=3 reserved=0 error=-" {
		t.Fatalf("run after ClickHouse came back: %s", got)
	}
	w.wantUnits(3, 0)
	if !slices.Equal(w.engine.passes(), []int{0, 1, 2}) {
		t.Fatalf("asked %v: every pass once, none again after the outage", w.engine.passes())
	}
	w.wantStoredOnce(conn)
}

// checksFailingSink refuses every pass, as a sink facing a ClickHouse
// outage does.
type checksFailingSink struct{}

func (checksFailingSink) StorePass(context.Context, jobs.PassResult) error {
	return errors.New("clickhouse is unreachable")
}

func TestChecksRelayStoresTheAnswersOfClosedRuns(t *testing.T) {
	t.Parallel()
	w := checksWorkerSetup(t)
	w.worker.Sink = checksFailingSink{}
	w.engine.failAt = func(_ context.Context, req ingest.Request) error {
		if req.PassIndex == 2 {
			return checksRetryable{retry: false}
		}
		return nil
	}
	// Pass 2 fails for good while passes 0 and 1 wait for ClickHouse.
	if err := w.work(w.ctx, 1); err == nil {
		t.Fatal("a failed run reported success")
	}
	if got := w.state(); got != "failed done=2 charged=2 reserved=0 error=engine_error" {
		t.Fatalf("run %s", got)
	}
	relay := &jobs.RelayCheckAnswersWorker{Pool: w.pool, Sink: w.sink, Logger: slog.New(slog.DiscardHandler)}
	if err := relay.Work(w.ctx, &river.Job[jobs.RelayCheckAnswersArgs]{}); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(w.sink.passes(), []int{0, 1}) {
		t.Fatalf("relayed %v, want the two paid answers", w.sink.passes())
	}
	for _, p := range w.sink.stored {
		if p.Fresh || p.RunID != w.run || p.Capture.Answer == nil || len(p.Brands.Competitors) != 1 {
			t.Fatalf("relayed pass %+v", p)
		}
	}
	if n := w.count(`SELECT count(*) FROM check_answers`); n != 0 {
		t.Fatalf("%d answers left after the relay", n)
	}
	w.wantUnits(2, 0)
}

func TestChecksWorkerStoppedOnItsLastAttemptLeavesTheRunOpen(t *testing.T) {
	t.Parallel()
	w := checksWorkerSetup(t)
	ctx, stop := context.WithCancel(w.ctx)
	w.engine.failAt = func(c context.Context, req ingest.Request) error {
		if req.PassIndex == 1 {
			stop()
			return c.Err()
		}
		return nil
	}
	if err := w.work(ctx, jobs.CheckMaxAttempts); !errors.Is(err, context.Canceled) {
		t.Fatalf("stopped worker returned %v", err)
	}
	// River gives a stopping client's attempt back: the run must still be
	// there to resume.
	if got := w.state(); got != "awaiting_retry done=1 charged=1 reserved=2 error=interrupted" {
		t.Fatalf("run after a stop on the last attempt: %s", got)
	}
}
