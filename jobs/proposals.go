package jobs

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"

	"github.com/sightline/sightline"
	"github.com/sightline/sightline/olap"
	"github.com/sightline/sightline/oltp"
	"github.com/sightline/sightline/proposal"
)

// Proposal jobs (spec 4.7, 4.8): clustering, brand-name suggestions, brand
// discovery and keyword discovery. The API stores the job (oltp
// proposal_jobs) and its River job in one transaction; ProposalWorker
// computes the proposal (package proposal) and stores it on the job. Jobs
// only propose: nothing else is written.
//
// Lifecycle: queued -> running -> completed | failed. An attempt that
// fails for a reason that may pass (a store not answering, a timeout, a
// shutdown) puts the job back to queued and River retries it; the last
// attempt, or a reason retrying cannot change, fails the job with a
// readable error. A worker that dies mid-job leaves it running until
// River's rescuer retries it; a job River gives up on without the worker
// closing it is failed by ProposalMaintenanceWorker. So no job stays
// queued or running for good.

// ProposalQueue is the River queue of proposal jobs, apart from checks so
// that neither delays the other; its worker count is
// Config.ProposalWorkers.
const ProposalQueue = "proposals"

// ProposalMaxAttempts bounds the attempts of one job.
const ProposalMaxAttempts = 3

// ProposalTimeout bounds one attempt.
const ProposalTimeout = 2 * time.Minute

// ProposalRetryDelay is the wait before attempt n+1 after attempt n, times n.
const ProposalRetryDelay = 10 * time.Second

// DiscoveryWindow is how far back discovery reads the project's captures.
const DiscoveryWindow = 90 * 24 * time.Hour

// ProposalArgs asks for one proposal job to be worked.
type ProposalArgs struct {
	JobID uuid.UUID `json:"jobId"`
}

// Kind names the job on the queue.
func (ProposalArgs) Kind() string { return "proposal" }

// InsertOpts puts proposal jobs on their queue.
func (ProposalArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{Queue: ProposalQueue, MaxAttempts: ProposalMaxAttempts}
}

// The inputs of the job types, as the API validated them: the wire format
// of proposal_jobs.input.

// ClusteringInput is the input of a clustering job.
type ClusteringInput struct {
	TrackedQueryIDs            []uuid.UUID              `json:"trackedQueryIds"`
	Mode                       sightline.ClusteringMode `json:"mode"`
	RestrictToExistingClusters bool                     `json:"restrictToExistingClusters"`
}

// BrandNameInput is the input of a brand-name suggestion job.
type BrandNameInput struct {
	Name              string   `json:"name"`
	WebsiteDomains    []string `json:"websiteDomains"`
	EnteredBrandNames []string `json:"enteredBrandNames"`
	Country           string   `json:"country"`
}

// BrandDiscoveryInput is the input of a brand discovery job.
type BrandDiscoveryInput struct {
	ShoppingEnabled bool   `json:"shoppingEnabled"`
	Country         string `json:"country"`
}

// KeywordDiscoveryInput is the input of a keyword discovery job.
type KeywordDiscoveryInput struct {
	Input          string   `json:"input"`
	Language       string   `json:"language"`
	Country        string   `json:"country"`
	ExcludeQueries []string `json:"excludeQueries"`
}

// The results of the job types other than clustering (proposal.ClusterProposal).

// BrandNameResult is a brand-name suggestion job's result.
type BrandNameResult struct {
	Suggestions []proposal.NameSuggestion `json:"suggestions"`
}

// BrandDiscoveryResult is a brand discovery job's result.
type BrandDiscoveryResult struct {
	Brands []proposal.DiscoveredBrand `json:"brands"`
	// CapturesFrom is the start of the captures read (the last 90 days).
	CapturesFrom sightline.Timestamp `json:"capturesFrom"`
}

// KeywordDiscoveryResult is a keyword discovery job's result.
type KeywordDiscoveryResult struct {
	Keywords     []proposal.Keyword  `json:"keywords"`
	CapturesFrom sightline.Timestamp `json:"capturesFrom"`
}

// ProposalRefiner improves local proposals with a language model
// (package proposal/refine). Its answers are checked; whatever fails or
// does not fit leaves the local proposal as it is.
type ProposalRefiner interface {
	// ClusterNames returns one name per group of query texts; local are
	// the local names.
	ClusterNames(ctx context.Context, groups [][]string, local []string) ([]string, error)
	// BrandNames returns more names the brand is written as.
	BrandNames(ctx context.Context, name string, domains, known []string) ([]string, error)
}

// ProposalWorker works proposal jobs.
type ProposalWorker struct {
	river.WorkerDefaults[ProposalArgs]
	Pool      *pgxpool.Pool
	Discovery olap.Discovery
	Logger    *slog.Logger
	// Refiner, when set, improves the names of new clusters and the
	// brand-name suggestions.
	Refiner ProposalRefiner
	// NowFunc is the clock discovery windows are taken from.
	NowFunc func() time.Time
}

// Timeout bounds an attempt.
func (w *ProposalWorker) Timeout(*river.Job[ProposalArgs]) time.Duration { return ProposalTimeout }

// NextRetry waits ProposalRetryDelay times the attempts made: a failing
// store gets a moment, and a job is failed within a minute, not hours.
func (w *ProposalWorker) NextRetry(job *river.Job[ProposalArgs]) time.Time {
	return time.Now().Add(time.Duration(job.Attempt) * ProposalRetryDelay)
}

// finalError is a failure that retrying cannot change; its message is the
// job's error as clients read it.
type finalError struct{ message string }

func (e *finalError) Error() string { return e.message }

// stageError is a failure that may pass: message says, for clients, what
// could not be done.
type stageError struct {
	message string
	err     error
}

func (e *stageError) Error() string { return e.message + ": " + e.err.Error() }
func (e *stageError) Unwrap() error { return e.err }

func stage(message string, err error) error {
	if err == nil {
		return nil
	}
	return &stageError{message: message, err: err}
}

// Work runs one attempt of a job.
func (w *ProposalWorker) Work(ctx context.Context, job *river.Job[ProposalArgs]) error {
	pj, err := oltp.StartProposalJob(ctx, w.Pool, job.Args.JobID, job.Attempt)
	if err != nil || pj == nil {
		return err // nil: finished or gone, nothing to do
	}
	result, err := w.propose(ctx, pj)
	// The job's row is updated even when the attempt's context has ended
	// (timeout, shutdown): that is what keeps it from staying running.
	store, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	if err == nil {
		return oltp.CompleteProposalJob(store, w.Pool, pj.ID, result)
	}
	var final *finalError
	if errors.As(err, &final) || job.Attempt >= job.MaxAttempts {
		w.Logger.WarnContext(ctx, "proposal job failed", "job", pj.ID, "type", pj.Type, "attempt", job.Attempt, "error", err)
		if ferr := oltp.FailProposalJob(store, w.Pool, pj.ID, readableError(err, job.Attempt)); ferr != nil {
			return errors.Join(err, ferr)
		}
		return river.JobCancel(err)
	}
	w.Logger.InfoContext(ctx, "proposal job attempt failed; retrying", "job", pj.ID, "attempt", job.Attempt, "error", err)
	if rerr := oltp.RequeueProposalJob(store, w.Pool, pj.ID, err.Error()); rerr != nil {
		return errors.Join(err, rerr)
	}
	return err
}

// readableError is a failed job's error as clients read it.
func readableError(err error, attempts int) string {
	var final *finalError
	if errors.As(err, &final) {
		return final.message
	}
	what := "The proposal could not be computed"
	var st *stageError
	if errors.As(err, &st) {
		what = st.message
	}
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		what += " in time"
	}
	return fmt.Sprintf("%s (%d attempts). Start a new job later.", what, attempts)
}

// propose computes the job's result; a panic is an error of the attempt.
func (w *ProposalWorker) propose(ctx context.Context, pj *oltp.ProposalJob) (result any, err error) {
	defer func() {
		if p := recover(); p != nil {
			w.Logger.ErrorContext(ctx, "proposal job panicked", "job", pj.ID, "panic", p, "stack", string(debug.Stack()))
			err = fmt.Errorf("proposal job panicked: %v", p)
		}
	}()
	switch pj.Type {
	case sightline.JobClustering:
		return withInput(ctx, pj, w.cluster)
	case sightline.JobBrandNameSuggestion:
		return withInput(ctx, pj, w.suggestNames)
	case sightline.JobBrandDiscovery:
		return withInput(ctx, pj, w.discoverBrands)
	case sightline.JobKeywordDiscovery:
		return withInput(ctx, pj, w.discoverKeywords)
	}
	return nil, &finalError{message: fmt.Sprintf("Unknown job type %q.", pj.Type)}
}

// withInput decodes the job's input, the one of its type, and proposes from
// it.
func withInput[In, Out any](ctx context.Context, pj *oltp.ProposalJob,
	propose func(context.Context, *oltp.ProposalJob, *In) (Out, error)) (any, error) {
	var in In
	if err := json.Unmarshal(pj.Input, &in); err != nil {
		return nil, &finalError{message: "The job's input could not be read."}
	}
	return propose(ctx, pj, &in)
}

func (w *ProposalWorker) cluster(ctx context.Context, pj *oltp.ProposalJob, in *ClusteringInput) (*proposal.ClusterProposal, error) {
	queries, err := oltp.ClusteringQueries(ctx, w.Pool, *pj.ProjectID, in.TrackedQueryIDs)
	if err != nil {
		return nil, stage("The project's tracked queries could not be read", err)
	}
	if len(queries) == 0 {
		return nil, &finalError{message: "None of the requested tracked queries belongs to the project any more: nothing to cluster."}
	}
	existing, err := oltp.ProjectClusterMembers(ctx, w.Pool, *pj.ProjectID)
	if err != nil {
		return nil, stage("The project's clusters could not be read", err)
	}
	if in.RestrictToExistingClusters && len(existing) == 0 {
		return nil, &finalError{message: "The project has no clusters to restrict the proposal to: nothing to cluster."}
	}
	req := proposal.ClusterRequest{Mode: in.Mode, RestrictToExisting: in.RestrictToExistingClusters}
	found := map[uuid.UUID]bool{}
	for _, q := range queries {
		req.Queries = append(req.Queries, proposal.ClusterQuery{ID: q.ID, Text: q.Text, Grouped: q.Grouped})
		found[q.ID] = true
	}
	for _, c := range existing {
		req.Existing = append(req.Existing, proposal.ExistingCluster{ID: c.ID, Name: c.Name, MemberTexts: c.MemberTexts})
	}
	p := proposal.Cluster(req)
	for _, id := range in.TrackedQueryIDs {
		if !found[id] {
			p.NotFound = append(p.NotFound, id)
		}
	}
	w.refineClusterNames(ctx, p, existing)
	return p, nil
}

// refineClusterNames lets the refiner rename the new clusters. A name is
// taken when it is a valid cluster name, lower case, and no other
// cluster's, existing or proposed.
func (w *ProposalWorker) refineClusterNames(ctx context.Context, p *proposal.ClusterProposal, existing []oltp.ClusterTexts) {
	if w.Refiner == nil {
		return
	}
	var fresh []int
	var groups [][]string
	var local []string
	for i, c := range p.Clusters {
		if c.ClusterID == nil {
			fresh = append(fresh, i)
			groups = append(groups, c.QueryTexts)
			local = append(local, c.Name)
		}
	}
	if len(fresh) == 0 {
		return
	}
	names, err := w.Refiner.ClusterNames(ctx, groups, local)
	if err == nil && len(names) != len(groups) {
		err = fmt.Errorf("%d names for %d clusters", len(names), len(groups))
	}
	if err != nil {
		w.Logger.WarnContext(ctx, "cluster names kept: the model failed", "error", err)
		return
	}
	taken := map[string]bool{}
	for _, c := range existing {
		taken[c.Name] = true
	}
	for _, c := range p.Clusters {
		taken[c.Name] = true
	}
	for k, i := range fresh {
		errs := sightline.ValidationErrors{}
		name := oltp.NormalizeClusterName("name", strings.Join(strings.Fields(names[k]), " "), errs)
		if len(errs) > 0 || taken[name] || utf8.RuneCountInString(name) > 60 {
			continue
		}
		delete(taken, p.Clusters[i].Name)
		taken[name] = true
		p.Clusters[i].Name = name
	}
	slices.SortStableFunc(p.Clusters, func(a, b proposal.ProposedCluster) int { return strings.Compare(a.Name, b.Name) })
}

func (w *ProposalWorker) suggestNames(ctx context.Context, pj *oltp.ProposalJob, in *BrandNameInput) (*BrandNameResult, error) {
	suggestions := proposal.SuggestBrandNames(in.Name, in.WebsiteDomains, in.EnteredBrandNames, in.Country)
	return &BrandNameResult{Suggestions: w.refineBrandNames(ctx, in, suggestions)}, nil
}

// refineBrandNames adds the refiner's names, reason "model", after the
// local ones: valid brand names only, none equal to one already there or
// entered but for case, within proposal.MaxNameSuggestions.
func (w *ProposalWorker) refineBrandNames(ctx context.Context, in *BrandNameInput, local []proposal.NameSuggestion) []proposal.NameSuggestion {
	if w.Refiner == nil || len(local) >= proposal.MaxNameSuggestions {
		return local
	}
	known := slices.Clone(in.EnteredBrandNames)
	for _, s := range local {
		known = append(known, s.Name)
	}
	names, err := w.Refiner.BrandNames(ctx, in.Name, in.WebsiteDomains, known)
	if err != nil {
		w.Logger.WarnContext(ctx, "brand-name suggestions kept: the model failed", "error", err)
		return local
	}
	seen := map[string]bool{}
	for _, k := range known {
		seen[oltp.FoldKey(k)] = true
	}
	out := local
	for _, n := range names {
		name, err := oltp.NormalizeBrandName(strings.Join(strings.Fields(n), " "))
		if err != nil || seen[oltp.FoldKey(name)] || len(out) >= proposal.MaxNameSuggestions {
			continue
		}
		seen[oltp.FoldKey(name)] = true
		out = append(out, proposal.NameSuggestion{Name: name, Reason: "model"})
	}
	return out
}

// trackedBrands are the project's own brand and tracked competitors.
func (w *ProposalWorker) trackedBrands(ctx context.Context, projectID uuid.UUID) (proposal.TrackedBrands, []string, []string, error) {
	own, competitors, err := oltp.CheckBrands(ctx, w.Pool, projectID)
	if err != nil {
		return proposal.TrackedBrands{}, nil, nil, stage("The project's brands could not be read", err)
	}
	t := proposal.TrackedBrands{Names: own.BrandNames, Domains: own.WebsiteDomains}
	var competitorNames []string
	for _, c := range competitors {
		t.Names = append(t.Names, c.Name)
		t.Names = append(t.Names, c.BrandNames...)
		t.Domains = append(t.Domains, c.WebsiteDomains...)
		competitorNames = append(competitorNames, c.Name)
	}
	return t, own.BrandNames, competitorNames, nil
}

func (w *ProposalWorker) window(projectID uuid.UUID, country string) olap.DiscoveryFilter {
	now := time.Now
	if w.NowFunc != nil {
		now = w.NowFunc
	}
	return olap.DiscoveryFilter{ProjectID: projectID, Since: now().UTC().Add(-DiscoveryWindow), Country: country}
}

func (w *ProposalWorker) discoverBrands(ctx context.Context, pj *oltp.ProposalJob, in *BrandDiscoveryInput) (*BrandDiscoveryResult, error) {
	tracked, _, _, err := w.trackedBrands(ctx, *pj.ProjectID)
	if err != nil {
		return nil, err
	}
	f := w.window(*pj.ProjectID, in.Country)
	const capturesUnread = "The project's captures could not be read"
	var s proposal.BrandSignals
	mentions, err := w.Discovery.UntrackedMentions(ctx, f)
	if err != nil {
		return nil, stage(capturesUnread, err)
	}
	for _, m := range mentions {
		s.Mentions = append(s.Mentions, proposal.MentionSignal{Name: m.Name, Answers: m.Answers, Weight: m.Weight,
			PositionSum: m.PositionSum, BrandAnswers: m.BrandAnswers, BrandWeight: m.BrandWeight})
	}
	search, err := w.Discovery.UntrackedSearchDomains(ctx, f)
	if err != nil {
		return nil, stage(capturesUnread, err)
	}
	s.Search = domainSignals(search, proposal.TitleLabel)
	if in.ShoppingEnabled {
		shopping, err := w.Discovery.UntrackedShoppingDomains(ctx, f)
		if err != nil {
			return nil, stage(capturesUnread, err)
		}
		s.Shopping = domainSignals(shopping, func(merchant string) string { return merchant })
	}
	cited, err := w.Discovery.UntrackedCitedDomains(ctx, f)
	if err != nil {
		return nil, stage(capturesUnread, err)
	}
	s.Cited = domainSignals(cited, proposal.TitleLabel)
	return &BrandDiscoveryResult{Brands: proposal.DiscoverBrands(s, tracked), CapturesFrom: sightline.Timestamp{Time: f.Since}}, nil
}

func domainSignals(in []olap.DomainPresence, label func(string) string) []proposal.DomainSignal {
	out := make([]proposal.DomainSignal, len(in))
	for i, d := range in {
		out[i] = proposal.DomainSignal{Domain: d.Domain, Items: d.Items, Weight: d.Weight, BestRank: d.BestRank,
			Label: label(d.Label)}
	}
	return out
}

func (w *ProposalWorker) discoverKeywords(ctx context.Context, pj *oltp.ProposalJob, in *KeywordDiscoveryInput) (*KeywordDiscoveryResult, error) {
	_, own, competitors, err := w.trackedBrands(ctx, *pj.ProjectID)
	if err != nil {
		return nil, err
	}
	tracked, err := oltp.TrackedQueryTexts(ctx, w.Pool, *pj.ProjectID)
	if err != nil {
		return nil, stage("The project's tracked queries could not be read", err)
	}
	f := w.window(*pj.ProjectID, in.Country)
	pages, err := w.Discovery.PageTexts(ctx, f)
	if err != nil {
		return nil, stage("The project's captures could not be read", err)
	}
	// The brands the answers name are cut out of the pages' phrases.
	mentions, err := w.Discovery.UntrackedMentions(ctx, f)
	if err != nil {
		return nil, stage("The project's captures could not be read", err)
	}
	others := make([]string, len(mentions))
	for i, m := range mentions {
		others[i] = m.Name
	}
	keywords := proposal.DiscoverKeywords(proposal.KeywordRequest{
		Input: in.Input, Language: in.Language, Pages: pages, Tracked: tracked, Exclude: in.ExcludeQueries,
		OwnNames: own, CompetitorNames: competitors, OtherBrandNames: others, NormalizeFunc: oltp.NormalizeQueryText,
	})
	return &KeywordDiscoveryResult{Keywords: keywords, CapturesFrom: sightline.Timestamp{Time: f.Since}}, nil
}

// ProposalMaintenanceArgs asks for the proposal jobs River gave up on to be
// failed and those past their retention to be deleted.
type ProposalMaintenanceArgs struct{ onMaintenanceQueue }

// Kind names the job on the queue.
func (ProposalMaintenanceArgs) Kind() string { return "proposal_maintenance" }

// ProposalMaintenanceInterval is how often proposal jobs are looked after.
const ProposalMaintenanceInterval = 5 * time.Minute

// ProposalMaintenanceWorker fails abandoned proposal jobs and deletes
// expired ones (oltp.ProposalJobRetention).
type ProposalMaintenanceWorker = MaintenanceWorker[ProposalMaintenanceArgs]

func (ProposalMaintenanceArgs) run(ctx context.Context, pool *pgxpool.Pool, logger *slog.Logger) error {
	failed, err := oltp.FailAbandonedProposalJobs(ctx, pool, ProposalArgs{}.Kind())
	if err != nil {
		return err
	}
	logChanged(ctx, logger, slog.LevelWarn, "failed proposal jobs whose River jobs ended", "jobs", failed)
	deleted, err := oltp.DeleteExpiredProposalJobs(ctx, pool)
	if err != nil {
		return err
	}
	logChanged(ctx, logger, slog.LevelInfo, "deleted expired proposal jobs", "jobs", deleted)
	return nil
}
