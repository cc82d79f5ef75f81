package api

import (
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/sightline/sightline"
	"github.com/sightline/sightline/jobs"
	"github.com/sightline/sightline/oltp"
	"github.com/sightline/sightline/proposal"
)

// Proposal jobs (spec 4.7 clustering jobs, 4.8 discovery, api-decisions
// job record and polling). A start validates its body, checks what the
// job needs (an active organization and writable project, an entitled
// subscription for clustering and keyword discovery, something to
// cluster), takes one of the organization's job starts (api/ratelimit.go,
// ten a minute) and stores the job with its River job in the write's
// transaction; it answers 202 with the job record. Workers compute the
// proposal (jobs.ProposalWorker); jobs only propose, and nothing is
// written until a clustering job is applied.
//
// Decisions where the spec is silent:
//   - Refusals (400, 402, 404, 409) do not take a job start; an
//     idempotent replay does not either. Only a start that creates a job
//     counts.
//   - trackedQueryIds: 1 to 500 distinct ids. Ids that are no tracked query
//     of the project are kept and reported by the job (notFound), and fail
//     with tracked_query_not_found on apply; when none is one, or when
//     restrictToExistingClusters is asked of a project without clusters,
//     the start is 409 nothing_to_cluster.
//   - Under fill_gaps the job proposes nothing for queries that already
//     belong to a cluster (they are listed as unassigned); under
//     full_regroup existing clusters are matched by name only, their
//     current members being what is regrouped.
//   - Apply may be repeated; it creates only the proposed clusters that get
//     a query, and resolves a proposed cluster by its id while the cluster
//     exists, else by name.
//   - Brand discovery and keyword discovery read the last 90 days of the
//     project's captures; neither asks an engine, and no job consumes check
//     budget units.
//   - A finished job stays readable for 30 days.

// maxClusteringQueries bounds the queries of one clustering job (spec 8).
const maxClusteringQueries = 500

// maxExcludeQueries bounds excludeQueries of a keyword discovery.
const maxExcludeQueries = 1000

// maxDiscoveryInput bounds the input of a keyword discovery, in characters.
const maxDiscoveryInput = 10000

// maxSuggestionName bounds the name of a brand-name suggestion (spec 8).
const maxSuggestionName = 255

// jobRecord is the job record of api-decisions.
type jobRecord struct {
	ID          uuid.UUID            `json:"id"`
	Type        sightline.JobType    `json:"type"`
	Status      sightline.JobStatus  `json:"status"`
	TrackingURL string               `json:"trackingUrl"`
	CreatedAt   sightline.Timestamp  `json:"createdAt"`
	CompletedAt *sightline.Timestamp `json:"completedAt"`
	Error       *string              `json:"error"`
	// Result is null until the job completes.
	Result json.RawMessage `json:"result"`
}

func newJobRecord(j *oltp.ProposalJob) jobRecord {
	return jobRecord{
		ID: j.ID, Type: j.Type, Status: j.Status,
		TrackingURL: fmt.Sprintf("/api/v1/organizations/%s/jobs/%s", j.OrganizationID, j.ID),
		CreatedAt:   j.CreatedAt, CompletedAt: j.CompletedAt, Error: j.Error, Result: j.Result,
	}
}

// startJob takes one of the organization's job starts and stores the job
// with its River job, in tx.
func (s *server) startJob(r *request, tx pgx.Tx, projectID *uuid.UUID, typ sightline.JobType, input any) (int, any, error) {
	ctx := r.Context()
	if err := s.jobStarts.allow(ctx, r.organizationID); err != nil {
		return 0, nil, err
	}
	j, err := oltp.InsertProposalJob(ctx, tx, oltp.NewProposalJob{
		OrganizationID: r.organizationID, ProjectID: projectID, Type: typ, Input: input,
	})
	if err != nil {
		return 0, nil, err
	}
	if _, err := s.jobs.InsertTx(ctx, tx, jobs.ProposalArgs{JobID: j.ID}, nil); err != nil {
		return 0, nil, fmt.Errorf("enqueueing proposal job: %w", err)
	}
	return http.StatusAccepted, newJobRecord(j), nil
}

// requireEntitlement refuses an organization without an entitled
// subscription (402).
func requireEntitlement(r *request, tx pgx.Tx) error {
	ok, err := oltp.HasEntitledSubscription(r.Context(), tx, r.organizationID)
	if err != nil {
		return err
	}
	if !ok {
		return sightline.Errorf(sightline.CodeSubscriptionRequired,
			"This job needs an entitled subscription: an active, trialing or past-due contract within its period.")
	}
	return nil
}

// checkCountry normalises an optional alpha-2 country field to upper case.
func checkCountry(field string, country *string, errs sightline.ValidationErrors) string {
	if country == nil {
		return ""
	}
	if utf8.RuneCountInString(*country) != 2 {
		errs.Add(field, sightline.DetailOutOfRange, "must have exactly 2 characters")
		return ""
	}
	code, ok := trackedCountryCode(*country)
	if !ok {
		errs.Add(field, sightline.DetailInvalidValue, "must be an ISO 3166-1 alpha-2 country code")
	}
	return code
}

// Clustering (spec 4.7).

type clusteringJobBody struct {
	TrackedQueryIDs            []uuid.UUID `json:"trackedQueryIds" required:"true"`
	Mode                       string      `json:"mode" required:"true" validate:"clusteringMode"`
	RestrictToExistingClusters *bool       `json:"restrictToExistingClusters"`
}

func (b *clusteringJobBody) normalize(errs sightline.ValidationErrors) {
	b.TrackedQueryIDs = trackedDistinct(b.TrackedQueryIDs)
	if n := len(b.TrackedQueryIDs); n == 0 || n > maxClusteringQueries {
		errs.Add("trackedQueryIds", sightline.DetailOutOfRange, "must have 1 to %d distinct ids; it has %d",
			maxClusteringQueries, n)
	}
}

func (s *server) handleStartClusteringJob(r *request, tx pgx.Tx) (int, any, error) {
	in, p, err := decodeForProject[clusteringJobBody](s, r, tx)
	if err != nil {
		return 0, nil, err
	}
	ctx := r.Context()
	if err := requireEntitlement(r, tx); err != nil {
		return 0, nil, err
	}
	n, err := oltp.CountProjectTrackedQueries(ctx, tx, p.ID, in.TrackedQueryIDs)
	if err != nil {
		return 0, nil, err
	}
	if n == 0 {
		return 0, nil, sightline.Errorf(sightline.CodeNothingToCluster,
			"None of trackedQueryIds is a tracked query of this project: nothing to cluster.")
	}
	restrict := in.RestrictToExistingClusters != nil && *in.RestrictToExistingClusters
	if restrict {
		clusters, err := oltp.CountClusters(ctx, tx, p.ID)
		if err != nil {
			return 0, nil, err
		}
		if clusters == 0 {
			return 0, nil, sightline.Errorf(sightline.CodeNothingToCluster,
				"restrictToExistingClusters is set but the project has no clusters: nothing to cluster.")
		}
	}
	return s.startJob(r, tx, &p.ID, sightline.JobClustering, jobs.ClusteringInput{
		TrackedQueryIDs: in.TrackedQueryIDs, Mode: sightline.ClusteringMode(in.Mode), RestrictToExistingClusters: restrict,
	})
}

// clusteringApplyAnswer is the apply answer of api-decisions.
type clusteringApplyAnswer struct {
	Successful []clusteringApplied   `json:"successful"`
	Failed     []trackedBatchFailure `json:"failed"`
	Unassigned []uuid.UUID           `json:"unassigned"`
}

// clusteringApplied is a query whose clusters are as the job's mode wants
// them, with its clusters after the apply.
type clusteringApplied struct {
	ID              uuid.UUID   `json:"id"`
	QueryClusterIDs []uuid.UUID `json:"queryClusterIds"`
}

func (s *server) handleApplyClusteringJob(r *request, tx pgx.Tx) (int, any, error) {
	ctx := r.Context()
	p, jobID, err := s.projectItemForWrite(r, tx, "jobId", sightline.CodeJobNotFound)
	if err != nil {
		return 0, nil, err
	}
	j, err := oltp.GetProjectProposalJob(ctx, tx, r.organizationID, p.ID, jobID, sightline.JobClustering)
	if err != nil {
		return 0, nil, err
	}
	if j.Status != sightline.JobCompleted {
		return 0, nil, sightline.Errorf(sightline.CodeJobNotCompleted,
			"The job is %s; only a completed job can be applied.", j.Status)
	}
	var in jobs.ClusteringInput
	var prop proposal.ClusterProposal
	if err := json.Unmarshal(j.Input, &in); err != nil {
		return 0, nil, fmt.Errorf("decoding job input: %w", err)
	}
	if err := json.Unmarshal(j.Result, &prop); err != nil {
		return 0, nil, fmt.Errorf("decoding job result: %w", err)
	}
	if prop.Assignments() == 0 {
		return 0, nil, sightline.Errorf(sightline.CodeJobHasNoAssignments,
			"The job proposed no cluster for any of its queries: nothing to apply.")
	}

	found, err := oltp.LockTrackedQueries(ctx, tx, p.ID, in.TrackedQueryIDs)
	if err != nil {
		return 0, nil, err
	}
	current, err := oltp.TrackedQueryClusterIDs(ctx, tx, p.ID, in.TrackedQueryIDs)
	if err != nil {
		return 0, nil, err
	}
	proposed := map[uuid.UUID]*proposal.ProposedCluster{}
	for i := range prop.Clusters {
		for _, id := range prop.Clusters[i].TrackedQueryIDs {
			proposed[id] = &prop.Clusters[i]
		}
	}
	// writes says whether the apply changes the query's clusters.
	writes := func(id uuid.UUID) bool {
		_, ok := found[id]
		return ok && proposed[id] != nil && (in.Mode != sightline.ModeFillGaps || len(current[id]) == 0)
	}
	clusterOf, err := resolveProposedClusters(r, tx, p.ID, prop.Clusters, in.TrackedQueryIDs, writes, proposed)
	if err != nil {
		return 0, nil, err
	}

	answer := clusteringApplyAnswer{Successful: []clusteringApplied{}, Failed: []trackedBatchFailure{}, Unassigned: []uuid.UUID{}}
	var queries, clusters []uuid.UUID
	for _, id := range in.TrackedQueryIDs {
		if _, ok := found[id]; !ok {
			answer.Failed = append(answer.Failed, trackedBatchFailure{ID: id.String(),
				ErrorCode: sightline.ItemTrackedQueryNotFound, ErrorMessage: "No tracked query of this project has this id."})
			continue
		}
		pc := proposed[id]
		if pc == nil {
			answer.Unassigned = append(answer.Unassigned, id)
			continue
		}
		result := slices.Clone(current[id])
		if writes(id) {
			c := clusterOf[pc.Name]
			queries, clusters = append(queries, id), append(clusters, c)
			switch {
			case in.Mode == sightline.ModeFullRegroup:
				result = []uuid.UUID{c}
			case !slices.Contains(result, c):
				result = append(result, c)
			}
		}
		if result == nil {
			result = []uuid.UUID{}
		}
		answer.Successful = append(answer.Successful, clusteringApplied{ID: id, QueryClusterIDs: result})
	}
	changed, err := oltp.AssignTrackedQueryClusters(ctx, tx, p.ID, queries, clusters, in.Mode == sightline.ModeFullRegroup)
	if err != nil {
		return 0, nil, err
	}
	if err := s.trackedChanged(ctx, tx, p.ID, changed > 0); err != nil {
		return 0, nil, err
	}
	return http.StatusOK, answer, nil
}

// resolveProposedClusters returns the cluster id of each proposed cluster
// that gets a query: the proposed existing cluster while the project still
// has it, else the project's cluster of that name, created when missing.
// Every cluster returned is locked until the write commits.
func resolveProposedClusters(r *request, tx pgx.Tx, projectID uuid.UUID, proposed []proposal.ProposedCluster,
	order []uuid.UUID, writes func(uuid.UUID) bool, clusterOfQuery map[uuid.UUID]*proposal.ProposedCluster) (map[string]uuid.UUID, error) {
	ctx := r.Context()
	needed := map[string]bool{}
	for _, id := range order {
		if writes(id) {
			needed[clusterOfQuery[id].Name] = true
		}
	}
	var existingIDs []uuid.UUID
	for _, c := range proposed {
		if needed[c.Name] && c.ClusterID != nil {
			existingIDs = append(existingIDs, *c.ClusterID)
		}
	}
	still, err := oltp.ProjectClusters(ctx, tx, projectID, existingIDs)
	if err != nil {
		return nil, err
	}
	out := map[string]uuid.UUID{}
	var byName []string
	for _, c := range proposed {
		switch {
		case !needed[c.Name]:
		case c.ClusterID != nil && still[*c.ClusterID]:
			out[c.Name] = *c.ClusterID
		default:
			byName = append(byName, c.Name)
		}
	}
	if len(byName) == 0 {
		return out, nil
	}
	if _, err := oltp.CreateClusters(ctx, tx, projectID, byName); err != nil {
		return nil, err
	}
	named, err := oltp.ClustersByName(ctx, tx, projectID, byName)
	if err != nil {
		return nil, err
	}
	for _, name := range byName {
		id, ok := named[name]
		if !ok {
			return nil, fmt.Errorf("cluster %q neither created nor found", name)
		}
		out[name] = id
	}
	return out, nil
}

// Discovery (spec 4.8).

type brandNameSuggestionBody struct {
	Name              string   `json:"name" required:"true"`
	WebsiteDomains    []string `json:"websiteDomains" required:"true" validate:"min=1"`
	EnteredBrandNames []string `json:"enteredBrandNames"`
	Country           *string  `json:"country"`
	country           string
}

func (b *brandNameSuggestionBody) normalize(errs sightline.ValidationErrors) {
	b.Name = oltp.NormalizeName("name", b.Name, maxSuggestionName, errs)
	b.WebsiteDomains = oltp.NormalizeDomains("websiteDomains", b.WebsiteDomains, errs)
	b.EnteredBrandNames = oltp.NormalizeBrandNames("enteredBrandNames", b.EnteredBrandNames, errs)
	b.country = checkCountry("country", b.Country, errs)
}

func (s *server) handleStartBrandNameSuggestions(r *request, tx pgx.Tx) (int, any, error) {
	in, err := decodeNormalized[brandNameSuggestionBody](r.body)
	if err != nil {
		return 0, nil, err
	}
	if err := oltp.CheckOrganizationWritable(r.Context(), tx, r.organizationID); err != nil {
		return 0, nil, err
	}
	entered := in.EnteredBrandNames
	if entered == nil {
		entered = []string{}
	}
	return s.startJob(r, tx, nil, sightline.JobBrandNameSuggestion, jobs.BrandNameInput{
		Name: in.Name, WebsiteDomains: in.WebsiteDomains, EnteredBrandNames: entered, Country: in.country,
	})
}

type brandDiscoveryBody struct {
	ShoppingEnabled *bool   `json:"shoppingEnabled"`
	Country         *string `json:"country"`
	country         string
}

func (b *brandDiscoveryBody) normalize(errs sightline.ValidationErrors) {
	b.country = checkCountry("country", b.Country, errs)
}

func (s *server) handleStartBrandDiscovery(r *request, tx pgx.Tx) (int, any, error) {
	in := &brandDiscoveryBody{}
	if len(r.body) > 0 {
		var err error
		if in, err = decodeNormalized[brandDiscoveryBody](r.body); err != nil {
			return 0, nil, err
		}
	}
	p, err := s.projectForWrite(r, tx)
	if err != nil {
		return 0, nil, err
	}
	return s.startJob(r, tx, &p.ID, sightline.JobBrandDiscovery, jobs.BrandDiscoveryInput{
		ShoppingEnabled: in.ShoppingEnabled != nil && *in.ShoppingEnabled, Country: in.country,
	})
}

type keywordDiscoveryBody struct {
	Input          string   `json:"input" required:"true"`
	Language       *string  `json:"language"`
	Country        *string  `json:"country"`
	ExcludeQueries []string `json:"excludeQueries"`
	country        string
}

// languageTag is an ISO 639-1 code, optionally with a region: "en", "pt-BR".
var languageTag = regexp.MustCompile(`^([a-zA-Z]{2})(-[a-zA-Z]{2})?$`)

func (b *keywordDiscoveryBody) normalize(errs sightline.ValidationErrors) {
	b.Input = strings.TrimSpace(b.Input)
	switch n := utf8.RuneCountInString(b.Input); {
	case n == 0:
		errs.Add("input", sightline.DetailInvalidValue, "must not be blank")
	case n > maxDiscoveryInput:
		errs.Add("input", sightline.DetailOutOfRange, "must have at most %d characters; it has %d", maxDiscoveryInput, n)
	}
	if b.Language != nil {
		m := languageTag.FindStringSubmatch(*b.Language)
		switch {
		case utf8.RuneCountInString(*b.Language) > 5:
			errs.Add("language", sightline.DetailOutOfRange, "must have at most 5 characters")
		case m == nil || !trackedLanguages[strings.ToLower(m[1])]:
			errs.Add("language", sightline.DetailInvalidValue, "must be an ISO 639-1 language code, optionally with a region (en, pt-BR)")
		}
	}
	b.country = checkCountry("country", b.Country, errs)
	if len(b.ExcludeQueries) > maxExcludeQueries {
		errs.Add("excludeQueries", sightline.DetailOutOfRange, "must have at most %d entries", maxExcludeQueries)
	}
	out := make([]string, 0, len(b.ExcludeQueries))
	for i, q := range b.ExcludeQueries {
		text := oltp.NormalizeQueryText(q)
		switch n := utf8.RuneCountInString(text); {
		case n == 0:
			errs.Add(fmt.Sprintf("excludeQueries[%d]", i), sightline.DetailInvalidValue, "must not be blank")
		case n > oltp.MaxQueryTextLength:
			errs.Add(fmt.Sprintf("excludeQueries[%d]", i), sightline.DetailOutOfRange,
				"must have at most %d characters once normalised", oltp.MaxQueryTextLength)
		default:
			out = append(out, text)
		}
	}
	b.ExcludeQueries = out
}

func (s *server) handleStartKeywordDiscovery(r *request, tx pgx.Tx) (int, any, error) {
	in, p, err := decodeForProject[keywordDiscoveryBody](s, r, tx)
	if err != nil {
		return 0, nil, err
	}
	if err := requireEntitlement(r, tx); err != nil {
		return 0, nil, err
	}
	language := ""
	if in.Language != nil {
		language = *in.Language
	}
	return s.startJob(r, tx, &p.ID, sightline.JobKeywordDiscovery, jobs.KeywordDiscoveryInput{
		Input: in.Input, Language: language, Country: in.country, ExcludeQueries: in.ExcludeQueries,
	})
}

// Polling.

func (s *server) handleGetJob(r *request) (any, error) {
	id, err := r.pathUUID("jobId", sightline.CodeJobNotFound)
	if err != nil {
		return nil, err
	}
	j, err := oltp.GetProposalJob(r.Context(), s.pool, r.organizationID, id)
	if err != nil {
		return nil, err
	}
	return newJobRecord(j), nil
}
