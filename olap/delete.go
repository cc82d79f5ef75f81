package olap

import (
	"context"
	"fmt"

	"github.com/ClickHouse/clickhouse-go/v2"
	"github.com/ClickHouse/clickhouse-go/v2/lib/driver"
	"github.com/google/uuid"
)

// trackedQueryTables is every table holding rows of a tracked query: the
// raw tables and the rollups, whose materialized views do not see
// deletions of their sources. Each raw table follows its rollups at once,
// so reads that pair a rollup's count with the raw rows it counts (the
// mention samples and their total) disagree for one statement at most
// while a cascade runs.
var trackedQueryTables = []string{
	"check_results", "ai_answers",
	"mentions_daily", "mentions_monthly", "mentions",
	"cited_sources_daily", "citations",
	"search_results", "shopping_offers",
	"ranks_daily", "ranks_monthly", "cooccurrence_daily", "rank_rows",
}

// deleteSettings make a delete return only once its rows are gone from
// every replica: lightweight DELETE for rows, mutations for ALTER ...
// UPDATE.
var deleteSettings = clickhouse.Settings{
	"lightweight_deletes_sync": 2,
	"mutations_sync":           2,
}

// DeleteTrackedQueries removes every row of the tracked queries from every
// table, rollups included, so no window and no total counts them any more.
// It uses lightweight DELETE, which hides the rows at once and drops them
// at the next merge, and is idempotent: the background cascade of a bulk
// delete may run it again. Rows a check still in flight writes afterwards
// are not covered; the cascade runs once the query's checks are cancelled.
func DeleteTrackedQueries(ctx context.Context, conn driver.Conn, projectID uuid.UUID, ids []uuid.UUID) error {
	if len(ids) == 0 {
		return nil
	}
	ctx = clickhouse.Context(ctx, clickhouse.WithSettings(deleteSettings))
	for _, table := range trackedQueryTables {
		if err := conn.Exec(ctx, "DELETE FROM "+table+" WHERE project_id = ? AND tracked_query_id IN (?)", projectID, ids); err != nil {
			return fmt.Errorf("deleting tracked queries from %s: %w", table, err)
		}
	}
	return nil
}

// DeleteCompetitor removes a deleted competitor from a project's captures
// and analytics:
//   - its mentions and its rank rows, so its worth leaves every
//     share-of-voice denominator, and its rows in mentions_daily,
//     ranks_daily, cooccurrence_daily, mentions_monthly and ranks_monthly
//     (the per-market projections are rebuilt for the parts a delete
//     touches);
//   - its link to citations, search results and shopping offers, which
//     stay as what the pages showed (captures are facts about the query)
//     but no longer carry its id or a tracked-competitor relation, so it
//     has no serp matches left. cited_sources_daily is unfiltered by
//     ownership and keeps no competitor.
//
// Positions of the other brands are historical and keep their values.
// Like DeleteTrackedQueries it is idempotent and waits for completion.
func DeleteCompetitor(ctx context.Context, conn driver.Conn, projectID, competitorID uuid.UUID) error {
	if competitorID == uuid.Nil {
		return fmt.Errorf("deleting competitor: the nil id names the own brand")
	}
	ctx = clickhouse.Context(ctx, clickhouse.WithSettings(deleteSettings))
	for _, table := range []string{"mentions", "rank_rows", "mentions_daily", "ranks_daily", "cooccurrence_daily",
		"mentions_monthly", "ranks_monthly"} {
		if err := conn.Exec(ctx, "DELETE FROM "+table+" WHERE project_id = ? AND competitor_id = ?", projectID, competitorID); err != nil {
			return fmt.Errorf("deleting competitor from %s: %w", table, err)
		}
	}
	for _, table := range []string{"citations", "search_results", "shopping_offers"} {
		if err := conn.Exec(ctx, "ALTER TABLE "+table+" UPDATE relation = '', competitor_id = NULL WHERE project_id = ? AND competitor_id = ?",
			projectID, competitorID); err != nil {
			return fmt.Errorf("unlinking competitor from %s: %w", table, err)
		}
	}
	return nil
}
