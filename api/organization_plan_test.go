package api

import (
	"context"
	"log/slog"
	"net/http"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/riverqueue/river"

	"github.com/sightline/sightline"
	"github.com/sightline/sightline/jobs"
)

// organizationsTrackedQuery inserts a tracked query straight into the store.
func organizationsTrackedQuery(t *testing.T, f *fixture, project uuid.UUID, frequency string, passes int, status string) uuid.UUID {
	t.Helper()
	id := uuid.Must(uuid.NewV7())
	organizationsExec(t, f, `
		INSERT INTO tracked_queries (id, project_id, query_text, engine, country, check_frequency, n_passes, status)
		VALUES ($1, $2, $3, 'chatgpt', 'US', $4, $5, $6)`, id, project, "query "+id.String(), frequency, passes, status)
	return id
}

// organizationsRoles returns keys of a viewer and a manager of org.
func organizationsRoles(f *fixture, org uuid.UUID) (viewer, manager member) {
	viewer, manager = f.user(), f.user()
	f.join(org, viewer, sightline.RoleViewer, sightline.MembershipActive)
	f.join(org, manager, sightline.RoleManager, sightline.MembershipActive)
	return f.keyFor(viewer, nil), f.keyFor(manager, nil, sightline.Capabilities...)
}

func organizationsGet(t *testing.T, f *fixture, key, path string) map[string]any {
	t.Helper()
	r := f.do(call{method: "GET", path: path, key: key})
	if r.status != http.StatusOK {
		t.Fatalf("GET %s: %d %s", path, r.status, r.body)
	}
	return r.json(t)
}

func TestOrganizationsEntitlementsAndSubscription(t *testing.T) {
	t.Parallel()
	f := setup(t)
	owner, org := f.owner()
	viewer, manager := organizationsRoles(f, org)
	_, otherOrg := f.owner()
	entitlements, subscription := organizationsPath(org, "/entitlements"), organizationsPath(org, "/subscription")

	t.Run("never subscribed: none, every other field null", func(t *testing.T) {
		for _, m := range []map[string]any{
			organizationsGet(t, f, owner.key, entitlements), organizationsGet(t, f, viewer.key, subscription),
		} {
			for field, v := range m {
				if (field == "status") != (v != nil) || (field == "status" && v != "none") {
					t.Errorf("%s = %v in %v", field, v, m)
				}
			}
		}
	})

	t.Run("roles", func(t *testing.T) {
		assertError(t, f.do(call{method: "GET", path: entitlements, key: viewer.key}), 403, sightline.CodeCapabilityRequired)
		assertError(t, f.do(call{method: "GET", path: entitlements, key: manager.key}), 403, sightline.CodeCapabilityRequired)
		assertError(t, f.do(call{method: "GET", path: entitlements}), 401, sightline.CodeUnauthorized)
		assertError(t, f.do(call{method: "GET", path: organizationsPath(otherOrg, "/entitlements"), key: owner.key}), 404, sightline.CodeOrganizationNotFound)
		assertError(t, f.do(call{method: "GET", path: organizationsPath(otherOrg, "/subscription"), key: owner.key}), 404, sightline.CodeOrganizationNotFound)
	})

	var periodEnd time.Time
	organizationsExec(t, f, `
		INSERT INTO subscriptions (id, organization_id, status, tier, billing_interval, check_budget, checks_used,
		                           current_period_start, current_period_end, created_at)
		VALUES ($1, $2, 'expired', 'starter', 'monthly', 50, 50, now() - interval '2 months', now() - interval '1 month',
		        now() - interval '2 months')`, uuid.Must(uuid.NewV7()), org)
	if err := f.pool.QueryRow(context.Background(), `
		INSERT INTO subscriptions (id, organization_id, status, tier, billing_interval, check_budget, checks_used,
		                           checks_reserved, current_period_start, current_period_end)
		VALUES ($1, $2, 'active', 'growth', 'yearly', 1000, 250, 50, now() - interval '1 day', now() + interval '1 year')
		RETURNING current_period_end`, uuid.Must(uuid.NewV7()), org).Scan(&periodEnd); err != nil {
		t.Fatal(err)
	}
	end := periodEnd.UTC().Format(sightline.TimestampLayout)

	t.Run("the most recent contract", func(t *testing.T) {
		e := organizationsGet(t, f, owner.key, entitlements)
		if e["status"] != "active" || e["tier"] != "growth" || e["checkBudget"] != 1000.0 || e["checksUsed"] != 250.0 ||
			e["checksAvailable"] != 700.0 || e["nextResetAt"] != end || e["periodStart"] == nil {
			t.Fatalf("entitlements %v", e)
		}
		s := organizationsGet(t, f, viewer.key, subscription)
		if s["status"] != "active" || s["billingInterval"] != "yearly" || s["checkBudget"] != 1000.0 ||
			s["currentPeriodEnd"] != end || s["cancelAt"] != nil || s["graceUntil"] != nil {
			t.Fatalf("subscription %v", s)
		}
	})

	t.Run("a cancelled contract still answers, with nothing left to spend", func(t *testing.T) {
		organizationsExec(t, f, `
			UPDATE subscriptions SET status = 'cancelled', cancelled_at = now(), cancel_at = now(), grace_until = now() + interval '7 days'
			WHERE organization_id = $1 AND status = 'active'`, org)
		e := organizationsGet(t, f, owner.key, entitlements)
		if e["status"] != "cancelled" || e["checkBudget"] != 1000.0 || e["checksAvailable"] != 0.0 || e["nextResetAt"] != nil {
			t.Fatalf("entitlements %v", e)
		}
		s := organizationsGet(t, f, viewer.key, subscription)
		if s["status"] != "cancelled" || s["cancelledAt"] == nil || s["graceUntil"] == nil {
			t.Fatalf("subscription %v", s)
		}
	})
}

func TestOrganizationsMembershipStats(t *testing.T) {
	t.Parallel()
	f := setup(t)
	owner, org := f.owner()
	viewer, manager := organizationsRoles(f, org)
	suspended := f.user()
	f.join(org, suspended, sightline.RoleViewer, sightline.MembershipSuspended)
	f.project(org, "Active")
	organizationsArchivedProject(t, f, org, "Archived")
	organizationsInvitation(t, f, org, "pending", time.Hour)
	organizationsInvitation(t, f, org, "pending", -time.Hour)
	organizationsInvitation(t, f, org, "cancelled", time.Hour)
	path := organizationsPath(org, "/membership-stats")

	assertError(t, f.do(call{method: "GET", path: path, key: owner.key}), 404, sightline.CodeMembershipStatsNotFound)
	assertError(t, f.do(call{method: "GET", path: path, key: viewer.key}), 403, sightline.CodeCapabilityRequired)
	assertError(t, f.do(call{method: "GET", path: path, key: manager.key}), 403, sightline.CodeCapabilityRequired)

	w := &jobs.MembershipStatsWorker{Pool: f.pool, Logger: slog.New(slog.DiscardHandler)}
	if err := w.Work(context.Background(), &river.Job[jobs.MembershipStatsArgs]{}); err != nil {
		t.Fatal(err)
	}
	m := organizationsGet(t, f, owner.key, path)
	if m["totalMembersCount"] != 4.0 || m["totalProjectsCount"] != 2.0 || m["pendingInvitationsCount"] != 1.0 || m["computedAt"] == nil {
		t.Fatalf("membership stats %v", m)
	}

	// A snapshot: unchanged until the next refresh.
	f.project(org, "Later")
	if m := organizationsGet(t, f, owner.key, path); m["totalProjectsCount"] != 2.0 {
		t.Fatalf("snapshot changed without a refresh: %v", m)
	}
	if err := w.Work(context.Background(), &river.Job[jobs.MembershipStatsArgs]{}); err != nil {
		t.Fatal(err)
	}
	if m := organizationsGet(t, f, owner.key, path); m["totalProjectsCount"] != 3.0 {
		t.Fatalf("after a refresh: %v", m)
	}
}

func TestOrganizationsStats(t *testing.T) {
	t.Parallel()
	f := setup(t)
	owner, org := f.owner()
	viewer, _ := organizationsRoles(f, org)
	suspended := f.user()
	f.join(org, suspended, sightline.RoleViewer, sightline.MembershipSuspended)
	path := organizationsPath(org, "/stats")

	empty := organizationsGet(t, f, viewer.key, path)
	if empty["projects"].(map[string]any)["total"] != 0.0 || empty["invitations"].(map[string]any)["pending"] != 0.0 {
		t.Fatalf("stats %v", empty)
	}
	f.project(org, "Active")
	organizationsArchivedProject(t, f, org, "Archived")
	organizationsInvitation(t, f, org, "pending", time.Hour)
	organizationsInvitation(t, f, org, "pending", -time.Hour)
	m := organizationsGet(t, f, viewer.key, path)
	if m["members"].(map[string]any)["total"] != 3.0 ||
		m["projects"].(map[string]any)["total"] != 2.0 || m["projects"].(map[string]any)["active"] != 1.0 ||
		m["invitations"].(map[string]any)["pending"] != 1.0 {
		t.Fatalf("stats %v", m)
	}
	_, otherOrg := f.owner()
	assertError(t, f.do(call{method: "GET", path: organizationsPath(otherOrg, "/stats"), key: owner.key}), 404, sightline.CodeOrganizationNotFound)
}

func TestOrganizationsUsage(t *testing.T) {
	t.Parallel()
	f := setup(t)
	owner, org := f.owner()
	viewer, _ := organizationsRoles(f, org)
	_, otherOrg := f.owner()
	active := f.project(org, "Active")
	archived := f.project(org, "To archive")
	elsewhere := f.project(otherOrg, "Other tenant")
	trackedPath := organizationsPath(org, "/usage/tracked-queries")
	projectedPath := organizationsPath(org, "/usage/projected-monthly-checks")
	t.Run("nothing tracked yet", func(t *testing.T) {
		if m := organizationsGet(t, f, viewer.key, trackedPath); m["trackedQueryCount"] != 0.0 {
			t.Fatalf("%v", m)
		}
		m := organizationsGet(t, f, viewer.key, projectedPath)
		if m["activeTrackedQueryCount"] != 0.0 || m["projectedMonthlyChecks"] != 0.0 || m["computedAt"] == nil {
			t.Fatalf("%v", m)
		}
	})

	organizationsTrackedQuery(t, f, active, "daily", 3, "active")   // 90
	organizationsTrackedQuery(t, f, active, "weekly", 2, "active")  // 8
	organizationsTrackedQuery(t, f, active, "monthly", 1, "active") // 1
	organizationsTrackedQuery(t, f, active, "daily", 10, "paused")  // not checked
	organizationsTrackedQuery(t, f, archived, "daily", 1, "active") // archived project: not checked
	organizationsTrackedQuery(t, f, elsewhere, "daily", 1, "active")
	organizationsExec(t, f, `UPDATE projects SET status = 'archived', archived_by = 'caller', archived_at = now() WHERE id = $1`, archived)

	t.Run("tracked-query count is live over every project and status", func(t *testing.T) {
		if m := organizationsGet(t, f, viewer.key, trackedPath); m["trackedQueryCount"] != 5.0 {
			t.Fatalf("%v", m)
		}
	})

	t.Run("projection counts active queries of active projects", func(t *testing.T) {
		m := organizationsGet(t, f, viewer.key, projectedPath)
		if m["activeTrackedQueryCount"] != 3.0 || m["projectedMonthlyChecks"] != 99.0 {
			t.Fatalf("%v", m)
		}
	})

	t.Run("every change shows at once", func(t *testing.T) {
		added := organizationsTrackedQuery(t, f, active, "weekly", 5, "active") // 20
		if m := organizationsGet(t, f, viewer.key, projectedPath); m["activeTrackedQueryCount"] != 4.0 || m["projectedMonthlyChecks"] != 119.0 {
			t.Fatalf("after a create: %v", m)
		}
		organizationsExec(t, f, `UPDATE tracked_queries SET status = 'paused' WHERE id = $1`, added)
		if m := organizationsGet(t, f, viewer.key, projectedPath); m["activeTrackedQueryCount"] != 3.0 || m["projectedMonthlyChecks"] != 99.0 {
			t.Fatalf("after a pause: %v", m)
		}
	})

	t.Run("refusals", func(t *testing.T) {
		for _, path := range []string{trackedPath, projectedPath} {
			r := f.do(call{method: "GET", path: path + "?limit=10", key: viewer.key})
			if got := detailCodesOf(t, assertError(t, r, 400, sightline.CodeValidation)); got["limit"][0] != "unknown_field" {
				t.Errorf("%s: %v", path, got)
			}
			assertError(t, f.do(call{method: "GET", path: path}), 401, sightline.CodeUnauthorized)
			other := "/api/v1/organizations/" + otherOrg.String() + path[len("/api/v1/organizations/")+36:]
			assertError(t, f.do(call{method: "GET", path: other, key: owner.key}), 404, sightline.CodeOrganizationNotFound)
		}
	})
}
