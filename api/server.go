// Package api serves Sightline's HTTP JSON API. Every operation goes through
// one pipeline: request id, logging and metrics; authentication and rate
// limits; capability, membership and role checks; strict parameters and
// bodies; idempotency for writes; JSON or CSV answers; and one error
// envelope. routes.go lists the route function of every resource; each
// sits in the file of its handlers.
package api

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/go-chi/chi/v5"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/riverqueue/river"

	"github.com/sightline/sightline"
	"github.com/sightline/sightline/olap"
)

// Pinger is a store whose reachability /readyz reports.
type Pinger interface {
	Ping(ctx context.Context) error
}

// Deps is everything the API needs.
type Deps struct {
	Logger     *slog.Logger
	Pool       *pgxpool.Pool
	ClickHouse Pinger
	// Jobs enqueues background work in the same transaction as the write
	// that needs it (InsertTx).
	Jobs *river.Client[pgx.Tx]
	// Registerer receives the API's metrics (served by MetricsHandler).
	Registerer prometheus.Registerer
	Limits     Limits
	// MaxBodyBytes caps request bodies; larger ones get 413.
	MaxBodyBytes int64
	// Reviews is where reports of captured AI answers are forwarded.
	Reviews Reviews
	// Captures reads captured answers, pages and matches (captures.go).
	Captures CaptureReader
	// Analytics computes the windowed analytics of spec 4.3 (analytics.go).
	Analytics *olap.Analytics
}

// DefaultMaxBodyBytes fits the largest documented request (100 combinations
// of long query texts) many times over.
const DefaultMaxBodyBytes = 1 << 20

type server struct {
	logger    *slog.Logger
	pool      *pgxpool.Pool
	ch        Pinger
	jobs      *river.Client[pgx.Tx]
	router    chi.Router
	doc       *openapi3.T
	metrics   *httpMetrics
	maxBody   int64
	reviews   Reviews
	captures  CaptureReader
	analytics *olap.Analytics

	perUser, perKey, jobStarts *rateLimiter
	authFailures               *authFailureLimiter
}

// route is one operation: how it is served and how it is documented.
type route struct {
	method, pattern string
	id, tag         string
	summary         string
	description     string

	public     bool // no API key needed
	capability sightline.Capability
	// role, when set, makes the route organization-scoped: the path's
	// {organizationId} must be visible to the key and the owner must hold
	// at least this role there.
	role sightline.Role

	query    []*openapi3.Parameter
	body     *openapi3.Schema // nil: the operation takes no body
	status   int
	response *openapi3.Schema
	csv      bool
	// errors adds statuses beyond the pipeline's own, with what they mean.
	errors map[int]string
	// bodyOptional lets a request of an operation with a body come without one.
	bodyOptional bool

	read      readFunc
	writeFunc writeFunc
}

// NewHandler builds the API.
func NewHandler(deps Deps) (http.Handler, error) {
	s, err := newServer(deps)
	if err != nil {
		return nil, err
	}
	return s.router, nil
}

func newServer(deps Deps) (*server, error) {
	if deps.Limits == (Limits{}) {
		deps.Limits = DefaultLimits
	}
	if deps.Limits.AuthFailuresPerAddress == 0 {
		deps.Limits.AuthFailuresPerAddress = DefaultLimits.AuthFailuresPerAddress
	}
	if deps.MaxBodyBytes == 0 {
		deps.MaxBodyBytes = DefaultMaxBodyBytes
	}
	metrics, err := newHTTPMetrics(deps.Registerer)
	if err != nil {
		return nil, fmt.Errorf("registering http metrics: %w", err)
	}
	s := &server{
		logger:    deps.Logger,
		pool:      deps.Pool,
		ch:        deps.ClickHouse,
		jobs:      deps.Jobs,
		router:    chi.NewRouter(),
		doc:       newDocument(),
		metrics:   metrics,
		maxBody:   deps.MaxBodyBytes,
		reviews:   deps.Reviews,
		captures:  deps.Captures,
		analytics: deps.Analytics,
		perUser:   &rateLimiter{pool: deps.Pool, scope: "user", limit: deps.Limits.PerUser, window: deps.Limits.Window},
		perKey:    &rateLimiter{pool: deps.Pool, scope: "key", limit: deps.Limits.PerKey, window: deps.Limits.Window},
		jobStarts: &rateLimiter{pool: deps.Pool, scope: "organization's job starts",
			limit: deps.Limits.JobStartsPerOrg, window: deps.Limits.Window},
		authFailures: newAuthFailureLimiter(deps.Limits.AuthFailuresPerAddress, deps.Limits.Window),
	}
	s.router.Use(withNoSniff, withRequestID, s.withObservation)
	s.router.NotFound(func(w http.ResponseWriter, r *http.Request) {
		s.writeError(w, r, sightline.Errorf(sightline.CodeNotFound, "No operation matches %s.", r.URL.Path))
	})
	s.router.MethodNotAllowed(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Allow", strings.Join(s.allowedMethods(r.URL.Path), ", "))
		s.writeError(w, r, sightline.Errorf(sightline.CodeMethodNotAllowed, "%s is not allowed on %s.", r.Method, r.URL.Path))
	})
	s.routes()
	if err := s.doc.Validate(context.Background()); err != nil {
		return nil, fmt.Errorf("invalid OpenAPI document: %w", err)
	}
	return s, nil
}

// allowedMethods lists the methods the API serves on path: a 405 names
// them in its Allow header (RFC 9110, 15.5.6).
func (s *server) allowedMethods(path string) []string {
	var allowed []string
	for _, m := range []string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete} {
		if s.router.Match(chi.NewRouteContext(), m, path) {
			allowed = append(allowed, m)
		}
	}
	return allowed
}

// handle documents rt and mounts it behind the pipeline.
func (s *server) handle(rt route) {
	if rt.status == 0 {
		rt.status = http.StatusOK
	}
	if rt.capability == "" {
		rt.capability = sightline.CapabilityRead
	}
	for _, p := range rt.query {
		// An empty list filter would read as no filter at all: every array
		// parameter takes at least one value, said in the document too.
		if schema := p.Schema.Value; schema.Type.Is(openapi3.TypeArray) && schema.MinItems == 0 {
			schema.MinItems = 1
		}
	}
	s.document(&rt)
	s.router.Method(rt.method, rt.pattern, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.serve(w, r, &rt)
	}))
}

// routeGroup mounts the organization-scoped routes of one tag of the
// OpenAPI document. A route that names no role is open to viewers when it
// reads and to managers when it writes; a write needs the write capability
// unless it names another.
type routeGroup struct {
	s   *server
	tag string
}

func (s *server) group(tag string) routeGroup { return routeGroup{s: s, tag: tag} }

// handle mounts rt under the group's tag and defaults.
func (g routeGroup) handle(rt route) {
	rt.tag = g.tag
	if rt.writeFunc == nil {
		rt.role = cmp.Or(rt.role, sightline.RoleViewer)
	} else {
		rt.role = cmp.Or(rt.role, sightline.RoleManager)
		rt.capability = cmp.Or(rt.capability, sightline.CapabilityWrite)
	}
	g.s.handle(rt)
}

func (s *server) serve(w http.ResponseWriter, r *http.Request, rt *route) {
	ctx := r.Context()
	req := &request{Request: r}
	if !rt.public {
		key, err := s.authenticate(ctx, r)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		req.key = key
		if err := s.takeRequestQuota(ctx, req); err != nil {
			s.writeError(w, r, err)
			return
		}
		if err := s.authorize(ctx, rt, req); err != nil {
			s.writeError(w, r, err)
			return
		}
	}
	mediaType := negotiate(r.Header.Get("Accept"), rt.csv)
	values, err := url.ParseQuery(r.URL.RawQuery)
	if err != nil {
		// Go's parser drops what it cannot read (a bad escape, a semicolon,
		// everything past 10,000 parameters); answering on the rest would
		// answer a request the client did not send.
		s.writeError(w, r, sightline.Errorf(sightline.CodeBadRequest, "The query string cannot be read: %v.", err))
		return
	}
	query, err := checkQuery(values, rt.query)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	req.query = query
	body, err := s.readBody(w, r, rt)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	req.body = body
	if rt.writeFunc != nil {
		s.serveWrite(w, req, rt.writeFunc)
		return
	}
	result, err := rt.read(req)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if l, ok := result.(csvListing); ok && mediaType == mediaCSV {
		out, err := encodeCSV(l)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		writeBody(w, http.StatusOK, "text/csv; charset=utf-8", out)
		return
	}
	writeJSON(w, rt.status, result)
}

// takeRequestQuota charges the request to its user's and its key's quotas.
func (s *server) takeRequestQuota(ctx context.Context, req *request) error {
	if err := s.perKey.allow(ctx, req.key.ID); err != nil {
		return err
	}
	return s.perUser.allow(ctx, req.key.User.ID)
}

// readBody reads the body within the size limit and checks it against the
// operation: no body where none is taken, a body where one is required.
func (s *server) readBody(w http.ResponseWriter, r *http.Request, rt *route) ([]byte, error) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, s.maxBody))
	var tooLarge *http.MaxBytesError
	if errors.As(err, &tooLarge) {
		return nil, sightline.Errorf(sightline.CodePayloadTooLarge, "The request body exceeds %d bytes.", s.maxBody)
	}
	if err != nil {
		return nil, sightline.Errorf(sightline.CodeBadRequest, "The request body could not be read.")
	}
	if rt.body == nil && len(body) > 0 {
		return nil, sightline.Errorf(sightline.CodeBadRequest, "This operation takes no request body.")
	}
	if rt.body != nil && len(body) == 0 {
		if !rt.bodyOptional {
			return nil, sightline.Errorf(sightline.CodeBadRequest, "This operation requires a JSON request body.")
		}
		// An optional body left out is the empty object: its defaults.
		return []byte("{}"), nil
	}
	if len(body) > 0 {
		// A body without a Content-Type is read as JSON, as most clients
		// send it; one declared as anything else is refused.
		if ct := r.Header.Get("Content-Type"); ct != "" {
			if err := checkJSONContentType(ct); err != nil {
				return nil, err
			}
		}
		// encoding/json would store invalid UTF-8, and \u escapes of lone
		// surrogates, as U+FFFD: text the client did not send.
		if !utf8.Valid(body) || hasLoneSurrogate(body) {
			return nil, sightline.Errorf(sightline.CodeBadRequest, "The request body is not valid UTF-8.")
		}
	}
	return body, nil
}

// checkJSONContentType accepts application/json and application/*+json,
// in UTF-8 when a charset is named.
func checkJSONContentType(header string) error {
	mediaType, params, err := mime.ParseMediaType(header)
	isJSON := err == nil && (mediaType == "application/json" ||
		strings.HasPrefix(mediaType, "application/") && strings.HasSuffix(mediaType, "+json"))
	if charset, named := params["charset"]; isJSON && (!named || strings.EqualFold(charset, "utf-8")) {
		return nil
	}
	return sightline.Errorf(sightline.CodeUnsupportedMediaType,
		"Request bodies must be JSON: send Content-Type: application/json.")
}

// hasLoneSurrogate reports whether a JSON text escapes half of a UTF-16
// surrogate pair (\ud800 without its low half, or a low half alone).
func hasLoneSurrogate(body []byte) bool {
	escape := func(i int) (rune, bool) { // the \uXXXX at body[i:], if any
		if i+6 > len(body) || body[i] != '\\' || body[i+1] != 'u' {
			return 0, false
		}
		n, err := strconv.ParseUint(string(body[i+2:i+6]), 16, 16)
		return rune(n), err == nil
	}
	for i := 0; i < len(body); i++ {
		if body[i] != '\\' {
			continue
		}
		r, ok := escape(i)
		if !ok {
			i++ // a two-character escape such as \\ or \"
			continue
		}
		switch {
		case utf16.IsSurrogate(r) && r < 0xdc00:
			low, ok := escape(i + 6)
			if !ok || low < 0xdc00 || low > 0xdfff {
				return true
			}
			i += 11
		case utf16.IsSurrogate(r):
			return true
		default:
			i += 5
		}
	}
	return false
}

// healthTimeout bounds how long /readyz waits for a store.
const healthTimeout = 2 * time.Second
