-- +goose Up
-- The scheduler walks the queries that are due, in the order they fell
-- due, instead of every active query checked at least a day ago: weekly
-- and monthly queries checked within their interval were read again by
-- every scheduling (every minute), a cost that grew with the tracked
-- queries rather than with the checks to schedule.
--
-- check_due_at is when a query checked at last_checked_at is next due
-- (never checked: -infinity). The intervals are in hours, so the result
-- does not depend on the session's time zone and the function is truly
-- immutable, as a generated column must be; they equal the calendar
-- intervals of spec 2.8 in UTC. due_at stores it, so that reads compare a
-- column instead of calling the function on every row.
-- +goose StatementBegin
CREATE FUNCTION check_due_at(last_checked_at timestamptz, check_frequency text) RETURNS timestamptz
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN coalesce(last_checked_at, '-infinity') + CASE check_frequency
    WHEN 'daily' THEN interval '24 hours' WHEN 'weekly' THEN interval '168 hours' ELSE interval '720 hours' END;
-- +goose StatementEnd
ALTER TABLE tracked_queries
    ADD COLUMN due_at timestamptz GENERATED ALWAYS AS (check_due_at(last_checked_at, check_frequency)) STORED;
CREATE INDEX tracked_queries_schedule ON tracked_queries (due_at, id) WHERE status = 'active';
DROP INDEX tracked_queries_staleness;

-- +goose Down
CREATE INDEX tracked_queries_staleness ON tracked_queries ((coalesce(last_checked_at, '-infinity')), id)
    WHERE status = 'active';
DROP INDEX tracked_queries_schedule;
ALTER TABLE tracked_queries DROP COLUMN due_at;
DROP FUNCTION check_due_at;
