// Package checks measures how fast one worker process drains check runs
// through the real pipeline: River on Postgres, the check worker asking
// the simulator (with a configurable latency, as live engines take seconds
// to answer), the check_answers outbox, extraction, the batching writer and
// ClickHouse with every materialized view. It seeds due tracked queries
// over 100 projects, schedules them (jobs.ScheduleChecks), starts a River
// client working the queues as `sightline worker` does, and waits until
// every run has completed. It prints passes/s and runs/s, p50 and p99 from
// a run's scheduling to its completion, the time per pass spent storing in
// ClickHouse, and this process's CPU per 1,000 passes. Its databases are
// its own, dropped at the end.
//
//	CHECKS_PASSES=100000 CHECKS_LATENCY=5s-30s CHECKS_WORKERS=10000 \
//	  go test -run '^$' -bench . -benchtime 1x -timeout 2h ./benchmarks/checks
package checks

import (
	"context"
	"log/slog"
	"os"
	"slices"
	"strconv"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/sightline/sightline/ingest/engine"
	"github.com/sightline/sightline/ingest/simulator"
	"github.com/sightline/sightline/jobs"
	"github.com/sightline/sightline/olap"
	"github.com/sightline/sightline/olap/olaptest"
	"github.com/sightline/sightline/oltp"
	"github.com/sightline/sightline/oltp/oltptest"
)

const projects = 100

// setting reads an integer from the environment.
func setting(b *testing.B, name string, def int) int {
	v := os.Getenv(name)
	if v == "" {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil || n <= 0 {
		b.Fatalf("%s must be a positive integer, got %q", name, v)
	}
	return n
}

// timedSink is the service's sink, timing each pass's store.
type timedSink struct {
	jobs.AnalyticsSink
	nanos atomic.Int64
}

func (s *timedSink) StorePass(ctx context.Context, p jobs.PassResult) error {
	start := time.Now()
	err := s.AnalyticsSink.StorePass(ctx, p)
	s.nanos.Add(int64(time.Since(start)))
	return err
}

func cpuTime() time.Duration {
	var u syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &u)
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}

func BenchmarkDrainChecks(b *testing.B) {
	passes := setting(b, "CHECKS_PASSES", 100_000)
	workers := setting(b, "CHECKS_WORKERS", jobs.DefaultCheckWorkers)
	passConcurrency := setting(b, "CHECKS_PASS_CONCURRENCY", 3)
	latency := os.Getenv("CHECKS_LATENCY")
	ctx := context.Background()
	logger := slog.New(slog.DiscardHandler)

	// As `sightline worker` with its default SIGHTLINE_PG_MAX_CONNS.
	pool, err := oltp.Connect(ctx, oltptest.NewDatabase(b), int32(setting(b, "CHECKS_PG_CONNS", 40)))
	if err != nil {
		b.Fatal(err)
	}
	defer pool.Close()
	conn := olaptest.NewConn(b)
	router, err := engine.FromEnv(func(k string) string {
		if k == "SIGHTLINE_SIMULATOR_LATENCY" {
			return latency
		}
		return ""
	}, simulator.New(1), nil)
	if err != nil {
		b.Fatal(err)
	}

	// Queries over the six engines, AI ones of 1, 2 or 3 passes, search and
	// shopping of one (5/3 passes on average), spread over the projects,
	// every one due.
	queries := passes * 3 / 5
	seed := time.Now()
	for p := range projects {
		org, project := uuid.Must(uuid.NewV7()), uuid.Must(uuid.NewV7())
		if _, err := pool.Exec(ctx, `INSERT INTO organizations (id, name) VALUES ($1, 'Bench org')`, org); err != nil {
			b.Fatal(err)
		}
		if _, err := pool.Exec(ctx, `
			INSERT INTO subscriptions (id, organization_id, status, tier, billing_interval, check_budget,
			                           current_period_start, current_period_end)
			VALUES ($1, $2, 'active', 'bench', 'monthly', $3, now() - interval '1 day', now() + interval '29 days')`,
			uuid.Must(uuid.NewV7()), org, passes); err != nil {
			b.Fatal(err)
		}
		if _, err := pool.Exec(ctx, `
			INSERT INTO projects (id, organization_id, name) VALUES ($1, $2, 'Bench project');
			`, project, org); err != nil {
			b.Fatal(err)
		}
		if _, err := pool.Exec(ctx, `
			INSERT INTO brand_profiles (project_id, id, website_domains, brand_names)
			VALUES ($1, $2, ARRAY['acme.com'], ARRAY['Acme'])`, project, uuid.Must(uuid.NewV7())); err != nil {
			b.Fatal(err)
		}
		n := queries / projects
		if p < queries%projects {
			n++
		}
		if _, err := pool.Exec(ctx, `
			INSERT INTO tracked_queries (id, project_id, query_text, engine, country, check_frequency, n_passes)
			SELECT gen_random_uuid(), $1, 'best crm ' || i,
			       (ARRAY['chatgpt', 'perplexity', 'google_ai_overview', 'google_ai_mode', 'google_serp',
			              'google_shopping'])[1 + i % 6],
			       'US', 'daily', CASE WHEN i % 6 IN (4, 5) THEN 1 ELSE 1 + (i / 6) % 3 END
			FROM generate_series(1, $2) i`, project, n); err != nil {
			b.Fatal(err)
		}
	}
	if _, err := pool.Exec(ctx, `VACUUM ANALYZE`); err != nil {
		b.Fatal(err)
	}
	b.Logf("seeded %d due queries over %d projects in %s", queries, projects, time.Since(seed).Round(time.Millisecond))

	writer := olap.NewWriter(conn, olap.WriterOptions{})
	defer func() { _ = writer.Close(ctx) }()
	sink := &timedSink{AnalyticsSink: jobs.AnalyticsSink{Writer: writer}}
	client, err := jobs.NewClient(pool, jobs.Config{Logger: logger, Work: true, CheckWorkers: workers,
		PassConcurrency: passConcurrency, Engine: router, Sink: sink, ClickHouse: conn})
	if err != nil {
		b.Fatal(err)
	}

	for b.Loop() {
		runs, err := jobs.ScheduleChecks(ctx, pool, client)
		if err != nil {
			b.Fatal(err)
		}
		var want int
		if err := pool.QueryRow(ctx, `SELECT coalesce(sum(n_passes), 0) FROM check_runs`).Scan(&want); err != nil {
			b.Fatal(err)
		}
		b.Logf("scheduled %d runs of %d passes; draining with %d check workers, %d passes a run at once, "+
			"engine latency %q", runs, want, workers, passConcurrency, latency)
		cpu, start := cpuTime(), time.Now()
		if err := client.Start(ctx); err != nil {
			b.Fatal(err)
		}
		for {
			var open, failed int
			if err := pool.QueryRow(ctx, `
				SELECT count(*) FILTER (WHERE status IN ('pending', 'running', 'awaiting_retry')),
				       count(*) FILTER (WHERE status = 'failed')
				FROM check_runs`).Scan(&open, &failed); err != nil {
				b.Fatal(err)
			}
			if failed > 0 {
				b.Fatalf("%d runs failed", failed)
			}
			if open == 0 {
				break
			}
			time.Sleep(250 * time.Millisecond)
		}
		elapsed, cpuUsed := time.Since(start), cpuTime()-cpu
		stopCtx, cancel := context.WithTimeout(ctx, time.Minute)
		if err := client.Stop(stopCtx); err != nil {
			b.Fatal(err)
		}
		cancel()

		var durations []float64
		rows, err := pool.Query(ctx, `SELECT extract(epoch FROM finished_at - created_at) FROM check_runs`)
		if err != nil {
			b.Fatal(err)
		}
		for rows.Next() {
			var d float64
			if err := rows.Scan(&d); err != nil {
				b.Fatal(err)
			}
			durations = append(durations, d)
		}
		if err := rows.Err(); err != nil {
			b.Fatal(err)
		}
		slices.Sort(durations)
		// One own rank row per pass, whatever the engine.
		var stored uint64
		if err := conn.QueryRow(ctx, `SELECT count() FROM rank_rows FINAL WHERE relation = 'own'`).Scan(&stored); err != nil {
			b.Fatal(err)
		}
		if stored != uint64(want) {
			b.Fatalf("ClickHouse holds %d passes, want %d", stored, want)
		}
		var used int
		if err := pool.QueryRow(ctx, `SELECT sum(checks_used) FROM subscriptions`).Scan(&used); err != nil {
			b.Fatal(err)
		}
		if used != want {
			b.Fatalf("%d units charged for %d passes", used, want)
		}
		b.Logf("drained %d runs (%d passes) in %s: %.1f runs/s, %.1f passes/s", runs, want,
			elapsed.Round(time.Millisecond), float64(runs)/elapsed.Seconds(), float64(want)/elapsed.Seconds())
		b.Logf("scheduled to completed: p50 %.2fs, p99 %.2fs; ClickHouse store %.1f ms/pass (waits included); "+
			"CPU of this process %.2fs per 1,000 passes; every pass stored and charged once",
			quantile(durations, 0.5), quantile(durations, 0.99),
			float64(sink.nanos.Load())/1e6/float64(want), cpuUsed.Seconds()*1000/float64(want))
		b.ReportMetric(float64(want)/elapsed.Seconds(), "passes/s")
		b.ReportMetric(float64(runs)/elapsed.Seconds(), "runs/s")
	}
}

func quantile(sorted []float64, q float64) float64 {
	if len(sorted) == 0 {
		return 0
	}
	return sorted[min(len(sorted)-1, int(q*float64(len(sorted))))]
}
