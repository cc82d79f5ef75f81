-- Rollups for reads that span many days.
--
-- ranks_daily.by_market: an aggregate projection without the tracked query (per project, day,
-- engine, country and brand), like the ones migration 00005 gives the other rollups. A read
-- over every tracked query of a project (no cluster filter, not one query) that neither filters
-- nor groups by tracked_query_id reads it instead of one row per query and day. Merges and the
-- deletion cascades' lightweight DELETEs rebuild it for the parts they touch, so a deleted
-- query or competitor leaves it with the table. It holds no position distributions: summing
-- maps costs more than the rows it saves; the distributions are read per query (below).
--
-- ranks_monthly and mentions_monthly: ranks_daily and mentions_daily summed per calendar month,
-- same key and columns (day is the month's first day). Reads per tracked query (movers, keyword
-- listings, clusters, cluster filters, the query counts of the headline metrics) take the whole
-- months of a window from them and only the days at its edges from the daily rollups, so a
-- 16-month window reads about 45 rows per query and brand instead of 480. Each is fed by a view
-- on its daily rollup, so it receives exactly what the daily rollup receives (the capture views'
-- inserts and any backfill into the daily table), deduplicated with it; they keep
-- tracked_query_id and competitor_id, so olap.DeleteTrackedQueries and olap.DeleteCompetitor
-- delete from them like from the daily rollups. They are kept a month longer than the daily
-- rollups: a month is read only when the whole month lies inside a window, whose first day is
-- at most 16 months old. The migration fills them with every daily row dated to its month,
-- which the tables' merges sum as the views' GROUP BY does; run it before workers write
-- captures (sightline migrate precedes serve and worker), as rows written between the view's
-- creation and the fill would be counted twice.

-- +goose Up
-- +goose StatementBegin
ALTER TABLE ranks_daily
    MODIFY SETTING deduplicate_merge_projection_mode = 'rebuild', lightweight_mutation_projection_mode = 'rebuild';
-- +goose StatementEnd

-- +goose StatementBegin
ALTER TABLE ranks_daily ADD PROJECTION IF NOT EXISTS by_market
(
    SELECT project_id, day, engine, country, relation, competitor_id,
           sum(passes), sum(mention_count), sum(mention_position_sum), sum(mention_position_sq_sum), min(mention_position_min),
           sum(link_count), sum(link_position_sum), sum(link_position_sq_sum), min(link_position_min),
           sum(serp_count), sum(serp_position_sum), sum(serp_position_sq_sum), min(serp_position_min),
           sum(shopping_count), sum(shopping_position_sum), sum(shopping_position_sq_sum), min(shopping_position_min)
    GROUP BY project_id, day, engine, country, relation, competitor_id
);
-- +goose StatementEnd

-- +goose StatementBegin
ALTER TABLE ranks_daily MATERIALIZE PROJECTION by_market;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TABLE IF NOT EXISTS ranks_monthly
(
    project_id                 UUID COMMENT 'Project of the tracked query',
    day                        Date COMMENT 'First day of the UTC month of captured_at',
    tracked_query_id           UUID COMMENT 'Tracked query that was checked',
    engine                     LowCardinality(String) COMMENT 'Engine of the passes',
    country                    FixedString(2) COMMENT 'ISO 3166-1 alpha-2 country the engine was asked from',
    relation                   Enum8('own' = 1, 'tracked-competitor' = 2) COMMENT 'own, or a tracked competitor',
    competitor_id              UUID COMMENT 'Tracked competitor; the nil UUID on own rows',
    passes                     SimpleAggregateFunction(sum, UInt64) COMMENT 'Own rows: completed passes (AI answers, search or shopping snapshots), the denominator of every rate, competitors'' included. Competitor rows: passes the competitor appears in',
    mention_count              SimpleAggregateFunction(sum, UInt64) COMMENT 'Passes whose answer names the brand (mention rate numerator)',
    mention_position_sum       SimpleAggregateFunction(sum, UInt64) COMMENT 'Sum of the brand''s mention positions',
    mention_position_sq_sum    SimpleAggregateFunction(sum, UInt64) COMMENT 'Sum of squared mention positions (stability: population standard deviation)',
    mention_position_min       SimpleAggregateFunction(min, Nullable(UInt16)) COMMENT 'Best mention position; NULL without any',
    mention_positions          SimpleAggregateFunction(sumMap, Map(UInt16, UInt64)) COMMENT 'Mention position -> passes, for distribution buckets and quantiles',
    link_count                 SimpleAggregateFunction(sum, UInt64) COMMENT 'Passes whose answer cites one of the brand''s domains',
    link_position_sum          SimpleAggregateFunction(sum, UInt64) COMMENT 'Sum of the positions of the first such citation',
    link_position_sq_sum       SimpleAggregateFunction(sum, UInt64) COMMENT 'Sum of squared link positions',
    link_position_min          SimpleAggregateFunction(min, Nullable(UInt16)) COMMENT 'Best link position; NULL without any',
    link_positions             SimpleAggregateFunction(sumMap, Map(UInt16, UInt64)) COMMENT 'Link position -> passes',
    serp_count                 SimpleAggregateFunction(sum, UInt64) COMMENT 'Search snapshots with an organic result on one of the brand''s domains (serp rate numerator)',
    serp_position_sum          SimpleAggregateFunction(sum, UInt64) COMMENT 'Sum of the best such rank per snapshot',
    serp_position_sq_sum       SimpleAggregateFunction(sum, UInt64) COMMENT 'Sum of squared best ranks',
    serp_position_min          SimpleAggregateFunction(min, Nullable(UInt16)) COMMENT 'Best search rank; NULL without any',
    serp_positions             SimpleAggregateFunction(sumMap, Map(UInt16, UInt64)) COMMENT 'Best search rank -> snapshots',
    shopping_count             SimpleAggregateFunction(sum, UInt64) COMMENT 'Shopping snapshots with an offer on one of the brand''s domains (shopping rate numerator)',
    shopping_position_sum      SimpleAggregateFunction(sum, UInt64) COMMENT 'Sum of the best such rank per snapshot',
    shopping_position_sq_sum   SimpleAggregateFunction(sum, UInt64) COMMENT 'Sum of squared best ranks',
    shopping_position_min      SimpleAggregateFunction(min, Nullable(UInt16)) COMMENT 'Best shopping rank; NULL without any',
    shopping_positions         SimpleAggregateFunction(sumMap, Map(UInt16, UInt64)) COMMENT 'Best shopping rank -> snapshots'
)
ENGINE = AggregatingMergeTree
PARTITION BY toYYYYMM(day)
ORDER BY (project_id, day, tracked_query_id, engine, country, relation, competitor_id)
TTL day + INTERVAL 17 MONTH
SETTINGS non_replicated_deduplication_window = 1000
COMMENT 'ranks_daily summed per calendar month (day: the month''s first day). Fed by ranks_monthly_mv. Kept 17 months.';
-- +goose StatementEnd

-- +goose StatementBegin
CREATE MATERIALIZED VIEW IF NOT EXISTS ranks_monthly_mv TO ranks_monthly AS
SELECT
    project_id,
    toStartOfMonth(day) AS day,
    tracked_query_id,
    engine,
    country,
    relation,
    competitor_id,
    sum(passes) AS passes,
    sum(mention_count) AS mention_count,
    sum(mention_position_sum) AS mention_position_sum,
    sum(mention_position_sq_sum) AS mention_position_sq_sum,
    min(mention_position_min) AS mention_position_min,
    sumMap(mention_positions) AS mention_positions,
    sum(link_count) AS link_count,
    sum(link_position_sum) AS link_position_sum,
    sum(link_position_sq_sum) AS link_position_sq_sum,
    min(link_position_min) AS link_position_min,
    sumMap(link_positions) AS link_positions,
    sum(serp_count) AS serp_count,
    sum(serp_position_sum) AS serp_position_sum,
    sum(serp_position_sq_sum) AS serp_position_sq_sum,
    min(serp_position_min) AS serp_position_min,
    sumMap(serp_positions) AS serp_positions,
    sum(shopping_count) AS shopping_count,
    sum(shopping_position_sum) AS shopping_position_sum,
    sum(shopping_position_sq_sum) AS shopping_position_sq_sum,
    min(shopping_position_min) AS shopping_position_min,
    sumMap(shopping_positions) AS shopping_positions
FROM ranks_daily
GROUP BY project_id, day, tracked_query_id, engine, country, relation, competitor_id
COMMENT 'Feeds ranks_monthly from every insert into ranks_daily';
-- +goose StatementEnd

-- +goose StatementBegin
INSERT INTO ranks_monthly SELECT * REPLACE (toStartOfMonth(day) AS day) FROM ranks_daily;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TABLE IF NOT EXISTS mentions_monthly
(
    project_id            UUID COMMENT 'Project of the tracked query',
    day                   Date COMMENT 'First day of the UTC month of captured_at',
    tracked_query_id      UUID COMMENT 'Tracked query that was checked',
    engine                LowCardinality(String) COMMENT 'AI engine that answered',
    country               FixedString(2) COMMENT 'ISO 3166-1 alpha-2 country the engine was asked from',
    relation              Enum8('own' = 1, 'tracked-competitor' = 2, 'untracked-competitor' = 3) COMMENT 'Whose brand: own, a tracked competitor, or every untracked competitor together',
    competitor_id         UUID COMMENT 'Tracked competitor; the nil UUID for own and untracked rows',
    mentions              SimpleAggregateFunction(sum, UInt64) COMMENT 'Answers naming the brand (untracked rows: untracked brands named, each answer counting every such brand)',
    worth                 SimpleAggregateFunction(sum, Float64) COMMENT 'Summed share-of-voice worth; a brand''s share of voice is its worth over the worth of every row of the window',
    tone_positive         SimpleAggregateFunction(sum, UInt64) COMMENT 'Mentions with a positive tone',
    tone_neutral          SimpleAggregateFunction(sum, UInt64) COMMENT 'Mentions with a neutral tone',
    tone_negative         SimpleAggregateFunction(sum, UInt64) COMMENT 'Mentions with a negative tone',
    type_recommendation   SimpleAggregateFunction(sum, UInt64) COMMENT 'Mentions of type recommendation',
    type_comparison       SimpleAggregateFunction(sum, UInt64) COMMENT 'Mentions of type comparison',
    type_listing          SimpleAggregateFunction(sum, UInt64) COMMENT 'Mentions of type listing',
    type_example          SimpleAggregateFunction(sum, UInt64) COMMENT 'Mentions of type example',
    type_reference        SimpleAggregateFunction(sum, UInt64) COMMENT 'Mentions of type reference',
    qualifier_direct      SimpleAggregateFunction(sum, UInt64) COMMENT 'Mentions qualified direct',
    qualifier_conditional SimpleAggregateFunction(sum, UInt64) COMMENT 'Mentions qualified conditional'
)
ENGINE = AggregatingMergeTree
PARTITION BY toYYYYMM(day)
ORDER BY (project_id, day, tracked_query_id, engine, country, relation, competitor_id)
TTL day + INTERVAL 17 MONTH
SETTINGS non_replicated_deduplication_window = 1000
COMMENT 'mentions_daily summed per calendar month (day: the month''s first day). Fed by mentions_monthly_mv. Kept 17 months.';
-- +goose StatementEnd

-- +goose StatementBegin
CREATE MATERIALIZED VIEW IF NOT EXISTS mentions_monthly_mv TO mentions_monthly AS
SELECT
    project_id,
    toStartOfMonth(day) AS day,
    tracked_query_id,
    engine,
    country,
    relation,
    competitor_id,
    sum(mentions) AS mentions,
    sum(worth) AS worth,
    sum(tone_positive) AS tone_positive,
    sum(tone_neutral) AS tone_neutral,
    sum(tone_negative) AS tone_negative,
    sum(type_recommendation) AS type_recommendation,
    sum(type_comparison) AS type_comparison,
    sum(type_listing) AS type_listing,
    sum(type_example) AS type_example,
    sum(type_reference) AS type_reference,
    sum(qualifier_direct) AS qualifier_direct,
    sum(qualifier_conditional) AS qualifier_conditional
FROM mentions_daily
GROUP BY project_id, day, tracked_query_id, engine, country, relation, competitor_id
COMMENT 'Feeds mentions_monthly from every insert into mentions_daily';
-- +goose StatementEnd

-- +goose StatementBegin
INSERT INTO mentions_monthly SELECT * REPLACE (toStartOfMonth(day) AS day) FROM mentions_daily;
-- +goose StatementEnd

-- +goose Down
-- +goose StatementBegin
DROP VIEW IF EXISTS mentions_monthly_mv;
-- +goose StatementEnd
-- +goose StatementBegin
DROP TABLE IF EXISTS mentions_monthly;
-- +goose StatementEnd
-- +goose StatementBegin
DROP VIEW IF EXISTS ranks_monthly_mv;
-- +goose StatementEnd
-- +goose StatementBegin
DROP TABLE IF EXISTS ranks_monthly;
-- +goose StatementEnd
-- +goose StatementBegin
ALTER TABLE ranks_daily DROP PROJECTION IF EXISTS by_market;
-- +goose StatementEnd
-- +goose StatementBegin
ALTER TABLE ranks_daily RESET SETTING deduplicate_merge_projection_mode, lightweight_mutation_projection_mode;
-- +goose StatementEnd
