package api

import (
	"cmp"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"

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
	sightline.CodeJobNotFound:             http.StatusNotFound,

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
	sightline.CodeNothingToCluster:              http.StatusConflict,
	sightline.CodeJobNotCompleted:               http.StatusConflict,
	sightline.CodeJobHasNoAssignments:           http.StatusConflict,

	sightline.CodeSubscriptionRequired:     http.StatusPaymentRequired,
	sightline.CodeQueryClusterOtherProject: http.StatusUnprocessableEntity,
	sightline.CodeConfirmationRequired:     http.StatusPreconditionRequired,
	sightline.CodeReviewSystemUnavailable:  http.StatusBadGateway,
}

// hiddenResource are the codes of resources that are absent or hidden
// from the caller. Spec 7.2 answers every one of them as
// organization_not_found, so that a 404 never tells which level of a path
// is missing; the message still says what was looked for.
var hiddenResource = map[sightline.Code]bool{
	sightline.CodeProjectNotFound:      true,
	sightline.CodeBrandProfileNotFound: true,
	sightline.CodeCompetitorNotFound:   true,
	sightline.CodeQueryClusterNotFound: true,
	sightline.CodeTrackedQueryNotFound: true,
	sightline.CodeAIResponseNotFound:   true,
	sightline.CodeJobNotFound:          true,
}

// clientCode is the code a client is answered for code.
func clientCode(code sightline.Code) sightline.Code {
	if hiddenResource[code] {
		return sightline.CodeOrganizationNotFound
	}
	return code
}

// errorBody is the envelope of spec part 7.1, the body of every refusal.
type errorBody struct {
	Code      sightline.Code `json:"code"`
	Message   string         `json:"message"`
	RequestID string         `json:"requestId"`
	// Details is null unless the refusal is a validation failure: absent
	// values are null, never omitted (api-decisions).
	Details map[string][]sightline.FieldError `json:"details"`
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
			message, details := capDetails(e.Message, e.Details)
			return status, errorBody{Code: clientCode(e.Code), Message: message, RequestID: requestID, Details: byFieldName(details)}, e
		}
	}
	logger.ErrorContext(r.Context(), "request failed", "requestId", requestID,
		"method", r.Method, "path", r.URL.Path, "error", err.Error())
	return http.StatusInternalServerError, errorBody{
		Code: sightline.CodeInternal, Message: "An internal error occurred.", RequestID: requestID,
	}, nil
}

// errorStatus is the status errorResponse answers err with.
func errorStatus(err error) int {
	var e *sightline.Error
	if errors.As(err, &e) {
		if status, ok := statusOf[e.Code]; ok {
			return status
		}
	}
	return http.StatusInternalServerError
}

// capDetails keeps the first sightline.MaxDetails fields of details, in
// natural order (ids[2] before ids[10]), and says in the message how many
// more there were.
func capDetails(message string, details map[string][]sightline.FieldError) (string, map[string][]sightline.FieldError) {
	if len(details) <= sightline.MaxDetails {
		return message, details
	}
	fields := slices.SortedFunc(maps.Keys(details), naturalCompare)
	kept := make(map[string][]sightline.FieldError, sightline.MaxDetails)
	for _, f := range fields[:sightline.MaxDetails] {
		kept[f] = details[f]
	}
	return fmt.Sprintf("%s The first %d fields with problems are listed; %d more are not.",
		message, sightline.MaxDetails, len(fields)-sightline.MaxDetails), kept
}

// byFieldName reports the problems of a field's items under the field's
// name (spec 7.1: details are keyed by field name): a problem of
// "queryTexts[1]" is listed under "queryTexts", its message naming the
// item, and one of "competitors[0].name" under "competitors.name". Items
// keep their order.
func byFieldName(details map[string][]sightline.FieldError) map[string][]sightline.FieldError {
	if details == nil {
		return nil
	}
	out := make(map[string][]sightline.FieldError, len(details))
	for _, path := range slices.SortedFunc(maps.Keys(details), naturalCompare) {
		name := itemIndex.ReplaceAllString(path, "")
		for _, problem := range details[path] {
			if name != path {
				problem.Message = path + ": " + problem.Message
			}
			out[name] = append(out[name], problem)
		}
	}
	return out
}

// itemIndex is the index of an array item in a field's path.
var itemIndex = regexp.MustCompile(`\[\d+\]`)

// naturalCompare orders strings with their digit runs compared as numbers.
func naturalCompare(a, b string) int {
	for a != "" && b != "" {
		da, db := digitPrefix(a), digitPrefix(b)
		if da > 0 && db > 0 {
			na, nb := strings.TrimLeft(a[:da], "0"), strings.TrimLeft(b[:db], "0")
			if c := cmp.Compare(len(na), len(nb)); c != 0 {
				return c
			}
			if c := strings.Compare(na, nb); c != 0 {
				return c
			}
			a, b = a[da:], b[db:]
			continue
		}
		if a[0] != b[0] {
			return cmp.Compare(a[0], b[0])
		}
		a, b = a[1:], b[1:]
	}
	return cmp.Compare(len(a), len(b))
}

func digitPrefix(s string) int {
	n := 0
	for n < len(s) && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	return n
}

// writeError sends err as the error envelope.
func (s *server) writeError(w http.ResponseWriter, r *http.Request, err error) {
	status, body, e := errorResponse(r, s.logger, err)
	if e != nil && e.RetryAfterSeconds > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(e.RetryAfterSeconds))
	}
	writeJSON(w, status, body)
}
