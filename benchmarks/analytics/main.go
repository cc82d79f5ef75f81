// Command analytics benchmarks the analytics of spec 4.3 on dataset S and
// prints its figures. In order, each phase timed:
//
//  1. Fresh databases: a ClickHouse database and a Postgres database named
//     -database (recreated on every run, both migrated).
//  2. Dataset S in Postgres: an organization with its owner, a read key,
//     -projects projects with brand profile, competitors and clusters, and
//     -queries tracked queries each (memberships, listing projection).
//  3. Dataset S in ClickHouse, generated in the engine: each tracked query
//     checked daily for -days days ending yesterday on one of the six
//     engines (split evenly), with its mentions, citations, search results,
//     shopping offers, check results and rank rows, inserted with INSERT ...
//     SELECT over numbers() so that the materialized views fill the
//     rollups. Prints rows per table.
//  4. The same raw rank rows and mentions copied into plain Postgres tables
//     (COPY) with the indexes a Postgres-only tracker would have.
//  5. Load: `sightline serve` on the bench databases (auth on, rate limits
//     raised) and every 4.3 operation driven through the HTTP API, one
//     operation at a time with -concurrency requests in flight, over a mix
//     of windows (7 days, 30 days, 90 days, 16 months) and filters across
//     the projects. Per operation: requests/s, p50, p99, and the rows and
//     queries ClickHouse reported per request (the server's
//     sightline_clickhouse_* counters, read from /metrics before and after).
//     An operation that answers 404 is reported as not served.
//  6. Side by side: the headline figures (metrics, timeseries, movers,
//     keyword listings) computed from the rollups, from the raw ClickHouse
//     tables, and on Postgres from the copied raw rows, on the same windows,
//     warm, -reps times each (median), with both ratios and a check that
//     the three computations agree.
//
// The databases are dropped at the end unless -keep is set; -reuse runs
// phases 5 and 6 on the databases a -keep run left.
//
//	go run ./benchmarks/analytics -sightline .local/bin/sightline
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"os/signal"
	"runtime"
	"syscall"
	"time"

	"github.com/ClickHouse/clickhouse-go/v2/lib/driver"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/sightline/sightline/benchmarks/internal/measure"
	"github.com/sightline/sightline/olap"
	"github.com/sightline/sightline/oltp"
	"github.com/sightline/sightline/schema"
)

// Defaults: the project-local engines `make bench` starts.
const (
	defaultPostgresURL   = "postgres://postgres@127.0.0.1:54329/sightline?sslmode=disable"
	defaultClickHouseURL = "http://127.0.0.1:18123/default"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "analytics:", err)
		os.Exit(1)
	}
}

type options struct {
	postgresURL, clickhouseURL string
	database                   string
	sightline                  string
	port                       int
	projects, queries, days    int
	duration, warmup           time.Duration
	concurrency                int
	maxRequests                int64
	reps                       int
	keep, reuse                bool
	only                       string
}

func parseOptions(args []string) (options, error) {
	o := options{postgresURL: os.Getenv("DATABASE_URL"), clickhouseURL: os.Getenv("CLICKHOUSE_URL")}
	if o.postgresURL == "" {
		o.postgresURL = defaultPostgresURL
	}
	if o.clickhouseURL == "" {
		o.clickhouseURL = defaultClickHouseURL
	}
	fs := flag.NewFlagSet("analytics", flag.ContinueOnError)
	fs.StringVar(&o.postgresURL, "postgres", o.postgresURL, "Postgres server (loopback only); its database name is replaced by -database")
	fs.StringVar(&o.clickhouseURL, "clickhouse", o.clickhouseURL, "ClickHouse HTTP interface (loopback only); its database is replaced by -database")
	fs.StringVar(&o.database, "database", "sightline_bench_analytics", "name of the bench database on both servers, recreated on every run")
	fs.StringVar(&o.sightline, "sightline", ".local/bin/sightline", "the sightline binary to serve the API with")
	fs.IntVar(&o.port, "port", 18082, "loopback port the API listens on (its /metrics on the next one)")
	fs.IntVar(&o.projects, "projects", 10, "projects")
	fs.IntVar(&o.queries, "queries", 1000, "tracked queries per project (at most 1008)")
	fs.IntVar(&o.days, "days", 480, "days of daily checks, ending yesterday (the 16-month floor allows about 485)")
	fs.DurationVar(&o.duration, "duration", 8*time.Second, "measured load per operation (at most 2m)")
	fs.DurationVar(&o.warmup, "warmup", time.Second, "load per operation sent first and not measured")
	fs.IntVar(&o.concurrency, "concurrency", 8, "requests in flight")
	fs.Int64Var(&o.maxRequests, "max-requests", 200_000, "stop an operation's measured load after this many requests")
	fs.IntVar(&o.reps, "reps", 5, "timed repetitions of each side-by-side computation (the median is printed)")
	fs.BoolVar(&o.keep, "keep", false, "keep the bench databases at the end")
	fs.BoolVar(&o.reuse, "reuse", false, "use the databases a -keep run left instead of generating (phases 5 and 6 only; "+
		"they are dropped at the end unless -keep)")
	fs.StringVar(&o.only, "only", "", `"load" or "compare" runs one of phases 5 and 6; empty runs both`)
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	switch {
	case o.projects < 1 || o.projects > 100:
		return o, errors.New("-projects must be within [1, 100]")
	case o.queries < 6 || o.queries > 1008:
		return o, errors.New("-queries must be within [6, 1008]")
	case o.days < 2 || o.days > 485:
		return o, errors.New("-days must be within [2, 485]")
	case o.duration <= 0 || o.duration > 2*time.Minute || o.warmup < 0:
		return o, errors.New("-duration must be within (0, 2m] and -warmup not negative")
	case o.concurrency < 1 || o.concurrency > 64 || o.maxRequests < 1 || o.reps < 1 || o.reps > 50:
		return o, errors.New("-concurrency must be within [1, 64], -max-requests positive, -reps within [1, 50]")
	case o.only != "" && o.only != "load" && o.only != "compare":
		return o, errors.New(`-only must be "load" or "compare"`)
	case !validName(o.database):
		return o, errors.New("-database must be letters, digits and underscores")
	}
	return o, nil
}

func validName(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// withDatabase returns server with its path (the database) replaced.
func withDatabase(server, database string) (string, error) {
	u, err := url.Parse(server)
	if err != nil || u.Host == "" {
		return "", fmt.Errorf("%q is not an absolute URL", server)
	}
	if host := u.Hostname(); host != "localhost" {
		if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
			return "", fmt.Errorf("refusing %s: only loopback servers are allowed", host)
		}
	}
	u.Path = "/" + database
	return u.String(), nil
}

// bench is what the phases share.
type bench struct {
	o          options
	out        io.Writer
	data       *dataset
	today      time.Time
	pgURL      string // the bench database
	chURL      string
	pool       *pgxpool.Pool
	ch         driver.Conn
	chReads    *prometheus.Registry // what ClickHouse reported reading for ch's queries
	access     access
	dropOnExit []func() error
}

func run(ctx context.Context, args []string, out io.Writer) (err error) {
	o, err := parseOptions(args)
	if err != nil {
		return err
	}
	b := &bench{o: o, out: out, today: time.Now().UTC().Truncate(24 * time.Hour)}
	if b.pgURL, err = withDatabase(o.postgresURL, o.database); err != nil {
		return err
	}
	if b.chURL, err = withDatabase(o.clickhouseURL, o.database); err != nil {
		return err
	}
	if u, _ := url.Parse(b.chURL); u.Scheme != "http" && u.Scheme != "https" {
		return errors.New("-clickhouse must be the HTTP interface (http://...): rows read come from its X-ClickHouse-Summary header")
	}
	b.data = newDataset(o.projects, o.queries, o.days, b.today)
	fmt.Fprintf(out, "machine      %d cores, load average %s; dataset S: %d projects x %d tracked queries, daily for %d days "+
		"(%s..%s), %d passes\n", runtime.NumCPU(), measure.LoadAverage(), o.projects, o.queries, o.days,
		b.data.first.Format(time.DateOnly), b.today.AddDate(0, 0, -1).Format(time.DateOnly), o.projects*o.queries*o.days)
	fmt.Fprintf(out, "databases    %s on postgres and clickhouse\n", o.database)
	total := time.Now()
	defer func() {
		if o.keep {
			fmt.Fprintf(out, "kept         databases %s (drop them with a run without -keep, or by hand)\n", o.database)
		}
		if cerr := b.close(); err == nil {
			err = cerr
		}
		fmt.Fprintf(out, "total        %.0fs\n", time.Since(total).Seconds())
	}()

	if o.reuse {
		if err := b.connect(ctx); err != nil {
			return err
		}
		if !o.keep {
			b.dropOnExit = append(b.dropOnExit, b.dropDatabases)
		}
		if b.access, err = b.reuseAccess(ctx); err != nil {
			return err
		}
	} else {
		if err := b.phase("1 databases", func() error { return b.createDatabases(ctx) }); err != nil {
			return err
		}
		if err := b.phase("2 postgres setup", func() error {
			b.access, err = b.data.setupPostgres(ctx, b.pool)
			return err
		}); err != nil {
			return err
		}
		if err := b.phase("3 clickhouse generation", func() error { return b.generate(ctx) }); err != nil {
			return err
		}
		if err := b.phase("4 postgres raw copy", func() error { return b.copyToPostgres(ctx) }); err != nil {
			return err
		}
	}
	fmt.Fprintf(out, "disk         %s\n", diskFree())
	if o.only != "compare" {
		if err := b.phase("5 load through the API", func() error { return b.load(ctx) }); err != nil {
			return err
		}
	}
	if o.only != "load" {
		if err := b.phase("6 side by side", func() error { return b.compare(ctx) }); err != nil {
			return err
		}
	}
	return nil
}

// phase runs f and prints how long it took.
func (b *bench) phase(name string, f func() error) error {
	fmt.Fprintf(b.out, "\n== phase %s\n", name)
	start := time.Now()
	err := f()
	fmt.Fprintf(b.out, "== phase %s: %.1fs\n", name, time.Since(start).Seconds())
	return err
}

// createDatabases recreates and migrates the bench database on both
// servers and registers their removal.
func (b *bench) createDatabases(ctx context.Context) error {
	maintenance, err := withDatabase(b.o.postgresURL, "postgres")
	if err != nil {
		return err
	}
	admin, err := pgx.Connect(ctx, maintenance)
	if err != nil {
		return fmt.Errorf("connecting to postgres: %w", err)
	}
	defer admin.Close(ctx)
	name := pgx.Identifier{b.o.database}.Sanitize()
	if _, err := admin.Exec(ctx, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)"); err != nil {
		return fmt.Errorf("dropping postgres database: %w", err)
	}
	if _, err := admin.Exec(ctx, "CREATE DATABASE "+name); err != nil {
		return fmt.Errorf("creating postgres database: %w", err)
	}
	chServer, err := withDatabase(b.o.clickhouseURL, "default")
	if err != nil {
		return err
	}
	chAdmin, err := olap.Connect(ctx, chServer, nil)
	if err != nil {
		return err
	}
	defer chAdmin.Close()
	// Plain DROP: DROP ... SYNC hangs on the embedded engine.
	if err := chAdmin.Exec(ctx, "DROP DATABASE IF EXISTS "+b.o.database); err != nil {
		return fmt.Errorf("dropping clickhouse database: %w", err)
	}
	if err := chAdmin.Exec(ctx, "CREATE DATABASE "+b.o.database); err != nil {
		return fmt.Errorf("creating clickhouse database: %w", err)
	}
	if !b.o.keep {
		b.dropOnExit = append(b.dropOnExit, b.dropDatabases)
	}
	if err := b.connect(ctx); err != nil {
		return err
	}
	if _, err := schema.MigratePostgres(ctx, b.pool); err != nil {
		return err
	}
	db, err := olap.OpenDB(b.chURL)
	if err != nil {
		return err
	}
	defer db.Close()
	_, err = schema.MigrateClickHouse(ctx, db)
	return err
}

func (b *bench) connect(ctx context.Context) error {
	var err error
	if b.pool, err = oltp.Connect(ctx, b.pgURL, 8); err != nil {
		return err
	}
	b.chReads = prometheus.NewRegistry()
	b.ch, err = olap.Connect(ctx, b.chURL, olap.NewReadStats(b.chReads))
	return err
}

// dropDatabases removes both bench databases.
func (b *bench) dropDatabases() error {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if b.pool != nil {
		b.pool.Close()
		b.pool = nil
	}
	var errs []error
	if maintenance, err := withDatabase(b.o.postgresURL, "postgres"); err == nil {
		if admin, err := pgx.Connect(ctx, maintenance); err == nil {
			_, err = admin.Exec(ctx, "DROP DATABASE IF EXISTS "+pgx.Identifier{b.o.database}.Sanitize()+" WITH (FORCE)")
			errs = append(errs, err)
			admin.Close(ctx)
		} else {
			errs = append(errs, err)
		}
	}
	if b.ch != nil {
		errs = append(errs, b.ch.Exec(ctx, "DROP DATABASE IF EXISTS "+b.o.database))
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("dropping the bench databases: %w", err)
	}
	fmt.Fprintf(b.out, "dropped      databases %s\n", b.o.database)
	return nil
}

func (b *bench) close() error {
	var errs []error
	for _, f := range b.dropOnExit {
		errs = append(errs, f())
	}
	if b.pool != nil {
		b.pool.Close()
	}
	if b.ch != nil {
		errs = append(errs, b.ch.Close())
	}
	return errors.Join(errs...)
}

// reuseAccess makes a fresh key for a -reuse run (the secret of the
// first run's key is not stored).
func (b *bench) reuseAccess(ctx context.Context) (access, error) {
	a := access{organization: b.data.organizationID()}
	key, err := oltp.CreateKey(ctx, b.pool, oltp.CreateKeyParams{UserEmail: "analytics-bench@sightline.local",
		Name: "analytics bench (reuse)", OrganizationIDs: []uuid.UUID{a.organization}})
	if err != nil {
		return a, fmt.Errorf("creating a key on the kept databases (were they kept with -keep?): %w", err)
	}
	a.key = key.Secret
	return a, nil
}

// diskFree is the free space of the file system the working directory is on.
func diskFree() string {
	var st syscall.Statfs_t
	if err := syscall.Statfs(".", &st); err != nil {
		return "unknown"
	}
	free := float64(st.Bavail) * float64(st.Bsize) / (1 << 30)
	size := float64(st.Blocks) * float64(st.Bsize) / (1 << 30)
	return fmt.Sprintf("%.1f GiB free of %.1f GiB", free, size)
}
