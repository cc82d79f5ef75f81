-- +goose Up
-- Reports of captured AI answers (spec 4.2 report) waiting for review when
-- no external review system is configured (REVIEW_URL unset): Sightline's
-- own review queue. The API never reads it back; operators read it with
-- `sightline admin reports list`. No foreign keys: a report outlives the
-- deletion of the tracked query or answer it is about.
CREATE TABLE answer_reports (
    id                 uuid PRIMARY KEY, -- the reportId the reporter was given
    type               text NOT NULL CHECK (type IN ('missed_mention', 'other')),
    comment            text,
    missed_brand_names text[] NOT NULL,
    organization_id    uuid NOT NULL,
    project_id         uuid NOT NULL,
    tracked_query_id   uuid NOT NULL,
    ai_response_id     uuid NOT NULL,
    check_run_id       uuid NOT NULL,
    reported_by        uuid NOT NULL, -- users.id of the key's user
    reported_at        timestamptz NOT NULL
);
CREATE INDEX answer_reports_reported_at ON answer_reports (reported_at, id);

-- +goose Down
DROP TABLE answer_reports;
