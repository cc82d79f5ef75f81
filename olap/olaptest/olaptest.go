// Package olaptest gives tests their own migrated ClickHouse database on
// the server CLICKHOUSE_URL names (by default the project-local endpoint
// that `make test` starts), dropped when the test ends.
package olaptest

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/ClickHouse/clickhouse-go/v2/lib/driver"

	"github.com/sightline/sightline/internal/dbtest"
	"github.com/sightline/sightline/olap"
	"github.com/sightline/sightline/schema"
)

// DefaultURL is the project-local endpoint `make test` starts.
const DefaultURL = "http://127.0.0.1:18123/default"

// ServerURL is the ClickHouse server tests use.
func ServerURL() string { return dbtest.ServerURL("CLICKHOUSE_URL", DefaultURL) }

// NewDatabase creates a migrated database for this test and returns its URL.
func NewDatabase(t testing.TB) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	admin, err := olap.Connect(ctx, ServerURL())
	if err != nil {
		t.Fatalf("connecting to test clickhouse at %s (run `make test`, which starts it): %v", ServerURL(), err)
	}
	defer admin.Close()
	name := dbtest.NewName()
	if err := admin.Exec(ctx, "CREATE DATABASE "+name); err != nil {
		t.Fatalf("creating test database: %v", err)
	}
	dbtest.DropAtCleanup(t, name, func(ctx context.Context) error {
		conn, err := olap.Connect(ctx, ServerURL())
		if err != nil {
			return err
		}
		defer conn.Close()
		return conn.Exec(ctx, "DROP DATABASE IF EXISTS "+name)
	})
	dbURL, err := dbtest.WithDatabase(ServerURL(), name)
	if err != nil {
		t.Fatalf("CLICKHOUSE_URL: %v", err)
	}
	db, err := olap.OpenDB(dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := schema.MigrateClickHouse(ctx, db); err != nil {
		t.Fatalf("migrating test database: %v", err)
	}
	return dbURL
}

// NewConn is NewDatabase with an open connection, closed when the test ends.
func NewConn(t testing.TB) driver.Conn {
	t.Helper()
	conn, err := olap.Connect(context.Background(), NewDatabase(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return conn
}

// InsertPasses stores passes as a check does, through a Writer of their
// own, and returns once they are durable. A pass already stored is not
// stored again. It does not retry.
func InsertPasses(ctx context.Context, conn driver.Conn, passes []olap.PassRows) error {
	w := olap.NewWriter(conn, olap.WriterOptions{Attempts: 1})
	err := w.Write(ctx, passes...)
	return errors.Join(err, w.Close(ctx))
}
