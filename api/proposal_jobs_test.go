package api

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"

	"github.com/sightline/sightline"
	"github.com/sightline/sightline/jobs"
	"github.com/sightline/sightline/olap"
	"github.com/sightline/sightline/olap/olaptest"
	"github.com/sightline/sightline/oltp"
)

// The proposal jobs end to end: real keys, idempotency and stores over
// HTTP, and real River workers (started and stopped by the test, as a
// worker process would be) working the jobs the API enqueues.

type proposalFixture struct {
	*fixture
	admin   member    // owner of org, with every capability
	orgID   uuid.UUID // the organization
	project uuid.UUID // its project
	workers *river.Client[pgx.Tx]
}

func proposalSetup(t *testing.T, opts ...setupOptions) *proposalFixture {
	t.Helper()
	f := &proposalFixture{fixture: setup(t, opts...)}
	f.admin, f.orgID = f.fixture.owner()
	f.project = f.fixture.project(f.orgID, "Acme CRM")
	// Room for 500 ids and 10,000 characters of input.
	f.server.maxBody = DefaultMaxBodyBytes
	t.Cleanup(f.stopWorkers)
	return f
}

// entitle gives the organization a running contract.
func (f *proposalFixture) entitle(org uuid.UUID) {
	f.t.Helper()
	if _, err := oltp.SetSubscription(context.Background(), f.pool, oltp.SubscriptionParams{
		OrganizationID: org, Status: "active", Tier: "growth", BillingInterval: "monthly", CheckBudget: 100,
	}); err != nil {
		f.t.Fatal(err)
	}
}

// startWorkers starts a worker process's River client on the API's
// database.
func (f *proposalFixture) startWorkers() {
	f.t.Helper()
	client, err := jobs.NewClient(f.pool, jobs.Config{Logger: slog.New(slog.DiscardHandler), Work: true,
		MaintenanceWorkers: 2, ProposalWorkers: 2, ClickHouse: f.server.analytics.Conn})
	if err != nil {
		f.t.Fatal(err)
	}
	if err := client.Start(context.Background()); err != nil {
		f.t.Fatal(err)
	}
	f.workers = client
}

// stopWorkers stops the worker client as a SIGTERM past its grace period
// would: running jobs are cancelled.
func (f *proposalFixture) stopWorkers() {
	if f.workers == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := f.workers.StopAndCancel(ctx); err != nil {
		f.t.Errorf("stopping workers: %v", err)
	}
	f.workers = nil
}

func (f *proposalFixture) path(suffix string) string {
	return "/api/v1/organizations/" + f.orgID.String() + "/projects/" + f.project.String() + suffix
}

func (f *proposalFixture) post(key, path, body string) response {
	f.t.Helper()
	return f.do(call{method: http.MethodPost, path: path, key: key, body: body,
		header: map[string]string{"Idempotency-Key": uuid.NewString()}})
}

// track creates tracked queries over the API and returns their ids by text.
func (f *proposalFixture) track(engines string, texts ...string) map[string][]uuid.UUID {
	f.t.Helper()
	quoted, _ := json.Marshal(texts)
	r := f.post(f.admin.key, f.path("/tracked-queries"), `{"queryTexts": `+string(quoted)+`, "engines": [`+engines+
		`], "countries": ["US"], "checkFrequency": "weekly", "nPasses": 1, "queryClusterIds": []}`)
	if r.status != 200 {
		f.t.Fatalf("tracking: %d %s", r.status, r.body)
	}
	var answer struct {
		Successful []struct {
			ID        uuid.UUID `json:"id"`
			QueryText string    `json:"queryText"`
		} `json:"successful"`
	}
	json.Unmarshal(r.body, &answer) //nolint:errcheck // checked by the contract
	out := map[string][]uuid.UUID{}
	for _, s := range answer.Successful {
		out[s.QueryText] = append(out[s.QueryText], s.ID)
	}
	return out
}

// job is a job record as clients read it.
type job struct {
	ID          uuid.UUID       `json:"id"`
	Type        string          `json:"type"`
	Status      string          `json:"status"`
	TrackingURL string          `json:"trackingUrl"`
	CompletedAt *string         `json:"completedAt"`
	Error       *string         `json:"error"`
	Result      json.RawMessage `json:"result"`
}

// start expects a 202 with a queued job.
func (f *proposalFixture) start(path, body string) job {
	f.t.Helper()
	r := f.post(f.admin.key, path, body)
	if r.status != http.StatusAccepted {
		f.t.Fatalf("start %s: %d %s", path, r.status, r.body)
	}
	var j job
	if err := json.Unmarshal(r.body, &j); err != nil {
		f.t.Fatal(err)
	}
	if j.Status != "queued" || j.TrackingURL != "/api/v1/organizations/"+f.orgID.String()+"/jobs/"+j.ID.String() ||
		string(j.Result) != "null" || j.Error != nil || j.CompletedAt != nil {
		f.t.Fatalf("started job %s", r.body)
	}
	return j
}

// poll reads the job until its status is terminal.
func (f *proposalFixture) poll(j job, within time.Duration) job {
	f.t.Helper()
	deadline := time.Now().Add(within)
	for {
		r := f.do(call{method: http.MethodGet, path: j.TrackingURL, key: f.admin.key})
		if r.status != 200 {
			f.t.Fatalf("poll: %d %s", r.status, r.body)
		}
		var got job
		if err := json.Unmarshal(r.body, &got); err != nil {
			f.t.Fatal(err)
		}
		if got.Status == "completed" || got.Status == "failed" {
			return got
		}
		if time.Now().After(deadline) {
			f.t.Fatalf("job still %s after %v", got.Status, within)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

type clusteringResult struct {
	Clusters []struct {
		Name            string      `json:"name"`
		ClusterID       *uuid.UUID  `json:"clusterId"`
		TrackedQueryIDs []uuid.UUID `json:"trackedQueryIds"`
	} `json:"clusters"`
	Unassigned []uuid.UUID `json:"unassignedTrackedQueryIds"`
	NotFound   []uuid.UUID `json:"notFoundTrackedQueryIds"`
}

type applyAnswer struct {
	Successful []struct {
		ID              uuid.UUID   `json:"id"`
		QueryClusterIDs []uuid.UUID `json:"queryClusterIds"`
	} `json:"successful"`
	Failed []struct {
		ID        string `json:"id"`
		ErrorCode string `json:"errorCode"`
	} `json:"failed"`
	Unassigned []uuid.UUID `json:"unassigned"`
}

func (f *proposalFixture) apply(j job) applyAnswer {
	f.t.Helper()
	r := f.post(f.admin.key, f.path("/clusters/jobs/"+j.ID.String()+"/apply"), "")
	if r.status != 200 {
		f.t.Fatalf("apply: %d %s", r.status, r.body)
	}
	var a applyAnswer
	if err := json.Unmarshal(r.body, &a); err != nil {
		f.t.Fatal(err)
	}
	return a
}

// memberships returns each query's cluster names.
func (f *proposalFixture) memberships() map[uuid.UUID][]string {
	f.t.Helper()
	rows, err := f.pool.Query(context.Background(), `
		SELECT m.tracked_query_id, c.name FROM tracked_query_clusters m JOIN query_clusters c ON c.id = m.cluster_id
		WHERE m.project_id = $1 ORDER BY c.name`, f.project)
	if err != nil {
		f.t.Fatal(err)
	}
	out := map[uuid.UUID][]string{}
	var q uuid.UUID
	var name string
	if _, err := pgx.ForEachRow(rows, []any{&q, &name}, func() error {
		out[q] = append(out[q], name)
		return nil
	}); err != nil {
		f.t.Fatal(err)
	}
	return out
}

func idsJSON(ids ...uuid.UUID) string {
	b, _ := json.Marshal(ids)
	return string(b)
}

// TestProposalClusteringEndToEnd starts clustering jobs, polls them to
// completion and applies them under each mode.
func TestProposalClusteringEndToEnd(t *testing.T) {
	t.Parallel()
	f := proposalSetup(t)
	f.entitle(f.orgID)
	q := f.track(`"chatgpt", "google_serp"`, "best crm for startups", "crm for small business",
		"email marketing tool pricing", "best email marketing software", "weather tomorrow")
	crm1, crm2, mail1, mail2, odd := q["best crm for startups"], q["crm for small business"],
		q["email marketing tool pricing"], q["best email marketing software"], q["weather tomorrow"][0]
	// An existing cluster, holding one of the email queries already.
	var existing struct {
		ID uuid.UUID `json:"id"`
	}
	r := f.post(f.admin.key, f.path("/clusters"), `{"name": "Email Marketing"}`)
	json.Unmarshal(r.body, &existing) //nolint:errcheck
	if r := f.do(call{method: "PUT", path: f.path("/tracked-queries/" + mail2[0].String() + "/clusters"), key: f.admin.key,
		body: `{"queryClusterIds": ["` + existing.ID.String() + `"]}`, header: map[string]string{"Idempotency-Key": uuid.NewString()}}); r.status != 200 {
		t.Fatalf("membership: %d %s", r.status, r.body)
	}
	all := slices.Concat(crm1, crm2, mail1, mail2, []uuid.UUID{odd})
	body := func(mode string) string {
		// Duplicates are collapsed.
		return `{"trackedQueryIds": ` + idsJSON(append(all, crm1[0])...) + `, "mode": "` + mode + `"}`
	}

	// fill_gaps, started while no worker runs: it stays queued and cannot
	// be applied yet.
	fill := f.start(f.path("/clusters/jobs"), body("fill_gaps"))
	if fill.Type != "clustering" {
		t.Fatalf("type %s", fill.Type)
	}
	assertError(t, f.post(f.admin.key, f.path("/clusters/jobs/"+fill.ID.String()+"/apply"), ""), 409, sightline.CodeJobNotCompleted)
	var before int
	f.pool.QueryRow(context.Background(), `SELECT count(*) FROM query_clusters WHERE project_id = $1`, f.project).Scan(&before)
	f.startWorkers()
	fill = f.poll(fill, 30*time.Second)
	if fill.Status != "completed" || fill.CompletedAt == nil {
		t.Fatalf("fill_gaps job %+v", fill)
	}
	var after int
	f.pool.QueryRow(context.Background(), `SELECT count(*) FROM query_clusters WHERE project_id = $1`, f.project).Scan(&after)
	if after != before {
		t.Fatal("the job wrote clusters before its apply")
	}
	var fr clusteringResult
	json.Unmarshal(fill.Result, &fr) //nolint:errcheck
	names := map[string]int{}
	for _, c := range fr.Clusters {
		names[c.Name] = len(c.TrackedQueryIDs)
		if c.Name == "email marketing" && (c.ClusterID == nil || *c.ClusterID != existing.ID) {
			t.Errorf("email queries not proposed to the existing cluster: %+v", c)
		}
	}
	// Both engines of each text go together; the grouped query is left out.
	if names["crm"] != 4 || names["email marketing"] != 3 || len(fr.Unassigned) != 2 {
		t.Fatalf("fill_gaps proposal %s", fill.Result)
	}
	a := f.apply(fill)
	if len(a.Successful) != 7 || len(a.Failed) != 0 || len(a.Unassigned) != 2 || !slices.Contains(a.Unassigned, odd) {
		t.Fatalf("fill_gaps apply %+v", a)
	}
	m := f.memberships()
	if !slices.Equal(m[crm1[0]], []string{"crm"}) || !slices.Equal(m[crm2[1]], []string{"crm"}) ||
		!slices.Equal(m[mail1[0]], []string{"email marketing"}) || len(m[odd]) != 0 {
		t.Fatalf("memberships after fill_gaps %v", m)
	}

	// add_on_top adds on top of what a query has: give one crm query an
	// extra cluster first, which it keeps.
	r = f.post(f.admin.key, f.path("/clusters"), `{"name": "startups"}`)
	var startups struct {
		ID uuid.UUID `json:"id"`
	}
	json.Unmarshal(r.body, &startups) //nolint:errcheck
	f.do(call{method: "PUT", path: f.path("/tracked-queries/" + odd.String() + "/clusters"), key: f.admin.key,
		body: `{"queryClusterIds": ["` + startups.ID.String() + `"]}`, header: map[string]string{"Idempotency-Key": uuid.NewString()}})
	add := f.poll(f.start(f.path("/clusters/jobs"), body("add_on_top")), 30*time.Second)
	a = f.apply(add)
	// The odd query's own cluster now has it as a member, so the job
	// proposes that cluster again: a no-op.
	if len(a.Successful) != 9 || len(a.Unassigned) != 0 {
		t.Fatalf("add_on_top apply %+v", a)
	}
	if m := f.memberships(); !slices.Equal(m[odd], []string{"startups"}) || !slices.Equal(m[mail2[0]], []string{"email marketing"}) {
		t.Fatalf("memberships after add_on_top %v", m)
	}

	// full_regroup replaces a query's clusters with the proposed one.
	f.do(call{method: "PUT", path: f.path("/tracked-queries/" + crm1[0].String() + "/clusters"), key: f.admin.key,
		body: `{"queryClusterIds": ["` + startups.ID.String() + `"]}`, header: map[string]string{"Idempotency-Key": uuid.NewString()}})
	if m := f.memberships(); !slices.Equal(m[crm1[0]], []string{"crm", "startups"}) {
		t.Fatalf("before full_regroup %v", m[crm1[0]])
	}
	regroup := f.poll(f.start(f.path("/clusters/jobs"), body("full_regroup")), 30*time.Second)
	a = f.apply(regroup)
	m = f.memberships()
	if !slices.Equal(m[crm1[0]], []string{"crm"}) || !slices.Equal(m[odd], []string{"startups"}) {
		t.Fatalf("memberships after full_regroup %v", m)
	}
	for _, s := range a.Successful {
		if s.ID == crm1[0] && len(s.QueryClusterIDs) != 1 {
			t.Fatalf("answer after full_regroup %+v", s)
		}
	}

	// restrictToExistingClusters proposes only the project's clusters.
	restricted := f.poll(f.start(f.path("/clusters/jobs"), `{"trackedQueryIds": `+idsJSON(all...)+
		`, "mode": "add_on_top", "restrictToExistingClusters": true}`), 30*time.Second)
	var rr clusteringResult
	json.Unmarshal(restricted.Result, &rr) //nolint:errcheck
	for _, c := range rr.Clusters {
		if c.ClusterID == nil {
			t.Fatalf("restricted job proposed a new cluster %q", c.Name)
		}
	}

	// Apply takes no body and refuses a job that assigns nothing.
	assertError(t, f.post(f.admin.key, f.path("/clusters/jobs/"+fill.ID.String()+"/apply"), "{}"), 400, sightline.CodeBadRequest)
	lonely := f.poll(f.start(f.path("/clusters/jobs"), `{"trackedQueryIds": ["`+odd.String()+`"], "mode": "full_regroup"}`), 30*time.Second)
	assertError(t, f.post(f.admin.key, f.path("/clusters/jobs/"+lonely.ID.String()+"/apply"), ""), 409, sightline.CodeJobHasNoAssignments)
	// A deleted query fails its item; the rest still applies.
	f.post(f.admin.key, f.path("/tracked-queries/bulk-delete"), `{"ids": ["`+mail1[0].String()+`"]}`)
	a = f.apply(add)
	if len(a.Failed) != 1 || a.Failed[0].ID != mail1[0].String() || a.Failed[0].ErrorCode != "tracked_query_not_found" {
		t.Fatalf("apply after a delete %+v", a)
	}
	// An archived project refuses the apply.
	f.post(f.admin.key, f.path("/archive"), "")
	assertError(t, f.post(f.admin.key, f.path("/clusters/jobs/"+add.ID.String()+"/apply"), ""), 409, sightline.CodeProjectIsArchived)
}

// TestProposalJobsFailReadablyAndSurviveWorkerRestarts: a job whose
// worker is stopped mid-run goes back to the queue and the next worker
// finishes it; a job that cannot be done ends failed with a readable error.
func TestProposalJobsFailReadablyAndSurviveWorkerRestarts(t *testing.T) {
	t.Parallel()
	f := proposalSetup(t)
	f.entitle(f.orgID)
	q := f.track(`"chatgpt"`, "best crm for startups", "crm for small business", "crm pricing")
	ids := slices.Concat(q["best crm for startups"], q["crm for small business"], q["crm pricing"])
	ctx := context.Background()

	// Hold the clusters table so the worker blocks mid-job, then stop it.
	hold, err := f.pool.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := hold.Exec(ctx, `LOCK TABLE query_clusters IN ACCESS EXCLUSIVE MODE`); err != nil {
		t.Fatal(err)
	}
	j := f.start(f.path("/clusters/jobs"), `{"trackedQueryIds": `+idsJSON(ids...)+`, "mode": "fill_gaps"}`)
	f.startWorkers()
	deadline := time.Now().Add(20 * time.Second)
	for {
		var got job
		json.Unmarshal(f.do(call{method: "GET", path: j.TrackingURL, key: f.admin.key}).body, &got) //nolint:errcheck
		if got.Status == "running" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("job never ran: %+v", got)
		}
		time.Sleep(50 * time.Millisecond)
	}
	f.stopWorkers()
	hold.Rollback(ctx) //nolint:errcheck
	var status string
	f.pool.QueryRow(ctx, `SELECT status FROM proposal_jobs WHERE id = $1`, j.ID).Scan(&status)
	if status != "queued" {
		t.Fatalf("after the worker stopped the job is %s, want queued", status)
	}
	f.startWorkers()
	if done := f.poll(j, 45*time.Second); done.Status != "completed" {
		t.Fatalf("after the restart: %+v", done)
	}

	// Queries deleted before the job runs leave nothing to cluster.
	f.stopWorkers()
	gone := f.start(f.path("/clusters/jobs"), `{"trackedQueryIds": `+idsJSON(ids[0])+`, "mode": "fill_gaps"}`)
	f.post(f.admin.key, f.path("/tracked-queries/bulk-delete"), `{"ids": ["`+ids[0].String()+`"]}`)
	f.startWorkers()
	failed := f.poll(gone, 30*time.Second)
	if failed.Status != "failed" || failed.Error == nil || !strings.Contains(*failed.Error, "nothing to cluster") ||
		failed.CompletedAt == nil || string(failed.Result) != "null" {
		t.Fatalf("failed job %+v", failed)
	}
	assertError(t, f.post(f.admin.key, f.path("/clusters/jobs/"+gone.ID.String()+"/apply"), ""), 409, sightline.CodeJobNotCompleted)
}

// TestProposalStarts covers what every start checks: roles, bodies, the
// subscription, the organization's and project's states.
func TestProposalStarts(t *testing.T) {
	t.Parallel()
	f := proposalSetup(t)
	q := f.track(`"chatgpt"`, "best crm")
	id := q["best crm"][0]
	orgPath := "/api/v1/organizations/" + f.orgID.String()
	clustering, brands, keywords := f.path("/clusters/jobs"), f.path("/discovery/brands"), f.path("/discovery/keywords")
	names := orgPath + "/brand-name-suggestions"
	clusterBody := `{"trackedQueryIds": ["` + id.String() + `"], "mode": "fill_gaps"}`
	keywordBody := `{"input": "crm for startups"}`
	nameBody := `{"name": "Acme", "websiteDomains": ["acme.com"]}`

	t.Run("validation names every field", func(t *testing.T) {
		cases := []struct {
			path, body string
			want       map[string]string
		}{
			{clustering, `{"trackedQueryIds": ["nope"], "mode": "sideways", "restrictToExistingClusters": "yes", "extra": 1}`,
				map[string]string{"trackedQueryIds[0]": "invalid_uuid", "mode": "invalid_value",
					"restrictToExistingClusters": "invalid_type", "extra": "unknown_field"}},
			{clustering, `{"trackedQueryIds": []}`, map[string]string{"trackedQueryIds": "out_of_range", "mode": "missing_field"}},
			{clustering, `{"trackedQueryIds": ` + idsJSON(manyIDs(501)...) + `, "mode": "fill_gaps"}`,
				map[string]string{"trackedQueryIds": "out_of_range"}},
			{names, `{"name": "` + strings.Repeat("n", 256) + `", "websiteDomains": ["not a domain"], "enteredBrandNames": [""], "country": "USA"}`,
				map[string]string{"name": "out_of_range", "websiteDomains[0]": "invalid_value",
					"enteredBrandNames[0]": "out_of_range", "country": "out_of_range"}},
			{names, `{"websiteDomains": [], "country": "ZZ"}`,
				map[string]string{"name": "missing_field", "websiteDomains": "out_of_range", "country": "invalid_value"}},
			{brands, `{"shoppingEnabled": 1, "country": "us ", "id": "x"}`,
				map[string]string{"shoppingEnabled": "invalid_type", "country": "out_of_range", "id": "unknown_field"}},
			{keywords, `{"input": "` + strings.Repeat("a", 10001) + `", "language": "english", "country": "XX", "excludeQueries": ["", 3]}`,
				map[string]string{"input": "out_of_range", "language": "out_of_range", "country": "invalid_value",
					"excludeQueries[0]": "invalid_value", "excludeQueries[1]": "invalid_type"}},
			{keywords, `{"input": "  ", "language": "zz"}`, map[string]string{"input": "invalid_value", "language": "invalid_value"}},
		}
		for _, c := range cases {
			m := assertError(t, f.post(f.admin.key, c.path, c.body), 400, sightline.CodeValidation)
			got := detailCodesOf(t, m)
			for field, code := range c.want {
				if !slices.Contains(got[field], code) {
					t.Errorf("%s %s: %s has %v, want %s", c.path, c.body[:min(len(c.body), 60)], field, got[field], code)
				}
			}
			if len(got) != len(c.want) {
				t.Errorf("%s: details %v, want %v", c.path, got, c.want)
			}
		}
		// Discovery of brands takes an empty body; keyword discovery needs one.
		assertError(t, f.post(f.admin.key, keywords, ""), 400, sightline.CodeBadRequest)
	})

	t.Run("subscription", func(t *testing.T) {
		assertError(t, f.post(f.admin.key, clustering, clusterBody), 402, sightline.CodeSubscriptionRequired)
		assertError(t, f.post(f.admin.key, keywords, keywordBody), 402, sightline.CodeSubscriptionRequired)
		// Brand discovery and name suggestions need none; brand discovery
		// also takes a project without a brand profile.
		f.start(brands, "")
		f.start(names, nameBody)
		bare := uuid.Must(uuid.NewV7())
		if _, err := f.pool.Exec(context.Background(), `INSERT INTO projects (id, organization_id, name) VALUES ($1, $2, 'Bare')`,
			bare, f.orgID); err != nil {
			t.Fatal(err)
		}
		f.start("/api/v1/organizations/"+f.orgID.String()+"/projects/"+bare.String()+"/discovery/brands", `{"shoppingEnabled": true}`)
		// A cancelled contract is not entitled either.
		other := f.org(f.admin, "Cancelled "+uuid.NewString()[:6])
		if _, err := oltp.SetSubscription(context.Background(), f.pool, oltp.SubscriptionParams{
			OrganizationID: other, Status: "cancelled", Tier: "growth", BillingInterval: "monthly", CheckBudget: 10,
		}); err != nil {
			t.Fatal(err)
		}
		p := f.fixture.project(other, "Other")
		assertError(t, f.post(f.admin.key, "/api/v1/organizations/"+other.String()+"/projects/"+p.String()+"/discovery/keywords",
			keywordBody), 402, sightline.CodeSubscriptionRequired)
		f.entitle(f.orgID)
		f.start(clustering, clusterBody)
		f.start(keywords, `{"input": "crm", "language": "en-US", "country": "gb", "excludeQueries": ["CRM  Pricing"]}`)
	})

	t.Run("nothing to cluster", func(t *testing.T) {
		assertError(t, f.post(f.admin.key, clustering, `{"trackedQueryIds": ["`+uuid.NewString()+`"], "mode": "fill_gaps"}`),
			409, sightline.CodeNothingToCluster)
		assertError(t, f.post(f.admin.key, clustering, `{"trackedQueryIds": ["`+id.String()+`"], "mode": "fill_gaps", "restrictToExistingClusters": true}`),
			409, sightline.CodeNothingToCluster)
	})

	t.Run("roles and capabilities", func(t *testing.T) {
		viewer := f.user()
		f.join(f.orgID, viewer, sightline.RoleViewer, sightline.MembershipActive)
		viewer = f.keyFor(viewer, nil, sightline.Capabilities...)
		readOnly := f.keyFor(f.admin, nil, sightline.CapabilityRead)
		for _, path := range []string{clustering, brands, keywords, names} {
			assertError(t, f.post(viewer.key, path, "{}"), 403, sightline.CodeCapabilityRequired)
			assertError(t, f.post(readOnly.key, path, "{}"), 403, sightline.CodeCapabilityRequired)
		}
	})

	t.Run("another organization's project", func(t *testing.T) {
		other := f.org(f.admin, "Other "+uuid.NewString()[:6])
		p := f.fixture.project(other, "Theirs")
		for path, body := range map[string]string{"/clusters/jobs": clusterBody, "/discovery/brands": "{}",
			"/discovery/keywords": keywordBody} {
			assertError(t, f.post(f.admin.key, "/api/v1/organizations/"+f.orgID.String()+"/projects/"+p.String()+path, body),
				404, sightline.CodeOrganizationNotFound)
		}
	})

	t.Run("archived states", func(t *testing.T) {
		org := f.org(f.admin, "Archive "+uuid.NewString()[:6])
		f.entitle(org)
		p := f.fixture.project(org, "Archived")
		base := "/api/v1/organizations/" + org.String()
		f.pool.Exec(context.Background(), `UPDATE projects SET status = 'archived', archived_by = 'caller', archived_at = now() WHERE id = $1`, p)
		assertError(t, f.post(f.admin.key, base+"/projects/"+p.String()+"/discovery/brands", ""), 409, sightline.CodeProjectIsArchived)
		assertError(t, f.post(f.admin.key, base+"/projects/"+p.String()+"/discovery/keywords", keywordBody), 409, sightline.CodeProjectIsArchived)
		f.pool.Exec(context.Background(), `UPDATE organizations SET status = 'archived', archived_at = now() WHERE id = $1`, org)
		assertError(t, f.post(f.admin.key, base+"/brand-name-suggestions", nameBody), 409, sightline.CodeProjectIsArchived)
	})
}

func manyIDs(n int) []uuid.UUID {
	out := make([]uuid.UUID, n)
	for i := range out {
		out[i] = uuid.New()
	}
	return out
}

// TestProposalJobStartLimit: ten starts a minute per organization, across
// the four operations; replays and refusals do not count.
func TestProposalJobStartLimit(t *testing.T) {
	t.Parallel()
	f := proposalSetup(t)
	names := "/api/v1/organizations/" + f.orgID.String() + "/brand-name-suggestions"
	nameBody := `{"name": "Acme", "websiteDomains": ["acme.com"]}`
	send := func(path, body, key string) response {
		return f.do(call{method: "POST", path: path, key: f.admin.key, body: body, header: map[string]string{"Idempotency-Key": key}})
	}
	for i := range 10 {
		path, body := names, nameBody
		if i%2 == 1 {
			path, body = f.path("/discovery/brands"), ""
		}
		if r := send(path, body, "job-start-"+strconv.Itoa(i)); r.status != 202 {
			t.Fatalf("start %d: %d %s", i+1, r.status, r.body)
		}
	}
	if r := send(names, nameBody, "job-start-0"); r.status != 202 || r.header.Get("Idempotent-Replayed") != "true" {
		t.Fatalf("replay: %d %s", r.status, r.body)
	}
	for _, c := range []struct{ path, body string }{
		{names, nameBody}, {f.path("/discovery/brands"), ""},
	} {
		r := send(c.path, c.body, uuid.NewString())
		assertError(t, r, http.StatusTooManyRequests, sightline.CodeRateLimitExceeded)
		if s, err := strconv.Atoi(r.header.Get("Retry-After")); err != nil || s < 1 || s > 60 {
			t.Fatalf("Retry-After %q", r.header.Get("Retry-After"))
		}
	}
	// Refused starts never took a start: a fresh organization refused
	// eleven times (no subscription) still starts its ten.
	other := f.org(f.admin, "Limits "+uuid.NewString()[:6])
	p := f.fixture.project(other, "Limits")
	keywords := "/api/v1/organizations/" + other.String() + "/projects/" + p.String() + "/discovery/keywords"
	for range 11 {
		assertError(t, send(keywords, `{"input": "crm"}`, uuid.NewString()), 402, sightline.CodeSubscriptionRequired)
	}
	f.entitle(other)
	for i := range 10 {
		if r := send(keywords, `{"input": "crm"}`, uuid.NewString()); r.status != 202 {
			t.Fatalf("other organization start %d: %d %s", i+1, r.status, r.body)
		}
	}
}

// TestProposalJobPolling: the job record for any member, and 404 for a
// job of another organization exactly as for a missing one.
func TestProposalJobPolling(t *testing.T) {
	t.Parallel()
	f := proposalSetup(t)
	j := f.start("/api/v1/organizations/"+f.orgID.String()+"/brand-name-suggestions", `{"name": "HubSpot", "websiteDomains": ["hubspot.com"]}`)
	viewer := f.user()
	f.join(f.orgID, viewer, sightline.RoleViewer, sightline.MembershipActive)
	viewer = f.keyFor(viewer, nil, sightline.CapabilityRead)
	if r := f.do(call{method: "GET", path: j.TrackingURL, key: viewer.key}); r.status != 200 || !strings.Contains(string(r.body), `"queued"`) {
		t.Fatalf("viewer: %d %s", r.status, r.body)
	}
	f.startWorkers()
	done := f.poll(j, 30*time.Second)
	if done.Status != "completed" || !strings.Contains(string(done.Result), `{"name":"Hub Spot","reason":"casing"}`) {
		t.Fatalf("suggestions %s", done.Result)
	}

	// Another organization of the same owner.
	other := f.org(f.admin, "Other "+uuid.NewString()[:6])
	otherProject := f.fixture.project(other, "Theirs")
	missing := map[string]response{
		"job of another organization": f.do(call{method: "GET", path: "/api/v1/organizations/" + other.String() + "/jobs/" + j.ID.String(), key: f.admin.key}),
		"unknown job":                 f.do(call{method: "GET", path: "/api/v1/organizations/" + f.orgID.String() + "/jobs/" + uuid.NewString(), key: f.admin.key}),
		"malformed id":                f.do(call{method: "GET", path: "/api/v1/organizations/" + f.orgID.String() + "/jobs/nope", key: f.admin.key}),
	}
	var bodies []string
	for what, r := range missing {
		m := assertError(t, r, 404, sightline.CodeOrganizationNotFound)
		bodies = append(bodies, m["message"].(string))
		_ = what
	}
	if bodies[0] != bodies[1] || bodies[1] != bodies[2] {
		t.Errorf("404 messages differ: %q", bodies)
	}
	// Apply under another project, or of a job that is no clustering job.
	assertError(t, f.post(f.admin.key, "/api/v1/organizations/"+other.String()+"/projects/"+otherProject.String()+
		"/clusters/jobs/"+j.ID.String()+"/apply", ""), 404, sightline.CodeOrganizationNotFound)
	assertError(t, f.post(f.admin.key, f.path("/clusters/jobs/"+j.ID.String()+"/apply"), ""), 404, sightline.CodeOrganizationNotFound)
	// An organization the key's owner is not in.
	stranger := f.keyFor(f.user(), nil, sightline.Capabilities...)
	assertError(t, f.do(call{method: "GET", path: j.TrackingURL, key: stranger.key}), 404, sightline.CodeOrganizationNotFound)
}

// TestProposalDiscoveryEndToEnd runs brand and keyword discovery over
// captures stored in ClickHouse.
func TestProposalDiscoveryEndToEnd(t *testing.T) {
	t.Parallel()
	f := proposalSetup(t, setupOptions{analytics: true})
	f.entitle(f.orgID)
	ctx := context.Background()
	// The project tracks Acme (acme.com) and the competitor Globex.
	if r := f.post(f.admin.key, f.path("/competitors"), `{"name": "Globex", "websiteDomains": ["globex.com"], "brandNames": ["Globex"]}`); r.status != 201 {
		t.Fatalf("competitor: %d %s", r.status, r.body)
	}
	f.track(`"chatgpt"`, "best crm software")
	day := time.Now().UTC().AddDate(0, 0, -2)
	pass := func(engine sightline.Engine, hour int) olap.PassRows {
		return olap.PassRows{Pass: olap.Pass{OrganizationID: f.orgID, ProjectID: f.project, TrackedQueryID: uuid.New(),
			RunID: uuid.New(), PassCount: 1, Engine: engine, Country: "US", QueryText: "best crm software",
			CapturedAt: day.Add(time.Duration(hour) * time.Hour)}}
	}
	mention := func(name string, rel sightline.Relation, pos int) olap.Mention {
		return olap.Mention{BrandName: name, Relation: rel, Position: pos, Type: sightline.MentionListing,
			Tone: sightline.ToneNeutral, Qualifier: sightline.QualifierDirect, Sentence: name + "."}
	}
	var passes []olap.PassRows
	for i := range 3 {
		a := pass(sightline.EngineChatGPT, i)
		a.ResponseText = "Acme, Blue Fox and Zenora."
		a.Mentions = []olap.Mention{mention("Acme", sightline.RelationOwn, 1), mention("Blue Fox", sightline.RelationUntrackedCompetitor, 2)}
		if i == 0 {
			a.Mentions = append(a.Mentions, mention("Zenora", sightline.RelationUntrackedCompetitor, 3))
		}
		s := pass(sightline.EngineGoogleSERP, i)
		s.SearchResults = []olap.SearchResult{
			{Rank: 1, URL: "https://www.g2.com/crm", Domain: "g2.com", Title: "Best CRM Software for Sales Teams | G2"},
			{Rank: 2, URL: "https://bluefox.com/", Domain: "bluefox.com", Title: "Blue Fox - CRM for sales pipeline management"},
			{Rank: 3, URL: "https://acme.com/", Domain: "acme.com", Title: "Acme CRM", Relation: sightline.RelationOwn},
			{Rank: 4, URL: "https://initech.io/", Domain: "initech.io", Title: "Initech | Sales pipeline management software"},
		}
		passes = append(passes, a, s)
	}
	if err := olaptest.InsertPasses(ctx, f.server.analytics.Conn, passes); err != nil {
		t.Fatal(err)
	}
	f.startWorkers()

	brands := f.poll(f.start(f.path("/discovery/brands"), `{"country": "us"}`), 30*time.Second)
	var br struct {
		Brands []struct {
			Name           string   `json:"name"`
			WebsiteDomains []string `json:"websiteDomains"`
			MentionCount   int      `json:"mentionCount"`
		} `json:"brands"`
	}
	json.Unmarshal(brands.Result, &br) //nolint:errcheck
	var got []string
	for _, b := range br.Brands {
		got = append(got, b.Name)
	}
	if !slices.Equal(got, []string{"Blue Fox", "Initech", "Zenora"}) || br.Brands[0].MentionCount != 3 ||
		!slices.Equal(br.Brands[0].WebsiteDomains, []string{"bluefox.com"}) {
		t.Fatalf("brands %s", brands.Result)
	}
	// Another country has no captures.
	empty := f.poll(f.start(f.path("/discovery/brands"), `{"country": "DE", "shoppingEnabled": true}`), 30*time.Second)
	if !strings.Contains(string(empty.Result), `"brands":[]`) {
		t.Fatalf("brands in DE %s", empty.Result)
	}

	keywords := f.poll(f.start(f.path("/discovery/keywords"), `{"input": "CRM for sales teams.\nsales pipeline management\ncrm pricing",
		"excludeQueries": ["CRM Pricing"]}`), 30*time.Second)
	var kr struct {
		Keywords []struct {
			QueryText string `json:"queryText"`
			Source    string `json:"source"`
		} `json:"keywords"`
	}
	json.Unmarshal(keywords.Result, &kr) //nolint:errcheck
	texts := map[string]string{}
	for _, k := range kr.Keywords {
		texts[k.QueryText] = k.Source
	}
	for _, want := range []string{"sales pipeline management", "crm for sales teams", "globex alternatives"} {
		if _, ok := texts[want]; !ok {
			t.Errorf("keywords lack %q: %s", want, keywords.Result)
		}
	}
	for _, never := range []string{"crm pricing", "best crm software"} {
		if _, ok := texts[never]; ok {
			t.Errorf("keywords propose %q, tracked or excluded", never)
		}
	}
}
