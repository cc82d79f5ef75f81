package api

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/sightline/sightline"
)

// checksFixture is an API with an owner, an organization with a running
// contract and a project to check queries of.
type checksFixture struct {
	*fixture
	owner   member
	org     uuid.UUID
	project uuid.UUID
	sub     uuid.UUID
}

func checksSetup(t *testing.T, budget int, opts ...setupOptions) *checksFixture {
	t.Helper()
	f := setup(t, opts...)
	owner, org := f.owner()
	cf := &checksFixture{fixture: f, owner: owner, org: org, project: f.project(org, "Checks")}
	if budget >= 0 {
		cf.sub = cf.subscription(org, "active", budget, "")
	}
	return cf
}

func (cf *checksFixture) exec(sql string, args ...any) {
	cf.t.Helper()
	if _, err := cf.pool.Exec(context.Background(), sql, args...); err != nil {
		cf.t.Fatalf("%v\n%s", err, sql)
	}
}

func (cf *checksFixture) count(sql string, args ...any) int {
	cf.t.Helper()
	var n int
	if err := cf.pool.QueryRow(context.Background(), sql, args...).Scan(&n); err != nil {
		cf.t.Fatalf("%v\n%s", err, sql)
	}
	return n
}

// subscription adds a contract in its current period; extra is SQL
// assignments applied after the insert.
func (cf *checksFixture) subscription(org uuid.UUID, status string, budget int, extra string) uuid.UUID {
	cf.t.Helper()
	id := uuid.Must(uuid.NewV7())
	cf.exec(`INSERT INTO subscriptions (id, organization_id, status, tier, billing_interval, check_budget,
	                                    current_period_start, current_period_end)
	         VALUES ($1, $2, $3, 'growth', 'monthly', $4, now() - interval '1 day', now() + interval '29 days')`,
		id, org, status, budget)
	if extra != "" {
		cf.exec(`UPDATE subscriptions SET `+extra+` WHERE id = $1`, id)
	}
	return id
}

// query inserts an active daily chatgpt query of passes passes into
// project, last checked checkedAgo ago (0: never).
func (cf *checksFixture) query(project uuid.UUID, text string, passes int, checkedAgo time.Duration) uuid.UUID {
	cf.t.Helper()
	id := uuid.Must(uuid.NewV7())
	var last *time.Time
	if checkedAgo > 0 {
		at := time.Now().Add(-checkedAgo)
		last = &at
	}
	cf.exec(`INSERT INTO tracked_queries (id, project_id, query_text, engine, country, check_frequency, n_passes, last_checked_at)
	         VALUES ($1, $2, $3, 'chatgpt', 'US', 'daily', $4, $5)`, id, project, text, passes, last)
	return id
}

// run inserts a run in flight of query, reserving its passes.
func (cf *checksFixture) run(query uuid.UUID, engine, status string) uuid.UUID {
	cf.t.Helper()
	id := uuid.Must(uuid.NewV7())
	cf.exec(`INSERT INTO check_runs (id, organization_id, project_id, tracked_query_id, subscription_id, engine,
	                                 n_passes, reserved_units, status, trigger)
	         SELECT $1, p.organization_id, q.project_id, q.id, $3, $4, q.n_passes, q.n_passes, $5, 'scheduled'
	         FROM tracked_queries q JOIN projects p ON p.id = q.project_id WHERE q.id = $2`,
		id, query, cf.sub, engine, status)
	return id
}

func (cf *checksFixture) path(suffix string) string { return trackedPath(cf.org, cf.project, suffix) }

func (cf *checksFixture) put(key, suffix, body string) response {
	cf.t.Helper()
	return cf.do(call{method: http.MethodPut, path: cf.path(suffix), key: key, body: body,
		header: map[string]string{"Idempotency-Key": uuid.NewString()}})
}

// check sends PUT /check for ids and decodes the answer.
func (cf *checksFixture) check(key string, ids ...string) trackedBatchResult {
	cf.t.Helper()
	body, _ := json.Marshal(map[string]any{"ids": ids})
	r := cf.put(key, "/check", string(body))
	if r.status != http.StatusOK {
		cf.t.Fatalf("check answered %d: %s", r.status, r.body)
	}
	var out trackedBatchResult
	if err := json.Unmarshal(r.body, &out); err != nil {
		cf.t.Fatal(err)
	}
	return out
}

type checksAllResult struct {
	Submitted int `json:"submitted"`
	Queries   []struct {
		ID     uuid.UUID `json:"id"`
		Engine string    `json:"engine"`
	} `json:"queries"`
}

func (cf *checksFixture) checkAll(key string) checksAllResult {
	cf.t.Helper()
	r := cf.put(key, "/check-all", "")
	if r.status != http.StatusOK {
		cf.t.Fatalf("check-all answered %d: %s", r.status, r.body)
	}
	var out checksAllResult
	if err := json.Unmarshal(r.body, &out); err != nil {
		cf.t.Fatal(err)
	}
	if out.Submitted != len(out.Queries) {
		cf.t.Fatalf("submitted %d but %d queries listed", out.Submitted, len(out.Queries))
	}
	return out
}

// units returns the contract's used and reserved units.
func (cf *checksFixture) units(sub uuid.UUID) (used, reserved int) {
	cf.t.Helper()
	if err := cf.pool.QueryRow(context.Background(),
		`SELECT checks_used, checks_reserved FROM subscriptions WHERE id = $1`, sub).Scan(&used, &reserved); err != nil {
		cf.t.Fatal(err)
	}
	return used, reserved
}

// openRuns counts a query's runs in flight; jobs counts their check jobs.
func (cf *checksFixture) openRuns(query uuid.UUID) int {
	cf.t.Helper()
	return cf.count(`SELECT count(*) FROM check_runs
	                 WHERE tracked_query_id = $1 AND status IN ('pending', 'running', 'awaiting_retry')`, query)
}

func (cf *checksFixture) jobs(query uuid.UUID) int {
	cf.t.Helper()
	return cf.count(`SELECT count(*) FROM river_job j JOIN check_runs r ON r.id = (j.args->>'runId')::uuid
	                 WHERE j.kind = 'check' AND r.tracked_query_id = $1`, query)
}

// checksOutcome renders a batch answer as "id:ok" and "id:code" items in
// answer order, successes first.
func checksOutcome(r trackedBatchResult) []string {
	var out []string
	for _, s := range r.Successful {
		out = append(out, s.ID.String()+":ok")
	}
	for _, f := range r.Failed {
		if f.ErrorMessage == "" {
			out = append(out, f.ID+":no message")
		}
		out = append(out, f.ID+":"+f.ErrorCode)
	}
	return out
}

func TestChecksRequestReportsEveryItem(t *testing.T) {
	t.Parallel()
	cf := checksSetup(t, 4)
	a := cf.query(cf.project, "a", 2, 0)
	b := cf.query(cf.project, "b", 3, 0)
	c := cf.query(cf.project, "c", 1, 0)
	paused := cf.query(cf.project, "paused", 1, 0)
	cf.exec(`UPDATE tracked_queries SET status = 'paused' WHERE id = $1`, paused)
	other := cf.query(cf.fixture.project(cf.org, "Other"), "other", 1, 0)
	unknown := uuid.Must(uuid.NewV7())

	// a fits (2 of 4), b does not (5 > 4), c still does (3 of 4): each id
	// is judged on what the earlier ones left.
	got := cf.check(cf.owner.key, unknown.String(), "not-a-uuid", a.String(), other.String(), paused.String(),
		strings.ToUpper(a.String()), b.String(), c.String())
	want := []string{
		a.String() + ":ok", c.String() + ":ok",
		unknown.String() + ":tracked_query_not_found", "not-a-uuid:tracked_query_not_found",
		other.String() + ":tracked_query_not_found", paused.String() + ":tracked_query_already_paused",
		b.String() + ":check_budget_forecast_exhausted",
	}
	if !slices.Equal(checksOutcome(got), want) {
		t.Fatalf("outcomes %v\nwant %v", checksOutcome(got), want)
	}
	if cf.openRuns(a) != 1 || cf.openRuns(c) != 1 || cf.openRuns(b) != 0 || cf.openRuns(paused) != 0 {
		t.Fatal("runs do not match the outcomes")
	}
	if n := cf.count(`SELECT count(*) FROM check_runs WHERE trigger = 'on_demand' AND status = 'pending'
	                  AND reserved_units = n_passes AND engine = 'chatgpt'`); n != 2 {
		t.Fatalf("%d pending on-demand runs, want 2", n)
	}
	if cf.jobs(a) != 1 || cf.count(`SELECT count(*) FROM river_job WHERE kind = 'check' AND priority = 1`) != 2 {
		t.Fatal("the accepted checks were not enqueued ahead of the scheduled backlog")
	}
	if used, reserved := cf.units(cf.sub); used != 0 || reserved != 3 {
		t.Fatalf("used %d reserved %d, want 0 and 3", used, reserved)
	}

	// The forecast counts reserved units as spent: one unit is left, so b
	// (3 passes) still does not fit; a is shared with its pending run.
	got = cf.check(cf.owner.key, a.String(), b.String())
	want = []string{a.String() + ":ok", b.String() + ":check_budget_forecast_exhausted"}
	if !slices.Equal(checksOutcome(got), want) {
		t.Fatalf("second call %v, want %v", checksOutcome(got), want)
	}
	if cf.openRuns(a) != 1 || cf.jobs(a) != 1 {
		t.Fatal("a run in flight was doubled")
	}
	// Running and awaiting-retry runs are shared too.
	cf.exec(`UPDATE check_runs SET status = 'running' WHERE tracked_query_id = $1`, a)
	cf.exec(`UPDATE check_runs SET status = 'awaiting_retry' WHERE tracked_query_id = $1`, c)
	got = cf.check(cf.owner.key, a.String(), c.String())
	if len(got.Successful) != 2 || cf.openRuns(a) != 1 || cf.openRuns(c) != 1 {
		t.Fatalf("running and awaiting-retry checks not shared: %v", checksOutcome(got))
	}
	if used, reserved := cf.units(cf.sub); used != 0 || reserved != 3 {
		t.Fatalf("shared checks were charged: used %d reserved %d", used, reserved)
	}
}

func TestChecksRequestReplacesARunOnAnotherEngine(t *testing.T) {
	t.Parallel()
	cf := checksSetup(t, 10)
	q := cf.query(cf.project, "q", 2, 0)
	old := cf.run(q, "perplexity", "awaiting_retry")
	if got := cf.check(cf.owner.key, q.String()); len(got.Successful) != 1 {
		t.Fatalf("outcomes %v", checksOutcome(got))
	}
	if n := cf.count(`SELECT count(*) FROM check_runs WHERE id = $1 AND status = 'cancelled' AND reserved_units = 0`, old); n != 1 {
		t.Fatal("the run on the old engine was not cancelled")
	}
	if n := cf.count(`SELECT count(*) FROM check_runs WHERE tracked_query_id = $1 AND engine = 'chatgpt' AND status = 'pending'`, q); n != 1 {
		t.Fatal("no new run on the query's engine")
	}
	if _, reserved := cf.units(cf.sub); reserved != 2 {
		t.Fatalf("reserved %d, want 2: the old reservation given back, the new one taken", reserved)
	}
}

func TestChecksRequestNeedsAnEntitledSubscription(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name   string
		status string
		extra  string
	}{
		{"no subscription", "", ""},
		{"cancelled inside its grace window", "cancelled",
			"cancelled_at = now(), cancel_at = now(), grace_until = now() + interval '7 days'"},
		{"expired", "expired", ""},
		{"period over", "active", "current_period_start = now() - interval '40 days', current_period_end = now() - interval '10 days'"},
		{"cancellation taken effect", "active", "cancel_at = now() - interval '1 minute'"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			cf := checksSetup(t, -1)
			if c.status != "" {
				cf.sub = cf.subscription(cf.org, c.status, 100, c.extra)
			}
			q := cf.query(cf.project, "q", 1, 0)
			paused := cf.query(cf.project, "paused", 1, 0)
			cf.exec(`UPDATE tracked_queries SET status = 'paused' WHERE id = $1`, paused)
			unknown := uuid.NewString()
			got := cf.check(cf.owner.key, q.String(), paused.String(), unknown)
			want := []string{q.String() + ":subscription_not_found", paused.String() + ":tracked_query_already_paused",
				unknown + ":tracked_query_not_found"}
			if !slices.Equal(checksOutcome(got), want) {
				t.Fatalf("outcomes %v, want %v", checksOutcome(got), want)
			}
			if cf.openRuns(q) != 0 {
				t.Fatal("a check was accepted without an entitled subscription")
			}
			if all := cf.checkAll(cf.owner.key); all.Submitted != 0 {
				t.Fatalf("check-all submitted %d without an entitled subscription", all.Submitted)
			}
		})
	}
	t.Run("trialing and past due are entitled", func(t *testing.T) {
		t.Parallel()
		for _, status := range []string{"trialing", "past_due"} {
			cf := checksSetup(t, -1)
			cf.sub = cf.subscription(cf.org, status, 5, "")
			q := cf.query(cf.project, "q", 1, 0)
			if got := cf.check(cf.owner.key, q.String()); len(got.Successful) != 1 {
				t.Fatalf("%s: %v", status, checksOutcome(got))
			}
		}
	})
}

func TestChecksRequestRefusals(t *testing.T) {
	t.Parallel()
	cf := checksSetup(t, 10)
	q := cf.query(cf.project, "q", 1, 0)
	viewer := cf.user()
	cf.join(cf.org, viewer, sightline.RoleViewer, sightline.MembershipActive)
	viewer = cf.keyFor(viewer, nil, sightline.CapabilityRead, sightline.CapabilityWrite)
	manager := cf.user()
	cf.join(cf.org, manager, sightline.RoleManager, sightline.MembershipActive)
	readOnly := cf.keyFor(manager, nil, sightline.CapabilityRead)
	manager = cf.keyFor(manager, nil, sightline.CapabilityRead, sightline.CapabilityWrite)
	_, otherOrg := cf.fixture.owner()
	body := fmt.Sprintf(`{"ids":[%q]}`, q)

	for _, suffix := range []string{"/check", "/check-all"} {
		b := body
		if suffix == "/check-all" {
			b = ""
		}
		assertError(t, cf.put(viewer.key, suffix, b), 403, sightline.CodeCapabilityRequired)
		assertError(t, cf.put(readOnly.key, suffix, b), 403, sightline.CodeCapabilityRequired)
		assertError(t, cf.put("", suffix, b), 401, sightline.CodeUnauthorized)
		assertError(t, cf.do(call{method: http.MethodPut, path: trackedPath(otherOrg, cf.project, suffix), key: cf.owner.key,
			body: b, header: map[string]string{"Idempotency-Key": uuid.NewString()}}), 404, sightline.CodeOrganizationNotFound)
		assertError(t, cf.do(call{method: http.MethodPut, path: trackedPath(cf.org, uuid.New(), suffix), key: cf.owner.key,
			body: b, header: map[string]string{"Idempotency-Key": uuid.NewString()}}), 404, sightline.CodeOrganizationNotFound)
		assertError(t, cf.do(call{method: http.MethodPut, path: cf.path(suffix), key: cf.owner.key, body: b}),
			400, sightline.CodeValidation)
	}
	if got := cf.check(manager.key, q.String()); len(got.Successful) != 1 {
		t.Fatalf("a manager's check: %v", checksOutcome(got))
	}

	for _, c := range []struct {
		name string
		body string
	}{
		{"missing ids", `{}`},
		{"empty ids", `{"ids":[]}`},
		{"unknown field", fmt.Sprintf(`{"ids":[%q],"force":true}`, q)},
		{"ids not strings", `{"ids":[1]}`},
		{"more than 100 distinct", func() string {
			ids := make([]string, 101)
			for i := range ids {
				ids[i] = fmt.Sprintf("%q", uuid.NewString())
			}
			return `{"ids":[` + strings.Join(ids, ",") + `]}`
		}()},
	} {
		assertError(t, cf.put(cf.owner.key, "/check", c.body), 400, sightline.CodeValidation)
	}
	// 100 distinct ids with a duplicate beyond them are fine.
	ids := make([]string, 0, 101)
	for range 100 {
		ids = append(ids, uuid.NewString())
	}
	ids = append(ids, ids[0])
	if got := cf.check(cf.owner.key, ids...); len(got.Failed) != 100 {
		t.Fatalf("%d items for 100 distinct ids", len(got.Failed))
	}
	assertError(t, cf.put(cf.owner.key, "/check-all", `{}`), 400, sightline.CodeBadRequest)

	// Archived project, archived organization.
	cf.exec(`UPDATE projects SET status = 'archived', archived_by = 'caller', archived_at = now() WHERE id = $1`, cf.project)
	assertError(t, cf.put(cf.owner.key, "/check", body), 409, sightline.CodeProjectIsArchived)
	assertError(t, cf.put(cf.owner.key, "/check-all", ""), 409, sightline.CodeProjectIsArchived)
	cf.exec(`UPDATE organizations SET status = 'archived', archived_at = now() WHERE id = $1`, cf.org)
	assertError(t, cf.put(cf.owner.key, "/check", body), 409, sightline.CodeProjectIsArchived)
	assertError(t, cf.put(cf.owner.key, "/check-all", ""), 409, sightline.CodeProjectIsArchived)
}

func TestChecksRequestRetriesAndConcurrentCallsNeverDouble(t *testing.T) {
	t.Parallel()
	cf := checksSetup(t, 100)
	var ids []string
	var queries []uuid.UUID
	for i := range 20 {
		q := cf.query(cf.project, fmt.Sprintf("q%d", i), 2, 0)
		queries = append(queries, q)
		ids = append(ids, q.String())
	}
	body, _ := json.Marshal(map[string]any{"ids": ids})

	// A retry with the same key replays the answer and runs nothing again.
	key := uuid.NewString()
	first := cf.do(call{method: http.MethodPut, path: cf.path("/check"), key: cf.owner.key, body: string(body),
		header: map[string]string{"Idempotency-Key": key}})
	again := cf.do(call{method: http.MethodPut, path: cf.path("/check"), key: cf.owner.key, body: string(body),
		header: map[string]string{"Idempotency-Key": key}})
	if again.status != 200 || string(again.body) != string(first.body) || again.header.Get("Idempotent-Replayed") != "true" {
		t.Fatalf("retry answered %d %s", again.status, again.body)
	}

	// Concurrent calls with other keys share the checks in flight.
	var wg sync.WaitGroup
	results := make([]response, 6)
	for i := range results {
		wg.Go(func() {
			results[i] = cf.do(call{method: http.MethodPut, path: cf.path("/check"), key: cf.owner.key, body: string(body),
				header: map[string]string{"Idempotency-Key": uuid.NewString()}})
		})
	}
	wg.Wait()
	for _, r := range results {
		var got trackedBatchResult
		if r.status != 200 || json.Unmarshal(r.body, &got) != nil || len(got.Successful) != 20 {
			t.Fatalf("concurrent check answered %d %s", r.status, r.body)
		}
	}
	for _, q := range queries {
		if cf.openRuns(q) != 1 || cf.jobs(q) != 1 {
			t.Fatal("a query got more than one run or job")
		}
	}
	if _, reserved := cf.units(cf.sub); reserved != 40 {
		t.Fatalf("reserved %d, want 40", reserved)
	}
}

func TestChecksAllSubmitsEligibleQueriesWithinBudget(t *testing.T) {
	t.Parallel()
	cf := checksSetup(t, 9)
	day := 24 * time.Hour
	never := cf.query(cf.project, "never", 2, 0)
	pending := cf.query(cf.project, "pending", 3, 10*day)
	cf.run(pending, "chatgpt", "pending")
	retrying := cf.query(cf.project, "retrying", 1, 9*day)
	cf.run(retrying, "chatgpt", "awaiting_retry")
	running := cf.query(cf.project, "running", 1, 8*day)
	cf.run(running, "chatgpt", "running")
	paused := cf.query(cf.project, "paused", 1, 7*day)
	cf.exec(`UPDATE tracked_queries SET status = 'paused' WHERE id = $1`, paused)
	recent := cf.query(cf.project, "recent", 2, time.Hour) // checks ignore recency
	big := cf.query(cf.project, "big", 5, 30*time.Minute)
	after := cf.query(cf.project, "after", 1, 10*time.Minute)
	cf.query(cf.fixture.project(cf.org, "Other"), "other project", 1, 0)

	// The runs in flight hold 5 of the 9 units, leaving 4: never (2) and
	// recent (2) fit; pending and retrying are shared at no cost; running
	// and paused are not eligible; big (5) does not fit and ends the list,
	// so after waits although it would fit.
	got := cf.checkAll(cf.owner.key)
	var listed []uuid.UUID
	for _, q := range got.Queries {
		listed = append(listed, q.ID)
		if q.Engine != "chatgpt" {
			t.Fatalf("engine %q", q.Engine)
		}
	}
	if want := []uuid.UUID{never, pending, retrying, recent}; !slices.Equal(listed, want) {
		t.Fatalf("submitted %v\nwant      %v (never, pending, retrying, recent)", listed, want)
	}
	for _, q := range []uuid.UUID{never, pending, retrying, running, recent} {
		if cf.openRuns(q) != 1 {
			t.Fatalf("query %s has %d runs in flight", q, cf.openRuns(q))
		}
	}
	if cf.openRuns(big) != 0 || cf.openRuns(after) != 0 || cf.openRuns(paused) != 0 {
		t.Fatal("a query past the budget or paused got a run")
	}
	if used, reserved := cf.units(cf.sub); used != 0 || reserved != 9 {
		t.Fatalf("used %d reserved %d, want 0 and 9", used, reserved)
	}
	// Calling again lists the same queries, now all in flight, at no cost.
	again := cf.checkAll(cf.owner.key)
	if again.Submitted != 4 || cf.count(`SELECT count(*) FROM check_runs WHERE trigger = 'on_demand'`) != 2 {
		t.Fatalf("second check-all submitted %d; on-demand runs %d", again.Submitted,
			cf.count(`SELECT count(*) FROM check_runs WHERE trigger = 'on_demand'`))
	}
}

func TestChecksAllStopsAtAThousand(t *testing.T) {
	t.Parallel()
	cf := checksSetup(t, 5000)
	cf.exec(`INSERT INTO tracked_queries (id, project_id, query_text, engine, country, check_frequency, n_passes)
	         SELECT gen_random_uuid(), $1, 'query ' || i, 'chatgpt', 'US', 'daily', 1 FROM generate_series(1, 1005) i`, cf.project)
	got := cf.checkAll(cf.owner.key)
	if got.Submitted != 1000 {
		t.Fatalf("submitted %d, want 1000", got.Submitted)
	}
	if n := cf.count(`SELECT count(*) FROM river_job WHERE kind = 'check'`); n != 1000 {
		t.Fatalf("%d jobs, want 1000", n)
	}
}

func TestChecksAllInsideTheGraceWindowSubmitsNothing(t *testing.T) {
	t.Parallel()
	cf := checksSetup(t, -1)
	cf.sub = cf.subscription(cf.org, "cancelled", 100,
		"cancelled_at = now(), cancel_at = now(), grace_until = now() + interval '7 days'")
	q := cf.query(cf.project, "q", 1, 0)
	cf.run(q, "chatgpt", "pending")
	cf.query(cf.project, "r", 1, 0)
	if got := cf.checkAll(cf.owner.key); got.Submitted != 0 || len(got.Queries) != 0 {
		t.Fatalf("check-all in the grace window: %+v", got)
	}
	if n := cf.count(`SELECT count(*) FROM check_runs`); n != 1 {
		t.Fatalf("%d runs, want only the one already in flight", n)
	}
}
