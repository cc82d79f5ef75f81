package oltp

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/sightline/sightline"
)

// MaxQueryTextLength bounds a normalised query text, in characters. The
// spec sets no bound; 500 fits any real keyword and keeps rows small.
const MaxQueryTextLength = 500

// GoogleAIModeUnavailableCountries are the countries (ISO 3166-1 alpha-2)
// where Google does not offer AI Mode, because Google Search itself is not
// served there or its generative features are withheld under sanctions:
// Belarus, China, Cuba, Iran, North Korea, Russia and Syria. Everywhere
// else AI Mode is treated as available. The spec leaves the list open.
var GoogleAIModeUnavailableCountries = []string{"BY", "CN", "CU", "IR", "KP", "RU", "SY"}

// EngineAvailableIn reports whether engine can be tracked in country.
func EngineAvailableIn(engine, country string) bool {
	return engine != string(sightline.EngineGoogleAIMode) || !slices.Contains(GoogleAIModeUnavailableCountries, country)
}

// TrackedQuery is the write-model record of a tracked query (spec 2.3 and
// api-decisions): its configuration, never its metrics.
type TrackedQuery struct {
	ID              uuid.UUID            `json:"id" db:"id"`
	ProjectID       uuid.UUID            `json:"projectId" db:"project_id"`
	QueryText       string               `json:"queryText" db:"query_text"`
	Engine          string               `json:"engine" db:"engine"`
	Country         string               `json:"country" db:"country"`
	Locale          *string              `json:"locale" db:"locale"`
	CheckFrequency  string               `json:"checkFrequency" db:"check_frequency"`
	NPasses         int                  `json:"nPasses" db:"n_passes"`
	Status          string               `json:"status" db:"status"`
	QueryClusterIDs []uuid.UUID          `json:"queryClusterIds" db:"query_cluster_ids"`
	LastCheckedAt   *sightline.Timestamp `json:"lastCheckedAt" db:"last_checked_at"`
	CreatedAt       sightline.Timestamp  `json:"createdAt" db:"created_at"`
}

// Cluster ids are listed in id order, which for v7 ids is creation order.
const trackedQueryColumns = `q.id, q.project_id, q.query_text, q.engine, q.country, q.locale,
	q.check_frequency, q.n_passes, q.status,
	ARRAY(SELECT c.cluster_id FROM tracked_query_clusters c
	      WHERE c.tracked_query_id = q.id ORDER BY c.cluster_id) AS query_cluster_ids,
	q.last_checked_at, q.created_at`

// GetTrackedQuery returns one tracked query of the project, or
// tracked_query_not_found (also for a query of another project).
func GetTrackedQuery(ctx context.Context, db DBTX, projectID, id uuid.UUID) (*TrackedQuery, error) {
	return getTrackedQuery(ctx, db, projectID, id, false)
}

func getTrackedQuery(ctx context.Context, db DBTX, projectID, id uuid.UUID, lock bool) (*TrackedQuery, error) {
	query := `SELECT ` + trackedQueryColumns + ` FROM tracked_queries q WHERE q.project_id = $1 AND q.id = $2`
	if lock {
		query += ` FOR UPDATE OF q`
	}
	return queryOne[TrackedQuery](ctx, db, sightline.Errorf(sightline.CodeTrackedQueryNotFound, "Tracked query not found."),
		"reading tracked query", query, projectID, id)
}

// TrackedQueryChange is a change of configuration; nil fields stay as they are.
type TrackedQueryChange struct {
	CheckFrequency *string
	NPasses        *int
	Status         *string
}

// refusal returns why the change cannot apply to a query on engine, or nil.
func (c TrackedQueryChange) refusal(engine string) error {
	if c.NPasses != nil && *c.NPasses > 1 && sightline.Engine(engine).SinglePass() {
		return sightline.Errorf(sightline.CodeNPassesNotSupported, "%s always runs a single pass; nPasses must be 1.", engine)
	}
	return nil
}

// UpdateTrackedQuery applies change to one tracked query of the project,
// locking it first, and reports whether anything changed: setting a value
// it already has is a successful no-op. More than one pass on a search or
// shopping query is n_passes_not_supported_for_engine.
func UpdateTrackedQuery(ctx context.Context, db DBTX, projectID, id uuid.UUID, change TrackedQueryChange) (*TrackedQuery, bool, error) {
	q, err := getTrackedQuery(ctx, db, projectID, id, true)
	if err != nil {
		return nil, false, err
	}
	if err := change.refusal(q.Engine); err != nil {
		return nil, false, err
	}
	n, err := SetTrackedQueries(ctx, db, projectID, []uuid.UUID{id}, change)
	if err != nil || n == 0 {
		return q, false, err
	}
	q, err = getTrackedQuery(ctx, db, projectID, id, false)
	return q, true, err
}

// LockTrackedQueries locks the project's tracked queries among ids, in id
// order so that concurrent batches cannot deadlock, and returns the engine
// of each one found. Ids of other projects are simply not found.
func LockTrackedQueries(ctx context.Context, db DBTX, projectID uuid.UUID, ids []uuid.UUID) (map[uuid.UUID]string, error) {
	rows, err := db.Query(ctx, `
		SELECT id, engine FROM tracked_queries
		WHERE project_id = $1 AND id = ANY($2)
		ORDER BY id FOR UPDATE`, projectID, ids)
	if err != nil {
		return nil, fmt.Errorf("locking tracked queries: %w", err)
	}
	found := map[uuid.UUID]string{}
	var id uuid.UUID
	var engine string
	_, err = pgx.ForEachRow(rows, []any{&id, &engine}, func() error {
		found[id] = engine
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("locking tracked queries: %w", err)
	}
	return found, nil
}

// RefusedChange returns the error code and message that keep change from
// applying to a query on engine, or "" when it applies.
func RefusedChange(change TrackedQueryChange, engine string) (sightline.Code, string) {
	var e *sightline.Error
	if errors.As(change.refusal(engine), &e) {
		return e.Code, e.Message
	}
	return "", ""
}

// SetTrackedQueries applies change to the project's tracked queries among
// ids (locked by the caller) and returns how many actually changed.
func SetTrackedQueries(ctx context.Context, db DBTX, projectID uuid.UUID, ids []uuid.UUID, change TrackedQueryChange) (int64, error) {
	return execCount(ctx, db, "updating tracked queries", `
		UPDATE tracked_queries SET
			check_frequency = coalesce($3, check_frequency),
			n_passes = coalesce($4, n_passes),
			status = coalesce($5, status)
		WHERE project_id = $1 AND id = ANY($2)
		  AND (check_frequency, n_passes, status) IS DISTINCT FROM
		      (coalesce($3, check_frequency), coalesce($4, n_passes), coalesce($5, status))`,
		projectID, ids, change.CheckFrequency, change.NPasses, change.Status)
}

// DeleteTrackedQueries hard-deletes the project's tracked queries among ids,
// with their cluster memberships, and returns the ids deleted.
func DeleteTrackedQueries(ctx context.Context, db DBTX, projectID uuid.UUID, ids []uuid.UUID) ([]uuid.UUID, error) {
	return queryRows(ctx, db, pgx.RowTo[uuid.UUID], "deleting tracked queries",
		`DELETE FROM tracked_queries WHERE project_id = $1 AND id = ANY($2) RETURNING id`, projectID, ids)
}

// ProjectClusters returns which of ids are clusters of the project, and
// locks those (FOR KEY SHARE) until the transaction ends: a cluster cannot
// be deleted between this check and the membership write that follows, so
// the write never meets a vanished cluster.
func ProjectClusters(ctx context.Context, db DBTX, projectID uuid.UUID, ids []uuid.UUID) (map[uuid.UUID]bool, error) {
	found, err := queryRows(ctx, db, pgx.RowTo[uuid.UUID], "reading clusters", `
		SELECT id FROM query_clusters WHERE project_id = $1 AND id = ANY($2)
		ORDER BY id FOR KEY SHARE`, projectID, ids)
	if err != nil {
		return nil, err
	}
	return setOf(found), nil
}

// CheckClustersForCreate checks the clusters named by a create (spec 4.2):
// an id that is no cluster of the organization is query_cluster_not_found
// (404); a cluster of another project of the same organization is
// query_cluster_in_other_project (422). The clusters found are locked as
// in ProjectClusters.
func CheckClustersForCreate(ctx context.Context, db DBTX, organizationID, projectID uuid.UUID, ids []uuid.UUID) error {
	if len(ids) == 0 {
		return nil
	}
	rows, err := db.Query(ctx, `
		SELECT c.id, c.project_id FROM query_clusters c JOIN projects p ON p.id = c.project_id
		WHERE p.organization_id = $1 AND c.id = ANY($2)
		ORDER BY c.id FOR KEY SHARE OF c`, organizationID, ids)
	if err != nil {
		return fmt.Errorf("reading clusters: %w", err)
	}
	projectOf := map[uuid.UUID]uuid.UUID{}
	var id, project uuid.UUID
	if _, err := pgx.ForEachRow(rows, []any{&id, &project}, func() error {
		projectOf[id] = project
		return nil
	}); err != nil {
		return fmt.Errorf("reading clusters: %w", err)
	}
	for _, id := range ids {
		if _, ok := projectOf[id]; !ok {
			return sightline.Errorf(sightline.CodeQueryClusterNotFound, "Query cluster %s not found.", id)
		}
	}
	for _, id := range ids {
		if projectOf[id] != projectID {
			return sightline.Errorf(sightline.CodeQueryClusterOtherProject,
				"Query cluster %s belongs to another project of the organization.", id)
		}
	}
	return nil
}

// AddTrackedQueryClusters makes every query a member of every cluster
// (both of the project, checked and locked by the caller); existing
// memberships are skipped. Rows are written in key order so that
// concurrent writers cannot deadlock. It returns the memberships added.
func AddTrackedQueryClusters(ctx context.Context, db DBTX, projectID uuid.UUID, queryIDs, clusterIDs []uuid.UUID) (int64, error) {
	if len(queryIDs) == 0 || len(clusterIDs) == 0 {
		return 0, nil
	}
	return execCount(ctx, db, "adding cluster memberships", `
		INSERT INTO tracked_query_clusters (project_id, tracked_query_id, cluster_id)
		SELECT $1, q, c FROM unnest($2::uuid[]) q CROSS JOIN unnest($3::uuid[]) c
		ORDER BY q, c
		ON CONFLICT DO NOTHING`, projectID, queryIDs, clusterIDs)
}

// RemoveTrackedQueryClusters removes the memberships of the queries in the
// clusters; absent ones are skipped. It returns the memberships removed.
func RemoveTrackedQueryClusters(ctx context.Context, db DBTX, projectID uuid.UUID, queryIDs, clusterIDs []uuid.UUID) (int64, error) {
	return execCount(ctx, db, "removing cluster memberships", `
		DELETE FROM tracked_query_clusters
		WHERE project_id = $1 AND tracked_query_id = ANY($2) AND cluster_id = ANY($3)`,
		projectID, queryIDs, clusterIDs)
}

// NewTrackedQueries is a create request whose values are already valid:
// texts normalised, engines and countries known, clusters checked.
type NewTrackedQueries struct {
	ProjectID      uuid.UUID
	QueryTexts     []string
	Engines        []string
	Countries      []string
	Locale         *string
	CheckFrequency string
	NPasses        int
	ClusterIDs     []uuid.UUID
}

// Combinations is the number of combinations the request asks for.
func (n NewTrackedQueries) Combinations() int {
	return len(n.QueryTexts) * len(n.Engines) * len(n.Countries)
}

// CreatedTrackedQuery is the outcome of one combination of a create.
// Code is empty for a created query; otherwise ID is the existing query
// (tracked_query_already_exists), the query of the combination repeated
// (duplicate_combination_in_request, with RepeatsIndex), or nil.
type CreatedTrackedQuery struct {
	ID           *uuid.UUID
	QueryText    string
	Engine       string
	Country      string
	Code         sightline.Code
	Message      string
	RepeatsIndex *int
}

type trackedCombination struct{ text, engine, country string }

// CreateTrackedQueries creates the cross product queryTexts x engines x
// countries, enumerated with queryTexts outermost and countries innermost
// Each combination is, in this order of precedence:
//   - duplicate_combination_in_request when an earlier one has the same
//     normalised text, engine and country; repeatsIndex names the entry
//     of queryTexts it repeats (spec 4.2: a text that normalises equal to
//     an earlier entry names the entry it repeats);
//   - engine_not_available_in_country for google_ai_mode where Google does
//     not offer it;
//   - tracked_query_already_exists when the project tracks it already: it
//     keeps its id and settings, and the request's clusters are added;
//   - otherwise created, active, with 1 pass on google_serp and
//     google_shopping whatever nPasses says.
//
// Inserts rely on the unique constraint (ON CONFLICT DO NOTHING), so two
// concurrent identical creates give one creation and one
// tracked_query_already_exists, never a duplicate. Rows are inserted in key
// order so that concurrent creates cannot deadlock. It also reports whether
// anything changed.
func CreateTrackedQueries(ctx context.Context, db DBTX, in NewTrackedQueries) ([]CreatedTrackedQuery, bool, error) {
	results := make([]CreatedTrackedQuery, 0, in.Combinations())
	first := map[trackedCombination]int{} // combination -> its first index in results
	repeats := map[int]int{}              // index in results -> the first index of its combination
	firstText := map[string]int{}         // normalised text -> its first entry in QueryTexts
	var fresh []int
	for t, text := range in.QueryTexts {
		if _, ok := firstText[text]; !ok {
			firstText[text] = t
		}
		for _, engine := range in.Engines {
			for _, country := range in.Countries {
				i := len(results)
				k := trackedCombination{text, engine, country}
				r := CreatedTrackedQuery{QueryText: text, Engine: engine, Country: country}
				if c, seen := first[k]; seen {
					repeats[i] = c
					j := firstText[text]
					r.Code, r.RepeatsIndex = sightline.ItemDuplicateCombinationInRequest, &j
					r.Message = fmt.Sprintf("Repeats queryTexts entry %d once normalised.", j)
				} else {
					first[k] = i
					if !EngineAvailableIn(engine, country) {
						r.Code = sightline.ItemEngineNotAvailableInCountry
						r.Message = fmt.Sprintf("%s is not available in %s.", engine, country)
					} else {
						id := uuid.Must(uuid.NewV7())
						r.ID = &id
						fresh = append(fresh, i)
					}
				}
				results = append(results, r)
			}
		}
	}
	slices.SortFunc(fresh, func(a, b int) int {
		x, y := results[a], results[b]
		return cmp.Or(cmp.Compare(x.QueryText, y.QueryText), cmp.Compare(x.Engine, y.Engine), cmp.Compare(x.Country, y.Country))
	})
	created, err := insertTrackedQueries(ctx, db, in, results, fresh)
	if err != nil {
		return nil, false, err
	}
	var existing []int
	for _, i := range fresh {
		if !created[*results[i].ID] {
			existing = append(existing, i)
		}
	}
	if err := findExistingTrackedQueries(ctx, db, in.ProjectID, results, existing); err != nil {
		return nil, false, err
	}
	members := make([]uuid.UUID, 0, len(fresh))
	for _, i := range fresh {
		members = append(members, *results[i].ID)
	}
	added, err := AddTrackedQueryClusters(ctx, db, in.ProjectID, members, in.ClusterIDs)
	if err != nil {
		return nil, false, err
	}
	for i, c := range repeats {
		results[i].ID = results[c].ID
	}
	return results, len(created) > 0 || added > 0, nil
}

// insertTrackedQueries inserts the fresh combinations, in the order given,
// and returns the ids actually inserted.
func insertTrackedQueries(ctx context.Context, db DBTX, in NewTrackedQueries, results []CreatedTrackedQuery, fresh []int) (map[uuid.UUID]bool, error) {
	created := map[uuid.UUID]bool{}
	if len(fresh) == 0 {
		return created, nil
	}
	ids := make([]uuid.UUID, len(fresh))
	texts, engines, countries := make([]string, len(fresh)), make([]string, len(fresh)), make([]string, len(fresh))
	passes := make([]int, len(fresh))
	for n, i := range fresh {
		r := results[i]
		ids[n], texts[n], engines[n], countries[n], passes[n] = *r.ID, r.QueryText, r.Engine, r.Country, in.NPasses
		if sightline.Engine(r.Engine).SinglePass() {
			passes[n] = 1
		}
	}
	inserted, err := queryRows(ctx, db, pgx.RowTo[uuid.UUID], "creating tracked queries", `
		INSERT INTO tracked_queries (id, project_id, query_text, engine, country, locale, check_frequency, n_passes)
		SELECT id, $1, query_text, engine, country, $7, $8, n_passes
		FROM unnest($2::uuid[], $3::text[], $4::text[], $5::text[], $6::int[])
		     WITH ORDINALITY AS c (id, query_text, engine, country, n_passes, ord)
		ORDER BY ord
		ON CONFLICT (project_id, query_text, engine, country) DO NOTHING
		RETURNING id`, in.ProjectID, ids, texts, engines, countries, passes, in.Locale, in.CheckFrequency)
	if err != nil {
		return nil, err
	}
	for _, id := range inserted {
		created[id] = true
	}
	return created, nil
}

// findExistingTrackedQueries turns the combinations that met the unique
// constraint into tracked_query_already_exists outcomes carrying the
// existing query's id. Writes hold the project FOR SHARE and deletes need
// it FOR NO KEY UPDATE, so a query met by the constraint is still there.
func findExistingTrackedQueries(ctx context.Context, db DBTX, projectID uuid.UUID, results []CreatedTrackedQuery, existing []int) error {
	if len(existing) == 0 {
		return nil
	}
	texts, engines, countries := make([]string, len(existing)), make([]string, len(existing)), make([]string, len(existing))
	for n, i := range existing {
		texts[n], engines[n], countries[n] = results[i].QueryText, results[i].Engine, results[i].Country
	}
	rows, err := db.Query(ctx, `
		SELECT q.id, q.query_text, q.engine, q.country
		FROM tracked_queries q
		JOIN unnest($2::text[], $3::text[], $4::text[]) AS c (query_text, engine, country)
		  ON q.query_text = c.query_text AND q.engine = c.engine AND q.country = c.country
		WHERE q.project_id = $1`, projectID, texts, engines, countries)
	if err != nil {
		return fmt.Errorf("reading existing tracked queries: %w", err)
	}
	found := map[trackedCombination]uuid.UUID{}
	var id uuid.UUID
	var k trackedCombination
	if _, err := pgx.ForEachRow(rows, []any{&id, &k.text, &k.engine, &k.country}, func() error {
		found[k] = id
		return nil
	}); err != nil {
		return fmt.Errorf("reading existing tracked queries: %w", err)
	}
	for _, i := range existing {
		r := &results[i]
		id, ok := found[trackedCombination{r.QueryText, r.Engine, r.Country}]
		if !ok {
			return fmt.Errorf("tracked query %q on %s in %s conflicted but cannot be found", r.QueryText, r.Engine, r.Country)
		}
		r.ID = &id
		r.Code = sightline.ItemTrackedQueryAlreadyExists
		r.Message = "This combination is already tracked; it keeps its id and settings, and the request's clusters were added to it."
	}
	return nil
}

// CountTrackedQueries counts the project's tracked queries, all or those
// of one status, and prices checking them all once: one budget unit per
// configured pass.
func CountTrackedQueries(ctx context.Context, db DBTX, projectID uuid.UUID, status string) (count, checkCost int, err error) {
	err = db.QueryRow(ctx, `
		SELECT count(*), coalesce(sum(n_passes), 0) FROM tracked_queries
		WHERE project_id = $1 AND ($2 = '' OR status = $2)`, projectID, status).Scan(&count, &checkCost)
	if err != nil {
		return 0, 0, fmt.Errorf("counting tracked queries: %w", err)
	}
	return count, checkCost, nil
}

// Coverage says how well a project's schedule keeps up (spec 2.8).
type Coverage struct {
	Total        int              `json:"total"`
	Active       int              `json:"active"`
	Paused       int              `json:"paused"`
	NeverChecked int              `json:"neverChecked"`
	Overdue      int              `json:"overdue"`
	Sample       []CoverageSample `json:"sample"`
}

// CoverageSample is an overdue query of the coverage sample.
type CoverageSample struct {
	ID             uuid.UUID           `json:"id" db:"id"`
	QueryText      string              `json:"queryText" db:"query_text"`
	Engine         string              `json:"engine" db:"engine"`
	Country        string              `json:"country" db:"country"`
	CheckFrequency string              `json:"checkFrequency" db:"check_frequency"`
	LastCheckedAt  sightline.Timestamp `json:"lastCheckedAt" db:"last_checked_at"`
}

// CoverageSampleSize is the most overdue queries a coverage answer lists.
const CoverageSampleSize = 20

// trackedOverdue is true for an active query whose last completed check is
// older than its frequency's interval: daily 1 day, weekly 7 days, monthly
// 30 days (the month of the spec's month model).
const trackedOverdue = `q.status = 'active' AND q.last_checked_at IS NOT NULL AND
	q.last_checked_at < now() - ` + dueInterval

// GetCoverage counts the project's queries by schedule state and samples
// the most stale overdue ones: oldest last check first, id as tie-break.
// Never-checked queries are counted apart and never sampled.
func GetCoverage(ctx context.Context, db DBTX, projectID uuid.UUID) (*Coverage, error) {
	var c Coverage
	err := db.QueryRow(ctx, `
		SELECT count(*),
		       count(*) FILTER (WHERE q.status = 'active'),
		       count(*) FILTER (WHERE q.status = 'paused'),
		       count(*) FILTER (WHERE q.status = 'active' AND q.last_checked_at IS NULL),
		       count(*) FILTER (WHERE `+trackedOverdue+`)
		FROM tracked_queries q WHERE q.project_id = $1`, projectID).
		Scan(&c.Total, &c.Active, &c.Paused, &c.NeverChecked, &c.Overdue)
	if err != nil {
		return nil, fmt.Errorf("counting coverage: %w", err)
	}
	c.Sample, err = queryRows(ctx, db, pgx.RowToStructByName[CoverageSample], "sampling overdue queries", `
		SELECT q.id, q.query_text, q.engine, q.country, q.check_frequency, q.last_checked_at
		FROM tracked_queries q WHERE q.project_id = $1 AND `+trackedOverdue+`
		ORDER BY q.last_checked_at, q.id LIMIT $2`, projectID, CoverageSampleSize)
	if err != nil {
		return nil, err
	}
	return &c, nil
}
