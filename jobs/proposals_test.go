package jobs_test

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"slices"
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertest"
	"github.com/riverqueue/river/rivertype"

	"github.com/sightline/sightline"
	"github.com/sightline/sightline/jobs"
	"github.com/sightline/sightline/olap"
	"github.com/sightline/sightline/olap/olaptest"
	"github.com/sightline/sightline/oltp"
	"github.com/sightline/sightline/proposal"
)

// proposalsEnv is a project with tracked queries and a proposal worker.
type proposalsEnv struct {
	*checksEnv
	org, project uuid.UUID
	worker       *jobs.ProposalWorker
}

func proposalsSetup(t *testing.T) *proposalsEnv {
	t.Helper()
	e := &proposalsEnv{checksEnv: checksSetup(t)}
	e.org, _ = e.checksEnv.org(10)
	e.project = e.checksEnv.project(e.org)
	// Tests that read captures give the worker its ClickHouse.
	e.worker = &jobs.ProposalWorker{Pool: e.pool, Logger: slog.New(slog.DiscardHandler)}
	return e
}

// start stores a queued job as the API does.
func (e *proposalsEnv) start(typ sightline.JobType, input any) uuid.UUID {
	e.t.Helper()
	project := &e.project
	if typ == sightline.JobBrandNameSuggestion {
		project = nil
	}
	j, err := oltp.InsertProposalJob(e.ctx, e.pool, oltp.NewProposalJob{OrganizationID: e.org, ProjectID: project,
		Type: typ, Input: input})
	if err != nil {
		e.t.Fatal(err)
	}
	return j.ID
}

// work runs attempt n of the job as River would.
func (e *proposalsEnv) work(ctx context.Context, id uuid.UUID, attempt int) error {
	job := &river.Job[jobs.ProposalArgs]{
		JobRow: &rivertype.JobRow{ID: 1, Attempt: attempt, MaxAttempts: jobs.ProposalMaxAttempts, Kind: "proposal"},
		Args:   jobs.ProposalArgs{JobID: id},
	}
	return e.worker.Work(rivertest.WorkContext(ctx, e.client), job)
}

func (e *proposalsEnv) job(id uuid.UUID) *oltp.ProposalJob {
	e.t.Helper()
	j, err := oltp.GetProposalJob(e.ctx, e.pool, e.org, id)
	if err != nil {
		e.t.Fatal(err)
	}
	return j
}

func TestProposalWorkerClusters(t *testing.T) {
	t.Parallel()
	e := proposalsSetup(t)
	var ids []uuid.UUID
	for _, text := range []string{"best crm for startups", "crm for small business", "email marketing tool pricing",
		"best email marketing software"} {
		ids = append(ids, e.query(e.project, checksQuery{text: text}))
	}
	// The same text on another engine is clustered with its twin.
	twin := e.query(e.project, checksQuery{text: "best crm for startups", engine: "perplexity"})
	missing := uuid.New()
	id := e.start(sightline.JobClustering, jobs.ClusteringInput{
		TrackedQueryIDs: append(ids, twin, missing), Mode: sightline.ModeAddOnTop})
	if err := e.work(e.ctx, id, 1); err != nil {
		t.Fatal(err)
	}
	j := e.job(id)
	if j.Status != sightline.JobCompleted || j.CompletedAt == nil || j.Error != nil {
		t.Fatalf("job %+v", j)
	}
	var p proposal.ClusterProposal
	if err := json.Unmarshal(j.Result, &p); err != nil {
		t.Fatal(err)
	}
	if len(p.Clusters) != 2 || p.Clusters[0].Name != "crm" || len(p.Clusters[0].TrackedQueryIDs) != 3 ||
		p.Clusters[0].TrackedQueryIDs[2] != twin || len(p.Clusters[0].QueryTexts) != 2 || p.Clusters[1].Name != "email marketing" {
		t.Fatalf("proposal %+v", p)
	}
	if len(p.NotFound) != 1 || p.NotFound[0] != missing || len(p.Unassigned) != 0 {
		t.Fatalf("not found %v, unassigned %v", p.NotFound, p.Unassigned)
	}
	var memberships int
	e.pool.QueryRow(e.ctx, `SELECT count(*) FROM tracked_query_clusters`).Scan(&memberships)
	var clusters int
	e.pool.QueryRow(e.ctx, `SELECT count(*) FROM query_clusters`).Scan(&clusters)
	if memberships+clusters != 0 {
		t.Fatal("a job wrote clusters or memberships")
	}
	// A finished job is not worked again.
	if err := e.work(e.ctx, id, 2); err != nil {
		t.Fatal(err)
	}
	if again := e.job(id); string(again.Result) != string(j.Result) {
		t.Fatal("a finished job was worked again")
	}
}

// A worker that died mid-job left it running; River's next attempt
// finishes it.
func TestProposalWorkerResumesAJobLeftRunning(t *testing.T) {
	t.Parallel()
	e := proposalsSetup(t)
	id := e.start(sightline.JobBrandNameSuggestion, jobs.BrandNameInput{Name: "HubSpot", WebsiteDomains: []string{"hubspot.com"}})
	e.exec(`UPDATE proposal_jobs SET status = 'running', attempt = 1 WHERE id = $1`, id)
	if err := e.work(e.ctx, id, 2); err != nil {
		t.Fatal(err)
	}
	j := e.job(id)
	if j.Status != sightline.JobCompleted || j.Attempt != 2 || !strings.Contains(string(j.Result), `"Hub Spot"`) {
		t.Fatalf("job %+v %s", j, j.Result)
	}
}

// A store that does not answer is retried; after the last attempt the job
// fails with a readable error and River stops.
func TestProposalWorkerFailsReadablyAfterItsAttempts(t *testing.T) {
	t.Parallel()
	e := proposalsSetup(t)
	e.worker.Discovery = olap.Discovery{Conn: olaptest.NewConn(t)}
	if err := e.worker.Discovery.Conn.Exec(e.ctx, "DROP TABLE mentions"); err != nil {
		t.Fatal(err)
	}
	id := e.start(sightline.JobBrandDiscovery, jobs.BrandDiscoveryInput{})
	for attempt := 1; attempt < jobs.ProposalMaxAttempts; attempt++ {
		err := e.work(e.ctx, id, attempt)
		if err == nil {
			t.Fatalf("attempt %d succeeded", attempt)
		}
		if j := e.job(id); j.Status != sightline.JobQueued || j.Error != nil {
			t.Fatalf("after attempt %d: %+v", attempt, j)
		}
	}
	err := e.work(e.ctx, id, jobs.ProposalMaxAttempts)
	var cancel *rivertype.JobCancelError
	if !errors.As(err, &cancel) {
		t.Fatalf("last attempt: %v, want the job cancelled", err)
	}
	j := e.job(id)
	if j.Status != sightline.JobFailed || j.CompletedAt == nil || j.Error == nil ||
		*j.Error != "The project's captures could not be read (3 attempts). Start a new job later." {
		t.Fatalf("job %+v error %v", j, *j.Error)
	}
}

// A failure retrying cannot change fails the job at once.
func TestProposalWorkerFailsAtOnceWhenNothingIsLeftToCluster(t *testing.T) {
	t.Parallel()
	e := proposalsSetup(t)
	q := e.query(e.project, checksQuery{text: "best crm"})
	id := e.start(sightline.JobClustering, jobs.ClusteringInput{TrackedQueryIDs: []uuid.UUID{q}, Mode: sightline.ModeFillGaps})
	e.exec(`DELETE FROM tracked_queries WHERE id = $1`, q)
	err := e.work(e.ctx, id, 1)
	var cancel *rivertype.JobCancelError
	if !errors.As(err, &cancel) {
		t.Fatalf("%v, want the job cancelled", err)
	}
	if j := e.job(id); j.Status != sightline.JobFailed || !strings.Contains(*j.Error, "nothing to cluster") {
		t.Fatalf("job %+v", j)
	}
}

func TestProposalMaintenance(t *testing.T) {
	t.Parallel()
	e := proposalsSetup(t)
	// A job whose River job is gone, one whose River job is waiting, and
	// one finished long ago.
	orphan := e.start(sightline.JobBrandDiscovery, jobs.BrandDiscoveryInput{})
	waiting := e.start(sightline.JobBrandDiscovery, jobs.BrandDiscoveryInput{})
	if _, err := e.client.Insert(e.ctx, jobs.ProposalArgs{JobID: waiting}, nil); err != nil {
		t.Fatal(err)
	}
	old := e.start(sightline.JobBrandDiscovery, jobs.BrandDiscoveryInput{})
	e.exec(`UPDATE proposal_jobs SET status = 'completed', result = '{}', completed_at = now() - interval '31 days' WHERE id = $1`, old)
	w := &jobs.ProposalMaintenanceWorker{Pool: e.pool, Logger: slog.New(slog.DiscardHandler)}
	if err := w.Work(e.ctx, &river.Job[jobs.ProposalMaintenanceArgs]{}); err != nil {
		t.Fatal(err)
	}
	if j := e.job(orphan); j.Status != sightline.JobFailed || !strings.Contains(*j.Error, "Start a new job") {
		t.Fatalf("orphan %+v", j)
	}
	if j := e.job(waiting); j.Status != sightline.JobQueued {
		t.Fatalf("waiting %+v", j)
	}
	if _, err := oltp.GetProposalJob(e.ctx, e.pool, e.org, old); sightline.ErrorCode(err) != sightline.CodeJobNotFound {
		t.Fatalf("expired job: %v", err)
	}
}

// fakeRefiner answers as a model would, or fails.
type fakeRefiner struct {
	clusterNames []string
	brandNames   []string
	err          error
}

func (f fakeRefiner) ClusterNames(context.Context, [][]string, []string) ([]string, error) {
	return f.clusterNames, f.err
}

func (f fakeRefiner) BrandNames(context.Context, string, []string, []string) ([]string, error) {
	return f.brandNames, f.err
}

func TestProposalWorkerRefinesWithAModelAndFallsBack(t *testing.T) {
	t.Parallel()
	e := proposalsSetup(t)
	var ids []uuid.UUID
	for _, text := range []string{"best crm for startups", "crm for small business", "email marketing tool pricing",
		"best email marketing software"} {
		ids = append(ids, e.query(e.project, checksQuery{text: text}))
	}
	names := func(id uuid.UUID) []string {
		var p proposal.ClusterProposal
		json.Unmarshal(e.job(id).Result, &p) //nolint:errcheck
		var out []string
		for _, c := range p.Clusters {
			out = append(out, c.Name)
		}
		return out
	}
	cluster := func(r jobs.ProposalRefiner) uuid.UUID {
		e.worker.Refiner = r
		id := e.start(sightline.JobClustering, jobs.ClusteringInput{TrackedQueryIDs: ids, Mode: sightline.ModeFillGaps})
		if err := e.work(e.ctx, id, 1); err != nil {
			t.Fatal(err)
		}
		return id
	}
	// Names are normalised; a name taken twice keeps the local one.
	if got := names(cluster(fakeRefiner{clusterNames: []string{"CRM  Software", "Email Marketing Tools"}})); !slices.Equal(got, []string{"crm software", "email marketing tools"}) {
		t.Errorf("refined names %q", got)
	}
	if got := names(cluster(fakeRefiner{clusterNames: []string{"same", "same"}})); !slices.Equal(got, []string{"email marketing", "same"}) {
		t.Errorf("duplicate names %q", got)
	}
	for _, r := range []jobs.ProposalRefiner{fakeRefiner{err: errors.New("model down")}, fakeRefiner{clusterNames: []string{"one"}}} {
		if got := names(cluster(r)); !slices.Equal(got, []string{"crm", "email marketing"}) {
			t.Errorf("fallback names %q", got)
		}
	}

	suggest := func(r jobs.ProposalRefiner) []string {
		e.worker.Refiner = r
		id := e.start(sightline.JobBrandNameSuggestion, jobs.BrandNameInput{Name: "HubSpot", WebsiteDomains: []string{"hubspot.com"},
			EnteredBrandNames: []string{"HubSpot CRM"}})
		if err := e.work(e.ctx, id, 1); err != nil {
			t.Fatal(err)
		}
		var res jobs.BrandNameResult
		json.Unmarshal(e.job(id).Result, &res) //nolint:errcheck
		var out []string
		for _, s := range res.Suggestions {
			out = append(out, s.Name+"/"+s.Reason)
		}
		return out
	}
	local := []string{"HubSpot/name", "Hub Spot/casing", "hubspot.com/domain"}
	got := suggest(fakeRefiner{brandNames: []string{"HubSpot Marketing Hub", "hubspot crm", "hub spot", " ", "HubSpot  Sales Hub"}})
	if want := append(slices.Clone(local), "HubSpot Marketing Hub/model", "HubSpot Sales Hub/model"); !slices.Equal(got, want) {
		t.Errorf("refined suggestions %q, want %q", got, want)
	}
	if got := suggest(fakeRefiner{err: errors.New("model down")}); !slices.Equal(got, local) {
		t.Errorf("fallback suggestions %q", got)
	}
}
