// Package oltptest gives tests their own migrated Postgres database on the
// server DATABASE_URL names (by default the project-local one that
// `make test` starts). Each call clones a template database migrated once
// per schema version, so a fresh database costs tens of milliseconds and
// tests never see each other's rows.
package oltptest

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/sightline/sightline/internal/dbtest"
	"github.com/sightline/sightline/schema"
)

// server is the Postgres server tests create their databases on: the one
// DATABASE_URL names, by default the project-local one `make test` starts.
var server = dbtest.Server{
	Engine: "postgres", Env: "DATABASE_URL", DefaultURL: "postgres://postgres@127.0.0.1:54329/sightline?sslmode=disable",
	CreateFunc: createDatabase, DropFunc: dropDatabase,
}

// ServerURL is the Postgres server tests use.
func ServerURL() string { return server.URL() }

// NewDatabase creates a migrated database for this test, dropped when the
// test ends, and returns its URL.
func NewDatabase(t testing.TB) string {
	t.Helper()
	return server.NewDatabase(t)
}

// NewPool is NewDatabase with an open pool, closed when the test ends.
func NewPool(t testing.TB) *pgxpool.Pool {
	t.Helper()
	pool, err := pgxpool.New(context.Background(), NewDatabase(t))
	if err != nil {
		t.Fatalf("opening test pool: %v", err)
	}
	t.Cleanup(pool.Close)
	return pool
}

// createDatabase clones database name from the template of the current
// migrations.
func createDatabase(ctx context.Context, serverURL, name string) error {
	return onServer(ctx, serverURL, func(admin *pgx.Conn) error {
		template, err := ensureTemplate(ctx, admin, serverURL)
		if err != nil {
			return fmt.Errorf("preparing template database: %w", err)
		}
		_, err = admin.Exec(ctx, fmt.Sprintf("CREATE DATABASE %s TEMPLATE %s", name, template))
		return err
	})
}

func dropDatabase(ctx context.Context, serverURL, name string) error {
	return onServer(ctx, serverURL, func(admin *pgx.Conn) error {
		_, err := admin.Exec(ctx, fmt.Sprintf("DROP DATABASE IF EXISTS %s WITH (FORCE)", name))
		return err
	})
}

// onServer runs f on a connection of its own to the server, outside any
// test database.
func onServer(ctx context.Context, serverURL string, f func(admin *pgx.Conn) error) error {
	admin, err := pgx.Connect(ctx, serverURL)
	if err != nil {
		return err
	}
	defer admin.Close(ctx)
	return f(admin)
}

// ensureTemplate creates and migrates the template for the current
// migrations unless it exists. Test binaries run in parallel processes, so
// an advisory lock makes one of them build it while the others wait.
func ensureTemplate(ctx context.Context, admin *pgx.Conn, serverURL string) (string, error) {
	name := "sightline_template_" + migrationsDigest()
	if _, err := admin.Exec(ctx, "SELECT pg_advisory_lock(8421)"); err != nil {
		return "", err
	}
	defer admin.Exec(context.WithoutCancel(ctx), "SELECT pg_advisory_unlock(8421)") //nolint:errcheck
	var exists bool
	if err := admin.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)", name).Scan(&exists); err != nil {
		return "", err
	}
	if exists {
		return name, nil
	}
	building := name + "_building"
	if _, err := admin.Exec(ctx, "DROP DATABASE IF EXISTS "+building+" WITH (FORCE)"); err != nil {
		return "", err
	}
	if _, err := admin.Exec(ctx, "CREATE DATABASE "+building); err != nil {
		return "", err
	}
	buildingURL, err := dbtest.WithDatabase(serverURL, building)
	if err != nil {
		return "", err
	}
	pool, err := pgxpool.New(ctx, buildingURL)
	if err != nil {
		return "", err
	}
	_, err = schema.MigratePostgres(ctx, pool)
	pool.Close()
	if err != nil {
		return "", err
	}
	// Renaming last means a half-built template is never used.
	if _, err := admin.Exec(ctx, fmt.Sprintf("ALTER DATABASE %s RENAME TO %s", building, name)); err != nil {
		return "", err
	}
	return name, nil
}

// migrationsDigest names the template after the migration files, so a new
// migration gets a new template instead of a stale one.
func migrationsDigest() string {
	h := sha256.New()
	_ = fs.WalkDir(schema.Postgres, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(schema.Postgres, path)
		h.Write([]byte(path))
		h.Write(b)
		return err
	})
	return hex.EncodeToString(h.Sum(nil))[:12]
}
