package oltp_test

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/sightline/sightline"
	"github.com/sightline/sightline/oltp"
	"github.com/sightline/sightline/oltp/oltptest"
	"github.com/sightline/sightline/schema"
)

func TestMigrationsAreIdempotent(t *testing.T) {
	t.Parallel()
	pool := oltptest.NewPool(t) // already migrated from the template
	n, err := schema.MigratePostgres(context.Background(), pool)
	if err != nil {
		t.Fatal(err)
	}
	if n != 0 {
		t.Fatalf("a second migration applied %d files", n)
	}
}

func TestKeys(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := oltptest.NewPool(t)
	if _, err := oltp.CreateUser(ctx, pool, "Ann@Example.com", nil); err != nil {
		t.Fatal(err)
	}
	orgID, err := oltp.CreateOrganization(ctx, pool, "Ann's Org", "ann@example.com")
	if err != nil {
		t.Fatal(err)
	}
	key, err := oltp.CreateKey(ctx, pool, oltp.CreateKeyParams{
		UserEmail: "ANN@example.com", Capabilities: []sightline.Capability{"write"}, OrganizationIDs: []uuid.UUID{orgID},
	})
	if err != nil {
		t.Fatal(err)
	}

	var plaintextStored bool
	if err := pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM api_keys WHERE secret_hash = convert_to($1, 'UTF8') OR name = $1)`, key.Secret).Scan(&plaintextStored); err != nil {
		t.Fatal(err)
	}
	if plaintextStored {
		t.Fatal("the key's plaintext is stored")
	}

	got, err := oltp.LookupKey(ctx, pool, key.Secret)
	if err != nil {
		t.Fatal(err)
	}
	if got.ID != key.ID || got.AllOrganizations || !got.Covers(orgID) || got.Covers(uuid.New()) ||
		!got.Has(sightline.CapabilityRead) || !got.Has(sightline.CapabilityWrite) || got.Has(sightline.CapabilityOrganizationManage) {
		t.Fatalf("looked-up key = %+v", got)
	}
	if _, err := oltp.LookupKey(ctx, pool, key.Secret+"x"); !errors.Is(err, oltp.ErrKeyNotFound) {
		t.Fatalf("altered secret: %v", err)
	}
	if err := oltp.RevokeKey(ctx, pool, key.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := oltp.LookupKey(ctx, pool, key.Secret); !errors.Is(err, oltp.ErrKeyNotFound) {
		t.Fatalf("revoked key: %v", err)
	}
}

func TestAdminRefusals(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := oltptest.NewPool(t)
	if _, err := oltp.CreateUser(ctx, pool, "bob@example.com", nil); err != nil {
		t.Fatal(err)
	}
	orgID, err := oltp.CreateOrganization(ctx, pool, "Bob Org", "bob@example.com")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		run  func() error
		code sightline.Code
	}{
		{"duplicate email in another case", func() error { _, err := oltp.CreateUser(ctx, pool, "BOB@example.com", nil); return err }, sightline.CodeValidation},
		{"not an email", func() error { _, err := oltp.CreateUser(ctx, pool, "bob", nil); return err }, sightline.CodeValidation},
		{"short organization name", func() error { _, err := oltp.CreateOrganization(ctx, pool, "ab", "bob@example.com"); return err }, sightline.CodeValidation},
		{"unknown owner", func() error {
			_, err := oltp.CreateOrganization(ctx, pool, "Nobody's", "nobody@example.com")
			return err
		}, sightline.CodeNotFound},
		{"unknown role", func() error { return oltp.SetMember(ctx, pool, orgID, "bob@example.com", "admin", "active") }, sightline.CodeValidation},
		{"unknown organization", func() error {
			return oltp.SetMember(ctx, pool, uuid.New(), "bob@example.com", "viewer", "active")
		}, sightline.CodeOrganizationNotFound},
		{"unknown capability", func() error {
			_, err := oltp.CreateKey(ctx, pool, oltp.CreateKeyParams{UserEmail: "bob@example.com", Capabilities: []sightline.Capability{"admin"}, AllOrganizations: true})
			return err
		}, sightline.CodeValidation},
		{"key without scope", func() error {
			_, err := oltp.CreateKey(ctx, pool, oltp.CreateKeyParams{UserEmail: "bob@example.com"})
			return err
		}, sightline.CodeValidation},
		{"bad subscription status", func() error {
			_, err := oltp.SetSubscription(ctx, pool, oltp.SubscriptionParams{OrganizationID: orgID, Status: "gold", Tier: "t", BillingInterval: "monthly"})
			return err
		}, sightline.CodeValidation},
		{"revoke unknown key", func() error { return oltp.RevokeKey(ctx, pool, uuid.New()) }, sightline.CodeNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := sightline.ErrorCode(tt.run()); got != tt.code {
				t.Fatalf("code = %s, want %s", got, tt.code)
			}
		})
	}
}

func TestRateLimit(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := oltptest.NewPool(t)
	take := func(bucket string) (bool, time.Duration) {
		t.Helper()
		ok, wait, err := oltp.TakeRateLimit(ctx, pool, bucket, 3, time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		return ok, wait
	}
	for i := range 3 {
		if ok, _ := take("a"); !ok {
			t.Fatalf("request %d refused", i+1)
		}
	}
	ok, wait := take("a")
	if ok || wait <= 0 || wait > time.Minute {
		t.Fatalf("4th: allowed=%v wait=%s", ok, wait)
	}
	if ok, _ := take("b"); !ok {
		t.Fatal("another bucket was limited")
	}

	t.Run("counts over the last window exactly", func(t *testing.T) {
		// Age bucket a's 3 requests to 59 s: still inside the window, so
		// the next one waits about the second that is left.
		age := func(seconds int) {
			t.Helper()
			if _, err := pool.Exec(ctx, `UPDATE rate_limit_logs
				SET admitted = ARRAY(SELECT x - make_interval(secs => $1) FROM unnest(admitted) AS x ORDER BY x)
				WHERE bucket = 'a'`, seconds); err != nil {
				t.Fatal(err)
			}
		}
		age(59)
		ok, wait := take("a")
		if ok || wait > 2*time.Second {
			t.Fatalf("at 59 s: allowed=%v wait=%s, want refused with about 1 s to wait", ok, wait)
		}
		// At 61 s they have left the window: 3 more fit, and no fourth.
		age(2)
		for i := range 3 {
			if ok, _ := take("a"); !ok {
				t.Fatalf("request %d of the next window refused", i+1)
			}
		}
		if ok, _ := take("a"); ok {
			t.Fatal("a 4th request within the window was admitted")
		}
	})
}

func TestRateLimitUnderConcurrency(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := oltptest.NewPool(t)
	// Two pools stand for two API processes.
	other, err := pgxpool.New(ctx, pool.Config().ConnString())
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	var allowed atomic.Int32
	var wg sync.WaitGroup
	for i := range 40 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			db := pool
			if i%2 == 1 {
				db = other
			}
			ok, _, err := oltp.TakeRateLimit(ctx, db, "shared", 10, time.Minute)
			if err != nil {
				t.Error(err)
			}
			if ok {
				allowed.Add(1)
			}
		}()
	}
	wg.Wait()
	if allowed.Load() != 10 {
		t.Fatalf("allowed %d of 40 concurrent requests, want exactly 10", allowed.Load())
	}
}
