-- Daily rollups of the capture tables, per project, day, tracked query, engine and country
-- (and brand, or cited page). Each is an AggregatingMergeTree fed by a materialized view
-- that writes TO it from every insert into its source table; reads re-aggregate with
-- sum / min / sumMap / -Merge and GROUP BY, so they are exact before merges. Deleting a
-- tracked query or a competitor deletes its rollup rows too (olap.DeleteTrackedQueries,
-- olap.DeleteCompetitor): every rollup keeps tracked_query_id in its key, and the brand
-- rollups keep the competitor, so a brand's worth leaves every share-of-voice sum with it.
-- README.md gives the backfill statement of each view (its SELECT over the source FINAL).

-- +goose Up
-- +goose StatementBegin
CREATE TABLE IF NOT EXISTS mentions_daily
(
    project_id            UUID COMMENT 'Project of the tracked query',
    day                   Date COMMENT 'UTC day of captured_at',
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
TTL day + INTERVAL 16 MONTH
SETTINGS non_replicated_deduplication_window = 1000
COMMENT 'Mentions per brand and day: share of voice (worth), mention counts, sentiment and mention mix. Fed by mentions_daily_mv. Kept 16 months.';
-- +goose StatementEnd

-- +goose StatementBegin
CREATE MATERIALIZED VIEW IF NOT EXISTS mentions_daily_mv TO mentions_daily AS
SELECT
    project_id,
    toDate(captured_at) AS day,
    tracked_query_id,
    engine,
    country,
    relation,
    ifNull(competitor_id, toUUID('00000000-0000-0000-0000-000000000000')) AS competitor_id,
    count() AS mentions,
    sum(worth) AS worth,
    countIf(tone = 'positive') AS tone_positive,
    countIf(tone = 'neutral') AS tone_neutral,
    countIf(tone = 'negative') AS tone_negative,
    countIf(mention_type = 'recommendation') AS type_recommendation,
    countIf(mention_type = 'comparison') AS type_comparison,
    countIf(mention_type = 'listing') AS type_listing,
    countIf(mention_type = 'example') AS type_example,
    countIf(mention_type = 'reference') AS type_reference,
    countIf(qualifier = 'direct') AS qualifier_direct,
    countIf(qualifier = 'conditional') AS qualifier_conditional
FROM mentions
GROUP BY project_id, day, tracked_query_id, engine, country, relation, competitor_id
COMMENT 'Feeds mentions_daily from every insert into mentions';
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TABLE IF NOT EXISTS ranks_daily
(
    project_id                 UUID COMMENT 'Project of the tracked query',
    day                        Date COMMENT 'UTC day of captured_at',
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
TTL day + INTERVAL 16 MONTH
SETTINGS non_replicated_deduplication_window = 1000
COMMENT 'Positions and rates per brand and day: mention, link, search and shopping positions with their stability inputs and distributions, and the capture counts every rate divides by. Fed by ranks_daily_mv. Kept 16 months.';
-- +goose StatementEnd

-- +goose StatementBegin
CREATE MATERIALIZED VIEW IF NOT EXISTS ranks_daily_mv TO ranks_daily AS
SELECT
    project_id,
    toDate(captured_at) AS day,
    tracked_query_id,
    engine,
    country,
    relation,
    competitor_id,
    count() AS passes,
    count(mention_position) AS mention_count,
    sum(toUInt64(ifNull(mention_position, 0))) AS mention_position_sum,
    sum(toUInt64(ifNull(mention_position, 0)) * ifNull(mention_position, 0)) AS mention_position_sq_sum,
    min(mention_position) AS mention_position_min,
    sumMapIf(map(assumeNotNull(mention_position), toUInt64(1)), mention_position IS NOT NULL) AS mention_positions,
    count(link_position) AS link_count,
    sum(toUInt64(ifNull(link_position, 0))) AS link_position_sum,
    sum(toUInt64(ifNull(link_position, 0)) * ifNull(link_position, 0)) AS link_position_sq_sum,
    min(link_position) AS link_position_min,
    sumMapIf(map(assumeNotNull(link_position), toUInt64(1)), link_position IS NOT NULL) AS link_positions,
    count(serp_position) AS serp_count,
    sum(toUInt64(ifNull(serp_position, 0))) AS serp_position_sum,
    sum(toUInt64(ifNull(serp_position, 0)) * ifNull(serp_position, 0)) AS serp_position_sq_sum,
    min(serp_position) AS serp_position_min,
    sumMapIf(map(assumeNotNull(serp_position), toUInt64(1)), serp_position IS NOT NULL) AS serp_positions,
    count(shopping_position) AS shopping_count,
    sum(toUInt64(ifNull(shopping_position, 0))) AS shopping_position_sum,
    sum(toUInt64(ifNull(shopping_position, 0)) * ifNull(shopping_position, 0)) AS shopping_position_sq_sum,
    min(shopping_position) AS shopping_position_min,
    sumMapIf(map(assumeNotNull(shopping_position), toUInt64(1)), shopping_position IS NOT NULL) AS shopping_positions
FROM rank_rows
GROUP BY project_id, day, tracked_query_id, engine, country, relation, competitor_id
COMMENT 'Feeds ranks_daily from every insert into rank_rows';
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TABLE IF NOT EXISTS cooccurrence_daily
(
    project_id              UUID COMMENT 'Project of the tracked query',
    day                     Date COMMENT 'UTC day of captured_at',
    tracked_query_id        UUID COMMENT 'Tracked query that was checked',
    engine                  LowCardinality(String) COMMENT 'AI engine that answered',
    country                 FixedString(2) COMMENT 'ISO 3166-1 alpha-2 country the engine was asked from',
    competitor_id           UUID COMMENT 'Tracked competitor named together with the own brand',
    shared_answers          SimpleAggregateFunction(sum, UInt64) COMMENT 'Answers naming both the own brand and the competitor',
    brand_wins              SimpleAggregateFunction(sum, UInt64) COMMENT 'Shared answers naming the own brand first',
    competitor_wins         SimpleAggregateFunction(sum, UInt64) COMMENT 'Shared answers naming the competitor first',
    ties                    SimpleAggregateFunction(sum, UInt64) COMMENT 'Shared answers giving both the same position',
    own_position_sum        SimpleAggregateFunction(sum, UInt64) COMMENT 'Sum of the own brand''s positions in shared answers',
    competitor_position_sum SimpleAggregateFunction(sum, UInt64) COMMENT 'Sum of the competitor''s positions in shared answers',
    example                 AggregateFunction(argMax, Tuple(UUID, String), DateTime64(3, 'UTC')) COMMENT 'Latest shared answer: (ai_answers.id, query text); read with argMaxMerge'
)
ENGINE = AggregatingMergeTree
PARTITION BY toYYYYMM(day)
ORDER BY (project_id, day, tracked_query_id, engine, country, competitor_id)
TTL day + INTERVAL 16 MONTH
SETTINGS non_replicated_deduplication_window = 1000
COMMENT 'Head-to-head of the own brand and each tracked competitor in answers naming both, per day. Fed by cooccurrence_daily_mv. Kept 16 months.';
-- +goose StatementEnd

-- +goose StatementBegin
CREATE MATERIALIZED VIEW IF NOT EXISTS cooccurrence_daily_mv TO cooccurrence_daily AS
SELECT
    project_id,
    toDate(captured_at) AS day,
    tracked_query_id,
    engine,
    country,
    competitor_id,
    count() AS shared_answers,
    countIf(own_mention_position < mention_position) AS brand_wins,
    countIf(own_mention_position > mention_position) AS competitor_wins,
    countIf(own_mention_position = mention_position) AS ties,
    sum(toUInt64(assumeNotNull(own_mention_position))) AS own_position_sum,
    sum(toUInt64(assumeNotNull(mention_position))) AS competitor_position_sum,
    argMaxState((capture_id, query_text), captured_at) AS example
FROM rank_rows
WHERE relation = 'tracked-competitor' AND mention_position IS NOT NULL AND own_mention_position IS NOT NULL
GROUP BY project_id, day, tracked_query_id, engine, country, competitor_id
COMMENT 'Feeds cooccurrence_daily from every insert into rank_rows';
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TABLE IF NOT EXISTS cited_sources_daily
(
    project_id       UUID COMMENT 'Project of the tracked query',
    day              Date COMMENT 'UTC day of captured_at',
    tracked_query_id UUID COMMENT 'Tracked query whose answer cites the page (distinct queries: uniqExact over this column)',
    engine           LowCardinality(String) COMMENT 'AI engine that answered',
    country          FixedString(2) COMMENT 'ISO 3166-1 alpha-2 country the engine was asked from',
    domain           String COMMENT 'Host without www.',
    url              String COMMENT 'Cited page',
    citations        SimpleAggregateFunction(sum, UInt64) COMMENT 'Times the page is cited',
    position_sum     SimpleAggregateFunction(sum, UInt64) COMMENT 'Sum of its citation positions',
    answers          AggregateFunction(uniqExact, UUID) COMMENT 'Distinct answers citing it (ai_answers.id); read with uniqExactMerge, also across pages of a domain',
    sample_title     SimpleAggregateFunction(max, String) COMMENT 'A title the page was cited with (the greatest; empty when none had one)'
)
ENGINE = AggregatingMergeTree
PARTITION BY toYYYYMM(day)
ORDER BY (project_id, day, tracked_query_id, engine, country, domain, url)
TTL day + INTERVAL 16 MONTH
SETTINGS non_replicated_deduplication_window = 1000
COMMENT 'Cited sources per page and day, whoever owns them. Citations still behind an engine redirect (unresolved) are left out. Fed by cited_sources_daily_mv. Kept 16 months.';
-- +goose StatementEnd

-- +goose StatementBegin
CREATE MATERIALIZED VIEW IF NOT EXISTS cited_sources_daily_mv TO cited_sources_daily AS
SELECT
    project_id,
    toDate(captured_at) AS day,
    tracked_query_id,
    engine,
    country,
    domain,
    url,
    count() AS citations,
    sum(toUInt64(position)) AS position_sum,
    uniqExactState(answer_id) AS answers,
    max(title) AS sample_title
FROM citations
WHERE NOT unresolved
GROUP BY project_id, day, tracked_query_id, engine, country, domain, url
COMMENT 'Feeds cited_sources_daily from every insert into citations';
-- +goose StatementEnd

-- +goose Down
-- +goose StatementBegin
DROP VIEW IF EXISTS cited_sources_daily_mv;
-- +goose StatementEnd
-- +goose StatementBegin
DROP TABLE IF EXISTS cited_sources_daily;
-- +goose StatementEnd
-- +goose StatementBegin
DROP VIEW IF EXISTS cooccurrence_daily_mv;
-- +goose StatementEnd
-- +goose StatementBegin
DROP TABLE IF EXISTS cooccurrence_daily;
-- +goose StatementEnd
-- +goose StatementBegin
DROP VIEW IF EXISTS ranks_daily_mv;
-- +goose StatementEnd
-- +goose StatementBegin
DROP TABLE IF EXISTS ranks_daily;
-- +goose StatementEnd
-- +goose StatementBegin
DROP VIEW IF EXISTS mentions_daily_mv;
-- +goose StatementEnd
-- +goose StatementBegin
DROP TABLE IF EXISTS mentions_daily;
-- +goose StatementEnd
