-- +goose Up
-- Organization-level state: invitations (as far as counts and the archive
-- cascade need them), confirmation tokens of confirmed operations, and the
-- periodically computed snapshots.

CREATE TABLE invitations (
    id                    uuid PRIMARY KEY,
    organization_id       uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    email                 text NOT NULL,
    role                  text NOT NULL CHECK (role IN ('viewer', 'manager', 'owner')),
    status                text NOT NULL DEFAULT 'pending'
        CHECK (status IN ('pending', 'accepted', 'cancelled', 'expired')),
    expires_at            timestamptz NOT NULL,
    cancelled_by_archive  boolean NOT NULL DEFAULT false,
    created_at            timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX invitations_organization ON invitations (organization_id, status);

-- An organization archive asks for the subscription to end with its period;
-- restore withdraws only a cancellation the archive asked for.
ALTER TABLE subscriptions ADD COLUMN cancel_requested_by_archive boolean NOT NULL DEFAULT false;

-- Preview tokens of confirmed organization operations: single use, five minutes,
-- bound to action, organization, body and the digest of the effects declared.
CREATE TABLE operation_confirmations (
    token_hash      bytea PRIMARY KEY,
    action          text NOT NULL,
    organization_id uuid,
    body_hash       bytea NOT NULL,
    effects_digest  bytea NOT NULL,
    api_key_id      uuid NOT NULL REFERENCES api_keys (id) ON DELETE CASCADE,
    expires_at      timestamptz NOT NULL,
    used_at         timestamptz,
    created_at      timestamptz NOT NULL DEFAULT now()
);

-- Periodically computed snapshots.
CREATE TABLE organization_membership_stats (
    organization_id           uuid PRIMARY KEY REFERENCES organizations (id) ON DELETE CASCADE,
    computed_at               timestamptz NOT NULL,
    total_members_count       integer NOT NULL,
    total_projects_count      integer NOT NULL,
    pending_invitations_count integer NOT NULL
);

CREATE TABLE organization_projected_checks (
    organization_id             uuid PRIMARY KEY REFERENCES organizations (id) ON DELETE CASCADE,
    computed_at                 timestamptz NOT NULL,
    active_tracked_query_count  integer NOT NULL,
    projected_monthly_checks    bigint NOT NULL
);

-- +goose Down
DROP TABLE organization_projected_checks;
DROP TABLE organization_membership_stats;
DROP TABLE operation_confirmations;
ALTER TABLE subscriptions DROP COLUMN cancel_requested_by_archive;
DROP TABLE invitations;
