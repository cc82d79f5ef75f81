package oltp

import (
	"context"
	"fmt"

	sq "github.com/Masterminds/squirrel"
	"github.com/google/uuid"

	"github.com/sightline/sightline"
)

// Organization is an organization record as the API shows it.
type Organization struct {
	ID           uuid.UUID           `json:"id" db:"id"`
	Name         string              `json:"name" db:"name"`
	Description  *string             `json:"description" db:"description"`
	ContactEmail *string             `json:"contactEmail" db:"contact_email"`
	ImageURL     *string             `json:"imageUrl" db:"image_url"`
	Status       string              `json:"status" db:"status"`
	CreatedAt    sightline.Timestamp `json:"createdAt" db:"created_at"`
}

const organizationColumns = "o.id, o.name, o.description, o.contact_email, o.image_url, o.status, o.created_at"

// OrganizationFilter selects the organizations a key sees in a listing.
type OrganizationFilter struct {
	UserID uuid.UUID
	// OrganizationIDs narrows to the key's scope; nil means all organizations.
	OrganizationIDs []uuid.UUID
	Search          string
	Status          string
	SortBy          string // createdAt or name
	Descending      bool
	Limit, Offset   int
}

var organizationSortColumns = map[string]string{"createdAt": "o.created_at", "name": "lower(o.name)"}

// ListOrganizations returns one page of the organizations the user is an
// active member of, narrowed to the key's scope, and the number that match.
func ListOrganizations(ctx context.Context, db DBTX, f OrganizationFilter) ([]Organization, int, error) {
	where := sq.And{
		sq.Expr("EXISTS (SELECT 1 FROM memberships m WHERE m.organization_id = o.id AND m.user_id = ? AND m.status = 'active')", f.UserID),
	}
	if f.OrganizationIDs != nil {
		where = append(where, sq.Expr("o.id = ANY(?)", f.OrganizationIDs))
	}
	if f.Search != "" {
		where = append(where, sq.Expr("o.name ILIKE '%' || ? || '%'", escapeLike(f.Search)))
	}
	if f.Status != "" {
		where = append(where, sq.Eq{"o.status": f.Status})
	}
	order := organizationSortColumns[f.SortBy]
	if order == "" {
		return nil, 0, fmt.Errorf("unsupported organization sort %q", f.SortBy)
	}
	dir := direction(f.Descending)
	page, count := pageWithTotal(organizationColumns, "organizations o", where, f.Limit, f.Offset, order+dir, "o.id"+dir)
	type row struct {
		Organization
		Total int `db:"total"`
	}
	return listWithTotal(ctx, db, page, count, func(r row) (Organization, int) { return r.Organization, r.Total })
}

// GetOrganization returns one organization, or organization_not_found.
func GetOrganization(ctx context.Context, db DBTX, id uuid.UUID) (*Organization, error) {
	return getOrganization(ctx, db, id, false)
}
