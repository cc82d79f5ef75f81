// Package checks measures how fast one worker process drains check runs
// through the real pipeline: River on Postgres, the check worker asking
// the simulator (with a configurable latency, as live engines take seconds
// to answer), the check_answers outbox, extraction, the batching writer and
// ClickHouse with every materialized view. It seeds due tracked queries
// over 100 projects, schedules them (jobs.ScheduleChecks), starts a River
// client working the queues as `sightline worker` does, and waits until
// every run has completed. It prints passes/s and runs/s, p50 and p99 from
// a run's scheduling to its completion, the Postgres time per pass (every
// statement's, River's included), the storage wait per pass (mean, p50,
// p99) and CPU per 1,000 passes, of this process and of the whole machine. Its databases are
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
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/sightline/sightline/ingest/engine"
	"github.com/sightline/sightline/ingest/simulator"
	"github.com/sightline/sightline/jobs"
	"github.com/sightline/sightline/olap"
	"github.com/sightline/sightline/olap/olaptest"
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

// timedSink is the service's sink, keeping how long each pass waited for
// its store: the check path's storage wait.
type timedSink struct {
	jobs.AnalyticsSink
	mu    sync.Mutex
	waits []float64 // seconds
}

func (s *timedSink) StorePass(ctx context.Context, p jobs.PassResult) error {
	start := time.Now()
	err := s.AnalyticsSink.StorePass(ctx, p)
	wait := time.Since(start).Seconds()
	s.mu.Lock()
	s.waits = append(s.waits, wait)
	s.mu.Unlock()
	return err
}

// postgresTimer sums the time every statement, batch and COPY of the pool
// spends from being sent to its answer (River's included), so the
// benchmark can say how much Postgres time a pass costs.
type postgresTimer struct{ nanos atomic.Int64 }

type startKey struct{}

func (t *postgresTimer) start(ctx context.Context) context.Context {
	return context.WithValue(ctx, startKey{}, time.Now())
}

func (t *postgresTimer) end(ctx context.Context) {
	if start, ok := ctx.Value(startKey{}).(time.Time); ok {
		t.nanos.Add(int64(time.Since(start)))
	}
}

func (t *postgresTimer) TraceQueryStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceQueryStartData) context.Context {
	return t.start(ctx)
}
func (t *postgresTimer) TraceQueryEnd(ctx context.Context, _ *pgx.Conn, _ pgx.TraceQueryEndData) {
	t.end(ctx)
}
func (t *postgresTimer) TraceBatchStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceBatchStartData) context.Context {
	return t.start(ctx)
}
func (t *postgresTimer) TraceBatchQuery(context.Context, *pgx.Conn, pgx.TraceBatchQueryData) {}
func (t *postgresTimer) TraceBatchEnd(ctx context.Context, _ *pgx.Conn, _ pgx.TraceBatchEndData) {
	t.end(ctx)
}
func (t *postgresTimer) TraceCopyFromStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceCopyFromStartData) context.Context {
	return t.start(ctx)
}
func (t *postgresTimer) TraceCopyFromEnd(ctx context.Context, _ *pgx.Conn, _ pgx.TraceCopyFromEndData) {
	t.end(ctx)
}

// cpuTime is this process's CPU time.
func cpuTime() time.Duration {
	var u syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &u)
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}

// processCPU is the CPU time of the running processes named postgres (the
// server and its backends) and sightline-chdb (the local ClickHouse
// endpoint), from /proc.
func processCPU() (postgres, clickhouse time.Duration) {
	dirs, _ := os.ReadDir("/proc")
	for _, d := range dirs {
		stat, err := os.ReadFile("/proc/" + d.Name() + "/stat")
		if err != nil {
			continue // not a process, or gone
		}
		// pid (comm) state ppid ... utime stime are the 14th and 15th fields.
		open, end := strings.IndexByte(string(stat), '('), strings.LastIndexByte(string(stat), ')')
		if open < 0 || end < open {
			continue
		}
		fields := strings.Fields(string(stat[end+1:]))
		if len(fields) < 13 {
			continue
		}
		utime, _ := strconv.ParseInt(fields[11], 10, 64)
		stime, _ := strconv.ParseInt(fields[12], 10, 64)
		used := time.Duration(utime+stime) * time.Second / 100 // USER_HZ
		switch string(stat[open+1 : end]) {
		case "postgres":
			postgres += used
		case "sightline-chdb":
			clickhouse += used
		}
	}
	return postgres, clickhouse
}

// machineCPU is the CPU time every core of the machine has spent busy
// (Postgres and ClickHouse included), from /proc/stat.
func machineCPU(b *testing.B) time.Duration {
	stat, err := os.ReadFile("/proc/stat")
	if err != nil {
		b.Fatal(err)
	}
	line, _, _ := strings.Cut(string(stat), "\n")
	fields := strings.Fields(line)[1:]
	var busy int64
	for i, f := range fields {
		n, err := strconv.ParseInt(f, 10, 64)
		if err != nil {
			b.Fatalf("/proc/stat: %q", line)
		}
		// idle and iowait are the 4th and 5th; guest time is counted in user.
		if i != 3 && i != 4 && i < 8 {
			busy += n
		}
	}
	return time.Duration(busy) * time.Second / 100 // USER_HZ
}

func BenchmarkDrainChecks(b *testing.B) {
	passes := setting(b, "CHECKS_PASSES", 100_000)
	workers := setting(b, "CHECKS_WORKERS", jobs.DefaultCheckWorkers)
	passConcurrency := setting(b, "CHECKS_PASS_CONCURRENCY", 3)
	latency := os.Getenv("CHECKS_LATENCY")
	ctx := context.Background()
	logger := slog.New(slog.DiscardHandler)

	// As `sightline worker` with its default SIGHTLINE_PG_MAX_CONNS, timing
	// every statement.
	cfg, err := pgxpool.ParseConfig(oltptest.NewDatabase(b))
	if err != nil {
		b.Fatal(err)
	}
	cfg.MaxConns = int32(setting(b, "CHECKS_PG_CONNS", 40))
	postgres := &postgresTimer{}
	cfg.ConnConfig.Tracer = postgres
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
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
		cpu, machine, pgStart, start := cpuTime(), machineCPU(b), postgres.nanos.Load(), time.Now()
		pgCPU, chCPU := processCPU()
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
		elapsed, cpuUsed, machineUsed := time.Since(start), cpuTime()-cpu, machineCPU(b)-machine
		pgUsed := time.Duration(postgres.nanos.Load() - pgStart)
		pgCPUEnd, chCPUEnd := processCPU()
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
		slices.Sort(sink.waits)
		var storeSum float64
		for _, w := range sink.waits {
			storeSum += w
		}
		b.Logf("scheduled to completed: p50 %.2fs, p99 %.2fs; every pass stored and charged once",
			quantile(durations, 0.5), quantile(durations, 0.99))
		b.Logf("per pass: Postgres %.1f ms (statements' time, River's included), ClickHouse store %.1f ms "+
			"(storage wait p50 %.1f ms, p99 %.1f ms)", pgUsed.Seconds()*1000/float64(want),
			storeSum*1000/float64(len(sink.waits)), quantile(sink.waits, 0.5)*1000, quantile(sink.waits, 0.99)*1000)
		perThousand := func(d time.Duration) float64 { return d.Seconds() * 1000 / float64(want) }
		b.Logf("CPU per 1,000 passes: %.2fs in this process, %.2fs in Postgres, %.2fs in the ClickHouse endpoint, "+
			"%.2fs on the whole machine", perThousand(cpuUsed), perThousand(pgCPUEnd-pgCPU),
			perThousand(chCPUEnd-chCPU), perThousand(machineUsed))
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
