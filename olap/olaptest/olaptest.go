// Package olaptest gives tests their own migrated ClickHouse database on
// the server CLICKHOUSE_URL names (by default the project-local endpoint
// that `make test` starts), dropped when the test ends.
package olaptest

import (
	"context"
	"errors"
	"testing"

	"github.com/ClickHouse/clickhouse-go/v2/lib/driver"

	"github.com/sightline/sightline/internal/dbtest"
	"github.com/sightline/sightline/olap"
	"github.com/sightline/sightline/schema"
)

// server is the ClickHouse server tests create their databases on: the one
// CLICKHOUSE_URL names, by default the project-local one `make test` starts.
var server = dbtest.Server{
	Engine: "clickhouse", Env: "CLICKHOUSE_URL", DefaultURL: "http://127.0.0.1:18123/default",
	CreateFunc: func(ctx context.Context, serverURL, name string) error {
		return exec(ctx, serverURL, "CREATE DATABASE "+name)
	},
	MigrateFunc: func(ctx context.Context, dbURL string) error {
		db, err := olap.OpenDB(dbURL)
		if err != nil {
			return err
		}
		defer db.Close()
		_, err = schema.MigrateClickHouse(ctx, db)
		return err
	},
	DropFunc: func(ctx context.Context, serverURL, name string) error {
		return exec(ctx, serverURL, "DROP DATABASE IF EXISTS "+name)
	},
}

// exec runs one statement on the server, outside any test database.
func exec(ctx context.Context, serverURL, query string) error {
	conn, err := olap.Connect(ctx, serverURL, nil)
	if err != nil {
		return err
	}
	defer conn.Close()
	return conn.Exec(ctx, query)
}

// ServerURL is the ClickHouse server tests use.
func ServerURL() string { return server.URL() }

// NewDatabase creates a migrated database for this test, dropped when the
// test ends, and returns its URL.
func NewDatabase(t testing.TB) string {
	t.Helper()
	return server.NewDatabase(t)
}

// NewConn is NewDatabase with an open connection, closed when the test ends.
func NewConn(t testing.TB) driver.Conn {
	t.Helper()
	conn, err := olap.Connect(context.Background(), NewDatabase(t), nil)
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
