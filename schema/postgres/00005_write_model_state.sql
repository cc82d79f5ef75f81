-- +goose Up
-- State the write-model operations keep beside their records: tighter
-- confirmation tokens, the project listing's read model, the ledger of
-- background cascades, and the pending marks of the tracked-query search rows.

-- Confirmation tokens are bound to the API key that previewed; only the
-- SHA-256 of a token is stored.
ALTER TABLE operation_confirmations
    ADD CONSTRAINT operation_confirmations_token_hash_length CHECK (length(token_hash) = 32),
    ADD CONSTRAINT operation_confirmations_action CHECK (action IN (
        'organization.create', 'organization.update', 'organization.archive', 'organization.restore')),
    ADD CONSTRAINT operation_confirmations_organization_fk
        FOREIGN KEY (organization_id) REFERENCES organizations (id) ON DELETE CASCADE,
    ADD CONSTRAINT operation_confirmations_organization
        CHECK ((action = 'organization.create') = (organization_id IS NULL));
-- A key's long-expired tokens are deleted when it previews again.
CREATE INDEX operation_confirmations_api_key ON operation_confirmations (api_key_id, expires_at);

-- The project listing's read model: per-project metrics that the check
-- pipeline's projection writes. A project without a row has every metric
-- unknown (null); trackedQueryCount is counted live instead.
CREATE TABLE project_listing_metrics (
    project_id                  uuid PRIMARY KEY REFERENCES projects (id) ON DELETE CASCADE,
    avg_serp_position           double precision CHECK (avg_serp_position >= 1),
    avg_shopping_position       double precision CHECK (avg_shopping_position >= 1),
    avg_mention_position        double precision CHECK (avg_mention_position >= 1),
    avg_link_position           double precision CHECK (avg_link_position >= 1),
    mention_rate                double precision CHECK (mention_rate BETWEEN 0 AND 100),
    serp_rate                   double precision CHECK (serp_rate BETWEEN 0 AND 100),
    shopping_rate               double precision CHECK (shopping_rate BETWEEN 0 AND 100),
    positivity_index            double precision CHECK (positivity_index BETWEEN 0 AND 100),
    share_of_voice              double precision CHECK (share_of_voice BETWEEN 0 AND 100),
    serp_position_stability     double precision CHECK (serp_position_stability >= 0),
    shopping_position_stability double precision CHECK (shopping_position_stability >= 0),
    last_rank_detected_at       timestamptz,
    refreshed_at                timestamptz NOT NULL DEFAULT now()
);

-- Background cascades still to run for a project (the removal of a deleted
-- competitor's stored matches, ...). A write registers one in its own
-- transaction together with the job that runs it and sets
-- projects.data_dirty_since; the job that finishes the project's last one
-- clears it. A ledger of our own, not River's job states, so that two
-- cascades finishing at once cannot each see the other still running.
CREATE TABLE project_cascades (
    id         uuid PRIMARY KEY,
    project_id uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    subject    text NOT NULL,  -- what is being removed, e.g. 'competitor'
    subject_id uuid NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX project_cascades_project ON project_cascades (project_id);

-- Countries and locales as text: char(2) pads and compares with trailing
-- blanks, and the checks already pin the length.
ALTER TABLE tracked_queries
    ALTER COLUMN country TYPE text,
    ALTER COLUMN locale TYPE text;

-- The search rows hold configuration copied from the write model by the
-- refresh job, plus the metrics of the most recent completed check, which the
-- check pipeline writes. The refresh never touches the metrics.
ALTER TABLE tracked_query_search_rows
    ALTER COLUMN country TYPE text,
    DROP COLUMN locale,
    DROP COLUMN created_at;
COMMENT ON TABLE tracked_query_search_rows IS
    'Search listing read model: configuration copied by the refresh job plus last-check metrics written by the check pipeline.';

-- Projects whose search rows lag behind the write model. Every write that
-- changes a project's tracked queries bumps the revision in its own
-- transaction; a refresh deletes the row only if the revision is still the
-- one it started from, so a write that lands during a refresh keeps the
-- project pending for the next one.
CREATE SEQUENCE tracked_query_search_revisions;
CREATE TABLE tracked_query_search_pending (
    project_id    uuid PRIMARY KEY REFERENCES projects (id) ON DELETE CASCADE,
    revision      bigint NOT NULL,
    pending_since timestamptz NOT NULL DEFAULT now()
);

-- +goose Down
DROP TABLE tracked_query_search_pending;
DROP SEQUENCE tracked_query_search_revisions;
ALTER TABLE tracked_query_search_rows
    ADD COLUMN created_at timestamptz NOT NULL DEFAULT now(),
    ADD COLUMN locale char(2),
    ALTER COLUMN country TYPE char(2);
-- The default only fills rows already there; 00004's column had none.
ALTER TABLE tracked_query_search_rows ALTER COLUMN created_at DROP DEFAULT;
COMMENT ON TABLE tracked_query_search_rows IS NULL;
ALTER TABLE tracked_queries
    ALTER COLUMN locale TYPE char(2),
    ALTER COLUMN country TYPE char(2);
DROP TABLE project_cascades;
DROP TABLE project_listing_metrics;
DROP INDEX operation_confirmations_api_key;
ALTER TABLE operation_confirmations
    DROP CONSTRAINT operation_confirmations_organization,
    DROP CONSTRAINT operation_confirmations_organization_fk,
    DROP CONSTRAINT operation_confirmations_action,
    DROP CONSTRAINT operation_confirmations_token_hash_length;
