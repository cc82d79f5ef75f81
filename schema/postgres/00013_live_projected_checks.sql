-- +goose Up
-- Projected monthly checks are computed on request (oltp.GetProjectedChecks):
-- one aggregate over an organization's tracked queries, cheap enough to
-- read live, and right the moment a query is created, paused or changed,
-- where the snapshot refreshed every 10 minutes lagged behind. The
-- snapshot table and the queued refreshes go; a refresh left queued would
-- fail as a kind no worker knows.
DROP TABLE organization_projected_checks;
-- +goose StatementBegin
DO $$
BEGIN
    IF to_regclass('river_job') IS NOT NULL THEN
        DELETE FROM river_job WHERE kind = 'organization_projected_checks' AND finalized_at IS NULL;
    END IF;
END
$$;
-- +goose StatementEnd

-- +goose Down
-- Older binaries compute an organization without a snapshot on request
-- until their periodic refresh fills the table again.
CREATE TABLE organization_projected_checks (
    organization_id             uuid PRIMARY KEY REFERENCES organizations (id) ON DELETE CASCADE,
    computed_at                 timestamptz NOT NULL,
    active_tracked_query_count  integer NOT NULL,
    projected_monthly_checks    bigint NOT NULL
);
