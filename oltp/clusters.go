package oltp

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/sightline/sightline"
)

// MaxClusterNameLength bounds a keyword cluster's name (spec 2.4).
const MaxClusterNameLength = 200

// Cluster is a keyword cluster: a named group of a project's tracked
// queries. It carries no metrics and no membership count.
type Cluster struct {
	ID   uuid.UUID `json:"id" db:"id"`
	Name string    `json:"name" db:"name"`
}

// NormalizeClusterName returns the stored form of a cluster name: trimmed
// and lower-cased, 1 to MaxClusterNameLength characters, no control
// characters. A refused name is reported under field in errs.
func NormalizeClusterName(field, raw string, errs sightline.ValidationErrors) string {
	return NormalizeName(field, strings.ToLower(raw), MaxClusterNameLength, errs)
}

const clusterFrom = "query_clusters q JOIN projects p ON p.id = q.project_id"

// ListClusters returns a page of the project's clusters, in name order,
// and how many it has.
func ListClusters(ctx context.Context, db DBTX, f ProjectPage) ([]Cluster, int, error) {
	// Names are unique in a project, so they order the page completely.
	page, count := f.selects("q", "q.id, q.name", clusterFrom, "q.name")
	type row struct {
		Cluster
		Total int `db:"total"`
	}
	return listWithTotal(ctx, db, page, count, func(r row) (Cluster, int) { return r.Cluster, r.Total })
}

// GetCluster returns one cluster of the project, or query_cluster_not_found.
func GetCluster(ctx context.Context, db DBTX, organizationID, projectID, clusterID uuid.UUID) (*Cluster, error) {
	return oneCluster(ctx, db, "SELECT q.id, q.name FROM "+clusterFrom+
		" WHERE q.id = $1 AND q.project_id = $2 AND p.organization_id = $3", clusterID, projectID, organizationID)
}

// CreateCluster creates an empty cluster under a normalised name; a name the
// project already has is query_cluster_name_already_exists, also when a
// concurrent request takes it first.
func CreateCluster(ctx context.Context, db DBTX, projectID uuid.UUID, name string) (*Cluster, error) {
	return oneCluster(ctx, db, `
		INSERT INTO query_clusters AS q (id, project_id, name) VALUES ($1, $2, $3) RETURNING q.id, q.name`,
		uuid.Must(uuid.NewV7()), projectID, name)
}

// RenameCluster gives a cluster a new normalised name; its id and members
// stay. Renaming to its current name changes nothing.
func RenameCluster(ctx context.Context, db DBTX, organizationID, projectID, clusterID uuid.UUID, name string) (*Cluster, error) {
	return oneCluster(ctx, db, `
		UPDATE query_clusters q SET name = $4
		FROM projects p
		WHERE q.id = $1 AND q.project_id = $2 AND p.id = q.project_id AND p.organization_id = $3
		RETURNING q.id, q.name`, clusterID, projectID, organizationID, name)
}

// DeleteCluster deletes a cluster and returns it as it was. Its members are
// unassigned from it by the foreign key's cascade, and its id is taken out
// of the tracked-query listing's read model in the same transaction, so
// that no filter by the id matches anything afterwards.
func DeleteCluster(ctx context.Context, db DBTX, organizationID, projectID, clusterID uuid.UUID) (*Cluster, error) {
	c, err := oneCluster(ctx, db, `
		DELETE FROM query_clusters q USING projects p
		WHERE q.id = $1 AND q.project_id = $2 AND p.id = q.project_id AND p.organization_id = $3
		RETURNING q.id, q.name`, clusterID, projectID, organizationID)
	if err != nil {
		return nil, err
	}
	_, err = db.Exec(ctx, `
		UPDATE tracked_query_search_rows SET query_cluster_ids = array_remove(query_cluster_ids, $2)
		WHERE project_id = $1 AND $2 = ANY (query_cluster_ids)`, projectID, clusterID)
	if err != nil {
		return nil, fmt.Errorf("unassigning deleted cluster from the listing rows: %w", err)
	}
	if _, err := db.Exec(ctx, `INSERT INTO deleted_query_clusters (id, project_id) VALUES ($1, $2)`,
		clusterID, projectID); err != nil {
		return nil, fmt.Errorf("recording deleted cluster: %w", err)
	}
	return c, nil
}

// CreateClusters creates a cluster for each normalised, distinct name the
// project does not have yet, and returns the ones created by name. A name
// taken before or concurrently is simply absent from the result.
func CreateClusters(ctx context.Context, db DBTX, projectID uuid.UUID, names []string) (map[string]uuid.UUID, error) {
	// Inserting in one order everywhere makes concurrent batches wait for
	// each other's names instead of deadlocking over them.
	names = slices.Sorted(slices.Values(names))
	ids := make([]uuid.UUID, len(names))
	for i := range ids {
		ids[i] = uuid.Must(uuid.NewV7())
	}
	rows, err := db.Query(ctx, `
		INSERT INTO query_clusters (id, project_id, name)
		SELECT n.id, $1, n.name FROM unnest($2::uuid[], $3::text[]) WITH ORDINALITY AS n (id, name, i)
		ORDER BY n.i
		ON CONFLICT (project_id, name) DO NOTHING
		RETURNING id, name`, projectID, ids, names)
	if err != nil {
		return nil, clusterError("names", err)
	}
	created, err := pgx.CollectRows(rows, pgx.RowToStructByName[Cluster])
	if err != nil {
		return nil, clusterError("names", err)
	}
	out := make(map[string]uuid.UUID, len(created))
	for _, c := range created {
		out[c.Name] = c.ID
	}
	return out, nil
}

func oneCluster(ctx context.Context, db DBTX, query string, args ...any) (*Cluster, error) {
	rows, err := db.Query(ctx, query, args...)
	if err != nil {
		return nil, clusterError("name", err)
	}
	c, err := pgx.CollectExactlyOneRow(rows, pgx.RowToStructByName[Cluster])
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, sightline.Errorf(sightline.CodeQueryClusterNotFound, "Query cluster not found.")
	}
	if err != nil {
		return nil, clusterError("name", err)
	}
	return &c, nil
}

// clusterError translates the constraint violations a cluster write can
// meet; field names the request field that carried the names.
func clusterError(field string, err error) error {
	switch pgCode(err) {
	case pgUniqueViolation:
		return sightline.Errorf(sightline.CodeQueryClusterNameExists, "The project already has a cluster with this name.")
	case pgCheckViolation:
		// The name was lower-cased here, but the database lower-cases one of
		// its characters differently.
		errs := sightline.ValidationErrors{}
		errs.Add(field, sightline.DetailInvalidValue, "has characters whose lower case is ambiguous")
		return errs.Err()
	}
	return fmt.Errorf("cluster statement: %w", err)
}
