package api

import (
	"context"
	"crypto/sha256"
	"fmt"
	"math"
	"net"
	"net/netip"
	"sync"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/sightline/sightline"
	"github.com/sightline/sightline/oltp"
)

// Limits are the request quotas of spec part 8, and the limit on failed
// authentications that protects keys from guessing.
type Limits struct {
	PerUser         int // requests per Window per user, across all their keys
	PerKey          int // requests per Window per API key
	JobStartsPerOrg int // job starts per Window per organization
	// AuthFailuresPerAddress bounds failed authentications per Window per
	// client address, in each API process.
	AuthFailuresPerAddress int
	Window                 time.Duration
}

// DefaultLimits are the quotas the spec names.
var DefaultLimits = Limits{PerUser: 600, PerKey: 300, JobStartsPerOrg: 10, AuthFailuresPerAddress: 300, Window: time.Minute}

// rateLimiter enforces one quota over state in Postgres, so that the limit
// holds across every API process sharing the database (see
// oltp.TakeRateLimit: an exact count over the last window).
type rateLimiter struct {
	pool   *pgxpool.Pool
	scope  string // what the quota is per: user, key, organization
	limit  int
	window time.Duration
}

// allow takes one request from id's budget, or answers rate_limit_exceeded
// with Retry-After in whole seconds.
func (l *rateLimiter) allow(ctx context.Context, id uuid.UUID) error {
	ok, wait, err := oltp.TakeRateLimit(ctx, l.pool, l.scope+":"+id.String(), l.limit, l.window)
	if err != nil {
		return err
	}
	if ok {
		return nil
	}
	return &sightline.Error{
		Code:              sightline.CodeRateLimitExceeded,
		Message:           fmt.Sprintf("Rate limit of %d requests per %s per %s exceeded.", l.limit, l.window, l.scope),
		RetryAfterSeconds: max(1, int(math.Ceil(wait.Seconds()))),
	}
}

// authFailureLimiter counts failed authentications per client address in
// the process's memory. An address over its limit is refused before its
// key is looked up, so a flood of guessed keys costs no database round
// trip; the count is per process, which is enough to make guessing
// hopeless, and needs no shared state. A key that authenticated within
// the window (kept as its SHA-256 digest) still gets through, so that the
// client behind the address keeps working with its good key; it is looked
// up as usual, so a revoked one fails at once. The address is the
// connection's peer (a client can forge X-Forwarded-For), an IPv6 one
// taken as its /64, which one client usually holds whole.
type authFailureLimiter struct {
	limit  int
	window time.Duration
	now    func() time.Time

	mu        sync.Mutex
	addresses map[string]*failureWindow
	swept     time.Time                       // when evict last dropped ended windows
	good      map[[sha256.Size]byte]time.Time // keys that authenticated, by digest: when
}

type failureWindow struct {
	start    time.Time
	failures int
}

// maxTrackedAddresses bounds the limiter's memory.
const maxTrackedAddresses = 1 << 16

func newAuthFailureLimiter(limit int, window time.Duration) *authFailureLimiter {
	return &authFailureLimiter{limit: limit, window: window, now: time.Now, addresses: map[string]*failureWindow{},
		good: map[[sha256.Size]byte]time.Time{}}
}

// allow refuses an address that failed too often in its current window,
// unless its key authenticated within the window.
func (l *authFailureLimiter) allow(address string, key [sha256.Size]byte) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	w, ok := l.addresses[address]
	if !ok {
		return nil
	}
	if at, good := l.good[key]; good && l.now().Sub(at) < l.window {
		return nil
	}
	left := w.start.Add(l.window).Sub(l.now())
	if left <= 0 {
		delete(l.addresses, address)
		return nil
	}
	if w.failures < l.limit {
		return nil
	}
	return &sightline.Error{
		Code:              sightline.CodeRateLimitExceeded,
		Message:           fmt.Sprintf("Too many failed authentications from this address: at most %d per %s.", l.limit, l.window),
		RetryAfterSeconds: max(1, int(math.Ceil(left.Seconds()))),
	}
}

// succeed records that key authenticated.
func (l *authFailureLimiter) succeed(key [sha256.Size]byte) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	if _, ok := l.good[key]; !ok && len(l.good) >= maxTrackedAddresses {
		for k, at := range l.good {
			if now.Sub(at) >= l.window || len(l.good) >= maxTrackedAddresses {
				delete(l.good, k)
			}
		}
	}
	l.good[key] = now
}

// fail counts one failed authentication of address with key, which is no
// longer good if it was (revoked).
func (l *authFailureLimiter) fail(address string, key [sha256.Size]byte) {
	l.mu.Lock()
	defer l.mu.Unlock()
	delete(l.good, key)
	now := l.now()
	w, ok := l.addresses[address]
	if ok && now.Sub(w.start) < l.window {
		w.failures++
		return
	}
	if !ok && len(l.addresses) >= maxTrackedAddresses {
		l.evict(now)
	}
	l.addresses[address] = &failureWindow{start: now, failures: 1}
}

// evict makes room for one more address: it drops the windows that have
// ended, at most once a window (a scan of the whole table per failure
// would let an attacker rotating addresses make each one cost more), and
// when none has, one other: losing one address's count is better than
// unbounded memory.
func (l *authFailureLimiter) evict(now time.Time) {
	if now.Sub(l.swept) >= l.window {
		l.swept = now
		for a, w := range l.addresses {
			if now.Sub(w.start) >= l.window {
				delete(l.addresses, a)
			}
		}
	}
	for a := range l.addresses {
		if len(l.addresses) < maxTrackedAddresses {
			break
		}
		delete(l.addresses, a)
	}
}

// clientAddress is the address failed authentications are counted under.
func clientAddress(remoteAddr string) string {
	host, _, err := net.SplitHostPort(remoteAddr)
	if err != nil {
		host = remoteAddr
	}
	ip, err := netip.ParseAddr(host)
	if err != nil {
		return host
	}
	ip = ip.Unmap()
	if ip.Is6() {
		prefix, _ := ip.Prefix(64)
		return prefix.String()
	}
	return ip.String()
}
