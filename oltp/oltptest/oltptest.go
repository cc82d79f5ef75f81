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
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/sightline/sightline/internal/dbtest"
	"github.com/sightline/sightline/schema"
)

// DefaultURL is the project-local server `make test` starts.
const DefaultURL = "postgres://postgres@127.0.0.1:54329/sightline?sslmode=disable"

// ServerURL is the Postgres server tests use.
func ServerURL() string { return dbtest.ServerURL("DATABASE_URL", DefaultURL) }

// NewDatabase creates a migrated database for this test, dropped when the
// test ends, and returns its URL.
func NewDatabase(t testing.TB) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	admin, err := pgx.Connect(ctx, ServerURL())
	if err != nil {
		t.Fatalf("connecting to test postgres at %s (run `make test`, which starts it): %v", ServerURL(), err)
	}
	defer admin.Close(ctx)

	template, err := ensureTemplate(ctx, admin)
	if err != nil {
		t.Fatalf("preparing template database: %v", err)
	}
	name := dbtest.NewName()
	if _, err := admin.Exec(ctx, fmt.Sprintf("CREATE DATABASE %s TEMPLATE %s", name, template)); err != nil {
		t.Fatalf("creating test database: %v", err)
	}
	dbtest.DropAtCleanup(t, name, func(ctx context.Context) error {
		conn, err := pgx.Connect(ctx, ServerURL())
		if err != nil {
			return err
		}
		defer conn.Close(ctx)
		_, err = conn.Exec(ctx, fmt.Sprintf("DROP DATABASE IF EXISTS %s WITH (FORCE)", name))
		return err
	})
	return withDatabase(ServerURL(), name)
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

// ensureTemplate creates and migrates the template for the current
// migrations unless it exists. Test binaries run in parallel processes, so
// an advisory lock makes one of them build it while the others wait.
func ensureTemplate(ctx context.Context, admin *pgx.Conn) (string, error) {
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
	pool, err := pgxpool.New(ctx, withDatabase(ServerURL(), building))
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

func withDatabase(serverURL, name string) string {
	u, err := dbtest.WithDatabase(serverURL, name)
	if err != nil {
		panic(fmt.Sprintf("DATABASE_URL: %v", err))
	}
	return u
}
