package api

import (
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/sightline/sightline"
)

// queryParams reads an operation's query parameters, collecting every
// problem so that they are reported together. Unknown parameters never get
// here: the pipeline rejects any parameter the operation does not declare.
type queryParams struct {
	values url.Values
	errs   sightline.ValidationErrors
}

func newQueryParams(values url.Values) *queryParams {
	return &queryParams{values: values, errs: sightline.ValidationErrors{}}
}

// single returns the parameter's one value and whether it was given; a
// repeated parameter is an error.
func (q *queryParams) single(name string) (string, bool) {
	vs, ok := q.values[name]
	if !ok {
		return "", false
	}
	if len(vs) > 1 {
		q.errs.Add(name, sightline.DetailInvalidValue, "must be given once")
		return "", false
	}
	return vs[0], true
}

// integer returns the parameter as an integer in [min, max], or def when absent.
func (q *queryParams) integer(name string, def, min, max int) int {
	s, ok := q.single(name)
	if !ok {
		return def
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		q.errs.Add(name, sightline.DetailInvalidType, "must be an integer")
		return def
	}
	if n < min || n > max {
		q.errs.Add(name, sightline.DetailOutOfRange, "must be between %d and %d", min, max)
		return def
	}
	return n
}

// text returns the parameter, at most maxLen characters, or "" when absent.
func (q *queryParams) text(name string, maxLen int) string {
	s, _ := q.single(name)
	if len([]rune(s)) > maxLen {
		q.errs.Add(name, sightline.DetailOutOfRange, "must have at most %d characters", maxLen)
		return ""
	}
	return s
}

// enum returns the parameter if it is one of allowed, or def when absent.
func (q *queryParams) enum(name, def string, allowed ...string) string {
	s, ok := q.single(name)
	if !ok {
		return def
	}
	if !slices.Contains(allowed, s) {
		q.errs.Add(name, sightline.DetailInvalidValue, "must be one of: %s", strings.Join(allowed, ", "))
		return def
	}
	return s
}

// page is the paging of every listing: limit 1..100 (default 20), offset >= 0.
func (q *queryParams) page() (limit, offset int) {
	return q.integer("limit", 20, 1, 100), q.integer("offset", 0, 0, maxOffset)
}

// maxOffset keeps offsets within what Postgres and ClickHouse accept as a
// signed 64-bit value while allowing any realistic listing.
const maxOffset = 1<<31 - 1

func (q *queryParams) err() error { return q.errs.Err() }
