// Package oltp is Sightline's Postgres store: configuration and write-model
// state. SQL sits beside the method that runs it, and Postgres errors are
// translated into sightline errors here and nowhere else.
package oltp

import (
	"context"
	"errors"
	"fmt"

	sq "github.com/Masterminds/squirrel"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// psql builds statements with Postgres' $n placeholders.
var psql = sq.StatementBuilder.PlaceholderFormat(sq.Dollar)

// DBTX is what a store method runs on: the pool, or a transaction that the
// caller commits together with other writes.
type DBTX interface {
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// Batcher sends several statements in one round trip; pools,
// connections and transactions are.
type Batcher interface {
	SendBatch(ctx context.Context, b *pgx.Batch) pgx.BatchResults
}

// Connect opens a pool on url and checks that the server answers.
func Connect(ctx context.Context, url string, maxConns int32) (*pgxpool.Pool, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("parsing DATABASE_URL: %w", err)
	}
	if maxConns > 0 {
		cfg.MaxConns = maxConns
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("opening postgres pool: %w", err)
	}
	if err := pool.Ping(ctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("reaching postgres: %w", err)
	}
	return pool, nil
}

// Postgres error codes the stores translate.
const (
	pgUniqueViolation     = "23505"
	pgForeignKeyViolation = "23503"
	pgCheckViolation      = "23514"
)

// pgCode returns the SQLSTATE of err, or "" when err did not come from Postgres.
func pgCode(err error) string {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		return pgErr.Code
	}
	return ""
}

// ProjectPage selects a page of one kind of a project's records, in the
// one order that kind is listed in.
type ProjectPage struct {
	OrganizationID, ProjectID uuid.UUID
	Descending                bool
	Limit, Offset             int
}

// selects are the page and count queries of the page over from, whose
// records (aliased alias) are joined to their project p, in order by orderBy.
func (f ProjectPage) selects(alias, columns, from, orderBy string) (page, count sq.SelectBuilder) {
	where := sq.Eq{alias + ".project_id": f.ProjectID, "p.organization_id": f.OrganizationID}
	return pageWithTotal(columns, from, where, f.Limit, f.Offset, orderBy+direction(f.Descending))
}

// direction is the SQL of a listing's sort direction.
func direction(descending bool) string {
	if descending {
		return " DESC"
	}
	return " ASC"
}

// pageWithTotal is the select of one page of the rows of from matching
// where, each carrying their number in total (count(*) OVER ()), and the
// count listWithTotal falls back on when the page is empty.
func pageWithTotal(columns, from string, where sq.Sqlizer, limit, offset int, orderBy ...string) (page, count sq.SelectBuilder) {
	page = psql.Select(columns, "count(*) OVER () AS total").From(from).Where(where).
		OrderBy(orderBy...).Limit(uint64(limit)).Offset(uint64(offset))
	return page, psql.Select("count(*)").From(from).Where(where)
}

// listWithTotal runs a listing query that carries its total in each row
// (a window or a scalar count). An empty page (an offset past the end) has
// no row to carry it, so count is run instead.
func listWithTotal[R, T any](ctx context.Context, db DBTX, page, count sq.SelectBuilder, split func(R) (T, int)) ([]T, int, error) {
	query, args, err := page.ToSql()
	if err != nil {
		return nil, 0, fmt.Errorf("building listing: %w", err)
	}
	found, err := queryRows(ctx, db, pgx.RowToStructByName[R], "listing", query, args...)
	if err != nil {
		return nil, 0, err
	}
	out := make([]T, len(found))
	total := 0
	for i, r := range found {
		out[i], total = split(r)
	}
	if len(found) > 0 {
		return out, total, nil
	}
	query, args, err = count.ToSql()
	if err != nil {
		return nil, 0, fmt.Errorf("building listing count: %w", err)
	}
	if err := db.QueryRow(ctx, query, args...).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("counting listing: %w", err)
	}
	return out, total, nil
}

// queryRows runs query and collects its rows with rowTo. Either failure is
// wrapped with doing ("reading keywords").
func queryRows[T any](ctx context.Context, db DBTX, rowTo pgx.RowToFunc[T], doing, query string, args ...any) ([]T, error) {
	rows, err := db.Query(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", doing, err)
	}
	out, err := pgx.CollectRows(rows, rowTo)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", doing, err)
	}
	return out, nil
}

// execCount runs a statement and returns how many rows it affected. A
// failure is wrapped with doing ("deleting expired jobs").
func execCount(ctx context.Context, db DBTX, doing, query string, args ...any) (int64, error) {
	tag, err := db.Exec(ctx, query, args...)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", doing, err)
	}
	return tag.RowsAffected(), nil
}

// queryOne runs query and collects its one row into a T by column name.
// No row is notFound; any other failure is wrapped with doing.
func queryOne[T any](ctx context.Context, db DBTX, notFound error, doing, query string, args ...any) (*T, error) {
	rows, err := db.Query(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", doing, err)
	}
	v, err := pgx.CollectExactlyOneRow(rows, pgx.RowToStructByName[T])
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, notFound
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", doing, err)
	}
	return &v, nil
}

// scanFound scans the row of a QueryRow into dest and reports whether
// there was one. A failure is wrapped with doing.
func scanFound(row pgx.Row, doing string, dest ...any) (bool, error) {
	err := row.Scan(dest...)
	if errors.Is(err, pgx.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("%s: %w", doing, err)
	}
	return true, nil
}

// scanOne is scanFound for a row that must exist: no row is notFound.
func scanOne(row pgx.Row, notFound error, doing string, dest ...any) error {
	found, err := scanFound(row, doing, dest...)
	if err == nil && !found {
		return notFound
	}
	return err
}

// setOf is the set of the values of s.
func setOf[K comparable](s []K) map[K]bool {
	out := make(map[K]bool, len(s))
	for _, k := range s {
		out[k] = true
	}
	return out
}

// whereAny adds predicate, whose one placeholder takes values, to where;
// no values means no filter.
func whereAny[T any](where sq.And, predicate string, values []T) sq.And {
	if len(values) == 0 {
		return where
	}
	return append(where, sq.Expr(predicate, values))
}
