package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/sightline/sightline"
	"github.com/sightline/sightline/oltp"
	"github.com/sightline/sightline/oltp/oltptest"
)

// env is a getenv over a test's own databases.
func env(t *testing.T, extra map[string]string) func(string) string {
	vars := map[string]string{"DATABASE_URL": oltptest.NewDatabase(t)}
	for k, v := range extra {
		vars[k] = v
	}
	return func(k string) string { return vars[k] }
}

func runJSON(t *testing.T, getenv func(string) string, args ...string) map[string]any {
	t.Helper()
	var out, errOut bytes.Buffer
	if err := run(context.Background(), args, getenv, strings.NewReader(""), &out, &errOut); err != nil {
		t.Fatalf("sightline %s: %v", strings.Join(args, " "), err)
	}
	var m map[string]any
	if err := json.Unmarshal(out.Bytes(), &m); err != nil {
		t.Fatalf("sightline %s printed %q, not one JSON object", strings.Join(args, " "), out.String())
	}
	return m
}

func TestAdmin(t *testing.T) {
	t.Parallel()
	getenv := env(t, nil)
	user := runJSON(t, getenv, "admin", "user", "create", "--email", "owner@example.com", "--name", "Olive")
	if user["id"] == nil {
		t.Fatalf("user create printed %v", user)
	}
	runJSON(t, getenv, "admin", "user", "create", "--email", "viewer@example.com")
	org := runJSON(t, getenv, "admin", "org", "create", "--name", "Olive Org", "--owner-email", "owner@example.com")
	orgID := org["id"].(string)
	runJSON(t, getenv, "admin", "member", "add", "--org", orgID, "--email", "viewer@example.com", "--role", "viewer", "--status", "suspended")
	key := runJSON(t, getenv, "admin", "key", "create", "--email", "owner@example.com", "--capabilities", "read,write", "--orgs", orgID)
	if !strings.HasPrefix(key["key"].(string), "sl_") || key["id"] == nil {
		t.Fatalf("key create printed %v", key)
	}
	runJSON(t, getenv, "admin", "subscription", "set", "--org", orgID, "--status", "active", "--tier", "pro",
		"--interval", "monthly", "--check-budget", "5000")
	access := runJSON(t, getenv, "admin", "analyst", "access", "--org", orgID, "--user", "olive_analyst",
		"--password-sha256", strings.Repeat("0f", 32))
	statements, _ := access["statements"].([]any)
	if access["projectCount"] != 0.0 || len(statements) == 0 ||
		!strings.Contains(fmt.Sprint(statements), "USING 0") || !strings.Contains(fmt.Sprint(statements), "CREATE USER IF NOT EXISTS olive_analyst") {
		t.Fatalf("analyst access printed %v", access)
	}
	queued := func() []any {
		t.Helper()
		reports, ok := runJSON(t, getenv, "admin", "reports", "list", "--limit", "5")["reports"].([]any)
		if !ok {
			t.Fatal("reports list printed no reports list")
		}
		return reports
	}
	if reports := queued(); len(reports) != 0 {
		t.Fatalf("reports list printed %v", reports)
	}
	reportID := queueReport(t, getenv("DATABASE_URL"), orgID)
	if reports := queued(); len(reports) != 1 || reports[0].(map[string]any)["reportId"] != reportID.String() {
		t.Fatalf("reports list printed %v, want report %s", reports, reportID)
	}
	if resolved := runJSON(t, getenv, "admin", "reports", "resolve", "--id", reportID.String()); resolved["resolved"] != true {
		t.Fatalf("reports resolve printed %v", resolved)
	}
	if reports := queued(); len(reports) != 0 {
		t.Fatalf("reports list printed %v after the report was resolved", reports)
	}
	revoked := runJSON(t, getenv, "admin", "key", "revoke", "--id", key["id"].(string))
	if revoked["revoked"] != true {
		t.Fatalf("key revoke printed %v", revoked)
	}

	refusals := [][]string{
		{"admin"},
		{"admin", "user", "delete"},
		{"admin", "user", "create"},
		{"admin", "user", "create", "--email", "owner@example.com"},
		{"admin", "user", "create", "--email", "x@example.com", "extra"},
		{"admin", "org", "create", "--name", "No Owner", "--owner-email", "ghost@example.com"},
		{"admin", "member", "add", "--org", "not-a-uuid", "--email", "viewer@example.com", "--role", "viewer"},
		{"admin", "member", "add", "--org", orgID, "--email", "viewer@example.com", "--role", "emperor"},
		{"admin", "key", "create", "--email", "owner@example.com", "--capabilities", "read,fly", "--orgs", "all"},
		{"admin", "key", "revoke", "--id", "0193a7e4-0000-7000-8000-000000000001"},
		{"admin", "subscription", "set", "--org", orgID, "--status", "active", "--tier", "pro", "--interval", "weekly", "--check-budget", "5"},
		{"admin", "subscription", "set", "--org", orgID, "--status", "active", "--tier", "pro", "--interval", "monthly", "--check-budget", "-5"},
		{"admin", "analyst", "access", "--org", "0193a7e4-0000-7000-8000-000000000001"},
		{"admin", "analyst", "access", "--org", orgID, "--user", "ann", "--password-sha256", "secret"},
		{"admin", "reports", "list", "--limit", "0"},
		{"admin", "reports", "list", "--limit", "5x"},
		{"admin", "reports", "list", "--after", "yesterday"},
		{"admin", "reports", "resolve", "--id", reportID.String()},
		{"admin", "reports", "resolve", "--id", "first"},
		{"admin", "subscription", "set", "--org", orgID, "--status", "active", "--tier", "pro", "--interval", "monthly", "--check-budget", "5x"},
		{"bogus"},
		{},
	}
	for _, args := range refusals {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			var out, errOut bytes.Buffer
			err := run(context.Background(), args, getenv, strings.NewReader(""), &out, &errOut)
			if err == nil || err.Error() == "" {
				t.Fatalf("accepted; printed %q", out.String())
			}
			if out.Len() != 0 {
				t.Fatalf("printed %q on failure", out.String())
			}
		})
	}
}

// queueReport queues a report of an answer in the organization, as the
// report endpoint does without a review URL.
func queueReport(t *testing.T, databaseURL string, orgID string) uuid.UUID {
	t.Helper()
	ctx := context.Background()
	pool, err := oltp.Connect(ctx, databaseURL, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	r := oltp.AnswerReport{ReportID: uuid.Must(uuid.NewV7()), Type: "other", MissedBrandNames: []string{},
		OrganizationID: uuid.MustParse(orgID), ProjectID: uuid.New(), TrackedQueryID: uuid.New(),
		AIResponseID: uuid.New(), CheckRunID: uuid.New(), ReportedBy: uuid.New(),
		ReportedAt: sightline.Timestamp{Time: time.Now()}}
	if err := pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error { return oltp.QueueAnswerReport(ctx, tx, r) }); err != nil {
		t.Fatal(err)
	}
	return r.ReportID
}

func TestRunServesAndStopsCleanly(t *testing.T) {
	t.Parallel()
	s := startService(t)
	res, err := http.Get(s.base + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusNotFound {
		t.Errorf("the API's listener serves /metrics: %d", res.StatusCode)
	}
	res, err = http.Get(s.metrics + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	metrics, _ := io.ReadAll(res.Body)
	res.Body.Close()
	for _, want := range []string{"sightline_postgres_pool_acquired_connections", "sightline_river_jobs", "go_goroutines"} {
		if !strings.Contains(string(metrics), want) {
			t.Errorf("/metrics lacks %s", want)
		}
	}

	if err := s.stop(); err != nil {
		t.Fatalf("run: %v", err)
	}
	for _, want := range []string{"api stopped", "metrics stopped", "workers stopped"} {
		if !strings.Contains(s.logs.String(), want) {
			t.Errorf("logs lack %q:\n%s", want, s.logs.String())
		}
	}
}
