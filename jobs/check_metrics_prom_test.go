package jobs_test

import (
	"context"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/sightline/sightline/ingest"
	"github.com/sightline/sightline/jobs"
)

func TestCheckMetricsCountChecksPassesAndEngineTimes(t *testing.T) {
	t.Parallel()
	w := checksWorkerSetup(t)
	reg := prometheus.NewRegistry()
	metrics, err := jobs.NewCheckMetrics(reg)
	if err != nil {
		t.Fatal(err)
	}
	w.worker.Metrics = metrics
	// The first attempt fails at the second pass (retryable), the second
	// resumes there and completes.
	w.engine.failAt = func(_ context.Context, req ingest.Request) error {
		if req.PassIndex == 1 {
			return checksRetryable{retry: true}
		}
		return nil
	}
	if err := w.work(w.ctx, 1); err == nil {
		t.Fatal("the failing attempt succeeded")
	}
	w.engine.failAt = nil
	if err := w.work(w.ctx, 2); err != nil {
		t.Fatal(err)
	}
	want := `
# HELP sightline_check_passes_total Check passes worked, by engine and outcome (stored, engine_error, storage_error).
# TYPE sightline_check_passes_total counter
sightline_check_passes_total{engine="chatgpt",outcome="engine_error"} 1
sightline_check_passes_total{engine="chatgpt",outcome="stored"} 3
# HELP sightline_checks_total Check run attempts by engine and outcome: started, then completed, failed (for good), retried (an attempt spent) or snoozed (waiting on a provider's Retry-After or on ClickHouse, no attempt spent).
# TYPE sightline_checks_total counter
sightline_checks_total{engine="chatgpt",outcome="completed"} 1
sightline_checks_total{engine="chatgpt",outcome="retried"} 1
sightline_checks_total{engine="chatgpt",outcome="started"} 2
`
	if err := testutil.GatherAndCompare(reg, strings.NewReader(want), "sightline_check_passes_total", "sightline_checks_total"); err != nil {
		t.Error(err)
	}
	if n := testutil.CollectAndCount(reg, "sightline_engine_request_duration_seconds"); n != 1 {
		t.Errorf("%d engine latency series, want 1 (chatgpt)", n)
	}
	h, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range h {
		if f.GetName() == "sightline_engine_request_duration_seconds" {
			if c := f.GetMetric()[0].GetHistogram().GetSampleCount(); c != 4 {
				t.Errorf("%d engine requests timed, want 4", c)
			}
		}
	}
}
