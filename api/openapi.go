package api

import (
	"net/http"
	"regexp"
	"slices"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/sightline/sightline"
)

// The OpenAPI document is built from the same route registrations that
// mount the handlers (routes.go and the route functions it calls), so an operation cannot be served without being
// documented. Each route contributes its parameters, body, success response
// and the errors the pipeline can answer for it.

func newDocument() *openapi3.T {
	doc := &openapi3.T{
		OpenAPI: "3.0.3",
		Info: &openapi3.Info{
			Title:   "Sightline API",
			Version: "1.0.0",
			Description: "Tracks how a brand appears in AI answer engines and search. " +
				"Every operation except this document needs Authorization: Bearer <API key>. " +
				"Every write needs an Idempotency-Key header (8-255 printable ASCII characters).",
		},
		Paths: openapi3.NewPaths(),
		Components: &openapi3.Components{
			Schemas: openapi3.Schemas{},
			SecuritySchemes: openapi3.SecuritySchemes{
				"apiKey": &openapi3.SecuritySchemeRef{Value: openapi3.NewJWTSecurityScheme().
					WithBearerFormat("opaque API key").WithDescription("An API key issued to a user.")},
			},
		},
		Security: openapi3.SecurityRequirements{{"apiKey": []string{}}},
	}
	doc.Components.Schemas["Error"] = schemaRef(errorSchema)
	return doc
}

// errorSchema is the envelope of every refusal.
var errorSchema = object(props{
	"code":      described(stringSchema(), "Stable error code to branch on."),
	"message":   stringSchema(),
	"requestId": uuidSchema(),
	"details": described(nullable(openapi3.NewObjectSchema().
		WithAdditionalProperties(openapi3.NewArraySchema().WithItems(object(props{
			"code":    stringSchema().WithEnum(anySlice(detailCodes)...),
			"message": stringSchema(),
		}, "code", "message")))),
		"Validation failures: problems keyed by field or parameter name (an array item's problem under its field's "+
			"name, the message starting with the item's path, e.g. \"queryTexts[1]: ...\"); null for every other refusal."),
}, "code", "message", "requestId", "details")

var detailCodes = []string{
	string(sightline.DetailMissingField), string(sightline.DetailInvalidType), string(sightline.DetailInvalidValue),
	string(sightline.DetailInvalidUUID), string(sightline.DetailInvalidEmail), string(sightline.DetailOutOfRange),
	string(sightline.DetailUnknownField),
}

type props map[string]*openapi3.Schema

func object(p props, required ...string) *openapi3.Schema {
	s := openapi3.NewObjectSchema()
	for name, prop := range p {
		s.WithProperty(name, prop)
	}
	s.Required = required
	falseValue := false
	s.AdditionalProperties = openapi3.AdditionalProperties{Has: &falseValue}
	return s
}

func stringSchema() *openapi3.Schema { return openapi3.NewStringSchema() }
func uuidSchema() *openapi3.Schema   { return openapi3.NewUUIDSchema() }
func timeSchema() *openapi3.Schema {
	return described(openapi3.NewDateTimeSchema(), "RFC 3339, UTC, with milliseconds.")
}
func integerSchema() *openapi3.Schema { return openapi3.NewIntegerSchema() }
func arrayOf(items *openapi3.Schema) *openapi3.Schema {
	return openapi3.NewArraySchema().WithItems(items)
}

// nullable lets s be null. An enum admits null only when null is one of
// its values (OpenAPI 3.0.3), so a nullable enum lists it.
func nullable(s *openapi3.Schema) *openapi3.Schema {
	if len(s.Enum) > 0 && !slices.Contains(s.Enum, nil) {
		s.Enum = append(s.Enum, nil)
	}
	return s.WithNullable()
}
func described(s *openapi3.Schema, description string) *openapi3.Schema {
	s.Description = description
	return s
}
func enumOf(values ...string) *openapi3.Schema {
	return stringSchema().WithEnum(anySlice(values)...)
}

// projectWriteErrors are the refusals a write inside a project adds to the
// pipeline's own: notFound for 404, the archived project or organization
// for 409.
func projectWriteErrors(notFound string) routeErrors {
	return routeErrors{404: notFound, 409: "project_is_archived: the project or its organization is archived."}
}

// routeErrors are the statuses a route adds to the pipeline's own, with
// what they mean.
type routeErrors map[int]string

// with is e with status meaning text.
func (e routeErrors) with(status int, text string) routeErrors {
	e[status] = text
	return e
}

// enumFrom is the schema of a value from one of the vocabulary's lists.
func enumFrom[T ~string](values []T) *openapi3.Schema { return enumOf(stringsOf(values)...) }

// stringsOf converts a vocabulary list to its wire values.
func stringsOf[T ~string](values []T) []string {
	out := make([]string, len(values))
	for i, v := range values {
		out[i] = string(v)
	}
	return out
}

func schemaRef(s *openapi3.Schema) *openapi3.SchemaRef { return openapi3.NewSchemaRef("", s) }

func anySlice(values []string) []any {
	out := make([]any, len(values))
	for i, v := range values {
		out[i] = v
	}
	return out
}

// component registers s under name and returns a reference to it.
func (s *server) component(name string, schema *openapi3.Schema) *openapi3.Schema {
	s.doc.Components.Schemas[name] = schemaRef(schema)
	return &openapi3.Schema{AllOf: openapi3.SchemaRefs{openapi3.NewSchemaRef("#/components/schemas/"+name, schema)}}
}

// listingSchema is the shape of every generic listing of rows.
func listingSchema(row *openapi3.Schema) *openapi3.Schema {
	return object(props{
		"page":   arrayOf(row),
		"total":  described(integerSchema().WithMin(0), "Rows matching the filters, not the page size."),
		"limit":  integerSchema(),
		"offset": integerSchema(),
	}, "page", "total", "limit", "offset")
}

// Query parameters shared by listings.
func pagingParams() []*openapi3.Parameter {
	return []*openapi3.Parameter{
		openapi3.NewQueryParameter("limit").WithSchema(integerSchema().WithMin(1).WithMax(100).WithDefault(20)).
			WithDescription("Page size, 1 to 100; larger is rejected."),
		openapi3.NewQueryParameter("offset").WithSchema(integerSchema().WithMin(0).WithMax(1<<31 - 1).WithDefault(0)),
	}
}

var pathParam = regexp.MustCompile(`\{([^}]+)\}`)

// errorDescriptions say when the pipeline answers each status.
var errorDescriptions = map[int]string{
	400: "validation_error (details name every field or parameter at fault, unknown ones included), " +
		"bad_request (body not JSON or not UTF-8, a body on a no-body operation, a missing body, a query string that cannot be read: " +
		"a bad escape, a semicolon, more than 10,000 parameters), or a missing or malformed Idempotency-Key.",
	401: "unauthorized: missing, invalid or revoked API key.",
	403: "api_key_capability_required: the key lacks the capability, or its owner's role is too low.",
	404: "organization_not_found or not_found: nothing accessible under these ids (a malformed id included).",
	409: "idempotency_key_reused, idempotency_request_in_progress or operation_outcome_uncertain.",
	413: "payload_too_large: the body exceeds the size limit.",
	415: "unsupported_media_type: the body is declared as something other than application/json (UTF-8); a body without a Content-Type is read as JSON.",
	429: "rate_limit_exceeded: over the per-user or per-key quota, or too many failed authentications from the " +
		"client's address; Retry-After gives the seconds to wait.",
	500: "internal_error: no detail; the requestId finds the cause in the service's logs.",
}

// document adds rt's operation to the OpenAPI document.
func (s *server) document(rt *route) {
	op := openapi3.NewOperation()
	op.OperationID = rt.id
	op.Summary = rt.summary
	op.Description = rt.description
	op.Tags = []string{rt.tag}
	if rt.public {
		op.Security = &openapi3.SecurityRequirements{}
	}
	for _, m := range pathParam.FindAllStringSubmatch(rt.pattern, -1) {
		op.AddParameter(openapi3.NewPathParameter(m[1]).WithSchema(uuidSchema()))
	}
	for _, p := range rt.query {
		op.AddParameter(p)
	}
	if rt.writeFunc != nil {
		op.AddParameter(openapi3.NewHeaderParameter("Idempotency-Key").WithRequired(true).
			WithSchema(stringSchema().WithMinLength(8).WithMaxLength(255).WithPattern(`^[\x21-\x7E]+$`)).
			WithDescription("Client-chosen key making the write safe to retry; a UUID is suggested."))
	}
	if rt.body != nil {
		op.RequestBody = &openapi3.RequestBodyRef{Value: openapi3.NewRequestBody().WithRequired(!rt.bodyOptional).
			WithJSONSchema(rt.body)}
	}

	success := openapi3.NewResponse().WithDescription(http.StatusText(rt.status)).WithJSONSchema(rt.response)
	if rt.csv {
		success.Content["text/csv"] = openapi3.NewMediaType().WithSchema(described(stringSchema(),
			"Same page as JSON without total; list values joined with '; '; cells starting with = + - @, a tab or a carriage return prefixed with an apostrophe."))
	}
	op.AddResponse(rt.status, success)

	statuses := []int{400, 500}
	if !rt.public {
		statuses = append(statuses, 401, 403, 429)
	}
	if rt.body != nil {
		statuses = append(statuses, 413, 415)
	}
	if strings.Contains(rt.pattern, "{") {
		statuses = append(statuses, 404)
	}
	if rt.writeFunc != nil {
		statuses = append(statuses, 409)
	}
	for status := range rt.errors {
		statuses = append(statuses, status)
	}
	slices.Sort(statuses)
	for _, status := range slices.Compact(statuses) {
		desc := errorDescriptions[status]
		if extra := rt.errors[status]; extra != "" {
			desc = strings.TrimSpace(extra + " " + desc)
		}
		res := openapi3.NewResponse().WithDescription(desc).
			WithContent(openapi3.NewContentWithJSONSchemaRef(openapi3.NewSchemaRef("#/components/schemas/Error", errorSchema)))
		if status == http.StatusTooManyRequests {
			res.Headers = openapi3.Headers{"Retry-After": &openapi3.HeaderRef{Value: &openapi3.Header{Parameter: openapi3.Parameter{
				Description: "Seconds to wait before retrying.", Required: true, Schema: schemaRef(integerSchema().WithMin(1)),
			}}}}
		}
		op.AddResponse(status, res)
	}
	s.doc.AddOperation(rt.pattern, rt.method, op)
}

func boolSchema() *openapi3.Schema { return openapi3.NewBoolSchema() }
