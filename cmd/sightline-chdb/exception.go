package main

import (
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"strings"
)

// ClickHouse error codes this command reports itself (src/Common/ErrorCodes.cpp).
const (
	codeUnsupportedMethod = 1
	codeNotImplemented    = 48
	codeSyntaxError       = 62
	codeUnknownSetting    = 115
	codeReadonly          = 164
	codeAccessDenied      = 497
	codeAuthFailed        = 516
	codeQueryWasCancelled = 394
	codeStdException      = 1001
)

// exception is a ClickHouse exception in the form the HTTP interface reports it: text is
// the whole message, "Code: N. DB::Exception: ... (NAME)".
type exception struct {
	code int
	text string
}

func (e *exception) Error() string { return e.text }

// newException formats an exception of this command the way the server formats its own.
func newException(code int, name, format string, args ...any) *exception {
	return &exception{
		code: code,
		text: fmt.Sprintf("Code: %d. DB::Exception: %s. (%s)", code, fmt.Sprintf(format, args...), name),
	}
}

var exceptionCodeRe = regexp.MustCompile(`^Code: (\d+)\. `)

// parseException turns the error text chDB returns into an exception. chDB already
// writes the server's form; anything else becomes STD_EXCEPTION.
func parseException(msg string) *exception {
	msg = strings.TrimRight(msg, "\r\n ")
	if m := exceptionCodeRe.FindStringSubmatch(msg); m != nil {
		if code, err := strconv.Atoi(m[1]); err == nil && code > 0 {
			return &exception{code: code, text: msg}
		}
	}
	return &exception{code: codeStdException, text: fmt.Sprintf("Code: %d. DB::Exception: %s. (STD_EXCEPTION)", codeStdException, msg)}
}

// httpStatus maps an exception code to the status ClickHouse's HTTP interface answers
// with (src/Server/HTTP/exceptionCodeToHTTPStatus.cpp).
func httpStatus(code int) int {
	switch code {
	case 194: // REQUIRED_PASSWORD
		return http.StatusUnauthorized
	case 192, 193, 516, 512, 497: // UNKNOWN_USER, WRONG_PASSWORD, AUTHENTICATION_FAILED, SET_NON_GRANTED_ROLE, ACCESS_DENIED
		return http.StatusForbidden
	case 36, 427, 6, 25, 26, 38, 41, 72, 441, 675, 676, 27, 376, 15, 44, 37, 123, 8, 167, 168, 223,
		codeSyntaxError, 117, 53, 321:
		// BAD_ARGUMENTS, CANNOT_COMPILE_REGEXP, CANNOT_PARSE_*, DUPLICATE_COLUMN,
		// ILLEGAL_COLUMN, UNKNOWN_ELEMENT_IN_AST, UNKNOWN_TYPE_OF_AST_NODE,
		// THERE_IS_NO_COLUMN, TOO_DEEP_AST, TOO_BIG_AST, UNEXPECTED_AST_STRUCTURE,
		// SYNTAX_ERROR, INCORRECT_DATA, TYPE_MISMATCH, VALUE_IS_OUT_OF_RANGE_OF_DATA_TYPE
		return http.StatusBadRequest
	case 60, 46, 47, 50, 56, 81, codeUnknownSetting, 152, 63, 73, 336, 78, 511:
		// UNKNOWN_TABLE, UNKNOWN_FUNCTION, UNKNOWN_IDENTIFIER, UNKNOWN_TYPE,
		// UNKNOWN_STORAGE, UNKNOWN_DATABASE, UNKNOWN_SETTING,
		// UNKNOWN_DIRECTION_OF_SORTING, UNKNOWN_AGGREGATE_FUNCTION, UNKNOWN_FORMAT,
		// UNKNOWN_DATABASE_ENGINE, UNKNOWN_TYPE_OF_QUERY, UNKNOWN_ROLE
		return http.StatusNotFound
	case 229: // QUERY_IS_TOO_LARGE
		return http.StatusRequestEntityTooLarge
	case codeNotImplemented:
		return http.StatusNotImplemented
	case 209, 76, 439: // SOCKET_TIMEOUT, CANNOT_OPEN_FILE, CANNOT_SCHEDULE_TASK
		return http.StatusServiceUnavailable
	case 381: // HTTP_LENGTH_REQUIRED
		return http.StatusLengthRequired
	case 159: // TIMEOUT_EXCEEDED
		return http.StatusRequestTimeout
	}
	return http.StatusInternalServerError
}
