package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/sightline/sightline/olap"
	"github.com/sightline/sightline/olap/olaptest"
	"github.com/sightline/sightline/oltp"
	"github.com/sightline/sightline/oltp/oltptest"
)

// service is a `sightline run` started on a test's own databases.
type service struct {
	t    *testing.T
	base string
	// metrics is the base URL of the metrics listener.
	metrics string
	getenv  func(string) string
	ch      string // the ClickHouse database's URL
	logs    *syncWriter
	stop    func() error // cancels the run, as SIGTERM does, and waits for it
}

// startService runs `sightline run` until the test ends (or stop) and
// waits until it is ready.
func startService(t *testing.T) *service {
	t.Helper()
	vars := map[string]string{"DATABASE_URL": oltptest.NewDatabase(t), "CLICKHOUSE_URL": olaptest.NewDatabase(t)}
	return startServiceOn(t, func(k string) string { return vars[k] })
}

// startServiceOn is startService on the databases and configuration
// getenv gives, with addresses of its own.
func startServiceOn(t *testing.T, getenv func(string) string) *service {
	t.Helper()
	addr, metricsAddr := freeAddress(t), freeAddress(t)
	ch := getenv("CLICKHOUSE_URL")
	s := &service{t: t, base: "http://" + addr, metrics: "http://" + metricsAddr, ch: ch, logs: &syncWriter{},
		getenv: func(k string) string {
			switch k {
			case "SIGHTLINE_LISTEN":
				return addr
			case "SIGHTLINE_METRICS_ADDR":
				return metricsAddr
			}
			return getenv(k)
		}}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- run(ctx, []string{"run"}, s.getenv, strings.NewReader(""), &bytes.Buffer{}, s.logs) }()
	s.stop = sync.OnceValue(func() error {
		cancel()
		select {
		case err := <-done:
			return err
		case <-time.After(30 * time.Second):
			return errors.New("did not stop within 30s")
		}
	})
	t.Cleanup(func() {
		if err := s.stop(); err != nil {
			t.Errorf("run: %v", err)
		}
	})
	s.eventually("ready", 10*time.Second, func() bool {
		res, err := http.Get(s.base + "/readyz")
		if err != nil {
			return false
		}
		res.Body.Close()
		return res.StatusCode == http.StatusOK
	})
	return s
}

// freeAddress is a loopback address nothing listens on at the moment.
func freeAddress(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// eventually polls cond until it holds or the time is up.
func (s *service) eventually(what string, within time.Duration, cond func() bool) {
	s.t.Helper()
	deadline := time.Now().Add(within)
	for !cond() {
		if time.Now().After(deadline) {
			s.t.Fatalf("%s: not within %v; logs:\n%s", what, within, s.logs.String())
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// call sends a request with key and returns the status and decoded body.
func (s *service) call(key, method, path, body string) (int, map[string]any) {
	s.t.Helper()
	req, err := http.NewRequest(method, s.base+path, strings.NewReader(body))
	if err != nil {
		s.t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+key)
	if method != http.MethodGet {
		req.Header.Set("Idempotency-Key", uuid.NewString())
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		s.t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		s.t.Fatalf("%s %s: %d %s", method, path, res.StatusCode, raw)
	}
	return res.StatusCode, m
}

func (s *service) must(key, method, path, body string, want int) map[string]any {
	s.t.Helper()
	status, m := s.call(key, method, path, body)
	if status != want {
		s.t.Fatalf("%s %s: %d %v, want %d", method, path, status, m, want)
	}
	return m
}

// TestChecksEndToEnd drives the whole pipeline through the binary: queries
// created over the API are checked by the workers on the simulator, their
// captures land in ClickHouse, the listings show the results, the budget
// is charged once per pass, and a deleted query leaves nothing behind.
func TestChecksEndToEnd(t *testing.T) {
	t.Parallel()
	s := startService(t)
	ctx := context.Background()

	runJSON(t, s.getenv, "admin", "user", "create", "--email", "e2e@example.com")
	org := runJSON(t, s.getenv, "admin", "org", "create", "--name", "End To End", "--owner-email", "e2e@example.com")["id"].(string)
	runJSON(t, s.getenv, "admin", "subscription", "set", "--org", org, "--status", "active", "--tier", "pro",
		"--interval", "monthly", "--check-budget", "100")
	key := runJSON(t, s.getenv, "admin", "key", "create", "--email", "e2e@example.com", "--capabilities", "read,write",
		"--orgs", org)["key"].(string)

	base := "/api/v1/organizations/" + org + "/projects"
	project := s.must(key, "POST", base, `{"name": "Acme CRM", "websiteDomains": ["acme.com"], "brandNames": ["Acme"],
		"competitors": [{"name": "Globex", "websiteDomains": ["globex.com"], "brandNames": ["Globex"]}]}`, 201)["id"].(string)
	tracked := base + "/" + project + "/tracked-queries"
	created := s.must(key, "POST", tracked, `{"queryTexts": ["best crm for startups", "crm with email automation"],
		"engines": ["chatgpt", "google_serp", "google_shopping"], "countries": ["US"], "checkFrequency": "weekly",
		"nPasses": 2, "queryClusterIds": []}`, 200)
	var ids []string
	engineOf := map[string]string{}
	for _, item := range created["successful"].([]any) {
		m := item.(map[string]any)
		ids = append(ids, m["id"].(string))
		engineOf[m["id"].(string)] = m["engine"].(string)
	}
	if len(ids) != 6 {
		t.Fatalf("created %v", created)
	}
	idsJSON, _ := json.Marshal(ids)
	checked := s.must(key, "PUT", tracked+"/check", `{"ids": `+string(idsJSON)+`}`, 200)
	if len(checked["successful"].([]any)) != 6 {
		t.Fatalf("check: %v", checked)
	}

	s.eventually("every query checked", 60*time.Second, func() bool {
		for _, id := range ids {
			if _, q := s.call(key, "GET", tracked+"/"+id, ""); q["lastCheckedAt"] == nil {
				return false
			}
		}
		return true
	})
	// Two AI queries of two passes, four single-pass search and shopping queries.
	s.eventually("every pass charged once", 10*time.Second, func() bool {
		_, e := s.call(key, "GET", "/api/v1/organizations/"+org+"/entitlements", "")
		return e["checksUsed"] == float64(8) && e["checksAvailable"] == float64(92)
	})

	conn, err := olap.Connect(ctx, s.ch, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	count := func(table, where string, args ...any) uint64 {
		t.Helper()
		var n uint64
		if err := conn.QueryRow(ctx, "SELECT count() FROM "+table+" FINAL WHERE project_id = ? "+where,
			append([]any{uuid.MustParse(project)}, args...)...).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	if n := count("ai_answers", ""); n != 4 {
		t.Errorf("ai_answers: %d rows, want 4 (2 queries x 2 passes)", n)
	}
	if n := count("rank_rows", "AND relation = 'own'"); n != 8 {
		t.Errorf("own rank rows: %d, want one per pass (8)", n)
	}
	if count("mentions", "") == 0 || count("search_results", "") == 0 || count("shopping_offers", "") == 0 {
		t.Error("no mentions, search results or shopping offers stored")
	}

	s.eventually("the search listing shows the checks", 30*time.Second, func() bool {
		_, l := s.call(key, "GET", tracked+"?limit=100", "")
		page, _ := l["page"].([]any)
		if len(page) != 6 {
			return false
		}
		for _, row := range page {
			m := row.(map[string]any)
			if m["lastCheckedAt"] == nil {
				return false
			}
			if engineOf[m["id"].(string)] == "chatgpt" && m["lastShareOfVoice"] == nil {
				return false
			}
		}
		return true
	})
	s.eventually("the project listing shows metrics", 30*time.Second, func() bool {
		_, l := s.call(key, "GET", base, "")
		page, _ := l["page"].([]any)
		return len(page) == 1 && page[0].(map[string]any)["mentionRate"] != nil &&
			page[0].(map[string]any)["serpRate"] != nil
	})

	// The captures and matches read what the checks stored.
	for path, want := range map[string]float64{"/ai-responses": 4, "/search-snapshots": 2, "/shopping-snapshots": 2} {
		if l := s.must(key, "GET", base+"/"+project+path, "", 200); l["total"] != want {
			t.Errorf("%s: total %v, want %v", path, l["total"], want)
		}
	}
	var mentions float64
	for id, engine := range engineOf {
		if engine == "chatgpt" {
			mentions += s.must(key, "GET", tracked+"/"+id+"/mention-matches", "", 200)["total"].(float64)
		}
	}
	if want := count("mentions", ""); mentions != float64(want) {
		t.Errorf("mention matches %v, want the %d stored mentions", mentions, want)
	}

	// A deleted query leaves nothing in any ClickHouse table or rollup.
	gone := ids[0]
	deleted := s.must(key, "POST", tracked+"/bulk-delete", fmt.Sprintf(`{"ids": ["%s"]}`, gone), 200)
	if len(deleted["successful"].([]any)) != 1 {
		t.Fatalf("bulk delete: %v", deleted)
	}
	tables := []string{"check_results", "ai_answers", "mentions", "citations", "search_results", "shopping_offers",
		"rank_rows", "mentions_daily", "ranks_daily", "cooccurrence_daily", "cited_sources_daily"}
	s.eventually("the deleted query's rows removed", 30*time.Second, func() bool {
		for _, table := range tables {
			var n uint64
			if err := conn.QueryRow(ctx, "SELECT count() FROM "+table+" WHERE tracked_query_id = ?",
				uuid.MustParse(gone)).Scan(&n); err != nil {
				t.Fatal(err)
			}
			if n != 0 {
				return false
			}
		}
		return true
	})
	if _, p := s.call(key, "GET", base+"/"+project, ""); p["id"] != project {
		t.Fatalf("project read: %v", p)
	}
}

// TestBackfillStoresHistoryOnce backfills the demo organization twice and
// finds every simulated check stored once, with the listings filled.
func TestBackfillStoresHistoryOnce(t *testing.T) {
	t.Parallel()
	ch := olaptest.NewDatabase(t)
	getenv := env(t, map[string]string{"CLICKHOUSE_URL": ch})
	var demo bytes.Buffer
	if err := run(context.Background(), []string{"admin", "demo"}, getenv, strings.NewReader(""), &demo, io.Discard); err != nil {
		t.Fatal(err)
	}
	first := runJSON(t, getenv, "backfill", "--days", "5")
	// Off a terminal the progress bar stays silent: stderr carries nothing.
	var out, progressOut bytes.Buffer
	if err := run(context.Background(), []string{"backfill", "--days", "5"}, getenv, strings.NewReader(""), &out, &progressOut); err != nil {
		t.Fatal(err)
	}
	if progressOut.Len() != 0 {
		t.Errorf("backfill wrote %q to a stderr that is no terminal", progressOut.String())
	}
	var second map[string]any
	if err := json.Unmarshal(out.Bytes(), &second); err != nil {
		t.Fatal(err)
	}
	// 30 daily single-pass queries over 5 days.
	if first["passes"] != float64(150) || second["passes"] != float64(150) {
		t.Fatalf("backfills: %v and %v", first, second)
	}
	conn, err := olap.Connect(context.Background(), ch, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	var answers, own uint64
	if err := conn.QueryRow(context.Background(), `SELECT count() FROM ai_answers`).Scan(&answers); err != nil {
		t.Fatal(err)
	}
	if err := conn.QueryRow(context.Background(), `SELECT count() FROM rank_rows WHERE relation = 'own'`).Scan(&own); err != nil {
		t.Fatal(err)
	}
	if answers != 100 || own != 150 {
		t.Errorf("stored %d answers and %d own rank rows, want 100 (20 AI queries x 5 days) and 150", answers, own)
	}
	pool, err := oltp.Connect(context.Background(), getenv("DATABASE_URL"), 2)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	var checkedRows, measured int
	if err := pool.QueryRow(context.Background(), `
		SELECT (SELECT count(*) FROM tracked_query_search_rows WHERE last_checked_at IS NOT NULL),
		       (SELECT count(*) FROM project_listing_metrics WHERE mention_rate IS NOT NULL AND serp_rate IS NOT NULL)`).
		Scan(&checkedRows, &measured); err != nil {
		t.Fatal(err)
	}
	if checkedRows != 30 || measured != 1 {
		t.Errorf("%d search rows checked (want 30), %d projects with listing metrics (want 1)", checkedRows, measured)
	}
	for _, bad := range [][]string{{"backfill", "--days", "0"}, {"backfill", "--org", "nope"}, {"backfill", "extra"}} {
		if err := run(context.Background(), bad, getenv, strings.NewReader(""), io.Discard, io.Discard); err == nil {
			t.Errorf("sightline %v succeeded", bad)
		}
	}
}
