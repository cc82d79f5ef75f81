-- +goose Up
-- Checks: the runs of tracked queries on their engines and the check budget
-- they draw on.

-- Units a contract has set aside for runs in flight. A run reserves one
-- unit per pass when it is enqueued, turns a reserved unit into a used one
-- for every pass it stores, and gives back the units of the passes it never
-- ran. The database refuses any run that would take the contract past its
-- budget, counting reserved units as spent.
ALTER TABLE subscriptions
    ADD COLUMN checks_reserved integer NOT NULL DEFAULT 0 CHECK (checks_reserved >= 0),
    ADD CONSTRAINT subscriptions_within_budget CHECK (checks_used + checks_reserved <= check_budget);

-- A check run is one check of one tracked query: n_passes passes on the
-- engine the query had when the run was enqueued. passes_done is its
-- progress, so that a worker stopped mid-run resumes with the next pass.
-- reserved_units are the units still set aside on subscription_id for the
-- passes not yet run; charged_units those debited for the passes stored.
-- Open runs (pending, running, awaiting_retry) hold reservations; closed
-- ones (completed, failed, cancelled) hold none.
CREATE TABLE check_runs (
    id               uuid PRIMARY KEY,
    -- The project's organization, copied for tenant predicates; the runs go
    -- with the project's tracked queries.
    organization_id  uuid NOT NULL,
    project_id       uuid NOT NULL,
    tracked_query_id uuid NOT NULL,
    -- Contracts are deleted only with their organization, which takes the
    -- runs with it; no index serves this key.
    subscription_id  uuid NOT NULL REFERENCES subscriptions (id),
    engine           text NOT NULL CHECK (engine IN ('chatgpt', 'perplexity', 'google_ai_overview',
                                                     'google_ai_mode', 'google_serp', 'google_shopping')),
    n_passes         smallint NOT NULL CHECK (n_passes BETWEEN 1 AND 10),
    passes_done      smallint NOT NULL DEFAULT 0,
    status           text NOT NULL DEFAULT 'pending'
        CHECK (status IN ('pending', 'running', 'awaiting_retry', 'completed', 'failed', 'cancelled')),
    attempt          integer NOT NULL DEFAULT 0 CHECK (attempt >= 0),
    reserved_units   integer NOT NULL CHECK (reserved_units >= 0),
    charged_units    integer NOT NULL DEFAULT 0,
    trigger          text NOT NULL CHECK (trigger IN ('scheduled', 'on_demand')),
    error_code       text,
    error_message    text,
    created_at       timestamptz NOT NULL DEFAULT now(),
    started_at       timestamptz,
    updated_at       timestamptz NOT NULL DEFAULT now(),
    finished_at      timestamptz,
    FOREIGN KEY (project_id, tracked_query_id) REFERENCES tracked_queries (project_id, id) ON DELETE CASCADE,
    CONSTRAINT check_runs_progress CHECK (passes_done BETWEEN 0 AND n_passes),
    -- One unit per stored pass, and never more units than passes.
    CONSTRAINT check_runs_charge CHECK (charged_units = passes_done),
    CONSTRAINT check_runs_units CHECK (passes_done + reserved_units <= n_passes),
    CONSTRAINT check_runs_finished CHECK (
        (status IN ('completed', 'failed', 'cancelled')) = (finished_at IS NOT NULL)),
    CONSTRAINT check_runs_closed_hold_nothing CHECK (
        status IN ('pending', 'running', 'awaiting_retry') OR reserved_units = 0),
    CONSTRAINT check_runs_completed_all_passes CHECK (status <> 'completed' OR passes_done = n_passes),
    CONSTRAINT check_runs_failure_recorded CHECK (status <> 'failed' OR error_code IS NOT NULL)
);
-- At most one open run per tracked query and engine: the scheduler and the
-- check operations collapse onto it instead of starting a second.
CREATE UNIQUE INDEX check_runs_open ON check_runs (tracked_query_id, engine)
    WHERE status IN ('pending', 'running', 'awaiting_retry');
CREATE INDEX check_runs_tracked_query ON check_runs (project_id, tracked_query_id, created_at DESC);
-- Recent failures keep the scheduler from re-running a failing query every minute.
CREATE INDEX check_runs_failed ON check_runs (tracked_query_id, finished_at) WHERE status = 'failed';

-- The scheduler walks active queries least recently checked first (never
-- checked first) and resumes each batch after the last key it saw.
CREATE INDEX tracked_queries_staleness ON tracked_queries ((coalesce(last_checked_at, '-infinity')), id)
    WHERE status = 'active';

-- The subscription counters follow the runs: every statement that inserts,
-- updates or deletes runs applies the net change of their reserved and
-- charged units to their contracts in one set-based update, so the budget
-- check above sees every run and no code path can forget a release. A
-- deleted run (its tracked query was deleted) gives back what it reserved;
-- what it charged stays used. A statement touching runs of several
-- contracts locks those contracts first, in id order (the scheduler does),
-- so that two such statements cannot deadlock here.
-- +goose StatementBegin
CREATE FUNCTION check_runs_apply_units() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        UPDATE subscriptions s
        SET checks_reserved = s.checks_reserved + d.reserved, checks_used = s.checks_used + d.charged
        FROM (SELECT subscription_id, sum(reserved_units) AS reserved, sum(charged_units) AS charged
              FROM new_runs GROUP BY subscription_id) d
        WHERE s.id = d.subscription_id AND (d.reserved <> 0 OR d.charged <> 0);
    ELSIF TG_OP = 'UPDATE' THEN
        UPDATE subscriptions s
        SET checks_reserved = s.checks_reserved + d.reserved, checks_used = s.checks_used + d.charged
        FROM (SELECT subscription_id, sum(reserved) AS reserved, sum(charged) AS charged
              FROM (SELECT subscription_id, reserved_units AS reserved, charged_units AS charged FROM new_runs
                    UNION ALL
                    SELECT subscription_id, -reserved_units, -charged_units FROM old_runs) u
              GROUP BY subscription_id) d
        WHERE s.id = d.subscription_id AND (d.reserved <> 0 OR d.charged <> 0);
    ELSE
        UPDATE subscriptions s
        SET checks_reserved = s.checks_reserved - d.reserved
        FROM (SELECT subscription_id, sum(reserved_units) AS reserved
              FROM old_runs GROUP BY subscription_id) d
        WHERE s.id = d.subscription_id AND d.reserved <> 0;
    END IF;
    RETURN NULL;
END
$$;
-- +goose StatementEnd
CREATE TRIGGER check_runs_units_insert AFTER INSERT ON check_runs
    REFERENCING NEW TABLE AS new_runs FOR EACH STATEMENT EXECUTE FUNCTION check_runs_apply_units();
CREATE TRIGGER check_runs_units_update AFTER UPDATE ON check_runs
    REFERENCING OLD TABLE AS old_runs NEW TABLE AS new_runs FOR EACH STATEMENT EXECUTE FUNCTION check_runs_apply_units();
CREATE TRIGGER check_runs_units_delete AFTER DELETE ON check_runs
    REFERENCING OLD TABLE AS old_runs FOR EACH STATEMENT EXECUTE FUNCTION check_runs_apply_units();

-- +goose Down
DROP INDEX tracked_queries_staleness;
DROP TABLE check_runs;
DROP FUNCTION check_runs_apply_units;
ALTER TABLE subscriptions
    DROP CONSTRAINT subscriptions_within_budget,
    DROP COLUMN checks_reserved;
