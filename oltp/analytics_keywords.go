package oltp

import (
	"context"
	"fmt"
	"time"

	sq "github.com/Masterminds/squirrel"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
)

// KeywordFilter selects the tracked queries (variants) behind the rows of
// the keyword listing. Empty fields select everything.
type KeywordFilter struct {
	ProjectID uuid.UUID
	Engines   []string
	Countries []string // alpha-2 codes
	// TrackedQueryIDs, when non-nil, keeps only these queries (a cluster
	// selection resolved against today's memberships).
	TrackedQueryIDs  []uuid.UUID
	Status           string
	CheckFrequencies []string
	NPasses          []int
	// Search does not narrow the keywords returned: it sets MatchesSearch,
	// so that the caller can count the variants of every keyword the other
	// filters keep (spec 2.9 totalVariantCount).
	Search string
}

// Keyword is one distinct query text of a project with the tracked queries
// (variants: engine x country) behind it that match a KeywordFilter.
type Keyword struct {
	Text       string      `db:"query_text"`
	VariantIDs []uuid.UUID `db:"variant_ids"` // by id: creation order
	Active     int         `db:"active"`
	Paused     int         `db:"paused"`
	// LastCheckedAt is the latest completed check of any variant; nil when
	// none has completed one.
	LastCheckedAt *time.Time `db:"last_checked_at"`
	// MatchesSearch reports whether the text contains the filter's search
	// text (normalised like stored texts, so case-insensitive); true
	// without a search.
	MatchesSearch bool `db:"matches_search"`
}

// Keywords returns the keywords of the project that have a variant
// matching every filter but Search, by text, with their matching variants.
func Keywords(ctx context.Context, db DBTX, f KeywordFilter) ([]Keyword, error) {
	if f.TrackedQueryIDs != nil && len(f.TrackedQueryIDs) == 0 {
		return nil, nil
	}
	where := sq.And{sq.Eq{"project_id": f.ProjectID}}
	where = whereAny(where, "engine = ANY(?)", f.Engines)
	where = whereAny(where, "country = ANY(?)", f.Countries)
	if f.TrackedQueryIDs != nil {
		where = append(where, sq.Expr("id = ANY(?)", f.TrackedQueryIDs))
	}
	if f.Status != "" {
		where = append(where, sq.Eq{"status": f.Status})
	}
	where = whereAny(where, "check_frequency = ANY(?)", f.CheckFrequencies)
	where = whereAny(where, "n_passes = ANY(?::smallint[])", f.NPasses)
	matches := sq.Expr("true AS matches_search")
	if search := NormalizeSearchText(f.Search); search != "" {
		matches = sq.Expr("strpos(query_text, ?) > 0 AS matches_search", search)
	}
	query, args, err := psql.Select(
		"query_text",
		"array_agg(id ORDER BY id) AS variant_ids",
		"count(*) FILTER (WHERE status = 'active') AS active",
		"count(*) FILTER (WHERE status = 'paused') AS paused",
		"max(last_checked_at) AS last_checked_at").
		Column(matches).
		From("tracked_queries").Where(where).GroupBy("query_text").OrderBy("query_text").ToSql()
	if err != nil {
		return nil, fmt.Errorf("building keywords: %w", err)
	}
	return queryRows(ctx, db, pgx.RowToStructByName[Keyword], "reading keywords", query, args...)
}
