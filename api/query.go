package api

import (
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/google/uuid"

	"github.com/sightline/sightline"
)

// Query parameters are checked against the schemas the operation documents,
// all of them before the handler runs, so that every problem is reported in
// one answer and the document and the behaviour cannot drift apart:
//   - a parameter the operation does not declare is unknown_field;
//   - a scalar parameter given twice is invalid_value;
//   - an array parameter takes repeated values or comma-separated ones,
//     at least minItems (1, set by handle);
//   - integers out of minimum/maximum and strings over maxLength are
//     out_of_range, values outside an enum invalid_value, a malformed uuid
//     invalid_uuid, a non-number invalid_type.

// queryParams are an operation's checked query parameters.
type queryParams struct {
	values url.Values
	params map[string]*openapi3.Parameter
}

func checkQuery(values url.Values, declared []*openapi3.Parameter) (*queryParams, error) {
	q := &queryParams{values: url.Values{}, params: map[string]*openapi3.Parameter{}}
	for _, p := range declared {
		q.params[p.Name] = p
	}
	errs := sightline.ValidationErrors{}
	for name, raw := range values {
		p, ok := q.params[name]
		if !ok {
			errs.Add(name, sightline.DetailUnknownField, "is not a parameter of this operation")
			continue
		}
		schema := p.Schema.Value
		items := raw
		if schema.Type.Is(openapi3.TypeArray) {
			items = nil
			for _, v := range raw {
				for _, part := range strings.Split(v, ",") {
					if part = strings.TrimSpace(part); part != "" {
						items = append(items, part)
					}
				}
			}
			if uint64(len(items)) < schema.MinItems {
				errs.Add(name, sightline.DetailInvalidValue, "must name at least one value, or be left out")
				continue
			}
			if schema.MaxItems != nil && uint64(len(items)) > *schema.MaxItems {
				errs.Add(name, sightline.DetailOutOfRange, "must have at most %d values", *schema.MaxItems)
				continue
			}
			schema = schema.Items.Value
		} else if len(raw) > 1 {
			errs.Add(name, sightline.DetailInvalidValue, "must be given once")
			continue
		}
		valid := true
		for _, v := range items {
			if code, msg := checkQueryValue(schema, v); code != "" {
				errs.Add(name, code, "%s", msg)
				valid = false
				break
			}
		}
		if valid {
			q.values[name] = items
		}
	}
	if err := errs.Err(); err != nil {
		return nil, err
	}
	return q, nil
}

func checkQueryValue(s *openapi3.Schema, v string) (sightline.DetailCode, string) {
	switch {
	case s.Type.Is(openapi3.TypeInteger):
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return sightline.DetailInvalidType, "must be an integer"
		}
		if (s.Min != nil && float64(n) < *s.Min) || (s.Max != nil && float64(n) > *s.Max) {
			return sightline.DetailOutOfRange, "must be " + rangeText(s)
		}
	case s.Type.Is(openapi3.TypeBoolean):
		if v != "true" && v != "false" {
			return sightline.DetailInvalidType, "must be true or false"
		}
	default:
		// Text the stores could not compare with stored text is refused
		// here, once, instead of failing in the database.
		if !utf8.ValidString(v) || strings.ContainsRune(v, 0) {
			return sightline.DetailInvalidValue, "must be UTF-8 text without NUL characters"
		}
		if len(s.Enum) > 0 && !slices.Contains(s.Enum, any(v)) {
			return sightline.DetailInvalidValue, "must be one of: " + enumText(s.Enum)
		}
		if s.Format == "uuid" {
			if _, err := uuid.Parse(v); err != nil {
				return sightline.DetailInvalidUUID, "must be a uuid"
			}
		}
		if s.MaxLength != nil && uint64(utf8.RuneCountInString(v)) > *s.MaxLength {
			return sightline.DetailOutOfRange, fmt.Sprintf("must have at most %d characters", *s.MaxLength)
		}
	}
	return "", ""
}

func rangeText(s *openapi3.Schema) string {
	switch {
	case s.Min != nil && s.Max != nil:
		return "between " + number(*s.Min) + " and " + number(*s.Max)
	case s.Min != nil:
		return "at least " + number(*s.Min)
	default:
		return "at most " + number(*s.Max)
	}
}

// number writes a schema bound in full: 2147483647, not 2.147483647e+09.
func number(x float64) string {
	return strconv.FormatFloat(x, 'f', -1, 64)
}

func enumText(values []any) string {
	parts := make([]string, len(values))
	for i, v := range values {
		parts[i] = fmt.Sprint(v)
	}
	return strings.Join(parts, ", ")
}

// has reports whether the parameter was given.
func (q *queryParams) has(name string) bool {
	_, ok := q.values[name]
	return ok
}

// string returns the parameter, else its documented default, else "".
func (q *queryParams) string(name string) string {
	if vs, ok := q.values[name]; ok {
		return vs[0]
	}
	if d, ok := q.schema(name).Default.(string); ok {
		return d
	}
	return ""
}

// int returns the parameter, else its documented default, else 0.
func (q *queryParams) int(name string) int {
	if vs, ok := q.values[name]; ok {
		n, _ := strconv.Atoi(vs[0]) // checked against the schema already
		return n
	}
	switch d := q.schema(name).Default.(type) {
	case int:
		return d
	case float64:
		return int(d)
	}
	return 0
}

// strings returns an array parameter's values, nil when absent.
func (q *queryParams) strings(name string) []string {
	return q.values[name]
}

func (q *queryParams) schema(name string) *openapi3.Schema {
	p, ok := q.params[name]
	if !ok {
		panic(fmt.Sprintf("query parameter %q is not declared by the operation", name))
	}
	return p.Schema.Value
}

// page is the paging of every listing.
func (q *queryParams) page() (limit, offset int) { return q.int("limit"), q.int("offset") }
