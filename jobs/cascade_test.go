package jobs_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/ClickHouse/clickhouse-go/v2/lib/driver"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"github.com/sightline/sightline"
	"github.com/sightline/sightline/jobs"
	"github.com/sightline/sightline/olap"
	"github.com/sightline/sightline/olap/olaptest"
	"github.com/sightline/sightline/oltp"
	"github.com/sightline/sightline/oltp/oltptest"
)

// cascadeFixture is a project with pending competitor cascades.
type cascadeFixture struct {
	pool      *pgxpool.Pool
	ch        driver.Conn
	projectID uuid.UUID
	createdAt time.Time
}

func cascadeSetup(t *testing.T) *cascadeFixture {
	t.Helper()
	ctx := context.Background()
	pool := oltptest.NewPool(t)
	orgID, projectID := uuid.Must(uuid.NewV7()), uuid.Must(uuid.NewV7())
	var createdAt time.Time
	err := pool.QueryRow(ctx, `
		WITH o AS (INSERT INTO organizations (id, name) VALUES ($1, 'Cascade Org') RETURNING id),
		     p AS (INSERT INTO projects (id, organization_id, name, created_at)
		           SELECT $2, id, 'Cascade Project', now() - interval '40 days' FROM o RETURNING created_at)
		SELECT created_at FROM p`, orgID, projectID).Scan(&createdAt)
	if err != nil {
		t.Fatal(err)
	}
	return &cascadeFixture{pool: pool, ch: olaptest.NewConn(t), projectID: projectID, createdAt: createdAt}
}

// begin registers a cascade the way DELETE competitor does.
func (f *cascadeFixture) begin(t *testing.T) jobs.CompetitorCascadeArgs {
	t.Helper()
	ctx := context.Background()
	competitorID := uuid.Must(uuid.NewV7())
	var cascadeID uuid.UUID
	err := pgx.BeginFunc(ctx, f.pool, func(tx pgx.Tx) error {
		var err error
		cascadeID, err = oltp.BeginCascade(ctx, tx, f.projectID, "competitor", competitorID)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return jobs.CompetitorCascadeArgs{CascadeID: cascadeID, ProjectID: f.projectID, CompetitorID: competitorID}
}

// work runs a cascade job enqueued long enough ago that no late pass can
// still arrive, so it finishes.
func (f *cascadeFixture) work(t *testing.T, args jobs.CompetitorCascadeArgs) {
	t.Helper()
	w := &jobs.CompetitorCascadeWorker{Pool: f.pool, ClickHouse: f.ch}
	job := &river.Job[jobs.CompetitorCascadeArgs]{JobRow: &rivertype.JobRow{CreatedAt: time.Now().Add(-time.Hour)}, Args: args}
	if err := w.Work(context.Background(), job); err != nil {
		t.Error(err)
	}
}

func (f *cascadeFixture) dirtySince(t *testing.T) *time.Time {
	t.Helper()
	var since *time.Time
	if err := f.pool.QueryRow(context.Background(), `SELECT data_dirty_since FROM projects WHERE id = $1`, f.projectID).Scan(&since); err != nil {
		t.Fatal(err)
	}
	return since
}

func TestCascadeClearsDirtinessWhenTheLastOneFinishes(t *testing.T) {
	t.Parallel()
	f := cascadeSetup(t)
	first, second := f.begin(t), f.begin(t)
	if since := f.dirtySince(t); since == nil || !since.Equal(f.createdAt) {
		t.Fatalf("data_dirty_since = %v, want the project's creation %v: a removal changes all history", since, f.createdAt)
	}
	f.work(t, first)
	f.work(t, first) // a retry of a finished cascade changes nothing
	if f.dirtySince(t) == nil {
		t.Fatal("cleared while a cascade is still pending")
	}
	f.work(t, second)
	if since := f.dirtySince(t); since != nil {
		t.Fatalf("data_dirty_since = %v after the last cascade, want null", since)
	}
}

func TestCascadesFinishingAtOnceClearDirtiness(t *testing.T) {
	t.Parallel()
	f := cascadeSetup(t)
	var pending []jobs.CompetitorCascadeArgs
	for range 6 {
		pending = append(pending, f.begin(t))
	}
	var wg sync.WaitGroup
	for _, args := range pending {
		wg.Go(func() { f.work(t, args) })
	}
	wg.Wait()
	if since := f.dirtySince(t); since != nil {
		t.Fatalf("data_dirty_since = %v after every cascade finished, want null", since)
	}
}

func TestCascadeOfAGoneProjectIsANoOp(t *testing.T) {
	t.Parallel()
	f := cascadeSetup(t)
	args := f.begin(t)
	if _, err := f.pool.Exec(context.Background(), `DELETE FROM projects WHERE id = $1`, f.projectID); err != nil {
		t.Fatal(err)
	}
	f.work(t, args)
}

func TestCascadeDeletesAtOnceButFinishesOnlyAfterLateWrites(t *testing.T) {
	t.Parallel()
	f := cascadeSetup(t)
	args := f.begin(t)
	w := &jobs.CompetitorCascadeWorker{Pool: f.pool, ClickHouse: f.ch}
	err := w.Work(context.Background(), &river.Job[jobs.CompetitorCascadeArgs]{
		JobRow: &rivertype.JobRow{CreatedAt: time.Now()}, Args: args})
	var snooze *river.JobSnoozeError
	if !errors.As(err, &snooze) || snooze.Duration <= 0 {
		t.Fatalf("fresh cascade: %v, want a snooze until late passes cannot arrive", err)
	}
	if f.dirtySince(t) == nil {
		t.Fatal("finished before late passes were swept")
	}
}

// A cascade brings the listings' figures up to date without waiting for
// the project's next check: the competitor's worth leaves the last-check
// share of voice of the tracked-query listing and the project listing's.
func TestCascadeRefreshesTheListings(t *testing.T) {
	t.Parallel()
	f := cascadeSetup(t)
	ctx := context.Background()
	args := f.begin(t)
	query := uuid.Must(uuid.NewV7())
	capturedAt := time.Now().UTC().Add(-time.Hour).Truncate(time.Millisecond)
	if _, err := f.pool.Exec(ctx, `
		INSERT INTO tracked_queries (id, project_id, query_text, engine, country, check_frequency, n_passes, status, last_checked_at)
		VALUES ($1, $2, 'best crm', 'chatgpt', 'US', 'daily', 1, 'active', $3)`, query, f.projectID, capturedAt); err != nil {
		t.Fatal(err)
	}
	if err := oltp.MarkTrackedQuerySearchStale(ctx, f.pool, f.projectID); err != nil {
		t.Fatal(err)
	}
	competitor := args.CompetitorID
	pass := olap.PassRows{
		Pass: olap.Pass{OrganizationID: uuid.Must(uuid.NewV7()), ProjectID: f.projectID, TrackedQueryID: query, RunID: uuid.Must(uuid.NewV7()), PassCount: 1,
			Engine: sightline.EngineChatGPT, Country: "US", QueryText: "best crm", CapturedAt: capturedAt},
		ResponseText: "Acme and Globex are both fine.",
		Mentions: []olap.Mention{
			{BrandName: "Acme", Relation: sightline.RelationOwn, Position: 1, Type: sightline.MentionListing,
				Tone: sightline.ToneNeutral, Qualifier: sightline.QualifierDirect, Sentence: "Acme and Globex are both fine."},
			{BrandName: "Globex", Relation: sightline.RelationTrackedCompetitor, CompetitorID: &competitor, Position: 2,
				Type: sightline.MentionListing, Tone: sightline.ToneNeutral, Qualifier: sightline.QualifierDirect,
				Sentence: "Acme and Globex are both fine."},
		},
	}
	if err := olaptest.InsertPasses(ctx, f.ch, []olap.PassRows{pass}); err != nil {
		t.Fatal(err)
	}
	if err := jobs.RefreshCheckMetrics(ctx, f.pool, f.ch, f.projectID); err != nil {
		t.Fatal(err)
	}
	shares := func() (lastCheck, project *float64) {
		t.Helper()
		err := f.pool.QueryRow(ctx, `
			SELECT (SELECT last_share_of_voice FROM tracked_query_search_rows WHERE tracked_query_id = $2),
			       (SELECT share_of_voice FROM project_listing_metrics WHERE project_id = $1)`, f.projectID, query).
			Scan(&lastCheck, &project)
		if err != nil {
			t.Fatal(err)
		}
		return lastCheck, project
	}
	if lastCheck, project := shares(); lastCheck == nil || *lastCheck != 50 || project == nil || *project != 50 {
		t.Fatalf("shares of voice before the cascade: %v and %v, want 50 and 50", lastCheck, project)
	}
	f.work(t, args)
	if lastCheck, project := shares(); lastCheck == nil || *lastCheck != 100 || project == nil || *project != 100 {
		t.Fatalf("shares of voice after the cascade: %v and %v, want 100 and 100", lastCheck, project)
	}
}
