package jobs_test

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"time"

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
	registry := prometheus.NewPedanticRegistry()
	registry.MustRegister(jobs.NewQueueCollector(pool))
	queues := []string{"checks", "default", "maintenance", "proposals"}
	// want is the exposition of both gauges with backlog jobs available in
	// the maintenance queue and an oldest age of age there.
	want := func(backlog int, age float64) string {
		var b strings.Builder
		b.WriteString("# HELP sightline_river_jobs River jobs not yet finished, by queue and state.\n" +
			"# TYPE sightline_river_jobs gauge\n")
		for _, queue := range queues {
			for _, state := range []string{"available", "pending", "retryable", "running", "scheduled"} {
				n := 0
				if queue == "maintenance" && state == "available" {
					n = backlog
				}
				fmt.Fprintf(&b, "sightline_river_jobs{queue=%q,state=%q} %d\n", queue, state, n)
			}
		}
		b.WriteString("# HELP sightline_river_oldest_available_job_age_seconds Time since the oldest job ready to run (available) was due, by queue; 0 when none waits.\n" +
			"# TYPE sightline_river_oldest_available_job_age_seconds gauge\n")
		for _, queue := range queues {
			a := 0.0
			if queue == "maintenance" {
				a = age
			}
			fmt.Fprintf(&b, "sightline_river_oldest_available_job_age_seconds{queue=%q} %g\n", queue, a)
		}
		return b.String()
	}
	// Empty queues read 0 rather than missing.
	if err := testutil.GatherAndCompare(registry, strings.NewReader(want(0, 0)),
		"sightline_river_jobs", "sightline_river_oldest_available_job_age_seconds"); err != nil {
		t.Fatal(err)
	}
	// An insert-only client: the job stays, as in a backlog. Available
	// but due in an hour, it has not waited: its age reads 0, not less.
	if _, err := client.Insert(ctx, jobs.PruneArgs{}, &river.InsertOpts{ScheduledAt: time.Now().Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	if _, err := pool.Exec(ctx, `UPDATE river_job SET state = 'available'`); err != nil {
		t.Fatal(err)
	}
	if err := testutil.GatherAndCompare(registry, strings.NewReader(want(1, 0)),
		"sightline_river_jobs", "sightline_river_oldest_available_job_age_seconds"); err != nil {
		t.Fatal(err)
	}
	// Due an hour ago, the oldest age reads at least that.
	if _, err := pool.Exec(ctx, `UPDATE river_job SET scheduled_at = now() - interval '1 hour'`); err != nil {
		t.Fatal(err)
	}
	age := gaugeValues(t, registry, "sightline_river_oldest_available_job_age_seconds")
	// Every queue is reported; only the backlog's has waited.
	for _, queue := range queues {
		if a, ok := age[queue]; !ok || (queue == "maintenance") != (a >= 3600 && a <= 3700) || (queue != "maintenance" && a != 0) {
			t.Errorf("oldest available job ages %v, want about 3600 s for maintenance and 0 for the other queues", age)
			break
		}
	}
}

func TestCheckAnswersCollectorReportsWaitingAnswers(t *testing.T) {
	t.Parallel()
	w := checksWorkerSetup(t)
	registry := prometheus.NewPedanticRegistry()
	registry.MustRegister(jobs.NewCheckAnswersCollector(w.pool))
	// Nothing waits: both read 0 rather than missing.
	want := `
# HELP sightline_check_answers_oldest_seconds Age of the oldest answered check pass waiting for ClickHouse; 0 when none waits.
# TYPE sightline_check_answers_oldest_seconds gauge
sightline_check_answers_oldest_seconds 0
# HELP sightline_check_answers_waiting Answered check passes kept in Postgres until ClickHouse stores them.
# TYPE sightline_check_answers_waiting gauge
sightline_check_answers_waiting 0
`
	if err := testutil.GatherAndCompare(registry, strings.NewReader(want),
		"sightline_check_answers_waiting", "sightline_check_answers_oldest_seconds"); err != nil {
		t.Fatal(err)
	}

	w.exec(`INSERT INTO check_answers (run_id, project_id, pass_index, pass, created_at)
	        VALUES ($1, $2, 0, '{}', now() - interval '1 hour'), ($1, $2, 1, '{}', now() - interval '1 minute')`,
		w.run, w.project)
	if got := gaugeValues(t, registry, "sightline_check_answers_waiting"); got[""] != 2 {
		t.Errorf("answers waiting %v, want 2", got)
	}
	if got := gaugeValues(t, registry, "sightline_check_answers_oldest_seconds"); got[""] < 3600 || got[""] > 3700 {
		t.Errorf("oldest answer's age %v, want about 3600 s", got)
	}
}

// gaugeValues gathers registry and returns the values of the gauge name by
// the values of their labels, joined with commas.
func gaugeValues(t *testing.T, registry prometheus.Gatherer, name string) map[string]float64 {
	t.Helper()
	families, err := registry.Gather()
	if err != nil {
		t.Fatal(err)
	}
	values := map[string]float64{}
	for _, f := range families {
		if f.GetName() != name {
			continue
		}
		for _, m := range f.GetMetric() {
			var labels []string
			for _, l := range m.GetLabel() {
				labels = append(labels, l.GetValue())
			}
			values[strings.Join(labels, ",")] = m.GetGauge().GetValue()
		}
	}
	return values
}
