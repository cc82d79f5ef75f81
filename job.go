package sightline

import "slices"

// JobType is what a proposal job proposes (spec 4.7, 4.8). Jobs only
// propose: nothing they compute is written until a separate apply.
type JobType string

// The job types of api-decisions.
const (
	JobClustering          JobType = "clustering"
	JobBrandNameSuggestion JobType = "brand_name_suggestion"
	JobBrandDiscovery      JobType = "brand_discovery"
	JobKeywordDiscovery    JobType = "keyword_discovery"
)

// JobTypes lists every job type in a stable order.
var JobTypes = []JobType{JobClustering, JobBrandNameSuggestion, JobBrandDiscovery, JobKeywordDiscovery}

// JobStatus is where a job is in its life: queued until a worker takes it,
// running while one works it, then completed or failed for good.
type JobStatus string

// The job statuses of api-decisions.
const (
	JobQueued    JobStatus = "queued"
	JobRunning   JobStatus = "running"
	JobCompleted JobStatus = "completed"
	JobFailed    JobStatus = "failed"
)

// JobStatuses lists every job status in a stable order.
var JobStatuses = []JobStatus{JobQueued, JobRunning, JobCompleted, JobFailed}

// Terminal reports whether no worker will touch a job in status s again.
func (s JobStatus) Terminal() bool { return s == JobCompleted || s == JobFailed }

// ClusteringMode says how applying a clustering job treats the clusters a
// query already has (spec 4.7).
type ClusteringMode string

// The clustering modes of spec part 2.2.
const (
	// ModeFillGaps assigns only queries that belong to no cluster yet.
	ModeFillGaps ClusteringMode = "fill_gaps"
	// ModeFullRegroup replaces a query's clusters with the proposed one.
	ModeFullRegroup ClusteringMode = "full_regroup"
	// ModeAddOnTop adds the proposed cluster to those a query has.
	ModeAddOnTop ClusteringMode = "add_on_top"
)

// ClusteringModes lists every mode in a stable order.
var ClusteringModes = []ClusteringMode{ModeFillGaps, ModeFullRegroup, ModeAddOnTop}

// Valid reports whether m is a known mode.
func (m ClusteringMode) Valid() bool { return slices.Contains(ClusteringModes, m) }

// Error codes of the proposal jobs.
const (
	// CodeJobNotFound: no job of this organization (or, on apply, no
	// clustering job of this project) has the id (404).
	CodeJobNotFound Code = "job_not_found"
	// CodeNothingToCluster: a clustering start names no tracked query of
	// the project, or restricts to existing clusters the project lacks (409).
	CodeNothingToCluster Code = "nothing_to_cluster"
	// CodeJobNotCompleted: apply of a job that is queued, running or
	// failed (409).
	CodeJobNotCompleted Code = "job_not_completed"
	// CodeJobHasNoAssignments: apply of a completed job that proposed no
	// cluster for any query (409).
	CodeJobHasNoAssignments Code = "job_has_no_assignments"
)
