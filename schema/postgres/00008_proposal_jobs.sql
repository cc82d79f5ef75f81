-- +goose Up
-- Proposal jobs (spec 4.7, 4.8): keyword clustering, brand-name suggestions,
-- brand discovery and keyword discovery. A job is started over the API, worked
-- on River's "proposals" queue, polled at /organizations/{id}/jobs/{jobId},
-- and only proposes: its result is written nowhere until an apply.
--
-- input is the validated request the worker reads; result the proposal once
-- completed; error the client-readable reason once failed. last_error keeps
-- the reason of an attempt that will be retried, for operators only.
CREATE TABLE proposal_jobs (
    id              uuid PRIMARY KEY, -- v7
    organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    -- Every job but brand-name suggestions belongs to a project.
    project_id      uuid REFERENCES projects (id) ON DELETE CASCADE,
    type            text NOT NULL CHECK (type IN ('clustering', 'brand_name_suggestion', 'brand_discovery',
                                                  'keyword_discovery')),
    status          text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'running', 'completed', 'failed')),
    input           jsonb NOT NULL,
    result          jsonb,
    error           text,
    last_error      text,
    attempt         integer NOT NULL DEFAULT 0 CHECK (attempt >= 0),
    created_at      timestamptz NOT NULL DEFAULT now(),
    started_at      timestamptz,
    updated_at      timestamptz NOT NULL DEFAULT now(),
    completed_at    timestamptz,
    CONSTRAINT proposal_jobs_project CHECK ((type = 'brand_name_suggestion') = (project_id IS NULL)),
    CONSTRAINT proposal_jobs_finished CHECK ((status IN ('completed', 'failed')) = (completed_at IS NOT NULL)),
    CONSTRAINT proposal_jobs_result CHECK ((status = 'completed') = (result IS NOT NULL)),
    CONSTRAINT proposal_jobs_error CHECK ((status = 'failed') = (error IS NOT NULL))
);
CREATE INDEX proposal_jobs_organization ON proposal_jobs (organization_id, id);
CREATE INDEX proposal_jobs_project ON proposal_jobs (project_id) WHERE project_id IS NOT NULL;
-- Finished jobs are pruned after their retention; open ones are reaped when
-- River gives up on them.
CREATE INDEX proposal_jobs_completed ON proposal_jobs (completed_at) WHERE completed_at IS NOT NULL;
CREATE INDEX proposal_jobs_open ON proposal_jobs (id) WHERE status IN ('queued', 'running');

-- +goose Down
DROP TABLE proposal_jobs;
