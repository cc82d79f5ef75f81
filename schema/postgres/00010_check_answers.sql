-- +goose Up
-- Checks at scale: a run's passes are asked concurrently, and an engine's
-- answer is kept in Postgres before it is stored in ClickHouse, so that it
-- is neither lost nor paid for twice when ClickHouse is down.

-- answered_passes is a bit per pass (bit i: pass i answered and charged).
-- Passes finish in any order, so passes_done alone no longer says which
-- are left; it stays their count, and the charge still follows it. Runs
-- in flight at the upgrade answered their first passes_done passes.
ALTER TABLE check_runs ADD COLUMN answered_passes integer NOT NULL DEFAULT 0;
UPDATE check_runs SET answered_passes = (1 << passes_done) - 1 WHERE passes_done > 0;
ALTER TABLE check_runs ADD CONSTRAINT check_runs_answered CHECK (
    answered_passes >= 0 AND answered_passes < (1 << n_passes)
    AND bit_count(answered_passes::bit(10)) = passes_done);

-- check_answers is the outbox of answered passes not yet stored in
-- ClickHouse. A row is written in the statement that charges the pass and
-- deleted once ClickHouse holds the pass; a run completes only when it has
-- none left. pass is the worker's PassResult as JSON (its wire format: a
-- renamed field would break answers already kept). Answers go with their
-- run, so an answer of a deleted query is never stored after its cascade.
CREATE TABLE check_answers (
    run_id     uuid NOT NULL REFERENCES check_runs (id) ON DELETE CASCADE,
    project_id uuid NOT NULL,
    pass_index smallint NOT NULL CHECK (pass_index BETWEEN 0 AND 9),
    pass       jsonb NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (run_id, pass_index)
);
CREATE INDEX check_answers_age ON check_answers (created_at);

-- worker_processes are the worker processes alive: each beats its row
-- every few seconds and takes its share of the per-provider limits, the
-- configured totals divided by the processes seen recently.
CREATE TABLE worker_processes (
    id      uuid PRIMARY KEY,
    seen_at timestamptz NOT NULL DEFAULT now()
);

-- +goose Down
DROP TABLE worker_processes;
DROP TABLE check_answers;
ALTER TABLE check_runs DROP CONSTRAINT check_runs_answered, DROP COLUMN answered_passes;
