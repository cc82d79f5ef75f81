package main

import (
	"bufio"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/sightline/sightline"
	"github.com/sightline/sightline/benchmarks/internal/drive"
	"github.com/sightline/sightline/benchmarks/internal/measure"
)

// The load phase: every operation of spec 4.3 through the HTTP API of a
// `sightline serve` on the bench databases, one operation at a time.

// operation is one 4.3 operation and how the mix calls it.
type operation struct {
	name string
	// template is the operation's path in the API document.
	template string
	// path is the operation's path for project p.
	path func(m *mix, p int) string
	// query is one request's parameters for project p.
	query func(m *mix, p int) url.Values
}

// mix draws the windows and filters of requests. Windows: 7 days 30%, 30
// days 35%, 90 days 20%, 16 months 15% (from the day after the retention
// floor, so that the floor moving at midnight during a run cannot refuse
// it), all ending yesterday.
type mix struct {
	rng *rand.Rand
	b   *bench
}

type window struct {
	name     string
	from, to time.Time
}

func (b *bench) windows() []window {
	yesterday := b.today.AddDate(0, 0, -1)
	days := func(n int) window {
		return window{fmt.Sprintf("%dd", n), yesterday.AddDate(0, 0, -(n - 1)), yesterday}
	}
	return []window{days(7), days(30), days(90), {"16mo", retentionFloor(b.today).AddDate(0, 0, 1), yesterday}}
}

// retentionFloor is the API's: the day 16 months before today (UTC),
// clipped to the end of a shorter month.
func retentionFloor(today time.Time) time.Time {
	y, m, d := today.Date()
	first := time.Date(y, m-16, 1, 0, 0, 0, 0, time.UTC)
	last := first.AddDate(0, 1, -1).Day()
	return time.Date(first.Year(), first.Month(), min(d, last), 0, 0, 0, 0, time.UTC)
}

var windowWeights = []int{30, 35, 20, 15}

func (m *mix) window() window {
	ws := m.b.windows()
	n := m.rng.IntN(100)
	for i, w := range windowWeights {
		if n < w {
			return ws[i]
		}
		n -= w
	}
	return ws[len(ws)-1]
}

func (m *mix) chance(percent int) bool { return m.rng.IntN(100) < percent }

func (m *mix) pick(values ...string) string { return values[m.rng.IntN(len(values))] }

// dates sets dateFrom and dateTo and returns the window.
func (m *mix) dates(q url.Values) window {
	w := m.window()
	q.Set("dateFrom", w.from.Format(time.DateOnly))
	q.Set("dateTo", w.to.Format(time.DateOnly))
	return w
}

// engines: 25% of requests name one to three engines.
func (m *mix) engines(q url.Values) {
	if !m.chance(25) {
		return
	}
	es := slices.Clone(sightline.Engines)
	m.rng.Shuffle(len(es), func(i, j int) { es[i], es[j] = es[j], es[i] })
	names := make([]string, 1+m.rng.IntN(3))
	for i := range names {
		names[i] = string(es[i])
	}
	q.Set("engines", strings.Join(names, ","))
}

var countryNames = map[string]string{"US": "United States", "GB": "United Kingdom", "CA": "Canada", "AU": "Australia",
	"DE": "Germany", "FR": "France", "IE": "Ireland", "NL": "Netherlands"}

// countries: 20% of requests name one of the project's countries, by code
// or, one time in three, by English name.
func (m *mix) countries(q url.Values, p int) {
	if !m.chance(20) {
		return
	}
	c := markets[p%len(markets)].countries[m.rng.IntN(3)]
	if name, ok := countryNames[c]; ok && m.chance(33) {
		c = name
	}
	q.Set("countries", c)
}

// clusters: 20% of requests name one or two clusters, a third of those
// with includeUngroupedQueries.
func (m *mix) clusters(q url.Values, p int) {
	if !m.chance(20) {
		return
	}
	cs := m.b.data.clusters[p]
	ids := []string{cs[m.rng.IntN(len(cs))].id.String()}
	if m.chance(30) {
		ids = append(ids, cs[m.rng.IntN(len(cs))].id.String())
	}
	q.Set("queryClusterIds", strings.Join(ids, ","))
	if m.chance(33) {
		q.Set("includeUngroupedQueries", "true")
	}
}

func (m *mix) competitor(p int) string {
	return competitorID(p, m.rng.IntN(len(markets[p%len(markets)].competitors))).String()
}

func (m *mix) competitors(p int) string {
	n := len(markets[p%len(markets)].competitors)
	var ids []string
	for j := range n {
		if m.rng.IntN(n) < 2 {
			ids = append(ids, competitorID(p, j).String())
		}
	}
	if len(ids) == 0 {
		ids = append(ids, competitorID(p, 0).String())
	}
	return strings.Join(ids, ",")
}

// page sets limit and offset: mostly the first page of 20.
func (m *mix) page(q url.Values) {
	switch n := m.rng.IntN(100); {
	case n < 15:
		q.Set("limit", "100")
	case n < 30:
		q.Set("offset", "20")
	}
}

// granularity fits the window as a dashboard would: days for short
// windows, weeks or months for long ones.
func (m *mix) granularity(q url.Values, w window) {
	switch w.name {
	case "7d", "30d":
		if m.chance(20) {
			q.Set("granularity", "weekly")
		}
	case "90d":
		q.Set("granularity", m.pick("daily", "weekly", "weekly"))
	default:
		q.Set("granularity", m.pick("weekly", "monthly", "monthly"))
	}
}

func (b *bench) orgPath() string { return "/api/v1/organizations/" + b.access.organization.String() }

func (b *bench) projectPath(p int) string { return b.orgPath() + "/projects/" + projectID(p).String() }

const projectTemplate = "/api/v1/organizations/{organizationId}/projects/{projectId}"

func projectOp(suffix string, query func(m *mix, p int) url.Values) operation {
	return operation{name: "GET " + suffix, template: projectTemplate + suffix,
		path: func(m *mix, p int) string { return m.b.projectPath(p) + suffix }, query: query}
}

func none(*mix, int) url.Values { return url.Values{} }

// operations are the 15 operations of 4.3 the issue asks for, and
// coverage, the 16th, already served.
func operations() []operation {
	return []operation{
		{name: "GET /api/v1/metric-glossary", template: "/api/v1/metric-glossary", path: func(*mix, int) string { return "/api/v1/metric-glossary" }, query: none},
		{name: "GET /organizations/{id}/overview", template: "/api/v1/organizations/{organizationId}/overview", path: func(m *mix, _ int) string { return m.b.orgPath() + "/overview" }, query: none},
		projectOp("/available-filters", none),
		projectOp("/cited-sources", func(m *mix, _ int) url.Values {
			q := url.Values{}
			m.dates(q)
			m.engines(q)
			q.Set("groupBy", m.pick("domain", "domain", "page"))
			m.page(q)
			return q
		}),
		projectOp("/competitors/co-occurrence", func(m *mix, p int) url.Values {
			q := windowed(m, p)
			if m.chance(30) {
				q.Set("competitorId", m.competitor(p))
			}
			return q
		}),
		projectOp("/keyword-listings", func(m *mix, p int) url.Values {
			q := filtered(m, p)
			if m.chance(10) {
				q.Set("status", m.pick("active", "paused"))
			}
			if m.chance(5) {
				q.Set("checkFrequencies", "daily")
			}
			if m.chance(5) {
				q.Set("nPasses", "1")
			}
			if m.chance(15) {
				q.Set("search", m.pick("best", "for", strings.Fields(markets[p%len(markets)].terms[0])[0]))
			}
			if m.chance(70) {
				q.Set("sortBy", m.pick("keyword", "variantCount", "lastCheckedAt", "statusSummary", "positivityIndex", "shareOfVoice",
					"avgMentionPosition", "avgLinkPosition", "mentionPositionStability", "avgSerpPosition", "avgShoppingPosition"))
				q.Set("sortOrder", m.pick("asc", "desc"))
			}
			m.page(q)
			return q
		}),
		projectOp("/mentions", func(m *mix, p int) url.Values {
			q := windowed(m, p)
			if m.chance(20) {
				q.Set("sentiment", m.pick("positive", "neutral", "negative"))
			}
			if m.chance(15) {
				q.Set("mentionType", m.pick("recommendation", "comparison", "listing", "example", "reference"))
			}
			if m.chance(25) {
				q.Set("competitorId", m.competitor(p))
			}
			if m.chance(60) {
				q.Set("sortBy", m.pick("recent", "negative", "engine", "country"))
			}
			m.page(q)
			return q
		}),
		projectOp("/mentions/mix", windowed),
		projectOp("/metrics", filtered),
		projectOp("/metrics/clusters", func(m *mix, p int) url.Values {
			q := filtered(m, p)
			if !q.Has("queryClusterIds") && m.chance(10) {
				q.Set("includeUngroupedQueries", "true") // alone: only the ungrouped bucket
			}
			return q
		}),
		projectOp("/metrics/movers", func(m *mix, p int) url.Values {
			q := windowed(m, p)
			if m.chance(60) {
				q.Set("sortBy", m.pick("trend_serp", "trend_shopping", "trend_mention", "trend_link", "trend_share_of_voice"))
			}
			if m.chance(40) {
				q.Set("sortOrder", "asc")
			}
			m.page(q)
			return q
		}),
		projectOp("/metrics/share-of-voice-formula", none),
		projectOp("/sentiment", filtered),
		projectOp("/timeseries", func(m *mix, p int) url.Values {
			q := url.Values{}
			w := m.dates(q)
			m.granularity(q, w)
			m.engines(q)
			m.countries(q, p)
			m.clusters(q, p)
			if m.chance(50) {
				q.Set("competitorIds", m.competitors(p))
			}
			return q
		}),
		{name: "GET /tracked-queries/{id}/timeseries", template: projectTemplate + "/tracked-queries/{trackedQueryId}/timeseries", path: func(m *mix, p int) string {
			q := p*m.b.data.perProject + m.rng.IntN(m.b.data.perProject)
			return m.b.projectPath(p) + "/tracked-queries/" + benchID(kindTrackedQuery, p, q).String() + "/timeseries"
		}, query: func(m *mix, p int) url.Values {
			q := url.Values{}
			w := m.dates(q)
			m.granularity(q, w)
			if m.chance(50) {
				q.Set("competitorIds", m.competitors(p))
			}
			return q
		}},
		projectOp("/coverage", none),
	}
}

// windowed: a window, engines and countries.
func windowed(m *mix, p int) url.Values {
	q := url.Values{}
	m.dates(q)
	m.engines(q)
	m.countries(q, p)
	return q
}

// filtered: a window, engines, countries and clusters.
func filtered(m *mix, p int) url.Values {
	q := windowed(m, p)
	m.clusters(q, p)
	return q
}

// server is a running `sightline serve`.
type server struct {
	cmd         *exec.Cmd
	base        string // the API
	metricsBase string // its /metrics listener
	done        chan error
}

// startServer starts the API on the bench databases with rate limits
// raised, so that the pipeline's cost is measured and not its refusals.
func (b *bench) startServer(ctx context.Context) (*server, error) {
	if _, err := os.Stat(b.o.sightline); err != nil {
		return nil, fmt.Errorf("the sightline binary (build it: go build -o %s ./cmd/sightline): %w", b.o.sightline, err)
	}
	logPath := filepath.Join(".local", "log", "bench-analytics-serve.log")
	if err := os.MkdirAll(filepath.Dir(logPath), 0o755); err != nil {
		return nil, err
	}
	logFile, err := os.Create(logPath)
	if err != nil {
		return nil, err
	}
	listen := fmt.Sprintf("127.0.0.1:%d", b.o.port)
	// /metrics is served on its own listener, the port after the API's.
	metricsListen := fmt.Sprintf("127.0.0.1:%d", b.o.port+1)
	cmd := exec.Command(b.o.sightline, "serve")
	cmd.Env = append(os.Environ(), "DATABASE_URL="+b.pgURL, "CLICKHOUSE_URL="+b.chURL, "SIGHTLINE_LISTEN="+listen,
		"SIGHTLINE_METRICS_ADDR="+metricsListen,
		"SIGHTLINE_LOG_LEVEL=warn", "SIGHTLINE_RATE_LIMIT_USER=1000000000", "SIGHTLINE_RATE_LIMIT_KEY=1000000000")
	cmd.Stdout, cmd.Stderr = logFile, logFile
	if err := cmd.Start(); err != nil {
		logFile.Close()
		return nil, fmt.Errorf("starting sightline serve: %w", err)
	}
	s := &server{cmd: cmd, base: "http://" + listen, metricsBase: "http://" + metricsListen, done: make(chan error, 1)}
	go func() {
		s.done <- cmd.Wait()
		logFile.Close()
	}()
	deadline := time.Now().Add(20 * time.Second)
	for {
		res, err := http.Get(s.base + "/readyz")
		if err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				return s, nil
			}
		}
		select {
		case err := <-s.done:
			return nil, fmt.Errorf("sightline serve exited (%v); see %s", err, logPath)
		case <-ctx.Done():
			s.stop()
			return nil, ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			s.stop()
			return nil, fmt.Errorf("sightline serve not ready on %s after 20s; see %s", listen, logPath)
		}
	}
}

// stop ends the server it started: SIGTERM, then SIGKILL after 10s.
func (s *server) stop() {
	_ = s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-s.done:
	case <-time.After(10 * time.Second):
		_ = s.cmd.Process.Kill()
		<-s.done
	}
}

// documented are the paths the server's OpenAPI document has a GET for:
// a path another route happens to match (competitors/co-occurrence and
// GET competitors/{competitorId}) is no proof that an operation is served.
func (s *server) documented(client *http.Client) (map[string]bool, error) {
	res, err := client.Get(s.base + "/api/v1/doc/json")
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	var doc struct {
		Paths map[string]map[string]json.RawMessage `json:"paths"`
	}
	if err := json.NewDecoder(res.Body).Decode(&doc); err != nil {
		return nil, fmt.Errorf("reading the API document: %w", err)
	}
	out := map[string]bool{}
	for path, methods := range doc.Paths {
		if _, ok := methods["get"]; ok {
			out[path] = true
		}
	}
	return out, nil
}

// counters are the server's ClickHouse read counters.
type counters struct {
	queries, rows float64
}

func (s *server) counters(client *http.Client) (counters, error) {
	res, err := client.Get(s.metricsBase + "/metrics")
	if err != nil {
		return counters{}, err
	}
	defer res.Body.Close()
	var c counters
	found := 0
	sc := bufio.NewScanner(res.Body)
	for sc.Scan() {
		name, value, ok := strings.Cut(sc.Text(), " ")
		if !ok {
			continue
		}
		switch name {
		case "sightline_clickhouse_queries_total":
			c.queries, err = strconv.ParseFloat(value, 64)
			found++
		case "sightline_clickhouse_read_rows_total":
			c.rows, err = strconv.ParseFloat(value, 64)
			found++
		}
		if err != nil {
			return c, fmt.Errorf("reading /metrics: %w", err)
		}
	}
	if found != 2 {
		return c, errors.New("/metrics has no sightline_clickhouse_read_rows_total: is the binary built from this tree?")
	}
	return c, sc.Err()
}

// opResult is what one operation's measured load gave; every answer but
// a 200 is wrong.
type opResult struct {
	op        operation
	notServed string // why, when the operation answers 404
	drive.Result
	rows    float64
	queries float64
}

func (b *bench) load(ctx context.Context) error {
	srv, err := b.startServer(ctx)
	if err != nil {
		return err
	}
	defer srv.stop()
	c, err := drive.NewClient(srv.base, b.access.key, b.o.concurrency, 30*time.Second)
	if err != nil {
		return err
	}
	defer c.HTTP.CloseIdleConnections()

	fmt.Fprintf(b.out, "  sightline serve on %s (auth on, rate limits raised); %d requests in flight per operation, "+
		"%s warm-up then %s measured each, requests round-robin over the %d projects\n",
		srv.base, b.o.concurrency, b.o.warmup, b.o.duration, b.data.projects)
	fmt.Fprintf(b.out, "  mix: windows 7d 30%%, 30d 35%%, 90d 20%%, 16 months 15%% (dateFrom the day after the retention floor); "+
		"engines 25%%, countries 20%% (a third by name), clusters 20%% (a third with includeUngroupedQueries); "+
		"sortBy variants, competitor filters, pages and granularities per operation\n")
	fmt.Fprintf(b.out, "  %-38s %8s %9s %9s %9s %12s %9s  %s\n", "operation", "requests", "req/s", "p50 ms", "p99 ms",
		"rows read/req", "CH q/req", "errors")
	documented, err := srv.documented(c.HTTP)
	if err != nil {
		return err
	}
	var results []opResult
	for i, op := range operations() {
		if !documented[op.template] {
			r := opResult{op: op, notServed: "not in the API document"}
			results = append(results, r)
			b.printResult(r)
			continue
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		r, err := b.loadOp(ctx, srv, c, op, uint64(i))
		if err != nil {
			return err
		}
		results = append(results, r)
		b.printResult(r)
	}
	served, notServed, failing := 0, 0, 0
	for _, r := range results {
		right, _ := r.Counts()
		switch {
		case r.notServed != "":
			notServed++
		case len(r.Statuses) > 0 || r.Errors > 0 || right == 0:
			failing++
		default:
			served++
		}
	}
	fmt.Fprintf(b.out, "  %d operations served, %d not served, %d with errors; load average %s\n", served, notServed, failing, measure.LoadAverage())
	return nil
}

func (b *bench) printResult(r opResult) {
	if r.notServed != "" {
		fmt.Fprintf(b.out, "  %-38s not served (%s)\n", r.op.name, r.notServed)
		return
	}
	latencies := r.Sorted()
	n := len(latencies)
	errs := "-"
	if len(r.Statuses) > 0 || r.Errors > 0 {
		var parts []string
		for _, s := range slices.Sorted(maps.Keys(r.Statuses)) {
			parts = append(parts, fmt.Sprintf("%d x%d", s, r.Statuses[s]))
		}
		if r.Errors > 0 {
			parts = append(parts, fmt.Sprintf("transport x%d", r.Errors))
		}
		errs = strings.Join(parts, ", ") + "; first: " + cmp.Or(r.FirstWrong, r.FirstError)
	}
	if n == 0 {
		fmt.Fprintf(b.out, "  %-38s %8d %9s %9s %9s %12s %9s  %s\n", r.op.name, 0, "-", "-", "-", "-", "-", errs)
		return
	}
	fmt.Fprintf(b.out, "  %-38s %8d %9.1f %9.1f %9.1f %12.0f %9.1f  %s\n", r.op.name, n, float64(n)/r.Elapsed.Seconds(),
		ms(percentile(latencies, 0.50)), ms(percentile(latencies, 0.99)), r.rows/float64(n), r.queries/float64(n), errs)
}

// loadOp probes op once, then sends its warm-up and measured load.
func (b *bench) loadOp(ctx context.Context, srv *server, c *drive.Client, op operation, seed uint64) (opResult, error) {
	r := opResult{op: op}
	probe := &mix{rng: rand.New(rand.NewPCG(seed, 1)), b: b}
	reply, err := b.call(ctx, c, op, probe, 0)
	if err != nil {
		return r, fmt.Errorf("probing %s: %w", op.name, err)
	}
	if reply.Status == http.StatusNotFound {
		var e struct {
			Error struct {
				Code    string `json:"code"`
				Message string `json:"message"`
			} `json:"error"`
		}
		r.notServed = "404"
		if json.Unmarshal(reply.Body, &e) == nil && e.Error.Code != "" {
			r.notServed = "404 " + e.Error.Code
		}
		return r, nil
	}
	if b.o.warmup > 0 {
		b.phaseLoad(ctx, c, op, seed, b.o.warmup, 1<<40)
	}
	before, err := srv.counters(c.HTTP)
	if err != nil {
		return r, err
	}
	r.Result = b.phaseLoad(ctx, c, op, seed+1000, b.o.duration, b.o.maxRequests)
	after, err := srv.counters(c.HTTP)
	if err != nil {
		return r, err
	}
	r.rows, r.queries = after.rows-before.rows, after.queries-before.queries
	return r, nil
}

// phaseLoad sends op's requests from concurrency workers for d (or max
// requests), each worker round-robin over the projects. A request runs to
// its answer even when d ends meanwhile, so the read counters cover exactly
// the requests counted.
func (b *bench) phaseLoad(ctx context.Context, c *drive.Client, op operation, seed uint64,
	d time.Duration, maxRequests int64) drive.Result {
	return drive.Phase(ctx, d, b.o.concurrency, maxRequests, 1, func(w int) drive.SendFunc {
		m := &mix{rng: rand.New(rand.NewPCG(seed, uint64(w))), b: b}
		i := w
		return func(ctx context.Context) (drive.Answer, error) {
			r, err := b.call(context.WithoutCancel(ctx), c, op, m, i%b.data.projects)
			i += b.o.concurrency
			return r.Answer(0, r.Status == http.StatusOK), err
		}
	})
}

// call sends one request of op for project p and reads the whole answer.
func (b *bench) call(ctx context.Context, c *drive.Client, op operation, m *mix, p int) (drive.Reply, error) {
	path := op.path(m, p)
	if q := op.query(m, p).Encode(); q != "" {
		path += "?" + q
	}
	return c.Call(ctx, http.MethodGet, path, nil)
}
