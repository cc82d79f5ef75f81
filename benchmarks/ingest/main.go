// Command ingest measures ingest into ClickHouse end to end, materialized
// views on: workers, as check workers do, take a run at a time and for each
// of its passes generate the capture with the deterministic simulator,
// extract it (ingest.PassRows) and write it through one shared olap.Writer,
// waiting until it is stored. It prints captures/s and rows/s, rows per
// capture table, how long a Write waited for its flush, and then checks that
// every capture table holds exactly the rows written (FINAL) and that the
// daily rollups counted them.
//
// The bulk path, as history loads (backfill, imports) take it, hands the
// writer hundreds of passes per Write and lets several flushes run at once:
//
//	go run ./benchmarks/ingest -passes 100000 -workers 8 -per-write 1000 -in-flight 4 -flush-rows 200000
//
// With -prepared every pass is generated and extracted before the clock
// starts (on every core), so the figures are the write path's alone: what
// an import of rows already extracted reaches.
//
// It works on a fresh database it creates and migrates on the server that
// -url (default $CLICKHOUSE_URL, else the project-local endpoint) names,
// loopback only, and drops it at the end.
//
//	go run ./benchmarks/ingest -passes 20000 -workers 32 -seed 1
//
// The passes are a project's mix: mostly AI engines (chatgpt 25%,
// perplexity 20%, google_ai_overview 20%, google_ai_mode 15%), some
// google_serp (12%) and google_shopping (8%), over -projects projects in
// five markets, two countries each, on the last 30 days, 1 to 3 passes a
// run. Everything but the run ids' timestamps and the days' dates is a pure
// function of -seed.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/url"
	"os"
	"os/signal"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"text/tabwriter"
	"time"

	"github.com/ClickHouse/clickhouse-go/v2/lib/driver"
	"github.com/google/uuid"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/sightline/sightline"
	"github.com/sightline/sightline/benchmarks/internal/measure"
	"github.com/sightline/sightline/ingest"
	"github.com/sightline/sightline/ingest/simulator"
	"github.com/sightline/sightline/olap"
	"github.com/sightline/sightline/progress"
	"github.com/sightline/sightline/schema"
)

// defaultURL is the project-local endpoint `make bench` starts.
const defaultURL = "http://127.0.0.1:18123/default"

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "ingest:", err)
		os.Exit(1)
	}
}

type options struct {
	url       string
	passes    int
	workers   int
	seed      uint64
	projects  int
	flushRows int
	inFlight  int
	perWrite  int
	prepared  bool
}

func run(ctx context.Context, args []string, out io.Writer) error {
	o := options{url: os.Getenv("CLICKHOUSE_URL")}
	if o.url == "" {
		o.url = defaultURL
	}
	fs := flag.NewFlagSet("ingest", flag.ContinueOnError)
	fs.StringVar(&o.url, "url", o.url, "ClickHouse server (loopback only) to create the benchmark database on; its database is ignored")
	fs.IntVar(&o.passes, "passes", 20_000, "passes (captures) to ingest")
	fs.IntVar(&o.workers, "workers", 32, "concurrent workers, each writing one pass at a time and waiting until it is stored")
	fs.Uint64Var(&o.seed, "seed", 1, "seed of the workload and of the simulator")
	fs.IntVar(&o.projects, "projects", 20, "projects the passes belong to")
	fs.IntVar(&o.flushRows, "flush-rows", 50_000, "olap.WriterOptions.FlushRows: a batch closes once a table holds this many rows")
	fs.IntVar(&o.inFlight, "in-flight", 1, "olap.WriterOptions.MaxInFlight: flushes at once (the bulk path for history takes several)")
	fs.IntVar(&o.perWrite, "per-write", 1, "passes a worker hands the writer in one Write (the bulk path hands hundreds)")
	fs.BoolVar(&o.prepared, "prepared", false, "generate and extract every pass before timing, so only the writes are timed")
	if err := fs.Parse(args); err != nil {
		return err
	}
	switch {
	case o.passes < 1 || o.passes > 2_000_000:
		return errors.New("-passes must be within [1, 2000000]")
	case o.workers < 1 || o.workers > 10_000:
		return errors.New("-workers must be within [1, 10000]")
	case o.projects < 1 || o.projects > 10_000:
		return errors.New("-projects must be within [1, 10000]")
	case o.flushRows < 1:
		return errors.New("-flush-rows must be positive")
	case o.inFlight < 1 || o.inFlight > 64:
		return errors.New("-in-flight must be within [1, 64]")
	case o.perWrite < 1 || o.perWrite > 100_000:
		return errors.New("-per-write must be within [1, 100000]")
	}

	dbURL, drop, err := createDatabase(ctx, o.url)
	if err != nil {
		return err
	}
	defer func() {
		if err := drop(); err != nil {
			fmt.Fprintln(os.Stderr, "ingest:", err)
		}
	}()
	conn, err := olap.Connect(ctx, dbURL, nil)
	if err != nil {
		return err
	}
	defer conn.Close()

	w := newWorkload(o.seed, o.projects, o.passes)
	fmt.Fprintf(out, "machine      %d cores, load average %s\n", runtime.NumCPU(), measure.LoadAverage())
	fmt.Fprintf(out, "workload     %d passes in %d runs over %d projects, %d workers writing %d passes at a time, "+
		"batches of at most %d rows a table, %d flushes in flight\n",
		o.passes, len(w.runs), o.projects, o.workers, o.perWrite, o.flushRows, o.inFlight)

	registry := prometheus.NewRegistry()
	writer := olap.NewWriter(conn, olap.WriterOptions{FlushRows: o.flushRows, MaxInFlight: o.inFlight, Registerer: registry})
	sim := simulator.New(o.seed)
	var prepared [][]olap.PassRows
	if o.prepared {
		start := time.Now()
		prepared = prepareAll(w, sim)
		fmt.Fprintf(out, "prepared     every pass generated and extracted in %.1fs, before the clock: "+
			"the figures below are the writes alone\n", time.Since(start).Seconds())
	}
	bar := progress.New(os.Stderr, int64(o.passes), "ingest").Units("passes")
	res, err := ingestAll(ctx, w, prepared, writer, sim, o.workers, o.perWrite, bar)
	bar.Finish()
	if cerr := writer.Close(context.Background()); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	res.elapsed = time.Since(res.start)
	if err := report(out, res, registry); err != nil {
		return err
	}
	return verify(ctx, out, conn, res.rows)
}

// createDatabase creates and migrates a database of its own on the server
// and returns its URL and how to drop it.
func createDatabase(ctx context.Context, server string) (string, func() error, error) {
	u, err := url.Parse(server)
	if err != nil || u.Host == "" {
		return "", nil, fmt.Errorf("-url must be an absolute URL, got %q", server)
	}
	if host := u.Hostname(); host != "localhost" {
		if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
			return "", nil, fmt.Errorf("refusing %s: only loopback servers are allowed", host)
		}
	}
	admin, err := olap.Connect(ctx, server, nil)
	if err != nil {
		return "", nil, err
	}
	name := fmt.Sprintf("bench_ingest_%012x", rand.Uint64()>>16)
	if err := admin.Exec(ctx, "CREATE DATABASE "+name); err != nil {
		admin.Close()
		return "", nil, fmt.Errorf("creating database %s: %w", name, err)
	}
	drop := func() error {
		defer admin.Close()
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		// Plain DROP: DROP ... SYNC hangs on the embedded engine.
		if err := admin.Exec(ctx, "DROP DATABASE IF EXISTS "+name); err != nil {
			return fmt.Errorf("dropping database %s: %w", name, err)
		}
		return nil
	}
	u.Path = "/" + name
	db, err := olap.OpenDB(u.String())
	if err == nil {
		_, err = schema.MigrateClickHouse(ctx, db)
		db.Close()
	}
	if err != nil {
		return "", nil, errors.Join(fmt.Errorf("migrating %s: %w", name, err), drop())
	}
	return u.String(), drop, nil
}

// The workload.

// engineMix is the share of passes per engine, in percent.
var engineMix = []struct {
	engine sightline.Engine
	weight int
}{
	{sightline.EngineChatGPT, 25}, {sightline.EnginePerplexity, 20}, {sightline.EngineGoogleAIOverview, 20},
	{sightline.EngineGoogleAIMode, 15}, {sightline.EngineGoogleSERP, 12}, {sightline.EngineGoogleShopping, 8},
}

type market struct {
	own         ingest.Brand
	competitors []ingest.Competitor // ids are set per project
	countries   []string
	locale      string
	queries     []string
}

func brand(names []string, domains ...string) ingest.Brand {
	return ingest.Brand{Names: names, Domains: domains}
}

func rival(name string, names []string, domains ...string) ingest.Competitor {
	return ingest.Competitor{Name: name, Brand: brand(names, domains...)}
}

var markets = []market{
	{
		own: brand([]string{"Brightdesk", "Bright Desk"}, "brightdesk.com"),
		competitors: []ingest.Competitor{rival("Close", []string{"Close CRM"}, "close.com"),
			rival("Pipeworks", nil, "pipeworks.io"), rival("Hale & Moss", []string{"HaleMoss"}, "halemoss.com"),
			rival("Nimble", nil, "nimble.com")},
		countries: []string{"US", "GB"}, locale: "en",
		queries: []string{"best crm for small business", "crm with email automation", "close crm alternatives",
			"brightdesk vs pipeworks", "what is the best sales pipeline tool?", "crm for real estate agents"},
	},
	{
		own: brand([]string{"Stridewell"}, "stridewell.com", "stridewell.co.uk"),
		competitors: []ingest.Competitor{rival("Asphalt Athletics", nil, "asphaltathletics.com"),
			rival("Koa Running", nil, "koarunning.com"), rival("Trail & Tarmac", nil, "trailandtarmac.co.uk"),
			rival("Peak", []string{"Peak Footwear"}, "peakfootwear.com"), rival("Fleetfoot", nil, "fleetfoot.com")},
		countries: []string{"US", "GB"}, locale: "en",
		queries: []string{"best running shoes for flat feet", "trail running shoes for beginners",
			"cushioned running shoes for a marathon", "cheapest running shoes", "running shoes for wide feet"},
	},
	{
		own: brand([]string{"Tunnelfox", "TunnelFox VPN"}, "tunnelfox.net", "tunnelfox.com"),
		competitors: []ingest.Competitor{rival("Shieldly", nil, "shieldly.io"),
			rival("Nord Harbor", nil, "nordharbor.com"), rival("Veil", []string{"Veil VPN"}, "veil.app")},
		countries: []string{"DE", "US"}, locale: "de",
		queries: []string{"best vpn for streaming", "fastest vpn for gaming", "cheap vpn with no logs", "vpn for travel"},
	},
	{
		own: brand([]string{"Ledgerline", "Ledgerline Books"}, "ledgerline.com"),
		competitors: []ingest.Competitor{rival("Sumwise", nil, "sumwise.com"),
			rival("Tally & Co", nil, "tallyandco.com"), rival("Brixton Accounts", nil, "brixtonaccounts.co.uk"),
			rival("Countwell", nil, "countwell.io")},
		countries: []string{"GB", "CA"}, locale: "en",
		queries: []string{"accounting software for freelancers", "best invoicing app for small business",
			"bookkeeping software with bank feeds", "payroll software for startups"},
	},
	{
		own: brand([]string{"Forkful"}, "forkful.com"),
		competitors: []ingest.Competitor{rival("Greenbasket", nil, "greenbasket.com"),
			rival("Chef's Crate", []string{"Chefs Crate"}, "chefscrate.com"), rival("Melange Meals", nil, "melangemeals.com")},
		countries: []string{"US", "FR"}, locale: "en",
		queries: []string{"best meal kit for families", "cheapest meal kit delivery", "vegetarian meal kit subscription"},
	},
}

type project struct {
	organizationID, id uuid.UUID
	market             *market
	brands             ingest.Brands
}

// runSpec is one check run: a tracked query on a day, with its passes.
type runSpec struct {
	project        *project
	trackedQueryID uuid.UUID
	queryText      string
	engine         sightline.Engine
	country        string
	id             uuid.UUID
	day            time.Time
	passes         int
}

type workload struct {
	runs []runSpec
}

// newWorkload draws runs until they hold exactly passes passes.
func newWorkload(seed uint64, projects, passes int) workload {
	rng := rand.New(rand.NewPCG(seed, 0x1ea57))
	id := func() uuid.UUID {
		var u uuid.UUID
		for i := range 2 {
			v := rng.Uint64()
			for j := range 8 {
				u[8*i+j] = byte(v >> (8 * j))
			}
		}
		u[6] = u[6]&0x0f | 0x40
		u[8] = u[8]&0x3f | 0x80
		return u
	}
	ps := make([]project, projects)
	for i := range ps {
		m := &markets[i%len(markets)]
		p := project{organizationID: id(), id: id(), market: m, brands: ingest.Brands{Own: m.own}}
		for _, c := range m.competitors {
			c.ID = uuid.NewSHA1(p.id, []byte(c.Name))
			p.brands.Competitors = append(p.brands.Competitors, c)
		}
		ps[i] = p
	}
	today := time.Now().UTC().Truncate(24 * time.Hour)
	var w workload
	for left := passes; left > 0; {
		p := &ps[rng.IntN(len(ps))]
		text := p.market.queries[rng.IntN(len(p.market.queries))]
		country := p.market.countries[rng.IntN(len(p.market.countries))]
		engine := pickEngine(rng.IntN(100))
		tq := uuid.NewSHA1(p.id, []byte(text+"|"+string(engine)+"|"+country))
		n := min(1+int(tq[15]%3), left) // the tracked query's nPasses
		w.runs = append(w.runs, runSpec{project: p, trackedQueryID: tq, queryText: text, engine: engine,
			country: country, id: id(), day: today.AddDate(0, 0, -1-rng.IntN(30)), passes: n})
		left -= n
	}
	return w
}

func pickEngine(n int) sightline.Engine {
	for _, e := range engineMix {
		if n < e.weight {
			return e.engine
		}
		n -= e.weight
	}
	panic("engine weights do not sum to 100")
}

// Ingest.

// Capture tables in the writer's order.
var tables = []string{"ai_answers", "mentions", "citations", "search_results", "shopping_offers", "rank_rows"}

// counts is rows per capture table (by index of tables), then the resolved
// citations, which cited_sources_daily counts.
type counts [7]int64

const resolvedCitations = 6

// tableRows counts a pass's rows per table. rank_rows holds the own row and
// one row per tracked competitor the pass shows (a mention, a resolved
// citation, a search result or an offer), as olap derives them; verify
// compares every count with what the tables hold.
func tableRows(r olap.PassRows) counts {
	var n counts
	if r.Engine.AI() {
		n[0] = 1
	}
	n[1], n[2] = int64(len(r.Mentions)), int64(len(r.Citations))
	n[3], n[4] = int64(len(r.SearchResults)), int64(len(r.ShoppingOffers))
	competitors := map[uuid.UUID]bool{}
	add := func(rel sightline.Relation, id *uuid.UUID) {
		if rel == sightline.RelationTrackedCompetitor && id != nil {
			competitors[*id] = true
		}
	}
	for _, m := range r.Mentions {
		add(m.Relation, m.CompetitorID)
	}
	for _, c := range r.Citations {
		if !c.Unresolved {
			n[resolvedCitations]++
			add(c.Relation, c.CompetitorID)
		}
	}
	for _, s := range r.SearchResults {
		add(s.Relation, s.CompetitorID)
	}
	for _, o := range r.ShoppingOffers {
		add(o.Relation, o.CompetitorID)
	}
	n[5] = 1 + int64(len(competitors))
	return n
}

type result struct {
	start     time.Time
	elapsed   time.Duration
	passes    int64
	byEngine  map[sightline.Engine]int64
	rows      counts
	prepare   time.Duration   // generating and extracting, summed over workers
	waits     []time.Duration // per Write: until stored
	waitTotal time.Duration
}

// passRows generates and extracts the passes of run r, as a check worker
// does.
func passRows(sim *simulator.Simulator, r runSpec) []olap.PassRows {
	rows := make([]olap.PassRows, 0, r.passes)
	var capturedAt time.Time
	for pass := range r.passes {
		capture, _ := sim.Generate(ingest.Request{TrackedQueryID: r.trackedQueryID, QueryText: r.queryText,
			Engine: r.engine, Country: r.country, Locale: r.project.market.locale, PassIndex: pass,
			PassCount: r.passes, Day: r.day, Brands: r.project.brands})
		if pass == 0 {
			capturedAt = capture.CapturedAt // the run's capture time, as the check worker keeps it
		}
		pr := ingest.PassRows(olap.Pass{
			OrganizationID: r.project.organizationID, ProjectID: r.project.id, TrackedQueryID: r.trackedQueryID,
			RunID: r.id, PassIndex: uint8(pass), PassCount: uint8(r.passes), Engine: r.engine,
			Country: r.country, Locale: r.project.market.locale, QueryText: r.queryText, CapturedAt: capturedAt,
		}, capture, r.project.brands)
		pr.Fresh = true // first attempts of new runs, as most checks are
		rows = append(rows, pr)
	}
	return rows
}

// prepareAll generates and extracts every run's passes on every core.
func prepareAll(w workload, sim *simulator.Simulator) [][]olap.PassRows {
	prepared := make([][]olap.PassRows, len(w.runs))
	var (
		next atomic.Int64
		wg   sync.WaitGroup
	)
	for range runtime.NumCPU() {
		wg.Go(func() {
			for i := int(next.Add(1)) - 1; i < len(w.runs); i = int(next.Add(1)) - 1 {
				prepared[i] = passRows(sim, w.runs[i])
			}
		})
	}
	wg.Wait()
	return prepared
}

// ingestAll runs the workload's runs on workers and returns what they
// wrote; with prepared (by run) they write those rows instead of
// generating them.
func ingestAll(ctx context.Context, w workload, prepared [][]olap.PassRows, writer *olap.Writer, sim *simulator.Simulator,
	workers, perWrite int, bar *progress.Bar) (*result, error) {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	res := &result{byEngine: map[sightline.Engine]int64{}, start: time.Now()}
	var (
		next atomic.Int64
		mu   sync.Mutex
		wg   sync.WaitGroup
	)
	for range workers {
		wg.Go(func() {
			var (
				rows             counts
				passes           int64
				byEngine         = map[sightline.Engine]int64{}
				prepare, waitSum time.Duration
				waits            []time.Duration
				batch            []olap.PassRows
			)
			// write hands the batch to the writer and waits until it is stored.
			write := func() bool {
				if len(batch) == 0 {
					return true
				}
				t1 := time.Now()
				if err := writer.Write(ctx, batch...); err != nil {
					cancel(fmt.Errorf("writing %d passes: %w", len(batch), err))
					return false
				}
				wait := time.Since(t1)
				waitSum += wait
				waits = append(waits, wait)
				for _, pr := range batch {
					for t, n := range tableRows(pr) {
						rows[t] += n
					}
					passes++
					byEngine[pr.Engine]++
				}
				bar.Add(len(batch))
				batch = batch[:0]
				return true
			}
			for ctx.Err() == nil {
				i := int(next.Add(1)) - 1
				if i >= len(w.runs) {
					break
				}
				if prepared != nil {
					batch = append(batch, prepared[i]...)
				} else {
					t0 := time.Now()
					batch = append(batch, passRows(sim, w.runs[i])...)
					prepare += time.Since(t0)
				}
				if len(batch) >= perWrite && !write() {
					break
				}
			}
			if ctx.Err() == nil {
				write()
			}
			mu.Lock()
			defer mu.Unlock()
			for t := range rows {
				res.rows[t] += rows[t]
			}
			res.passes += passes
			for e, n := range byEngine {
				res.byEngine[e] += n
			}
			res.prepare += prepare
			res.waitTotal += waitSum
			res.waits = append(res.waits, waits...)
		})
	}
	wg.Wait()
	if err := context.Cause(ctx); err != nil {
		return nil, err
	}
	return res, nil
}

// Reporting.

func report(out io.Writer, r *result, registry *prometheus.Registry) error {
	secs := r.elapsed.Seconds()
	var total int64
	for _, n := range r.rows[:len(tables)] {
		total += n
	}
	var mix []string
	for _, e := range engineMix {
		mix = append(mix, fmt.Sprintf("%s %d", e.engine, r.byEngine[e.engine]))
	}
	fmt.Fprintf(out, "engines      %s\n", strings.Join(mix, ", "))
	fmt.Fprintf(out, "ingested     %d captures, %d rows in %.2fs (load average after: %s)\n", r.passes, total, secs, measure.LoadAverage())
	fmt.Fprintf(out, "throughput   %.0f captures/s, %.0f rows/s\n", float64(r.passes)/secs, float64(total)/secs)
	slices.Sort(r.waits)
	fmt.Fprintf(out, "write wait   p50 %s  p90 %s  p99 %s  max %s (per Write, until stored)\n",
		measure.Round(measure.Quantile(r.waits, 0.5)), measure.Round(measure.Quantile(r.waits, 0.9)), measure.Round(measure.Quantile(r.waits, 0.99)), measure.Round(r.waits[len(r.waits)-1]))
	busy := r.prepare + r.waitTotal
	fmt.Fprintf(out, "worker time  %.0f%% generating and extracting, %.0f%% waiting for flushes\n",
		100*r.prepare.Seconds()/busy.Seconds(), 100*r.waitTotal.Seconds()/busy.Seconds())
	flushes, flushSeconds, retries, err := writerFigures(registry)
	if err != nil {
		return err
	}
	if flushes > 0 {
		fmt.Fprintf(out, "flushes      %.0f (%.0f captures each, %s mean), %.0f retried attempts\n",
			flushes, float64(r.passes)/flushes, measure.Round(time.Duration(flushSeconds/flushes*float64(time.Second))), retries)
	}
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "table\trows\trows/s\tper capture\t")
	for t, name := range tables {
		fmt.Fprintf(tw, "%s\t%d\t%.0f\t%.2f\t\n", name, r.rows[t], float64(r.rows[t])/secs, float64(r.rows[t])/float64(r.passes))
	}
	fmt.Fprintf(tw, "total\t%d\t%.0f\t%.2f\t\n", total, float64(total)/secs, float64(total)/float64(r.passes))
	return tw.Flush()
}

// writerFigures reads the writer's metrics: flushes stored, their summed
// duration, and retried attempts.
func writerFigures(registry *prometheus.Registry) (flushes, seconds, retries float64, err error) {
	families, err := registry.Gather()
	if err != nil {
		return 0, 0, 0, fmt.Errorf("reading writer metrics: %w", err)
	}
	for _, f := range families {
		for _, m := range f.GetMetric() {
			switch f.GetName() {
			case "sightline_olap_writer_flushes_total":
				for _, l := range m.GetLabel() {
					if l.GetName() == "outcome" && l.GetValue() == "stored" {
						flushes = m.GetCounter().GetValue()
					}
				}
			case "sightline_olap_writer_flush_seconds":
				seconds = m.GetHistogram().GetSampleSum()
			case "sightline_olap_writer_retries_total":
				retries = m.GetCounter().GetValue()
			}
		}
	}
	return flushes, seconds, retries, nil
}

// verify compares what every capture table holds (FINAL) with what was
// written, and the rollups' counts with their sources.
func verify(ctx context.Context, out io.Writer, conn driver.Conn, written counts) error {
	var bad []string
	fmt.Fprint(out, "verified    ")
	for t, name := range tables {
		n, err := count(ctx, conn, "SELECT count() FROM "+name+" FINAL")
		if err != nil {
			return err
		}
		fmt.Fprintf(out, " %s %d", name, n)
		if n != written[t] {
			bad = append(bad, fmt.Sprintf("%s holds %d rows, %d were written", name, n, written[t]))
		}
	}
	fmt.Fprintln(out)
	// Each rollup counts its source's rows once per insert (cited sources:
	// the resolved citations only): its sum equals the rows written when
	// every insert reached its view exactly once.
	rollups := []struct {
		name, query string
		want        int64
	}{
		{"mentions_daily.mentions", "SELECT sum(mentions) FROM mentions_daily", written[1]},
		{"cited_sources_daily.citations", "SELECT sum(citations) FROM cited_sources_daily", written[resolvedCitations]},
		{"ranks_daily.passes", "SELECT sum(passes) FROM ranks_daily", written[5]},
	}
	fmt.Fprint(out, "rollups     ")
	for _, r := range rollups {
		n, err := count(ctx, conn, r.query)
		if err != nil {
			return err
		}
		fmt.Fprintf(out, " %s %d", r.name, n)
		if n != r.want {
			bad = append(bad, fmt.Sprintf("%s is %d, want %d", r.name, n, r.want))
		}
	}
	fmt.Fprintln(out)
	if len(bad) > 0 {
		return fmt.Errorf("stored rows differ from the written ones: %s", strings.Join(bad, "; "))
	}
	fmt.Fprintln(out, "check        every table holds exactly the rows written; the rollups counted each once")
	return nil
}

func count(ctx context.Context, conn driver.Conn, query string) (int64, error) {
	var n uint64
	if err := conn.QueryRow(ctx, query).Scan(&n); err != nil {
		return 0, fmt.Errorf("%s: %w", query, err)
	}
	return int64(n), nil
}
