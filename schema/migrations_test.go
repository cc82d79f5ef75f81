package schema_test

import (
	"context"
	"database/sql"
	"flag"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

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
	ctx := context.Background()
	db, err := olap.OpenDB(olaptest.NewDatabase(t))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	built := clickHouseSchema(t, db)
	checkRecorded(t, "testdata/clickhouse.schema", built)
	downAndUpAgain(ctx, t, goose.DialectClickHouse, db, schema.ClickHouse, "clickhouse")
	checkSame(t, built, clickHouseSchema(t, db))
}

func TestPostgresMigrationsBuildTheRecordedSchema(t *testing.T) {
	ctx := context.Background()
	url := oltptest.NewDatabase(t)
	built := postgresSchema(t, url)
	checkRecorded(t, "testdata/postgres.schema", built)
	pool, err := pgxpool.New(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	db := stdlib.OpenDBFromPool(pool)
	defer db.Close()
	downAndUpAgain(ctx, t, goose.DialectPostgres, db, schema.Postgres, "postgres")
	checkSame(t, built, postgresSchema(t, url))
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
// name the server's version) and without goose's version table.
func postgresSchema(t *testing.T, url string) string {
	t.Helper()
	out, err := exec.Command(pgDump(t), "--schema-only", "--no-owner", "--no-privileges",
		"--exclude-table=goose_db_version*", "--dbname="+url).Output()
	if err != nil {
		t.Fatalf("pg_dump: %v", err)
	}
	var kept []string
	for line := range strings.Lines(string(out)) {
		if strings.HasPrefix(line, "--") || strings.HasPrefix(line, "SET ") ||
			strings.HasPrefix(line, "SELECT pg_catalog.set_config") || strings.HasPrefix(line, `\restrict`) ||
			strings.HasPrefix(line, `\unrestrict`) {
			continue
		}
		kept = append(kept, line)
	}
	return blankRuns.ReplaceAllString(strings.Join(kept, ""), "\n\n")
}

var blankRuns = regexp.MustCompile(`\n{3,}`)

// pgDump finds pg_dump on the PATH or where Debian installs Postgres.
func pgDump(t *testing.T) string {
	t.Helper()
	if path, err := exec.LookPath("pg_dump"); err == nil {
		return path
	}
	found, _ := filepath.Glob("/usr/lib/postgresql/*/bin/pg_dump")
	if len(found) == 0 {
		t.Fatal("pg_dump is not installed (Debian: apt-get install postgresql-client)")
	}
	return found[len(found)-1]
}

// downAndUpAgain rolls every migration of dir back and applies them again,
// so each Down must undo its Up exactly.
func downAndUpAgain(ctx context.Context, t *testing.T, dialect goose.Dialect, db *sql.DB, files fs.FS, dir string) {
	t.Helper()
	provider := newProvider(t, dialect, db, files, dir)
	if _, err := provider.DownTo(ctx, 0); err != nil {
		t.Fatalf("rolling back every %s migration: %v", dir, err)
	}
	if _, err := provider.Up(ctx); err != nil {
		t.Fatalf("applying every %s migration again: %v", dir, err)
	}
}

// newProvider applies the migrations of dir in files to db.
func newProvider(t *testing.T, dialect goose.Dialect, db *sql.DB, files fs.FS, dir string) *goose.Provider {
	t.Helper()
	sub, err := fs.Sub(files, dir)
	if err != nil {
		t.Fatal(err)
	}
	provider, err := goose.NewProvider(dialect, db, sub)
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

// checkSame fails unless rolling every migration back and applying them
// again rebuilt the schema they first built.
func checkSame(t *testing.T, first, again string) {
	t.Helper()
	if again != first {
		t.Errorf("down to nothing and up again builds another schema:\n%s", firstDifference(first, again))
	}
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
func TestPostgresRollbackOfExactLimitsServesOlderBinaries(t *testing.T) {
	ctx := context.Background()
	pool, err := pgxpool.New(ctx, oltptest.NewDatabase(t))
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	db := stdlib.OpenDBFromPool(pool)
	defer db.Close()
	if _, err := newProvider(t, goose.DialectPostgres, db, schema.Postgres, "postgres").DownTo(ctx, 8); err != nil {
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
}
