package oltp

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/sightline/sightline"
)

// Proposal jobs (spec 4.7, 4.8; table proposal_jobs). A job is inserted
// queued by its start, in the same transaction as its River job; the
// worker moves it to running, then completed with its result or failed
// with a client-readable error. A job's row is the record the API polls;
// River's own row only drives the work.

// ProposalJobRetention is how long a finished job stays readable.
const ProposalJobRetention = 30 * 24 * time.Hour

// ProposalJob is a stored job.
type ProposalJob struct {
	ID             uuid.UUID            `db:"id"`
	OrganizationID uuid.UUID            `db:"organization_id"`
	ProjectID      *uuid.UUID           `db:"project_id"`
	Type           sightline.JobType    `db:"type"`
	Status         sightline.JobStatus  `db:"status"`
	Input          json.RawMessage      `db:"input"`
	Result         json.RawMessage      `db:"result"`
	Error          *string              `db:"error"`
	Attempt        int                  `db:"attempt"`
	CreatedAt      sightline.Timestamp  `db:"created_at"`
	CompletedAt    *sightline.Timestamp `db:"completed_at"`
}

const proposalJobColumns = `id, organization_id, project_id, type, status, input, result, error, attempt,
	created_at, completed_at`

// NewProposalJob is a job to insert.
type NewProposalJob struct {
	OrganizationID uuid.UUID
	ProjectID      *uuid.UUID // nil only for brand-name suggestions
	Type           sightline.JobType
	Input          any // encoded as JSON
}

// InsertProposalJob stores a queued job.
func InsertProposalJob(ctx context.Context, db DBTX, in NewProposalJob) (*ProposalJob, error) {
	input, err := json.Marshal(in.Input)
	if err != nil {
		return nil, fmt.Errorf("encoding job input: %w", err)
	}
	return oneProposalJob(ctx, db, `
		INSERT INTO proposal_jobs (id, organization_id, project_id, type, input) VALUES ($1, $2, $3, $4, $5)
		RETURNING `+proposalJobColumns, uuid.Must(uuid.NewV7()), in.OrganizationID, in.ProjectID, in.Type, input)
}

// GetProposalJob returns a job of the organization; any other id, one of
// another organization included, is job_not_found.
func GetProposalJob(ctx context.Context, db DBTX, organizationID, id uuid.UUID) (*ProposalJob, error) {
	return oneProposalJob(ctx, db, `SELECT `+proposalJobColumns+` FROM proposal_jobs
		WHERE id = $1 AND organization_id = $2`, id, organizationID)
}

// GetProjectProposalJob returns a job of the project of the given type,
// or job_not_found.
func GetProjectProposalJob(ctx context.Context, db DBTX, organizationID, projectID, id uuid.UUID, typ sightline.JobType) (*ProposalJob, error) {
	return oneProposalJob(ctx, db, `SELECT `+proposalJobColumns+` FROM proposal_jobs
		WHERE id = $1 AND organization_id = $2 AND project_id = $3 AND type = $4`, id, organizationID, projectID, typ)
}

func oneProposalJob(ctx context.Context, db DBTX, query string, args ...any) (*ProposalJob, error) {
	return queryOne[ProposalJob](ctx, db, sightline.Errorf(sightline.CodeJobNotFound, "Job not found."),
		"proposal job statement", query, args...)
}

// StartProposalJob marks attempt of a queued or running job as running
// and returns the job. A running job is one whose worker died: it is
// started again. It returns nil when the job is finished or gone, and
// there is nothing to do.
func StartProposalJob(ctx context.Context, db DBTX, id uuid.UUID, attempt int) (*ProposalJob, error) {
	j, err := oneProposalJob(ctx, db, `
		UPDATE proposal_jobs SET status = 'running', attempt = $2, started_at = now(), updated_at = now()
		WHERE id = $1 AND status IN ('queued', 'running')
		RETURNING `+proposalJobColumns, id, attempt)
	if sightline.ErrorCode(err) == sightline.CodeJobNotFound {
		return nil, nil
	}
	return j, err
}

// CompleteProposalJob stores a running job's result.
func CompleteProposalJob(ctx context.Context, db DBTX, id uuid.UUID, result any) error {
	encoded, err := json.Marshal(result)
	if err != nil {
		return fmt.Errorf("encoding job result: %w", err)
	}
	_, err = db.Exec(ctx, `
		UPDATE proposal_jobs SET status = 'completed', result = $2, last_error = NULL, completed_at = now(), updated_at = now()
		WHERE id = $1 AND status = 'running'`, id, encoded)
	if err != nil {
		return fmt.Errorf("completing proposal job: %w", err)
	}
	return nil
}

// FailProposalJob ends an open job as failed with a client-readable
// message.
func FailProposalJob(ctx context.Context, db DBTX, id uuid.UUID, message string) error {
	_, err := db.Exec(ctx, `
		UPDATE proposal_jobs SET status = 'failed', error = $2, completed_at = now(), updated_at = now()
		WHERE id = $1 AND status IN ('queued', 'running')`, id, truncateRunError(message))
	if err != nil {
		return fmt.Errorf("failing proposal job: %w", err)
	}
	return nil
}

// RequeueProposalJob puts a running job back in the queue after an
// attempt that will be retried, keeping why for operators.
func RequeueProposalJob(ctx context.Context, db DBTX, id uuid.UUID, lastError string) error {
	_, err := db.Exec(ctx, `
		UPDATE proposal_jobs SET status = 'queued', last_error = $2, updated_at = now()
		WHERE id = $1 AND status = 'running'`, id, truncateRunError(lastError))
	if err != nil {
		return fmt.Errorf("requeueing proposal job: %w", err)
	}
	return nil
}

// FailAbandonedProposalJobs fails the open jobs that no River job will
// work any more (discarded after its last attempt, by the rescuer or a
// panic, cancelled, or gone), so that no job stays queued or running
// forever. kind is the River job kind of proposal jobs. It returns how many
// it failed.
func FailAbandonedProposalJobs(ctx context.Context, db DBTX, kind string) (int64, error) {
	return execCount(ctx, db, "failing abandoned proposal jobs", `
		UPDATE proposal_jobs p
		SET status = 'failed', completed_at = now(), updated_at = now(),
		    error = 'The job stopped without finishing: its worker gave up on it. Start a new job.'
		WHERE p.status IN ('queued', 'running')
		  AND NOT EXISTS (
		      SELECT 1 FROM river_job j
		      WHERE j.kind = $1 AND j.args->>'jobId' = p.id::text
		        AND j.state IN ('available', 'pending', 'retryable', 'running', 'scheduled'))`, kind)
}

// DeleteExpiredProposalJobs deletes the jobs finished longer than
// ProposalJobRetention ago.
func DeleteExpiredProposalJobs(ctx context.Context, db DBTX) (int64, error) {
	return execCount(ctx, db, "deleting expired proposal jobs", `DELETE FROM proposal_jobs WHERE completed_at < $1`,
		time.Now().Add(-ProposalJobRetention))
}

// Starts.

// HasEntitledSubscription reports whether the organization's current
// contract is entitled, as checks require (see budget.go): running, within
// its period, no cancellation in effect.
func HasEntitledSubscription(ctx context.Context, db DBTX, organizationID uuid.UUID) (bool, error) {
	var entitled bool
	found, err := scanFound(db.QueryRow(ctx, `
		SELECT `+entitledSubscription+` FROM subscriptions s WHERE s.organization_id = $1
		ORDER BY s.created_at DESC, s.id DESC LIMIT 1`, organizationID), "reading subscription", &entitled)
	if err != nil || !found {
		return false, err
	}
	return entitled, nil
}

// CheckOrganizationWritable locks the organization FOR SHARE until the
// transaction ends and refuses an archived one (409), so that an archive
// cannot slip between this check and the write that depends on it.
func CheckOrganizationWritable(ctx context.Context, db DBTX, organizationID uuid.UUID) error {
	var status string
	err := scanOne(db.QueryRow(ctx, `SELECT status FROM organizations WHERE id = $1 FOR SHARE`, organizationID),
		sightline.Errorf(sightline.CodeOrganizationNotFound, "Organization not found."), "locking organization", &status)
	if err != nil {
		return err
	}
	if status != "active" {
		return sightline.Errorf(sightline.CodeProjectIsArchived, "The organization is archived; restore it first.")
	}
	return nil
}

// CountProjectTrackedQueries counts how many of ids are tracked queries of
// the project.
func CountProjectTrackedQueries(ctx context.Context, db DBTX, projectID uuid.UUID, ids []uuid.UUID) (int, error) {
	var n int
	err := db.QueryRow(ctx, `SELECT count(*) FROM tracked_queries WHERE project_id = $1 AND id = ANY($2)`,
		projectID, ids).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("counting tracked queries: %w", err)
	}
	return n, nil
}

// CountClusters counts the project's clusters.
func CountClusters(ctx context.Context, db DBTX, projectID uuid.UUID) (int, error) {
	var n int
	if err := db.QueryRow(ctx, `SELECT count(*) FROM query_clusters WHERE project_id = $1`, projectID).Scan(&n); err != nil {
		return 0, fmt.Errorf("counting clusters: %w", err)
	}
	return n, nil
}

// Work.

// ClusteringQuery is a tracked query as the clustering reads it.
type ClusteringQuery struct {
	ID      uuid.UUID `db:"id"`
	Text    string    `db:"query_text"`
	Grouped bool      `db:"grouped"`
}

// ClusteringQueries returns the tracked queries of the project among ids,
// in the order of ids, with whether each belongs to a cluster now.
func ClusteringQueries(ctx context.Context, db DBTX, projectID uuid.UUID, ids []uuid.UUID) ([]ClusteringQuery, error) {
	return queryRows(ctx, db, pgx.RowToStructByName[ClusteringQuery], "reading tracked queries", `
		SELECT q.id, q.query_text,
		       EXISTS (SELECT 1 FROM tracked_query_clusters m WHERE m.tracked_query_id = q.id) AS grouped
		FROM unnest($2::uuid[]) WITH ORDINALITY AS r (id, i)
		JOIN tracked_queries q ON q.id = r.id AND q.project_id = $1
		ORDER BY r.i`, projectID, ids)
}

// ClusterTexts is a cluster with the texts of its tracked queries.
type ClusterTexts struct {
	ID          uuid.UUID `db:"id"`
	Name        string    `db:"name"`
	MemberTexts []string  `db:"member_texts"`
}

// ProjectClusterMembers returns the project's clusters by name, each with
// the distinct texts of its members.
func ProjectClusterMembers(ctx context.Context, db DBTX, projectID uuid.UUID) ([]ClusterTexts, error) {
	return queryRows(ctx, db, pgx.RowToStructByName[ClusterTexts], "reading clusters", `
		SELECT c.id, c.name,
		       coalesce(array_agg(DISTINCT q.query_text) FILTER (WHERE q.id IS NOT NULL), '{}') AS member_texts
		FROM query_clusters c
		LEFT JOIN tracked_query_clusters m ON m.cluster_id = c.id
		LEFT JOIN tracked_queries q ON q.id = m.tracked_query_id
		WHERE c.project_id = $1
		GROUP BY c.id, c.name
		ORDER BY c.name`, projectID)
}

// TrackedQueryTexts returns the distinct texts of the project's tracked
// queries.
func TrackedQueryTexts(ctx context.Context, db DBTX, projectID uuid.UUID) ([]string, error) {
	return queryRows(ctx, db, pgx.RowTo[string], "reading tracked query texts", `
		SELECT DISTINCT query_text FROM tracked_queries WHERE project_id = $1 ORDER BY query_text`, projectID)
}

// Apply.

// TrackedQueryClusterIDs returns the clusters of each of the project's
// tracked queries among ids, in creation order of the clusters.
func TrackedQueryClusterIDs(ctx context.Context, db DBTX, projectID uuid.UUID, ids []uuid.UUID) (map[uuid.UUID][]uuid.UUID, error) {
	rows, err := db.Query(ctx, `
		SELECT m.tracked_query_id, m.cluster_id FROM tracked_query_clusters m
		JOIN query_clusters c ON c.id = m.cluster_id
		WHERE m.project_id = $1 AND m.tracked_query_id = ANY($2)
		ORDER BY m.tracked_query_id, c.created_at, c.id`, projectID, ids)
	if err != nil {
		return nil, fmt.Errorf("reading cluster memberships: %w", err)
	}
	out := map[uuid.UUID][]uuid.UUID{}
	var q, c uuid.UUID
	if _, err := pgx.ForEachRow(rows, []any{&q, &c}, func() error {
		out[q] = append(out[q], c)
		return nil
	}); err != nil {
		return nil, fmt.Errorf("reading cluster memberships: %w", err)
	}
	return out, nil
}

// ClustersByName returns the project's clusters among names, by name, and
// locks them (FOR KEY SHARE) until the transaction ends, so that none is
// deleted before the memberships written next.
func ClustersByName(ctx context.Context, db DBTX, projectID uuid.UUID, names []string) (map[string]uuid.UUID, error) {
	found, err := queryRows(ctx, db, pgx.RowToStructByName[Cluster], "reading clusters", `
		SELECT id, name FROM query_clusters WHERE project_id = $1 AND name = ANY($2)
		ORDER BY id FOR KEY SHARE`, projectID, names)
	if err != nil {
		return nil, err
	}
	out := make(map[string]uuid.UUID, len(found))
	for _, c := range found {
		out[c.Name] = c.ID
	}
	return out, nil
}

// AssignTrackedQueryClusters makes queries[i] a member of clusters[i] (both
// of the project, locked by the caller). With replace, each query's other
// memberships are removed: the cluster becomes its only one. Rows are
// written in key order so that concurrent writers cannot deadlock. It
// returns how many memberships it added and removed.
func AssignTrackedQueryClusters(ctx context.Context, db DBTX, projectID uuid.UUID, queries, clusters []uuid.UUID, replace bool) (int64, error) {
	if len(queries) == 0 {
		return 0, nil
	}
	var changed int64
	if replace {
		tag, err := db.Exec(ctx, `
			DELETE FROM tracked_query_clusters m USING unnest($2::uuid[], $3::uuid[]) AS a (q, c)
			WHERE m.project_id = $1 AND m.tracked_query_id = a.q AND m.cluster_id <> a.c`, projectID, queries, clusters)
		if err != nil {
			return 0, fmt.Errorf("replacing cluster memberships: %w", err)
		}
		changed += tag.RowsAffected()
	}
	tag, err := db.Exec(ctx, `
		INSERT INTO tracked_query_clusters (project_id, tracked_query_id, cluster_id)
		SELECT $1, a.q, a.c FROM unnest($2::uuid[], $3::uuid[]) AS a (q, c)
		ORDER BY a.q, a.c
		ON CONFLICT DO NOTHING`, projectID, queries, clusters)
	if err != nil {
		return 0, fmt.Errorf("adding cluster memberships: %w", err)
	}
	return changed + tag.RowsAffected(), nil
}
