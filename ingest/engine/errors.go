package engine

import (
	"fmt"
	"time"

	"github.com/sightline/sightline"
)

// ErrorKind says why an engine could not answer, and so whether asking again
// later may help.
type ErrorKind string

// The kinds of engine failure that pass: asking again later may succeed.
const (
	// Timeout: no complete answer within the per-request timeout (or the
	// caller's deadline).
	Timeout ErrorKind = "timeout"
	// RateLimited: the provider answered 429; RetryAfter says when to come
	// back if it told us.
	RateLimited ErrorKind = "rate_limited"
	// Unavailable: the provider failed (5xx), could not be reached, or said
	// it cannot answer right now.
	Unavailable ErrorKind = "unavailable"
)

// The kinds of engine failure that asking again does not cure.
const (
	// Rejected: the provider refused the request itself (4xx other than
	// 429: bad key, bad request, exhausted quota) or the request cannot be
	// made (an engine or country the provider cannot serve). Asking again
	// gives the same answer.
	Rejected ErrorKind = "rejected"
	// Malformed: the provider answered 2xx with a body that cannot be read
	// as its documented response.
	Malformed ErrorKind = "malformed"
)

// Error is every failure an engine adapter returns. The check worker reads
// Retryable to choose between awaiting a retry and failing the check.
type Error struct {
	Engine sightline.Engine
	Kind   ErrorKind
	// RetryAfter is the provider's Retry-After (RateLimited and Unavailable
	// answers only); zero when it gave none.
	RetryAfter time.Duration
	Err        error
}

func (e *Error) Error() string {
	s := fmt.Sprintf("engine %s: %s", e.Engine, e.Kind)
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	if e.RetryAfter > 0 {
		s += fmt.Sprintf(" (retry after %s)", e.RetryAfter)
	}
	return s
}

func (e *Error) Unwrap() error { return e.Err }

// RetryDelay is the least wait before asking again that the provider asked
// for; zero when it asked for none. The check worker waits at least this.
func (e *Error) RetryDelay() time.Duration { return e.RetryAfter }

// Retryable reports whether asking again later may succeed: timeouts, rate
// limits and unavailability are passing; rejections and malformed answers
// are not.
func (e *Error) Retryable() bool {
	switch e.Kind {
	case Timeout, RateLimited, Unavailable:
		return true
	}
	return false
}

func newError(engine sightline.Engine, kind ErrorKind, format string, args ...any) *Error {
	return &Error{Engine: engine, Kind: kind, Err: fmt.Errorf(format, args...)}
}
