package oltp

import (
	"context"
	"fmt"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
)

// The write-model reads behind the headline metrics (GET /metrics,
// /metrics/clusters and the organization overview; the competitors' names
// are CompetitorNames): which tracked queries each cluster holds today,
// and which projects an organization has active.

// ClusterMembers is a cluster of a project with the tracked queries that
// belong to it today.
type ClusterMembers struct {
	ID              uuid.UUID   `db:"id"`
	Name            string      `db:"name"`
	TrackedQueryIDs []uuid.UUID `db:"tracked_query_ids"`
}

// ClusterMembersFilter says which clusters and which of their members
// ClusterMemberships reads.
type ClusterMembersFilter struct {
	ProjectID uuid.UUID
	// ClusterIDs, when non-nil, keeps only these clusters; ids of deleted
	// clusters simply match nothing.
	ClusterIDs []uuid.UUID
	// Engines and Countries narrow the members; empty means all.
	Engines   []string
	Countries []string
}

// ClusterMemberships returns the filter's clusters in name order with
// their member tracked queries, and the project's tracked queries that
// belong to no cluster, both narrowed to the engines and countries.
func ClusterMemberships(ctx context.Context, db DBTX, f ClusterMembersFilter) ([]ClusterMembers, []uuid.UUID, error) {
	clusters, err := queryRows(ctx, db, pgx.RowToStructByName[ClusterMembers], "reading cluster memberships", `
		SELECT q.id, q.name,
		       COALESCE(array_agg(t.id ORDER BY t.id) FILTER (WHERE t.id IS NOT NULL), '{}') AS tracked_query_ids
		FROM query_clusters q
		LEFT JOIN tracked_query_clusters m ON m.cluster_id = q.id AND m.project_id = q.project_id
		LEFT JOIN tracked_queries t ON t.id = m.tracked_query_id AND t.project_id = q.project_id
		     AND (cardinality($3::text[]) = 0 OR t.engine = ANY ($3))
		     AND (cardinality($4::text[]) = 0 OR t.country = ANY ($4))
		WHERE q.project_id = $1 AND ($2::uuid[] IS NULL OR q.id = ANY ($2))
		GROUP BY q.id, q.name
		ORDER BY q.name`, f.ProjectID, f.ClusterIDs, nonNil(f.Engines), nonNil(f.Countries))
	if err != nil {
		return nil, nil, err
	}
	var ungrouped []uuid.UUID
	err = db.QueryRow(ctx, `
		SELECT COALESCE(array_agg(t.id ORDER BY t.id), '{}') FROM tracked_queries t
		WHERE t.project_id = $1
		  AND NOT EXISTS (SELECT 1 FROM tracked_query_clusters m WHERE m.tracked_query_id = t.id)
		  AND (cardinality($2::text[]) = 0 OR t.engine = ANY ($2))
		  AND (cardinality($3::text[]) = 0 OR t.country = ANY ($3))`,
		f.ProjectID, nonNil(f.Engines), nonNil(f.Countries)).Scan(&ungrouped)
	if err != nil {
		return nil, nil, fmt.Errorf("reading ungrouped tracked queries: %w", err)
	}
	return clusters, ungrouped, nil
}

// nonNil is s, or an empty slice that Postgres reads as an empty array
// rather than NULL.
func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// OverviewProject is an active project of an organization with the number
// of its tracked queries (active and paused).
type OverviewProject struct {
	ID                uuid.UUID `db:"id"`
	Name              string    `db:"name"`
	TrackedQueryCount int       `db:"tracked_query_count"`
}

// ActiveProjects returns the organization's active projects, none while
// the organization itself is archived, in id order.
func ActiveProjects(ctx context.Context, db DBTX, organizationID uuid.UUID) ([]OverviewProject, error) {
	return queryRows(ctx, db, pgx.RowToStructByName[OverviewProject], "reading active projects", `
		SELECT p.id, p.name,
		       (SELECT count(*) FROM tracked_queries t WHERE t.project_id = p.id)::int AS tracked_query_count
		FROM projects p JOIN organizations o ON o.id = p.organization_id
		WHERE p.organization_id = $1 AND p.status = 'active' AND o.status = 'active'
		ORDER BY p.id`, organizationID)
}
