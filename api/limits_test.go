package api

import (
	"context"
	"net/http"
	"strconv"
	"testing"

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
