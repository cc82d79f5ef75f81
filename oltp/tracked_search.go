package oltp

import (
	"context"
	"fmt"

	sq "github.com/Masterminds/squirrel"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/sightline/sightline"
)

// The search listing of tracked queries reads tracked_query_search_rows, a
// projection of the write model refreshed in the background. Every write
// that changes a project's tracked queries calls MarkTrackedQuerySearchStale
// in its transaction (and enqueues the refresh job); RefreshTrackedQuerySearch
// brings the project's rows up to date.

// TrackedQuerySearchRow is one row of the search listing: the query's
// configuration and the metrics of its most recent completed check (null:
// not known yet). Flat, so that a CSV row has one cell per field.
type TrackedQuerySearchRow struct {
	ID                   uuid.UUID            `json:"id" db:"tracked_query_id"`
	QueryText            string               `json:"queryText" db:"query_text"`
	Engine               string               `json:"engine" db:"engine"`
	Country              string               `json:"country" db:"country"`
	Status               string               `json:"status" db:"status"`
	CheckFrequency       string               `json:"checkFrequency" db:"check_frequency"`
	NPasses              int                  `json:"nPasses" db:"n_passes"`
	QueryClusterIDs      []uuid.UUID          `json:"queryClusterIds" db:"query_cluster_ids"`
	LastSerpPosition     *float64             `json:"lastSerpPosition" db:"last_serp_position"`
	LastMentionPosition  *float64             `json:"lastMentionPosition" db:"last_mention_position"`
	LastLinkPosition     *float64             `json:"lastLinkPosition" db:"last_link_position"`
	LastShoppingPosition *float64             `json:"lastShoppingPosition" db:"last_shopping_position"`
	LastShareOfVoice     *float64             `json:"lastShareOfVoice" db:"last_share_of_voice"`
	LastPositivityIndex  *float64             `json:"lastPositivityIndex" db:"last_positivity_index"`
	LastMentionCount     int                  `json:"lastMentionCount" db:"last_mention_count"`
	LastCheckedAt        *sightline.Timestamp `json:"lastCheckedAt" db:"last_checked_at"`
}

const trackedSearchColumns = `s.tracked_query_id, s.query_text, s.engine, s.country, s.status,
	s.check_frequency, s.n_passes, s.query_cluster_ids, s.last_serp_position, s.last_mention_position,
	s.last_link_position, s.last_shopping_position, s.last_share_of_voice, s.last_positivity_index,
	s.last_mention_count, s.last_checked_at`

// TrackedQuerySortColumns maps the listing's sort keys to their columns.
var TrackedQuerySortColumns = map[string]string{
	"queryText":            "s.query_text",
	"lastSerpPosition":     "s.last_serp_position",
	"lastMentionPosition":  "s.last_mention_position",
	"lastShoppingPosition": "s.last_shopping_position",
	"lastShareOfVoice":     "s.last_share_of_voice",
	"lastPositivityIndex":  "s.last_positivity_index",
	"lastMentionCount":     "s.last_mention_count",
	"lastCheckedAt":        "s.last_checked_at",
}

// TrackedQuerySearchFilter selects and orders rows of the search listing.
type TrackedQuerySearchFilter struct {
	ProjectID uuid.UUID
	// Search is matched as a substring of the stored (normalised) text.
	Search        string
	Status        string
	Engines       []string
	Countries     []string // alpha-2 codes
	SortBy        string   // a key of TrackedQuerySortColumns
	Descending    bool
	Limit, Offset int
}

// ListTrackedQuerySearchRows returns one page of the project's search rows
// and the number matching the filters. Rows without a value of the sort
// key come last in either direction; ties are broken by text, engine,
// country and id, so paging is stable.
func ListTrackedQuerySearchRows(ctx context.Context, db DBTX, f TrackedQuerySearchFilter) ([]TrackedQuerySearchRow, int, error) {
	where := sq.And{sq.Eq{"s.project_id": f.ProjectID}}
	if search := NormalizeSearchText(f.Search); search != "" {
		where = append(where, sq.Expr("strpos(s.query_text, ?) > 0", search))
	}
	if f.Status != "" {
		where = append(where, sq.Eq{"s.status": f.Status})
	}
	where = whereAny(where, "s.engine = ANY(?)", f.Engines)
	where = whereAny(where, "s.country = ANY(?)", f.Countries)
	column, ok := TrackedQuerySortColumns[f.SortBy]
	if !ok {
		return nil, 0, fmt.Errorf("unsupported tracked query sort %q", f.SortBy)
	}
	dir := direction(f.Descending)
	// Unknown metrics sort last either way; query_text is never null, and
	// without NULLS LAST the (project_id, query_text) index serves both
	// directions instead of a sort of the whole project.
	nulls := " NULLS LAST"
	if f.SortBy == "queryText" {
		nulls = ""
	}
	// The total is a scalar subquery of the same statement (one snapshot):
	// count(*) OVER () would spool every matching row through a window.
	// The nested builder keeps ? placeholders: the outer one numbers them all.
	total := sq.Select("count(*)").From("tracked_query_search_rows s").Where(where)
	count := psql.Select("count(*)").From("tracked_query_search_rows s").Where(where)
	page := psql.Select(trackedSearchColumns).Column(sq.Alias(total, "total")).
		From("tracked_query_search_rows s").Where(where).
		OrderBy(column+dir+nulls, "s.query_text", "s.engine", "s.country", "s.tracked_query_id").
		Limit(uint64(f.Limit)).Offset(uint64(f.Offset))
	type row struct {
		TrackedQuerySearchRow
		Total int `db:"total"`
	}
	return listWithTotal(ctx, db, page, count, func(r row) (TrackedQuerySearchRow, int) {
		return r.TrackedQuerySearchRow, r.Total
	})
}

// ProjectCountries returns the countries configured on the project: those
// some tracked query of it uses, read from the write model.
func ProjectCountries(ctx context.Context, db DBTX, projectID uuid.UUID) (map[string]bool, error) {
	countries, err := queryRows(ctx, db, pgx.RowTo[string], "reading project countries",
		`SELECT DISTINCT country FROM tracked_queries WHERE project_id = $1`, projectID)
	if err != nil {
		return nil, err
	}
	return setOf(countries), nil
}

// MarkTrackedQuerySearchStale records, in the caller's transaction, that
// the project's search rows lag behind its tracked queries. Call it as the
// last statement of the write: it locks the project's pending row until
// commit, which serialises the writes of one project from there on.
func MarkTrackedQuerySearchStale(ctx context.Context, db DBTX, projectID uuid.UUID) error {
	_, err := db.Exec(ctx, `
		INSERT INTO tracked_query_search_pending (project_id, revision)
		VALUES ($1, nextval('tracked_query_search_revisions'))
		ON CONFLICT (project_id) DO UPDATE SET revision = excluded.revision`, projectID)
	if err != nil {
		return fmt.Errorf("marking search rows stale: %w", err)
	}
	return nil
}

// StaleTrackedQuerySearchProjects lists up to limit projects whose search
// rows are stale, longest waiting first.
func StaleTrackedQuerySearchProjects(ctx context.Context, db DBTX, limit int) ([]uuid.UUID, error) {
	return queryRows(ctx, db, pgx.RowTo[uuid.UUID], "listing stale search projects", `
		SELECT project_id FROM tracked_query_search_pending ORDER BY pending_since, project_id LIMIT $1`, limit)
}

// RefreshTrackedQuerySearch brings a stale project's search rows up to
// date with its tracked queries: rows of deleted queries go, new queries
// get rows, and changed configuration (text, engine, country, status,
// frequency, passes, clusters, lastCheckedAt) is copied. The metric columns
// belong to the check pipeline and are never touched; a new row starts
// with them unknown. Concurrent refreshes of one project take turns on an
// advisory lock. The project stays stale when a write committed after the
// refresh read its revision; stillStale reports that, so the caller can
// run again. A project that is not stale is left alone.
func RefreshTrackedQuerySearch(ctx context.Context, db interface {
	Begin(context.Context) (pgx.Tx, error)
}, projectID uuid.UUID) (refreshed, stillStale bool, err error) {
	err = pgx.BeginFunc(ctx, db, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtextextended('tracked_query_search:' || $1::text, 0))`, projectID); err != nil {
			return fmt.Errorf("locking project search rows: %w", err)
		}
		var revision int64
		found, err := scanFound(tx.QueryRow(ctx, `SELECT revision FROM tracked_query_search_pending WHERE project_id = $1`,
			projectID), "reading search revision", &revision)
		if err != nil || !found {
			return err
		}
		refreshed = true
		if _, err := tx.Exec(ctx, `
			DELETE FROM tracked_query_search_rows s
			WHERE s.project_id = $1
			  AND NOT EXISTS (SELECT 1 FROM tracked_queries q WHERE q.id = s.tracked_query_id AND q.project_id = $1)`,
			projectID); err != nil {
			return fmt.Errorf("removing search rows: %w", err)
		}
		if _, err := tx.Exec(ctx, `
			INSERT INTO tracked_query_search_rows AS s (tracked_query_id, project_id, query_text, engine, country,
				check_frequency, n_passes, status, query_cluster_ids, last_checked_at)
			SELECT q.id, q.project_id, q.query_text, q.engine, q.country, q.check_frequency, q.n_passes, q.status,
			       ARRAY(SELECT c.cluster_id FROM tracked_query_clusters c
			             WHERE c.tracked_query_id = q.id ORDER BY c.cluster_id),
			       q.last_checked_at
			FROM tracked_queries q WHERE q.project_id = $1
			ON CONFLICT (tracked_query_id) DO UPDATE SET
				query_text = excluded.query_text, engine = excluded.engine, country = excluded.country,
				check_frequency = excluded.check_frequency, n_passes = excluded.n_passes, status = excluded.status,
				query_cluster_ids = excluded.query_cluster_ids, last_checked_at = excluded.last_checked_at,
				refreshed_at = now()
			WHERE (s.query_text, s.engine, s.country, s.check_frequency, s.n_passes, s.status,
			       s.query_cluster_ids, s.last_checked_at)
			      IS DISTINCT FROM
			      (excluded.query_text, excluded.engine, excluded.country, excluded.check_frequency,
			       excluded.n_passes, excluded.status, excluded.query_cluster_ids, excluded.last_checked_at)`,
			projectID); err != nil {
			return fmt.Errorf("writing search rows: %w", err)
		}
		tag, err := tx.Exec(ctx, `DELETE FROM tracked_query_search_pending WHERE project_id = $1 AND revision = $2`, projectID, revision)
		if err != nil {
			return fmt.Errorf("clearing search revision: %w", err)
		}
		stillStale = tag.RowsAffected() == 0
		return nil
	})
	return refreshed, stillStale, err
}
