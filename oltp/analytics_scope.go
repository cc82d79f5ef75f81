package oltp

import (
	"context"
	"fmt"

	"github.com/google/uuid"
)

// QueryClusterSelection is what an analytics call's queryClusterIds and
// includeUngroupedQueries select, resolved against today's memberships
// (spec 4.7: analytics filtered by a deleted cluster return nothing,
// earlier dates included).
type QueryClusterSelection struct {
	// TrackedQueryIDs are the project's tracked queries that are members of
	// one of the clusters, plus, when ungrouped was asked for, those in no
	// cluster. Never nil.
	TrackedQueryIDs []uuid.UUID
	// Unknown are the cluster ids that are neither a cluster of the project
	// nor one it deleted: the caller refuses them.
	Unknown []uuid.UUID
}

// SelectQueryClusters resolves clusterIDs of the project, and with
// ungrouped the queries that belong to no cluster, to tracked-query ids.
// A deleted cluster of the project selects nothing and is not unknown.
func SelectQueryClusters(ctx context.Context, db DBTX, projectID uuid.UUID, clusterIDs []uuid.UUID, ungrouped bool) (QueryClusterSelection, error) {
	sel := QueryClusterSelection{TrackedQueryIDs: []uuid.UUID{}}
	rows, err := db.Query(ctx, `
		SELECT c.id FROM unnest($2::uuid[]) AS c (id)
		WHERE NOT EXISTS (SELECT 1 FROM query_clusters q WHERE q.project_id = $1 AND q.id = c.id)
		  AND NOT EXISTS (SELECT 1 FROM deleted_query_clusters d WHERE d.project_id = $1 AND d.id = c.id)`,
		projectID, clusterIDs)
	if err != nil {
		return sel, fmt.Errorf("checking query clusters: %w", err)
	}
	for rows.Next() {
		var id uuid.UUID
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return sel, fmt.Errorf("checking query clusters: %w", err)
		}
		sel.Unknown = append(sel.Unknown, id)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return sel, fmt.Errorf("checking query clusters: %w", err)
	}
	if len(sel.Unknown) > 0 {
		return sel, nil
	}
	rows, err = db.Query(ctx, `
		SELECT t.id FROM tracked_queries t
		WHERE t.project_id = $1 AND (
			EXISTS (SELECT 1 FROM tracked_query_clusters m WHERE m.tracked_query_id = t.id AND m.cluster_id = ANY ($2))
			OR ($3 AND NOT EXISTS (SELECT 1 FROM tracked_query_clusters m WHERE m.tracked_query_id = t.id)))
		ORDER BY t.id`, projectID, clusterIDs, ungrouped)
	if err != nil {
		return sel, fmt.Errorf("selecting clustered tracked queries: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id uuid.UUID
		if err := rows.Scan(&id); err != nil {
			return sel, fmt.Errorf("selecting clustered tracked queries: %w", err)
		}
		sel.TrackedQueryIDs = append(sel.TrackedQueryIDs, id)
	}
	return sel, rows.Err()
}
