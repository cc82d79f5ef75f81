-- +goose Up
-- +goose StatementBegin
CREATE TABLE IF NOT EXISTS check_results
(
    organization_id  UUID COMMENT 'Organization that owns the project',
    project_id       UUID COMMENT 'Project of the tracked query',
    tracked_query_id UUID COMMENT 'Tracked query that was checked',
    run_id           UUID COMMENT 'Check run; every pass of one run shares it',
    engine           LowCardinality(String) COMMENT 'chatgpt, perplexity, google_ai_overview, google_ai_mode, google_serp or google_shopping',
    country          FixedString(2) COMMENT 'ISO 3166-1 alpha-2 country the engine was asked from',
    pass_index       UInt8 COMMENT '0-based pass within the run',
    status           Enum8('completed' = 1, 'failed' = 2) COMMENT 'Outcome of the pass; a failed pass is never counted as a zero in any metric',
    error_code       LowCardinality(String) COMMENT 'Why a failed pass failed (engine_timeout, engine_error, ...); empty when completed',
    started_at       DateTime64(3, 'UTC') COMMENT 'When the engine was asked',
    finished_at      DateTime64(3, 'UTC') COMMENT 'When the answer (or the failure) arrived',
    duration_ms      UInt32 MATERIALIZED toUInt32(greatest(0, dateDiff('millisecond', started_at, finished_at))) COMMENT 'finished_at - started_at in milliseconds'
)
ENGINE = ReplacingMergeTree
PARTITION BY toYYYYMM(finished_at)
ORDER BY (project_id, toDate(finished_at), tracked_query_id, run_id, pass_index)
TTL toDateTime(finished_at) + INTERVAL 16 MONTH
COMMENT 'One row per engine pass of a check: the audit trail of what was asked and how it ended. A re-inserted pass replaces its earlier row.';
-- +goose StatementEnd

-- +goose Down
DROP TABLE check_results;
