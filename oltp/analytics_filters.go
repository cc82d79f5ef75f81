package oltp

import (
	"context"
	"fmt"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/sightline/sightline"
)

// What the analytics of a project need from its configuration: the
// competitors it tracks today, whether the tracked queries a page of
// captures names still exist, and the filter values it is configured with.

// CompetitorName is a tracked competitor as analytics rows name it.
type CompetitorName struct {
	ID   uuid.UUID `db:"id"`
	Name string    `db:"name"`
}

// CompetitorNames returns the project's current tracked competitors,
// ordered by name, then id.
func CompetitorNames(ctx context.Context, db DBTX, projectID uuid.UUID) ([]CompetitorName, error) {
	return queryRows(ctx, db, pgx.RowToStructByName[CompetitorName], "reading competitor names",
		`SELECT id, name FROM competitors WHERE project_id = $1 ORDER BY name, id`, projectID)
}

// ExistingTrackedQueries reports which of ids are tracked queries of the
// project now. Captures of a deleted query stay in the analytics store
// until its background cascade removes them; a reader showing them asks
// here whether their query is gone.
func ExistingTrackedQueries(ctx context.Context, db DBTX, projectID uuid.UUID, ids []uuid.UUID) (map[uuid.UUID]bool, error) {
	found, err := queryRows(ctx, db, pgx.RowTo[uuid.UUID], "checking tracked queries",
		`SELECT id FROM tracked_queries WHERE project_id = $1 AND id = ANY ($2)`, projectID, ids)
	if err != nil {
		return nil, err
	}
	return setOf(found), nil
}

// AvailableFilters are the values a project's analytics filters accept:
// the engines and countries its tracked queries use (active and paused)
// and its clusters.
type AvailableFilters struct {
	Engines   []string  `json:"engines"`   // in the order of sightline.Engines
	Countries []string  `json:"countries"` // ISO 3166-1 alpha-2, alphabetical
	Clusters  []Cluster `json:"clusters"`  // by name
}

// ProjectAvailableFilters reads the project's filter values in one round
// trip.
func ProjectAvailableFilters(ctx context.Context, db DBTX, projectID uuid.UUID) (AvailableFilters, error) {
	f := AvailableFilters{Engines: []string{}, Countries: []string{}, Clusters: []Cluster{}}
	var (
		ids   []uuid.UUID
		names []string
	)
	engines := make([]string, len(sightline.Engines))
	for i, e := range sightline.Engines {
		engines[i] = string(e)
	}
	err := db.QueryRow(ctx, `
		SELECT
			ARRAY(SELECT e FROM unnest($2::text[]) WITH ORDINALITY AS v (e, i)
			      WHERE EXISTS (SELECT 1 FROM tracked_queries t WHERE t.project_id = $1 AND t.engine = v.e)
			      ORDER BY i),
			ARRAY(SELECT DISTINCT country::text FROM tracked_queries WHERE project_id = $1 ORDER BY 1),
			ARRAY(SELECT q.id FROM query_clusters q WHERE q.project_id = $1 ORDER BY q.name),
			ARRAY(SELECT q.name FROM query_clusters q WHERE q.project_id = $1 ORDER BY q.name)`,
		projectID, engines).Scan(&f.Engines, &f.Countries, &ids, &names)
	if err != nil {
		return f, fmt.Errorf("reading available filters: %w", err)
	}
	for i, id := range ids {
		f.Clusters = append(f.Clusters, Cluster{ID: id, Name: names[i]})
	}
	return f, nil
}
