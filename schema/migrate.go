package schema

import (
	"context"
	"database/sql"
	"fmt"
	"io/fs"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/pressly/goose/v3"
	"github.com/pressly/goose/v3/lock"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/rivermigrate"
)

// MigratePostgres applies every pending Postgres migration, Sightline's and
// River's, and reports how many of Sightline's ran. It is idempotent and
// safe to run from several processes at once: goose holds an advisory lock
// while it works.
func MigratePostgres(ctx context.Context, pool *pgxpool.Pool) (int, error) {
	db := stdlib.OpenDBFromPool(pool)
	defer db.Close()
	locker, err := lock.NewPostgresSessionLocker()
	if err != nil {
		return 0, fmt.Errorf("creating migration lock: %w", err)
	}
	n, err := up(ctx, goose.DialectPostgres, db, Postgres, "postgres", goose.WithSessionLocker(locker))
	if err != nil {
		return 0, err
	}
	migrator, err := rivermigrate.New(riverpgxv5.New(pool), nil)
	if err != nil {
		return 0, fmt.Errorf("creating river migrator: %w", err)
	}
	if _, err := migrator.Migrate(ctx, rivermigrate.DirectionUp, nil); err != nil {
		return 0, fmt.Errorf("migrating river tables: %w", err)
	}
	return n, nil
}

// MigrateClickHouse applies every pending ClickHouse migration to the
// database db is connected to and reports how many ran. Run it from one
// process at a time (ClickHouse has no advisory locks); `sightline migrate`
// is that process.
func MigrateClickHouse(ctx context.Context, db *sql.DB) (int, error) {
	return up(ctx, goose.DialectClickHouse, db, ClickHouse, "clickhouse")
}

func up(ctx context.Context, dialect goose.Dialect, db *sql.DB, files fs.FS, dir string, opts ...goose.ProviderOption) (int, error) {
	provider, err := newProvider(dialect, db, files, dir, opts...)
	if err != nil {
		return 0, err
	}
	results, err := provider.Up(ctx)
	if err != nil {
		return 0, fmt.Errorf("applying %s migrations: %w", dir, err)
	}
	return len(results), nil
}

// NewProvider returns goose's provider of Sightline's migrations for db's
// engine (goose.DialectPostgres or goose.DialectClickHouse), for stepping
// through them one by one: tests that roll migrations back.
func NewProvider(dialect goose.Dialect, db *sql.DB) (*goose.Provider, error) {
	if dialect == goose.DialectClickHouse {
		return newProvider(dialect, db, ClickHouse, "clickhouse")
	}
	return newProvider(dialect, db, Postgres, "postgres")
}

func newProvider(dialect goose.Dialect, db *sql.DB, files fs.FS, dir string, opts ...goose.ProviderOption) (*goose.Provider, error) {
	sub, err := fs.Sub(files, dir)
	if err != nil {
		return nil, err
	}
	provider, err := goose.NewProvider(dialect, db, sub, opts...)
	if err != nil {
		return nil, fmt.Errorf("loading %s migrations: %w", dir, err)
	}
	return provider, nil
}
