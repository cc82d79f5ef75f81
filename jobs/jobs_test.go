package jobs_test

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
	"github.com/riverqueue/river"

	"github.com/sightline/sightline/jobs"
	"github.com/sightline/sightline/oltp/oltptest"
)

func TestPruneWorkerDeletesOnlyExpiredState(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := oltptest.NewPool(t)
	_, err := pool.Exec(ctx, `
		INSERT INTO users (id, email) VALUES ('0193a7e4-0000-7000-8000-000000000001', 'p@example.com');
		INSERT INTO api_keys (id, user_id, name, secret_hash, capabilities, all_organizations)
		VALUES ('0193a7e4-0000-7000-8000-000000000002', '0193a7e4-0000-7000-8000-000000000001', 'k',
		        decode(repeat('ab', 32), 'hex'), '{read}', true);
		INSERT INTO idempotency_records (api_key_id, idempotency_key, method, path, request_hash, outcome,
		                                 response_status, expires_at)
		VALUES ('0193a7e4-0000-7000-8000-000000000002', 'expired-key', 'POST', '/x', '\x00', 'completed', 200, now() - interval '1 minute'),
		       ('0193a7e4-0000-7000-8000-000000000002', 'live-key', 'POST', '/x', '\x00', 'completed', 200, now() + interval '1 hour');
		INSERT INTO rate_limit_logs (bucket, admitted)
		VALUES ('idle', ARRAY[now() - interval '10 minutes', now() - interval '61 seconds']),
		       ('busy', ARRAY[now() - interval '61 seconds', now() - interval '1 second']);`)
	if err != nil {
		t.Fatal(err)
	}
	w := &jobs.PruneWorker{Pool: pool, Logger: slog.New(slog.DiscardHandler)}
	if err := w.Work(ctx, &river.Job[jobs.PruneArgs]{}); err != nil {
		t.Fatal(err)
	}
	var keys, buckets string
	pool.QueryRow(ctx, `SELECT string_agg(idempotency_key, ',') FROM idempotency_records`).Scan(&keys)
	pool.QueryRow(ctx, `SELECT string_agg(bucket, ',') FROM rate_limit_logs`).Scan(&buckets)
	if keys != "live-key" || buckets != "busy" {
		t.Fatalf("left records %q and buckets %q, want live-key and busy", keys, buckets)
	}
}

func TestQueueCollectorReportsDepth(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := oltptest.NewPool(t)
	client, err := jobs.NewClient(pool, jobs.Config{Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	// An insert-only client: the job stays available, as in a backlog.
	if _, err := client.Insert(ctx, jobs.PruneArgs{}, nil); err != nil {
		t.Fatal(err)
	}
	registry := prometheus.NewPedanticRegistry()
	registry.MustRegister(jobs.NewQueueCollector(pool))
	var want strings.Builder
	want.WriteString("# HELP sightline_river_jobs River jobs not yet finished, by queue and state.\n" +
		"# TYPE sightline_river_jobs gauge\n")
	for _, queue := range []string{"checks", "default", "maintenance", "proposals"} {
		for _, state := range []string{"available", "pending", "retryable", "running", "scheduled"} {
			n := 0
			if queue == "maintenance" && state == "available" {
				n = 1
			}
			fmt.Fprintf(&want, "sightline_river_jobs{queue=%q,state=%q} %d\n", queue, state, n)
		}
	}
	if err := testutil.GatherAndCompare(registry, strings.NewReader(want.String()), "sightline_river_jobs"); err != nil {
		t.Fatal(err)
	}
	// The backlog's job has waited since it was inserted; set it an hour
	// back and the oldest age reads at least that.
	if _, err := pool.Exec(ctx, `UPDATE river_job SET scheduled_at = now() - interval '1 hour'`); err != nil {
		t.Fatal(err)
	}
	families, err := registry.Gather()
	if err != nil {
		t.Fatal(err)
	}
	age := map[string]float64{}
	for _, f := range families {
		if f.GetName() == "sightline_river_oldest_available_job_age_seconds" {
			for _, m := range f.GetMetric() {
				age[m.GetLabel()[0].GetValue()] = m.GetGauge().GetValue()
			}
		}
	}
	// Every queue is reported; only the backlog's has waited.
	for _, queue := range []string{"checks", "default", "maintenance", "proposals"} {
		if a, ok := age[queue]; !ok || (queue == "maintenance") != (a >= 3600 && a <= 3700) || (queue != "maintenance" && a != 0) {
			t.Errorf("oldest available job ages %v, want about 3600 s for maintenance and 0 for the other queues", age)
			break
		}
	}
}
