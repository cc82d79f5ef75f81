package oltp

import (
	"context"
	"time"

	"github.com/google/uuid"

	"github.com/sightline/sightline"
)

// ProjectScope is a project with the states that decide whether it may be
// read or written.
type ProjectScope struct {
	ID                 uuid.UUID
	OrganizationID     uuid.UUID
	Status             string  // active or archived
	ArchivedBy         *string // caller or organization, while archived
	OrganizationStatus string
	HasBrandProfile    bool
	// DataDirtySince is set while a background cascade may still change the
	// project's analytics from that time on (spec 2.1).
	DataDirtySince *time.Time
}

// LoadProjectScope reads the project within the organization; a project of
// another organization is project_not_found, exactly like an unknown one.
// With lock, the organization and project rows are locked FOR SHARE until
// the transaction ends, so an archive cannot slip between this check and
// the write that depends on it (archives lock FOR UPDATE).
func LoadProjectScope(ctx context.Context, db DBTX, organizationID, projectID uuid.UUID, lock bool) (*ProjectScope, error) {
	query := `
		SELECT p.id, p.organization_id, p.status, p.archived_by, o.status,
		       EXISTS (SELECT 1 FROM brand_profiles b WHERE b.project_id = p.id), p.data_dirty_since
		FROM projects p JOIN organizations o ON o.id = p.organization_id
		WHERE p.id = $1 AND p.organization_id = $2`
	if lock {
		query += ` FOR SHARE OF p, o`
	}
	var p ProjectScope
	err := scanOne(db.QueryRow(ctx, query, projectID, organizationID),
		sightline.Errorf(sightline.CodeProjectNotFound, "Project not found."), "loading project",
		&p.ID, &p.OrganizationID, &p.Status, &p.ArchivedBy, &p.OrganizationStatus, &p.HasBrandProfile, &p.DataDirtySince)
	if err != nil {
		return nil, err
	}
	return &p, nil
}

// CheckWritable refuses writes to a project of an archived organization or
// an archived project (spec 4.0: 409).
func (p *ProjectScope) CheckWritable() error {
	if p.OrganizationStatus != "active" {
		return sightline.Errorf(sightline.CodeProjectIsArchived, "The organization is archived; restore it first.")
	}
	if p.Status != "active" {
		return sightline.Errorf(sightline.CodeProjectIsArchived, "The project is archived; restore it first.")
	}
	return nil
}
