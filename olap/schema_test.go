package olap_test

import (
	"context"
	"strings"
	"testing"
)

// TestSchemaCapturesAndRollups checks what the migrations promise for every
// capture and rollup table: monthly partitions, project then day first in
// the sorting key, 16 months of TTL, deduplication of re-sent blocks, and a
// comment on the table and on every column; and that each view writes TO
// its rollup.
func TestSchemaCapturesAndRollups(t *testing.T) {
	t.Parallel()
	f := newCapturesFixture(t)
	ctx := context.Background()
	show := func(name string) string {
		t.Helper()
		var ddl string
		if err := f.conn.QueryRow(ctx, "SHOW CREATE TABLE "+name).Scan(&ddl); err != nil {
			t.Fatalf("show create %s: %v", name, err)
		}
		return ddl
	}
	raw := []string{"ai_answers", "mentions", "citations", "search_results", "shopping_offers", "rank_rows"}
	rollups := []string{"mentions_daily", "ranks_daily", "cooccurrence_daily", "cited_sources_daily"}
	for _, table := range append(raw, rollups...) {
		ddl := show(table)
		day := "toDate(captured_at)"
		want := []string{"ENGINE = ReplacingMergeTree", "PARTITION BY toYYYYMM(captured_at)",
			"TTL toDateTime(captured_at) + toIntervalMonth(16)"}
		if strings.HasSuffix(table, "_daily") {
			day = "day"
			want = []string{"ENGINE = AggregatingMergeTree", "PARTITION BY toYYYYMM(day)", "TTL day + toIntervalMonth(16)"}
		}
		want = append(want, "ORDER BY (project_id, "+day+", tracked_query_id", "non_replicated_deduplication_window = 1000", "COMMENT '")
		for _, w := range want {
			if !strings.Contains(ddl, w) {
				t.Errorf("%s lacks %q:\n%s", table, w, ddl)
			}
		}
		var uncommented []string
		rows, err := f.conn.Query(ctx, "SELECT name FROM system.columns WHERE database = currentDatabase() AND table = ? AND comment = ''", table)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var name string
			if err := rows.Scan(&name); err != nil {
				t.Fatal(err)
			}
			uncommented = append(uncommented, name)
		}
		rows.Close()
		if len(uncommented) > 0 {
			t.Errorf("%s: columns without a comment: %v", table, uncommented)
		}
	}
	for _, rollup := range rollups {
		if ddl := show(rollup + "_mv"); !strings.Contains(ddl, "MATERIALIZED VIEW") || !strings.Contains(ddl, " TO ") ||
			strings.Contains(ddl, "POPULATE") {
			t.Errorf("%s_mv is not a view writing TO its table:\n%s", rollup, ddl)
		}
	}
}
