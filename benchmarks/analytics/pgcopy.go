package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"golang.org/x/sync/errgroup"
)

// The Postgres-only tracker's tables: the same raw rank rows and mentions,
// in plain tables with the indexes such a tracker would add for windowed
// reads per project. They are UNLOGGED, which only spares the load its
// WAL: reads are the same as from a logged table. Left out: the mention
// sentence (mention_text) and the rank rows' query text (a Postgres
// tracker joins tracked_queries), and primary keys, which no analytics
// read uses.
const pgRawSchema = `
CREATE SCHEMA raw;
CREATE UNLOGGED TABLE raw.rank_rows (
    project_id           uuid NOT NULL,
    tracked_query_id     uuid NOT NULL,
    run_id               uuid NOT NULL,
    engine               text NOT NULL,
    country              text NOT NULL,
    captured_at          timestamptz NOT NULL,
    capture_id           uuid NOT NULL,
    relation             text NOT NULL,
    competitor_id        uuid NOT NULL,
    mention_position     smallint,
    tone                 text NOT NULL,
    link_position        smallint,
    serp_position        smallint,
    shopping_position    smallint,
    own_mention_position smallint
);
CREATE UNLOGGED TABLE raw.mentions (
    id               uuid NOT NULL,
    answer_id        uuid NOT NULL,
    project_id       uuid NOT NULL,
    tracked_query_id uuid NOT NULL,
    engine           text NOT NULL,
    country          text NOT NULL,
    captured_at      timestamptz NOT NULL,
    brand_name       text NOT NULL,
    relation         text NOT NULL,
    competitor_id    uuid,
    position         smallint NOT NULL,
    mention_type     text NOT NULL,
    tone             text NOT NULL,
    qualifier        text NOT NULL,
    worth            double precision NOT NULL
);`

// pgRawIndexes serve a project's window (every figure) and one tracked
// query's history (its time series).
var pgRawIndexes = []string{
	`CREATE INDEX rank_rows_project_time ON raw.rank_rows (project_id, captured_at)`,
	`CREATE INDEX mentions_project_time ON raw.mentions (project_id, captured_at)`,
	`CREATE INDEX rank_rows_query_time ON raw.rank_rows (tracked_query_id, captured_at)`,
}

// pgCopies: what each raw table copies from ClickHouse, in the Postgres
// table's column order.
var pgCopies = []struct{ table, columns string }{
	{"rank_rows", `project_id, tracked_query_id, run_id, engine, country, captured_at, capture_id, relation, competitor_id,
		mention_position, tone, link_position, serp_position, shopping_position, own_mention_position`},
	{"mentions", `id, answer_id, project_id, tracked_query_id, engine, country, captured_at, brand_name, relation,
		competitor_id, position, mention_type, tone, qualifier, worth`},
}

// copyToPostgres streams the raw rank rows and mentions from ClickHouse
// (TabSeparated over HTTP, one project at a time, in day order) into the
// Postgres tables with COPY, then indexes and analyzes them.
func (b *bench) copyToPostgres(ctx context.Context) error {
	if _, err := b.pool.Exec(ctx, pgRawSchema); err != nil {
		return fmt.Errorf("creating the raw tables: %w", err)
	}
	start := time.Now()
	var group errgroup.Group
	counts := make([]int64, len(pgCopies))
	for i, c := range pgCopies {
		group.Go(func() error {
			for p := range b.data.projects {
				n, err := b.copyProject(ctx, c.table, c.columns, p)
				if err != nil {
					return err
				}
				counts[i] += n
			}
			return nil
		})
	}
	if err := group.Wait(); err != nil {
		return err
	}
	copied := time.Since(start)
	fmt.Fprintf(b.out, "  copied %d rank rows and %d mentions in %.1fs (%.0f rows/s)\n", counts[0], counts[1], copied.Seconds(),
		float64(counts[0]+counts[1])/copied.Seconds())
	for _, ddl := range pgRawIndexes {
		t0 := time.Now()
		if _, err := b.pool.Exec(ctx, ddl); err != nil {
			return fmt.Errorf("%s: %w", ddl, err)
		}
		fmt.Fprintf(b.out, "  %s: %.1fs\n", ddl, time.Since(t0).Seconds())
	}
	t0 := time.Now()
	if _, err := b.pool.Exec(ctx, `VACUUM (ANALYZE) raw.rank_rows, raw.mentions`); err != nil {
		return fmt.Errorf("vacuuming the raw tables: %w", err)
	}
	var sizes string
	if err := b.pool.QueryRow(ctx, `SELECT string_agg(format('%s %s (indexes %s)', relname,
			pg_size_pretty(pg_table_size(c.oid)), pg_size_pretty(pg_indexes_size(c.oid))), ', ' ORDER BY relname)
		FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'raw' AND c.relkind = 'r'`).Scan(&sizes); err != nil {
		return err
	}
	fmt.Fprintf(b.out, "  VACUUM (ANALYZE): %.1fs; %s\n", time.Since(t0).Seconds(), sizes)
	return nil
}

// copyProject copies one project's rows of table.
func (b *bench) copyProject(ctx context.Context, table, columns string, p int) (int64, error) {
	query := fmt.Sprintf("SELECT %s FROM %s WHERE project_id = '%s' ORDER BY toDate(captured_at) FORMAT TabSeparated",
		columns, table, projectID(p))
	body, err := b.clickhouseHTTP(ctx, query)
	if err != nil {
		return 0, err
	}
	defer body.Close()
	conn, err := b.pool.Acquire(ctx)
	if err != nil {
		return 0, err
	}
	defer conn.Release()
	if _, err := conn.Exec(ctx, "SET TimeZone = 'UTC'"); err != nil {
		return 0, err
	}
	tag, err := conn.Conn().PgConn().CopyFrom(ctx, body, fmt.Sprintf("COPY raw.%s (%s) FROM STDIN", table, columns))
	if err != nil {
		return 0, fmt.Errorf("copying %s of project %d: %w", table, p, err)
	}
	return tag.RowsAffected(), nil
}

// clickhouseHTTP runs query on the bench database through ClickHouse's
// HTTP interface and returns the answer's body.
func (b *bench) clickhouseHTTP(ctx context.Context, query string) (io.ReadCloser, error) {
	u, err := url.Parse(b.chURL)
	if err != nil {
		return nil, err
	}
	params := url.Values{"database": {strings.TrimPrefix(u.Path, "/")}}
	endpoint := url.URL{Scheme: u.Scheme, Host: u.Host, Path: "/", RawQuery: params.Encode()}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint.String(), strings.NewReader(query))
	if err != nil {
		return nil, err
	}
	// Like clickhouse-go, a URL without a user speaks as "default": servers
	// that require credentials refuse a request carrying none.
	req.Header.Set("X-ClickHouse-User", "default")
	if u.User != nil {
		req.Header.Set("X-ClickHouse-User", u.User.Username())
		if pw, ok := u.User.Password(); ok {
			req.Header.Set("X-ClickHouse-Key", pw)
		}
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, fmt.Errorf("querying clickhouse over http: %w", err)
	}
	if res.StatusCode != http.StatusOK {
		msg, _ := io.ReadAll(io.LimitReader(res.Body, 2000))
		res.Body.Close()
		return nil, fmt.Errorf("clickhouse answered %d: %s", res.StatusCode, strings.TrimSpace(string(msg)))
	}
	return res.Body, nil
}
