package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/sightline/sightline/olap"
	"github.com/sightline/sightline/olap/olaptest"
	"github.com/sightline/sightline/oltp"
	"github.com/sightline/sightline/oltp/oltptest"
)

// stopTest is a `sightline run` on a test's own databases, the simulator
// answering after latency, stopped with a soft stop timeout of softStop
// once two runs are running.
type stopTest struct {
	vars    map[string]string
	pool    *pgxpool.Pool
	project uuid.UUID
	logs    string
}

func stopRunning(t *testing.T, latency, softStop string) *stopTest {
	t.Helper()
	st := &stopTest{vars: map[string]string{"DATABASE_URL": oltptest.NewDatabase(t),
		"CLICKHOUSE_URL": olaptest.NewDatabase(t), "SIGHTLINE_SIMULATOR_LATENCY": latency,
		"SIGHTLINE_SOFT_STOP_TIMEOUT": softStop}}
	pool, err := oltp.Connect(context.Background(), st.vars["DATABASE_URL"], 2)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	st.pool = pool
	s := startServiceOn(t, st.getenv)
	st.project = checkTwoQueries(t, s, pool)
	if err := s.stop(); err != nil {
		t.Fatalf("run after SIGTERM: %v", err)
	}
	st.logs = s.logs.String()
	return st
}

func (st *stopTest) getenv(k string) string { return st.vars[k] }

// checkTwoQueries creates an organization with a budget of 100 and a
// project of two chatgpt queries of two passes each, asks for their check,
// and waits until both runs are running. It returns the project.
func checkTwoQueries(t *testing.T, s *service, pool *pgxpool.Pool) uuid.UUID {
	t.Helper()
	runJSON(t, s.getenv, "admin", "user", "create", "--email", "stop@example.com")
	org := runJSON(t, s.getenv, "admin", "org", "create", "--name", "Stop", "--owner-email", "stop@example.com")["id"].(string)
	runJSON(t, s.getenv, "admin", "subscription", "set", "--org", org, "--status", "active", "--tier", "pro",
		"--interval", "monthly", "--check-budget", "100")
	key := runJSON(t, s.getenv, "admin", "key", "create", "--email", "stop@example.com", "--capabilities", "read,write",
		"--orgs", org)["key"].(string)
	base := "/api/v1/organizations/" + org + "/projects"
	project := s.must(key, "POST", base, `{"name": "Acme CRM", "websiteDomains": ["acme.com"], "brandNames": ["Acme"]}`,
		201)["id"].(string)
	tracked := base + "/" + project + "/tracked-queries"
	created := s.must(key, "POST", tracked, `{"queryTexts": ["best crm", "crm for startups"], "engines": ["chatgpt"],
		"countries": ["US"], "checkFrequency": "weekly", "nPasses": 2, "queryClusterIds": []}`, 200)
	var ids []string
	for _, item := range created["successful"].([]any) {
		ids = append(ids, item.(map[string]any)["id"].(string))
	}
	idsJSON, _ := json.Marshal(ids)
	s.must(key, "PUT", tracked+"/check", `{"ids": `+string(idsJSON)+`}`, 200)
	s.eventually("both runs running", 20*time.Second, func() bool {
		return stopCount(t, pool, `SELECT count(*) FROM check_runs WHERE status = 'running'`) == 2
	})
	return uuid.MustParse(project)
}

func stopCount(t *testing.T, pool *pgxpool.Pool, sql string) int {
	t.Helper()
	var n int
	if err := pool.QueryRow(context.Background(), sql).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// stopUnits returns the subscription's used and reserved units.
func stopUnits(t *testing.T, pool *pgxpool.Pool) (used, reserved int) {
	t.Helper()
	if err := pool.QueryRow(context.Background(), `SELECT checks_used, checks_reserved FROM subscriptions`).
		Scan(&used, &reserved); err != nil {
		t.Fatal(err)
	}
	return used, reserved
}

// wantStored checks that ClickHouse holds each of the project's four
// passes once: none lost, none stored twice.
func wantStored(t *testing.T, chURL string, project uuid.UUID) {
	t.Helper()
	conn, err := olap.Connect(context.Background(), chURL, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	var n uint64
	if err := conn.QueryRow(context.Background(), "SELECT count() FROM ai_answers WHERE project_id = ?", project).
		Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != 4 {
		t.Fatalf("ai_answers holds %d passes, want 4", n)
	}
}

func TestSoftStopLetsRunningChecksFinish(t *testing.T) {
	t.Parallel()
	st := stopRunning(t, "2s", "30s")
	if strings.Contains(st.logs, "cancelling") {
		t.Fatalf("checks of 2s were cancelled under a 30s soft stop:\n%s", st.logs)
	}
	if n := stopCount(t, st.pool, `SELECT count(*) FROM check_runs WHERE status = 'completed'`); n != 2 {
		t.Fatalf("%d runs completed before the process exited, want 2", n)
	}
	if used, reserved := stopUnits(t, st.pool); used != 4 || reserved != 0 {
		t.Fatalf("used %d reserved %d, want 4 and 0", used, reserved)
	}
	wantStored(t, st.vars["CLICKHOUSE_URL"], st.project)
}

func TestSoftStopTimeoutCancelsChecksThatResumeAfterARestart(t *testing.T) {
	t.Parallel()
	st := stopRunning(t, "1h", "1s")
	if !strings.Contains(st.logs, "cancelling") {
		t.Fatalf("checks of an hour were not cancelled after a 1s soft stop:\n%s", st.logs)
	}
	// Interrupted, not failed: the reservation stands and the jobs are
	// available again with their attempt given back.
	if n := stopCount(t, st.pool, `SELECT count(*) FROM check_runs WHERE status = 'awaiting_retry'`); n != 2 {
		t.Fatalf("%d runs awaiting a retry after the stop, want 2", n)
	}
	if n := stopCount(t, st.pool, `SELECT count(*) FROM river_job WHERE kind = 'check' AND state = 'available' AND attempt = 0`); n != 2 {
		t.Fatalf("%d check jobs available again with no attempt spent, want 2", n)
	}
	if used, reserved := stopUnits(t, st.pool); used != 0 || reserved != 4 {
		t.Fatalf("used %d reserved %d, want 0 and 4", used, reserved)
	}

	st.vars["SIGHTLINE_SIMULATOR_LATENCY"] = ""
	restarted := startServiceOn(t, st.getenv)
	restarted.eventually("the interrupted runs completed after the restart", 30*time.Second, func() bool {
		return stopCount(t, st.pool, `SELECT count(*) FROM check_runs WHERE status = 'completed'`) == 2
	})
	if used, reserved := stopUnits(t, st.pool); used != 4 || reserved != 0 {
		t.Fatalf("used %d reserved %d, want 4 and 0", used, reserved)
	}
	wantStored(t, st.vars["CLICKHOUSE_URL"], st.project)
}

// TestRestartMidDrainLosesNothing stops a worker while many runs are half
// answered, restarts it, and checks every pass is stored once, in the
// capture tables and the rollups alike, and charged once.
func TestRestartMidDrainLosesNothing(t *testing.T) {
	t.Parallel()
	const queries, passes = 40, 3 // on two engines: 80 runs
	vars := map[string]string{"DATABASE_URL": oltptest.NewDatabase(t), "CLICKHOUSE_URL": olaptest.NewDatabase(t),
		"SIGHTLINE_SIMULATOR_LATENCY": "200ms-6s", "SIGHTLINE_SOFT_STOP_TIMEOUT": "0s"}
	getenv := func(k string) string { return vars[k] }
	pool, err := oltp.Connect(context.Background(), vars["DATABASE_URL"], 2)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)

	s := startServiceOn(t, getenv)
	runJSON(t, getenv, "admin", "user", "create", "--email", "drain@example.com")
	org := runJSON(t, getenv, "admin", "org", "create", "--name", "Drain", "--owner-email", "drain@example.com")["id"].(string)
	runJSON(t, getenv, "admin", "subscription", "set", "--org", org, "--status", "active", "--tier", "pro",
		"--interval", "monthly", "--check-budget", "1000")
	key := runJSON(t, getenv, "admin", "key", "create", "--email", "drain@example.com", "--capabilities", "read,write",
		"--orgs", org)["key"].(string)
	base := "/api/v1/organizations/" + org + "/projects"
	project := s.must(key, "POST", base, `{"name": "Acme CRM", "websiteDomains": ["acme.com"], "brandNames": ["Acme"]}`,
		201)["id"].(string)
	texts := make([]string, queries)
	for i := range texts {
		texts[i] = fmt.Sprintf("best crm %d", i)
	}
	textsJSON, _ := json.Marshal(texts)
	tracked := base + "/" + project + "/tracked-queries"
	s.must(key, "POST", tracked, `{"queryTexts": `+string(textsJSON)+`, "engines": ["chatgpt", "perplexity"],
		"countries": ["US"], "checkFrequency": "weekly", "nPasses": 3, "queryClusterIds": []}`, 200)
	s.must(key, "PUT", tracked+"/check-all", ``, 200)
	s.eventually("a few runs completed", 60*time.Second, func() bool {
		return stopCount(t, pool, `SELECT count(*) FROM check_runs WHERE status = 'completed'`) >= 5
	})
	if err := s.stop(); err != nil {
		t.Fatalf("run after SIGTERM: %v", err)
	}
	completed := stopCount(t, pool, `SELECT count(*) FROM check_runs WHERE status = 'completed'`)
	halfDone := stopCount(t, pool, `SELECT count(*) FROM check_runs
		WHERE status <> 'completed' AND answered_passes <> 0`)
	if completed == 2*queries || halfDone == 0 {
		t.Fatalf("stopped with %d runs completed and %d half answered: the stop did not come mid-drain", completed, halfDone)
	}
	t.Logf("stopped with %d of %d runs completed and %d half answered", completed, 2*queries, halfDone)

	vars["SIGHTLINE_SIMULATOR_LATENCY"] = ""
	restarted := startServiceOn(t, getenv)
	restarted.eventually("every run completed after the restart", 60*time.Second, func() bool {
		return stopCount(t, pool, `SELECT count(*) FROM check_runs WHERE status = 'completed'`) == 2*queries
	})
	want := 2 * queries * passes
	if used, reserved := stopUnits(t, pool); used != want || reserved != 0 {
		t.Fatalf("used %d reserved %d, want %d and 0", used, reserved, want)
	}
	conn, err := olap.Connect(context.Background(), vars["CLICKHOUSE_URL"], nil)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	// Without FINAL: a pass stored twice would show here and in the
	// rollup's sums, which no merge takes back.
	for _, q := range []string{
		"SELECT count() FROM ai_answers WHERE project_id = ?",
		"SELECT count() FROM rank_rows WHERE project_id = ? AND relation = 'own'",
		"SELECT sum(passes) FROM ranks_daily WHERE project_id = ? AND relation = 'own'",
	} {
		var n uint64
		if err := conn.QueryRow(context.Background(), q, uuid.MustParse(project)).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n != uint64(want) {
			t.Errorf("%s: %d, want %d (%d runs completed and %d half answered at the stop)", q, n, want, completed, halfDone)
		}
	}
}
