package api

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/sightline/sightline"
	"github.com/sightline/sightline/oltp"
)

// writeFunc serves a write. It runs inside a transaction that also stores
// the idempotency record, so the write and its record commit together or
// not at all: no crash can leave one without the other.
type writeFunc func(r *request, tx pgx.Tx) (status int, body any, err error)

// Every write goes through serveWrite (spec 5.3):
//   - Idempotency-Key is required: 8-255 printable ASCII characters, no spaces.
//   - The key is scoped to the API key and bound to method, path and body
//     (whitespace-insensitive); another request under it is
//     idempotency_key_reused.
//   - A transaction-scoped advisory lock on the key is held while the write
//     runs; a concurrent request with the same key is refused at once with
//     idempotency_request_in_progress, never run twice.
//   - A stored answer is replayed byte for byte, with Idempotent-Replayed: true.
//   - Successes and refusals that came from running the operation (404, 409,
//     ...) are stored. Validation failures (400), a missing confirmation
//     (428), rate-limit refusals (429) and an unroutable report
//     (ai_check_session_unavailable) are not: they changed nothing and the
//     same key may be retried once the request or the state is fixed.
//     Internal errors roll everything back and store nothing.
//   - An operation that reaches outside the database returns an
//     externalCall: its checks run in the transaction, which then commits
//     the key's intent and releases the lock, so no transaction is held
//     while another system answers. A retry during the call is
//     idempotency_request_in_progress; a call that fails (or a process that
//     dies during it) leaves every retry under that key refused with
//     operation_outcome_uncertain; a call that succeeds stores its answer.
func (s *server) serveWrite(w http.ResponseWriter, req *request, fn writeFunc) {
	ctx := req.Context()
	key := req.Header.Get("Idempotency-Key")
	if err := checkIdempotencyKey(key); err != nil {
		s.writeError(w, req.Request, err)
		return
	}
	record := &oltp.IdempotencyRecord{
		APIKeyID:    req.key.ID,
		Key:         key,
		Method:      req.Method,
		Path:        req.URL.Path,
		RequestHash: requestHash(req.Method, req.URL.Path, req.body),
	}
	req.idempotency = record

	status, contentType, body, replayed, err := s.runWrite(ctx, req, record, fn)
	if err != nil {
		s.writeError(w, req.Request, err)
		return
	}
	if replayed {
		w.Header().Set("Idempotent-Replayed", "true")
	}
	writeBody(w, status, contentType, body)
}

func (s *server) runWrite(ctx context.Context, req *request, record *oltp.IdempotencyRecord, fn writeFunc) (status int, contentType string, body []byte, replayed bool, err error) {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return 0, "", nil, false, fmt.Errorf("beginning write: %w", err)
	}
	defer tx.Rollback(context.WithoutCancel(ctx)) //nolint:errcheck // a no-op after Commit

	locked, err := oltp.LockIdempotencyKey(ctx, tx, record.APIKeyID, record.Key)
	if err != nil {
		return 0, "", nil, false, err
	}
	if !locked {
		return 0, "", nil, false, sightline.Errorf(sightline.CodeIdempotencyInProgress,
			"A request with this Idempotency-Key is still running; retry when it has finished.")
	}
	stored, err := oltp.GetIdempotencyRecord(ctx, tx, record.APIKeyID, record.Key)
	if err != nil {
		return 0, "", nil, false, err
	}
	if stored != nil {
		if !bytes.Equal(stored.RequestHash, record.RequestHash) {
			return 0, "", nil, false, sightline.Errorf(sightline.CodeIdempotencyKeyReused,
				"This Idempotency-Key was used for a different request.")
		}
		if stored.Outcome == oltp.OutcomeUncertain {
			if stored.ResponseStatus == 0 && stored.Age < externalCallTimeout {
				return 0, "", nil, false, sightline.Errorf(sightline.CodeIdempotencyInProgress,
					"A request with this Idempotency-Key is still running; retry when it has finished.")
			}
			return 0, "", nil, false, sightline.Errorf(sightline.CodeOperationOutcomeUncertain,
				"An earlier attempt with this Idempotency-Key ended with an unknown outcome; it cannot be replayed.")
		}
		return stored.ResponseStatus, stored.ResponseType, stored.ResponseBody, true, nil
	}

	// The operation runs in a savepoint so that a refusal can undo its
	// partial work while the refusal itself is still recorded.
	op, err := tx.Begin(ctx)
	if err != nil {
		return 0, "", nil, false, fmt.Errorf("beginning savepoint: %w", err)
	}
	status, result, opErr := fn(req, op)
	if opErr != nil {
		if err := op.Rollback(ctx); err != nil {
			return 0, "", nil, false, errors.Join(opErr, err)
		}
		errStatus, envelope, e := errorResponse(req.Request, s.logger, opErr)
		if e == nil || errStatus >= 500 || !storedRefusal(errStatus, e.Code) {
			return 0, "", nil, false, opErr
		}
		status, result = errStatus, envelope
	} else if err := op.Commit(ctx); err != nil {
		return 0, "", nil, false, fmt.Errorf("releasing savepoint: %w", err)
	}
	if call, ok := result.(externalCall); ok {
		return s.runExternal(ctx, tx, record, call)
	}

	body, err = marshal(result)
	if err != nil {
		return 0, "", nil, false, fmt.Errorf("encoding response: %w", err)
	}
	record.Outcome = oltp.OutcomeCompleted
	record.ResponseStatus, record.ResponseType, record.ResponseBody = status, "application/json", body
	if err := oltp.SaveIdempotencyRecord(ctx, tx, record); err != nil {
		return 0, "", nil, false, err
	}
	if err := tx.Commit(ctx); err != nil {
		return 0, "", nil, false, fmt.Errorf("committing write: %w", err)
	}
	return status, "application/json", body, false, nil
}

// externalCall is the part of a write that reaches outside the database
// (a forward to another system). A writeFunc returns one as its body once
// everything that can be checked in its transaction has been; runWrite
// then records the intent, commits, and calls it with no transaction open.
type externalCall func(ctx context.Context) (status int, body any, err error)

// externalCallTimeout bounds an external call. Until it has passed, a key
// whose intent is recorded without an outcome is taken to be in flight;
// after it, the call cannot still be running, so its outcome is unknown.
const externalCallTimeout = 30 * time.Second

// runExternal commits tx with the key marked uncertain, which releases the
// key's lock and the connection, then makes the call and records its
// outcome: the answer on success, the failure's status (still uncertain:
// the other system may have acted) otherwise. Outcomes are recorded even
// when the client has gone: the call does not stop with its request.
func (s *server) runExternal(ctx context.Context, tx pgx.Tx, record *oltp.IdempotencyRecord, call externalCall) (int, string, []byte, bool, error) {
	record.Outcome = oltp.OutcomeUncertain
	if err := oltp.SaveIdempotencyRecord(ctx, tx, record); err != nil {
		return 0, "", nil, false, err
	}
	if err := tx.Commit(ctx); err != nil {
		return 0, "", nil, false, fmt.Errorf("committing intent: %w", err)
	}
	callCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), externalCallTimeout)
	defer cancel()
	status, result, callErr := call(callCtx)
	var body []byte
	err := callErr
	if err == nil {
		body, err = marshal(result)
	}
	if err != nil {
		record.ResponseStatus = errorStatus(err)
		if saveErr := oltp.SaveIdempotencyRecord(callCtx, s.pool, record); saveErr != nil {
			return 0, "", nil, false, errors.Join(err, saveErr)
		}
		return 0, "", nil, false, err
	}
	record.Outcome = oltp.OutcomeCompleted
	record.ResponseStatus, record.ResponseType, record.ResponseBody = status, "application/json", body
	if err := oltp.SaveIdempotencyRecord(callCtx, s.pool, record); err != nil {
		// The call took effect; its answer is sent even though a retry
		// will only learn that the outcome is uncertain.
		s.logger.ErrorContext(ctx, "recording an external call's outcome", "requestId", requestIDFrom(ctx), "error", err.Error())
	}
	return status, "application/json", body, false, nil
}

// checkIdempotencyKey enforces 8-255 printable ASCII characters, no spaces.
func checkIdempotencyKey(key string) error {
	errs := sightline.ValidationErrors{}
	switch {
	case key == "":
		errs.Add("Idempotency-Key", sightline.DetailMissingField, "the Idempotency-Key header is required on every write")
	case len(key) < 8 || len(key) > 255:
		errs.Add("Idempotency-Key", sightline.DetailOutOfRange, "must have 8 to 255 characters")
	default:
		for i := 0; i < len(key); i++ {
			if key[i] < 0x21 || key[i] > 0x7e {
				errs.Add("Idempotency-Key", sightline.DetailInvalidValue, "must be printable ASCII without spaces")
				break
			}
		}
	}
	return errs.Err()
}

// requestHash binds a key to one request: method, path and body, with
// insignificant JSON whitespace removed so a re-serialised retry matches.
func requestHash(method, path string, body []byte) []byte {
	var compact bytes.Buffer
	if json.Compact(&compact, body) != nil {
		compact.Reset()
		compact.Write(body)
	}
	h := sha256.New()
	fmt.Fprintf(h, "%s\n%s\n", method, path)
	h.Write(compact.Bytes())
	return h.Sum(nil)
}

// storedRefusal reports whether a refusal is kept as the key's answer; see
// serveWrite. A report on an answer that no check run can be found for
// leaves the key unused too (spec 4.2): nothing was forwarded.
func storedRefusal(status int, code sightline.Code) bool {
	switch status {
	case http.StatusBadRequest, http.StatusPreconditionRequired, http.StatusTooManyRequests:
		return false
	}
	return code != sightline.CodeAICheckSessionUnavailable
}
