package oltp

import (
	"context"
	"fmt"

	sq "github.com/Masterminds/squirrel"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
)

// TrackedQueryLabel is what names a tracked query in an analytics row.
type TrackedQueryLabel struct {
	ID        uuid.UUID `db:"id"`
	QueryText string    `db:"query_text"`
	Engine    string    `db:"engine"`
	Country   string    `db:"country"`
}

// TrackedQueryLabels returns the project's current tracked queries on the
// engines and in the countries given (empty: all), read from the write
// model: a deleted query has no label, so it never names a row.
func TrackedQueryLabels(ctx context.Context, db DBTX, projectID uuid.UUID, engines, countries []string) ([]TrackedQueryLabel, error) {
	where := sq.And{sq.Eq{"project_id": projectID}}
	where = whereAny(where, "engine = ANY(?)", engines)
	where = whereAny(where, "country = ANY(?)", countries)
	query, args, err := psql.Select("id", "query_text", "engine", "country").From("tracked_queries").Where(where).ToSql()
	if err != nil {
		return nil, fmt.Errorf("building tracked query labels: %w", err)
	}
	return queryRows(ctx, db, pgx.RowToStructByName[TrackedQueryLabel], "reading tracked query labels", query, args...)
}
