package olap_test

import (
	"context"
	"math"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/sightline/sightline/olap"
	"github.com/sightline/sightline/olap/olaptest"
)

// capturesTablesWith lists the tables (not views) of the test database
// that have a column named column.
func capturesTablesWith(t *testing.T, f *capturesFixture, column string) []string {
	t.Helper()
	rows, err := f.conn.Query(context.Background(), `
		SELECT c.table FROM system.columns c
		JOIN system.tables t ON t.database = c.database AND t.name = c.table
		WHERE c.database = currentDatabase() AND c.name = ? AND t.engine NOT LIKE '%View'
		ORDER BY c.table`, column)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var tables []string
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			t.Fatal(err)
		}
		tables = append(tables, name)
	}
	return tables
}

func TestDeleteTrackedQueries(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newCapturesFixture(t)
	d := f.dataset()
	if err := olaptest.InsertPasses(ctx, f.conn, d.passes); err != nil {
		t.Fatal(err)
	}
	// A check result of q1 too: every ClickHouse row of the query goes.
	if err := f.conn.Exec(ctx, `INSERT INTO check_results (organization_id, project_id, tracked_query_id, run_id,
		engine, country, pass_index, status, error_code, started_at, finished_at)
		VALUES (?, ?, ?, ?, 'chatgpt', 'US', 0, 'completed', '', ?, ?)`,
		f.org, f.project, d.q1, d.passes[0].RunID, f.day, f.day.Add(time.Second)); err != nil {
		t.Fatal(err)
	}
	// The same query id in another project is not touched.
	other := *f
	other.project = uuid.New()
	stranger := other.pass(d.q1, uuid.New(), "chatgpt", 0, 1, 9)
	stranger.Mentions = d.passes[0].Mentions
	if err := olaptest.InsertPasses(ctx, f.conn, []olap.PassRows{stranger}); err != nil {
		t.Fatal(err)
	}

	if err := olap.DeleteTrackedQueries(ctx, f.conn, f.project, []uuid.UUID{d.q1, d.serp}); err != nil {
		t.Fatal(err)
	}
	// Idempotent: the cascade may run again.
	if err := olap.DeleteTrackedQueries(ctx, f.conn, f.project, []uuid.UUID{d.q1, d.serp}); err != nil {
		t.Fatal(err)
	}

	tables := capturesTablesWith(t, f, "tracked_query_id")
	if len(tables) < 11 {
		t.Fatalf("tables with tracked_query_id = %v, want every capture, rollup and check table", tables)
	}
	for _, table := range tables {
		if n := f.count("SELECT count() FROM "+table+" WHERE project_id = ? AND tracked_query_id IN (?, ?)", f.project, d.q1, d.serp); n != 0 {
			t.Errorf("%s still holds %d rows of the deleted queries", table, n)
		}
	}
	if n := f.count("SELECT count() FROM mentions WHERE project_id = ? AND tracked_query_id = ?", other.project, d.q1); n != 3 {
		t.Errorf("the other project's mentions = %d, want 3", n)
	}

	// What remains adds up to q2 and the shopping query alone.
	r := capturesReadRollups(t, f)
	if r.answers != 1 || !capturesNear(r.totalWorth, 1.15) || r.serpSnapshots != 0 || r.shoppingSnapshots != 2 ||
		r.domains[f.newsDomain].citations != 1 || r.headToHead[f.compA].shared != 0 || r.headToHead[f.compB].shared != 1 {
		t.Errorf("after deleting q1 and the search query: %+v", r)
	}
}

func TestDeleteCompetitor(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newCapturesFixture(t)
	d := f.dataset()
	if err := olaptest.InsertPasses(ctx, f.conn, d.passes); err != nil {
		t.Fatal(err)
	}
	if err := olap.DeleteCompetitor(ctx, f.conn, f.project, f.compA); err != nil {
		t.Fatal(err)
	}

	tables := capturesTablesWith(t, f, "competitor_id")
	if len(tables) < 8 {
		t.Fatalf("tables with competitor_id = %v", tables)
	}
	for _, table := range tables {
		if n := f.count("SELECT count() FROM "+table+" WHERE competitor_id = ?", f.compA); n != 0 {
			t.Errorf("%s still holds %d rows of the deleted competitor", table, n)
		}
	}
	// Captures stay whole: the pages and citations are facts about the query.
	if n := f.count("SELECT count() FROM search_results FINAL WHERE project_id = ? AND domain = ? AND relation = ''", f.project, f.aDom); n != 1 {
		t.Errorf("the competitor's search result unlinked = %d, want 1 kept without owner", n)
	}
	if n := f.count("SELECT count() FROM citations FINAL WHERE project_id = ?", f.project); n != 7 {
		t.Errorf("citations = %d, want all 7 kept", n)
	}

	// Its worth left every share-of-voice denominator; the others keep theirs.
	r := capturesReadRollups(t, f)
	if _, ok := r.brands[f.compA]; ok || !capturesNear(r.totalWorth, 3.06) || !capturesNear(r.brands[uuid.Nil].worth, 1.35) {
		t.Errorf("after deleting A: brands %v, total worth %v; want A gone and 3.06", r.brands, r.totalWorth)
	}
	if sov := 100 * r.brands[uuid.Nil].worth / r.totalWorth; math.Abs(sov-44.1176) > 1e-3 {
		t.Errorf("own share of voice = %v, want 44.12", sov)
	}
	if _, ok := r.headToHead[f.compA]; ok || r.headToHead[f.compB].shared != 1 {
		t.Errorf("head to head after deleting A = %v", r.headToHead)
	}
	if _, ok := r.competitorSERP[f.compA]; ok || r.ownSERP.count != 2 || r.ownMention.count != 2 || r.answers != 3 {
		t.Errorf("positions after deleting A: competitor serp %v, own serp %+v, own mentions %+v",
			r.competitorSERP, r.ownSERP, r.ownMention)
	}
	if err := olap.DeleteCompetitor(ctx, f.conn, f.project, uuid.Nil); err == nil {
		t.Error("deleting the nil competitor succeeded")
	}
}
