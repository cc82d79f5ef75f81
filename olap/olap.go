// Package olap is Sightline's ClickHouse side: the connection, the batch
// writers of captures and rank rows, and the analytics readers. It speaks
// to ClickHouse only through clickhouse-go/v2, over HTTP or the native
// protocol as the URL says, so ClickHouse server in production and the
// embedded engine in development run the same code. SQL is literal text
// next to the method that runs it.
package olap

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/ClickHouse/clickhouse-go/v2"
	"github.com/ClickHouse/clickhouse-go/v2/lib/driver"
)

// Options parses a CLICKHOUSE_URL such as http://host:8123/sightline or
// clickhouse://user:pass@host:9000/sightline.
func Options(url string) (*clickhouse.Options, error) {
	opts, err := clickhouse.ParseDSN(url)
	if err != nil {
		return nil, fmt.Errorf("parsing CLICKHOUSE_URL: %w", err)
	}
	if opts.DialTimeout == 0 {
		opts.DialTimeout = 5 * time.Second
	}
	// As many idle connections as open ones (the URL's max_open_conns and
	// max_idle_conns override): with the driver's defaults (5 idle of 10)
	// a writer flushing six tables while readers run closed and reopened
	// connections all the time, each reopening costing a handshake query.
	if opts.MaxOpenConns == 0 {
		opts.MaxOpenConns = 10
	}
	if opts.MaxIdleConns == 0 {
		opts.MaxIdleConns = opts.MaxOpenConns
	}
	// A cluster filter lists its tracked queries in the query text, in
	// every arm that reads a window, and a cluster may hold thousands: with
	// ClickHouse's default of 256 KiB a read filtered by about a thousand
	// queries was refused. 16 MiB holds some 70,000 (the URL's
	// max_query_size overrides).
	if opts.Settings == nil {
		opts.Settings = clickhouse.Settings{}
	}
	if _, set := opts.Settings["max_query_size"]; !set {
		opts.Settings["max_query_size"] = 16 << 20
	}
	return opts, nil
}

// Connect opens a connection pool and checks that the server answers.
// stats, when not nil, counts what ClickHouse reads for its queries.
func Connect(ctx context.Context, url string, stats *ReadStats) (driver.Conn, error) {
	opts, err := Options(url)
	if err != nil {
		return nil, err
	}
	if stats != nil {
		opts.TransportFunc = stats.transport
	}
	conn, err := clickhouse.Open(opts)
	if err != nil {
		return nil, fmt.Errorf("opening clickhouse: %w", err)
	}
	if err := conn.Ping(ctx); err != nil {
		conn.Close()
		return nil, fmt.Errorf("reaching clickhouse: %w", err)
	}
	return conn, nil
}

// OpenDB opens the database/sql form of the connection, which the
// migration tool needs.
func OpenDB(url string) (*sql.DB, error) {
	opts, err := Options(url)
	if err != nil {
		return nil, err
	}
	return clickhouse.OpenDB(opts), nil
}

// scanRows runs query and hands each row of its answer to scan. A failure
// of the query, of scan or of the reading is wrapped with doing ("reading
// cited sources").
func scanRows(ctx context.Context, conn driver.Conn, doing, query string, args []any, scan func(driver.Rows) error) error {
	rows, err := conn.Query(ctx, query, args...)
	if err != nil {
		return fmt.Errorf("%s: %w", doing, err)
	}
	defer rows.Close()
	for rows.Next() {
		if err := scan(rows); err != nil {
			return fmt.Errorf("%s: %w", doing, err)
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("%s: %w", doing, err)
	}
	return nil
}

// collectRows is scanRows collecting what scan makes of each row; no row
// is an empty slice, never nil.
func collectRows[T any](ctx context.Context, conn driver.Conn, doing, query string, args []any,
	scan func(driver.Rows) (T, error)) ([]T, error) {
	out := []T{}
	err := scanRows(ctx, conn, doing, query, args, func(rows driver.Rows) error {
		v, err := scan(rows)
		if err != nil {
			return err
		}
		out = append(out, v)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
