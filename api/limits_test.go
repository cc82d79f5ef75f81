package api

import (
	"context"
	"crypto/sha256"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/sightline/sightline"
)

func TestRateLimits(t *testing.T) {
	t.Parallel()
	limits := Limits{PerUser: 5, PerKey: 3, JobStartsPerOrg: 10, Window: DefaultLimits.Window}
	f := setup(t, setupOptions{limits: limits})
	// A second API process on the same database shares the budget.
	g := setup(t, setupOptions{limits: limits, pool: f.pool})
	owner, _ := f.owner()
	second := f.keyFor(owner, nil)

	me := func(fx *fixture, key string) response {
		return fx.do(call{method: "GET", path: "/api/v1/me", key: key})
	}
	assertLimited := func(t *testing.T, r response) {
		t.Helper()
		assertError(t, r, http.StatusTooManyRequests, sightline.CodeRateLimitExceeded)
		secs, err := strconv.Atoi(r.header.Get("Retry-After"))
		if err != nil || secs < 1 || secs > 60 {
			t.Fatalf("Retry-After = %q, want 1..60 seconds", r.header.Get("Retry-After"))
		}
	}

	for i, fx := range []*fixture{f, g, f} {
		if r := me(fx, owner.key); r.status != 200 {
			t.Fatalf("request %d: %d %s", i+1, r.status, r.body)
		}
	}
	assertLimited(t, me(g, owner.key)) // the key's 4th, across both processes

	// The user has had 3 of 5; a second key gets 2 more, then the user limit holds.
	for i := range 2 {
		if r := me(f, second.key); r.status != 200 {
			t.Fatalf("second key request %d: %d %s", i+1, r.status, r.body)
		}
	}
	assertLimited(t, me(g, second.key))

	t.Run("another user is unaffected", func(t *testing.T) {
		other, _ := f.owner()
		if r := me(f, other.key); r.status != 200 {
			t.Fatalf("%d %s", r.status, r.body)
		}
	})
}

// Guessing keys is limited per client address, and once an address is
// over its limit its requests cost no database round trip, but for a key
// that authenticated lately: the client keeps working with its good key.
func TestFailedAuthenticationIsRateLimited(t *testing.T) {
	t.Parallel()
	f := setup(t, setupOptions{limits: Limits{PerUser: 100, PerKey: 100, JobStartsPerOrg: 10,
		AuthFailuresPerAddress: 3, Window: DefaultLimits.Window}})
	owner, _ := f.owner()
	used, _ := f.owner()
	me := func(key string) response { return f.do(call{method: "GET", path: "/api/v1/me", key: key}) }

	if r := me(used.key); r.status != http.StatusOK {
		t.Fatalf("%d %s", r.status, r.body)
	}
	for range 3 {
		assertError(t, me("sl_"+strings.Repeat("A", 43)), http.StatusUnauthorized, sightline.CodeUnauthorized)
	}
	// No key at all is 401 as ever: it costs no lookup.
	assertError(t, me(""), http.StatusUnauthorized, sightline.CodeUnauthorized)
	if r := me(used.key); r.status != http.StatusOK {
		t.Fatalf("a key that authenticated before the limit: %d %s", r.status, r.body)
	}
	acquired := f.pool.Stat().AcquireCount()
	for _, key := range []string{"sl_" + strings.Repeat("B", 43), owner.key} {
		r := me(key)
		assertError(t, r, http.StatusTooManyRequests, sightline.CodeRateLimitExceeded)
		if secs, err := strconv.Atoi(r.header.Get("Retry-After")); err != nil || secs < 1 || secs > 60 {
			t.Fatalf("Retry-After = %q", r.header.Get("Retry-After"))
		}
	}
	if n := f.pool.Stat().AcquireCount() - acquired; n != 0 {
		t.Fatalf("refused requests used the database %d times", n)
	}
}

func TestAuthFailureLimiterWindowAndMemory(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	l := newAuthFailureLimiter(2, time.Minute)
	l.now = func() time.Time { return now }
	bad, good := sha256.Sum256([]byte("bad")), sha256.Sum256([]byte("good"))
	l.succeed(good)
	l.fail("192.0.2.1", bad)
	l.fail("192.0.2.1", bad)
	if l.allow("192.0.2.1", bad) == nil || l.allow("192.0.2.2", bad) != nil {
		t.Fatal("the limit is not per address")
	}
	if err := l.allow("192.0.2.1", good); err != nil {
		t.Fatalf("a good key was refused: %v", err)
	}
	now = now.Add(time.Minute)
	if err := l.allow("192.0.2.1", bad); err != nil {
		t.Fatalf("still refused after the window: %v", err)
	}
	l.fail("192.0.2.1", good) // revoked since
	l.fail("192.0.2.1", good)
	if l.allow("192.0.2.1", good) == nil {
		t.Fatal("a key that failed is still let through")
	}
	for i := range maxTrackedAddresses + 10 {
		l.fail(fmt.Sprintf("10.%d.%d.%d", i>>16, i>>8&255, i&255), bad)
		l.succeed(sha256.Sum256([]byte{byte(i), byte(i >> 8), byte(i >> 16)}))
	}
	if len(l.addresses) > maxTrackedAddresses || len(l.good) > maxTrackedAddresses {
		t.Fatalf("%d addresses and %d good keys tracked", len(l.addresses), len(l.good))
	}
	for addr, want := range map[string]string{
		"192.0.2.1:5000":             "192.0.2.1",
		"[::ffff:192.0.2.1]:5000":    "192.0.2.1",
		"[2001:db8:1:2:3:4:5:6]:443": "2001:db8:1:2::/64",
		"[2001:db8:1:2:ffff::1]:443": "2001:db8:1:2::/64",
		"not an address":             "not an address",
	} {
		if got := clientAddress(addr); got != want {
			t.Errorf("clientAddress(%q) = %q, want %q", addr, got, want)
		}
	}
}

func TestJobStartLimit(t *testing.T) {
	t.Parallel()
	f := setup(t, setupOptions{mount: mountNotes(t, nil)})
	m, org := f.owner()
	start := func(idemKey string) response {
		return f.do(call{method: "POST", path: "/api/v1/organizations/" + org.String() + "/test-notes", key: m.key,
			body: `{"text":"limited"}`, header: map[string]string{"Idempotency-Key": idemKey}})
	}
	for i := range 10 {
		if r := start("job-start-" + strconv.Itoa(i) + "-key"); r.status != 201 {
			t.Fatalf("start %d: %d %s", i+1, r.status, r.body)
		}
	}
	// An already-answered retry replays and is not counted.
	if r := start("job-start-0-key"); r.status != 201 || r.header.Get("Idempotent-Replayed") != "true" {
		t.Fatalf("replay: %d %s", r.status, r.body)
	}
	r := start("job-start-10-key")
	assertError(t, r, http.StatusTooManyRequests, sightline.CodeRateLimitExceeded)
	if r.header.Get("Retry-After") == "" {
		t.Fatal("no Retry-After")
	}
	// The refusal is not stored: the same key may start once the window allows.
	var stored int
	f.pool.QueryRow(context.Background(), `SELECT count(*) FROM idempotency_records WHERE idempotency_key = 'job-start-10-key'`).Scan(&stored)
	if stored != 0 {
		t.Fatal("a rate-limited start was stored")
	}
	// Another organization has its own budget.
	otherOrg := f.org(m, "Other Org "+uuid.NewString()[:4])
	r = f.do(call{method: "POST", path: "/api/v1/organizations/" + otherOrg.String() + "/test-notes", key: m.key,
		body: `{"text":"limited"}`, header: map[string]string{"Idempotency-Key": uuid.NewString()}})
	if r.status != 201 {
		t.Fatalf("other organization: %d %s", r.status, r.body)
	}
}
