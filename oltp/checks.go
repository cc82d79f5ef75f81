package oltp

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"

	"github.com/sightline/sightline"
)

// Check runs (spec 1, 3.1, 4.2 check and check-all).
//
// A run moves pending -> running -> completed, or through awaiting_retry
// (a retryable failure; River retries the job) back to running, or ends
// failed (a permanent failure, or retries exhausted) or cancelled
// (replaced by a run on the query's new engine). A run whose tracked query
// is deleted goes with it (foreign key cascade), and gives back what it
// reserved (the units trigger of 00006_checks.sql).
//
// Every writer takes its locks in one order, so that none can deadlock
// another: tracked queries, then their runs, then the subscription.

// CheckRunning is the status of a check run a worker has taken; the other
// statuses (pending, awaiting_retry, completed, failed, cancelled) are only
// written and read by the SQL here.
const CheckRunning = "running"

// What started a run.
const (
	CheckTriggerScheduled = "scheduled"
	CheckTriggerOnDemand  = "on_demand"
)

// openRun is the SQL condition on check_runs r of a run in flight: the
// ones the unique index check_runs_open allows once per query and engine.
const openRun = `r.status IN ('pending', 'running', 'awaiting_retry')`

// dueInterval is a tracked query q's check interval (spec 2.8 coverage):
// daily 1 day, weekly 7 days, monthly 30 days.
const dueInterval = `CASE q.check_frequency WHEN 'daily' THEN interval '1 day'
	WHEN 'weekly' THEN interval '7 days' ELSE interval '30 days' END`

// FailedCheckBackoff is how long the scheduler leaves a query alone after
// one of its runs failed: River already retried it with backoff, so
// scheduling it again at once would only hammer the engine.
const FailedCheckBackoff = time.Hour

// maxRunErrorLength bounds the error message kept on a run.
const maxRunErrorLength = 1000

// Scheduling.

// ScheduleCursor is where a scheduling pass has got to in the order the
// queries fell due: never-checked queries first, then by the time they
// became due (last check plus their frequency's interval), ties by id.
// The zero cursor is the start.
type ScheduleCursor struct {
	dueAt *time.Time
	id    uuid.UUID
}

// key is the cursor as the key of tracked_queries_schedule: dueKey and id.
func (c ScheduleCursor) key() (pgtype.Timestamptz, uuid.UUID) {
	if c.dueAt == nil {
		return pgtype.Timestamptz{InfinityModifier: pgtype.NegativeInfinity, Valid: true}, c.id
	}
	return pgtype.Timestamptz{Time: *c.dueAt, Valid: true}, c.id
}

// ScheduledBatch is the outcome of one batch of the scheduler.
type ScheduledBatch struct {
	// Runs are the runs created, all pending and scheduled.
	Runs []uuid.UUID
	// Exhausted are the organizations at least one due query of which did
	// not fit their budget (or that have no entitled subscription).
	Exhausted []uuid.UUID
	// Next is where the next batch starts; Done says no query is left.
	Next ScheduleCursor
	Done bool
}

// dueKey is tracked_queries_schedule's key of tracked query q: when it is
// next due, -infinity when never checked (the stored column due_at).
const dueKey = `q.due_at`

// ScheduleDueChecks schedules the due queries among the next window of
// size due active queries after cursor, in the order they fell due (never
// checked first), and returns where the next window starts. The window is
// found by walking tracked_queries_schedule in key order, whatever the planner
// estimates; queries not due yet are never read.
//
// The window's queries to schedule, in one set-based statement: of an
// active project of an active organization, with no run in flight
// on their engine and no run failed in the last FailedCheckBackoff; they
// are locked FOR UPDATE SKIP LOCKED, so a concurrent scheduler takes other
// queries. The current entitled contract of each organization concerned
// is locked (in id order), each organization's queries are admitted in
// order while their passes fit its available units (a query that does not
// fit ends the organization's turn: it keeps its place for the next
// scheduling rather than being overtaken by cheaper ones), and each
// admitted query gets a pending run reserving one unit per pass.
// Organizations in skip are left out (their turn ended in an earlier
// window). A run conflicting with one another writer just committed is
// skipped, never doubled.
func ScheduleDueChecks(ctx context.Context, tx pgx.Tx, cursor ScheduleCursor, size int, skip []uuid.UUID) (*ScheduledBatch, error) {
	after, afterID := cursor.key()
	batch := &ScheduledBatch{}
	var end pgtype.Timestamptz
	var endID uuid.UUID
	err := tx.QueryRow(ctx, `
		SELECT `+dueKey+`, q.id FROM tracked_queries q
		WHERE q.status = 'active' AND `+dueKey+` <= now()
		  AND (`+dueKey+`, q.id) > ($1::timestamptz, $2::uuid)
		ORDER BY `+dueKey+`, q.id OFFSET $3 LIMIT 1`, after, afterID, size-1).Scan(&end, &endID)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		// The rest fits in this window.
		batch.Done = true
		end = pgtype.Timestamptz{InfinityModifier: pgtype.Infinity, Valid: true}
	case err != nil:
		return nil, fmt.Errorf("finding the scheduling window: %w", err)
	}
	batch.Next = ScheduleCursor{id: endID}
	if end.InfinityModifier == pgtype.Finite {
		batch.Next.dueAt = &end.Time
	}
	ids := make([]uuid.UUID, size)
	for i := range ids {
		ids[i] = uuid.Must(uuid.NewV7())
	}
	if skip == nil {
		skip = []uuid.UUID{}
	}
	rows, err := tx.Query(ctx, `
		WITH due AS MATERIALIZED (
			SELECT q.id, q.project_id, p.organization_id, q.engine, q.n_passes, `+dueKey+` AS due_at
			FROM tracked_queries q
			JOIN projects p ON p.id = q.project_id
			JOIN organizations o ON o.id = p.organization_id
			WHERE q.status = 'active' AND p.status = 'active' AND o.status = 'active'
			  AND (`+dueKey+`, q.id) > ($1::timestamptz, $2::uuid)
			  AND (`+dueKey+`, q.id) <= ($3::timestamptz, $4::uuid)
			  AND `+dueKey+` <= now()
			  AND NOT (p.organization_id = ANY ($5::uuid[]))
			  AND NOT EXISTS (SELECT 1 FROM check_runs r
			                  WHERE r.tracked_query_id = q.id AND r.engine = q.engine AND `+openRun+`)
			  AND NOT EXISTS (SELECT 1 FROM check_runs r
			                  WHERE r.tracked_query_id = q.id AND r.status = 'failed'
			                    AND r.finished_at > now() - $6::interval)
			FOR UPDATE OF q SKIP LOCKED
		), budgets AS MATERIALIZED (
			SELECT s.id, s.organization_id, s.check_budget - s.checks_used - s.checks_reserved AS available
			FROM subscriptions s
			WHERE s.id IN (SELECT DISTINCT ON (c.organization_id) c.id FROM subscriptions c
			               WHERE c.organization_id IN (SELECT organization_id FROM due)
			               ORDER BY c.organization_id, c.created_at DESC, c.id DESC)
			  AND `+entitledSubscription+`
			ORDER BY s.id
			FOR UPDATE OF s
		), ranked AS MATERIALIZED (
			SELECT d.*, b.id AS subscription_id,
			       coalesce(sum(d.n_passes) OVER (PARTITION BY d.organization_id
			                                      ORDER BY d.due_at, d.id) <= b.available,
			                false) AS fits,
			       row_number() OVER (ORDER BY d.due_at, d.id) AS rn
			FROM due d LEFT JOIN budgets b ON b.organization_id = d.organization_id
		), inserted AS (
			INSERT INTO check_runs (id, organization_id, project_id, tracked_query_id, subscription_id,
			                        engine, n_passes, reserved_units, trigger)
			SELECT n.id, k.organization_id, k.project_id, k.id, k.subscription_id,
			       k.engine, k.n_passes, k.n_passes, 'scheduled'
			FROM ranked k JOIN unnest($7::uuid[]) WITH ORDINALITY AS n (id, rn) ON n.rn = k.rn
			WHERE k.fits
			ON CONFLICT (tracked_query_id, engine) WHERE status IN ('pending', 'running', 'awaiting_retry')
			DO NOTHING
			RETURNING id, tracked_query_id
		)
		SELECT k.organization_id, k.fits, i.id
		FROM ranked k LEFT JOIN inserted i ON i.tracked_query_id = k.id
		ORDER BY k.rn`,
		after, afterID, end, endID, skip, FailedCheckBackoff.String(), ids)
	if err != nil {
		return nil, fmt.Errorf("scheduling due checks: %w", err)
	}
	exhausted := map[uuid.UUID]bool{}
	var (
		organizationID uuid.UUID
		fits           bool
		runID          *uuid.UUID
	)
	_, err = pgx.ForEachRow(rows, []any{&organizationID, &fits, &runID}, func() error {
		if runID != nil {
			batch.Runs = append(batch.Runs, *runID)
		}
		if !fits && !exhausted[organizationID] {
			exhausted[organizationID] = true
			batch.Exhausted = append(batch.Exhausted, organizationID)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("scheduling due checks: %w", err)
	}
	return batch, nil
}

// Requests of the API.

// CheckOutcome is what a check request did for one tracked query: Code is
// empty for an accepted query, which either got a new run (Created) or was
// collapsed onto the run already in flight.
type CheckOutcome struct {
	TrackedQueryID uuid.UUID
	Engine         string
	Code           sightline.Code
	Message        string
	RunID          uuid.UUID
	Created        bool
}

// checkTarget is a locked tracked query with the run it has in flight.
type checkTarget struct {
	id            uuid.UUID
	engine        string
	nPasses       int
	status        string
	lastCheckedAt *time.Time
	run           *openCheckRun
}

type openCheckRun struct {
	id             uuid.UUID
	engine, status string
}

// lockCheckTargets locks the project's tracked queries among ids, then
// their runs in flight, each in id order.
func lockCheckTargets(ctx context.Context, tx pgx.Tx, projectID uuid.UUID, ids []uuid.UUID) (map[uuid.UUID]*checkTarget, error) {
	rows, err := tx.Query(ctx, `
		SELECT id, engine, n_passes, status, last_checked_at FROM tracked_queries
		WHERE project_id = $1 AND id = ANY ($2)
		ORDER BY id FOR UPDATE`, projectID, ids)
	if err != nil {
		return nil, fmt.Errorf("locking tracked queries: %w", err)
	}
	targets := map[uuid.UUID]*checkTarget{}
	var t checkTarget
	if _, err := pgx.ForEachRow(rows, []any{&t.id, &t.engine, &t.nPasses, &t.status, &t.lastCheckedAt}, func() error {
		c := t
		targets[c.id] = &c
		return nil
	}); err != nil {
		return nil, fmt.Errorf("locking tracked queries: %w", err)
	}
	rows, err = tx.Query(ctx, `
		SELECT r.tracked_query_id, r.id, r.engine, r.status FROM check_runs r
		WHERE r.project_id = $1 AND r.tracked_query_id = ANY ($2) AND `+openRun+`
		ORDER BY r.id FOR UPDATE`, projectID, ids)
	if err != nil {
		return nil, fmt.Errorf("locking runs in flight: %w", err)
	}
	var queryID uuid.UUID
	var r openCheckRun
	if _, err := pgx.ForEachRow(rows, []any{&queryID, &r.id, &r.engine, &r.status}, func() error {
		// A run on an engine the query no longer has is still the one
		// in flight; the query's own engine wins if both exist.
		if t := targets[queryID]; t != nil && (t.run == nil || r.engine == t.engine) {
			c := r
			t.run = &c
		}
		return nil
	}); err != nil {
		return nil, fmt.Errorf("locking runs in flight: %w", err)
	}
	return targets, nil
}

// checkPlan accumulates the writes of a check request.
type checkPlan struct {
	organizationID, projectID uuid.UUID
	budget                    *Budget
	spent                     int
	cancel                    []uuid.UUID
	create                    []newCheckRun
}

type newCheckRun struct {
	id, queryID uuid.UUID
	engine      string
	nPasses     int
}

// admit decides a check of the not-paused target t: collapsed onto its run
// in flight when that run is on the query's engine, or already running;
// otherwise a new run, replacing one on another engine, if its passes fit
// the budget left. It returns the outcome and whether the budget refused.
func (p *checkPlan) admit(t *checkTarget) (CheckOutcome, bool) {
	out := CheckOutcome{TrackedQueryID: t.id, Engine: t.engine}
	if r := t.run; r != nil && (r.engine == t.engine || r.status == CheckRunning) {
		out.RunID = r.id
		return out, false
	}
	if p.spent+t.nPasses > p.budget.Available {
		out.Code = sightline.ItemCheckBudgetForecastExhausted
		out.Message = fmt.Sprintf("A check of this query costs %d units; %d of the budget are left after the checks "+
			"already reserved. Submit it again when units are released or the budget renews.",
			t.nPasses, p.budget.Available-p.spent)
		return out, true
	}
	if t.run != nil {
		p.cancel = append(p.cancel, t.run.id)
	}
	p.spent += t.nPasses
	out.RunID, out.Created = uuid.Must(uuid.NewV7()), true
	p.create = append(p.create, newCheckRun{id: out.RunID, queryID: t.id, engine: t.engine, nPasses: t.nPasses})
	return out, false
}

// apply cancels the replaced runs, giving back what they reserved, then
// inserts the new runs, reserving one unit per pass.
func (p *checkPlan) apply(ctx context.Context, tx pgx.Tx) error {
	if len(p.cancel) > 0 {
		if _, err := tx.Exec(ctx, `
			UPDATE check_runs SET status = 'cancelled', reserved_units = 0, finished_at = now(), updated_at = now(),
			       error_code = 'replaced', error_message = 'Replaced by a run on the query''s current engine.'
			WHERE project_id = $1 AND id = ANY ($2)`, p.projectID, p.cancel); err != nil {
			return fmt.Errorf("cancelling replaced runs: %w", err)
		}
	}
	if len(p.create) == 0 {
		return nil
	}
	ids := make([]uuid.UUID, len(p.create))
	queries := make([]uuid.UUID, len(p.create))
	engines := make([]string, len(p.create))
	passes := make([]int32, len(p.create))
	for i, c := range p.create {
		ids[i], queries[i], engines[i], passes[i] = c.id, c.queryID, c.engine, int32(c.nPasses)
	}
	_, err := tx.Exec(ctx, `
		INSERT INTO check_runs (id, organization_id, project_id, tracked_query_id, subscription_id,
		                        engine, n_passes, reserved_units, trigger)
		SELECT n.id, $1, $2, n.query_id, $3, n.engine, n.n_passes, n.n_passes, 'on_demand'
		FROM unnest($4::uuid[], $5::uuid[], $6::text[], $7::int[]) AS n (id, query_id, engine, n_passes)`,
		p.organizationID, p.projectID, p.budget.SubscriptionID, ids, queries, engines, passes)
	if err != nil {
		return fmt.Errorf("inserting check runs: %w", err)
	}
	return nil
}

// created returns the ids of the runs the plan creates.
func (p *checkPlan) created() []uuid.UUID {
	ids := make([]uuid.UUID, len(p.create))
	for i, c := range p.create {
		ids[i] = c.id
	}
	return ids
}

// RequestChecks asks for a fresh check of each of ids (distinct; spec 4.2
// check), ignoring recency, and returns one outcome per id in order, plus
// the runs created, which the caller enqueues in the same transaction. An
// id is, in this order of precedence: tracked_query_not_found (not a query
// of the project); tracked_query_already_paused; subscription_not_found
// (no entitled subscription: nothing is accepted, not even onto a run in
// flight); accepted onto its run in flight (free); or a new run when its
// passes fit the units left, counted pessimistically with reservations as
// spent and the earlier ids of the request first, else
// check_budget_forecast_exhausted. A run in flight on an engine the query
// no longer has is replaced, and the new one paid.
func RequestChecks(ctx context.Context, tx pgx.Tx, organizationID, projectID uuid.UUID, ids []uuid.UUID) ([]CheckOutcome, []uuid.UUID, error) {
	targets, err := lockCheckTargets(ctx, tx, projectID, ids)
	if err != nil {
		return nil, nil, err
	}
	budget, err := LockBudget(ctx, tx, organizationID)
	if err != nil {
		return nil, nil, err
	}
	plan := &checkPlan{organizationID: organizationID, projectID: projectID, budget: budget}
	outcomes := make([]CheckOutcome, 0, len(ids))
	for _, id := range ids {
		t := targets[id]
		switch {
		case t == nil:
			outcomes = append(outcomes, CheckOutcome{TrackedQueryID: id, Code: sightline.ItemTrackedQueryNotFound,
				Message: "No tracked query of this project has this id."})
		case t.status != "active":
			outcomes = append(outcomes, CheckOutcome{TrackedQueryID: id, Engine: t.engine,
				Code: sightline.ItemTrackedQueryAlreadyPaused, Message: "The tracked query is paused; resume it to check it."})
		case !budget.Entitled:
			outcomes = append(outcomes, CheckOutcome{TrackedQueryID: id, Engine: t.engine,
				Code: sightline.ItemSubscriptionNotFound, Message: noEntitledSubscription(budget)})
		default:
			out, _ := plan.admit(t)
			outcomes = append(outcomes, out)
		}
	}
	if err := plan.apply(ctx, tx); err != nil {
		return nil, nil, err
	}
	return outcomes, plan.created(), nil
}

func noEntitledSubscription(b *Budget) string {
	if b.InGrace {
		return "The subscription is cancelled; no new checks are accepted during its grace period."
	}
	return "The organization has no subscription entitled to checks."
}

// CheckAll submits checks of the project's eligible queries (spec 4.2
// check-all): active ones without a run already running, least recently
// checked first (never checked first), at most limit. A query with a run
// pending or awaiting retry on its engine is listed again at no cost
// (collapsed onto that run); one whose run in flight is on an engine it no
// longer has gets a new paid run that replaces it; the others get a new
// paid run. The list stops at the first query whose new run does not fit
// the units left, so that it is trimmed to the budget without cheaper
// queries overtaking. Without an entitled subscription (a cancelled one
// inside its grace window included) nothing is submitted. It returns the
// submitted queries in order and the runs created.
func CheckAll(ctx context.Context, tx pgx.Tx, organizationID, projectID uuid.UUID, limit int) ([]CheckOutcome, []uuid.UUID, error) {
	// Candidates are chosen without locks, then locked in id order like
	// every other writer and checked again.
	rows, err := tx.Query(ctx, `
		SELECT q.id FROM tracked_queries q
		WHERE q.project_id = $1 AND q.status = 'active'
		  AND NOT EXISTS (SELECT 1 FROM check_runs r WHERE r.tracked_query_id = q.id AND r.status = 'running')
		ORDER BY q.last_checked_at NULLS FIRST, q.id LIMIT $2`, projectID, limit)
	if err != nil {
		return nil, nil, fmt.Errorf("selecting queries to check: %w", err)
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[uuid.UUID])
	if err != nil {
		return nil, nil, fmt.Errorf("selecting queries to check: %w", err)
	}
	targets, err := lockCheckTargets(ctx, tx, projectID, ids)
	if err != nil {
		return nil, nil, err
	}
	budget, err := LockBudget(ctx, tx, organizationID)
	if err != nil || !budget.Entitled {
		return []CheckOutcome{}, nil, err
	}
	ordered := make([]*checkTarget, 0, len(targets))
	for _, t := range targets {
		if t.status == "active" && (t.run == nil || t.run.status != CheckRunning) {
			ordered = append(ordered, t)
		}
	}
	slices.SortFunc(ordered, func(a, b *checkTarget) int {
		switch {
		case a.lastCheckedAt == nil && b.lastCheckedAt != nil:
			return -1
		case a.lastCheckedAt != nil && b.lastCheckedAt == nil:
			return 1
		case a.lastCheckedAt != nil && !a.lastCheckedAt.Equal(*b.lastCheckedAt):
			return a.lastCheckedAt.Compare(*b.lastCheckedAt)
		}
		return bytes.Compare(a.id[:], b.id[:])
	})
	plan := &checkPlan{organizationID: organizationID, projectID: projectID, budget: budget}
	submitted := make([]CheckOutcome, 0, len(ordered))
	for _, t := range ordered {
		out, refused := plan.admit(t)
		if refused {
			break
		}
		submitted = append(submitted, out)
	}
	if err := plan.apply(ctx, tx); err != nil {
		return nil, nil, err
	}
	return submitted, plan.created(), nil
}

// The worker's side.

// CheckRun is a run as its worker sees it, with its tracked query.
type CheckRun struct {
	ID             uuid.UUID `db:"id"`
	OrganizationID uuid.UUID `db:"organization_id"`
	ProjectID      uuid.UUID `db:"project_id"`
	TrackedQueryID uuid.UUID `db:"tracked_query_id"`
	Engine         string    `db:"engine"`
	NPasses        int       `db:"n_passes"`
	PassesDone     int       `db:"passes_done"`
	// AnsweredPasses has bit i set when pass i is answered and charged.
	AnsweredPasses int     `db:"answered_passes"`
	Attempt        int     `db:"attempt"`
	Trigger        string  `db:"trigger"`
	QueryText      string  `db:"query_text"`
	Country        string  `db:"country"`
	Locale         *string `db:"locale"`
	// StartedAt is when the run first started; every pass of the run and
	// every retry of it is captured at this time (spec 2.9: passes of one
	// run share capturedAt).
	StartedAt time.Time `db:"started_at"`
}

// pausedBeforeStart is true for a run r whose tracked query q was paused
// before the run stored any pass (spec 3.1: a paused query is no longer
// checked; only a check already under way completes).
const pausedBeforeStart = `(q.status = 'paused' AND r.passes_done = 0)`

// StartCheckRun marks the run running for its worker's attempt and returns
// it, in one statement; nil when it is no longer in flight (completed,
// failed, cancelled) or gone with its tracked query, in which case there
// is nothing to do. A run whose query was paused before it stored any pass
// is cancelled instead, giving back its units: it returns nil and true.
func StartCheckRun(ctx context.Context, db DBTX, runID uuid.UUID, attempt int) (*CheckRun, bool, error) {
	rows, err := db.Query(ctx, `
		UPDATE check_runs r SET
		       status = CASE WHEN `+pausedBeforeStart+` THEN 'cancelled' ELSE 'running' END,
		       attempt = CASE WHEN `+pausedBeforeStart+` THEN r.attempt ELSE $2 END,
		       started_at = CASE WHEN `+pausedBeforeStart+` THEN r.started_at ELSE coalesce(r.started_at, now()) END,
		       reserved_units = CASE WHEN `+pausedBeforeStart+` THEN 0 ELSE r.reserved_units END,
		       finished_at = CASE WHEN `+pausedBeforeStart+` THEN now() ELSE r.finished_at END,
		       updated_at = now()
		FROM tracked_queries q
		WHERE r.id = $1 AND q.project_id = r.project_id AND q.id = r.tracked_query_id AND `+openRun+`
		RETURNING r.status = 'cancelled' AS cancelled, r.id, r.organization_id, r.project_id, r.tracked_query_id,
		          r.engine, r.n_passes, r.passes_done, r.answered_passes, r.attempt, r.trigger,
		          q.query_text, q.country, q.locale,
		          coalesce(r.started_at, r.finished_at) AS started_at -- a cancelled run may never have started
		`,
		runID, attempt)
	if err != nil {
		return nil, false, fmt.Errorf("starting check run: %w", err)
	}
	started, err := pgx.CollectExactlyOneRow(rows, pgx.RowToStructByName[struct {
		Cancelled bool `db:"cancelled"`
		CheckRun
	}])
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return nil, false, nil
	case err != nil:
		return nil, false, fmt.Errorf("starting check run: %w", err)
	case started.Cancelled:
		return nil, true, nil
	}
	return &started.CheckRun, false, nil
}

// CompleteCheckRun completes a run whose passes are all answered and
// stored (none left in check_answers) and sets its tracked query's
// lastCheckedAt, in tx; the caller records the tracked queries' change in
// the same transaction (jobs.TrackedQueriesChanged). It reports false,
// changing nothing, when the run or its query is gone, the run is no
// longer running or an answer of it still awaits storing.
func CompleteCheckRun(ctx context.Context, tx pgx.Tx, run *CheckRun) (bool, error) {
	// The query is locked before the run, as its deletion does.
	tag, err := tx.Exec(ctx, `
		WITH q AS (
			SELECT id FROM tracked_queries WHERE project_id = $1 AND id = $2 FOR NO KEY UPDATE
		), r AS (
			UPDATE check_runs SET status = 'completed', finished_at = now(), updated_at = now(),
			       error_code = NULL, error_message = NULL
			WHERE id = $3 AND project_id = $1 AND status = 'running' AND passes_done = n_passes
			  AND NOT EXISTS (SELECT 1 FROM check_answers a WHERE a.run_id = check_runs.id)
			  AND EXISTS (SELECT 1 FROM q)
			RETURNING id
		)
		UPDATE tracked_queries t SET last_checked_at = now() FROM r WHERE t.project_id = $1 AND t.id = $2`,
		run.ProjectID, run.TrackedQueryID, run.ID)
	if err != nil {
		return false, fmt.Errorf("completing check run: %w", err)
	}
	return tag.RowsAffected() == 1, nil
}

// DelayCheckRun records a retryable failure of the running run: it
// awaits River's retry and keeps its reservation.
func DelayCheckRun(ctx context.Context, db DBTX, run *CheckRun, code, message string) error {
	_, err := db.Exec(ctx, `
		UPDATE check_runs SET status = 'awaiting_retry', error_code = $3, error_message = $4, updated_at = now()
		WHERE id = $1 AND project_id = $2 AND status = 'running'`,
		run.ID, run.ProjectID, code, truncateRunError(message))
	if err != nil {
		return fmt.Errorf("recording check retry: %w", err)
	}
	return nil
}

// FailCheckRun records that the run failed for good: the units of the
// passes it did not run go back to the budget; the passes it stored stay
// charged.
func FailCheckRun(ctx context.Context, db DBTX, run *CheckRun, code, message string) error {
	_, err := db.Exec(ctx, `
		UPDATE check_runs r SET status = 'failed', reserved_units = 0, finished_at = now(), updated_at = now(),
		       error_code = $3, error_message = $4
		WHERE r.id = $1 AND r.project_id = $2 AND `+openRun,
		run.ID, run.ProjectID, code, truncateRunError(message))
	if err != nil {
		return fmt.Errorf("recording check failure: %w", err)
	}
	return nil
}

func truncateRunError(message string) string {
	if utf8.RuneCountInString(message) <= maxRunErrorLength {
		return message
	}
	return string([]rune(message)[:maxRunErrorLength])
}

// CheckBrands returns the project's brand configuration as extraction
// matches against it: its brand profile's lists (empty without a profile)
// and its competitors in creation order.
func CheckBrands(ctx context.Context, db Batcher, projectID uuid.UUID) (BrandLists, []Competitor, error) {
	var (
		own         BrandLists
		competitors []Competitor
		batch       pgx.Batch
	)
	batch.Queue(`SELECT website_domains, brand_names FROM brand_profiles WHERE project_id = $1`, projectID).
		QueryRow(func(row pgx.Row) error {
			err := row.Scan(&own.WebsiteDomains, &own.BrandNames)
			if err != nil && !errors.Is(err, pgx.ErrNoRows) {
				return fmt.Errorf("reading brand profile: %w", err)
			}
			return nil
		})
	batch.Queue(`SELECT `+competitorColumns+` FROM competitors c WHERE c.project_id = $1 ORDER BY c.id`, projectID).
		Query(func(rows pgx.Rows) error {
			var err error
			if competitors, err = pgx.CollectRows(rows, pgx.RowToStructByName[Competitor]); err != nil {
				return fmt.Errorf("reading competitors: %w", err)
			}
			return nil
		})
	if err := db.SendBatch(ctx, &batch).Close(); err != nil {
		return BrandLists{}, nil, err
	}
	return own, competitors, nil
}

// Reports.

// CheckRunOfQuery reports whether runID is a run of the tracked query of
// the project: the capture's route to the check that produced it.
func CheckRunOfQuery(ctx context.Context, db DBTX, projectID, trackedQueryID, runID uuid.UUID) (bool, error) {
	var found bool
	err := db.QueryRow(ctx, `
		SELECT EXISTS (SELECT 1 FROM check_runs WHERE id = $1 AND project_id = $2 AND tracked_query_id = $3)`,
		runID, projectID, trackedQueryID).Scan(&found)
	if err != nil {
		return false, fmt.Errorf("reading check run: %w", err)
	}
	return found, nil
}

// FailAbandonedCheckRuns fails the runs still open whose check job River
// gave up on (discarded after its last attempt, by the rescuer, after a
// panic, or cancelled) without the worker closing the run, giving back
// their reserved units. Otherwise such a run would hold its query's one
// open slot forever and the query would never be checked again. It returns
// how many runs it failed.
func FailAbandonedCheckRuns(ctx context.Context, db DBTX) (int64, error) {
	return execCount(ctx, db, "failing abandoned check runs", `
		UPDATE check_runs r SET status = 'failed', reserved_units = 0, finished_at = now(), updated_at = now(),
		       error_code = 'abandoned', error_message = 'the check job ended without finishing the run'
		FROM river_job j
		WHERE j.kind = 'check' AND j.state IN ('discarded', 'cancelled')
		  AND r.id = (j.args->>'runId')::uuid AND `+openRun)
}
