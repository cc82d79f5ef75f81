package oltp_test

import (
	"bytes"
	"context"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/sightline/sightline"
	"github.com/sightline/sightline/oltp"
	"github.com/sightline/sightline/oltp/oltptest"
)

// confirmationsClaim claims token in its own committed transaction.
func confirmationsClaim(t *testing.T, pool *pgxpool.Pool, token string, b oltp.ConfirmationBinding) ([]byte, error) {
	t.Helper()
	ctx := context.Background()
	var digest []byte
	err := pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
		var err error
		digest, err = oltp.ClaimConfirmation(ctx, tx, token, b)
		return err
	})
	return digest, err
}

func TestConfirmations(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := oltptest.NewPool(t)
	if _, err := oltp.CreateUser(ctx, pool, "conf@example.com", nil); err != nil {
		t.Fatal(err)
	}
	orgID, err := oltp.CreateOrganization(ctx, pool, "Confirmed Org", "conf@example.com")
	if err != nil {
		t.Fatal(err)
	}
	key, err := oltp.CreateKey(ctx, pool, oltp.CreateKeyParams{UserEmail: "conf@example.com", AllOrganizations: true,
		Capabilities: []sightline.Capability{sightline.CapabilityOrganizationManage}})
	if err != nil {
		t.Fatal(err)
	}
	otherKey, err := oltp.CreateKey(ctx, pool, oltp.CreateKeyParams{UserEmail: "conf@example.com", AllOrganizations: true})
	if err != nil {
		t.Fatal(err)
	}
	binding := oltp.ConfirmationBinding{
		Action: oltp.ActionOrganizationArchive, OrganizationID: orgID, BodyHash: []byte("body"), APIKeyID: key.ID,
	}
	org, err := oltp.GetOrganization(ctx, pool, orgID)
	if err != nil {
		t.Fatal(err)
	}
	_, effects, err := oltp.PlanArchive(ctx, pool, orgID, false)
	if err != nil {
		t.Fatal(err)
	}
	digest := oltp.EffectsDigest(org, effects)
	issue := func() string {
		t.Helper()
		c, err := oltp.CreateConfirmation(ctx, pool, binding, digest)
		if err != nil {
			t.Fatal(err)
		}
		if d := time.Until(c.ExpiresAt.Time); d < 4*time.Minute || d > oltp.ConfirmationTTL+time.Second {
			t.Fatalf("token expires in %v", d)
		}
		return c.Token
	}

	t.Run("only the hash is stored", func(t *testing.T) {
		token := issue()
		var stored bool
		if err := pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM operation_confirmations WHERE token_hash = convert_to($1, 'UTF8'))`, token).Scan(&stored); err != nil {
			t.Fatal(err)
		}
		if stored {
			t.Fatal("the token's plaintext is stored")
		}
	})

	t.Run("single use, returning the declared digest", func(t *testing.T) {
		token := issue()
		got, err := confirmationsClaim(t, pool, token, binding)
		if err != nil || !bytes.Equal(got, digest) {
			t.Fatalf("claim: %x, %v", got, err)
		}
		if _, err := confirmationsClaim(t, pool, token, binding); sightline.ErrorCode(err) != sightline.CodeConfirmationUsed {
			t.Fatalf("second claim: %v", err)
		}
	})

	t.Run("a rolled-back claim leaves the token unused", func(t *testing.T) {
		token := issue()
		tx, err := pool.Begin(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := oltp.ClaimConfirmation(ctx, tx, token, binding); err != nil {
			t.Fatal(err)
		}
		if err := tx.Rollback(ctx); err != nil {
			t.Fatal(err)
		}
		if _, err := confirmationsClaim(t, pool, token, binding); err != nil {
			t.Fatalf("claim after rollback: %v", err)
		}
	})

	t.Run("bound to action, organization, body and key", func(t *testing.T) {
		token := issue()
		for name, b := range map[string]oltp.ConfirmationBinding{
			"action":       {Action: oltp.ActionOrganizationRestore, OrganizationID: orgID, BodyHash: []byte("body"), APIKeyID: key.ID},
			"organization": {Action: oltp.ActionOrganizationArchive, OrganizationID: uuid.New(), BodyHash: []byte("body"), APIKeyID: key.ID},
			"body":         {Action: oltp.ActionOrganizationArchive, OrganizationID: orgID, BodyHash: []byte("other"), APIKeyID: key.ID},
			"key":          {Action: oltp.ActionOrganizationArchive, OrganizationID: orgID, BodyHash: []byte("body"), APIKeyID: otherKey.ID},
		} {
			if _, err := confirmationsClaim(t, pool, token, b); sightline.ErrorCode(err) != sightline.CodeConfirmationInvalid {
				t.Errorf("other %s: %v", name, err)
			}
		}
		if _, err := confirmationsClaim(t, pool, "slc_unknown", binding); sightline.ErrorCode(err) != sightline.CodeConfirmationInvalid {
			t.Errorf("unknown token: %v", err)
		}
	})

	t.Run("expired", func(t *testing.T) {
		token := issue()
		if _, err := pool.Exec(ctx, `UPDATE operation_confirmations SET expires_at = now() - interval '1 second' WHERE used_at IS NULL`); err != nil {
			t.Fatal(err)
		}
		if _, err := confirmationsClaim(t, pool, token, binding); sightline.ErrorCode(err) != sightline.CodeConfirmationExpired {
			t.Fatalf("expired token: %v", err)
		}
	})

	t.Run("long-expired tokens are deleted when the key previews again", func(t *testing.T) {
		if _, err := pool.Exec(ctx, `UPDATE operation_confirmations SET expires_at = now() - interval '2 days'`); err != nil {
			t.Fatal(err)
		}
		issue()
		var n int
		if err := pool.QueryRow(ctx, `SELECT count(*) FROM operation_confirmations`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n != 1 {
			t.Fatalf("%d tokens left, want the new one", n)
		}
	})

	t.Run("digest follows effects and organization state", func(t *testing.T) {
		if _, err := pool.Exec(ctx, `INSERT INTO projects (id, organization_id, name) VALUES ($1, $2, 'P')`, uuid.Must(uuid.NewV7()), orgID); err != nil {
			t.Fatal(err)
		}
		_, withProject, err := oltp.PlanArchive(ctx, pool, orgID, false)
		if err != nil {
			t.Fatal(err)
		}
		if err := oltp.CheckEffects(digest, oltp.EffectsDigest(org, withProject)); sightline.ErrorCode(err) != sightline.CodeConfirmationEffectsChanged {
			t.Fatalf("project gained: %v", err)
		}
		renamed := *org
		renamed.Name = "Renamed"
		if err := oltp.CheckEffects(digest, oltp.EffectsDigest(&renamed, effects)); sightline.ErrorCode(err) != sightline.CodeConfirmationEffectsChanged {
			t.Fatalf("organization renamed: %v", err)
		}
		if err := oltp.CheckEffects(digest, oltp.EffectsDigest(org, effects)); err != nil {
			t.Fatalf("same effects: %v", err)
		}
	})
}
