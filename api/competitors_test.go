package api

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"github.com/sightline/sightline"
	"github.com/sightline/sightline/jobs"
	"github.com/sightline/sightline/olap/olaptest"
)

func TestCompetitorsLifecycle(t *testing.T) {
	t.Parallel()
	e := projectsSetup(t)
	project := e.f.project(e.org, "With rivals")
	base := e.path("/%s/competitors", project)

	created := e.expectStatus(e.write("POST", e.manager.key, base,
		`{"name": " Rival ", "websiteDomains": ["https://www.Rival.com/x", "rival.com"], "brandNames": ["Rival", "RIVAL", "Rival Pro"]}`),
		http.StatusCreated)
	want := map[string]any{"id": created["id"], "name": "Rival", "websiteDomains": []any{"rival.com"}, "brandNames": []any{"Rival", "Rival Pro"}}
	if !jsonEqual(t, created, want) {
		t.Fatalf("created = %v, want %v", created, want)
	}
	id := created["id"].(string)
	if v, err := uuid.Parse(id); err != nil || v.Version() != 7 {
		t.Fatalf("id %s is not a uuid v7", id)
	}
	if got := e.expectStatus(e.get(e.viewer.key, base+"/"+id), http.StatusOK); !jsonEqual(t, got, want) {
		t.Fatalf("read = %v", got)
	}

	replaced := e.expectStatus(e.write("PUT", e.manager.key, base+"/"+id,
		`{"name": "Rival Inc", "websiteDomains": ["rival.io"], "brandNames": ["Rival Inc"]}`), http.StatusOK)
	want = map[string]any{"id": id, "name": "Rival Inc", "websiteDomains": []any{"rival.io"}, "brandNames": []any{"Rival Inc"}}
	if !jsonEqual(t, replaced, want) {
		t.Fatalf("replaced = %v, want %v", replaced, want)
	}
	project2 := e.expectStatus(e.get(e.viewer.key, e.path("/%s", project)), http.StatusOK)
	if !jsonEqual(t, project2["competitors"], []any{want}) {
		t.Fatalf("project competitors = %v", project2["competitors"])
	}

	t.Run("delete answers the competitor as it was and starts the cascade", func(t *testing.T) {
		assertError(t, e.write("DELETE", e.manager.key, base+"/"+id, `{}`), 400, sightline.CodeBadRequest)
		deleted := e.expectStatus(e.write("DELETE", e.manager.key, base+"/"+id, ""), http.StatusOK)
		if !jsonEqual(t, deleted, want) {
			t.Fatalf("deleted = %v, want %v", deleted, want)
		}
		assertError(t, e.get(e.viewer.key, base+"/"+id), 404, sightline.CodeOrganizationNotFound)
		assertError(t, e.write("DELETE", e.manager.key, base+"/"+id, ""), 404, sightline.CodeOrganizationNotFound)

		ctx := context.Background()
		var rawArgs []byte
		if err := e.f.pool.QueryRow(ctx, `SELECT args FROM river_job WHERE kind = 'competitor_cascade'`).Scan(&rawArgs); err != nil {
			t.Fatalf("no cascade job enqueued: %v", err)
		}
		var args jobs.CompetitorCascadeArgs
		if err := json.Unmarshal(rawArgs, &args); err != nil {
			t.Fatal(err)
		}
		if args.CompetitorID.String() != id || args.ProjectID != project || args.OrganizationID != e.org {
			t.Fatalf("job args = %+v", args)
		}
		var dirty, createdAt *time.Time
		var pending int
		err := e.f.pool.QueryRow(ctx, `SELECT data_dirty_since, created_at, (SELECT count(*) FROM project_cascades WHERE project_id = p.id)
			FROM projects p WHERE id = $1`, project).Scan(&dirty, &createdAt, &pending)
		if err != nil {
			t.Fatal(err)
		}
		if dirty == nil || !dirty.Equal(*createdAt) || pending != 1 {
			t.Fatalf("data_dirty_since = %v (created %v), %d pending cascades", dirty, createdAt, pending)
		}
		// Run as a job enqueued long enough ago that no late pass can arrive.
		w := &jobs.CompetitorCascadeWorker{Pool: e.f.pool, ClickHouse: olaptest.NewConn(t)}
		job := &river.Job[jobs.CompetitorCascadeArgs]{JobRow: &rivertype.JobRow{CreatedAt: time.Now().Add(-time.Hour)}, Args: args}
		if err := w.Work(ctx, job); err != nil {
			t.Fatal(err)
		}
		if err := e.f.pool.QueryRow(ctx, `SELECT data_dirty_since FROM projects WHERE id = $1`, project).Scan(&dirty); err != nil || dirty != nil {
			t.Fatalf("data_dirty_since = %v after the cascade (%v)", dirty, err)
		}
	})
}

func TestCompetitorsListing(t *testing.T) {
	t.Parallel()
	e := projectsSetup(t)
	project := e.f.project(e.org, "Crowded")
	base := e.path("/%s/competitors", project)
	var names []string
	for _, name := range []string{"Zed", "=Formula", "alpha", "Mid"} {
		e.expectStatus(e.write("POST", e.manager.key, base,
			`{"name": "`+name+`", "websiteDomains": ["x.com"], "brandNames": ["X", "Y"]}`), http.StatusCreated)
		names = append(names, name)
	}
	rowNames := func(m map[string]any) []string {
		var out []string
		for _, row := range m["page"].([]any) {
			out = append(out, row.(map[string]any)["name"].(string))
		}
		return out
	}
	reversed := slices.Clone(names)
	slices.Reverse(reversed)
	tests := []struct {
		query string
		names []string
	}{
		{"", names},
		{"?sortOrder=desc", reversed},
		{"?limit=2&offset=1", names[1:3]},
		{"?offset=4", nil},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			m := e.expectStatus(e.get(e.readOnly.key, base+tt.query), http.StatusOK)
			if got := rowNames(m); !slices.Equal(got, tt.names) {
				t.Errorf("page = %q, want %q", got, tt.names)
			}
			if m["total"] != 4.0 {
				t.Errorf("total = %v", m["total"])
			}
		})
	}
	for _, query := range []string{"?sortBy=name", "?search=a"} {
		t.Run("refuses "+query, func(t *testing.T) {
			m := assertError(t, e.get(e.viewer.key, base+query), 400, sightline.CodeValidation)
			field, _, _ := strings.Cut(strings.TrimPrefix(query, "?"), "=")
			if got := detailCodesOf(t, m)[field]; !slices.Equal(got, []string{"unknown_field"}) {
				t.Errorf("details = %v", m["details"])
			}
		})
	}
	assertError(t, e.get(e.viewer.key, base+"?limit=101"), 400, sightline.CodeValidation)
	t.Run("csv", func(t *testing.T) {
		r := e.f.do(call{method: "GET", path: base + "?limit=2", key: e.viewer.key, header: map[string]string{"Accept": "text/csv"}})
		if r.status != 200 || !strings.HasPrefix(r.header.Get("Content-Type"), "text/csv") {
			t.Fatalf("%d %s", r.status, r.body)
		}
		records, err := csv.NewReader(strings.NewReader(string(r.body))).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		if strings.Join(records[0], ",") != "id,name,websiteDomains,brandNames" || len(records) != 3 ||
			records[1][1] != "Zed" || records[2][1] != "'=Formula" || records[2][3] != "X; Y" {
			t.Errorf("csv = %q", records)
		}
	})
	t.Run("a project without a brand profile has none", func(t *testing.T) {
		bare := e.bareProject(e.org)
		m := e.expectStatus(e.get(e.viewer.key, e.path("/%s/competitors", bare)), http.StatusOK)
		if len(m["page"].([]any)) != 0 || m["total"] != 0.0 {
			t.Errorf("listing = %v", m)
		}
	})
}

func TestCompetitorsRefusals(t *testing.T) {
	t.Parallel()
	e := projectsSetup(t)
	project := e.f.project(e.org, "Mine")
	theirs := e.f.project(e.otherOrg, "Theirs")
	bare := e.bareProject(e.org)
	body := `{"name": "C", "websiteDomains": ["c.com"], "brandNames": ["C"]}`
	mine := e.expectStatus(e.write("POST", e.manager.key, e.path("/%s/competitors", project), body), http.StatusCreated)["id"].(string)
	theirCompetitor := e.expectStatus(e.write("POST", e.owner.key,
		"/api/v1/organizations/"+e.otherOrg.String()+"/projects/"+theirs.String()+"/competitors", body), http.StatusCreated)["id"].(string)
	one := e.path("/%s/competitors/%s", project, mine)

	tests := []struct {
		name, method, key, path, body string
		status                        int
		code                          sightline.Code
	}{
		{"viewer cannot add", "POST", e.viewer.key, e.path("/%s/competitors", project), body, 403, sightline.CodeCapabilityRequired},
		{"read-only key cannot replace", "PUT", e.readOnly.key, one, body, 403, sightline.CodeCapabilityRequired},
		{"viewer cannot delete", "DELETE", e.viewer.key, one, "", 403, sightline.CodeCapabilityRequired},
		{"another organization's project", "GET", e.owner.key, e.path("/%s/competitors", theirs), "", 404, sightline.CodeOrganizationNotFound},
		{"another organization's project, write", "POST", e.owner.key, e.path("/%s/competitors", theirs), body, 404, sightline.CodeOrganizationNotFound},
		{"another project's competitor", "GET", e.owner.key, e.path("/%s/competitors/%s", project, theirCompetitor), "", 404, sightline.CodeOrganizationNotFound},
		{"another project's competitor, replace", "PUT", e.owner.key, e.path("/%s/competitors/%s", project, theirCompetitor), body, 404, sightline.CodeOrganizationNotFound},
		{"another project's competitor, delete", "DELETE", e.owner.key, e.path("/%s/competitors/%s", project, theirCompetitor), "", 404, sightline.CodeOrganizationNotFound},
		{"malformed competitor id", "GET", e.viewer.key, e.path("/%s/competitors/123", project), "", 404, sightline.CodeOrganizationNotFound},
		{"malformed project id", "GET", e.viewer.key, e.path("/123/competitors/%s", mine), "", 404, sightline.CodeOrganizationNotFound},
		{"add without a brand profile", "POST", e.manager.key, e.path("/%s/competitors", bare), body, 404, sightline.CodeOrganizationNotFound},
		{"read without a brand profile", "GET", e.viewer.key, e.path("/%s/competitors/%s", bare, mine), "", 404, sightline.CodeOrganizationNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var r response
			if tt.method == "GET" {
				r = e.get(tt.key, tt.path)
			} else {
				r = e.write(tt.method, tt.key, tt.path, tt.body)
			}
			assertError(t, r, tt.status, tt.code)
		})
	}

	t.Run("validation", func(t *testing.T) {
		cases := []struct {
			body    string
			details map[string][]string
		}{
			{`{}`, map[string][]string{"name": {"missing_field"}, "websiteDomains": {"missing_field"}, "brandNames": {"missing_field"}}},
			{`{"name": "` + strings.Repeat("n", 201) + `", "websiteDomains": ["c.com", "http://"], "brandNames": ["a\u0007"],
				"id": "x", "description": "d", "brandProfileId": "b"}`, map[string][]string{
				"name": {"out_of_range"}, "websiteDomains[1]": {"invalid_value"}, "brandNames[0]": {"invalid_value"},
				"id": {"unknown_field"}, "description": {"unknown_field"}, "brandProfileId": {"unknown_field"}}},
			{`{"name": "C", "websiteDomains": [], "brandNames": []}`, map[string][]string{
				"websiteDomains": {"out_of_range"}, "brandNames": {"out_of_range"}}},
		}
		for _, c := range cases {
			for _, method := range []string{"POST", "PUT"} {
				path := e.path("/%s/competitors", project)
				if method == "PUT" {
					path = one
				}
				m := assertError(t, e.write(method, e.manager.key, path, c.body), 400, sightline.CodeValidation)
				if got := detailCodesOf(t, m); !jsonEqual(t, got, c.details) {
					t.Errorf("%s %s: details %v, want %v", method, c.body, got, c.details)
				}
			}
		}
	})

	t.Run("archived states", func(t *testing.T) {
		e.expectStatus(e.write("POST", e.manager.key, e.path("/%s/archive", project), ""), http.StatusOK)
		assertError(t, e.write("POST", e.manager.key, e.path("/%s/competitors", project), body), 409, sightline.CodeProjectIsArchived)
		assertError(t, e.write("PUT", e.manager.key, one, body), 409, sightline.CodeProjectIsArchived)
		assertError(t, e.write("DELETE", e.manager.key, one, ""), 409, sightline.CodeProjectIsArchived)
		e.expectStatus(e.get(e.viewer.key, one), http.StatusOK)

		e.archiveOrganization(e.otherOrg)
		theirs := "/api/v1/organizations/" + e.otherOrg.String() + "/projects/" + theirs.String() + "/competitors"
		assertError(t, e.write("POST", e.owner.key, theirs, body), 409, sightline.CodeProjectIsArchived)
		assertError(t, e.write("DELETE", e.owner.key, theirs+"/"+theirCompetitor, ""), 409, sightline.CodeProjectIsArchived)
	})
}
