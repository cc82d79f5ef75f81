package oltp

import (
	"context"
	"fmt"

	sq "github.com/Masterminds/squirrel"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/sightline/sightline"
)

// MaxProjectNameLength bounds a project's name (spec 2.6: 1 to 255).
const MaxProjectNameLength = 255

// Project is a project with its brand configuration, as the API shows it.
// A project without a brand profile has empty lists.
type Project struct {
	ID             uuid.UUID            `json:"id" db:"id"`
	OrganizationID uuid.UUID            `json:"organizationId" db:"organization_id"`
	Name           string               `json:"name" db:"name"`
	Status         string               `json:"status" db:"status"`
	WebsiteDomains []string             `json:"websiteDomains" db:"website_domains"`
	BrandNames     []string             `json:"brandNames" db:"brand_names"`
	Competitors    []Competitor         `json:"competitors" db:"competitors"`
	CreatedAt      sightline.Timestamp  `json:"createdAt" db:"created_at"`
	ArchivedAt     *sightline.Timestamp `json:"archivedAt" db:"archived_at"`
}

// ProjectRow is a row of the project listing: the project record and its
// metrics. The fields are flat so that a CSV row has one cell per field
// (competitors show as their names there).
type ProjectRow struct {
	ID             uuid.UUID            `json:"id" db:"id"`
	OrganizationID uuid.UUID            `json:"organizationId" db:"organization_id"`
	Name           string               `json:"name" db:"name"`
	Status         string               `json:"status" db:"status"`
	WebsiteDomains []string             `json:"websiteDomains" db:"website_domains"`
	BrandNames     []string             `json:"brandNames" db:"brand_names"`
	Competitors    []Competitor         `json:"competitors" db:"competitors"`
	CreatedAt      sightline.Timestamp  `json:"createdAt" db:"created_at"`
	ArchivedAt     *sightline.Timestamp `json:"archivedAt" db:"archived_at"`

	// TrackedQueryCount is a live count of the project's tracked queries,
	// active and paused.
	TrackedQueryCount int `json:"trackedQueryCount" db:"tracked_query_count"`
	// The metrics come from project_listing_metrics, which the check
	// pipeline's projection fills; null means not known (yet).
	AvgSerpPosition           *float64             `json:"avgSerpPosition" db:"avg_serp_position"`
	AvgShoppingPosition       *float64             `json:"avgShoppingPosition" db:"avg_shopping_position"`
	AvgMentionPosition        *float64             `json:"avgMentionPosition" db:"avg_mention_position"`
	AvgLinkPosition           *float64             `json:"avgLinkPosition" db:"avg_link_position"`
	MentionRate               *float64             `json:"mentionRate" db:"mention_rate"`
	SerpRate                  *float64             `json:"serpRate" db:"serp_rate"`
	ShoppingRate              *float64             `json:"shoppingRate" db:"shopping_rate"`
	PositivityIndex           *float64             `json:"positivityIndex" db:"positivity_index"`
	ShareOfVoice              *float64             `json:"shareOfVoice" db:"share_of_voice"`
	SerpPositionStability     *float64             `json:"serpPositionStability" db:"serp_position_stability"`
	ShoppingPositionStability *float64             `json:"shoppingPositionStability" db:"shopping_position_stability"`
	LastRankDetectedAt        *sightline.Timestamp `json:"lastRankDetectedAt" db:"last_rank_detected_at"`
}

// projectColumns select a Project from projects p left-joined to its brand
// profile b; competitors come in id order.
const projectColumns = `p.id, p.organization_id, p.name, p.status, p.created_at, p.archived_at,
	COALESCE(b.website_domains, '{}') AS website_domains,
	COALESCE(b.brand_names, '{}') AS brand_names,
	COALESCE((SELECT json_agg(json_build_object('id', c.id, 'name', c.name,
	                 'websiteDomains', c.website_domains, 'brandNames', c.brand_names) ORDER BY c.id)
	          FROM competitors c WHERE c.project_id = p.id), '[]') AS competitors`

const projectFrom = "projects p LEFT JOIN brand_profiles b ON b.project_id = p.id"

// projectSortColumns maps the listing's sort keys to SQL. Metrics sort with
// unknown (null) values last in either direction.
var projectSortColumns = map[string]string{
	"createdAt":                 "p.created_at",
	"name":                      "lower(p.name)",
	"trackedQueryCount":         "tracked_query_count",
	"avgSerpPosition":           "m.avg_serp_position",
	"avgShoppingPosition":       "m.avg_shopping_position",
	"avgMentionPosition":        "m.avg_mention_position",
	"avgLinkPosition":           "m.avg_link_position",
	"mentionRate":               "m.mention_rate",
	"serpRate":                  "m.serp_rate",
	"shoppingRate":              "m.shopping_rate",
	"positivityIndex":           "m.positivity_index",
	"shareOfVoice":              "m.share_of_voice",
	"serpPositionStability":     "m.serp_position_stability",
	"shoppingPositionStability": "m.shopping_position_stability",
	"lastRankDetectedAt":        "m.last_rank_detected_at",
}

// ProjectSortKeys lists the listing's sort keys, the default first.
var ProjectSortKeys = []string{
	"createdAt", "name", "trackedQueryCount", "avgSerpPosition", "avgShoppingPosition", "avgMentionPosition",
	"avgLinkPosition", "mentionRate", "serpRate", "shoppingRate", "positivityIndex", "shareOfVoice",
	"serpPositionStability", "shoppingPositionStability", "lastRankDetectedAt",
}

// ProjectFilter selects a page of an organization's projects.
type ProjectFilter struct {
	OrganizationID uuid.UUID
	Search         string // case-insensitive substring of the name
	Status         string // "" for every status
	SortBy         string
	Descending     bool
	Limit, Offset  int
}

// ListProjects returns one page of the organization's projects and the
// number that match the filter.
func ListProjects(ctx context.Context, db DBTX, f ProjectFilter) ([]ProjectRow, int, error) {
	where := sq.And{sq.Eq{"p.organization_id": f.OrganizationID}}
	if f.Search != "" {
		where = append(where, sq.Expr("p.name ILIKE '%' || ? || '%'", escapeLike(f.Search)))
	}
	if f.Status != "" {
		where = append(where, sq.Eq{"p.status": f.Status})
	}
	order, ok := projectSortColumns[f.SortBy]
	if !ok {
		return nil, 0, fmt.Errorf("unsupported project sort %q", f.SortBy)
	}
	dir := direction(f.Descending)
	// The joins add at most one row to a project, so they count the same.
	page, count := pageWithTotal(projectColumns+`,
		(SELECT count(*) FROM tracked_queries t WHERE t.project_id = p.id) AS tracked_query_count,
		m.avg_serp_position, m.avg_shopping_position, m.avg_mention_position, m.avg_link_position,
		m.mention_rate, m.serp_rate, m.shopping_rate, m.positivity_index, m.share_of_voice,
		m.serp_position_stability, m.shopping_position_stability, m.last_rank_detected_at`,
		projectFrom+" LEFT JOIN project_listing_metrics m ON m.project_id = p.id", where, f.Limit, f.Offset,
		order+dir+" NULLS LAST", "p.id"+dir)
	type row struct {
		ProjectRow
		Total int `db:"total"`
	}
	return listWithTotal(ctx, db, page, count, func(r row) (ProjectRow, int) { return r.ProjectRow, r.Total })
}

// GetProject returns the organization's project with its brand
// configuration, or project_not_found.
func GetProject(ctx context.Context, db DBTX, organizationID, projectID uuid.UUID) (*Project, error) {
	return queryOne[Project](ctx, db, sightline.Errorf(sightline.CodeProjectNotFound, "Project not found."),
		"reading project", "SELECT "+projectColumns+" FROM "+projectFrom+
			" WHERE p.id = $1 AND p.organization_id = $2", projectID, organizationID)
}

// BrandLists are the normalised website domains and brand names of a brand
// profile or a competitor (see NormalizeDomains, NormalizeBrandNames).
type BrandLists struct {
	WebsiteDomains []string
	BrandNames     []string
}

// NewCompetitor is a competitor to create: a trimmed name and normalised lists.
type NewCompetitor struct {
	Name string
	BrandLists
}

// NewProject is a project to create with its brand profile and competitors.
type NewProject struct {
	Name        string
	Profile     BrandLists
	Competitors []NewCompetitor
}

// CreateProject creates a project, its brand profile and its competitors in
// the organization, which must be active. Run it in a transaction: the
// organization row stays locked FOR SHARE until the end, so that an
// organization archive cannot miss the new project.
func CreateProject(ctx context.Context, db DBTX, organizationID uuid.UUID, in NewProject) (*Project, error) {
	if err := CheckOrganizationWritable(ctx, db, organizationID); err != nil {
		return nil, err
	}
	projectID := uuid.Must(uuid.NewV7())
	_, err := db.Exec(ctx, `
		WITH p AS (INSERT INTO projects (id, organization_id, name) VALUES ($1, $2, $3) RETURNING id)
		INSERT INTO brand_profiles (project_id, id, website_domains, brand_names)
		SELECT id, $4, $5, $6 FROM p`,
		projectID, organizationID, in.Name, uuid.Must(uuid.NewV7()), in.Profile.WebsiteDomains, in.Profile.BrandNames)
	if err != nil {
		return nil, fmt.Errorf("creating project: %w", err)
	}
	for _, c := range in.Competitors {
		if _, err := insertCompetitor(ctx, db, projectID, c); err != nil {
			return nil, err
		}
	}
	return GetProject(ctx, db, organizationID, projectID)
}

// LockProjectScope is LoadProjectScope for a write that updates the project
// row itself (rename, archive, restore, marking its data dirty): it takes
// the row lock such an update needs (FOR NO KEY UPDATE) at once, where
// taking FOR SHARE first would let two concurrent updates deadlock on the
// upgrade. The organization row is locked FOR SHARE, as for every write.
func LockProjectScope(ctx context.Context, db DBTX, organizationID, projectID uuid.UUID) (*ProjectScope, error) {
	var p ProjectScope
	err := scanOne(db.QueryRow(ctx, `
		SELECT p.id, p.organization_id, p.status, p.archived_by, o.status,
		       EXISTS (SELECT 1 FROM brand_profiles b WHERE b.project_id = p.id)
		FROM projects p JOIN organizations o ON o.id = p.organization_id
		WHERE p.id = $1 AND p.organization_id = $2
		FOR NO KEY UPDATE OF p FOR SHARE OF o`, projectID, organizationID),
		sightline.Errorf(sightline.CodeProjectNotFound, "Project not found."), "locking project",
		&p.ID, &p.OrganizationID, &p.Status, &p.ArchivedBy, &p.OrganizationStatus, &p.HasBrandProfile)
	if err != nil {
		return nil, err
	}
	return &p, nil
}

// RenameProject sets the name of a project the caller has locked.
func RenameProject(ctx context.Context, db DBTX, organizationID, projectID uuid.UUID, name string) (*Project, error) {
	return updateProject(ctx, db, organizationID, projectID, "renaming", `name = $3`, name)
}

// ArchiveProject archives an active project of an active organization on
// the caller's behalf (spec 3.2), recording that the caller archived it so
// that an organization restore leaves it archived. Nothing is deleted.
func ArchiveProject(ctx context.Context, db DBTX, organizationID, projectID uuid.UUID) (*Project, error) {
	if _, err := lockProjectIn(ctx, db, organizationID, projectID, "active", "The project is already archived."); err != nil {
		return nil, err
	}
	return updateProject(ctx, db, organizationID, projectID, "archiving",
		`status = 'archived', archived_by = 'caller', archived_at = now()`)
}

// RestoreProject restores a project its caller archived (spec 3.2). A
// project archived by its organization's archive comes back only with the
// organization.
func RestoreProject(ctx context.Context, db DBTX, organizationID, projectID uuid.UUID) (*Project, error) {
	scope, err := lockProjectIn(ctx, db, organizationID, projectID, "archived", "The project is already active.")
	if err != nil {
		return nil, err
	}
	if scope.ArchivedBy != nil && *scope.ArchivedBy == "organization" {
		return nil, sightline.Errorf(sightline.CodeProjectArchivedByOrganization,
			"The project was archived with its organization; restore the organization instead.")
	}
	return updateProject(ctx, db, organizationID, projectID, "restoring",
		`status = 'active', archived_by = NULL, archived_at = NULL`)
}

// lockProjectIn locks a project of an active organization for a change of
// status, refusing it unless the project is in status from.
func lockProjectIn(ctx context.Context, db DBTX, organizationID, projectID uuid.UUID, from, refusal string) (*ProjectScope, error) {
	scope, err := LockProjectScope(ctx, db, organizationID, projectID)
	if err != nil {
		return nil, err
	}
	if scope.OrganizationStatus != "active" {
		return nil, sightline.Errorf(sightline.CodeProjectIsArchived, "The organization is archived; restore it first.")
	}
	if scope.Status != from {
		return nil, sightline.Errorf(sightline.CodeStatusTransitionNotAllowed, "%s", refusal)
	}
	return scope, nil
}

// updateProject sets columns of one project (set may use $3 on for args)
// and returns the project as it now is; doing names the change in errors.
func updateProject(ctx context.Context, db DBTX, organizationID, projectID uuid.UUID, doing, set string, args ...any) (*Project, error) {
	args = append([]any{projectID, organizationID}, args...)
	if _, err := db.Exec(ctx, `UPDATE projects SET `+set+` WHERE id = $1 AND organization_id = $2`, args...); err != nil {
		return nil, fmt.Errorf("%s project: %w", doing, err)
	}
	return GetProject(ctx, db, organizationID, projectID)
}

// BrandProfile is a project's brand-monitoring configuration. Description is
// generated asynchronously; null means not generated yet.
type BrandProfile struct {
	ProjectID              uuid.UUID            `json:"projectId" db:"project_id"`
	WebsiteDomains         []string             `json:"websiteDomains" db:"website_domains"`
	BrandNames             []string             `json:"brandNames" db:"brand_names"`
	Description            *string              `json:"description" db:"description"`
	DescriptionGeneratedAt *sightline.Timestamp `json:"descriptionGeneratedAt" db:"description_generated_at"`
}

const brandProfileQuery = `
	SELECT b.project_id, b.website_domains, b.brand_names, b.description, b.description_generated_at
	FROM brand_profiles b JOIN projects p ON p.id = b.project_id
	WHERE b.project_id = $1 AND p.organization_id = $2`

// GetBrandProfile returns the project's brand profile, or
// brand_profile_not_found when it has none.
func GetBrandProfile(ctx context.Context, db DBTX, organizationID, projectID uuid.UUID) (*BrandProfile, error) {
	return queryOne[BrandProfile](ctx, db, sightline.Errorf(sightline.CodeBrandProfileNotFound, "The project has no brand profile."),
		"reading brand profile", brandProfileQuery, projectID, organizationID)
}

// ReplaceBrandLists replaces the profile's domains and brand names. The
// name, the competitors and the description are left as they are.
func ReplaceBrandLists(ctx context.Context, db DBTX, organizationID, projectID uuid.UUID, lists BrandLists) (*BrandProfile, error) {
	tag, err := db.Exec(ctx, `
		UPDATE brand_profiles b SET website_domains = $3, brand_names = $4, updated_at = now()
		FROM projects p
		WHERE b.project_id = $1 AND p.id = b.project_id AND p.organization_id = $2`,
		projectID, organizationID, lists.WebsiteDomains, lists.BrandNames)
	if err != nil {
		return nil, fmt.Errorf("replacing brand lists: %w", err)
	}
	if tag.RowsAffected() == 0 {
		return nil, sightline.Errorf(sightline.CodeBrandProfileNotFound, "The project has no brand profile.")
	}
	return GetBrandProfile(ctx, db, organizationID, projectID)
}

// BeginCascade registers a background cascade for the project (subject and
// subjectID say what it removes) and marks the project's figures as moving
// from its creation on: the removal changes history, not only what comes
// next. The caller holds the project row lock (LockProjectScope) and
// enqueues the job that will call FinishCascade in the same transaction.
func BeginCascade(ctx context.Context, db DBTX, projectID uuid.UUID, subject string, subjectID uuid.UUID) (uuid.UUID, error) {
	id := uuid.Must(uuid.NewV7())
	_, err := db.Exec(ctx, `
		WITH c AS (INSERT INTO project_cascades (id, project_id, subject, subject_id) VALUES ($1, $2, $3, $4))
		UPDATE projects SET data_dirty_since = created_at WHERE id = $2`, id, projectID, subject, subjectID)
	if err != nil {
		return uuid.Nil, fmt.Errorf("registering cascade: %w", err)
	}
	return id, nil
}

// FinishCascade removes a finished cascade from the ledger and clears the
// project's data_dirty_since when no other cascade of it is pending. In its
// own transaction, it locks the project row first, so that it serialises
// with a write that registers a new cascade and with other cascades
// finishing at once: the last one to finish always sees the ledger empty.
// Finishing a cascade twice, or one of a deleted project, does nothing more.
func FinishCascade(ctx context.Context, db TxBeginner, projectID, cascadeID uuid.UUID) error {
	return pgx.BeginFunc(ctx, db, func(tx pgx.Tx) error {
		var locked uuid.UUID
		found, err := scanFound(tx.QueryRow(ctx, `SELECT id FROM projects WHERE id = $1 FOR NO KEY UPDATE`, projectID),
			"locking project", &locked)
		if err != nil || !found {
			return err
		}
		if _, err := tx.Exec(ctx, `DELETE FROM project_cascades WHERE id = $2 AND project_id = $1`, projectID, cascadeID); err != nil {
			return fmt.Errorf("finishing cascade: %w", err)
		}
		_, err = tx.Exec(ctx, `
			UPDATE projects SET data_dirty_since = NULL
			WHERE id = $1 AND NOT EXISTS (SELECT 1 FROM project_cascades c WHERE c.project_id = $1)`, projectID)
		if err != nil {
			return fmt.Errorf("clearing data_dirty_since: %w", err)
		}
		return nil
	})
}

// TxBeginner starts a transaction: the pool, or a transaction (a savepoint).
type TxBeginner interface {
	Begin(ctx context.Context) (pgx.Tx, error)
}
