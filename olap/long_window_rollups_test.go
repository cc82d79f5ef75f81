package olap_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/ClickHouse/clickhouse-go/v2"
	"github.com/google/uuid"
	"github.com/pressly/goose/v3"

	"github.com/sightline/sightline/olap"
	"github.com/sightline/sightline/olap/olaptest"
	"github.com/sightline/sightline/schema"
)

// longWindowRollups reads, as text, what the rollups of migration 00006
// must agree on for project: each monthly rollup against its daily one
// summed per month, and ranks_daily's per-market projection (forced: the
// read fails if ClickHouse does not use a projection) against the table.
type longWindowRollups struct {
	ranksMonthly, ranksByMonth       string
	mentionsMonthly, mentionsByMonth string
	byMarket, table                  string
}

func readLongWindowRollups(t *testing.T, f *capturesFixture) longWindowRollups {
	t.Helper()
	text := func(ctx context.Context, query string) string {
		t.Helper()
		var s string
		if err := f.conn.QueryRow(ctx, "SELECT arrayStringConcat(groupArray(toString(tuple(*))), '\n') FROM ("+query+")",
			f.project).Scan(&s); err != nil {
			t.Fatalf("%s: %v", query, err)
		}
		return s
	}
	ctx := context.Background()
	const ranks = `SELECT %s AS month, tracked_query_id, engine, relation, competitor_id, sum(passes), sum(mention_count),
		sum(mention_position_sum), sum(mention_position_sq_sum), min(mention_position_min), sumMap(mention_positions),
		sum(link_count), sum(serp_count), sum(serp_position_sum), sum(shopping_count), min(shopping_position_min)
		FROM %s WHERE project_id = ? GROUP BY ALL ORDER BY ALL`
	const mentions = `SELECT %s AS month, tracked_query_id, engine, relation, competitor_id, sum(mentions), round(sum(worth), 9),
		sum(tone_positive), sum(tone_negative), sum(type_listing), sum(qualifier_conditional)
		FROM %s WHERE project_id = ? GROUP BY ALL ORDER BY ALL`
	const market = `SELECT day, engine, country, relation, competitor_id, sum(passes), sum(mention_count),
		sum(mention_position_sq_sum), min(mention_position_min), sum(link_position_sum), sum(serp_count),
		min(serp_position_min), sum(shopping_position_sum)
		FROM ranks_daily WHERE project_id = ? GROUP BY ALL ORDER BY ALL`
	forced := clickhouse.Context(ctx, clickhouse.WithSettings(clickhouse.Settings{"force_optimize_projection": 1}))
	unprojected := clickhouse.Context(ctx, clickhouse.WithSettings(clickhouse.Settings{"optimize_use_projections": 0}))
	return longWindowRollups{
		ranksMonthly:    text(ctx, fmt.Sprintf(ranks, "day", "ranks_monthly")),
		ranksByMonth:    text(ctx, fmt.Sprintf(ranks, "toStartOfMonth(day)", "ranks_daily")),
		mentionsMonthly: text(ctx, fmt.Sprintf(mentions, "day", "mentions_monthly")),
		mentionsByMonth: text(ctx, fmt.Sprintf(mentions, "toStartOfMonth(day)", "mentions_daily")),
		byMarket:        text(forced, market),
		table:           text(unprojected, market),
	}
}

func (r longWindowRollups) check(t *testing.T, stage string) {
	t.Helper()
	if r.ranksMonthly == "" || r.mentionsMonthly == "" || r.byMarket == "" {
		t.Errorf("%s: empty rollups: %+v", stage, r)
	}
	if r.ranksMonthly != r.ranksByMonth {
		t.Errorf("%s: ranks_monthly\n%s\nwant ranks_daily per month\n%s", stage, r.ranksMonthly, r.ranksByMonth)
	}
	if r.mentionsMonthly != r.mentionsByMonth {
		t.Errorf("%s: mentions_monthly\n%s\nwant mentions_daily per month\n%s", stage, r.mentionsMonthly, r.mentionsByMonth)
	}
	if r.byMarket != r.table {
		t.Errorf("%s: ranks_daily.by_market\n%s\nwant the table's\n%s", stage, r.byMarket, r.table)
	}
}

// TestLongWindowRollupsFollowDeletes checks that the monthly rollups and
// ranks_daily's per-market projection hold exactly what the daily rollups
// hold, over passes in two months, after a tracked query and a competitor
// are deleted (each cascade run twice, as a retried job would) and after
// the writer is asked to store passes it already holds again.
func TestLongWindowRollupsFollowDeletes(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newCapturesFixture(t)
	earlier := *f
	earlier.day = f.day.AddDate(0, -2, -3)
	recent, old := f.dataset(), earlier.dataset()
	passes := append(append([]olap.PassRows{}, recent.passes...), old.passes...)
	if err := olaptest.InsertPasses(ctx, f.conn, passes); err != nil {
		t.Fatal(err)
	}
	before := readLongWindowRollups(t, f)
	before.check(t, "after insert")

	for range 2 {
		if err := olap.DeleteTrackedQueries(ctx, f.conn, f.project, []uuid.UUID{recent.q1, old.serp}); err != nil {
			t.Fatal(err)
		}
		if err := olap.DeleteCompetitor(ctx, f.conn, f.project, f.compA); err != nil {
			t.Fatal(err)
		}
	}
	after := readLongWindowRollups(t, f)
	after.check(t, "after the deletes")
	if after.byMarket == before.byMarket || after.ranksMonthly == before.ranksMonthly {
		t.Error("the deletes changed nothing in the long-window rollups")
	}
	for _, table := range []string{"ranks_monthly", "mentions_monthly"} {
		if n := f.count("SELECT count() FROM "+table+" WHERE project_id = ? AND (tracked_query_id IN (?, ?) OR competitor_id = ?)",
			f.project, recent.q1, old.serp, f.compA); n != 0 {
			t.Errorf("%s keeps %d rows of the deleted query or competitor", table, n)
		}
	}
	forced := clickhouse.Context(ctx, clickhouse.WithSettings(clickhouse.Settings{"force_optimize_projection": 1}))
	var n uint64
	if err := f.conn.QueryRow(forced, `SELECT count() FROM (SELECT day, engine, country, sum(passes) FROM ranks_daily
		WHERE project_id = ? AND competitor_id = ? GROUP BY ALL)`, f.project, f.compA).Scan(&n); err != nil || n != 0 {
		t.Errorf("ranks_daily.by_market keeps %d groups of the deleted competitor (%v)", n, err)
	}

	// A retried flush of passes still stored adds nothing to any of them.
	var stored []olap.PassRows
	for _, p := range old.passes {
		if p.TrackedQueryID != old.serp {
			stored = append(stored, p)
		}
	}
	if err := olaptest.InsertPasses(ctx, f.conn, stored); err != nil {
		t.Fatal(err)
	}
	again := readLongWindowRollups(t, f)
	again.check(t, "after the retried flush")
	if again != after {
		t.Errorf("the retried flush changed the rollups:\n%+v\nwant\n%+v", again, after)
	}
}

// TestMonthlyRollupsFillFromTheDailyRollups checks the fill of migration
// 00006: daily rollups stored before the monthly tables existed end up in
// them, summed per month.
func TestMonthlyRollupsFillFromTheDailyRollups(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	url := olaptest.NewDatabase(t)
	conn, err := olap.Connect(ctx, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	f := capturesFixtureOn(t, conn)
	earlier := *f
	earlier.day = f.day.AddDate(0, -2, -3)
	passes := append(f.dataset().passes, earlier.dataset().passes...)
	if err := olaptest.InsertPasses(ctx, conn, passes); err != nil {
		t.Fatal(err)
	}

	db, err := olap.OpenDB(url)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	provider, err := schema.NewProvider(goose.DialectClickHouse, db)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := provider.DownTo(ctx, 5); err != nil {
		t.Fatal(err)
	}
	if n := f.count("SELECT count() FROM system.tables WHERE database = currentDatabase() AND name LIKE '%monthly%'"); n != 0 {
		t.Fatalf("rolled back to 00005, the database still has %d monthly tables or views", n)
	}
	if _, err := provider.Up(ctx); err != nil {
		t.Fatal(err)
	}
	readLongWindowRollups(t, f).check(t, "after the fill")
}
