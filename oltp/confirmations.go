package oltp

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/sightline/sightline"
)

// Confirmed organization operations (spec 5.4) take two calls: a preview
// that declares the effects and issues a token, then the operation carrying
// the token. The token is single use, lives ConfirmationTTL, and is bound to
// the action, the organization, the body, the API key that previewed and a
// digest of the declared effects. Only its SHA-256 is stored.

// ConfirmationTTL is how long a confirmation token can be used.
const ConfirmationTTL = 5 * time.Minute

// confirmationRetention is how long an expired token is kept, so that it
// answers confirmation_expired rather than confirmation_invalid for a while.
const confirmationRetention = 24 * time.Hour

// confirmationPrefix marks confirmation tokens so that they are told apart
// from API keys in logs and secret scanners.
const confirmationPrefix = "slc_"

// Actions a confirmation token can be issued for.
const (
	ActionOrganizationCreate  = "organization.create"
	ActionOrganizationUpdate  = "organization.update"
	ActionOrganizationArchive = "organization.archive"
	ActionOrganizationRestore = "organization.restore"
)

// ConfirmationBinding is what a token is issued for and what the operation
// presenting it must match.
type ConfirmationBinding struct {
	Action string
	// OrganizationID is uuid.Nil for organization.create.
	OrganizationID uuid.UUID
	// BodyHash is the SHA-256 of the operation's canonical JSON body.
	BodyHash []byte
	APIKeyID uuid.UUID
}

// Confirmation is an issued token: the only time its plaintext exists.
type Confirmation struct {
	Token     string              `json:"token"`
	ExpiresAt sightline.Timestamp `json:"expiresAt"`
}

// Effects is what a confirmed operation declares it will do. Its binding is
// the part the token is bound to: identifiers and dates, not display names.
type Effects interface {
	binding() any
}

// EffectsDigest binds the effects and the organization's state as the
// preview saw them, so that any change to either between preview and
// operation is detected. org is nil for organization.create.
func EffectsDigest(org *Organization, e Effects) []byte {
	h := sha256.New()
	// Encoding structs and slices of ids is deterministic.
	if err := json.NewEncoder(h).Encode(struct {
		Organization *Organization `json:"organization"`
		Effects      any           `json:"effects"`
	}{org, e.binding()}); err != nil {
		panic(fmt.Sprintf("encoding effects binding: %v", err)) // only plain data is encoded
	}
	return h.Sum(nil)
}

// CreateConfirmation issues a token for b with the declared effects digest,
// and deletes the key's tokens that expired long ago.
func CreateConfirmation(ctx context.Context, db DBTX, b ConfirmationBinding, effectsDigest []byte) (*Confirmation, error) {
	raw := make([]byte, 32)
	if _, err := rand.Read(raw); err != nil {
		return nil, fmt.Errorf("generating confirmation token: %w", err)
	}
	token := confirmationPrefix + base64.RawURLEncoding.EncodeToString(raw)
	if _, err := db.Exec(ctx, `DELETE FROM operation_confirmations WHERE api_key_id = $1 AND expires_at < now() - make_interval(secs => $2)`,
		b.APIKeyID, confirmationRetention.Seconds()); err != nil {
		return nil, fmt.Errorf("deleting stale confirmations: %w", err)
	}
	c := Confirmation{Token: token}
	err := db.QueryRow(ctx, `
		INSERT INTO operation_confirmations (token_hash, action, organization_id, body_hash, effects_digest, api_key_id, expires_at)
		VALUES ($1, $2, $3, $4, $5, $6, now() + make_interval(secs => $7))
		RETURNING expires_at`,
		hashSecret(token), b.Action, nullUUID(b.OrganizationID), b.BodyHash, effectsDigest, b.APIKeyID,
		ConfirmationTTL.Seconds()).Scan(&c.ExpiresAt)
	if err != nil {
		return nil, fmt.Errorf("storing confirmation: %w", err)
	}
	return &c, nil
}

// ClaimConfirmation checks token against b and marks it used, returning the
// effects digest the preview declared. The token row stays locked until the
// transaction ends, so two operations presenting one token run one after the
// other and the second finds it used. Run it in the operation's transaction:
// if the operation is then refused and rolled back, the token is unused again.
func ClaimConfirmation(ctx context.Context, tx pgx.Tx, token string, b ConfirmationBinding) (effectsDigest []byte, err error) {
	var stored ConfirmationBinding
	var orgID uuid.NullUUID
	var used, expired bool
	err = scanOne(tx.QueryRow(ctx, `
		SELECT action, organization_id, body_hash, api_key_id, effects_digest,
		       used_at IS NOT NULL, expires_at <= now()
		FROM operation_confirmations WHERE token_hash = $1
		FOR UPDATE`, hashSecret(token)),
		sightline.Errorf(sightline.CodeConfirmationInvalid, "The confirmation token is unknown; request a new preview."),
		"reading confirmation",
		&stored.Action, &orgID, &stored.BodyHash, &stored.APIKeyID, &effectsDigest, &used, &expired)
	if err != nil {
		return nil, err
	}
	stored.OrganizationID = orgID.UUID
	switch {
	case stored.Action != b.Action || stored.OrganizationID != b.OrganizationID ||
		!bytes.Equal(stored.BodyHash, b.BodyHash) || stored.APIKeyID != b.APIKeyID:
		return nil, sightline.Errorf(sightline.CodeConfirmationInvalid,
			"The confirmation token was issued for another action, organization, body or API key.")
	case used:
		return nil, sightline.Errorf(sightline.CodeConfirmationUsed, "The confirmation token was already used; request a new preview.")
	case expired:
		return nil, sightline.Errorf(sightline.CodeConfirmationExpired, "The confirmation token has expired; request a new preview.")
	}
	if _, err := tx.Exec(ctx, `UPDATE operation_confirmations SET used_at = now() WHERE token_hash = $1`, hashSecret(token)); err != nil {
		return nil, fmt.Errorf("using confirmation: %w", err)
	}
	return effectsDigest, nil
}

// CheckEffects refuses the operation when the effects it would have now
// differ from those the preview declared.
func CheckEffects(declared, current []byte) error {
	if !bytes.Equal(declared, current) {
		return sightline.Errorf(sightline.CodeConfirmationEffectsChanged,
			"The effects of this operation, or the organization, changed since the preview; review a new preview.")
	}
	return nil
}

func nullUUID(id uuid.UUID) uuid.NullUUID {
	return uuid.NullUUID{UUID: id, Valid: id != uuid.Nil}
}
