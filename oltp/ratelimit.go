package oltp

import (
	"context"
	"fmt"
	"time"
)

// TakeRateLimit admits one request into bucket unless that exceeds limit per
// window, and otherwise says how long to wait. The state lives in Postgres,
// so every API process sharing the database enforces the same limit; the
// count is exact over the last window (rate_limit_admit in the schema).
func TakeRateLimit(ctx context.Context, db DBTX, bucket string, limit int, window time.Duration) (bool, time.Duration, error) {
	var allowed bool
	var retryAfter float64
	err := db.QueryRow(ctx, `SELECT allowed, retry_after_seconds FROM rate_limit_admit($1, $2, $3)`,
		bucket, limit, int(window.Seconds())).Scan(&allowed, &retryAfter)
	if err != nil {
		return false, 0, fmt.Errorf("taking rate limit %s: %w", bucket, err)
	}
	return allowed, time.Duration(retryAfter * float64(time.Second)), nil
}

// DeleteIdleRateLimits removes buckets whose last admitted request left the
// window: they no longer weigh on any decision.
func DeleteIdleRateLimits(ctx context.Context, db DBTX, window time.Duration) (int64, error) {
	return execCount(ctx, db, "deleting idle rate limits", `DELETE FROM rate_limit_logs
		WHERE coalesce(admitted[cardinality(admitted)], '-infinity') <= now() - make_interval(secs => $1)`,
		window.Seconds())
}
