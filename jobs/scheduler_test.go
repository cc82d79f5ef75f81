package jobs_test

import (
	"context"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"

	"github.com/sightline/sightline/jobs"
	"github.com/sightline/sightline/oltp/oltptest"
)

// checksEnv is a database with a River client for the scheduler and the
// check worker.
type checksEnv struct {
	t      *testing.T
	ctx    context.Context
	pool   *pgxpool.Pool
	client *river.Client[pgx.Tx]
}

func checksSetup(t *testing.T) *checksEnv {
	t.Helper()
	pool := oltptest.NewPool(t)
	client, err := jobs.NewClient(pool, jobs.Config{Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	return &checksEnv{t: t, ctx: context.Background(), pool: pool, client: client}
}

func (e *checksEnv) exec(sql string, args ...any) {
	e.t.Helper()
	if _, err := e.pool.Exec(e.ctx, sql, args...); err != nil {
		e.t.Fatalf("%v\n%s", err, sql)
	}
}

// org inserts an active organization; with budget >= 0 it also gets a
// running contract of that budget, returned.
func (e *checksEnv) org(budget int) (org, subscription uuid.UUID) {
	e.t.Helper()
	org = uuid.Must(uuid.NewV7())
	e.exec(`INSERT INTO organizations (id, name) VALUES ($1, 'Checks org')`, org)
	if budget >= 0 {
		subscription = e.subscription(org, "active", budget, "")
	}
	return org, subscription
}

// subscription adds a contract in the current period; extra is SQL
// assignments applied after the insert (e.g. "status = 'cancelled'").
func (e *checksEnv) subscription(org uuid.UUID, status string, budget int, extra string) uuid.UUID {
	e.t.Helper()
	id := uuid.Must(uuid.NewV7())
	e.exec(`INSERT INTO subscriptions (id, organization_id, status, tier, billing_interval, check_budget,
	                                   current_period_start, current_period_end)
	        VALUES ($1, $2, $3, 'growth', 'monthly', $4, now() - interval '1 day', now() + interval '29 days')`,
		id, org, status, budget)
	if extra != "" {
		e.exec(`UPDATE subscriptions SET `+extra+` WHERE id = $1`, id)
	}
	return id
}

// project inserts an active project with a brand profile and a competitor.
func (e *checksEnv) project(org uuid.UUID) uuid.UUID {
	e.t.Helper()
	id := uuid.Must(uuid.NewV7())
	e.exec(`INSERT INTO projects (id, organization_id, name) VALUES ($1, $2, 'Checks project')`, id, org)
	e.exec(`INSERT INTO brand_profiles (project_id, id, website_domains, brand_names)
	        VALUES ($1, $2, '{acme.com}', '{Acme,Acme Co}')`, id, uuid.Must(uuid.NewV7()))
	e.exec(`INSERT INTO competitors (id, project_id, name, website_domains, brand_names)
	        VALUES ($1, $2, 'Globex', '{globex.com}', '{Globex}')`, uuid.Must(uuid.NewV7()), id)
	return id
}

// checksQuery describes a tracked query to insert.
type checksQuery struct {
	text      string
	engine    string
	frequency string
	passes    int
	paused    bool
	// checkedAgo is how long ago the last check completed; 0: never.
	checkedAgo time.Duration
}

func (e *checksEnv) query(project uuid.UUID, q checksQuery) uuid.UUID {
	e.t.Helper()
	id := uuid.Must(uuid.NewV7())
	if q.engine == "" {
		q.engine = "chatgpt"
	}
	if q.frequency == "" {
		q.frequency = "daily"
	}
	if q.passes == 0 {
		q.passes = 1
	}
	status := "active"
	if q.paused {
		status = "paused"
	}
	var last *time.Time
	if q.checkedAgo > 0 {
		at := time.Now().Add(-q.checkedAgo)
		last = &at
	}
	e.exec(`INSERT INTO tracked_queries (id, project_id, query_text, engine, country, locale, check_frequency,
	                                     n_passes, status, last_checked_at)
	        VALUES ($1, $2, $3, $4, 'US', 'en', $5, $6, $7, $8)`,
		id, project, q.text, q.engine, q.frequency, q.passes, status, last)
	return id
}

// seed inserts n never-checked daily queries of passes passes each into
// project.
func (e *checksEnv) seed(project uuid.UUID, n, passes int) {
	e.t.Helper()
	e.exec(`INSERT INTO tracked_queries (id, project_id, query_text, engine, country, check_frequency, n_passes)
	        SELECT gen_random_uuid(), $1, 'query ' || i, 'chatgpt', 'US', 'daily', $3
	        FROM generate_series(1, $2) i`, project, n, passes)
}

func (e *checksEnv) schedule() int {
	e.t.Helper()
	n, err := jobs.ScheduleChecks(e.ctx, e.pool, e.client)
	if err != nil {
		e.t.Fatal(err)
	}
	return n
}

func (e *checksEnv) count(sql string, args ...any) int {
	e.t.Helper()
	var n int
	if err := e.pool.QueryRow(e.ctx, sql, args...).Scan(&n); err != nil {
		e.t.Fatalf("%v\n%s", err, sql)
	}
	return n
}

// units returns a contract's used and reserved units.
func (e *checksEnv) units(subscription uuid.UUID) (used, reserved int) {
	e.t.Helper()
	if err := e.pool.QueryRow(e.ctx, `SELECT checks_used, checks_reserved FROM subscriptions WHERE id = $1`,
		subscription).Scan(&used, &reserved); err != nil {
		e.t.Fatal(err)
	}
	return used, reserved
}

// openRuns counts a query's runs in flight.
func (e *checksEnv) openRuns(query uuid.UUID) int {
	e.t.Helper()
	return e.count(`SELECT count(*) FROM check_runs
	                WHERE tracked_query_id = $1 AND status IN ('pending', 'running', 'awaiting_retry')`, query)
}

// run inserts a run of query in the given state, reserving what an open run
// reserves.
func (e *checksEnv) run(org, project, subscription, query uuid.UUID, status string, finishedAgo time.Duration) uuid.UUID {
	e.t.Helper()
	id := uuid.Must(uuid.NewV7())
	open := status == "pending" || status == "running" || status == "awaiting_retry"
	reserved := 0
	var finished *time.Time
	var code *string
	if open {
		reserved = 1
	} else {
		at := time.Now().Add(-finishedAgo)
		finished = &at
	}
	if status == "failed" {
		c := "engine_error"
		code = &c
	}
	passes := 0
	if status == "completed" {
		passes = 1
	}
	e.exec(`INSERT INTO check_runs (id, organization_id, project_id, tracked_query_id, subscription_id, engine, n_passes,
	                                passes_done, charged_units, status, reserved_units, trigger, finished_at, error_code)
	        SELECT $1, $2, $3, q.id, $5, q.engine, 1, $9::smallint, $9::int, $6, $7, 'scheduled', $8, $10
	        FROM tracked_queries q WHERE q.id = $4`,
		id, org, project, query, subscription, status, reserved, finished, passes, code)
	return id
}

func TestChecksSchedulerSelectsDueQueries(t *testing.T) {
	t.Parallel()
	e := checksSetup(t)
	org, sub := e.org(1000)
	project := e.project(org)
	day := 24 * time.Hour
	due := map[string]uuid.UUID{}
	notDue := map[string]uuid.UUID{}
	for _, c := range []struct {
		q   checksQuery
		due bool
	}{
		{checksQuery{text: "never checked", passes: 3}, true},
		{checksQuery{text: "daily 25h", checkedAgo: 25 * time.Hour}, true},
		{checksQuery{text: "daily 23h", checkedAgo: 23 * time.Hour}, false},
		{checksQuery{text: "weekly 8d", frequency: "weekly", checkedAgo: 8 * day}, true},
		{checksQuery{text: "weekly 6d", frequency: "weekly", checkedAgo: 6 * day}, false},
		{checksQuery{text: "monthly 31d", frequency: "monthly", checkedAgo: 31 * day, passes: 2}, true},
		{checksQuery{text: "monthly 29d", frequency: "monthly", checkedAgo: 29 * day}, false},
		{checksQuery{text: "paused", paused: true}, false},
		{checksQuery{text: "serp", engine: "google_serp"}, true},
	} {
		id := e.query(project, c.q)
		if c.due {
			due[c.q.text] = id
		} else {
			notDue[c.q.text] = id
		}
	}
	// A query with a run in flight, one that failed a moment ago, one that
	// failed long ago.
	inFlight := e.query(project, checksQuery{text: "in flight"})
	e.run(org, project, sub, inFlight, "awaiting_retry", 0)
	notDue["in flight"] = inFlight
	failedNow := e.query(project, checksQuery{text: "failed now"})
	e.run(org, project, sub, failedNow, "failed", time.Minute)
	notDue["failed now"] = failedNow
	failedLong := e.query(project, checksQuery{text: "failed long ago"})
	e.run(org, project, sub, failedLong, "failed", 2*time.Hour)
	due["failed long ago"] = failedLong
	// Archived projects and organizations are left alone.
	archivedProject := e.project(org)
	e.exec(`UPDATE projects SET status = 'archived', archived_by = 'caller', archived_at = now() WHERE id = $1`, archivedProject)
	notDue["archived project"] = e.query(archivedProject, checksQuery{text: "archived project"})
	archivedOrg, _ := e.org(1000)
	archivedOrgProject := e.project(archivedOrg)
	notDue["archived organization"] = e.query(archivedOrgProject, checksQuery{text: "archived organization"})
	e.exec(`UPDATE organizations SET status = 'archived', archived_at = now() WHERE id = $1`, archivedOrg)

	if n := e.schedule(); n != len(due) {
		t.Fatalf("scheduled %d runs, want %d", n, len(due))
	}
	for text, id := range due {
		if e.count(`SELECT count(*) FROM check_runs WHERE tracked_query_id = $1 AND status = 'pending'
		            AND trigger = 'scheduled' AND engine = (SELECT engine FROM tracked_queries WHERE id = $1)
		            AND reserved_units = n_passes AND passes_done = 0`, id) != 1 {
			t.Errorf("%s: no pending scheduled run", text)
		}
	}
	for text, id := range notDue {
		if e.count(`SELECT count(*) FROM check_runs WHERE tracked_query_id = $1 AND status = 'pending'`, id) != 0 {
			t.Errorf("%s was scheduled", text)
		}
	}
	// One unit per pass: 3 + 1 + 1 + 2 + 1 + 1 scheduled, plus the run in flight's one.
	if used, reserved := e.units(sub); used != 0 || reserved != 9+1 {
		t.Fatalf("used %d reserved %d, want 0 and 10", used, reserved)
	}
	jobsFor := e.count(`SELECT count(*) FROM river_job j JOIN check_runs r ON r.id = (j.args->>'runId')::uuid
	                    WHERE j.kind = 'check' AND r.status = 'pending' AND j.priority = 2 AND j.max_attempts = $1`,
		jobs.CheckMaxAttempts)
	if jobsFor != len(due) {
		t.Fatalf("%d check jobs, want one per run (%d)", jobsFor, len(due))
	}
	if n := e.schedule(); n != 0 {
		t.Fatalf("a second pass scheduled %d runs; runs in flight must not be doubled", n)
	}
}

func TestChecksSchedulerStaysWithinBudget(t *testing.T) {
	t.Parallel()
	e := checksSetup(t)
	day := 24 * time.Hour

	// Least recently checked first: never (2 passes), 40 days (2), 35 days
	// (2), 31 days (1). Five units admit the first two; the third does not
	// fit and ends the organization's turn, so the cheaper fourth waits too.
	org, sub := e.org(5)
	project := e.project(org)
	first := e.query(project, checksQuery{text: "never", passes: 2})
	second := e.query(project, checksQuery{text: "40 days", frequency: "monthly", passes: 2, checkedAgo: 40 * day})
	third := e.query(project, checksQuery{text: "35 days", frequency: "monthly", passes: 2, checkedAgo: 35 * day})
	fourth := e.query(project, checksQuery{text: "31 days", frequency: "monthly", passes: 1, checkedAgo: 31 * day})

	// Used units count: 1 used of 2 leaves one.
	usedOrg, usedSub := e.org(2)
	e.exec(`UPDATE subscriptions SET checks_used = 1 WHERE id = $1`, usedSub)
	usedProject := e.project(usedOrg)
	usedFits := e.query(usedProject, checksQuery{text: "fits"})
	usedTooBig := e.query(usedProject, checksQuery{text: "too big", passes: 2, checkedAgo: 2 * day})

	// No entitled contract: none at all, cancelled in its grace window,
	// past its period, trialing is fine, the most recent contract decides.
	none, _ := e.org(-1)
	grace, _ := e.org(-1)
	e.subscription(grace, "cancelled", 100,
		"cancelled_at = now(), cancel_at = now() - interval '1 minute', grace_until = now() + interval '7 days'")
	ended, _ := e.org(-1)
	e.subscription(ended, "active", 100,
		"current_period_start = now() - interval '40 days', current_period_end = now() - interval '10 days'")
	cancelDue, _ := e.org(-1)
	e.subscription(cancelDue, "active", 100, "cancel_at = now() - interval '1 minute'")
	trialing, _ := e.org(-1)
	trialingSub := e.subscription(trialing, "trialing", 100, "")
	replaced, _ := e.org(-1)
	e.subscription(replaced, "active", 100, "created_at = now() - interval '1 day'")
	e.subscription(replaced, "expired", 100, "")
	var refused []uuid.UUID
	for _, o := range []uuid.UUID{none, grace, ended, cancelDue, replaced} {
		refused = append(refused, e.query(e.project(o), checksQuery{text: "refused"}))
	}
	trialingQuery := e.query(e.project(trialing), checksQuery{text: "trialing", passes: 4})

	if n := e.schedule(); n != 4 {
		t.Fatalf("scheduled %d runs, want 4", n)
	}
	for _, c := range []struct {
		name  string
		query uuid.UUID
		want  int
	}{
		{"first", first, 1}, {"second", second, 1}, {"third", third, 0}, {"fourth", fourth, 0},
		{"fits", usedFits, 1}, {"too big", usedTooBig, 0}, {"trialing", trialingQuery, 1},
	} {
		if got := e.openRuns(c.query); got != c.want {
			t.Errorf("%s: %d runs, want %d", c.name, got, c.want)
		}
	}
	for i, q := range refused {
		if e.openRuns(q) != 0 {
			t.Errorf("organization %d without an entitled contract got a run", i)
		}
	}
	for _, c := range []struct {
		sub            uuid.UUID
		used, reserved int
		name           string
	}{{sub, 0, 4, "budget 5"}, {usedSub, 1, 1, "budget 2"}, {trialingSub, 0, 4, "trialing"}} {
		if used, reserved := e.units(c.sub); used != c.used || reserved != c.reserved {
			t.Errorf("%s: used %d reserved %d, want %d and %d", c.name, used, reserved, c.used, c.reserved)
		}
	}

	// Released units let the waiting queries in, still in order.
	e.exec(`UPDATE subscriptions SET check_budget = 8 WHERE id = $1`, sub)
	if n := e.schedule(); n != 2 {
		t.Fatalf("scheduled %d runs after the budget grew, want 2", n)
	}
	if e.openRuns(third) != 1 || e.openRuns(fourth) != 1 {
		t.Fatal("the waiting queries were not scheduled once units were available")
	}
}

func TestChecksSchedulerBatchesManyQueries(t *testing.T) {
	t.Parallel()
	e := checksSetup(t)
	// More queries than one batch: the keyset walk must see every one once.
	rich, richSub := e.org(100_000)
	e.seed(e.project(rich), 23_000, 1)
	// A budget that runs out in the first batch: the organization's turn
	// ends there, and nothing of it is scheduled in later batches.
	poor, poorSub := e.org(1_001)
	poorProject := e.project(poor)
	e.seed(poorProject, 4_000, 1)
	e.exec(`UPDATE tracked_queries SET n_passes = 3
	        WHERE project_id = $1 AND id = (SELECT id FROM tracked_queries WHERE project_id = $1 ORDER BY id OFFSET 1000 LIMIT 1)`,
		poorProject)

	if n := e.schedule(); n != 23_000+1_000 {
		t.Fatalf("scheduled %d runs, want %d", n, 24_000)
	}
	if used, reserved := e.units(richSub); used != 0 || reserved != 23_000 {
		t.Fatalf("rich: used %d reserved %d", used, reserved)
	}
	if _, reserved := e.units(poorSub); reserved != 1_000 {
		t.Fatalf("poor reserved %d, want 1000: the first 1000 fit, the 3-pass one ends the turn", reserved)
	}
	if n := e.count(`SELECT count(*) FROM river_job WHERE kind = 'check'`); n != 24_000 {
		t.Fatalf("%d check jobs, want 24000", n)
	}
	if n := e.count(`SELECT count(*) FROM (SELECT tracked_query_id FROM check_runs GROUP BY 1 HAVING count(*) > 1) d`); n != 0 {
		t.Fatalf("%d queries scheduled twice", n)
	}
}

func TestChecksSchedulersRunningAtOnceNeverDoubleSchedule(t *testing.T) {
	t.Parallel()
	e := checksSetup(t)
	org, sub := e.org(2_500)
	e.seed(e.project(org), 3_000, 1)
	other, otherSub := e.org(10_000)
	e.seed(e.project(other), 2_000, 2)

	var wg sync.WaitGroup
	counts := make([]int, 6)
	for i := range counts {
		wg.Go(func() {
			n, err := jobs.ScheduleChecks(e.ctx, e.pool, e.client)
			if err != nil {
				t.Error(err)
			}
			counts[i] = n
		})
	}
	wg.Wait()
	total := 0
	for _, n := range counts {
		total += n
	}
	if total != 2_500+2_000 {
		t.Fatalf("schedulers created %v = %d runs, want 4500", counts, total)
	}
	if n := e.count(`SELECT count(*) FROM (SELECT tracked_query_id FROM check_runs GROUP BY 1 HAVING count(*) > 1) d`); n != 0 {
		t.Fatalf("%d queries scheduled twice", n)
	}
	if _, reserved := e.units(sub); reserved != 2_500 {
		t.Fatalf("reserved %d of a 2500 budget", reserved)
	}
	if _, reserved := e.units(otherSub); reserved != 4_000 {
		t.Fatalf("reserved %d, want 4000", reserved)
	}
	if n := e.count(`SELECT count(*) FROM river_job WHERE kind = 'check'`); n != 4_500 {
		t.Fatalf("%d check jobs, want 4500", n)
	}
}

func TestChecksBudgetIsEnforcedByTheDatabase(t *testing.T) {
	t.Parallel()
	e := checksSetup(t)
	org, sub := e.org(1)
	project := e.project(org)
	q1 := e.query(project, checksQuery{text: "one"})
	q2 := e.query(project, checksQuery{text: "two"})
	e.run(org, project, sub, q1, "pending", 0)
	_, err := e.pool.Exec(e.ctx, `
		INSERT INTO check_runs (id, organization_id, project_id, tracked_query_id, subscription_id, engine, n_passes,
		                        reserved_units, trigger)
		VALUES ($1, $2, $3, $4, $5, 'chatgpt', 1, 1, 'on_demand')`, uuid.Must(uuid.NewV7()), org, project, q2, sub)
	if err == nil {
		t.Fatal("a run past the budget was accepted")
	}
	// A second run in flight for the same query and engine is refused too.
	e.exec(`UPDATE subscriptions SET check_budget = 10 WHERE id = $1`, sub)
	if _, err := e.pool.Exec(e.ctx, `
		INSERT INTO check_runs (id, organization_id, project_id, tracked_query_id, subscription_id, engine, n_passes,
		                        reserved_units, trigger)
		VALUES ($1, $2, $3, $4, $5, 'chatgpt', 1, 1, 'on_demand')`, uuid.Must(uuid.NewV7()), org, project, q1, sub); err == nil {
		t.Fatal("a second run in flight was accepted")
	}
	// Deleting a query gives back what its runs reserved; charged units stay.
	e.exec(`UPDATE check_runs SET status = 'running', passes_done = 0 WHERE tracked_query_id = $1`, q1)
	e.exec(`UPDATE subscriptions SET checks_used = 4 WHERE id = $1`, sub)
	e.exec(`DELETE FROM tracked_queries WHERE id = $1`, q1)
	if used, reserved := e.units(sub); used != 4 || reserved != 0 {
		t.Fatalf("after the delete: used %d reserved %d, want 4 and 0", used, reserved)
	}
}
