package api

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/sightline/sightline"
	"github.com/sightline/sightline/oltp"
)

// Limits are the request quotas of spec part 8.
type Limits struct {
	PerUser         int // requests per Window per user, across all their keys
	PerKey          int // requests per Window per API key
	JobStartsPerOrg int // job starts per Window per organization
	Window          time.Duration
}

// DefaultLimits are the quotas the spec names.
var DefaultLimits = Limits{PerUser: 600, PerKey: 300, JobStartsPerOrg: 10, Window: time.Minute}

// rateLimiter enforces one quota over state in Postgres, so that the limit
// holds across every API process sharing the database (see
// oltp.TakeRateLimit for the sliding-window algorithm).
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
