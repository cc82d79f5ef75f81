-- +goose Up
-- Accounts, organizations and API access: what every request is checked against.

CREATE TABLE users (
    id         uuid PRIMARY KEY,
    email      text NOT NULL,
    name       text,
    created_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT users_email_format CHECK (email ~ '^[^@\s]+@[^@\s]+$')
);
CREATE UNIQUE INDEX users_email_key ON users (lower(email));

CREATE TABLE organizations (
    id            uuid PRIMARY KEY,
    name          text NOT NULL CHECK (char_length(name) BETWEEN 3 AND 100),
    description   text,
    contact_email text,
    image_url     text,
    status        text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'archived')),
    created_at    timestamptz NOT NULL DEFAULT now(),
    archived_at   timestamptz,
    CONSTRAINT organizations_archived_at CHECK ((status = 'archived') = (archived_at IS NOT NULL))
);

CREATE TABLE memberships (
    organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    user_id         uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    role            text NOT NULL CHECK (role IN ('viewer', 'manager', 'owner')),
    status          text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'suspended')),
    created_at      timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (organization_id, user_id)
);
CREATE INDEX memberships_user_id ON memberships (user_id);

-- Only the SHA-256 of a key's secret is stored; the plaintext is shown once.
CREATE TABLE api_keys (
    id                uuid PRIMARY KEY,
    user_id           uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    name              text NOT NULL,
    secret_hash       bytea NOT NULL UNIQUE CHECK (length(secret_hash) = 32),
    capabilities      text[] NOT NULL
        CHECK (capabilities <@ ARRAY['read', 'write', 'organization:manage']
               AND 'read' = ANY (capabilities)),
    all_organizations boolean NOT NULL,
    created_at        timestamptz NOT NULL DEFAULT now(),
    revoked_at        timestamptz
);
CREATE INDEX api_keys_user_id ON api_keys (user_id);

-- The organizations a key is limited to when it is not scoped to all of them.
CREATE TABLE api_key_organizations (
    api_key_id      uuid NOT NULL REFERENCES api_keys (id) ON DELETE CASCADE,
    organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    PRIMARY KEY (api_key_id, organization_id)
);

-- Subscription contracts; the most recent one (by created_at, then id) is the current one.
CREATE TABLE subscriptions (
    id                   uuid PRIMARY KEY,
    organization_id      uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    status               text NOT NULL
        CHECK (status IN ('active', 'trialing', 'past_due', 'cancelled', 'expired')),
    tier                 text NOT NULL,
    billing_interval     text NOT NULL CHECK (billing_interval IN ('monthly', 'yearly')),
    check_budget         integer NOT NULL CHECK (check_budget >= 0),
    checks_used          integer NOT NULL DEFAULT 0 CHECK (checks_used >= 0),
    current_period_start timestamptz NOT NULL,
    current_period_end   timestamptz NOT NULL CHECK (current_period_end > current_period_start),
    cancel_at            timestamptz,
    cancelled_at         timestamptz,
    grace_until          timestamptz,
    created_at           timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX subscriptions_current ON subscriptions (organization_id, created_at DESC, id DESC);

-- Stored answers of writes, so that a retried request replays instead of running again.
-- outcome 'uncertain' marks an attempt whose external effect may or may not have happened.
CREATE TABLE idempotency_records (
    api_key_id      uuid NOT NULL REFERENCES api_keys (id) ON DELETE CASCADE,
    idempotency_key text NOT NULL,
    method          text NOT NULL,
    path            text NOT NULL,
    request_hash    bytea NOT NULL,
    outcome         text NOT NULL CHECK (outcome IN ('completed', 'uncertain')),
    response_status integer,
    response_type   text,
    response_body   bytea,
    created_at      timestamptz NOT NULL DEFAULT now(),
    expires_at      timestamptz NOT NULL,
    PRIMARY KEY (api_key_id, idempotency_key),
    CONSTRAINT idempotency_records_completed
        CHECK (outcome <> 'completed' OR response_status IS NOT NULL)
);
CREATE INDEX idempotency_records_expires_at ON idempotency_records (expires_at);

-- Rate-limit state shared by every API process: a sliding-window counter per
-- bucket (a user, a key, an organization's job starts). Unlogged: losing it in
-- a crash only forgives one window of traffic.
CREATE UNLOGGED TABLE rate_limit_buckets (
    bucket         text PRIMARY KEY,
    window_start   double precision NOT NULL, -- epoch seconds of the current fixed window
    previous_count integer NOT NULL,
    current_count  integer NOT NULL
);

-- rate_limit_take admits one request into the bucket unless that would exceed
-- p_limit per p_window, estimating the requests in the sliding window as the
-- current fixed window's count plus the previous window's count weighted by
-- how much of it the sliding window still covers. A refused request is not
-- counted. retry_after_seconds says when the request would be admitted.
-- One call is one atomic round trip, on the database's clock.
-- +goose StatementBegin
CREATE FUNCTION rate_limit_take(p_bucket text, p_limit integer, p_window_seconds integer)
RETURNS TABLE (allowed boolean, retry_after_seconds double precision)
LANGUAGE plpgsql AS $$
DECLARE
    w        double precision := p_window_seconds;
    now_s    double precision := extract(epoch FROM clock_timestamp());
    w_start  double precision := floor(now_s / w) * w;
    elapsed  double precision := now_s - w_start;
    b        rate_limit_buckets%ROWTYPE;
    prev     integer := 0;
    curr     integer := 0;
BEGIN
    INSERT INTO rate_limit_buckets (bucket, window_start, previous_count, current_count)
    VALUES (p_bucket, w_start, 0, 0)
    ON CONFLICT (bucket) DO NOTHING;
    SELECT * INTO b FROM rate_limit_buckets WHERE bucket = p_bucket FOR UPDATE;
    IF b.window_start = w_start THEN
        prev := b.previous_count; curr := b.current_count;
    ELSIF b.window_start = w_start - w THEN
        prev := b.current_count;
    END IF;

    IF prev * (1 - elapsed / w) + curr + 1 <= p_limit THEN
        UPDATE rate_limit_buckets
        SET window_start = w_start, previous_count = prev, current_count = curr + 1
        WHERE bucket = p_bucket;
        RETURN QUERY SELECT true, 0::double precision;
        RETURN;
    END IF;

    UPDATE rate_limit_buckets
    SET window_start = w_start, previous_count = prev, current_count = curr
    WHERE bucket = p_bucket;
    -- The wait never exceeds one window: by then every request counted now
    -- has left a true sliding window, even where the estimate lags.
    IF curr + 1 > p_limit THEN
        -- Wait for the next window, then for this window's weight to fade enough.
        RETURN QUERY SELECT false,
            least(w, (w - elapsed) + greatest(0, w * (1 - (p_limit - 1)::double precision / curr)));
    ELSE
        RETURN QUERY SELECT false,
            least(w, greatest(0, w * (1 - (p_limit - 1 - curr)::double precision / prev) - elapsed));
    END IF;
END
$$;
-- +goose StatementEnd

-- +goose Down
DROP FUNCTION rate_limit_take;
DROP TABLE rate_limit_buckets;
DROP TABLE idempotency_records;
DROP TABLE subscriptions;
DROP TABLE api_key_organizations;
DROP TABLE api_keys;
DROP TABLE memberships;
DROP TABLE organizations;
DROP TABLE users;
