package api

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/sightline/sightline"
	"github.com/sightline/sightline/jobs"
	"github.com/sightline/sightline/olap"
	"github.com/sightline/sightline/olap/olaptest"
	"github.com/sightline/sightline/oltp"
	"github.com/sightline/sightline/oltp/oltptest"
)

// fixture is one API on its own Postgres database, with a client that
// checks every answer against the served OpenAPI document.
type fixture struct {
	t      *testing.T
	pool   *pgxpool.Pool
	server *server
	http   *httptest.Server
	logs   *syncBuffer
	router routers.Router
	// registry holds the API's metrics, which MetricsHandler serves.
	registry *prometheus.Registry
}

type setupOptions struct {
	// analytics gives the API its own migrated ClickHouse database for
	// captures and analytics; the fixture's analytics field connects to it.
	analytics bool
	limits    Limits
	pool      *pgxpool.Pool // share another fixture's database
	mount     func(s *server)
}

func setup(t *testing.T, opts ...setupOptions) *fixture {
	t.Helper()
	var o setupOptions
	if len(opts) > 0 {
		o = opts[0]
	}
	pool := o.pool
	if pool == nil {
		pool = oltptest.NewPool(t)
	}
	if o.limits == (Limits{}) {
		o.limits = Limits{PerUser: 10000, PerKey: 10000, JobStartsPerOrg: 10, AuthFailuresPerAddress: 10000, Window: DefaultLimits.Window}
	}
	ch, err := olap.Connect(context.Background(), olaptest.ServerURL(), nil)
	if err != nil {
		t.Fatalf("connecting to clickhouse: %v", err)
	}
	t.Cleanup(func() { ch.Close() })
	logs := &syncBuffer{}
	jobClient, err := jobs.NewClient(pool, jobs.Config{Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	registry := prometheus.NewRegistry()
	captures, analytics := &capturesSlot{}, &olap.Analytics{}
	if o.analytics {
		analytics.Conn = olaptest.NewConn(t)
		captures.reader.Store(&olap.Reader{Conn: analytics.Conn})
	}
	s, err := newServer(Deps{
		Logger: slog.New(slog.NewJSONHandler(logs, nil)), Pool: pool, ClickHouse: ch, Jobs: jobClient,
		Registerer: registry, Limits: o.limits, MaxBodyBytes: 4096,
		Captures: captures, Analytics: analytics,
	})
	if err != nil {
		t.Fatal(err)
	}
	if o.mount != nil {
		o.mount(s)
	}
	srv := httptest.NewServer(s.router)
	t.Cleanup(srv.Close)
	f := &fixture{t: t, pool: pool, server: s, http: srv, logs: logs, registry: registry}
	f.router = f.loadContract()
	return f
}

// loadContract reads the served document, as a client would, and builds a
// router over it that the response checks use.
func (f *fixture) loadContract() routers.Router {
	res, err := http.Get(f.http.URL + "/api/v1/doc/json")
	if err != nil {
		f.t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	doc, err := openapi3.NewLoader().LoadFromData(raw)
	if err != nil {
		f.t.Fatalf("served document does not load: %v", err)
	}
	if err := doc.Validate(context.Background()); err != nil {
		f.t.Fatalf("served document is invalid: %v", err)
	}
	doc.Servers = openapi3.Servers{{URL: f.http.URL}}
	router, err := gorillamux.NewRouter(doc)
	if err != nil {
		f.t.Fatal(err)
	}
	return router
}

type response struct {
	status int
	header http.Header
	body   []byte
}

// json decodes the body into a generic map.
func (r response) json(t *testing.T) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(r.body, &m); err != nil {
		t.Fatalf("body is not a JSON object: %v\n%s", err, r.body)
	}
	return m
}

// call is one request. key "" sends no Authorization header.
type call struct {
	method, path, key, body string
	header                  map[string]string
}

// do sends c and checks the answer against the contract: the status must be
// documented for the operation and the body must match its schema.
func (f *fixture) do(c call) response {
	f.t.Helper()
	var body io.Reader
	if c.body != "" {
		body = strings.NewReader(c.body)
	}
	req, err := http.NewRequest(c.method, f.http.URL+c.path, body)
	if err != nil {
		f.t.Fatal(err)
	}
	if c.key != "" {
		req.Header.Set("Authorization", "Bearer "+c.key)
	}
	if c.body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for k, v := range c.header {
		req.Header.Set(k, v)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		f.t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	f.checkContract(req, res, raw)
	return response{status: res.StatusCode, header: res.Header, body: raw}
}

func (f *fixture) checkContract(req *http.Request, res *http.Response, raw []byte) {
	f.t.Helper()
	route, pathParams, err := f.router.FindRoute(req)
	if err != nil {
		return // no operation: the 404/405 envelope is checked by the tests themselves
	}
	input := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: &openapi3filter.RequestValidationInput{
			Request: req, PathParams: pathParams, Route: route,
			Options: &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc},
		},
		Status: res.StatusCode,
		Header: res.Header,
		Options: &openapi3filter.Options{
			IncludeResponseStatus: true,
			MultiError:            true,
		},
	}
	input.SetBodyBytes(raw)
	if err := openapi3filter.ValidateResponse(context.Background(), input); err != nil {
		f.t.Errorf("%s %s answered %d outside the contract: %v\n%s", req.Method, req.URL.Path, res.StatusCode, err, raw)
	}
}

// Factories.

type member struct {
	userID uuid.UUID
	email  string
	key    string
	keyID  uuid.UUID
}

func (f *fixture) user() member {
	f.t.Helper()
	email := "user-" + uuid.NewString()[:8] + "@example.com"
	name := "Test User"
	id, err := oltp.CreateUser(context.Background(), f.pool, email, &name)
	if err != nil {
		f.t.Fatal(err)
	}
	return member{userID: id, email: email}
}

// org creates an organization owned by owner.
func (f *fixture) org(owner member, name string) uuid.UUID {
	f.t.Helper()
	id, err := oltp.CreateOrganization(context.Background(), f.pool, name, owner.email)
	if err != nil {
		f.t.Fatal(err)
	}
	return id
}

func (f *fixture) join(org uuid.UUID, m member, role sightline.Role, status sightline.MembershipStatus) {
	f.t.Helper()
	if err := oltp.SetMember(context.Background(), f.pool, org, m.email, role, status); err != nil {
		f.t.Fatal(err)
	}
}

// keyFor issues a key to m; orgs nil means all organizations.
func (f *fixture) keyFor(m member, orgs []uuid.UUID, caps ...sightline.Capability) member {
	f.t.Helper()
	k, err := oltp.CreateKey(context.Background(), f.pool, oltp.CreateKeyParams{
		UserEmail: m.email, Capabilities: caps, AllOrganizations: orgs == nil, OrganizationIDs: orgs,
	})
	if err != nil {
		f.t.Fatal(err)
	}
	m.key, m.keyID = k.Secret, k.ID
	return m
}

// owner makes a user with an organization and an all-capability key.
func (f *fixture) owner() (member, uuid.UUID) {
	f.t.Helper()
	m := f.user()
	org := f.org(m, "Acme "+uuid.NewString()[:6])
	return f.keyFor(m, nil, sightline.Capabilities...), org
}

// syncBuffer is a log sink safe for concurrent handlers.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// assertError checks the envelope of a refusal.
func assertError(t *testing.T, r response, status int, code sightline.Code) map[string]any {
	t.Helper()
	if r.status != status {
		t.Fatalf("status = %d, want %d; body %s", r.status, status, r.body)
	}
	m := r.json(t)
	if m["code"] != string(code) {
		t.Fatalf("code = %v, want %s; body %s", m["code"], code, r.body)
	}
	if _, err := uuid.Parse(m["requestId"].(string)); err != nil {
		t.Fatalf("requestId %v is not a uuid", m["requestId"])
	}
	if m["requestId"] != r.header.Get("X-Request-Id") {
		t.Fatalf("requestId %v differs from X-Request-Id %s", m["requestId"], r.header.Get("X-Request-Id"))
	}
	if msg, _ := m["message"].(string); msg == "" {
		t.Fatalf("no message in %s", r.body)
	}
	return m
}

// detailCodes returns field -> detail codes of a validation error.
func detailCodesOf(t *testing.T, m map[string]any) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	details, _ := m["details"].(map[string]any)
	for field, v := range details {
		for _, d := range v.([]any) {
			// An item's problem is listed under its field's name, its
			// message starting with the item's path: keyed here by the path.
			key := field
			if path, _, ok := strings.Cut(d.(map[string]any)["message"].(string), ": "); ok &&
				path != field && itemIndex.ReplaceAllString(path, "") == field {
				key = path
			}
			out[key] = append(out[key], d.(map[string]any)["code"].(string))
		}
	}
	return out
}

// project inserts an active project with a brand profile into org, straight
// into the store, for tests of operations under projects.
func (f *fixture) project(org uuid.UUID, name string) uuid.UUID {
	f.t.Helper()
	id := uuid.Must(uuid.NewV7())
	_, err := f.pool.Exec(context.Background(), `
		WITH p AS (INSERT INTO projects (id, organization_id, name) VALUES ($1, $2, $3) RETURNING id)
		INSERT INTO brand_profiles (project_id, id, website_domains, brand_names)
		SELECT id, $4, '{acme.com}', '{Acme}' FROM p`, id, org, name, uuid.Must(uuid.NewV7()))
	if err != nil {
		f.t.Fatal(err)
	}
	return id
}
