package api

import (
	"errors"
	"log/slog"
	"net/http"
	"strconv"

	"github.com/sightline/sightline"
)

// statusOf is the one table from error code to HTTP status. A code missing
// here is a 500: an unmapped refusal is a bug, never a client's fault.
var statusOf = map[sightline.Code]int{
	sightline.CodeBadRequest:                http.StatusBadRequest,
	sightline.CodeValidation:                http.StatusBadRequest,
	sightline.CodeUnauthorized:              http.StatusUnauthorized,
	sightline.CodeCapabilityRequired:        http.StatusForbidden,
	sightline.CodeNotFound:                  http.StatusNotFound,
	sightline.CodeOrganizationNotFound:      http.StatusNotFound,
	sightline.CodeMethodNotAllowed:          http.StatusMethodNotAllowed,
	sightline.CodeIdempotencyKeyReused:      http.StatusConflict,
	sightline.CodeIdempotencyInProgress:     http.StatusConflict,
	sightline.CodeOperationOutcomeUncertain: http.StatusConflict,
	sightline.CodePayloadTooLarge:           http.StatusRequestEntityTooLarge,
	sightline.CodeUnsupportedMediaType:      http.StatusUnsupportedMediaType,
	sightline.CodeRateLimitExceeded:         http.StatusTooManyRequests,
	sightline.CodeInternal:                  http.StatusInternalServerError,

	sightline.CodeProjectNotFound:         http.StatusNotFound,
	sightline.CodeBrandProfileNotFound:    http.StatusNotFound,
	sightline.CodeCompetitorNotFound:      http.StatusNotFound,
	sightline.CodeQueryClusterNotFound:    http.StatusNotFound,
	sightline.CodeTrackedQueryNotFound:    http.StatusNotFound,
	sightline.CodeMembershipStatsNotFound: http.StatusNotFound,
	sightline.CodeAIResponseNotFound:      http.StatusNotFound,

	sightline.CodeOrganizationIsArchived:        http.StatusConflict,
	sightline.CodeProjectIsArchived:             http.StatusConflict,
	sightline.CodeProjectArchivedByOrganization: http.StatusConflict,
	sightline.CodeStatusTransitionNotAllowed:    http.StatusConflict,
	sightline.CodeConfirmationInvalid:           http.StatusConflict,
	sightline.CodeConfirmationExpired:           http.StatusConflict,
	sightline.CodeConfirmationUsed:              http.StatusConflict,
	sightline.CodeConfirmationEffectsChanged:    http.StatusConflict,
	sightline.CodeQueryClusterNameExists:        http.StatusConflict,
	sightline.CodeNPassesNotSupported:           http.StatusConflict,
	sightline.CodeAICheckSessionUnavailable:     http.StatusConflict,

	sightline.CodeSubscriptionRequired:     http.StatusPaymentRequired,
	sightline.CodeQueryClusterOtherProject: http.StatusUnprocessableEntity,
	sightline.CodeConfirmationRequired:     http.StatusPreconditionRequired,
	sightline.CodeReviewSystemUnavailable:  http.StatusBadGateway,
}

// errorBody is the envelope of spec part 7.1, the body of every refusal.
type errorBody struct {
	Code      sightline.Code                    `json:"code"`
	Message   string                            `json:"message"`
	RequestID string                            `json:"requestId"`
	Details   map[string][]sightline.FieldError `json:"details,omitempty"`
}

// errPanic stands for a handler that panicked; the panic itself is logged.
var errPanic = errors.New("handler panicked")

// errorResponse turns err into a status and envelope. Anything that is not
// a *sightline.Error with a mapped code becomes a bare internal_error; the
// cause is logged with the request id so that it can be found.
func errorResponse(r *http.Request, logger *slog.Logger, err error) (int, errorBody, *sightline.Error) {
	requestID := requestIDFrom(r.Context())
	var e *sightline.Error
	if errors.As(err, &e) {
		if status, ok := statusOf[e.Code]; ok && e.Code != sightline.CodeInternal {
			return status, errorBody{Code: e.Code, Message: e.Message, RequestID: requestID, Details: e.Details}, e
		}
	}
	logger.ErrorContext(r.Context(), "request failed", "requestId", requestID,
		"method", r.Method, "path", r.URL.Path, "error", err.Error())
	return http.StatusInternalServerError, errorBody{
		Code: sightline.CodeInternal, Message: "An internal error occurred.", RequestID: requestID,
	}, nil
}

// writeError sends err as the error envelope.
func (s *server) writeError(w http.ResponseWriter, r *http.Request, err error) {
	status, body, e := errorResponse(r, s.logger, err)
	if e != nil && e.RetryAfterSeconds > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(e.RetryAfterSeconds))
	}
	writeJSON(w, status, body)
}
