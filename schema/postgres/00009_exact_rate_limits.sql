-- +goose Up
-- Rate limits count exactly: a bucket (a user, a key, an organization's job
-- starts) keeps the times of the requests it admitted during the last
-- window, so "N per window" holds over every window a client can pick, and
-- Retry-After is the moment the oldest of them leaves it. The estimate of
-- two fixed windows it replaces let up to twice the limit through across a
-- window boundary and refused for up to two windows after a burst. A
-- bucket holds at most its limit of times (600 for a user). Unlogged:
-- losing it in a crash only forgives one window of traffic.
CREATE UNLOGGED TABLE rate_limit_logs (
    bucket   text PRIMARY KEY,
    admitted timestamptz[] NOT NULL -- ascending, within the last window
);

-- rate_limit_admit admits one request into the bucket unless p_limit were
-- admitted in the last p_window_seconds; a refused request is not counted.
-- retry_after_seconds says when the request would be admitted. One call is
-- one atomic round trip, on the database's clock.
-- +goose StatementBegin
CREATE FUNCTION rate_limit_admit(p_bucket text, p_limit integer, p_window_seconds integer)
RETURNS TABLE (allowed boolean, retry_after_seconds double precision)
LANGUAGE plpgsql AS $$
DECLARE
    now_   timestamptz := clock_timestamp();
    window_ interval := make_interval(secs => p_window_seconds);
    times  timestamptz[];
BEGIN
    -- The upsert creates or locks the row in one step, so a concurrent
    -- sweep of idle buckets cannot remove it in between.
    INSERT INTO rate_limit_logs AS l (bucket, admitted) VALUES (p_bucket, '{}')
    ON CONFLICT (bucket) DO UPDATE SET admitted = l.admitted
    RETURNING l.admitted INTO times;
    times := ARRAY(SELECT t FROM unnest(times) AS t WHERE t > now_ - window_ ORDER BY t);

    IF cardinality(times) < p_limit THEN
        UPDATE rate_limit_logs SET admitted = times || now_ WHERE bucket = p_bucket;
        RETURN QUERY SELECT true, 0::double precision;
        RETURN;
    END IF;

    UPDATE rate_limit_logs SET admitted = times WHERE bucket = p_bucket;
    -- Admitted once all but p_limit - 1 of the times have left the window.
    RETURN QUERY SELECT false,
        greatest(0, extract(epoch FROM times[cardinality(times) - p_limit + 1] + window_ - now_))::double precision;
END
$$;
-- +goose StatementEnd

DROP FUNCTION rate_limit_take;
DROP TABLE rate_limit_buckets;

-- +goose Down
DROP FUNCTION rate_limit_admit;
DROP TABLE rate_limit_logs;

CREATE UNLOGGED TABLE rate_limit_buckets (
    bucket         text PRIMARY KEY,
    window_start   double precision NOT NULL,
    previous_count integer NOT NULL,
    current_count  integer NOT NULL
);

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
