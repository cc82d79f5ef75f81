package api

import (
	"context"
	"encoding/csv"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/google/uuid"

	"github.com/sightline/sightline"
)

// clustersNames returns the names of a listing's page.
func clustersNames(m map[string]any) []string {
	var out []string
	for _, row := range m["page"].([]any) {
		out = append(out, row.(map[string]any)["name"].(string))
	}
	return out
}

func TestClustersLifecycle(t *testing.T) {
	t.Parallel()
	e := projectsSetup(t)
	project := e.f.project(e.org, "Clustered")
	base := e.path("/%s/clusters", project)

	created := e.expectStatus(e.write("POST", e.manager.key, base, `{"name": "  Running SHOES "}`), http.StatusCreated)
	id := created["id"].(string)
	if created["name"] != "running shoes" || len(created) != 2 {
		t.Fatalf("created = %v", created)
	}
	if v, err := uuid.Parse(id); err != nil || v.Version() != 7 {
		t.Fatalf("id %s is not a uuid v7", id)
	}
	if got := e.expectStatus(e.get(e.viewer.key, base+"/"+id), http.StatusOK); !jsonEqual(t, got, created) {
		t.Fatalf("read = %v", got)
	}
	m := assertError(t, e.write("POST", e.manager.key, base, `{"name": "running shoes"}`), 409, sightline.CodeQueryClusterNameExists)
	if m["details"] != nil {
		t.Errorf("conflict carries details: %v", m)
	}

	other := e.expectStatus(e.write("POST", e.manager.key, base, `{"name": "Trail"}`), http.StatusCreated)
	t.Run("rename", func(t *testing.T) {
		same := e.expectStatus(e.write("PATCH", e.manager.key, base+"/"+id, `{"name": "RUNNING shoes "}`), http.StatusOK)
		if !jsonEqual(t, same, created) {
			t.Errorf("same-name rename = %v", same)
		}
		assertError(t, e.write("PATCH", e.manager.key, base+"/"+id, `{"name": " trail"}`), 409, sightline.CodeQueryClusterNameExists)
		renamed := e.expectStatus(e.write("PATCH", e.manager.key, base+"/"+id, `{"name": "Road Shoes"}`), http.StatusOK)
		if renamed["id"] != id || renamed["name"] != "road shoes" {
			t.Errorf("renamed = %v", renamed)
		}
	})

	t.Run("delete unassigns the members only", func(t *testing.T) {
		ctx := context.Background()
		queryID := uuid.Must(uuid.NewV7())
		e.exec(`INSERT INTO tracked_queries (id, project_id, query_text, engine, country, check_frequency, n_passes)
			VALUES ($1, $2, 'best road shoes', 'chatgpt', 'US', 'daily', 1)`, queryID, project)
		e.exec(`INSERT INTO tracked_query_clusters (project_id, tracked_query_id, cluster_id) VALUES ($1, $2, $3), ($1, $2, $4)`,
			project, queryID, id, other["id"])
		assertError(t, e.write("DELETE", e.manager.key, base+"/"+id, `{}`), 400, sightline.CodeBadRequest)
		deleted := e.expectStatus(e.write("DELETE", e.manager.key, base+"/"+id, ""), http.StatusOK)
		if deleted["id"] != id || deleted["name"] != "road shoes" {
			t.Fatalf("deleted = %v", deleted)
		}
		var memberships, queries int
		err := e.f.pool.QueryRow(ctx, `SELECT (SELECT count(*) FROM tracked_query_clusters WHERE tracked_query_id = $1),
			(SELECT count(*) FROM tracked_queries WHERE id = $1)`, queryID).Scan(&memberships, &queries)
		if err != nil || memberships != 1 || queries != 1 {
			t.Fatalf("after delete: %d memberships, %d queries (%v); want the other cluster's membership and the query", memberships, queries, err)
		}
		assertError(t, e.get(e.viewer.key, base+"/"+id), 404, sightline.CodeOrganizationNotFound)
		assertError(t, e.write("DELETE", e.manager.key, base+"/"+id, ""), 404, sightline.CodeOrganizationNotFound)
		recreated := e.expectStatus(e.write("POST", e.manager.key, base, `{"name": "road shoes"}`), http.StatusCreated)
		if recreated["id"] == id {
			t.Errorf("recreating the name reused the id")
		}
	})
}

func TestClustersListing(t *testing.T) {
	t.Parallel()
	e := projectsSetup(t)
	project := e.f.project(e.org, "Many clusters")
	base := e.path("/%s/clusters", project)
	for _, name := range []string{"delta", "=sum", "alpha", "charlie", "bravo"} {
		e.expectStatus(e.write("POST", e.manager.key, base, `{"name": "`+name+`"}`), http.StatusCreated)
	}
	e.f.project(e.otherOrg, "Elsewhere")
	tests := []struct {
		query string
		names []string
	}{
		{"", []string{"=sum", "alpha", "bravo", "charlie", "delta"}},
		{"?sortOrder=desc&limit=2", []string{"delta", "charlie"}},
		{"?limit=2&offset=2", []string{"bravo", "charlie"}},
		{"?offset=5", nil},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			m := e.expectStatus(e.get(e.readOnly.key, base+tt.query), http.StatusOK)
			if got := clustersNames(m); !slices.Equal(got, tt.names) {
				t.Errorf("page = %q, want %q", got, tt.names)
			}
			if m["total"] != 5.0 {
				t.Errorf("total = %v", m["total"])
			}
		})
	}
	for _, query := range []string{"?sortBy=name", "?search=a", "?limit=101", "?sortOrder=sideways"} {
		assertError(t, e.get(e.viewer.key, base+query), 400, sightline.CodeValidation)
	}
	t.Run("csv", func(t *testing.T) {
		r := e.f.do(call{method: "GET", path: base + "?limit=2", key: e.viewer.key, header: map[string]string{"Accept": "text/csv"}})
		records, err := csv.NewReader(strings.NewReader(string(r.body))).ReadAll()
		if err != nil || r.status != 200 {
			t.Fatalf("%d %v %s", r.status, err, r.body)
		}
		if strings.Join(records[0], ",") != "id,name" || len(records) != 3 || records[1][1] != "'=sum" || records[2][1] != "alpha" {
			t.Errorf("csv = %q", records)
		}
	})
}

func TestClustersBatch(t *testing.T) {
	t.Parallel()
	e := projectsSetup(t)
	project := e.f.project(e.org, "Batch")
	base := e.path("/%s/clusters", project)
	taken := e.expectStatus(e.write("POST", e.manager.key, base, `{"name": "taken"}`), http.StatusCreated)

	m := e.expectStatus(e.write("POST", e.manager.key, base+"/batch",
		`{"names": ["  New One", "TAKEN", "new one", "second", "Taken "]}`), http.StatusOK)
	successful, failed := m["successful"].([]any), m["failed"].([]any)
	if len(successful) != 2 || len(failed) != 1 {
		t.Fatalf("answer = %v", m)
	}
	if s := successful[0].(map[string]any); s["name"] != "new one" || s["id"] == nil {
		t.Errorf("successful[0] = %v", s)
	}
	if s := successful[1].(map[string]any); s["name"] != "second" {
		t.Errorf("successful[1] = %v", s)
	}
	want := map[string]any{"id": nil, "name": "taken", "errorCode": "query_cluster_name_already_exists",
		"errorMessage": failed[0].(map[string]any)["errorMessage"]}
	if !jsonEqual(t, failed[0], want) || want["errorMessage"] == "" {
		t.Errorf("failed[0] = %v", failed[0])
	}
	list := e.expectStatus(e.get(e.viewer.key, base), http.StatusOK)
	if got := clustersNames(list); !slices.Equal(got, []string{"new one", "second", "taken"}) {
		t.Errorf("clusters = %q", got)
	}
	if list["page"].([]any)[2].(map[string]any)["id"] != taken["id"] {
		t.Errorf("the taken cluster changed")
	}

	t.Run("everything taken is still 200", func(t *testing.T) {
		m := e.expectStatus(e.write("POST", e.manager.key, base+"/batch", `{"names": ["second", "taken"]}`), http.StatusOK)
		if len(m["successful"].([]any)) != 0 || len(m["failed"].([]any)) != 2 {
			t.Errorf("answer = %v", m)
		}
	})
	t.Run("validation", func(t *testing.T) {
		hundredAndOne := make([]string, 101)
		for i := range hundredAndOne {
			hundredAndOne[i] = fmt.Sprintf("%q", fmt.Sprintf("n%d", i))
		}
		cases := []struct {
			body    string
			details map[string][]string
		}{
			{`{}`, map[string][]string{"names": {"missing_field"}}},
			{`{"names": []}`, map[string][]string{"names": {"out_of_range"}}},
			{`{"names": [` + strings.Join(hundredAndOne, ",") + `]}`, map[string][]string{"names": {"out_of_range"}}},
			{`{"names": ["ok", "  ", "` + strings.Repeat("x", 201) + `", 7]}`, map[string][]string{
				"names[1]": {"out_of_range"}, "names[2]": {"out_of_range"}, "names[3]": {"invalid_type"}}},
			{`{"names": ["ok"], "ids": []}`, map[string][]string{"ids": {"unknown_field"}}},
		}
		for _, c := range cases {
			m := assertError(t, e.write("POST", e.manager.key, base+"/batch", c.body), 400, sightline.CodeValidation)
			if got := detailCodesOf(t, m); !jsonEqual(t, got, c.details) {
				t.Errorf("%.80s: details %v, want %v", c.body, got, c.details)
			}
		}
	})
	t.Run("a hundred names are accepted", func(t *testing.T) {
		names := make([]string, 100)
		for i := range names {
			names[i] = fmt.Sprintf("%q", fmt.Sprintf("bulk %03d", i))
		}
		m := e.expectStatus(e.write("POST", e.manager.key, base+"/batch", `{"names": [`+strings.Join(names, ",")+`]}`), http.StatusOK)
		if len(m["successful"].([]any)) != 100 {
			t.Errorf("%d created", len(m["successful"].([]any)))
		}
	})
}

func TestClustersRefusals(t *testing.T) {
	t.Parallel()
	e := projectsSetup(t)
	project := e.f.project(e.org, "Mine")
	theirs := e.f.project(e.otherOrg, "Theirs")
	sibling := e.f.project(e.org, "Sibling")
	mine := e.expectStatus(e.write("POST", e.manager.key, e.path("/%s/clusters", project), `{"name": "mine"}`), http.StatusCreated)["id"].(string)
	siblings := e.expectStatus(e.write("POST", e.manager.key, e.path("/%s/clusters", sibling), `{"name": "sib"}`), http.StatusCreated)["id"].(string)
	theirCluster := e.expectStatus(e.write("POST", e.owner.key,
		"/api/v1/organizations/"+e.otherOrg.String()+"/projects/"+theirs.String()+"/clusters", `{"name": "theirs"}`), http.StatusCreated)["id"].(string)
	one := e.path("/%s/clusters/%s", project, mine)

	tests := []struct {
		name, method, key, path, body string
		status                        int
		code                          sightline.Code
	}{
		{"viewer cannot create", "POST", e.viewer.key, e.path("/%s/clusters", project), `{"name": "v"}`, 403, sightline.CodeCapabilityRequired},
		{"read-only key cannot batch", "POST", e.readOnly.key, e.path("/%s/clusters/batch", project), `{"names": ["v"]}`, 403, sightline.CodeCapabilityRequired},
		{"viewer cannot rename", "PATCH", e.viewer.key, one, `{"name": "v"}`, 403, sightline.CodeCapabilityRequired},
		{"read-only key cannot delete", "DELETE", e.readOnly.key, one, "", 403, sightline.CodeCapabilityRequired},
		{"another organization's project", "GET", e.owner.key, e.path("/%s/clusters", theirs), "", 404, sightline.CodeOrganizationNotFound},
		{"another organization's project, create", "POST", e.owner.key, e.path("/%s/clusters", theirs), `{"name": "x"}`, 404, sightline.CodeOrganizationNotFound},
		{"another organization's cluster", "GET", e.owner.key, e.path("/%s/clusters/%s", project, theirCluster), "", 404, sightline.CodeOrganizationNotFound},
		{"another project's cluster", "GET", e.viewer.key, e.path("/%s/clusters/%s", project, siblings), "", 404, sightline.CodeOrganizationNotFound},
		{"another project's cluster, rename", "PATCH", e.manager.key, e.path("/%s/clusters/%s", project, siblings), `{"name": "x"}`, 404, sightline.CodeOrganizationNotFound},
		{"another project's cluster, delete", "DELETE", e.manager.key, e.path("/%s/clusters/%s", project, siblings), "", 404, sightline.CodeOrganizationNotFound},
		{"malformed cluster id", "GET", e.viewer.key, e.path("/%s/clusters/x1", project), "", 404, sightline.CodeOrganizationNotFound},
		{"malformed cluster id, delete", "DELETE", e.manager.key, e.path("/%s/clusters/x1", project), "", 404, sightline.CodeOrganizationNotFound},
		{"malformed project id", "GET", e.viewer.key, e.path("/x1/clusters/%s", mine), "", 404, sightline.CodeOrganizationNotFound},
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
		cases := map[string]map[string][]string{
			`{}`:                       {"name": {"missing_field"}},
			`{"name": " "}`:            {"name": {"out_of_range"}},
			`{"name": "a\tb"}`:         {"name": {"invalid_value"}},
			`{"name": ["x"]}`:          {"name": {"invalid_type"}},
			`{"name": "x", "id": "y"}`: {"id": {"unknown_field"}},
			`{"name": "` + strings.Repeat("é", 201) + `"}`: {"name": {"out_of_range"}},
		}
		for body, want := range cases {
			for _, w := range []struct{ method, path string }{{"POST", e.path("/%s/clusters", project)}, {"PATCH", one}} {
				m := assertError(t, e.write(w.method, e.manager.key, w.path, body), 400, sightline.CodeValidation)
				if got := detailCodesOf(t, m); !jsonEqual(t, got, want) {
					t.Errorf("%s %.40s: details %v, want %v", w.method, body, got, want)
				}
			}
		}
		e.expectStatus(e.write("POST", e.manager.key, e.path("/%s/clusters", project), `{"name": "`+strings.Repeat("É", 200)+`"}`), http.StatusCreated)
	})

	t.Run("archived states", func(t *testing.T) {
		e.expectStatus(e.write("POST", e.manager.key, e.path("/%s/archive", project), ""), http.StatusOK)
		writes := []struct{ method, path, body string }{
			{"POST", e.path("/%s/clusters", project), `{"name": "new"}`},
			{"POST", e.path("/%s/clusters/batch", project), `{"names": ["new"]}`},
			{"PATCH", one, `{"name": "new"}`},
			{"DELETE", one, ""},
		}
		for _, w := range writes {
			assertError(t, e.write(w.method, e.manager.key, w.path, w.body), 409, sightline.CodeProjectIsArchived)
		}
		e.expectStatus(e.get(e.viewer.key, one), http.StatusOK)

		e.archiveOrganization(e.org)
		assertError(t, e.write("POST", e.manager.key, e.path("/%s/clusters", sibling), `{"name": "new"}`), 409, sightline.CodeProjectIsArchived)
		assertError(t, e.write("DELETE", e.manager.key, e.path("/%s/clusters/%s", sibling, siblings), ""), 409, sightline.CodeProjectIsArchived)
	})
}

func TestClustersConcurrentCreateOfOneName(t *testing.T) {
	t.Parallel()
	e := projectsSetup(t)
	project := e.f.project(e.org, "Race")
	base := e.path("/%s/clusters", project)
	for round := range 5 {
		name := fmt.Sprintf("Contested %d", round)
		var wg sync.WaitGroup
		results := make([]response, 4)
		for i := range results {
			wg.Go(func() {
				results[i] = e.write("POST", e.manager.key, base, fmt.Sprintf(`{"name": "%s"}`, strings.ToUpper(name)))
			})
		}
		wg.Wait()
		created := 0
		for _, r := range results {
			switch r.status {
			case http.StatusCreated:
				created++
			case http.StatusConflict:
				assertError(t, r, 409, sightline.CodeQueryClusterNameExists)
			default:
				t.Fatalf("concurrent create answered %d: %s", r.status, r.body)
			}
		}
		if created != 1 {
			t.Fatalf("round %d: %d creates succeeded, want 1", round, created)
		}
	}
	var n int
	if err := e.f.pool.QueryRow(context.Background(), `SELECT count(*) FROM query_clusters WHERE project_id = $1`, project).Scan(&n); err != nil || n != 5 {
		t.Fatalf("%d clusters stored (%v), want 5", n, err)
	}

	t.Run("concurrent batches", func(t *testing.T) {
		var wg sync.WaitGroup
		results := make([]map[string]any, 6)
		for i := range results {
			wg.Go(func() {
				names := []string{`"x1"`, `"x2"`, `"x3"`, `"x4"`}
				if i%2 == 1 {
					slices.Reverse(names)
				}
				r := e.write("POST", e.manager.key, base+"/batch", `{"names": [`+strings.Join(names, ",")+`]}`)
				if r.status != 200 {
					t.Errorf("batch answered %d: %s", r.status, r.body)
					return
				}
				results[i] = r.json(t)
			})
		}
		wg.Wait()
		created := 0
		for _, m := range results {
			if m != nil {
				created += len(m["successful"].([]any))
			}
		}
		if created != 4 {
			t.Fatalf("%d names created across concurrent batches, want 4", created)
		}
	})
}
