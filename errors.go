package sightline

import (
	"errors"
	"fmt"
)

// Code is a stable, client-facing error code: the field API clients branch on.
type Code string

// Top-level error codes of the API's error envelope.
const (
	CodeBadRequest                Code = "bad_request"
	CodeValidation                Code = "validation_error"
	CodeUnauthorized              Code = "unauthorized"
	CodeCapabilityRequired        Code = "api_key_capability_required"
	CodeNotFound                  Code = "not_found"
	CodeOrganizationNotFound      Code = "organization_not_found"
	CodeMethodNotAllowed          Code = "method_not_allowed"
	CodeIdempotencyKeyReused      Code = "idempotency_key_reused"
	CodeIdempotencyInProgress     Code = "idempotency_request_in_progress"
	CodeOperationOutcomeUncertain Code = "operation_outcome_uncertain"
	CodePayloadTooLarge           Code = "payload_too_large"
	CodeUnsupportedMediaType      Code = "unsupported_media_type"
	CodeRateLimitExceeded         Code = "rate_limit_exceeded"
	CodeInternal                  Code = "internal_error"

	// Resources that are absent or hidden (404). These name the missing
	// resource inside the service (logs, branching); clients see them all as
	// organization_not_found (spec 7.2), so that a 404 never tells which
	// level of a path is hidden.
	CodeProjectNotFound      Code = "project_not_found"
	CodeBrandProfileNotFound Code = "brand_profile_not_found"
	CodeCompetitorNotFound   Code = "competitor_not_found"
	CodeQueryClusterNotFound Code = "query_cluster_not_found"
	CodeTrackedQueryNotFound Code = "tracked_query_not_found"
	CodeAIResponseNotFound   Code = "ai_response_not_found"
	// CodeMembershipStatsNotFound: an organization's membership stats are
	// not computed yet (404, answered as is).
	CodeMembershipStatsNotFound Code = "organization_membership_stats_not_found"

	// Conflicts with the current state (409).
	// CodeProjectIsArchived: a write to an archived project, or to a
	// project or configuration of an archived organization (spec 7.2 gives
	// both the one code).
	CodeProjectIsArchived             Code = "project_is_archived"
	CodeProjectArchivedByOrganization Code = "project_archived_by_organization"
	CodeStatusTransitionNotAllowed    Code = "status_transition_not_allowed"
	CodeConfirmationInvalid           Code = "confirmation_invalid"
	CodeConfirmationExpired           Code = "confirmation_expired"
	CodeConfirmationUsed              Code = "confirmation_used"
	CodeConfirmationEffectsChanged    Code = "confirmation_effects_changed"
	CodeQueryClusterNameExists        Code = "query_cluster_name_already_exists"
	CodeNPassesNotSupported           Code = "n_passes_not_supported_for_engine"
	// CodeAICheckSessionUnavailable: a reported AI answer cannot be routed
	// to the check run that captured it.
	CodeAICheckSessionUnavailable Code = "ai_check_session_unavailable"

	// Other refusals.
	CodeSubscriptionRequired     Code = "subscription_required"          // 402
	CodeQueryClusterOtherProject Code = "query_cluster_in_other_project" // 422
	CodeConfirmationRequired     Code = "confirmation_required"          // 428
	// CodeReviewSystemUnavailable: the review system could not be reached
	// or refused a report forward; its outcome is unknown (502).
	CodeReviewSystemUnavailable Code = "review_system_unavailable"
)

// Item-level codes: the reasons inside a batch answer's `failed` list.
const (
	ItemTrackedQueryNotFound          Code = "tracked_query_not_found"
	ItemTrackedQueryAlreadyExists     Code = "tracked_query_already_exists"
	ItemDuplicateCombinationInRequest Code = "duplicate_combination_in_request"
	ItemTrackedQueryAlreadyPaused     Code = "tracked_query_already_paused"
	ItemNPassesNotSupported           Code = "n_passes_not_supported_for_engine"
	ItemCheckBudgetForecastExhausted  Code = "check_budget_forecast_exhausted"
	ItemSubscriptionNotFound          Code = "subscription_not_found"
	ItemQueryClusterNameExists        Code = "query_cluster_name_already_exists"
	// ItemEngineNotAvailableInCountry: create tracked queries, google_ai_mode
	// where Google does not offer it (oltp.GoogleAIModeUnavailableCountries).
	ItemEngineNotAvailableInCountry Code = "engine_not_available_in_country"
)

// DetailCode is one of the seven codes a validation failure reports per field.
type DetailCode string

// The detail codes of spec part 2.2.
const (
	DetailMissingField DetailCode = "missing_field"
	DetailInvalidType  DetailCode = "invalid_type"
	DetailInvalidValue DetailCode = "invalid_value"
	DetailInvalidUUID  DetailCode = "invalid_uuid"
	DetailInvalidEmail DetailCode = "invalid_email"
	DetailOutOfRange   DetailCode = "out_of_range"
	DetailUnknownField DetailCode = "unknown_field"
)

// FieldError is one problem with one field of a request.
type FieldError struct {
	Code    DetailCode `json:"code"`
	Message string     `json:"message"`
}

// Error is the one error type that crosses package boundaries. Code and
// Message are safe to show to API clients; Cause is for logs only.
type Error struct {
	Code    Code
	Message string
	// Details maps a field name (body field or query parameter) to its problems.
	Details map[string][]FieldError
	// RetryAfterSeconds is set on rate-limit refusals.
	RetryAfterSeconds int
	Cause             error
}

func (e *Error) Error() string {
	if e.Cause != nil {
		return fmt.Sprintf("%s: %s: %v", e.Code, e.Message, e.Cause)
	}
	return fmt.Sprintf("%s: %s", e.Code, e.Message)
}

func (e *Error) Unwrap() error { return e.Cause }

// Errorf builds an Error with a formatted client-safe message.
func Errorf(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// ErrorCode returns the code of the first *Error in err's chain, or
// CodeInternal when there is none: an unrecognised error is an internal one.
func ErrorCode(err error) Code {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return CodeInternal
}

// MaxDetails bounds the fields one refusal names: enough to correct a
// request by, and few enough that a large bad body never turns into a
// larger answer.
const MaxDetails = 100

// ValidationErrors collects field problems so that a request reports all of
// them at once instead of one per round trip.
type ValidationErrors map[string][]FieldError

// Add records a problem with field.
func (v ValidationErrors) Add(field string, code DetailCode, format string, args ...any) {
	v[field] = append(v[field], FieldError{Code: code, Message: fmt.Sprintf(format, args...)})
}

// Err returns nil when nothing was added, else a validation_error carrying
// every detail.
func (v ValidationErrors) Err() error {
	if len(v) == 0 {
		return nil
	}
	return &Error{Code: CodeValidation, Message: "The request has invalid fields.", Details: v}
}
