package oltp

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/sightline/sightline"
)

// The operations here back `sightline admin`: account set-up that the public
// API leaves to a web application outside this service.

// CreateUser adds a user; emails are unique regardless of case.
func CreateUser(ctx context.Context, db DBTX, email string, name *string) (uuid.UUID, error) {
	id := uuid.Must(uuid.NewV7())
	_, err := db.Exec(ctx, `INSERT INTO users (id, email, name) VALUES ($1, $2, $3)`, id, email, name)
	switch pgCode(err) {
	case "":
	case pgUniqueViolation:
		return uuid.Nil, sightline.Errorf(sightline.CodeValidation, "a user with email %q already exists", email)
	case pgCheckViolation:
		return uuid.Nil, sightline.Errorf(sightline.CodeValidation, "%q is not an email address", email)
	default:
		return uuid.Nil, fmt.Errorf("inserting user: %w", err)
	}
	return id, err
}

func userIDByEmail(ctx context.Context, db DBTX, email string) (uuid.UUID, error) {
	var id uuid.UUID
	err := scanOne(db.QueryRow(ctx, `SELECT id FROM users WHERE lower(email) = lower($1)`, email),
		sightline.Errorf(sightline.CodeNotFound, "no user has email %q", email), "finding user", &id)
	if err != nil {
		return uuid.Nil, err
	}
	return id, nil
}

// CreateOrganization adds an active organization owned by the user with
// ownerEmail. Run it in a transaction: an unknown owner fails after the insert.
func CreateOrganization(ctx context.Context, db DBTX, name, ownerEmail string) (uuid.UUID, error) {
	id := uuid.Must(uuid.NewV7())
	_, err := db.Exec(ctx, `INSERT INTO organizations (id, name) VALUES ($1, $2)`, id, name)
	if pgCode(err) == pgCheckViolation {
		return uuid.Nil, sightline.Errorf(sightline.CodeValidation, "an organization name has 3 to 100 characters")
	}
	if err != nil {
		return uuid.Nil, fmt.Errorf("inserting organization: %w", err)
	}
	if err := SetMember(ctx, db, id, ownerEmail, sightline.RoleOwner, sightline.MembershipActive); err != nil {
		return uuid.Nil, err
	}
	return id, nil
}

// SetMember adds the user to the organization or changes their role and status.
func SetMember(ctx context.Context, db DBTX, organizationID uuid.UUID, email string, role sightline.Role, status sightline.MembershipStatus) error {
	if !role.Valid() {
		return sightline.Errorf(sightline.CodeValidation, "role must be viewer, manager or owner")
	}
	if status != sightline.MembershipActive && status != sightline.MembershipSuspended {
		return sightline.Errorf(sightline.CodeValidation, "status must be active or suspended")
	}
	userID, err := userIDByEmail(ctx, db, email)
	if err != nil {
		return err
	}
	_, err = db.Exec(ctx, `
		INSERT INTO memberships (organization_id, user_id, role, status) VALUES ($1, $2, $3, $4)
		ON CONFLICT (organization_id, user_id) DO UPDATE SET role = excluded.role, status = excluded.status`,
		organizationID, userID, role, status)
	if pgCode(err) == pgForeignKeyViolation {
		return sightline.Errorf(sightline.CodeOrganizationNotFound, "organization %s does not exist", organizationID)
	}
	if err != nil {
		return fmt.Errorf("setting membership: %w", err)
	}
	return nil
}

// SubscriptionParams describes a new subscription contract.
type SubscriptionParams struct {
	OrganizationID  uuid.UUID
	Status          string
	Tier            string
	BillingInterval string
	CheckBudget     int
}

// SetSubscription records a new contract starting now, which becomes the
// organization's current one. The period follows the billing interval.
func SetSubscription(ctx context.Context, db DBTX, p SubscriptionParams) (uuid.UUID, error) {
	start := time.Now().UTC()
	var end time.Time
	switch p.BillingInterval {
	case "monthly":
		end = start.AddDate(0, 1, 0)
	case "yearly":
		end = start.AddDate(1, 0, 0)
	default:
		return uuid.Nil, sightline.Errorf(sightline.CodeValidation, "interval must be monthly or yearly")
	}
	if p.Tier == "" {
		return uuid.Nil, sightline.Errorf(sightline.CodeValidation, "a tier is required")
	}
	id := uuid.Must(uuid.NewV7())
	_, err := db.Exec(ctx, `
		INSERT INTO subscriptions (id, organization_id, status, tier, billing_interval, check_budget,
		                           current_period_start, current_period_end)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
		id, p.OrganizationID, p.Status, p.Tier, p.BillingInterval, p.CheckBudget, start, end)
	switch pgCode(err) {
	case "":
		return id, nil
	case pgForeignKeyViolation:
		return uuid.Nil, sightline.Errorf(sightline.CodeOrganizationNotFound, "organization %s does not exist", p.OrganizationID)
	case pgCheckViolation:
		return uuid.Nil, sightline.Errorf(sightline.CodeValidation, "status must be active, trialing, past_due, cancelled or expired and the check budget at least 0")
	default:
		return uuid.Nil, fmt.Errorf("inserting subscription: %w", err)
	}
}
