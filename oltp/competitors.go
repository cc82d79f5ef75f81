package oltp

import (
	"context"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/sightline/sightline"
)

// MaxCompetitorNameLength bounds a competitor's name (spec 2.5).
const MaxCompetitorNameLength = 200

// Competitor is a brand tracked next to the project's own, part of its brand
// profile.
type Competitor struct {
	ID             uuid.UUID `json:"id" db:"id"`
	Name           string    `json:"name" db:"name"`
	WebsiteDomains []string  `json:"websiteDomains" db:"website_domains"`
	BrandNames     []string  `json:"brandNames" db:"brand_names"`
}

// String is the competitor's name: how it shows in a CSV cell of a
// project listing.
func (c Competitor) String() string { return c.Name }

// competitorColumns select a Competitor from competitors c joined to the
// project p that carries the tenant predicate.
const competitorColumns = "c.id, c.name, c.website_domains, c.brand_names"

const competitorFrom = "competitors c JOIN projects p ON p.id = c.project_id"

// ListCompetitors returns a page of the project's competitors, in id
// order, and how many it has; a project without a brand profile has none.
func ListCompetitors(ctx context.Context, db DBTX, f ProjectPage) ([]Competitor, int, error) {
	page, count := f.selects("c", competitorColumns, competitorFrom, "c.id")
	type row struct {
		Competitor
		Total int `db:"total"`
	}
	return listWithTotal(ctx, db, page, count, func(r row) (Competitor, int) { return r.Competitor, r.Total })
}

// GetCompetitor returns one competitor of the project, or competitor_not_found.
func GetCompetitor(ctx context.Context, db DBTX, organizationID, projectID, competitorID uuid.UUID) (*Competitor, error) {
	return oneCompetitor(ctx, db, "SELECT "+competitorColumns+" FROM "+competitorFrom+
		" WHERE c.id = $1 AND c.project_id = $2 AND p.organization_id = $3", competitorID, projectID, organizationID)
}

// UnknownCompetitors returns those of ids that are not current
// competitors of the project, in the order given.
func UnknownCompetitors(ctx context.Context, db DBTX, projectID uuid.UUID, ids []uuid.UUID) ([]uuid.UUID, error) {
	return queryRows(ctx, db, pgx.RowTo[uuid.UUID], "checking competitors", `
		SELECT c.id FROM unnest($2::uuid[]) WITH ORDINALITY AS c (id, n)
		WHERE NOT EXISTS (SELECT 1 FROM competitors x WHERE x.project_id = $1 AND x.id = c.id)
		ORDER BY c.n`, projectID, ids)
}

// CreateCompetitor adds a competitor to the project's brand profile;
// brand_profile_not_found when the project has none.
func CreateCompetitor(ctx context.Context, db DBTX, projectID uuid.UUID, in NewCompetitor) (*Competitor, error) {
	return insertCompetitor(ctx, db, projectID, in)
}

func insertCompetitor(ctx context.Context, db DBTX, projectID uuid.UUID, in NewCompetitor) (*Competitor, error) {
	c, err := oneCompetitor(ctx, db, `
		INSERT INTO competitors AS c (id, project_id, name, website_domains, brand_names)
		VALUES ($1, $2, $3, $4, $5) RETURNING `+competitorColumns,
		uuid.Must(uuid.NewV7()), projectID, in.Name, in.WebsiteDomains, in.BrandNames)
	if pgCode(err) == pgForeignKeyViolation {
		return nil, sightline.Errorf(sightline.CodeBrandProfileNotFound, "The project has no brand profile; competitors belong to it.")
	}
	return c, err
}

// ReplaceCompetitor replaces a competitor's name and lists.
func ReplaceCompetitor(ctx context.Context, db DBTX, organizationID, projectID, competitorID uuid.UUID, in NewCompetitor) (*Competitor, error) {
	return oneCompetitor(ctx, db, `
		UPDATE competitors c SET name = $4, website_domains = $5, brand_names = $6
		FROM projects p
		WHERE c.id = $1 AND c.project_id = $2 AND p.id = c.project_id AND p.organization_id = $3
		RETURNING `+competitorColumns,
		competitorID, projectID, organizationID, in.Name, in.WebsiteDomains, in.BrandNames)
}

// DeleteCompetitor removes a competitor and returns it as it was. What was
// attributed to it elsewhere is removed by a cascade the caller registers
// (BeginCascade) in the same transaction.
func DeleteCompetitor(ctx context.Context, db DBTX, organizationID, projectID, competitorID uuid.UUID) (*Competitor, error) {
	return oneCompetitor(ctx, db, `
		DELETE FROM competitors c USING projects p
		WHERE c.id = $1 AND c.project_id = $2 AND p.id = c.project_id AND p.organization_id = $3
		RETURNING `+competitorColumns, competitorID, projectID, organizationID)
}

func oneCompetitor(ctx context.Context, db DBTX, query string, args ...any) (*Competitor, error) {
	return queryOne[Competitor](ctx, db, sightline.Errorf(sightline.CodeCompetitorNotFound, "Competitor not found."),
		"competitor statement", query, args...)
}
