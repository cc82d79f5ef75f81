package jobs_test

import (
	"context"
	"slices"
	"testing"

	"github.com/ClickHouse/clickhouse-go/v2/lib/driver"

	"github.com/sightline/sightline/jobs"
	"github.com/sightline/sightline/olap"
	"github.com/sightline/sightline/olap/olaptest"
)

// checksStopAfterStore stores a pass through the real sink, then stops
// the worker when it has stored pass stopAfter: the worker dies between
// storing a pass and forgetting its kept answer, the worst moment for
// duplicates.
type checksStopAfterStore struct {
	jobs.AnalyticsSink
	stopAfter int
	stop      context.CancelFunc
}

func (s *checksStopAfterStore) StorePass(ctx context.Context, p jobs.PassResult) error {
	err := s.AnalyticsSink.StorePass(ctx, p)
	if p.PassIndex == s.stopAfter && s.stop != nil {
		s.stop()
		s.stop = nil
	}
	return err
}

func TestChecksRestartBetweenStoreAndForgetLeavesNoDuplicates(t *testing.T) {
	t.Parallel()
	w := checksWorkerSetup(t)
	conn := olaptest.NewConn(t)
	writer := olap.NewWriter(conn, olap.WriterOptions{})
	t.Cleanup(func() { _ = writer.Close(context.Background()) })
	ctx, stop := context.WithCancel(w.ctx)
	sink := &checksStopAfterStore{AnalyticsSink: jobs.AnalyticsSink{Writer: writer}, stopAfter: 1, stop: stop}
	w.worker.Sink = sink

	if err := w.work(ctx, 1); err == nil {
		t.Fatal("the stopped worker reported success")
	}
	// Pass 1 is charged and still kept: the restart stores it again
	// instead of asking the engine.
	if got := w.state(); got != "awaiting_retry done=2 charged=2 reserved=1 error=interrupted" {
		t.Fatalf("run after the stop: %s", got)
	}
	if n := w.count(`SELECT count(*) FROM check_answers WHERE run_id = $1`, w.run); n != 1 {
		t.Fatalf("%d answers kept after the stop, want pass 1's", n)
	}
	w.engine.asked = nil
	if err := w.work(w.ctx, 2); err != nil {
		t.Fatal(err)
	}
	if got := w.state(); got != "completed done=3 charged=3 reserved=0 error=-" {
		t.Fatalf("run %s", got)
	}
	w.wantUnits(3, 0)
	if !slices.Equal(w.engine.passes(), []int{2}) {
		t.Fatalf("the restarted run asked passes %v, want [2]", w.engine.passes())
	}
	w.wantStoredOnce(conn)
}

// wantStoredOnce checks that the run completed with nothing kept, and
// that ClickHouse holds each of its three passes once.
func (w *checksWorkerEnv) wantStoredOnce(conn driver.Conn) {
	w.t.Helper()
	if n := w.count(`SELECT count(*) FROM check_answers WHERE run_id = $1`, w.run); n != 0 {
		w.t.Fatalf("%d answers still kept after completion", n)
	}
	for table, want := range map[string]uint64{"ai_answers": 3, "rank_rows": 3} {
		var n uint64
		// Without FINAL: a pass stored twice must not be there twice at all.
		if err := conn.QueryRow(w.ctx, "SELECT count() FROM "+table+" WHERE run_id = ?", w.run).Scan(&n); err != nil {
			w.t.Fatal(err)
		}
		if n != want {
			w.t.Errorf("%s: %d rows for the run, want %d", table, n, want)
		}
	}
}
