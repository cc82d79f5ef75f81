package jobs_test

import (
	"context"
	"log/slog"
	"slices"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"

	"github.com/sightline/sightline/jobs"
	"github.com/sightline/sightline/oltp"
	"github.com/sightline/sightline/oltp/oltptest"
)

// projectionProject inserts an organization with a project and returns
// the project's id.
func projectionProject(t *testing.T, pool *pgxpool.Pool) uuid.UUID {
	t.Helper()
	ctx := context.Background()
	email := "p-" + uuid.NewString()[:8] + "@example.com"
	if _, err := oltp.CreateUser(ctx, pool, email, nil); err != nil {
		t.Fatal(err)
	}
	org, err := oltp.CreateOrganization(ctx, pool, "Projection org", email)
	if err != nil {
		t.Fatal(err)
	}
	id := uuid.Must(uuid.NewV7())
	if _, err := pool.Exec(ctx, `INSERT INTO projects (id, organization_id, name) VALUES ($1, $2, 'p')`, id, org); err != nil {
		t.Fatal(err)
	}
	return id
}

// projectionQuery inserts a tracked query straight into the write model.
func projectionQuery(t *testing.T, db oltp.DBTX, project uuid.UUID, text string) uuid.UUID {
	t.Helper()
	id := uuid.Must(uuid.NewV7())
	if _, err := db.Exec(context.Background(), `
		INSERT INTO tracked_queries (id, project_id, query_text, engine, country, check_frequency, n_passes)
		VALUES ($1, $2, $3, 'chatgpt', 'US', 'daily', 2)`, id, project, text); err != nil {
		t.Fatal(err)
	}
	return id
}

func projectionMarkStale(t *testing.T, db oltp.DBTX, project uuid.UUID) {
	t.Helper()
	if err := oltp.MarkTrackedQuerySearchStale(context.Background(), db, project); err != nil {
		t.Fatal(err)
	}
}

func projectionRefresh(t *testing.T, pool *pgxpool.Pool, project uuid.UUID) {
	t.Helper()
	w := &jobs.RefreshTrackedQuerySearchWorker{Pool: pool, Logger: slog.New(slog.DiscardHandler)}
	err := w.Work(context.Background(), &river.Job[jobs.RefreshTrackedQuerySearchArgs]{
		Args: jobs.RefreshTrackedQuerySearchArgs{ProjectID: project}})
	if err != nil {
		t.Fatal(err)
	}
}

// projectionRows returns "text status passes clusters sov" per search row
// of the project, in text order.
func projectionRows(t *testing.T, pool *pgxpool.Pool, project uuid.UUID) []string {
	t.Helper()
	rows, err := pool.Query(context.Background(), `
		SELECT query_text || ' ' || status || ' ' || n_passes || ' ' || cardinality(query_cluster_ids) || ' ' ||
		       coalesce(last_share_of_voice::text, '-')
		FROM tracked_query_search_rows WHERE project_id = $1 ORDER BY query_text`, project)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
	if rows.Err() != nil {
		t.Fatal(rows.Err())
	}
	return out
}

func projectionStale(t *testing.T, pool *pgxpool.Pool, project uuid.UUID) bool {
	t.Helper()
	var stale bool
	pool.QueryRow(context.Background(),
		`SELECT EXISTS (SELECT 1 FROM tracked_query_search_pending WHERE project_id = $1)`, project).Scan(&stale)
	return stale
}

func TestProjectionRefreshFollowsTheWriteModel(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := oltptest.NewPool(t)
	project := projectionProject(t, pool)
	a := projectionQuery(t, pool, project, "alpha")
	b := projectionQuery(t, pool, project, "beta")
	cluster := uuid.Must(uuid.NewV7())
	if _, err := pool.Exec(ctx, `INSERT INTO query_clusters (id, project_id, name) VALUES ($1, $2, 'c')`, cluster, project); err != nil {
		t.Fatal(err)
	}
	if _, err := pool.Exec(ctx, `INSERT INTO tracked_query_clusters (project_id, tracked_query_id, cluster_id)
		VALUES ($1, $2, $3)`, project, a, cluster); err != nil {
		t.Fatal(err)
	}
	projectionMarkStale(t, pool, project)
	projectionRefresh(t, pool, project)
	if got, want := projectionRows(t, pool, project), []string{"alpha active 2 1 -", "beta active 2 0 -"}; !slices.Equal(got, want) {
		t.Fatalf("rows %q, want %q", got, want)
	}
	if projectionStale(t, pool, project) {
		t.Fatal("still stale after a refresh")
	}
	// The check pipeline's metrics survive later refreshes.
	if _, err := pool.Exec(ctx, `UPDATE tracked_query_search_rows SET last_share_of_voice = 12.5 WHERE tracked_query_id = $1`, a); err != nil {
		t.Fatal(err)
	}
	// A change that does not mark the project stale is not picked up.
	if _, err := pool.Exec(ctx, `UPDATE tracked_queries SET status = 'paused' WHERE id = $1`, a); err != nil {
		t.Fatal(err)
	}
	projectionRefresh(t, pool, project)
	if got := projectionRows(t, pool, project); got[0] != "alpha active 2 1 12.5" {
		t.Fatalf("a project not marked stale was refreshed: %q", got)
	}
	// Marked: changes, deletions and new queries are copied.
	if _, err := pool.Exec(ctx, `UPDATE tracked_queries SET n_passes = 5 WHERE id = $1`, a); err != nil {
		t.Fatal(err)
	}
	if _, err := pool.Exec(ctx, `DELETE FROM tracked_queries WHERE id = $1`, b); err != nil {
		t.Fatal(err)
	}
	projectionQuery(t, pool, project, "gamma")
	projectionMarkStale(t, pool, project)
	projectionRefresh(t, pool, project)
	if got, want := projectionRows(t, pool, project), []string{"alpha paused 5 1 12.5", "gamma active 2 0 -"}; !slices.Equal(got, want) {
		t.Fatalf("rows %q, want %q", got, want)
	}
	// A deleted cluster leaves the row at the next refresh.
	if _, err := pool.Exec(ctx, `DELETE FROM query_clusters WHERE id = $1`, cluster); err != nil {
		t.Fatal(err)
	}
	projectionMarkStale(t, pool, project)
	projectionRefresh(t, pool, project)
	if got := projectionRows(t, pool, project); got[0] != "alpha paused 5 0 12.5" {
		t.Fatalf("rows %q", got)
	}
}

// A write that commits while a refresh runs is not lost: the refresh
// leaves the project stale, and the next one copies the write.
func TestProjectionRefreshKeepsWritesLandingDuringIt(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := oltptest.NewPool(t)
	project := projectionProject(t, pool)
	projectionQuery(t, pool, project, "alpha")
	projectionMarkStale(t, pool, project)

	// A write in flight: its row and its mark are not committed yet, and
	// it holds the project's pending row.
	tx, err := pool.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback(ctx) //nolint:errcheck
	projectionQuery(t, tx, project, "beta")
	projectionMarkStale(t, tx, project)

	type outcome struct {
		refreshed, stale bool
		err              error
	}
	done := make(chan outcome, 1)
	go func() {
		refreshed, stale, err := oltp.RefreshTrackedQuerySearch(ctx, pool, project)
		done <- outcome{refreshed, stale, err}
	}()
	// Wait until the refresh is blocked on the write's pending row, then commit the write.
	deadline := time.Now().Add(10 * time.Second)
	for {
		var waiting bool
		pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM pg_stat_activity WHERE datname = current_database()
			AND wait_event_type = 'Lock' AND query LIKE '%tracked_query_search_pending%')`).Scan(&waiting)
		if waiting {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the refresh never waited for the write")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err := tx.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	o := <-done
	if o.err != nil || !o.refreshed || !o.stale {
		t.Fatalf("refresh during a write: %+v, want refreshed and still stale", o)
	}
	if got := projectionRows(t, pool, project); !slices.Equal(got, []string{"alpha active 2 0 -"}) {
		t.Fatalf("rows %q", got)
	}
	projectionRefresh(t, pool, project)
	if got := projectionRows(t, pool, project); !slices.Equal(got, []string{"alpha active 2 0 -", "beta active 2 0 -"}) || projectionStale(t, pool, project) {
		t.Fatalf("rows %q after the next refresh", got)
	}
}

func TestProjectionSweepRefreshesEveryStaleProject(t *testing.T) {
	t.Parallel()
	pool := oltptest.NewPool(t)
	p1, p2, p3 := projectionProject(t, pool), projectionProject(t, pool), projectionProject(t, pool)
	for _, p := range []uuid.UUID{p1, p2, p3} {
		projectionQuery(t, pool, p, "q")
	}
	projectionMarkStale(t, pool, p1)
	projectionMarkStale(t, pool, p2)
	w := &jobs.SweepTrackedQuerySearchWorker{Pool: pool, Logger: slog.New(slog.DiscardHandler)}
	if err := w.Work(context.Background(), &river.Job[jobs.SweepTrackedQuerySearchArgs]{}); err != nil {
		t.Fatal(err)
	}
	for p, want := range map[uuid.UUID]int{p1: 1, p2: 1, p3: 0} {
		if got := len(projectionRows(t, pool, p)); got != want || projectionStale(t, pool, p) {
			t.Errorf("project %s: %d rows, want %d", p, got, want)
		}
	}
}

func TestProjectionRefreshJobIsUniquePerProjectUntilItFinishes(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := oltptest.NewPool(t)
	client, err := jobs.NewClient(pool, jobs.Config{Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	p1, p2 := uuid.New(), uuid.New()
	insert := func(p uuid.UUID) bool {
		t.Helper()
		res, err := client.Insert(ctx, jobs.RefreshTrackedQuerySearchArgs{ProjectID: p}, nil)
		if err != nil {
			t.Fatal(err)
		}
		return res.UniqueSkippedAsDuplicate
	}
	if insert(p1) || !insert(p1) || insert(p2) {
		t.Fatal("want one waiting refresh per project")
	}
	// Running still absorbs new requests; once finished, a write needs a new job.
	if _, err := pool.Exec(ctx, `UPDATE river_job SET state = 'running', attempted_at = now(), attempt = 1
		WHERE kind = 'tracked_query_search_refresh' AND args->>'projectId' = $1`, p1.String()); err != nil {
		t.Fatal(err)
	}
	if !insert(p1) {
		t.Fatal("a running refresh must absorb a new request")
	}
	if _, err := pool.Exec(ctx, `UPDATE river_job SET state = 'completed', finalized_at = now()
		WHERE kind = 'tracked_query_search_refresh' AND args->>'projectId' = $1`, p1.String()); err != nil {
		t.Fatal(err)
	}
	if insert(p1) {
		t.Fatal("a finished refresh must not absorb a new request")
	}
}

// A change to tracked queries marks the listing stale and enqueues its
// refresh in the change's transaction: both or, rolled back, neither.
func TestTrackedQueriesChanged(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := oltptest.NewPool(t)
	client, err := jobs.NewClient(pool, jobs.Config{Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	state := func(project uuid.UUID) (stale bool, refreshes int) {
		t.Helper()
		if err := pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM tracked_query_search_pending WHERE project_id = $1),
			(SELECT count(*) FROM river_job WHERE kind = 'tracked_query_search_refresh' AND args->>'projectId' = $2)`,
			project, project.String()).Scan(&stale, &refreshes); err != nil {
			t.Fatal(err)
		}
		return stale, refreshes
	}
	for _, commit := range []bool{true, false} {
		project := projectionProject(t, pool)
		tx, err := pool.Begin(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if err := jobs.TrackedQueriesChanged(ctx, tx, client, project); err != nil {
			t.Fatal(err)
		}
		if commit {
			err = tx.Commit(ctx)
		} else {
			err = tx.Rollback(ctx)
		}
		if err != nil {
			t.Fatal(err)
		}
		if stale, refreshes := state(project); stale != commit || (refreshes == 1) != commit {
			t.Errorf("committed %v: stale %v, %d refresh jobs", commit, stale, refreshes)
		}
	}
}
