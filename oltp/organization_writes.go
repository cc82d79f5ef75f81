package oltp

import (
	"context"
	"errors"
	"fmt"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/sightline/sightline"
)

// Organization writes are confirmed operations (spec 5.4): each one has a
// Plan function that computes its effects, run without locks by the preview
// and with locks by the operation, whose digests must match, and an Apply
// function that does exactly what the plan declared, in the caller's
// transaction, so the archive cascade and its restore are atomic.
//
// Lock order is the one project writes use (LoadProjectScope locks the
// project, then the organization): the projects an archive or restore will
// change first, then the organization FOR UPDATE. Taking the organization
// first could deadlock with a project write holding its project and waiting
// for the organization.

// ProjectRef names a project an operation changes.
type ProjectRef struct {
	ID   uuid.UUID `json:"id" db:"id"`
	Name string    `json:"name" db:"name"`
}

// InvitationRef names an invitation an operation changes.
type InvitationRef struct {
	ID    uuid.UUID      `json:"id" db:"id"`
	Email string         `json:"email" db:"email"`
	Role  sightline.Role `json:"role" db:"role"`
}

func (r ProjectRef) refID() uuid.UUID    { return r.ID }
func (r InvitationRef) refID() uuid.UUID { return r.ID }

// refIDs are the ids of the records refs name.
func refIDs[R interface{ refID() uuid.UUID }](refs []R) []uuid.UUID {
	ids := make([]uuid.UUID, len(refs))
	for i, r := range refs {
		ids[i] = r.refID()
	}
	return ids
}

// CreateEffects is what creating an organization will do.
type CreateEffects struct {
	Name        string    `json:"name"`
	OwnerUserID uuid.UUID `json:"ownerUserId"`
}

func (e *CreateEffects) binding() any { return e }

// InsertOrganization creates an active organization with the user as its
// active owner, in one transaction with the caller's other writes.
func InsertOrganization(ctx context.Context, db DBTX, name string, ownerID uuid.UUID) (*Organization, error) {
	rows, err := db.Query(ctx, `
		INSERT INTO organizations AS o (id, name) VALUES ($1, $2)
		RETURNING `+organizationColumns, uuid.Must(uuid.NewV7()), name)
	if err != nil {
		return nil, fmt.Errorf("inserting organization: %w", err)
	}
	org, err := pgx.CollectExactlyOneRow(rows, pgx.RowToStructByName[Organization])
	if pgCode(err) == pgCheckViolation {
		return nil, sightline.Errorf(sightline.CodeValidation, "An organization name has 3 to 100 characters.")
	}
	if err != nil {
		return nil, fmt.Errorf("inserting organization: %w", err)
	}
	if _, err := db.Exec(ctx, `
		INSERT INTO memberships (organization_id, user_id, role, status) VALUES ($1, $2, 'owner', 'active')`,
		org.ID, ownerID); err != nil {
		return nil, fmt.Errorf("adding organization owner: %w", err)
	}
	return &org, nil
}

// LockOrganization reads the organization and locks it FOR UPDATE until the
// transaction ends.
func LockOrganization(ctx context.Context, tx pgx.Tx, id uuid.UUID) (*Organization, error) {
	return getOrganization(ctx, tx, id, true)
}

func getOrganization(ctx context.Context, db DBTX, id uuid.UUID, lock bool) (*Organization, error) {
	query := "SELECT " + organizationColumns + " FROM organizations o WHERE o.id = $1"
	if lock {
		query += " FOR UPDATE"
	}
	return queryOne[Organization](ctx, db, sightline.Errorf(sightline.CodeOrganizationNotFound, "Organization not found."),
		"reading organization", query, id)
}

// TextChange is one field of a patch: when Set, the field becomes Value
// (nil clears it); otherwise it stays as it is.
type TextChange struct {
	Set   bool
	Value *string
}

// OrganizationPatch changes an organization's profile. Name is never cleared.
type OrganizationPatch struct {
	Name         TextChange
	Description  TextChange
	ContactEmail TextChange
}

// FieldChange is one field an update changes, with its value before and after.
type FieldChange struct {
	Field string  `json:"field"`
	From  *string `json:"from"`
	To    *string `json:"to"`
}

// UpdateEffects is what an organization update will do: the fields whose
// value changes. Fields sent with their current value are not listed.
type UpdateEffects struct {
	Changes []FieldChange `json:"changes"`
}

func (e *UpdateEffects) binding() any { return e }

// PlanUpdate computes the changes p makes to org. An archived organization
// is read-only: 409 organization_is_archived.
func PlanUpdate(org *Organization, p OrganizationPatch) (*UpdateEffects, error) {
	if org.Status != "active" {
		return nil, sightline.Errorf(sightline.CodeProjectIsArchived, "The organization is archived; restore it before changing its profile.")
	}
	e := &UpdateEffects{Changes: []FieldChange{}}
	name := org.Name
	for _, f := range []struct {
		field   string
		current *string
		change  TextChange
	}{
		{"name", &name, p.Name},
		{"description", org.Description, p.Description},
		{"contactEmail", org.ContactEmail, p.ContactEmail},
	} {
		if f.change.Set && !equalText(f.current, f.change.Value) {
			e.Changes = append(e.Changes, FieldChange{Field: f.field, From: f.current, To: f.change.Value})
		}
	}
	return e, nil
}

func equalText(a, b *string) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

// UpdateOrganization applies p and returns the organization as stored.
func UpdateOrganization(ctx context.Context, db DBTX, id uuid.UUID, p OrganizationPatch) (*Organization, error) {
	update := psql.Update("organizations").Where("id = ?", id).Suffix("RETURNING *")
	set := false
	for column, change := range map[string]TextChange{
		"name": p.Name, "description": p.Description, "contact_email": p.ContactEmail,
	} {
		if change.Set {
			update, set = update.Set(column, change.Value), true
		}
	}
	if !set {
		return getOrganization(ctx, db, id, false)
	}
	query, args, err := update.ToSql()
	if err != nil {
		return nil, fmt.Errorf("building organization update: %w", err)
	}
	// The CTE names the row "o", as the column list expects.
	rows, err := db.Query(ctx, "WITH o AS ("+query+") SELECT "+organizationColumns+" FROM o", args...)
	if err != nil {
		return nil, fmt.Errorf("updating organization: %w", err)
	}
	org, err := pgx.CollectExactlyOneRow(rows, pgx.RowToStructByName[Organization])
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, sightline.Errorf(sightline.CodeOrganizationNotFound, "Organization not found.")
	}
	if pgCode(err) == pgCheckViolation {
		return nil, sightline.Errorf(sightline.CodeValidation, "An organization name has 3 to 100 characters.")
	}
	if err != nil {
		return nil, fmt.Errorf("updating organization: %w", err)
	}
	return &org, nil
}

// ArchiveEffects is what archiving an organization will do (spec 3.3).
type ArchiveEffects struct {
	// ProjectsToArchive are the active projects, archived by the organization.
	ProjectsToArchive []ProjectRef `json:"projectsToArchive"`
	// InvitationsToCancel are the pending, unexpired invitations.
	InvitationsToCancel []InvitationRef `json:"invitationsToCancel"`
	// SubscriptionCancelAt is the end of the current billing period, when
	// the running subscription will be cancelled; nil when there is no
	// running contract or a cancellation is already scheduled.
	SubscriptionCancelAt *sightline.Timestamp `json:"subscriptionCancelAt"`

	subscriptionID uuid.UUID
}

func (e *ArchiveEffects) binding() any {
	return struct {
		Projects       []uuid.UUID          `json:"projects"`
		Invitations    []uuid.UUID          `json:"invitations"`
		SubscriptionID uuid.UUID            `json:"subscriptionId"`
		CancelAt       *sightline.Timestamp `json:"cancelAt"`
	}{refIDs(e.ProjectsToArchive), refIDs(e.InvitationsToCancel), e.subscriptionID, e.SubscriptionCancelAt}
}

// PlanArchive computes what archiving the organization will do. With lock
// (the operation, in its transaction) every row it will change is locked
// first. Only an active organization can be archived.
func PlanArchive(ctx context.Context, db DBTX, id uuid.UUID, lock bool) (*Organization, *ArchiveEffects, error) {
	const projects = `SELECT id, name FROM projects WHERE organization_id = $1 AND status = 'active' ORDER BY id`
	org, err := lockProjectsThenOrganization(ctx, db, id, projects, lock)
	if err != nil {
		return nil, nil, err
	}
	if org.Status != "active" {
		return nil, nil, sightline.Errorf(sightline.CodeStatusTransitionNotAllowed, "The organization is already archived.")
	}
	e := &ArchiveEffects{}
	if e.ProjectsToArchive, err = queryRows(ctx, db, pgx.RowToStructByName[ProjectRef], "listing projects to archive", projects, id); err != nil {
		return nil, nil, err
	}
	invitations := `
		SELECT id, email, role FROM invitations
		WHERE organization_id = $1 AND status = 'pending' AND expires_at > now() ORDER BY id`
	if lock {
		invitations += " FOR UPDATE"
	}
	if e.InvitationsToCancel, err = queryRows(ctx, db, pgx.RowToStructByName[InvitationRef], "listing invitations to cancel", invitations, id); err != nil {
		return nil, nil, err
	}
	sub, err := currentSubscription(ctx, db, id, lock)
	if err != nil {
		return nil, nil, err
	}
	if sub != nil && sub.running() && sub.CancelAt == nil && sub.CancelledAt == nil {
		e.subscriptionID, e.SubscriptionCancelAt = sub.ID, &sub.CurrentPeriodEnd
	}
	return org, e, nil
}

// ApplyArchive archives the organization with the effects PlanArchive
// computed under lock: its active projects archived by the organization,
// its pending invitations cancelled, and its running subscription set to
// end with the current billing period.
func ApplyArchive(ctx context.Context, tx pgx.Tx, id uuid.UUID, e *ArchiveEffects) (*Organization, error) {
	if _, err := tx.Exec(ctx, `
		UPDATE projects SET status = 'archived', archived_by = 'organization', archived_at = now()
		WHERE organization_id = $1 AND id = ANY($2)`, id, refIDs(e.ProjectsToArchive)); err != nil {
		return nil, fmt.Errorf("archiving projects: %w", err)
	}
	if _, err := tx.Exec(ctx, `
		UPDATE invitations SET status = 'cancelled', cancelled_by_archive = true
		WHERE organization_id = $1 AND id = ANY($2)`, id, refIDs(e.InvitationsToCancel)); err != nil {
		return nil, fmt.Errorf("cancelling invitations: %w", err)
	}
	if e.SubscriptionCancelAt != nil {
		if _, err := tx.Exec(ctx, `
			UPDATE subscriptions SET cancel_at = current_period_end, cancel_requested_by_archive = true
			WHERE organization_id = $1 AND id = $2`, id, e.subscriptionID); err != nil {
			return nil, fmt.Errorf("scheduling subscription cancellation: %w", err)
		}
	}
	return setOrganizationStatus(ctx, tx, id, "archived")
}

// RestoreEffects is what restoring an organization will do (spec 3.3).
type RestoreEffects struct {
	// ProjectsToRestore are the projects the organization archive archived;
	// projects archived on their own stay archived.
	ProjectsToRestore []ProjectRef `json:"projectsToRestore"`
	// AbortedSubscriptionCancelAt is the cancellation the archive scheduled
	// and the restore withdraws; nil when there is none left to withdraw.
	AbortedSubscriptionCancelAt *sightline.Timestamp `json:"abortedSubscriptionCancelAt"`

	subscriptionID uuid.UUID
}

func (e *RestoreEffects) binding() any {
	return struct {
		Projects       []uuid.UUID          `json:"projects"`
		SubscriptionID uuid.UUID            `json:"subscriptionId"`
		CancelAt       *sightline.Timestamp `json:"cancelAt"`
	}{refIDs(e.ProjectsToRestore), e.subscriptionID, e.AbortedSubscriptionCancelAt}
}

// PlanRestore computes what restoring the organization will do; see
// PlanArchive for lock. Only an archived organization can be restored.
func PlanRestore(ctx context.Context, db DBTX, id uuid.UUID, lock bool) (*Organization, *RestoreEffects, error) {
	const projects = `SELECT id, name FROM projects WHERE organization_id = $1 AND archived_by = 'organization' ORDER BY id`
	org, err := lockProjectsThenOrganization(ctx, db, id, projects, lock)
	if err != nil {
		return nil, nil, err
	}
	if org.Status != "archived" {
		return nil, nil, sightline.Errorf(sightline.CodeStatusTransitionNotAllowed, "The organization is not archived.")
	}
	e := &RestoreEffects{}
	if e.ProjectsToRestore, err = queryRows(ctx, db, pgx.RowToStructByName[ProjectRef], "listing projects to restore", projects, id); err != nil {
		return nil, nil, err
	}
	sub, err := currentSubscription(ctx, db, id, lock)
	if err != nil {
		return nil, nil, err
	}
	// A cancellation already in effect cannot be withdrawn.
	if sub != nil && sub.CancelRequestedByArchive && sub.running() && sub.CancelAt != nil && sub.CancelAhead {
		e.subscriptionID, e.AbortedSubscriptionCancelAt = sub.ID, sub.CancelAt
	}
	return org, e, nil
}

// ApplyRestore restores the organization with the effects PlanRestore
// computed under lock. Invitations the archive cancelled stay cancelled.
func ApplyRestore(ctx context.Context, tx pgx.Tx, id uuid.UUID, e *RestoreEffects) (*Organization, error) {
	if _, err := tx.Exec(ctx, `
		UPDATE projects SET status = 'active', archived_by = NULL, archived_at = NULL
		WHERE organization_id = $1 AND id = ANY($2)`, id, refIDs(e.ProjectsToRestore)); err != nil {
		return nil, fmt.Errorf("restoring projects: %w", err)
	}
	if e.AbortedSubscriptionCancelAt != nil {
		if _, err := tx.Exec(ctx, `
			UPDATE subscriptions SET cancel_at = NULL, cancel_requested_by_archive = false
			WHERE organization_id = $1 AND id = $2`, id, e.subscriptionID); err != nil {
			return nil, fmt.Errorf("withdrawing subscription cancellation: %w", err)
		}
	}
	return setOrganizationStatus(ctx, tx, id, "active")
}

// lockProjectsThenOrganization reads the organization; with lock it first
// locks the projects the operation will change (projectsQuery), then the
// organization, in the order project writes take them.
func lockProjectsThenOrganization(ctx context.Context, db DBTX, id uuid.UUID, projectsQuery string, lock bool) (*Organization, error) {
	if lock {
		if _, err := db.Exec(ctx, projectsQuery+" FOR UPDATE", id); err != nil {
			return nil, fmt.Errorf("locking projects: %w", err)
		}
	}
	return getOrganization(ctx, db, id, lock)
}

func setOrganizationStatus(ctx context.Context, tx pgx.Tx, id uuid.UUID, status string) (*Organization, error) {
	rows, err := tx.Query(ctx, `
		WITH o AS (
			UPDATE organizations SET status = $2, archived_at = CASE WHEN $2 = 'archived' THEN now() END
			WHERE id = $1 RETURNING *)
		SELECT `+organizationColumns+` FROM o`, id, status)
	if err != nil {
		return nil, fmt.Errorf("setting organization status: %w", err)
	}
	org, err := pgx.CollectExactlyOneRow(rows, pgx.RowToStructByName[Organization])
	if err != nil {
		return nil, fmt.Errorf("setting organization status: %w", err)
	}
	return &org, nil
}
