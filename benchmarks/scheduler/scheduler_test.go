// Package scheduler measures the check scheduler: how long one scheduling
// pass takes to give due tracked queries (100,000, 300,000 and 1,000,000 by
// default, SCHEDULER_SIZES) their runs, reservations and River jobs, so that
// its cost can be seen to grow linearly. Each size runs on its own test
// database:
//
//	SCHEDULER_SIZES=100000,300000 go test -run '^$' -bench . -benchtime 1x ./benchmarks/scheduler
package scheduler

import (
	"cmp"
	"context"
	"fmt"
	"log/slog"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/sightline/sightline/jobs"
	"github.com/sightline/sightline/oltp/oltptest"
)

// The seeded population: organizations of one project each, with 1,000
// never-checked daily queries per project and budget for all of them.
const (
	queriesPerProject     = 1_000
	budgetPerOrganization = 10 * queriesPerProject
)

func BenchmarkScheduleDueChecks(b *testing.B) {
	sizes := cmp.Or(os.Getenv("SCHEDULER_SIZES"), "100000,300000,1000000")
	for size := range strings.SplitSeq(sizes, ",") {
		dueQueries, err := strconv.Atoi(strings.TrimSpace(size))
		if err != nil || dueQueries < queriesPerProject || dueQueries%queriesPerProject != 0 {
			b.Fatalf("SCHEDULER_SIZES: %q is not a multiple of %d", size, queriesPerProject)
		}
		b.Run(fmt.Sprintf("queries=%d", dueQueries), func(b *testing.B) { scheduleDueChecks(b, dueQueries) })
	}
}

func scheduleDueChecks(b *testing.B, dueQueries int) {
	organizations := dueQueries / queriesPerProject
	ctx := context.Background()
	pool := oltptest.NewPool(b)
	client, err := jobs.NewClient(pool, jobs.Config{Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		b.Fatal(err)
	}
	seed := time.Now()
	for range organizations {
		org, project := uuid.Must(uuid.NewV7()), uuid.Must(uuid.NewV7())
		if _, err := pool.Exec(ctx, `
			INSERT INTO organizations (id, name) VALUES ($1, 'Bench org');
			`, org); err != nil {
			b.Fatal(err)
		}
		if _, err := pool.Exec(ctx, `
			INSERT INTO subscriptions (id, organization_id, status, tier, billing_interval, check_budget,
			                           current_period_start, current_period_end)
			VALUES ($1, $2, 'active', 'bench', 'monthly', $3, now() - interval '1 day', now() + interval '29 days')`,
			uuid.Must(uuid.NewV7()), org, budgetPerOrganization); err != nil {
			b.Fatal(err)
		}
		if _, err := pool.Exec(ctx, `INSERT INTO projects (id, organization_id, name) VALUES ($1, $2, 'Bench project')`,
			project, org); err != nil {
			b.Fatal(err)
		}
		if _, err := pool.Exec(ctx, `
			INSERT INTO tracked_queries (id, project_id, query_text, engine, country, check_frequency, n_passes)
			SELECT gen_random_uuid(), $1, 'query ' || i, 'chatgpt', 'US', 'daily', 1 + i % 3
			FROM generate_series(1, $2) i`, project, queriesPerProject); err != nil {
			b.Fatal(err)
		}
	}
	if _, err := pool.Exec(ctx, `VACUUM ANALYZE`); err != nil {
		b.Fatal(err)
	}
	b.Logf("seeded %d due queries in %s", dueQueries, time.Since(seed).Round(time.Millisecond))

	for b.Loop() {
		b.StopTimer()
		// Every iteration starts from the same due population.
		if _, err := pool.Exec(ctx, `DELETE FROM check_runs; DELETE FROM river_job WHERE kind = 'check'`); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		// One scheduling takes at most its cap of runs; the periodic job
		// takes the rest at its next turns, here at once.
		start := time.Now()
		n, passes := 0, 0
		for {
			scheduled, err := jobs.ScheduleChecks(ctx, pool, client)
			if err != nil {
				b.Fatal(err)
			}
			if scheduled == 0 {
				break
			}
			n, passes = n+scheduled, passes+1
		}
		elapsed := time.Since(start)
		if n != dueQueries {
			b.Fatalf("scheduled %d of %d due queries", n, dueQueries)
		}
		b.Logf("scheduled %d due queries in %s over %d scheduling passes (%.0f queries/s)", n,
			elapsed.Round(time.Millisecond), passes, float64(n)/elapsed.Seconds())
		b.ReportMetric(float64(n)/elapsed.Seconds(), "queries/s")
	}
}
