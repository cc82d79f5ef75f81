package api

import (
	"context"
	"encoding/csv"
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

// projectsEnv is an organization with members of every role, their keys,
// and another organization the caller is a member of too.
type projectsEnv struct {
	t        *testing.T
	f        *fixture
	org      uuid.UUID
	owner    member // all capabilities
	manager  member // all capabilities
	viewer   member // all capabilities, viewer role
	readOnly member // the owner's key with read only
	otherOrg uuid.UUID
}

func projectsSetup(t *testing.T) *projectsEnv {
	t.Helper()
	f := setup(t)
	owner, org := f.owner()
	manager, viewer := f.user(), f.user()
	f.join(org, manager, sightline.RoleManager, sightline.MembershipActive)
	f.join(org, viewer, sightline.RoleViewer, sightline.MembershipActive)
	return &projectsEnv{
		t: t, f: f, org: org, owner: owner,
		manager:  f.keyFor(manager, nil, sightline.Capabilities...),
		viewer:   f.keyFor(viewer, nil, sightline.Capabilities...),
		readOnly: f.keyFor(owner, nil),
		otherOrg: f.org(owner, "Other "+uuid.NewString()[:6]),
	}
}

// path is a path under the organization's projects.
func (e *projectsEnv) path(format string, args ...any) string {
	return "/api/v1/organizations/" + e.org.String() + "/projects" + fmt.Sprintf(format, args...)
}

func (e *projectsEnv) get(key, path string) response {
	e.t.Helper()
	return e.f.do(call{method: "GET", path: path, key: key})
}

// write sends a write under a fresh Idempotency-Key.
func (e *projectsEnv) write(method, key, path, body string) response {
	e.t.Helper()
	return e.writeWithKey(method, key, path, body, uuid.NewString())
}

func (e *projectsEnv) writeWithKey(method, key, path, body, idempotencyKey string) response {
	e.t.Helper()
	return e.f.do(call{method: method, path: path, key: key, body: body,
		header: map[string]string{"Idempotency-Key": idempotencyKey}})
}

// create creates a project through the API and returns its record.
func (e *projectsEnv) create(name string) map[string]any {
	e.t.Helper()
	r := e.write("POST", e.manager.key, e.path(""),
		fmt.Sprintf(`{"name": %q, "websiteDomains": ["p-%s.example"], "brandNames": [%q]}`, name, uuid.NewString()[:8], name))
	if r.status != http.StatusCreated {
		e.t.Fatalf("creating project %q: %d %s", name, r.status, r.body)
	}
	return r.json(e.t)
}

func (e *projectsEnv) exec(sql string, args ...any) {
	e.t.Helper()
	if _, err := e.f.pool.Exec(context.Background(), sql, args...); err != nil {
		e.t.Fatal(err)
	}
}

func (e *projectsEnv) archiveOrganization(org uuid.UUID) {
	e.t.Helper()
	e.exec(`UPDATE organizations SET status = 'archived', archived_at = now() WHERE id = $1`, org)
}

// bareProject inserts a project without a brand profile.
func (e *projectsEnv) bareProject(org uuid.UUID) uuid.UUID {
	e.t.Helper()
	id := uuid.Must(uuid.NewV7())
	e.exec(`INSERT INTO projects (id, organization_id, name) VALUES ($1, $2, 'Bare')`, id, org)
	return id
}

func (e *projectsEnv) expectStatus(r response, status int) map[string]any {
	e.t.Helper()
	if r.status != status {
		e.t.Fatalf("status %d, want %d: %s", r.status, status, r.body)
	}
	return r.json(e.t)
}

func projectsStrings(v any) []string {
	var out []string
	for _, x := range v.([]any) {
		out = append(out, x.(string))
	}
	return out
}

func TestProjectsCreateAndRead(t *testing.T) {
	t.Parallel()
	e := projectsSetup(t)
	r := e.write("POST", e.manager.key, e.path(""), `{
		"name": "  Acme Shoes  ",
		"websiteDomains": ["https://WWW.Acme.com/shoes?x=1", "acme.com", "shop.acme.com:8443", "www.Acme.COM."],
		"brandNames": [" Acme ", "ACME", "Acme Running"],
		"competitors": [
			{"name": "Rival", "websiteDomains": ["http://rival.io"], "brandNames": ["Rival", "rival"]},
			{"name": "Other", "websiteDomains": ["other.org"], "brandNames": ["Other"]}
		]}`)
	p := e.expectStatus(r, http.StatusCreated)
	if p["name"] != "Acme Shoes" || p["status"] != "active" || p["archivedAt"] != nil || p["organizationId"] != e.org.String() {
		t.Fatalf("project = %v", p)
	}
	if got := projectsStrings(p["websiteDomains"]); !slices.Equal(got, []string{"acme.com", "shop.acme.com"}) {
		t.Errorf("websiteDomains = %q", got)
	}
	if got := projectsStrings(p["brandNames"]); !slices.Equal(got, []string{"Acme", "Acme Running"}) {
		t.Errorf("brandNames = %q", got)
	}
	competitors := p["competitors"].([]any)
	if len(competitors) != 2 {
		t.Fatalf("competitors = %v", competitors)
	}
	first := competitors[0].(map[string]any)
	if first["name"] != "Rival" || !slices.Equal(projectsStrings(first["websiteDomains"]), []string{"rival.io"}) ||
		!slices.Equal(projectsStrings(first["brandNames"]), []string{"Rival"}) {
		t.Errorf("first competitor = %v", first)
	}
	id, err := uuid.Parse(p["id"].(string))
	if err != nil || id.Version() != 7 {
		t.Fatalf("id %v is not a uuid v7", p["id"])
	}

	for _, key := range []string{e.viewer.key, e.readOnly.key} {
		got := e.expectStatus(e.get(key, e.path("/%s", id)), http.StatusOK)
		if !jsonEqual(t, got, p) {
			t.Errorf("read %v differs from created %v", got, p)
		}
	}
	profile := e.expectStatus(e.get(e.viewer.key, e.path("/%s/brand-profile", id)), http.StatusOK)
	if profile["projectId"] != id.String() || profile["description"] != nil || profile["descriptionGeneratedAt"] != nil ||
		!slices.Equal(projectsStrings(profile["websiteDomains"]), []string{"acme.com", "shop.acme.com"}) {
		t.Errorf("brand profile = %v", profile)
	}
	var describing int
	if err := e.f.pool.QueryRow(context.Background(),
		`SELECT count(*) FROM river_job WHERE kind = 'brand_description' AND args->>'projectId' = $1`, id.String()).
		Scan(&describing); err != nil || describing != 1 {
		t.Errorf("brand description jobs enqueued: %d (%v), want 1", describing, err)
	}
}

func jsonEqual(t *testing.T, a, b any) bool {
	t.Helper()
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}

func TestProjectsCreateValidation(t *testing.T) {
	t.Parallel()
	e := projectsSetup(t)
	long := strings.Repeat("n", 256)
	tests := []struct {
		name    string
		body    string
		details map[string]sightline.DetailCode
	}{
		{"nothing", `{}`, map[string]sightline.DetailCode{
			"name": sightline.DetailMissingField, "websiteDomains": sightline.DetailMissingField, "brandNames": sightline.DetailMissingField}},
		{"empty lists and blank name", `{"name": "  ", "websiteDomains": [], "brandNames": []}`, map[string]sightline.DetailCode{
			"name": sightline.DetailOutOfRange, "websiteDomains": sightline.DetailOutOfRange, "brandNames": sightline.DetailOutOfRange}},
		{"long name", `{"name": "` + long + `", "websiteDomains": ["a.com"], "brandNames": ["A"]}`, map[string]sightline.DetailCode{
			"name": sightline.DetailOutOfRange}},
		{"not hosts, with their index", `{"name": "P", "websiteDomains": ["a.com", "not a host", "localhost", "ftp://a.com"], "brandNames": ["A", " "]}`,
			map[string]sightline.DetailCode{"websiteDomains[1]": sightline.DetailInvalidValue, "websiteDomains[2]": sightline.DetailInvalidValue,
				"websiteDomains[3]": sightline.DetailInvalidValue, "brandNames[1]": sightline.DetailOutOfRange}},
		{"every problem at once, decoding and normalising", `{"name": 5, "websiteDomains": ["a.com", null, "bad host"], "brandNames": ["A"], "id": "x"}`,
			map[string]sightline.DetailCode{"name": sightline.DetailInvalidType, "websiteDomains[1]": sightline.DetailInvalidType,
				"websiteDomains[2]": sightline.DetailInvalidValue, "id": sightline.DetailUnknownField}},
		{"competitors", `{"name": "P", "websiteDomains": ["a.com"], "brandNames": ["A"], "competitors": [
			{"name": "ok", "websiteDomains": ["b.com"], "brandNames": ["B"]},
			{"websiteDomains": [], "brandNames": ["B", ""], "description": "x", "id": "y"},
			{"name": "` + strings.Repeat("c", 201) + `", "websiteDomains": ["b.com", "b_c.com"], "brandNames": ["C"]},
			"not an object"]}`, map[string]sightline.DetailCode{
			"competitors[1].name": sightline.DetailMissingField, "competitors[1].websiteDomains": sightline.DetailOutOfRange,
			"competitors[1].brandNames[1]": sightline.DetailOutOfRange, "competitors[1].description": sightline.DetailUnknownField,
			"competitors[1].id": sightline.DetailUnknownField, "competitors[2].name": sightline.DetailOutOfRange,
			"competitors[2].websiteDomains[1]": sightline.DetailInvalidValue, "competitors[3]": sightline.DetailInvalidType}},
		{"competitors null", `{"name": "P", "websiteDomains": ["a.com"], "brandNames": ["A"], "competitors": null}`,
			map[string]sightline.DetailCode{"competitors": sightline.DetailInvalidType}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := assertError(t, e.write("POST", e.manager.key, e.path(""), tt.body), 400, sightline.CodeValidation)
			got := detailCodesOf(t, m)
			want := map[string][]string{}
			for field, code := range tt.details {
				want[field] = []string{string(code)}
			}
			if !jsonEqual(t, got, want) {
				t.Errorf("details = %v, want %v", got, want)
			}
		})
	}
	var n int
	if err := e.f.pool.QueryRow(context.Background(), `SELECT count(*) FROM projects`).Scan(&n); err != nil || n != 0 {
		t.Fatalf("%d projects stored after refusals (%v)", n, err)
	}
}

func TestProjectsCreateRefusals(t *testing.T) {
	t.Parallel()
	e := projectsSetup(t)
	body := `{"name": "P", "websiteDomains": ["a.com"], "brandNames": ["A"]}`
	_, outsiderOrg := e.f.owner()
	tests := []struct {
		name   string
		key    string
		org    uuid.UUID
		status int
		code   sightline.Code
	}{
		{"viewer role", e.viewer.key, e.org, 403, sightline.CodeCapabilityRequired},
		{"read-only key", e.readOnly.key, e.org, 403, sightline.CodeCapabilityRequired},
		{"organization of which the caller is no member", e.owner.key, outsiderOrg, 404, sightline.CodeOrganizationNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assertError(t, e.write("POST", tt.key, "/api/v1/organizations/"+tt.org.String()+"/projects", body), tt.status, tt.code)
		})
	}
	t.Run("no Idempotency-Key", func(t *testing.T) {
		r := e.f.do(call{method: "POST", path: e.path(""), key: e.manager.key, body: body})
		assertError(t, r, 400, sightline.CodeValidation)
	})
	t.Run("archived organization", func(t *testing.T) {
		e.archiveOrganization(e.otherOrg)
		assertError(t, e.write("POST", e.owner.key, "/api/v1/organizations/"+e.otherOrg.String()+"/projects", body),
			409, sightline.CodeProjectIsArchived)
	})
}

func TestProjectsGetIsScopedToTheOrganization(t *testing.T) {
	t.Parallel()
	e := projectsSetup(t)
	theirs := e.f.project(e.otherOrg, "Theirs")
	bare := e.bareProject(e.org)
	tests := []struct {
		name, path string
		code       sightline.Code
	}{
		{"another organization's project", e.path("/%s", theirs), sightline.CodeOrganizationNotFound},
		{"unknown id", e.path("/%s", uuid.Must(uuid.NewV7())), sightline.CodeOrganizationNotFound},
		{"malformed id", e.path("/not-a-uuid"), sightline.CodeOrganizationNotFound},
		{"brand profile of another organization's project", e.path("/%s/brand-profile", theirs), sightline.CodeOrganizationNotFound},
		{"brand profile of a project without one", e.path("/%s/brand-profile", bare), sightline.CodeOrganizationNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assertError(t, e.get(e.owner.key, tt.path), 404, tt.code)
		})
	}
	t.Run("a project without a brand profile has empty lists", func(t *testing.T) {
		p := e.expectStatus(e.get(e.viewer.key, e.path("/%s", bare)), http.StatusOK)
		for _, field := range []string{"websiteDomains", "brandNames", "competitors"} {
			if list, ok := p[field].([]any); !ok || len(list) != 0 {
				t.Errorf("%s = %v, want []", field, p[field])
			}
		}
	})
}

func TestProjectsListing(t *testing.T) {
	t.Parallel()
	e := projectsSetup(t)
	ids := map[string]string{}
	for _, name := range []string{"Delta", "alpha", "Charlie", "=bravo", "Echo_1"} {
		ids[name] = e.create(name)["id"].(string)
		time.Sleep(2 * time.Millisecond) // distinct createdAt
	}
	e.f.project(e.otherOrg, "Not listed")
	e.exec(`UPDATE projects SET status = 'archived', archived_by = 'caller', archived_at = now() WHERE id = $1`, ids["Charlie"])
	// Tracked queries: Delta 3, alpha 1, the others none.
	for name, n := range map[string]int{"Delta": 3, "alpha": 1} {
		for i := range n {
			e.exec(`INSERT INTO tracked_queries (id, project_id, query_text, engine, country, check_frequency, n_passes)
				VALUES ($1, $2, $3, 'chatgpt', 'US', 'daily', 1)`, uuid.Must(uuid.NewV7()), ids[name], fmt.Sprintf("q%d", i))
		}
	}
	// Metrics the projection would write: alpha and Echo_1 known, the others unknown.
	e.exec(`INSERT INTO project_listing_metrics (project_id, mention_rate, avg_serp_position, last_rank_detected_at)
		VALUES ($1, 40, 2.5, '2025-01-02T03:04:05.678Z'), ($2, 75.5, 1, NULL)`, ids["alpha"], ids["Echo_1"])

	names := func(m map[string]any) []string {
		var out []string
		for _, row := range m["page"].([]any) {
			out = append(out, row.(map[string]any)["name"].(string))
		}
		return out
	}
	tests := []struct {
		query string
		names []string
		total float64
	}{
		{"", []string{"Echo_1", "=bravo", "Charlie", "alpha", "Delta"}, 5},
		{"?sortOrder=asc&limit=2", []string{"Delta", "alpha"}, 5},
		{"?limit=2&offset=2", []string{"Charlie", "alpha"}, 5},
		{"?offset=10", nil, 5},
		{"?sortBy=name&sortOrder=asc", []string{"=bravo", "alpha", "Charlie", "Delta", "Echo_1"}, 5},
		{"?sortBy=name", []string{"Echo_1", "Delta", "Charlie", "alpha", "=bravo"}, 5},
		{"?status=archived", []string{"Charlie"}, 1},
		{"?status=active&sortBy=name&sortOrder=asc", []string{"=bravo", "alpha", "Delta", "Echo_1"}, 4},
		{"?search=HO_", []string{"Echo_1"}, 1},
		{"?search=a&sortBy=name&sortOrder=asc", []string{"=bravo", "alpha", "Charlie", "Delta"}, 4},
		{"?sortBy=trackedQueryCount", []string{"Delta", "alpha", "Echo_1", "=bravo", "Charlie"}, 5},
		{"?sortBy=mentionRate", []string{"Echo_1", "alpha", "=bravo", "Charlie", "Delta"}, 5},
		{"?sortBy=mentionRate&sortOrder=asc", []string{"alpha", "Echo_1", "Delta", "Charlie", "=bravo"}, 5},
		{"?sortBy=lastRankDetectedAt&limit=1", []string{"alpha"}, 5},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			m := e.expectStatus(e.get(e.viewer.key, e.path("%s", tt.query)), http.StatusOK)
			if got := names(m); !slices.Equal(got, tt.names) {
				t.Errorf("page = %q, want %q", got, tt.names)
			}
			if m["total"] != tt.total {
				t.Errorf("total = %v, want %v", m["total"], tt.total)
			}
		})
	}
	t.Run("every sort key is accepted", func(t *testing.T) {
		for _, key := range []string{"createdAt", "name", "trackedQueryCount", "avgSerpPosition", "avgShoppingPosition",
			"avgMentionPosition", "avgLinkPosition", "mentionRate", "serpRate", "shoppingRate", "positivityIndex",
			"shareOfVoice", "serpPositionStability", "shoppingPositionStability", "lastRankDetectedAt"} {
			for _, order := range []string{"asc", "desc"} {
				m := e.expectStatus(e.get(e.viewer.key, e.path("?sortBy=%s&sortOrder=%s", key, order)), http.StatusOK)
				if m["total"] != 5.0 {
					t.Errorf("%s %s: total %v", key, order, m["total"])
				}
			}
		}
	})
	t.Run("row metrics", func(t *testing.T) {
		m := e.expectStatus(e.get(e.viewer.key, e.path("?sortBy=name&sortOrder=asc&limit=2")), http.StatusOK)
		alpha := m["page"].([]any)[1].(map[string]any)
		if alpha["trackedQueryCount"] != 1.0 || alpha["mentionRate"] != 40.0 || alpha["avgSerpPosition"] != 2.5 ||
			alpha["lastRankDetectedAt"] != "2025-01-02T03:04:05.678Z" || alpha["shareOfVoice"] != nil {
			t.Errorf("alpha row = %v", alpha)
		}
		bravo := m["page"].([]any)[0].(map[string]any)
		if bravo["trackedQueryCount"] != 0.0 || bravo["mentionRate"] != nil {
			t.Errorf("=bravo row = %v", bravo)
		}
	})
	refusals := []struct {
		query string
		field string
		code  sightline.DetailCode
	}{
		{"?sortBy=id", "sortBy", sightline.DetailInvalidValue},
		{"?sortOrder=up", "sortOrder", sightline.DetailInvalidValue},
		{"?limit=101", "limit", sightline.DetailOutOfRange},
		{"?limit=0", "limit", sightline.DetailOutOfRange},
		{"?offset=-1", "offset", sightline.DetailOutOfRange},
		{"?status=deleted", "status", sightline.DetailInvalidValue},
		{"?search=" + strings.Repeat("x", 101), "search", sightline.DetailOutOfRange},
		{"?search=%00", "search", sightline.DetailInvalidValue},
		{"?search=%FF", "search", sightline.DetailInvalidValue},
		{"?engines=chatgpt", "engines", sightline.DetailUnknownField},
	}
	for _, tt := range refusals {
		t.Run("refuses "+tt.query, func(t *testing.T) {
			m := assertError(t, e.get(e.viewer.key, e.path("%s", tt.query)), 400, sightline.CodeValidation)
			if got := detailCodesOf(t, m)[tt.field]; !slices.Equal(got, []string{string(tt.code)}) {
				t.Errorf("%s details = %v, want %s", tt.field, m["details"], tt.code)
			}
		})
	}
	t.Run("csv", func(t *testing.T) {
		e.exec(`INSERT INTO competitors (id, project_id, name, website_domains, brand_names)
			VALUES ($1, $3, '+Rival', '{r.com}', '{R}'), ($2, $3, 'Other', '{o.com}', '{O}')`,
			uuid.Must(uuid.NewV7()), uuid.Must(uuid.NewV7()), ids["alpha"])
		r := e.f.do(call{method: "GET", path: e.path("?sortBy=name&sortOrder=asc&limit=2"), key: e.viewer.key,
			header: map[string]string{"Accept": "text/csv"}})
		if r.status != 200 || !strings.HasPrefix(r.header.Get("Content-Type"), "text/csv") {
			t.Fatalf("%d %s: %s", r.status, r.header.Get("Content-Type"), r.body)
		}
		records, err := csv.NewReader(strings.NewReader(string(r.body))).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		header := "id,organizationId,name,status,websiteDomains,brandNames,competitors,createdAt,archivedAt,trackedQueryCount," +
			"avgSerpPosition,avgShoppingPosition,avgMentionPosition,avgLinkPosition,mentionRate,serpRate,shoppingRate," +
			"positivityIndex,shareOfVoice,serpPositionStability,shoppingPositionStability,lastRankDetectedAt"
		if strings.Join(records[0], ",") != header {
			t.Fatalf("header = %v", records[0])
		}
		if len(records) != 3 || records[1][2] != "'=bravo" || records[2][2] != "alpha" || records[2][6] != "'+Rival; Other" ||
			records[2][14] != "40" || records[2][15] != "" || records[2][21] != "2025-01-02T03:04:05.678Z" {
			t.Errorf("rows = %q", records[1:])
		}
	})
}

func TestProjectsRename(t *testing.T) {
	t.Parallel()
	e := projectsSetup(t)
	id := e.create("Before")["id"].(string)
	path := e.path("/%s", id)

	renamed := e.expectStatus(e.write("PATCH", e.manager.key, path, `{"name": "  After  "}`), http.StatusOK)
	if renamed["name"] != "After" || len(renamed["websiteDomains"].([]any)) != 1 {
		t.Fatalf("renamed = %v", renamed)
	}

	t.Run("brand fields are refused by name", func(t *testing.T) {
		m := assertError(t, e.write("PATCH", e.manager.key, path,
			`{"name": "X", "websiteDomains": ["a.com"], "brandNames": ["A"], "competitors": []}`), 400, sightline.CodeValidation)
		want := map[string][]string{"websiteDomains": {"unknown_field"}, "brandNames": {"unknown_field"}, "competitors": {"unknown_field"}}
		if got := detailCodesOf(t, m); !jsonEqual(t, got, want) {
			t.Errorf("details = %v", got)
		}
	})
	t.Run("validation", func(t *testing.T) {
		for body, code := range map[string]string{`{}`: "missing_field", `{"name": ""}`: "out_of_range",
			`{"name": "` + strings.Repeat("x", 256) + `"}`: "out_of_range", `{"name": null}`: "invalid_type"} {
			m := assertError(t, e.write("PATCH", e.manager.key, path, body), 400, sightline.CodeValidation)
			if got := detailCodesOf(t, m)["name"]; !slices.Equal(got, []string{code}) {
				t.Errorf("%s: %v, want %s", body, got, code)
			}
		}
	})
	t.Run("roles and capabilities", func(t *testing.T) {
		assertError(t, e.write("PATCH", e.viewer.key, path, `{"name": "V"}`), 403, sightline.CodeCapabilityRequired)
		assertError(t, e.write("PATCH", e.readOnly.key, path, `{"name": "V"}`), 403, sightline.CodeCapabilityRequired)
	})
	t.Run("another organization's project", func(t *testing.T) {
		theirs := e.f.project(e.otherOrg, "Theirs")
		assertError(t, e.write("PATCH", e.owner.key, e.path("/%s", theirs), `{"name": "Mine"}`), 404, sightline.CodeOrganizationNotFound)
	})

	t.Run("archived project", func(t *testing.T) {
		key := uuid.NewString()
		e.expectStatus(e.writeWithKey("PATCH", e.manager.key, path, `{"name": "Final"}`, key), http.StatusOK)
		e.expectStatus(e.write("POST", e.manager.key, path+"/archive", ""), http.StatusOK)
		replay := e.writeWithKey("PATCH", e.manager.key, path, `{"name": "Final"}`, key)
		if replay.status != http.StatusOK || replay.header.Get("Idempotent-Replayed") != "true" {
			t.Fatalf("retry of a rename that succeeded: %d %s", replay.status, replay.body)
		}
		assertError(t, e.write("PATCH", e.manager.key, path, `{"name": "Final"}`), 409, sightline.CodeProjectIsArchived)
		assertError(t, e.write("PATCH", e.manager.key, path, `{"name": "Other"}`), 409, sightline.CodeProjectIsArchived)
	})
	t.Run("archived organization", func(t *testing.T) {
		other := e.f.project(e.otherOrg, "In archived org")
		e.archiveOrganization(e.otherOrg)
		assertError(t, e.write("PATCH", e.owner.key, "/api/v1/organizations/"+e.otherOrg.String()+"/projects/"+other.String(),
			`{"name": "X"}`), 409, sightline.CodeProjectIsArchived)
	})
}

func TestProjectsArchiveAndRestore(t *testing.T) {
	t.Parallel()
	e := projectsSetup(t)
	id := e.create("Lifecycle")["id"].(string)
	archive, restore := e.path("/%s/archive", id), e.path("/%s/restore", id)
	archivedBy := func() *string {
		var by *string
		if err := e.f.pool.QueryRow(context.Background(), `SELECT archived_by FROM projects WHERE id = $1`, id).Scan(&by); err != nil {
			t.Fatal(err)
		}
		return by
	}

	archiveKey := uuid.NewString()
	p := e.expectStatus(e.writeWithKey("POST", e.manager.key, archive, "", archiveKey), http.StatusOK)
	if p["status"] != "archived" || p["archivedAt"] == nil {
		t.Fatalf("archived = %v", p)
	}
	if by := archivedBy(); by == nil || *by != "caller" {
		t.Fatalf("archived_by = %v, want caller", by)
	}
	if r := e.writeWithKey("POST", e.manager.key, archive, "", archiveKey); r.status != 200 || r.header.Get("Idempotent-Replayed") != "true" {
		t.Fatalf("retry of the archive: %d %s", r.status, r.body)
	}
	assertError(t, e.write("POST", e.manager.key, archive, ""), 409, sightline.CodeStatusTransitionNotAllowed)

	t.Run("writes on the archived project are refused", func(t *testing.T) {
		writes := []struct{ method, path, body string }{
			{"PUT", e.path("/%s/brand-profile", id), `{"websiteDomains": ["a.com"], "brandNames": ["A"]}`},
			{"POST", e.path("/%s/competitors", id), `{"name": "C", "websiteDomains": ["c.com"], "brandNames": ["C"]}`},
			{"POST", e.path("/%s/clusters", id), `{"name": "c"}`},
			{"POST", e.path("/%s/clusters/batch", id), `{"names": ["c"]}`},
		}
		for _, w := range writes {
			assertError(t, e.write(w.method, e.manager.key, w.path, w.body), 409, sightline.CodeProjectIsArchived)
		}
		// Reads still work.
		e.expectStatus(e.get(e.viewer.key, e.path("/%s", id)), http.StatusOK)
	})

	restoreKey := uuid.NewString()
	p = e.expectStatus(e.writeWithKey("POST", e.manager.key, restore, "", restoreKey), http.StatusOK)
	if p["status"] != "active" || p["archivedAt"] != nil || archivedBy() != nil {
		t.Fatalf("restored = %v", p)
	}
	if r := e.writeWithKey("POST", e.manager.key, restore, "", restoreKey); r.status != 200 || r.header.Get("Idempotent-Replayed") != "true" {
		t.Fatalf("retry of the restore: %d %s", r.status, r.body)
	}
	assertError(t, e.write("POST", e.manager.key, restore, ""), 409, sightline.CodeStatusTransitionNotAllowed)

	t.Run("archived by the organization", func(t *testing.T) {
		e.exec(`UPDATE projects SET status = 'archived', archived_by = 'organization', archived_at = now() WHERE id = $1`, id)
		assertError(t, e.write("POST", e.manager.key, restore, ""), 409, sightline.CodeProjectArchivedByOrganization)
		assertError(t, e.write("POST", e.manager.key, archive, ""), 409, sightline.CodeStatusTransitionNotAllowed)
		e.exec(`UPDATE projects SET status = 'active', archived_by = NULL, archived_at = NULL WHERE id = $1`, id)
	})
	t.Run("refusals", func(t *testing.T) {
		theirs := e.f.project(e.otherOrg, "Theirs")
		assertError(t, e.write("POST", e.viewer.key, archive, ""), 403, sightline.CodeCapabilityRequired)
		assertError(t, e.write("POST", e.readOnly.key, restore, ""), 403, sightline.CodeCapabilityRequired)
		assertError(t, e.write("POST", e.owner.key, e.path("/%s/archive", theirs), ""), 404, sightline.CodeOrganizationNotFound)
		assertError(t, e.write("POST", e.owner.key, e.path("/nope/archive"), ""), 404, sightline.CodeOrganizationNotFound)
		assertError(t, e.write("POST", e.manager.key, archive, "{}"), 400, sightline.CodeBadRequest)
	})
	t.Run("archived organization", func(t *testing.T) {
		active := e.f.project(e.otherOrg, "Active")
		archived := e.f.project(e.otherOrg, "Archived")
		e.exec(`UPDATE projects SET status = 'archived', archived_by = 'caller', archived_at = now() WHERE id = $1`, archived)
		e.archiveOrganization(e.otherOrg)
		base := "/api/v1/organizations/" + e.otherOrg.String() + "/projects/"
		assertError(t, e.write("POST", e.owner.key, base+active.String()+"/archive", ""), 409, sightline.CodeProjectIsArchived)
		assertError(t, e.write("POST", e.owner.key, base+archived.String()+"/restore", ""), 409, sightline.CodeProjectIsArchived)
	})
}

func TestProjectsConcurrentUpdatesNeverDeadlock(t *testing.T) {
	t.Parallel()
	e := projectsSetup(t)
	id := e.create("Busy")["id"].(string)
	var mu sync.Mutex
	statuses := map[string][]int{}
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			r := e.write("PATCH", e.manager.key, e.path("/%s", id), fmt.Sprintf(`{"name": "Name %d"}`, i))
			a := e.write("POST", e.manager.key, e.path("/%s/archive", id), "")
			mu.Lock()
			statuses["rename"] = append(statuses["rename"], r.status)
			statuses["archive"] = append(statuses["archive"], a.status)
			mu.Unlock()
		})
	}
	wg.Wait()
	archived := 0
	for kind, list := range statuses {
		for _, status := range list {
			if status != 200 && status != 409 {
				t.Errorf("%s answered %d", kind, status)
			}
			if kind == "archive" && status == 200 {
				archived++
			}
		}
	}
	if archived != 1 {
		t.Errorf("%d archives succeeded, want exactly 1", archived)
	}
}

func TestProjectsBrandProfile(t *testing.T) {
	t.Parallel()
	e := projectsSetup(t)
	p := e.write("POST", e.manager.key, e.path(""), `{"name": "Branded", "websiteDomains": ["old.com"], "brandNames": ["Old"],
		"competitors": [{"name": "Rival", "websiteDomains": ["rival.com"], "brandNames": ["Rival"]}]}`)
	id := e.expectStatus(p, http.StatusCreated)["id"].(string)
	e.exec(`UPDATE brand_profiles SET description = 'Generated.', description_generated_at = '2025-03-04T05:06:07Z' WHERE project_id = $1`, id)
	path := e.path("/%s/brand-profile", id)

	got := e.expectStatus(e.write("PUT", e.manager.key, path,
		`{"websiteDomains": ["https://www.New.com/", "new.com", "blog.new.com"], "brandNames": ["New", "NEW", " Newer "]}`), http.StatusOK)
	want := map[string]any{"projectId": id, "websiteDomains": []any{"new.com", "blog.new.com"}, "brandNames": []any{"New", "Newer"},
		"description": "Generated.", "descriptionGeneratedAt": "2025-03-04T05:06:07.000Z"}
	if !jsonEqual(t, got, want) {
		t.Fatalf("replaced = %v, want %v", got, want)
	}
	if read := e.expectStatus(e.get(e.viewer.key, path), http.StatusOK); !jsonEqual(t, read, want) {
		t.Fatalf("read = %v", read)
	}
	project := e.expectStatus(e.get(e.viewer.key, e.path("/%s", id)), http.StatusOK)
	if project["name"] != "Branded" || len(project["competitors"].([]any)) != 1 {
		t.Fatalf("name or competitors changed: %v", project)
	}

	t.Run("validation", func(t *testing.T) {
		tests := []struct {
			body    string
			details map[string][]string
		}{
			{`{}`, map[string][]string{"websiteDomains": {"missing_field"}, "brandNames": {"missing_field"}}},
			{`{"websiteDomains": [], "brandNames": ["A"]}`, map[string][]string{"websiteDomains": {"out_of_range"}}},
			{`{"websiteDomains": ["a.com", "-x.com"], "brandNames": [], "description": "d", "name": "n"}`, map[string][]string{
				"websiteDomains[1]": {"invalid_value"}, "brandNames": {"out_of_range"}, "description": {"unknown_field"}, "name": {"unknown_field"}}},
		}
		for _, tt := range tests {
			m := assertError(t, e.write("PUT", e.manager.key, path, tt.body), 400, sightline.CodeValidation)
			if got := detailCodesOf(t, m); !jsonEqual(t, got, tt.details) {
				t.Errorf("%s: details %v, want %v", tt.body, got, tt.details)
			}
		}
	})
	t.Run("refusals", func(t *testing.T) {
		body := `{"websiteDomains": ["a.com"], "brandNames": ["A"]}`
		bare := e.bareProject(e.org)
		theirs := e.f.project(e.otherOrg, "Theirs")
		assertError(t, e.write("PUT", e.viewer.key, path, body), 403, sightline.CodeCapabilityRequired)
		assertError(t, e.write("PUT", e.readOnly.key, path, body), 403, sightline.CodeCapabilityRequired)
		assertError(t, e.write("PUT", e.manager.key, e.path("/%s/brand-profile", bare), body), 404, sightline.CodeOrganizationNotFound)
		assertError(t, e.write("PUT", e.owner.key, e.path("/%s/brand-profile", theirs), body), 404, sightline.CodeOrganizationNotFound)
		e.archiveOrganization(e.org)
		assertError(t, e.write("PUT", e.manager.key, path, body), 409, sightline.CodeProjectIsArchived)
	})
}
