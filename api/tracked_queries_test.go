package api

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"github.com/sightline/sightline"
	"github.com/sightline/sightline/jobs"
	"github.com/sightline/sightline/olap/olaptest"
)

// trackedFixture is an API with an owner, an organization and a project to
// track queries in.
type trackedFixture struct {
	*fixture
	owner   member
	org     uuid.UUID
	project uuid.UUID
}

func trackedSetup(t *testing.T) *trackedFixture {
	t.Helper()
	f := setup(t)
	owner, org := f.owner()
	return &trackedFixture{fixture: f, owner: owner, org: org, project: f.project(org, "Tracking")}
}

// trackedPath is the tracked-queries base of a project, with suffix.
func trackedPath(org, project uuid.UUID, suffix string) string {
	return fmt.Sprintf("/api/v1/organizations/%s/projects/%s/tracked-queries%s", org, project, suffix)
}

func (tf *trackedFixture) path(suffix string) string { return trackedPath(tf.org, tf.project, suffix) }

// write sends a write with a fresh Idempotency-Key.
func (tf *trackedFixture) write(method, path, key, body string) response {
	tf.t.Helper()
	return tf.do(call{method: method, path: path, key: key, body: body,
		header: map[string]string{"Idempotency-Key": uuid.NewString()}})
}

func (tf *trackedFixture) get(path string) response {
	tf.t.Helper()
	return tf.do(call{method: http.MethodGet, path: path, key: tf.owner.key})
}

// cluster inserts a cluster into a project.
func (tf *trackedFixture) cluster(project uuid.UUID, name string) uuid.UUID {
	tf.t.Helper()
	id := uuid.Must(uuid.NewV7())
	if _, err := tf.pool.Exec(context.Background(),
		`INSERT INTO query_clusters (id, project_id, name) VALUES ($1, $2, $3)`, id, project, name); err != nil {
		tf.t.Fatal(err)
	}
	return id
}

// refresh runs the search projection's refresh job for a project.
func (tf *trackedFixture) refresh(project uuid.UUID) {
	tf.t.Helper()
	w := &jobs.RefreshTrackedQuerySearchWorker{Pool: tf.pool, Logger: slog.New(slog.DiscardHandler)}
	job := &river.Job[jobs.RefreshTrackedQuerySearchArgs]{Args: jobs.RefreshTrackedQuerySearchArgs{ProjectID: project}}
	if err := w.Work(context.Background(), job); err != nil {
		tf.t.Fatal(err)
	}
}

type trackedCreateResult struct {
	Successful []struct {
		ID        uuid.UUID `json:"id"`
		QueryText string    `json:"queryText"`
		Engine    string    `json:"engine"`
		Country   string    `json:"country"`
	} `json:"successful"`
	Failed []struct {
		ID           *uuid.UUID `json:"id"`
		QueryText    string     `json:"queryText"`
		Engine       string     `json:"engine"`
		Country      string     `json:"country"`
		ErrorCode    string     `json:"errorCode"`
		ErrorMessage string     `json:"errorMessage"`
		RepeatsIndex *int       `json:"repeatsIndex"`
	} `json:"failed"`
}

type trackedRecord struct {
	ID              uuid.UUID   `json:"id"`
	ProjectID       uuid.UUID   `json:"projectId"`
	QueryText       string      `json:"queryText"`
	Engine          string      `json:"engine"`
	Country         string      `json:"country"`
	Locale          *string     `json:"locale"`
	CheckFrequency  string      `json:"checkFrequency"`
	NPasses         int         `json:"nPasses"`
	Status          string      `json:"status"`
	QueryClusterIDs []uuid.UUID `json:"queryClusterIds"`
	LastCheckedAt   *string     `json:"lastCheckedAt"`
	CreatedAt       string      `json:"createdAt"`
}

type trackedBatchResult struct {
	Successful []struct {
		ID uuid.UUID `json:"id"`
	} `json:"successful"`
	Failed []struct {
		ID           string `json:"id"`
		ErrorCode    string `json:"errorCode"`
		ErrorMessage string `json:"errorMessage"`
	} `json:"failed"`
}

// trackedDecode decodes a 200 answer into T.
func trackedDecode[T any](t *testing.T, r response) T {
	t.Helper()
	if r.status != http.StatusOK {
		t.Fatalf("status %d, want 200: %s", r.status, r.body)
	}
	var out T
	if err := json.Unmarshal(r.body, &out); err != nil {
		t.Fatalf("decoding %s: %v", r.body, err)
	}
	return out
}

// create tracks queries in the fixture's project and returns the answer.
func (tf *trackedFixture) create(body string) trackedCreateResult {
	tf.t.Helper()
	return trackedDecode[trackedCreateResult](tf.t, tf.write(http.MethodPost, tf.path(""), tf.owner.key, body))
}

// createOne tracks one query and returns its id.
func (tf *trackedFixture) createOne(text, engine, country string) uuid.UUID {
	tf.t.Helper()
	res := tf.create(fmt.Sprintf(`{"queryTexts":[%q],"engines":[%q],"countries":[%q],"checkFrequency":"daily","nPasses":2,"queryClusterIds":[]}`,
		text, engine, country))
	if len(res.Successful) != 1 {
		tf.t.Fatalf("creating %q: %+v", text, res)
	}
	return res.Successful[0].ID
}

func TestTrackedQueriesCreateAndRead(t *testing.T) {
	t.Parallel()
	tf := trackedSetup(t)
	c1 := tf.cluster(tf.project, "crm")
	res := tf.create(fmt.Sprintf(`{"queryTexts":["1.  Best   CRM","- CRM Pricing"],"engines":["chatgpt","google_serp"],
		"countries":["us"],"locale":"EN","checkFrequency":"weekly","nPasses":3,"queryClusterIds":[%q,%q]}`, c1, c1))
	if len(res.Successful) != 4 || len(res.Failed) != 0 {
		t.Fatalf("%+v", res)
	}
	want := [][3]string{{"best crm", "chatgpt", "US"}, {"best crm", "google_serp", "US"},
		{"crm pricing", "chatgpt", "US"}, {"crm pricing", "google_serp", "US"}}
	for i, s := range res.Successful {
		if [3]string{s.QueryText, s.Engine, s.Country} != want[i] {
			t.Fatalf("item %d = %+v, want %v", i, s, want[i])
		}
	}
	for i, s := range res.Successful {
		q := trackedDecode[trackedRecord](t, tf.get(tf.path("/"+s.ID.String())))
		wantPasses := 3
		if s.Engine == "google_serp" {
			wantPasses = 1
		}
		if q.ID != s.ID || q.ProjectID != tf.project || q.QueryText != want[i][0] || q.Country != "US" ||
			q.Locale == nil || *q.Locale != "en" || q.CheckFrequency != "weekly" || q.NPasses != wantPasses ||
			q.Status != "active" || len(q.QueryClusterIDs) != 1 || q.QueryClusterIDs[0] != c1 ||
			q.LastCheckedAt != nil || q.CreatedAt == "" {
			t.Fatalf("record %+v", q)
		}
	}
	// The listing reads the projection: empty until the refresh has run.
	list := tf.get(tf.path(""))
	if m := list.json(t); m["total"].(float64) != 0 {
		t.Fatalf("listing before refresh: %s", list.body)
	}
	tf.refresh(tf.project)
	if m := tf.get(tf.path("")).json(t); m["total"].(float64) != 4 {
		t.Fatalf("listing after refresh: %v", m)
	}
}

func TestTrackedQueriesCreateItemFailures(t *testing.T) {
	t.Parallel()
	tf := trackedSetup(t)
	c1, c2 := tf.cluster(tf.project, "one"), tf.cluster(tf.project, "two")
	existing := tf.createOne("best crm", "perplexity", "DE")
	res := tf.create(fmt.Sprintf(`{"queryTexts":["Best CRM","• best   crm"],"engines":["perplexity","google_ai_mode"],
		"countries":["DE","CN"],"checkFrequency":"monthly","nPasses":1,"queryClusterIds":[%q,%q]}`, c1, c2))
	// Combinations: 0 perplexity DE, 1 perplexity CN, 2 ai_mode DE, 3 ai_mode CN, then 4..7 repeat 0..3,
	// each naming queryTexts entry 0, the text they repeat.
	if len(res.Successful) != 2 || len(res.Failed) != 6 {
		t.Fatalf("%+v", res)
	}
	created := map[string]uuid.UUID{}
	for _, s := range res.Successful {
		created[s.Engine+" "+s.Country] = s.ID
	}
	if len(created) != 2 || created["perplexity CN"] == uuid.Nil || created["google_ai_mode DE"] == uuid.Nil {
		t.Fatalf("created %v", created)
	}
	type failure struct {
		id      *uuid.UUID
		code    string
		repeats *int
	}
	idx := func(i int) *int { return &i }
	wantFailed := []failure{
		{&existing, "tracked_query_already_exists", nil},
		{nil, "engine_not_available_in_country", nil},
		{&existing, "duplicate_combination_in_request", idx(0)},
		{ptr(created["perplexity CN"]), "duplicate_combination_in_request", idx(0)},
		{ptr(created["google_ai_mode DE"]), "duplicate_combination_in_request", idx(0)},
		{nil, "duplicate_combination_in_request", idx(0)},
	}
	for i, f := range res.Failed {
		w := wantFailed[i]
		if f.ErrorCode != w.code || f.ErrorMessage == "" || f.QueryText != "best crm" ||
			(f.ID == nil) != (w.id == nil) || (f.ID != nil && *f.ID != *w.id) ||
			(f.RepeatsIndex == nil) != (w.repeats == nil) || (f.RepeatsIndex != nil && *f.RepeatsIndex != *w.repeats) {
			t.Fatalf("failed[%d] = %+v, want %+v", i, f, w)
		}
	}
	// The existing query kept its settings and gained the request's clusters.
	q := trackedDecode[trackedRecord](t, tf.get(tf.path("/"+existing.String())))
	if q.NPasses != 2 || q.CheckFrequency != "daily" || len(q.QueryClusterIDs) != 2 {
		t.Fatalf("existing query %+v", q)
	}
	// Texts that normalise equal collide across requests too.
	again := tf.create(`{"queryTexts":["12) BEST\tCRM"],"engines":["perplexity"],"countries":["de"],"checkFrequency":"daily","nPasses":1,"queryClusterIds":[]}`)
	if len(again.Successful) != 0 || len(again.Failed) != 1 || again.Failed[0].ErrorCode != "tracked_query_already_exists" ||
		*again.Failed[0].ID != existing {
		t.Fatalf("%+v", again)
	}
	var n int
	tf.pool.QueryRow(context.Background(), `SELECT count(*) FROM tracked_queries WHERE project_id = $1`, tf.project).Scan(&n)
	if n != 3 {
		t.Fatalf("%d tracked queries, want 3", n)
	}
}

func ptr[T any](v T) *T { return &v }

func TestTrackedQueriesCreateValidation(t *testing.T) {
	t.Parallel()
	tf := trackedSetup(t)
	valid := map[string]any{"queryTexts": []string{"crm"}, "engines": []string{"chatgpt"}, "countries": []string{"US"},
		"checkFrequency": "daily", "nPasses": 1, "queryClusterIds": []string{}}
	with := func(changes map[string]any) string {
		m := map[string]any{}
		for k, v := range valid {
			m[k] = v
		}
		for k, v := range changes {
			if v == nil {
				delete(m, k)
			} else {
				m[k] = v
			}
		}
		b, _ := json.Marshal(m)
		return string(b)
	}
	texts := func(n int) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = fmt.Sprintf("q%d", i)
		}
		return out
	}
	cases := []struct {
		name string
		body string
		want map[string]string
	}{
		{"missing fields", `{}`, map[string]string{"queryTexts": "missing_field", "engines": "missing_field",
			"countries": "missing_field", "checkFrequency": "missing_field", "nPasses": "missing_field",
			"queryClusterIds": "missing_field"}},
		{"empty lists", with(map[string]any{"queryTexts": []string{}, "engines": []string{}, "countries": []string{}}),
			map[string]string{"queryTexts": "out_of_range", "engines": "out_of_range", "countries": "out_of_range"}},
		{"unknown engine", with(map[string]any{"engines": []string{"bing"}}), map[string]string{"engines[0]": "invalid_value"}},
		{"unknown country", with(map[string]any{"countries": []string{"US", "XX"}}),
			map[string]string{"countries[1]": "invalid_value"}},
		{"country not of 2 characters", with(map[string]any{"countries": []string{"USA", "U", "US"}}),
			map[string]string{"countries[0]": "out_of_range", "countries[1]": "out_of_range"}},
		{"unknown locale", with(map[string]any{"locale": "xx"}), map[string]string{"locale": "invalid_value"}},
		{"locale not of 2 characters", with(map[string]any{"locale": "eng"}), map[string]string{"locale": "out_of_range"}},
		{"passes out of range", with(map[string]any{"nPasses": 11}), map[string]string{"nPasses": "out_of_range"}},
		{"bad frequency", with(map[string]any{"checkFrequency": "hourly"}), map[string]string{"checkFrequency": "invalid_value"}},
		{"text empty once normalised", with(map[string]any{"queryTexts": []string{"crm", " 1. - "}}),
			map[string]string{"queryTexts[1]": "invalid_value"}},
		{"text too long", with(map[string]any{"queryTexts": []string{fmt.Sprintf("%0501d", 0)}}),
			map[string]string{"queryTexts[0]": "out_of_range"}},
		{"too many combinations", with(map[string]any{"queryTexts": texts(51), "countries": []string{"US", "DE"}}),
			map[string]string{"body": "out_of_range"}},
		{"caller-supplied id", with(map[string]any{"id": uuid.NewString()}), map[string]string{"id": "unknown_field"}},
		{"malformed cluster id", with(map[string]any{"queryClusterIds": []string{"nope"}}),
			map[string]string{"queryClusterIds[0]": "invalid_uuid"}},
		{"string for a number", with(map[string]any{"nPasses": "2"}), map[string]string{"nPasses": "invalid_type"}},
		{"every field at fault at once", with(map[string]any{"engines": []string{"bing"}, "checkFrequency": "hourly",
			"nPasses": 0, "countries": []string{"USA"}, "locale": "eng", "queryTexts": []string{" - "}}),
			map[string]string{"engines[0]": "invalid_value", "checkFrequency": "invalid_value", "nPasses": "out_of_range",
				"countries[0]": "out_of_range", "locale": "out_of_range", "queryTexts[0]": "invalid_value"}},
		{"a field that fails to decode beside others", with(map[string]any{"nPasses": "2", "countries": []string{"USA"}}),
			map[string]string{"nPasses": "invalid_type", "countries[0]": "out_of_range"}},
		{"a field that fails to decode before others", `{"queryClusterIds": ["nope"], "queryTexts": [" - "], "engines": ["chatgpt"],
			"countries": ["US"], "locale": "eng", "checkFrequency": "daily", "nPasses": 1}`,
			map[string]string{"queryClusterIds[0]": "invalid_uuid", "queryTexts[0]": "invalid_value", "locale": "out_of_range"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := tf.write(http.MethodPost, tf.path(""), tf.owner.key, c.body)
			got := detailCodesOf(t, assertError(t, r, http.StatusBadRequest, sightline.CodeValidation))
			for field, code := range c.want {
				if len(got[field]) != 1 || got[field][0] != code {
					t.Errorf("details[%s] = %v, want %s; all %v", field, got[field], code, got)
				}
			}
			if len(got) != len(c.want) {
				t.Errorf("details %v, want exactly %v", got, c.want)
			}
		})
	}
	// Exactly 100 combinations is allowed.
	res := tf.create(with(map[string]any{"queryTexts": texts(50), "countries": []string{"US", "DE"}}))
	if len(res.Successful) != 100 {
		t.Fatalf("%d created", len(res.Successful))
	}
	// A null locale is no locale.
	res = tf.create(with(map[string]any{"queryTexts": []string{"no locale"}, "locale": nil}))
	q := trackedDecode[trackedRecord](t, tf.get(tf.path("/"+res.Successful[0].ID.String())))
	if q.Locale != nil {
		t.Fatalf("locale %v", *q.Locale)
	}
	r := tf.write(http.MethodPost, tf.path(""), tf.owner.key, "not json")
	assertError(t, r, http.StatusBadRequest, sightline.CodeBadRequest)
}

func TestTrackedQueriesCreateClusterChecks(t *testing.T) {
	t.Parallel()
	tf := trackedSetup(t)
	sibling := tf.fixture.project(tf.org, "Sibling")
	foreignOrg := tf.fixture.org(tf.user(), "Foreign org")
	foreignProject := tf.fixture.project(foreignOrg, "Foreign")
	mine := tf.cluster(tf.project, "mine")
	body := func(clusters ...uuid.UUID) string {
		b, _ := json.Marshal(map[string]any{"queryTexts": []string{"crm"}, "engines": []string{"chatgpt"},
			"countries": []string{"US"}, "checkFrequency": "daily", "nPasses": 1, "queryClusterIds": clusters})
		return string(b)
	}
	r := tf.write(http.MethodPost, tf.path(""), tf.owner.key, body(mine, uuid.New()))
	assertError(t, r, http.StatusNotFound, sightline.CodeOrganizationNotFound)
	r = tf.write(http.MethodPost, tf.path(""), tf.owner.key, body(mine, tf.cluster(foreignProject, "theirs")))
	assertError(t, r, http.StatusNotFound, sightline.CodeOrganizationNotFound)
	r = tf.write(http.MethodPost, tf.path(""), tf.owner.key, body(mine, tf.cluster(sibling, "sibling")))
	assertError(t, r, http.StatusUnprocessableEntity, sightline.CodeQueryClusterOtherProject)
	var n int
	tf.pool.QueryRow(context.Background(), `SELECT count(*) FROM tracked_queries`).Scan(&n)
	if n != 0 {
		t.Fatalf("%d queries written by refused creates", n)
	}
}

func TestTrackedQueriesConcurrentIdenticalCreates(t *testing.T) {
	t.Parallel()
	tf := trackedSetup(t)
	c := tf.cluster(tf.project, "c")
	body := fmt.Sprintf(`{"queryTexts":["race","Race "],"engines":["chatgpt","perplexity"],"countries":["US"],
		"checkFrequency":"daily","nPasses":1,"queryClusterIds":[%q]}`, c)
	const callers = 8
	results := make([]response, callers)
	var wg sync.WaitGroup
	for i := range callers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i] = tf.write(http.MethodPost, tf.path(""), tf.owner.key, body)
		}()
	}
	wg.Wait()
	ids := map[string]uuid.UUID{}
	created := map[string]int{}
	for _, r := range results {
		res := trackedDecode[trackedCreateResult](t, r)
		for _, s := range res.Successful {
			created[s.Engine]++
			ids[s.Engine] = s.ID
		}
		exists := 0
		for _, f := range res.Failed {
			if f.ErrorCode == "tracked_query_already_exists" {
				exists++
			}
		}
		if len(res.Successful)+exists != 2 || len(res.Failed) != 2+exists {
			t.Fatalf("answer %+v", res)
		}
	}
	if created["chatgpt"] != 1 || created["perplexity"] != 1 {
		t.Fatalf("creations per engine %v, want one each", created)
	}
	for _, r := range results {
		for _, f := range trackedDecode[trackedCreateResult](t, r).Failed {
			if f.ErrorCode == "tracked_query_already_exists" && *f.ID != ids[f.Engine] {
				t.Fatalf("already-exists id %s, want %s", f.ID, ids[f.Engine])
			}
		}
	}
	var n int
	tf.pool.QueryRow(context.Background(), `SELECT count(*) FROM tracked_queries`).Scan(&n)
	if n != 2 {
		t.Fatalf("%d rows, want 2", n)
	}
}

// trackedWriteCalls lists one call of every write operation of the area.
func (tf *trackedFixture) trackedWriteCalls(id uuid.UUID, cluster uuid.UUID) []call {
	ids := fmt.Sprintf(`{"ids":[%q]}`, id)
	clusters := fmt.Sprintf(`{"queryClusterIds":[%q]}`, cluster)
	bulk := fmt.Sprintf(`{"ids":[%q],"queryClusterIds":[%q]}`, id, cluster)
	one := "/" + id.String()
	return []call{
		{method: http.MethodPost, path: tf.path(""), body: `{"queryTexts":["new"],"engines":["chatgpt"],"countries":["US"],"checkFrequency":"daily","nPasses":1,"queryClusterIds":[]}`},
		{method: http.MethodPut, path: tf.path(one + "/check-frequency"), body: `{"checkFrequency":"weekly"}`},
		{method: http.MethodPut, path: tf.path(one + "/passes"), body: `{"nPasses":3}`},
		{method: http.MethodPut, path: tf.path(one + "/pause")},
		{method: http.MethodPut, path: tf.path(one + "/resume")},
		{method: http.MethodPut, path: tf.path(one + "/clusters"), body: clusters},
		{method: http.MethodDelete, path: tf.path(one + "/clusters"), body: clusters},
		{method: http.MethodPut, path: tf.path("/batch/check-frequency"), body: fmt.Sprintf(`{"ids":[%q],"checkFrequency":"weekly"}`, id)},
		{method: http.MethodPut, path: tf.path("/batch/passes"), body: fmt.Sprintf(`{"ids":[%q],"nPasses":2}`, id)},
		{method: http.MethodPut, path: tf.path("/batch/pause"), body: ids},
		{method: http.MethodPut, path: tf.path("/batch/resume"), body: ids},
		{method: http.MethodPut, path: tf.path("/bulk/clusters"), body: bulk},
		{method: http.MethodDelete, path: tf.path("/bulk/clusters"), body: bulk},
		{method: http.MethodPost, path: tf.path("/bulk-delete"), body: ids},
	}
}

func (tf *trackedFixture) trackedReadPaths(id uuid.UUID) []string {
	return []string{tf.path(""), tf.path("/count"), tf.path("/" + id.String()),
		fmt.Sprintf("/api/v1/organizations/%s/projects/%s/coverage", tf.org, tf.project)}
}

func TestTrackedQueriesRolesAndCapabilities(t *testing.T) {
	t.Parallel()
	tf := trackedSetup(t)
	id := tf.createOne("crm", "chatgpt", "US")
	cluster := tf.cluster(tf.project, "c")
	viewer := tf.user()
	tf.join(tf.org, viewer, sightline.RoleViewer, sightline.MembershipActive)
	viewer = tf.keyFor(viewer, nil, sightline.Capabilities...)
	manager := tf.user()
	tf.join(tf.org, manager, sightline.RoleManager, sightline.MembershipActive)
	readOnly := tf.keyFor(manager, nil, sightline.CapabilityRead)
	stranger := tf.keyFor(tf.user(), nil, sightline.Capabilities...)

	for _, path := range tf.trackedReadPaths(id) {
		if r := tf.do(call{method: http.MethodGet, path: path, key: viewer.key}); r.status != http.StatusOK {
			t.Errorf("viewer GET %s: %d %s", path, r.status, r.body)
		}
		if r := tf.do(call{method: http.MethodGet, path: path, key: readOnly.key}); r.status != http.StatusOK {
			t.Errorf("read-only GET %s: %d %s", path, r.status, r.body)
		}
		assertError(t, tf.do(call{method: http.MethodGet, path: path, key: stranger.key}), http.StatusNotFound, sightline.CodeOrganizationNotFound)
		assertError(t, tf.do(call{method: http.MethodGet, path: path}), http.StatusUnauthorized, sightline.CodeUnauthorized)
	}
	for _, c := range tf.trackedWriteCalls(id, cluster) {
		for _, k := range []struct {
			key    string
			status int
			code   sightline.Code
		}{
			{viewer.key, http.StatusForbidden, sightline.CodeCapabilityRequired},
			{readOnly.key, http.StatusForbidden, sightline.CodeCapabilityRequired},
			{stranger.key, http.StatusNotFound, sightline.CodeOrganizationNotFound},
		} {
			r := tf.write(c.method, c.path, k.key, c.body)
			assertError(t, r, k.status, k.code)
		}
	}
	// A manager with a write key may write.
	managerKey := tf.keyFor(manager, nil, sightline.CapabilityWrite)
	for _, c := range tf.trackedWriteCalls(id, cluster) {
		if r := tf.write(c.method, c.path, managerKey.key, c.body); r.status != http.StatusOK {
			t.Errorf("manager %s %s: %d %s", c.method, c.path, r.status, r.body)
		}
	}
}

func TestTrackedQueriesScopeNotFound(t *testing.T) {
	t.Parallel()
	tf := trackedSetup(t)
	cluster := tf.cluster(tf.project, "c")
	mine := tf.createOne("crm", "chatgpt", "US")
	// A project of another organization under this organization's path.
	otherOrg := tf.fixture.org(tf.user(), "Other org")
	foreignProject := tf.fixture.project(otherOrg, "Foreign")
	// A query of a sibling project of the same organization.
	sibling := &trackedFixture{fixture: tf.fixture, owner: tf.owner, org: tf.org, project: tf.fixture.project(tf.org, "Sibling")}
	theirs := sibling.createOne("crm", "chatgpt", "US")

	for _, project := range []string{foreignProject.String(), uuid.NewString(), "not-a-uuid"} {
		base := fmt.Sprintf("/api/v1/organizations/%s/projects/%s/tracked-queries", tf.org, project)
		for _, path := range []string{base, base + "/count", base + "/" + mine.String(),
			fmt.Sprintf("/api/v1/organizations/%s/projects/%s/coverage", tf.org, project)} {
			assertError(t, tf.get(path), http.StatusNotFound, sightline.CodeOrganizationNotFound)
		}
		for _, c := range tf.trackedWriteCalls(mine, cluster) {
			c.path = base + c.path[len(tf.path("")):]
			assertError(t, tf.write(c.method, c.path, tf.owner.key, c.body), http.StatusNotFound, sightline.CodeOrganizationNotFound)
		}
	}
	for _, id := range []string{theirs.String(), uuid.NewString(), "not-a-uuid"} {
		one := tf.path("/" + id)
		assertError(t, tf.get(one), http.StatusNotFound, sightline.CodeOrganizationNotFound)
		for _, c := range []call{
			{method: http.MethodPut, path: one + "/check-frequency", body: `{"checkFrequency":"weekly"}`},
			{method: http.MethodPut, path: one + "/passes", body: `{"nPasses":3}`},
			{method: http.MethodPut, path: one + "/pause"},
			{method: http.MethodPut, path: one + "/resume"},
			{method: http.MethodPut, path: one + "/clusters", body: fmt.Sprintf(`{"queryClusterIds":[%q]}`, cluster)},
			{method: http.MethodDelete, path: one + "/clusters", body: fmt.Sprintf(`{"queryClusterIds":[%q]}`, cluster)},
		} {
			assertError(t, tf.write(c.method, c.path, tf.owner.key, c.body), http.StatusNotFound, sightline.CodeOrganizationNotFound)
		}
	}
	// The sibling's query is untouched.
	q := trackedDecode[trackedRecord](t, sibling.get(sibling.path("/"+theirs.String())))
	if q.CheckFrequency != "daily" || q.Status != "active" || len(q.QueryClusterIDs) != 0 {
		t.Fatalf("sibling query changed: %+v", q)
	}
}

func TestTrackedQueriesArchivedStates(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, c := range []struct {
		name    string
		archive string
		code    sightline.Code
	}{
		{"project", `UPDATE projects SET status = 'archived', archived_by = 'caller', archived_at = now() WHERE id = $1`, sightline.CodeProjectIsArchived},
		{"organization", `UPDATE organizations SET status = 'archived', archived_at = now() WHERE id = (SELECT organization_id FROM projects WHERE id = $1)`, sightline.CodeProjectIsArchived},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			tf := trackedSetup(t)
			id := tf.createOne("crm", "chatgpt", "US")
			cluster := tf.cluster(tf.project, "c")
			tf.refresh(tf.project)
			if _, err := tf.pool.Exec(ctx, c.archive, tf.project); err != nil {
				t.Fatal(err)
			}
			for _, w := range tf.trackedWriteCalls(id, cluster) {
				assertError(t, tf.write(w.method, w.path, tf.owner.key, w.body), http.StatusConflict, c.code)
			}
			for _, path := range tf.trackedReadPaths(id) {
				if r := tf.get(path); r.status != http.StatusOK {
					t.Errorf("GET %s on archived %s: %d %s", path, c.name, r.status, r.body)
				}
			}
			q := trackedDecode[trackedRecord](t, tf.get(tf.path("/"+id.String())))
			if q.Status != "active" || q.CheckFrequency != "daily" || q.NPasses != 2 || len(q.QueryClusterIDs) != 0 {
				t.Fatalf("archived project's query changed: %+v", q)
			}
		})
	}
}

// refreshJobs counts the search refresh jobs enqueued for the project.
func (tf *trackedFixture) refreshJobs(project uuid.UUID) int {
	tf.t.Helper()
	var n int
	if err := tf.pool.QueryRow(context.Background(), `
		SELECT count(*) FROM river_job WHERE kind = 'tracked_query_search_refresh'
		AND args->>'projectId' = $1`, project.String()).Scan(&n); err != nil {
		tf.t.Fatal(err)
	}
	return n
}

// searchStale reports whether the project's search rows are marked stale.
func (tf *trackedFixture) searchStale(project uuid.UUID) bool {
	tf.t.Helper()
	var stale bool
	if err := tf.pool.QueryRow(context.Background(),
		`SELECT EXISTS (SELECT 1 FROM tracked_query_search_pending WHERE project_id = $1)`, project).Scan(&stale); err != nil {
		tf.t.Fatal(err)
	}
	return stale
}

func TestTrackedQueriesSingleWrites(t *testing.T) {
	t.Parallel()
	tf := trackedSetup(t)
	ai := tf.createOne("crm", "chatgpt", "US")
	serp := tf.createOne("crm", "google_serp", "US")
	tf.refresh(tf.project)
	put := func(id uuid.UUID, suffix, body string) response {
		return tf.write(http.MethodPut, tf.path("/"+id.String()+suffix), tf.owner.key, body)
	}

	q := trackedDecode[trackedRecord](t, put(ai, "/check-frequency", `{"checkFrequency":"monthly"}`))
	if q.CheckFrequency != "monthly" || q.ID != ai {
		t.Fatalf("%+v", q)
	}
	// The creates' refresh job is still waiting (nothing works the queue
	// here), so the change joined it instead of enqueueing another.
	if !tf.searchStale(tf.project) || tf.refreshJobs(tf.project) != 1 {
		t.Fatal("a change must mark the search rows stale and have one refresh job")
	}
	tf.refresh(tf.project)
	same := put(ai, "/check-frequency", `{"checkFrequency":"monthly"}`)
	if trackedDecode[trackedRecord](t, same).CheckFrequency != "monthly" || tf.searchStale(tf.project) {
		t.Fatal("setting the same frequency must be a no-op success")
	}
	d := detailCodesOf(t, assertError(t, put(ai, "/check-frequency", `{"checkFrequency":"hourly"}`), http.StatusBadRequest, sightline.CodeValidation))
	if d["checkFrequency"][0] != "invalid_value" {
		t.Fatalf("%v", d)
	}
	assertError(t, put(ai, "/check-frequency", ``), http.StatusBadRequest, sightline.CodeBadRequest)
	d = detailCodesOf(t, assertError(t, put(ai, "/check-frequency", `{}`), http.StatusBadRequest, sightline.CodeValidation))
	if d["checkFrequency"][0] != "missing_field" {
		t.Fatalf("%v", d)
	}

	if q := trackedDecode[trackedRecord](t, put(ai, "/passes", `{"nPasses":10}`)); q.NPasses != 10 {
		t.Fatalf("%+v", q)
	}
	assertError(t, put(serp, "/passes", `{"nPasses":2}`), http.StatusConflict, sightline.CodeNPassesNotSupported)
	if q := trackedDecode[trackedRecord](t, put(serp, "/passes", `{"nPasses":1}`)); q.NPasses != 1 {
		t.Fatalf("%+v", q)
	}
	for _, body := range []string{`{"nPasses":0}`, `{"nPasses":11}`} {
		d := detailCodesOf(t, assertError(t, put(ai, "/passes", body), http.StatusBadRequest, sightline.CodeValidation))
		if d["nPasses"][0] != "out_of_range" {
			t.Fatalf("%s: %v", body, d)
		}
	}

	// Pause and resume assert a state: repeating one answers the same body.
	first := put(ai, "/pause", "")
	second := put(ai, "/pause", "")
	if trackedDecode[trackedRecord](t, first).Status != "paused" || string(first.body) != string(second.body) {
		t.Fatalf("pause twice: %s / %s", first.body, second.body)
	}
	first = put(ai, "/resume", "")
	second = put(ai, "/resume", "")
	if trackedDecode[trackedRecord](t, first).Status != "active" || string(first.body) != string(second.body) {
		t.Fatalf("resume twice: %s / %s", first.body, second.body)
	}
	for _, suffix := range []string{"/pause", "/resume"} {
		assertError(t, put(ai, suffix, `{}`), http.StatusBadRequest, sightline.CodeBadRequest)
		assertError(t, put(ai, suffix, `{"status":"paused"}`), http.StatusBadRequest, sightline.CodeBadRequest)
	}
	// A retry under the same key replays the answer.
	key := uuid.NewString()
	replay := func() response {
		return tf.do(call{method: http.MethodPut, path: tf.path("/" + ai.String() + "/pause"), key: tf.owner.key,
			header: map[string]string{"Idempotency-Key": key}})
	}
	a, b := replay(), replay()
	if string(a.body) != string(b.body) || b.header.Get("Idempotent-Replayed") != "true" {
		t.Fatalf("replay %s / %s", a.body, b.body)
	}
}

func TestTrackedQueriesClusterMembership(t *testing.T) {
	t.Parallel()
	tf := trackedSetup(t)
	id := tf.createOne("crm", "chatgpt", "US")
	c1, c2, c3 := tf.cluster(tf.project, "one"), tf.cluster(tf.project, "two"), tf.cluster(tf.project, "three")
	sibling := tf.fixture.project(tf.org, "Sibling")
	foreign := tf.cluster(sibling, "foreign")
	path := tf.path("/" + id.String() + "/clusters")
	send := func(method string, ids ...uuid.UUID) response {
		b, _ := json.Marshal(map[string]any{"queryClusterIds": ids})
		return tf.write(method, path, tf.owner.key, string(b))
	}
	clustersOf := func(r response) []uuid.UUID { return trackedDecode[trackedRecord](t, r).QueryClusterIDs }

	if got := clustersOf(send(http.MethodPut, c1, c2, c1)); !slicesEqual(got, []uuid.UUID{c1, c2}) {
		t.Fatalf("after add: %v", got)
	}
	// Already-member clusters are skipped; unnamed memberships untouched.
	if got := clustersOf(send(http.MethodPut, c2, c3)); !slicesEqual(got, []uuid.UUID{c1, c2, c3}) {
		t.Fatalf("after second add: %v", got)
	}
	if got := clustersOf(send(http.MethodDelete, c2, tf.cluster(tf.project, "never"))); !slicesEqual(got, []uuid.UUID{c1, c3}) {
		t.Fatalf("after remove: %v", got)
	}
	// A cluster outside the project rejects the whole call, naming it.
	for _, method := range []string{http.MethodPut, http.MethodDelete} {
		for _, outside := range []uuid.UUID{foreign, uuid.New()} {
			m := assertError(t, send(method, c2, outside), http.StatusBadRequest, sightline.CodeValidation)
			if d := detailCodesOf(t, m); len(d) != 1 || d["queryClusterIds[1]"][0] != "invalid_value" {
				t.Fatalf("%s: %v", method, d)
			}
		}
	}
	if got := trackedDecode[trackedRecord](t, tf.get(tf.path("/"+id.String()))).QueryClusterIDs; !slicesEqual(got, []uuid.UUID{c1, c3}) {
		t.Fatalf("refused calls wrote: %v", got)
	}
	assertError(t, tf.write(http.MethodDelete, path, tf.owner.key, ""), http.StatusBadRequest, sightline.CodeBadRequest)
	for _, body := range []string{`{"queryClusterIds":[]}`, `{}`, `{"queryClusterIds":["x"]}`} {
		assertError(t, tf.write(http.MethodPut, path, tf.owner.key, body), http.StatusBadRequest, sightline.CodeValidation)
	}
}

// TestTrackedQueriesClusterDeleteMarksListingStale: deleting a cluster
// takes its id out of the listing rows and marks them stale, so that a
// refresh that read the memberships before the delete committed cannot
// leave the deleted id behind.
func TestTrackedQueriesClusterDeleteMarksListingStale(t *testing.T) {
	t.Parallel()
	tf := trackedSetup(t)
	id := tf.createOne("crm", "chatgpt", "US")
	c := tf.cluster(tf.project, "doomed")
	b, _ := json.Marshal(map[string]any{"queryClusterIds": []uuid.UUID{c}})
	if r := tf.write(http.MethodPut, tf.path("/"+id.String()+"/clusters"), tf.owner.key, string(b)); r.status != 200 {
		t.Fatalf("%d %s", r.status, r.body)
	}
	tf.refresh(tf.project)
	if tf.searchStale(tf.project) {
		t.Fatal("stale after refresh")
	}
	clusterPath := fmt.Sprintf("/api/v1/organizations/%s/projects/%s/clusters/%s", tf.org, tf.project, c)
	if r := tf.write(http.MethodDelete, clusterPath, tf.owner.key, ""); r.status != 200 {
		t.Fatalf("%d %s", r.status, r.body)
	}
	if !tf.searchStale(tf.project) {
		t.Fatal("a cluster delete did not mark the listing stale")
	}
	page := tf.get(tf.path("")).json(t)["page"].([]any)
	if len(page) != 1 || len(page[0].(map[string]any)["queryClusterIds"].([]any)) != 0 {
		t.Fatalf("listing still names the deleted cluster: %v", page)
	}
}

func slicesEqual[T comparable](a, b []T) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestTrackedQueriesBatches(t *testing.T) {
	t.Parallel()
	tf := trackedSetup(t)
	ai := tf.createOne("crm", "chatgpt", "US")
	serp := tf.createOne("crm", "google_serp", "US")
	shop := tf.createOne("crm", "google_shopping", "US")
	sibling := &trackedFixture{fixture: tf.fixture, owner: tf.owner, org: tf.org, project: tf.fixture.project(tf.org, "Sibling")}
	theirs := sibling.createOne("crm", "chatgpt", "US")
	unknown := uuid.New()
	// Duplicates collapse, the same uuid in upper case included; order is first appearance.
	ids := []string{ai.String(), "not-a-uuid", serp.String(), theirs.String(), strings.ToUpper(ai.String()), unknown.String(), shop.String(), "not-a-uuid"}
	batch := func(suffix string, extra map[string]any) trackedBatchResult {
		body := map[string]any{"ids": ids}
		for k, v := range extra {
			body[k] = v
		}
		b, _ := json.Marshal(body)
		return trackedDecode[trackedBatchResult](t, tf.write(http.MethodPut, tf.path(suffix), tf.owner.key, string(b)))
	}
	check := func(name string, res trackedBatchResult, ok []uuid.UUID, failed [][2]string) {
		t.Helper()
		var gotOK []uuid.UUID
		for _, s := range res.Successful {
			gotOK = append(gotOK, s.ID)
		}
		if !slicesEqual(gotOK, ok) {
			t.Fatalf("%s: successful %v, want %v", name, gotOK, ok)
		}
		if len(res.Failed) != len(failed) {
			t.Fatalf("%s: failed %+v, want %v", name, res.Failed, failed)
		}
		for i, f := range res.Failed {
			if f.ID != failed[i][0] || f.ErrorCode != failed[i][1] || f.ErrorMessage == "" {
				t.Fatalf("%s: failed[%d] = %+v, want %v", name, i, f, failed[i])
			}
		}
	}
	notFound := [][2]string{{"not-a-uuid", "tracked_query_not_found"}, {theirs.String(), "tracked_query_not_found"},
		{unknown.String(), "tracked_query_not_found"}}

	check("frequency", batch("/batch/check-frequency", map[string]any{"checkFrequency": "weekly"}), []uuid.UUID{ai, serp, shop}, notFound)
	check("passes 1", batch("/batch/passes", map[string]any{"nPasses": 1}), []uuid.UUID{ai, serp, shop}, notFound)
	check("passes 4", batch("/batch/passes", map[string]any{"nPasses": 4}), []uuid.UUID{ai}, [][2]string{
		{"not-a-uuid", "tracked_query_not_found"}, {serp.String(), "n_passes_not_supported_for_engine"},
		{theirs.String(), "tracked_query_not_found"}, {unknown.String(), "tracked_query_not_found"},
		{shop.String(), "n_passes_not_supported_for_engine"}})
	check("pause", batch("/batch/pause", nil), []uuid.UUID{ai, serp, shop}, notFound)
	check("pause again", batch("/batch/pause", nil), []uuid.UUID{ai, serp, shop}, notFound)
	q := trackedDecode[trackedRecord](t, tf.get(tf.path("/"+ai.String())))
	if q.Status != "paused" || q.CheckFrequency != "weekly" || q.NPasses != 4 {
		t.Fatalf("after batches: %+v", q)
	}
	check("resume", batch("/batch/resume", nil), []uuid.UUID{ai, serp, shop}, notFound)
	check("resume again", batch("/batch/resume", nil), []uuid.UUID{ai, serp, shop}, notFound)
	if s := trackedDecode[trackedRecord](t, sibling.get(sibling.path("/"+theirs.String()))); s.CheckFrequency != "daily" || s.Status != "active" {
		t.Fatalf("other project's query changed: %+v", s)
	}

	// failed is present even when empty.
	r := tf.write(http.MethodPut, tf.path("/batch/pause"), tf.owner.key, fmt.Sprintf(`{"ids":[%q]}`, ai))
	if m := r.json(t); m["failed"] == nil || len(m["failed"].([]any)) != 0 {
		t.Fatalf("%s", r.body)
	}
	// 101 copies of one id are one id; 101 distinct are too many.
	many := make([]string, 101)
	for i := range many {
		many[i] = ai.String()
	}
	b, _ := json.Marshal(map[string]any{"ids": many})
	check("collapsed", trackedDecode[trackedBatchResult](t, tf.write(http.MethodPut, tf.path("/batch/resume"), tf.owner.key, string(b))), []uuid.UUID{ai}, nil)
	distinct := make([]string, 101)
	for i := range distinct {
		distinct[i] = uuid.NewString()
	}
	b, _ = json.Marshal(map[string]any{"ids": distinct})
	for _, c := range []struct{ suffix, body string }{
		{"/batch/pause", string(b)},
		{"/batch/pause", `{"ids":[]}`},
		{"/batch/resume", `{}`},
		{"/batch/pause", `{"ids":"x"}`},
		{"/batch/pause", `{"ids":[1]}`},
		{"/batch/pause", `{"ids":["x"],"extra":1}`},
		{"/batch/check-frequency", `{"ids":["x"]}`},
		{"/batch/passes", `{"ids":["x"],"nPasses":11}`},
	} {
		assertError(t, tf.write(http.MethodPut, tf.path(c.suffix), tf.owner.key, c.body), http.StatusBadRequest, sightline.CodeValidation)
	}
	// An id too long to be a uuid in any spelling is an over-large id (spec
	// 7.2): 400 naming it, not an item echoing it back. The longest
	// spelling, urn:uuid:..., is an id like any other.
	b, _ = json.Marshal(map[string]any{"ids": []string{"urn:uuid:" + ai.String(), strings.Repeat("x", 46)}})
	m := assertError(t, tf.write(http.MethodPut, tf.path("/batch/pause"), tf.owner.key, string(b)), http.StatusBadRequest, sightline.CodeValidation)
	if d := detailCodesOf(t, m); len(d) != 1 || len(d["ids[1]"]) != 1 || d["ids[1]"][0] != "out_of_range" {
		t.Fatalf("over-large id: %v", d)
	}
	b, _ = json.Marshal(map[string]any{"ids": []string{"urn:uuid:" + ai.String()}})
	check("urn spelling", trackedDecode[trackedBatchResult](t, tf.write(http.MethodPut, tf.path("/batch/resume"), tf.owner.key, string(b))), []uuid.UUID{ai}, nil)
	// A retry of a pause batch must repeat the ids in the same order.
	key := uuid.NewString()
	send := func(body string) response {
		return tf.do(call{method: http.MethodPut, path: tf.path("/batch/pause"), key: tf.owner.key, body: body,
			header: map[string]string{"Idempotency-Key": key}})
	}
	send(fmt.Sprintf(`{"ids":[%q,%q]}`, ai, serp))
	assertError(t, send(fmt.Sprintf(`{"ids":[%q,%q]}`, serp, ai)), http.StatusConflict, sightline.CodeIdempotencyKeyReused)
}

func TestTrackedQueriesBulkDelete(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	tf := trackedSetup(t)
	c := tf.cluster(tf.project, "c")
	a, b := tf.createOne("alpha", "chatgpt", "US"), tf.createOne("beta", "chatgpt", "US")
	keep := tf.createOne("gamma", "chatgpt", "US")
	tf.write(http.MethodPut, tf.path("/bulk/clusters"), tf.owner.key, fmt.Sprintf(`{"ids":[%q,%q],"queryClusterIds":[%q]}`, a, keep, c))
	tf.write(http.MethodPut, tf.path("/batch/pause"), tf.owner.key, fmt.Sprintf(`{"ids":[%q]}`, b))
	tf.refresh(tf.project)

	res := trackedDecode[trackedBatchResult](t, tf.write(http.MethodPost, tf.path("/bulk-delete"), tf.owner.key,
		fmt.Sprintf(`{"ids":[%q,"junk",%q,%q]}`, a, b, a)))
	if len(res.Successful) != 2 || res.Successful[0].ID != a || res.Successful[1].ID != b ||
		len(res.Failed) != 1 || res.Failed[0].ID != "junk" || res.Failed[0].ErrorCode != "tracked_query_not_found" {
		t.Fatalf("%+v", res)
	}
	assertError(t, tf.get(tf.path("/"+a.String())), http.StatusNotFound, sightline.CodeOrganizationNotFound)
	var memberships int
	tf.pool.QueryRow(ctx, `SELECT count(*) FROM tracked_query_clusters`).Scan(&memberships)
	if memberships != 1 {
		t.Fatalf("%d memberships left, want gamma's only", memberships)
	}
	var dirty *time.Time
	tf.pool.QueryRow(ctx, `SELECT data_dirty_since FROM projects WHERE id = $1`, tf.project).Scan(&dirty)
	if dirty == nil {
		t.Fatal("data_dirty_since not set by the delete")
	}
	var argsJSON []byte
	if err := tf.pool.QueryRow(ctx, `SELECT args FROM river_job WHERE kind = 'tracked_query_cascade'`).Scan(&argsJSON); err != nil {
		t.Fatalf("cascade job: %v", err)
	}
	var args jobs.TrackedQueryCascadeArgs
	if err := json.Unmarshal(argsJSON, &args); err != nil {
		t.Fatal(err)
	}
	if args.ProjectID != tf.project || !slicesEqual(args.TrackedQueryIDs, []uuid.UUID{a, b}) && !slicesEqual(args.TrackedQueryIDs, []uuid.UUID{b, a}) {
		t.Fatalf("cascade args %+v", args)
	}
	// The listing drops them at the next refresh.
	tf.refresh(tf.project)
	if m := tf.get(tf.path("")).json(t); m["total"].(float64) != 1 {
		t.Fatalf("listing after delete: %v", m)
	}
	// The cascade worker finishes and clears data_dirty_since.
	// Run as a job enqueued long enough ago that no late pass can arrive.
	w := &jobs.TrackedQueryCascadeWorker{Pool: tf.pool, ClickHouse: olaptest.NewConn(t)}
	job := &river.Job[jobs.TrackedQueryCascadeArgs]{JobRow: &rivertype.JobRow{CreatedAt: time.Now().Add(-time.Hour)}, Args: args}
	if err := w.Work(ctx, job); err != nil {
		t.Fatal(err)
	}
	tf.pool.QueryRow(ctx, `SELECT data_dirty_since FROM projects WHERE id = $1`, tf.project).Scan(&dirty)
	if dirty != nil {
		t.Fatalf("data_dirty_since still %v after the cascade", dirty)
	}
	// Deleting nothing registers no cascade.
	res = trackedDecode[trackedBatchResult](t, tf.write(http.MethodPost, tf.path("/bulk-delete"), tf.owner.key, fmt.Sprintf(`{"ids":[%q]}`, a)))
	if len(res.Successful) != 0 || len(res.Failed) != 1 {
		t.Fatalf("%+v", res)
	}
	var cascades int
	tf.pool.QueryRow(ctx, `SELECT count(*) FROM river_job WHERE kind = 'tracked_query_cascade'`).Scan(&cascades)
	tf.pool.QueryRow(ctx, `SELECT data_dirty_since FROM projects WHERE id = $1`, tf.project).Scan(&dirty)
	if cascades != 1 || dirty != nil {
		t.Fatalf("%d cascades, dirty %v after an empty delete", cascades, dirty)
	}
	assertError(t, tf.write(http.MethodPost, tf.path("/bulk-delete"), tf.owner.key, `{"ids":[]}`), http.StatusBadRequest, sightline.CodeValidation)
}

func TestTrackedQueriesConcurrentBulkDeletes(t *testing.T) {
	t.Parallel()
	tf := trackedSetup(t)
	var ids []string
	for i := range 6 {
		ids = append(ids, tf.createOne(fmt.Sprintf("q%d", i), "chatgpt", "US").String())
	}
	bodies := []string{
		fmt.Sprintf(`{"ids":[%q,%q,%q,%q]}`, ids[0], ids[1], ids[2], ids[3]),
		fmt.Sprintf(`{"ids":[%q,%q,%q,%q]}`, ids[3], ids[2], ids[4], ids[5]),
	}
	results := make([]trackedBatchResult, len(bodies))
	var wg sync.WaitGroup
	for i, body := range bodies {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i] = trackedDecode[trackedBatchResult](t, tf.write(http.MethodPost, tf.path("/bulk-delete"), tf.owner.key, body))
		}()
	}
	wg.Wait()
	if n := len(results[0].Successful) + len(results[1].Successful); n != 6 {
		t.Fatalf("%d deletions, want 6: %+v", n, results)
	}
}

func TestTrackedQueriesBulkClusters(t *testing.T) {
	t.Parallel()
	tf := trackedSetup(t)
	a, b := tf.createOne("alpha", "chatgpt", "US"), tf.createOne("beta", "chatgpt", "US")
	c1, c2 := tf.cluster(tf.project, "one"), tf.cluster(tf.project, "two")
	foreign := tf.cluster(tf.fixture.project(tf.org, "Sibling"), "foreign")
	send := func(method string, ids []string, clusters ...uuid.UUID) response {
		body, _ := json.Marshal(map[string]any{"ids": ids, "queryClusterIds": clusters})
		return tf.write(method, tf.path("/bulk/clusters"), tf.owner.key, string(body))
	}
	clustersOf := func(id uuid.UUID) []uuid.UUID {
		return trackedDecode[trackedRecord](t, tf.get(tf.path("/"+id.String()))).QueryClusterIDs
	}
	unknown := uuid.NewString()
	res := trackedDecode[trackedBatchResult](t, send(http.MethodPut, []string{a.String(), unknown, b.String(), a.String()}, c1, c2, c1))
	if len(res.Successful) != 2 || res.Successful[0].ID != a || res.Successful[1].ID != b ||
		len(res.Failed) != 1 || res.Failed[0].ID != unknown {
		t.Fatalf("%+v", res)
	}
	if !slicesEqual(clustersOf(a), []uuid.UUID{c1, c2}) || !slicesEqual(clustersOf(b), []uuid.UUID{c1, c2}) {
		t.Fatalf("after add: %v %v", clustersOf(a), clustersOf(b))
	}
	// Adding again skips existing memberships.
	if res := trackedDecode[trackedBatchResult](t, send(http.MethodPut, []string{a.String()}, c1)); len(res.Successful) != 1 {
		t.Fatalf("%+v", res)
	}
	for _, method := range []string{http.MethodPut, http.MethodDelete} {
		m := assertError(t, send(method, []string{a.String(), b.String()}, c2, foreign), http.StatusBadRequest, sightline.CodeValidation)
		if d := detailCodesOf(t, m); d["queryClusterIds[1]"][0] != "invalid_value" {
			t.Fatalf("%v", d)
		}
	}
	res = trackedDecode[trackedBatchResult](t, send(http.MethodDelete, []string{b.String(), "x"}, c1))
	if len(res.Successful) != 1 || len(res.Failed) != 1 || res.Failed[0].ID != "x" {
		t.Fatalf("%+v", res)
	}
	if !slicesEqual(clustersOf(a), []uuid.UUID{c1, c2}) || !slicesEqual(clustersOf(b), []uuid.UUID{c2}) {
		t.Fatalf("after remove: %v %v", clustersOf(a), clustersOf(b))
	}
	for _, body := range []string{
		`{"ids":[],"queryClusterIds":["` + c1.String() + `"]}`,
		`{"ids":["` + a.String() + `"],"queryClusterIds":[]}`,
		`{"ids":["` + a.String() + `"]}`,
	} {
		assertError(t, tf.write(http.MethodPut, tf.path("/bulk/clusters"), tf.owner.key, body), http.StatusBadRequest, sightline.CodeValidation)
	}
	assertError(t, tf.write(http.MethodDelete, tf.path("/bulk/clusters"), tf.owner.key, ""), http.StatusBadRequest, sightline.CodeBadRequest)
}

func TestTrackedQueriesCount(t *testing.T) {
	t.Parallel()
	tf := trackedSetup(t)
	tf.createOne("a", "chatgpt", "US")     // 2 passes
	tf.createOne("b", "google_serp", "US") // 1 pass
	paused := tf.createOne("c", "perplexity", "US")
	tf.write(http.MethodPut, tf.path("/"+paused.String()+"/pause"), tf.owner.key, "")
	for _, c := range []struct {
		query       string
		count, cost float64
	}{{"", 3, 5}, {"?status=active", 2, 3}, {"?status=paused", 1, 2}} {
		m := tf.get(tf.path("/count" + c.query)).json(t)
		if m["count"] != c.count || m["checkCost"] != c.cost {
			t.Errorf("count%s = %v, want %v and %v", c.query, m, c.count, c.cost)
		}
	}
	for _, q := range []string{"?status=archived", "?status=active&status=paused", "?engines=chatgpt"} {
		assertError(t, tf.get(tf.path("/count"+q)), http.StatusBadRequest, sightline.CodeValidation)
	}
	empty := &trackedFixture{fixture: tf.fixture, owner: tf.owner, org: tf.org, project: tf.fixture.project(tf.org, "Empty")}
	if m := empty.get(empty.path("/count")).json(t); m["count"] != 0.0 || m["checkCost"] != 0.0 {
		t.Fatalf("empty project count %v", m)
	}
}

type trackedCoverage struct {
	Total, Active, Paused, NeverChecked, Overdue int
	Sample                                       []struct {
		ID uuid.UUID `json:"id"`
	}
}

func TestTrackedQueriesCoverage(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	tf := trackedSetup(t)
	path := fmt.Sprintf("/api/v1/organizations/%s/projects/%s/coverage", tf.org, tf.project)
	if m := tf.get(path).json(t); m["total"] != 0.0 || len(m["sample"].([]any)) != 0 {
		t.Fatalf("empty coverage %v", m)
	}
	set := func(id uuid.UUID, frequency, lastChecked string) {
		t.Helper()
		if _, err := tf.pool.Exec(ctx, `UPDATE tracked_queries SET check_frequency = $2,
			last_checked_at = now() - $3::interval WHERE id = $1`, id, frequency, lastChecked); err != nil {
			t.Fatal(err)
		}
	}
	dailyLate := tf.createOne("daily late", "chatgpt", "US")
	set(dailyLate, "daily", "25 hours")
	dailyFresh := tf.createOne("daily fresh", "chatgpt", "US")
	set(dailyFresh, "daily", "23 hours")
	weeklyLate := tf.createOne("weekly late", "chatgpt", "US")
	set(weeklyLate, "weekly", "8 days")
	monthlyFresh := tf.createOne("monthly fresh", "chatgpt", "US")
	set(monthlyFresh, "monthly", "29 days")
	monthlyLate := tf.createOne("monthly late", "chatgpt", "US")
	set(monthlyLate, "monthly", "31 days")
	tf.createOne("never checked", "chatgpt", "US")
	pausedLate := tf.createOne("paused late", "chatgpt", "US")
	set(pausedLate, "daily", "40 days")
	tf.write(http.MethodPut, tf.path("/"+pausedLate.String()+"/pause"), tf.owner.key, "")

	cov := trackedDecode[trackedCoverage](t, tf.get(path))
	if cov.Total != 7 || cov.Active != 6 || cov.Paused != 1 || cov.NeverChecked != 1 || cov.Overdue != 3 {
		t.Fatalf("coverage %+v", cov)
	}
	var sample []uuid.UUID
	for _, s := range cov.Sample {
		sample = append(sample, s.ID)
	}
	if want := []uuid.UUID{monthlyLate, weeklyLate, dailyLate}; !slicesEqual(sample, want) {
		t.Fatalf("sample %v, want most stale first %v", sample, want)
	}
	// At most 20 in the sample.
	for i := range 22 {
		set(tf.createOne(fmt.Sprintf("late %d", i), "perplexity", "US"), "daily", "3 days")
	}
	if m := tf.get(path).json(t); m["overdue"] != 25.0 || len(m["sample"].([]any)) != 20 {
		t.Fatalf("overdue %v, sample of %d", m["overdue"], len(m["sample"].([]any)))
	}
	for _, q := range []string{"?limit=5", "?status=active"} {
		assertError(t, tf.get(path+q), http.StatusBadRequest, sightline.CodeValidation)
	}
}

// trackedListing reads the listing and returns its total and rows as
// "text engine country" strings.
func (tf *trackedFixture) trackedListing(query string) (int, []string) {
	tf.t.Helper()
	var l struct {
		Page []struct {
			QueryText string `json:"queryText"`
			Engine    string `json:"engine"`
			Country   string `json:"country"`
		} `json:"page"`
		Total int `json:"total"`
	}
	l = trackedDecode[struct {
		Page []struct {
			QueryText string `json:"queryText"`
			Engine    string `json:"engine"`
			Country   string `json:"country"`
		} `json:"page"`
		Total int `json:"total"`
	}](tf.t, tf.get(tf.path(query)))
	rows := []string{}
	for _, r := range l.Page {
		rows = append(rows, r.QueryText+" "+r.Engine+" "+r.Country)
	}
	return l.Total, rows
}

func TestTrackedQueriesSearchListing(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	tf := trackedSetup(t)
	c1, c2 := tf.cluster(tf.project, "one"), tf.cluster(tf.project, "two")
	ai := tf.createOne("best crm", "chatgpt", "US")
	serp := tf.createOne("best crm", "google_serp", "DE")
	pplx := tf.createOne("crm pricing", "perplexity", "US")
	shop := tf.createOne("cheap crm tools", "google_shopping", "GB")
	zebra := tf.createOne("zebra 100%_off", "chatgpt", "FR")
	tf.write(http.MethodPut, tf.path("/"+zebra.String()+"/pause"), tf.owner.key, "")
	tf.write(http.MethodPut, tf.path("/bulk/clusters"), tf.owner.key, fmt.Sprintf(`{"ids":[%q],"queryClusterIds":[%q,%q]}`, ai, c1, c2))
	for id, ago := range map[uuid.UUID]string{ai: "1 hour", serp: "2 hours", pplx: "3 hours"} {
		if _, err := tf.pool.Exec(ctx, `UPDATE tracked_queries SET last_checked_at = now() - $2::interval WHERE id = $1`, id, ago); err != nil {
			t.Fatal(err)
		}
	}
	tf.refresh(tf.project)
	// The check pipeline's metrics of the last check.
	for _, m := range []struct {
		id  uuid.UUID
		set string
	}{
		{ai, "last_mention_position = 2, last_share_of_voice = 40, last_positivity_index = 80, last_mention_count = 3, last_link_position = 1"},
		{serp, "last_serp_position = 4"},
		{pplx, "last_mention_position = 1, last_share_of_voice = 60, last_positivity_index = 50, last_mention_count = 5"},
		{shop, "last_shopping_position = 2"},
	} {
		if _, err := tf.pool.Exec(ctx, `UPDATE tracked_query_search_rows SET `+m.set+` WHERE tracked_query_id = $1`, m.id); err != nil {
			t.Fatal(err)
		}
	}
	const (
		rAI    = "best crm chatgpt US"
		rSerp  = "best crm google_serp DE"
		rPplx  = "crm pricing perplexity US"
		rShop  = "cheap crm tools google_shopping GB"
		rZebra = "zebra 100%_off chatgpt FR"
	)
	cases := []struct {
		query string
		total int
		rows  []string
	}{
		{"", 5, []string{rZebra, rPplx, rShop, rAI, rSerp}},
		{"?sortOrder=asc", 5, []string{rAI, rSerp, rShop, rPplx, rZebra}},
		{"?sortBy=lastMentionPosition&sortOrder=asc", 5, []string{rPplx, rAI, rSerp, rShop, rZebra}},
		{"?sortBy=lastMentionPosition", 5, []string{rAI, rPplx, rSerp, rShop, rZebra}},
		{"?sortBy=lastSerpPosition", 5, []string{rSerp, rAI, rShop, rPplx, rZebra}},
		{"?sortBy=lastShoppingPosition&sortOrder=asc", 5, []string{rShop, rAI, rSerp, rPplx, rZebra}},
		{"?sortBy=lastShareOfVoice", 5, []string{rPplx, rAI, rSerp, rShop, rZebra}},
		{"?sortBy=lastPositivityIndex", 5, []string{rAI, rPplx, rSerp, rShop, rZebra}},
		{"?sortBy=lastMentionCount", 5, []string{rPplx, rAI, rSerp, rShop, rZebra}},
		{"?sortBy=lastCheckedAt", 5, []string{rAI, rSerp, rPplx, rShop, rZebra}},
		{"?sortBy=lastCheckedAt&sortOrder=asc", 5, []string{rPplx, rSerp, rAI, rShop, rZebra}},
		{"?search=CRM%20%20Pr", 1, []string{rPplx}},
		{"?search=crm&sortOrder=asc", 4, []string{rAI, rSerp, rShop, rPplx}},
		{"?search=100%25_", 1, []string{rZebra}},
		{"?search=%25", 1, []string{rZebra}},
		{"?search=nothing", 0, []string{}},
		{"?status=paused", 1, []string{rZebra}},
		{"?status=active&sortOrder=asc", 4, []string{rAI, rSerp, rShop, rPplx}},
		{"?engines=chatgpt,google_serp&sortOrder=asc", 3, []string{rAI, rSerp, rZebra}},
		{"?engines=chatgpt&engines=perplexity&sortOrder=asc", 3, []string{rAI, rPplx, rZebra}},
		{"?countries=us&sortOrder=asc", 2, []string{rAI, rPplx}},
		{"?countries=Germany", 1, []string{rSerp}},
		{"?countries=the%20united%20kingdom,FR&sortOrder=asc", 2, []string{rShop, rZebra}},
		{"?countries=US&engines=perplexity&status=active&search=crm", 1, []string{rPplx}},
		{"?limit=2&offset=1&sortOrder=asc", 5, []string{rSerp, rShop}},
		{"?limit=2&offset=4&sortOrder=asc", 5, []string{rZebra}},
		{"?offset=10", 5, []string{}},
	}
	for _, c := range cases {
		total, rows := tf.trackedListing(c.query)
		if total != c.total || !slicesEqual(rows, c.rows) {
			t.Errorf("%s: total %d rows %q, want %d %q", c.query, total, rows, c.total, c.rows)
		}
	}
	// A row carries configuration and metrics.
	var l struct {
		Page []map[string]any `json:"page"`
	}
	l = trackedDecode[struct {
		Page []map[string]any `json:"page"`
	}](t, tf.get(tf.path("?engines=chatgpt&status=active")))
	row := l.Page[0]
	if row["id"] != ai.String() || row["status"] != "active" || row["checkFrequency"] != "daily" || row["nPasses"] != 2.0 ||
		len(row["queryClusterIds"].([]any)) != 2 || row["lastMentionPosition"] != 2.0 || row["lastLinkPosition"] != 1.0 ||
		row["lastSerpPosition"] != nil || row["lastMentionCount"] != 3.0 || row["lastCheckedAt"] == nil {
		t.Fatalf("row %v", row)
	}

	for _, q := range []string{
		"?countries=JP", "?countries=US,Narnia", "?engines=bing", "?sortBy=name", "?sortBy=lastLinkPosition",
		"?sortOrder=up", "?status=archived", "?limit=101", "?limit=0", "?offset=-1", "?queryClusterIds=" + c1.String(),
		"?search=" + strings.Repeat("a", 101), "?includeUngroupedQueries=true", "?engines=", "?countries=,",
	} {
		m := assertError(t, tf.get(tf.path(q)), http.StatusBadRequest, sightline.CodeValidation)
		if len(detailCodesOf(t, m)) == 0 {
			t.Errorf("%s: no details", q)
		}
	}
	m := assertError(t, tf.get(tf.path("?countries=JP")), http.StatusBadRequest, sightline.CodeValidation)
	if d := detailCodesOf(t, m); d["countries"][0] != "invalid_value" {
		t.Fatalf("%v", d)
	}

	// A refresh copies changed configuration and leaves the metrics alone.
	tf.write(http.MethodPut, tf.path("/"+ai.String()+"/pause"), tf.owner.key, "")
	tf.refresh(tf.project)
	l = trackedDecode[struct {
		Page []map[string]any `json:"page"`
	}](t, tf.get(tf.path("?engines=chatgpt&status=paused&sortOrder=asc")))
	if len(l.Page) != 2 || l.Page[0]["status"] != "paused" || l.Page[0]["lastShareOfVoice"] != 40.0 {
		t.Fatalf("after pause and refresh: %v", l.Page)
	}

	// CSV: the same page without total, lists joined, formulas defused.
	tf.createOne("=cmd|calc", "chatgpt", "US")
	tf.refresh(tf.project)
	r := tf.do(call{method: http.MethodGet, path: tf.path("?sortOrder=asc&limit=2"), key: tf.owner.key,
		header: map[string]string{"Accept": "text/csv"}})
	if r.status != http.StatusOK || !strings.HasPrefix(r.header.Get("Content-Type"), "text/csv") {
		t.Fatalf("%d %s", r.status, r.body)
	}
	lines := strings.Split(strings.TrimSpace(string(r.body)), "\n")
	wantHeader := "id,queryText,engine,country,status,checkFrequency,nPasses,queryClusterIds,lastSerpPosition," +
		"lastMentionPosition,lastLinkPosition,lastShoppingPosition,lastShareOfVoice,lastPositivityIndex,lastMentionCount,lastCheckedAt"
	if len(lines) != 3 || lines[0] != wantHeader {
		t.Fatalf("csv:\n%s", r.body)
	}
	if !strings.HasPrefix(lines[1], zebraFreeID(t, tf, "=cmd|calc")+",'=cmd|calc,chatgpt,US,active,daily,2,,,,,,,,0,") {
		t.Fatalf("formula row %q", lines[1])
	}
	if !strings.Contains(lines[2], c1.String()+"; "+c2.String()) {
		t.Fatalf("cluster cell not joined: %q", lines[2])
	}
}

// zebraFreeID returns the id of the project's query with the text.
func zebraFreeID(t *testing.T, tf *trackedFixture, text string) string {
	t.Helper()
	var id uuid.UUID
	if err := tf.pool.QueryRow(context.Background(), `SELECT id FROM tracked_queries WHERE project_id = $1 AND query_text = $2`,
		tf.project, text).Scan(&id); err != nil {
		t.Fatal(err)
	}
	return id.String()
}
