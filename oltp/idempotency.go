package oltp

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
)

// IdempotencyRetention is how long a stored answer replays. Clients retry
// within minutes; a day covers a retry after an outage.
const IdempotencyRetention = 24 * time.Hour

// Idempotency outcomes.
const (
	OutcomeCompleted = "completed"
	// OutcomeUncertain marks an attempt that reached outside the database
	// (a forward to another system) without learning whether it took
	// effect. Without a response status it is the intent recorded before
	// the call, which may still be running.
	OutcomeUncertain = "uncertain"
)

// IdempotencyRecord is the stored first answer to a write.
type IdempotencyRecord struct {
	APIKeyID       uuid.UUID
	Key            string
	Method         string
	Path           string
	RequestHash    []byte
	Outcome        string
	ResponseStatus int
	ResponseType   string
	ResponseBody   []byte
	// Age is how long ago the record was saved (read only).
	Age time.Duration
}

// LockIdempotencyKey takes a transaction-scoped advisory lock on (api key,
// idempotency key) without waiting, and reports whether it got it. Holding
// it for the whole write is what makes a concurrent request with the same
// key a refusal instead of a second execution.
func LockIdempotencyKey(ctx context.Context, tx pgx.Tx, apiKeyID uuid.UUID, key string) (bool, error) {
	var locked bool
	err := tx.QueryRow(ctx, `SELECT pg_try_advisory_xact_lock(hashtextextended($1 || ':' || $2, 0))`,
		apiKeyID.String(), key).Scan(&locked)
	if err != nil {
		return false, fmt.Errorf("locking idempotency key: %w", err)
	}
	return locked, nil
}

// GetIdempotencyRecord returns the unexpired record for (api key, key), or nil.
func GetIdempotencyRecord(ctx context.Context, db DBTX, apiKeyID uuid.UUID, key string) (*IdempotencyRecord, error) {
	r := IdempotencyRecord{APIKeyID: apiKeyID, Key: key}
	var status *int
	var typ *string
	var ageSeconds float64
	found, err := scanFound(db.QueryRow(ctx, `
		SELECT method, path, request_hash, outcome, response_status, response_type, response_body,
		       extract(epoch FROM now() - created_at)::float8
		FROM idempotency_records
		WHERE api_key_id = $1 AND idempotency_key = $2 AND expires_at > now()`, apiKeyID, key),
		"reading idempotency record",
		&r.Method, &r.Path, &r.RequestHash, &r.Outcome, &status, &typ, &r.ResponseBody, &ageSeconds)
	if err != nil || !found {
		return nil, err
	}
	if status != nil {
		r.ResponseStatus = *status
	}
	if typ != nil {
		r.ResponseType = *typ
	}
	r.Age = time.Duration(ageSeconds * float64(time.Second))
	return &r, nil
}

// SaveIdempotencyRecord stores (or completes) the record. Called in the
// write's own transaction, the record and the write commit together.
func SaveIdempotencyRecord(ctx context.Context, db DBTX, r *IdempotencyRecord) error {
	var status *int
	if r.ResponseStatus != 0 {
		status = &r.ResponseStatus
	}
	_, err := db.Exec(ctx, `
		INSERT INTO idempotency_records
			(api_key_id, idempotency_key, method, path, request_hash, outcome,
			 response_status, response_type, response_body, expires_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, now() + $10::interval)
		ON CONFLICT (api_key_id, idempotency_key) DO UPDATE SET
			method = excluded.method, path = excluded.path, request_hash = excluded.request_hash,
			outcome = excluded.outcome, response_status = excluded.response_status,
			response_type = excluded.response_type, response_body = excluded.response_body,
			created_at = now(), expires_at = excluded.expires_at`,
		r.APIKeyID, r.Key, r.Method, r.Path, r.RequestHash, r.Outcome,
		status, r.ResponseType, r.ResponseBody, IdempotencyRetention.String())
	if err != nil {
		return fmt.Errorf("saving idempotency record: %w", err)
	}
	return nil
}

// DeleteExpiredIdempotencyRecords removes records past their retention and
// reports how many went.
func DeleteExpiredIdempotencyRecords(ctx context.Context, db DBTX) (int64, error) {
	return execCount(ctx, db, "deleting expired idempotency records", `DELETE FROM idempotency_records WHERE expires_at <= now()`)
}
