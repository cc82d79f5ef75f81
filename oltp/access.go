package oltp

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/sightline/sightline"
)

// keyPrefix marks Sightline API keys so that they are recognisable in logs
// and secret scanners.
const keyPrefix = "sl_"

// APIKey is an unrevoked key as the request pipeline sees it, with its owner.
type APIKey struct {
	ID               uuid.UUID
	Name             string
	Capabilities     []sightline.Capability
	AllOrganizations bool
	OrganizationIDs  []uuid.UUID
	User             User
}

// Has reports whether the key carries capability c.
func (k *APIKey) Has(c sightline.Capability) bool { return slices.Contains(k.Capabilities, c) }

// Covers reports whether the key's scope includes the organization.
func (k *APIKey) Covers(organizationID uuid.UUID) bool {
	return k.AllOrganizations || slices.Contains(k.OrganizationIDs, organizationID)
}

// User is a person who owns API keys and holds memberships.
type User struct {
	ID    uuid.UUID `json:"id"`
	Email string    `json:"email"`
	Name  *string   `json:"name"`
}

// hashSecret is what is stored for a key: SHA-256 suffices because the
// secret is 256 random bits, so there is nothing to brute-force.
func hashSecret(secret string) []byte {
	sum := sha256.Sum256([]byte(secret))
	return sum[:]
}

func newSecret() (string, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return keyPrefix + base64.RawURLEncoding.EncodeToString(b), nil
}

// ErrKeyNotFound is returned for a key that is unknown or revoked.
var ErrKeyNotFound = errors.New("api key not found or revoked")

// LookupKey returns the unrevoked key whose plaintext is secret.
func LookupKey(ctx context.Context, db DBTX, secret string) (*APIKey, error) {
	if !strings.HasPrefix(secret, keyPrefix) {
		return nil, ErrKeyNotFound
	}
	var k APIKey
	var caps []string
	err := scanOne(db.QueryRow(ctx, `
		SELECT k.id, k.name, k.capabilities, k.all_organizations,
		       coalesce(array(SELECT organization_id FROM api_key_organizations o WHERE o.api_key_id = k.id), '{}'),
		       u.id, u.email, u.name
		FROM api_keys k JOIN users u ON u.id = k.user_id
		WHERE k.secret_hash = $1 AND k.revoked_at IS NULL`, hashSecret(secret)), ErrKeyNotFound, "looking up api key",
		&k.ID, &k.Name, &caps, &k.AllOrganizations, &k.OrganizationIDs, &k.User.ID, &k.User.Email, &k.User.Name)
	if err != nil {
		return nil, err
	}
	for _, c := range caps {
		k.Capabilities = append(k.Capabilities, sightline.Capability(c))
	}
	return &k, nil
}

// MemberRole returns the user's role in the organization when the membership
// is active, and ok=false when there is none (or it is suspended). It is read
// on every request, so a suspension or a lowered role applies at once.
func MemberRole(ctx context.Context, db DBTX, organizationID, userID uuid.UUID) (role sightline.Role, ok bool, err error) {
	ok, err = scanFound(db.QueryRow(ctx, `
		SELECT role FROM memberships
		WHERE organization_id = $1 AND user_id = $2 AND status = 'active'`,
		organizationID, userID), "reading membership", &role)
	if err != nil || !ok {
		return "", false, err
	}
	return role, true, nil
}

// NewKey is what creating a key returns: the only time the plaintext exists.
type NewKey struct {
	ID     uuid.UUID `json:"id"`
	Secret string    `json:"key"`
}

// CreateKeyParams describes a key to issue.
type CreateKeyParams struct {
	UserEmail        string
	Name             string
	Capabilities     []sightline.Capability
	AllOrganizations bool
	OrganizationIDs  []uuid.UUID
}

// CreateKey issues a key for the user with the given email. read is always
// included: every key can read.
func CreateKey(ctx context.Context, db DBTX, p CreateKeyParams) (*NewKey, error) {
	caps := []string{string(sightline.CapabilityRead)}
	for _, c := range p.Capabilities {
		if !c.Valid() {
			return nil, sightline.Errorf(sightline.CodeValidation, "unknown capability %q", c)
		}
		if !slices.Contains(caps, string(c)) {
			caps = append(caps, string(c))
		}
	}
	if !p.AllOrganizations && len(p.OrganizationIDs) == 0 {
		return nil, sightline.Errorf(sightline.CodeValidation, "a key needs a scope: all organizations or at least one")
	}
	userID, err := userIDByEmail(ctx, db, p.UserEmail)
	if err != nil {
		return nil, err
	}
	secret, err := newSecret()
	if err != nil {
		return nil, err
	}
	id := uuid.Must(uuid.NewV7())
	name := p.Name
	if name == "" {
		name = "key created " + time.Now().UTC().Format(time.DateOnly)
	}
	if _, err := db.Exec(ctx, `
		INSERT INTO api_keys (id, user_id, name, secret_hash, capabilities, all_organizations)
		VALUES ($1, $2, $3, $4, $5, $6)`,
		id, userID, name, hashSecret(secret), caps, p.AllOrganizations); err != nil {
		return nil, fmt.Errorf("inserting api key: %w", err)
	}
	for _, orgID := range p.OrganizationIDs {
		_, err := db.Exec(ctx, `INSERT INTO api_key_organizations (api_key_id, organization_id) VALUES ($1, $2) ON CONFLICT DO NOTHING`, id, orgID)
		if pgCode(err) == pgForeignKeyViolation {
			return nil, sightline.Errorf(sightline.CodeOrganizationNotFound, "organization %s does not exist", orgID)
		}
		if err != nil {
			return nil, fmt.Errorf("scoping api key: %w", err)
		}
	}
	return &NewKey{ID: id, Secret: secret}, nil
}

// RevokeKey revokes a key; it fails from the next request on. Revoking a
// revoked key is not an error.
func RevokeKey(ctx context.Context, db DBTX, id uuid.UUID) error {
	tag, err := db.Exec(ctx, `UPDATE api_keys SET revoked_at = coalesce(revoked_at, now()) WHERE id = $1`, id)
	if err != nil {
		return fmt.Errorf("revoking api key: %w", err)
	}
	if tag.RowsAffected() == 0 {
		return sightline.Errorf(sightline.CodeNotFound, "api key %s does not exist", id)
	}
	return nil
}
