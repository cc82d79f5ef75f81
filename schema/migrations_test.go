package schema_test

import (
	"context"
	"database/sql"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/pressly/goose/v3"

	"github.com/sightline/sightline/olap"
	"github.com/sightline/sightline/olap/olaptest"
	"github.com/sightline/sightline/oltp/oltptest"
	"github.com/sightline/sightline/schema"
)

// The migrated schema of each engine is recorded in testdata. A landed
// migration must keep building exactly that schema, whatever its text: a
// database that ran it long ago and a fresh one must not differ. A new
// migration changes the record on purpose:
//
//	go test ./schema -run Migrations -update
//
// The ClickHouse record is the engine `make test` runs (chDB); another
// engine version may print its CREATE statements differently.
var update = flag.Bool("update", false, "record the migrated schemas in testdata")

func TestClickHouseMigrationsBuildTheRecordedSchema(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, err := olap.OpenDB(olaptest.NewDatabase(t))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	checkRecorded(t, "testdata/clickhouse.schema", clickHouseSchema(t, db))
	checkEveryDownUndoesItsUp(ctx, t, newProvider(t, goose.DialectClickHouse, db), func() string { return clickHouseSchema(t, db) })
}

func TestPostgresMigrationsBuildTheRecordedSchema(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	url := oltptest.NewDatabase(t)
	checkRecorded(t, "testdata/postgres.schema", postgresSchema(t, url))
	pool, err := pgxpool.New(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	db := stdlib.OpenDBFromPool(pool)
	defer db.Close()
	checkEveryDownUndoesItsUp(ctx, t, newProvider(t, goose.DialectPostgres, db), func() string { return postgresSchema(t, url) })
}

// clickHouseSchema is the CREATE statement of every table and view of the
// database, in name order, without the database's name.
func clickHouseSchema(t *testing.T, db *sql.DB) string {
	t.Helper()
	rows, err := db.Query(`SELECT name, replaceAll(create_table_query, currentDatabase() || '.', '')
		FROM system.tables WHERE database = currentDatabase() AND name != 'goose_db_version' ORDER BY name`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var b strings.Builder
	for rows.Next() {
		var name, create string
		if err := rows.Scan(&name, &create); err != nil {
			t.Fatal(err)
		}
		b.WriteString("-- " + name + "\n" + create + "\n\n")
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// postgresSchema is pg_dump's schema of the database, River's tables
// included, without the dump's own comments and session settings (they
// name the server's version) and without goose's version table. Lines
// inside function bodies are all kept.
func postgresSchema(t *testing.T, url string) string {
	t.Helper()
	cmd := exec.Command(pgDump(t, url), "--schema-only", "--no-owner", "--no-privileges",
		"--exclude-table=goose_db_version*", "--dbname="+url)
	out, err := cmd.Output()
	if err != nil {
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			t.Fatalf("pg_dump: %v: %s", err, exit.Stderr)
		}
		t.Fatalf("pg_dump: %v", err)
	}
	var kept []string
	inBody := false
	for line := range strings.Lines(string(out)) {
		dumpLine := strings.HasPrefix(line, "--") || strings.HasPrefix(line, "SET ") ||
			strings.HasPrefix(line, "SELECT pg_catalog.set_config") || strings.HasPrefix(line, `\restrict`) ||
			strings.HasPrefix(line, `\unrestrict`)
		if inBody || !dumpLine {
			kept = append(kept, line)
		}
		if strings.Count(line, "$$")%2 == 1 {
			inBody = !inBody
		}
	}
	return blankRuns.ReplaceAllString(strings.Join(kept, ""), "\n\n")
}

var blankRuns = regexp.MustCompile(`\n{3,}`)

// pgDump finds the pg_dump of the server's major version where Debian
// installs it, or else the one on the PATH: a client of another version
// refuses an older server or prints another dump.
func pgDump(t *testing.T, url string) string {
	t.Helper()
	conn, err := pgx.Connect(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	var version int
	err = conn.QueryRow(context.Background(), "SELECT current_setting('server_version_num')::int").Scan(&version)
	conn.Close(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	path := fmt.Sprintf("/usr/lib/postgresql/%d/bin/pg_dump", version/10000)
	if _, err := os.Stat(path); err == nil {
		return path
	}
	if path, err := exec.LookPath("pg_dump"); err == nil {
		return path
	}
	t.Fatal("pg_dump is not installed (Debian: apt-get install postgresql-client)")
	return ""
}

// checkEveryDownUndoesItsUp rolls every migration back, applies them one
// by one noting the schema after each, then rolls them back one by one:
// each Down must leave the schema its Up found, line for line in any order
// (a column Postgres adds back stands last in its table). It ends migrated.
func checkEveryDownUndoesItsUp(ctx context.Context, t *testing.T, provider *goose.Provider, dump func() string) {
	t.Helper()
	if _, err := provider.DownTo(ctx, 0); err != nil {
		t.Fatalf("rolling back every migration: %v", err)
	}
	sources := provider.ListSources()
	before := make([]string, len(sources)) // the schema each migration's Up found
	for i, src := range sources {
		before[i] = dump()
		if _, err := provider.UpTo(ctx, src.Version); err != nil {
			t.Fatalf("applying %s: %v", src.Path, err)
		}
	}
	for i := len(sources) - 1; i >= 0; i-- {
		if _, err := provider.Down(ctx); err != nil {
			t.Fatalf("rolling back %s: %v", sources[i].Path, err)
		}
		if missing, extra := lineDifference(before[i], dump()); len(missing)+len(extra) > 0 {
			// Later steps would start from the wrong schema: stop here.
			t.Fatalf("rolling back %s leaves another schema than its Up found:\nmissing:\n%s\nextra:\n%s",
				sources[i].Path, strings.Join(missing, "\n"), strings.Join(extra, "\n"))
		}
	}
	if _, err := provider.Up(ctx); err != nil {
		t.Fatalf("applying every migration again: %v", err)
	}
}

// newProvider steps through the migrations of dialect's engine on db.
func newProvider(t *testing.T, dialect goose.Dialect, db *sql.DB) *goose.Provider {
	t.Helper()
	provider, err := schema.NewProvider(dialect, db)
	if err != nil {
		t.Fatal(err)
	}
	return provider
}

// checkRecorded compares the migrated schema with its record, or records
// it under -update.
func checkRecorded(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (record it with -update)", err)
	}
	if got != string(want) {
		t.Errorf("the migrations build another schema than %s records (a landed migration changed, or a new one needs -update):\n%s", path, firstDifference(string(want), got))
	}
}

// lineDifference returns the lines of want that got lacks and those of got
// that want lacks, each as often as it is missing.
func lineDifference(want, got string) (missing, extra []string) {
	count := map[string]int{}
	// A column's comma depends on whether it stands last.
	for _, l := range strings.Split(want, "\n") {
		count[strings.TrimSuffix(l, ",")]++
	}
	for _, l := range strings.Split(got, "\n") {
		count[strings.TrimSuffix(l, ",")]--
	}
	for l, n := range count {
		for ; n > 0; n-- {
			missing = append(missing, l)
		}
		for ; n < 0; n++ {
			extra = append(extra, l)
		}
	}
	slices.Sort(missing)
	slices.Sort(extra)
	return missing, extra
}

// firstDifference shows the first line where got leaves want, with the
// lines around it.
func firstDifference(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	i := 0
	for i < len(w) && i < len(g) && w[i] == g[i] {
		i++
	}
	from := max(0, i-3)
	return "recorded:\n" + strings.Join(w[from:min(len(w), i+4)], "\n") +
		"\nbuilt:\n" + strings.Join(g[from:min(len(g), i+4)], "\n")
}

// Rolled back past exact rate limits, the database still answers what the
// binaries of that time ask: rate_limit_take admits up to the limit, and
// their sweep of idle buckets runs.
// migratedPostgres is a fully migrated database of the test's own, with a
// provider of Sightline's migrations over it.
func migratedPostgres(t *testing.T) (*pgxpool.Pool, *goose.Provider) {
	pool, err := pgxpool.New(context.Background(), oltptest.NewDatabase(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	db := stdlib.OpenDBFromPool(pool)
	t.Cleanup(func() { db.Close() })
	return pool, newProvider(t, goose.DialectPostgres, db)
}

func TestPostgresRollbackOfExactLimitsServesOlderBinaries(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool, provider := migratedPostgres(t)
	if _, err := provider.DownTo(ctx, 8); err != nil {
		t.Fatal(err)
	}
	for i, want := range []bool{true, true, false} {
		var allowed bool
		var retryAfter float64
		if err := pool.QueryRow(ctx, `SELECT allowed, retry_after_seconds FROM rate_limit_take('user:1', 2, 60)`).
			Scan(&allowed, &retryAfter); err != nil {
			t.Fatal(err)
		}
		if allowed != want || allowed != (retryAfter == 0) {
			t.Errorf("request %d: allowed %v, retry after %v s; want allowed %v", i+1, allowed, retryAfter, want)
		}
	}
	if _, err := pool.Exec(ctx, `DELETE FROM rate_limit_buckets WHERE window_start < extract(epoch FROM now()) - 2 * $1::double precision`, 60); err != nil {
		t.Errorf("older binaries' sweep: %v", err)
	}
	// A deploy forward again applies the migrations rolled back.
	if _, err := provider.Up(ctx); err != nil {
		t.Fatalf("migrating forward after the rollback: %v", err)
	}
}

func TestPostgresLiveProjectedChecksDropTheirQueuedRefreshes(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool, provider := migratedPostgres(t)
	if _, err := provider.DownTo(ctx, 12); err != nil {
		t.Fatal(err)
	}
	// A refresh waiting in the queue and one already done, as an older
	// binary left them.
	if _, err := pool.Exec(ctx, `
		INSERT INTO river_job (args, kind, max_attempts, queue, state, finalized_at) VALUES
		    ('{}', 'organization_projected_checks', 25, 'maintenance', 'available', NULL),
		    ('{}', 'organization_projected_checks', 25, 'maintenance', 'completed', now()),
		    ('{}', 'organization_membership_stats', 25, 'maintenance', 'available', NULL)`); err != nil {
		t.Fatal(err)
	}
	if _, err := provider.Up(ctx); err != nil {
		t.Fatal(err)
	}
	var left string
	if err := pool.QueryRow(ctx, `SELECT string_agg(kind || ' ' || state, ', ' ORDER BY kind, state) FROM river_job`).
		Scan(&left); err != nil {
		t.Fatal(err)
	}
	if want := "organization_membership_stats available, organization_projected_checks completed"; left != want {
		t.Errorf("queued jobs after the migration: %s, want %s", left, want)
	}
}
