-- Captures: what the engines returned for each pass of a check and what extraction read
-- out of it. Every table is a ReplacingMergeTree whose sorting key ends in the row's
-- deterministic identity (run, pass, item), so a pass that reaches ClickHouse twice
-- collapses to one row; reads that must be exact before merges use FINAL. The olap
-- writer also skips passes a table already holds and inserts with a per-block
-- insert_deduplication_token, which non_replicated_deduplication_window makes effective
-- on plain MergeTree tables (see README.md).

-- +goose Up
-- +goose StatementBegin
CREATE TABLE IF NOT EXISTS ai_answers
(
    id                     UUID COMMENT 'AI answer id (the API aiResponseId): a UUIDv7 whose timestamp is captured_at, derived from run_id and pass_index so a re-sent pass keeps it',
    organization_id        UUID COMMENT 'Organization that owns the project',
    project_id             UUID COMMENT 'Project of the tracked query',
    tracked_query_id       UUID COMMENT 'Tracked query that was checked',
    run_id                 UUID COMMENT 'Check run; every pass of one run shares it',
    pass_index             UInt8 COMMENT '0-based pass within the run',
    pass_count             UInt8 COMMENT 'Number of passes the run was asked for',
    engine                 LowCardinality(String) COMMENT 'AI engine: chatgpt, perplexity, google_ai_overview or google_ai_mode',
    country                FixedString(2) COMMENT 'ISO 3166-1 alpha-2 country the engine was asked from',
    locale                 LowCardinality(String) COMMENT 'ISO 639-1 language the engine was asked in; empty when none was asked',
    query_text             String COMMENT 'Normalised query text as asked',
    captured_at            DateTime64(3, 'UTC') COMMENT 'When the run captured the answer; every pass of a run shares it (the API capturedAt)',
    response_text          String COMMENT 'The answer text as the engine returned it',
    `citations.position`   Array(UInt16) COMMENT 'Cited sources: 1-based position, in order of first citation',
    `citations.url`        Array(String) COMMENT 'Cited sources: URL; still the redirector URL when unresolved',
    `citations.domain`     Array(String) COMMENT 'Cited sources: host without www.; the redirector host when unresolved',
    `citations.title`      Array(String) COMMENT 'Cited sources: title as the engine gave it; empty when none',
    `citations.unresolved` Array(Bool) COMMENT 'Cited sources: true when the URL is still an engine redirector whose destination is unknown'
)
ENGINE = ReplacingMergeTree
PARTITION BY toYYYYMM(captured_at)
ORDER BY (project_id, toDate(captured_at), tracked_query_id, run_id, pass_index)
TTL toDateTime(captured_at) + INTERVAL 16 MONTH
SETTINGS non_replicated_deduplication_window = 1000
COMMENT 'One row per pass of an AI engine: the captured answer with its cited sources. Kept 16 months.';
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TABLE IF NOT EXISTS mentions
(
    id               UUID COMMENT 'Mention match id: a UUIDv7 whose timestamp is captured_at, derived from run_id, pass_index and the item index',
    answer_id        UUID COMMENT 'AI answer the brand is named in (ai_answers.id)',
    organization_id  UUID COMMENT 'Organization that owns the project',
    project_id       UUID COMMENT 'Project of the tracked query',
    tracked_query_id UUID COMMENT 'Tracked query that was checked',
    run_id           UUID COMMENT 'Check run; every pass of one run shares it',
    pass_index       UInt8 COMMENT '0-based pass within the run',
    engine           LowCardinality(String) COMMENT 'AI engine that answered',
    country          FixedString(2) COMMENT 'ISO 3166-1 alpha-2 country the engine was asked from',
    query_text       String COMMENT 'Normalised query text as asked',
    captured_at      DateTime64(3, 'UTC') COMMENT 'When the run captured the answer (the API detectedAt of the match)',
    brand_name       String COMMENT 'The brand as the answer first writes it',
    relation         Enum8('own' = 1, 'tracked-competitor' = 2, 'untracked-competitor' = 3) COMMENT 'Whose brand it is from the project''s point of view (mentionRelation)',
    competitor_id    Nullable(UUID) COMMENT 'Tracked competitor named; NULL for the own brand and untracked competitors',
    position         UInt16 COMMENT '1-based rank of the brand among every brand the answer names, by first appearance',
    mention_type     Enum8('recommendation' = 1, 'comparison' = 2, 'listing' = 3, 'example' = 4, 'reference' = 5) COMMENT 'How the answer names the brand',
    tone             Enum8('positive' = 1, 'neutral' = 2, 'negative' = 3) COMMENT 'Sentiment of the mention',
    qualifier        Enum8('direct' = 1, 'conditional' = 2) COMMENT 'direct, or conditional when hedged (if you need X, then Brand)',
    mention_text     String COMMENT 'The sentence of the first mention',
    worth            Float64 COMMENT 'Share-of-voice worth: weight(mention_type) x multiplier(tone) x (conditional ? 0.7 : 1.0), with the constants in force when written'
)
ENGINE = ReplacingMergeTree
PARTITION BY toYYYYMM(captured_at)
ORDER BY (project_id, toDate(captured_at), tracked_query_id, run_id, pass_index, position, id)
TTL toDateTime(captured_at) + INTERVAL 16 MONTH
SETTINGS non_replicated_deduplication_window = 1000
COMMENT 'One row per distinct brand an AI answer names (own, tracked or untracked competitor): the mention matches. Kept 16 months.';
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TABLE IF NOT EXISTS citations
(
    answer_id        UUID COMMENT 'AI answer that cites the source (ai_answers.id)',
    organization_id  UUID COMMENT 'Organization that owns the project',
    project_id       UUID COMMENT 'Project of the tracked query',
    tracked_query_id UUID COMMENT 'Tracked query that was checked',
    run_id           UUID COMMENT 'Check run; every pass of one run shares it',
    pass_index       UInt8 COMMENT '0-based pass within the run',
    engine           LowCardinality(String) COMMENT 'AI engine that answered',
    country          FixedString(2) COMMENT 'ISO 3166-1 alpha-2 country the engine was asked from',
    captured_at      DateTime64(3, 'UTC') COMMENT 'When the run captured the answer',
    position         UInt16 COMMENT '1-based position of the source, in order of first citation',
    url              String COMMENT 'Cited URL; still the redirector URL when unresolved',
    domain           String COMMENT 'Host without www.; the redirector host when unresolved',
    title            String COMMENT 'Title as the engine gave it; empty when none',
    unresolved       Bool COMMENT 'True when the URL is still an engine redirector whose destination is unknown',
    relation         Enum8('' = 0, 'own' = 1, 'tracked-competitor' = 2) COMMENT 'own or tracked-competitor when the domain is one of theirs; empty for anyone else''s',
    competitor_id    Nullable(UUID) COMMENT 'Tracked competitor whose domain it is; NULL otherwise'
)
ENGINE = ReplacingMergeTree
PARTITION BY toYYYYMM(captured_at)
ORDER BY (project_id, toDate(captured_at), tracked_query_id, run_id, pass_index, position, url)
TTL toDateTime(captured_at) + INTERVAL 16 MONTH
SETTINGS non_replicated_deduplication_window = 1000
COMMENT 'One row per source an AI answer cites, with its resolved domain and owner. Kept 16 months.';
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TABLE IF NOT EXISTS search_results
(
    id               UUID COMMENT 'Result id (the serp match id): a UUIDv7 whose timestamp is captured_at, derived from run_id, pass_index and the item index',
    snapshot_id      UUID COMMENT 'Search snapshot (captured page) the result is on: a UUIDv7 derived from run_id and pass_index',
    organization_id  UUID COMMENT 'Organization that owns the project',
    project_id       UUID COMMENT 'Project of the tracked query',
    tracked_query_id UUID COMMENT 'Tracked query that was checked',
    run_id           UUID COMMENT 'Check run',
    pass_index       UInt8 COMMENT '0-based pass within the run (always 0: search checks run one pass)',
    engine           LowCardinality(String) COMMENT 'google_serp',
    country          FixedString(2) COMMENT 'ISO 3166-1 alpha-2 country the engine was asked from',
    query_text       String COMMENT 'Normalised query text as asked',
    captured_at      DateTime64(3, 'UTC') COMMENT 'When the run captured the page (the API capturedAt and detectedAt)',
    rank             UInt16 COMMENT '1-based organic rank',
    url              String COMMENT 'Result URL; still the redirector URL when unresolved',
    domain           String COMMENT 'Host without www.; the redirector host when unresolved',
    title            String COMMENT 'Result title',
    snippet          String COMMENT 'Result snippet; empty when none',
    rating           Nullable(Float64) COMMENT 'Review rating shown with the result; NULL when absent',
    rating_votes     Nullable(UInt32) COMMENT 'Number of reviews behind the rating; NULL when absent',
    unresolved       Bool COMMENT 'True when the URL is still a redirector whose destination is unknown',
    relation         Enum8('' = 0, 'own' = 1, 'tracked-competitor' = 2) COMMENT 'own or tracked-competitor when the domain is one of theirs (a serp match); empty otherwise',
    competitor_id    Nullable(UUID) COMMENT 'Tracked competitor whose domain it is; NULL for own results and anyone else''s'
)
ENGINE = ReplacingMergeTree
PARTITION BY toYYYYMM(captured_at)
ORDER BY (project_id, toDate(captured_at), tracked_query_id, run_id, pass_index, rank, id)
TTL toDateTime(captured_at) + INTERVAL 16 MONTH
SETTINGS non_replicated_deduplication_window = 1000
COMMENT 'One row per organic result of a captured search page; rows with a relation are the serp matches. Kept 16 months.';
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TABLE IF NOT EXISTS shopping_offers
(
    id               UUID COMMENT 'Offer id: a UUIDv7 whose timestamp is captured_at, derived from run_id, pass_index and the item index',
    snapshot_id      UUID COMMENT 'Shopping snapshot (captured page) the offer is on: a UUIDv7 derived from run_id and pass_index',
    organization_id  UUID COMMENT 'Organization that owns the project',
    project_id       UUID COMMENT 'Project of the tracked query',
    tracked_query_id UUID COMMENT 'Tracked query that was checked',
    run_id           UUID COMMENT 'Check run',
    pass_index       UInt8 COMMENT '0-based pass within the run (always 0: shopping checks run one pass)',
    engine           LowCardinality(String) COMMENT 'google_shopping',
    country          FixedString(2) COMMENT 'ISO 3166-1 alpha-2 country the engine was asked from',
    query_text       String COMMENT 'Normalised query text as asked',
    captured_at      DateTime64(3, 'UTC') COMMENT 'When the run captured the page (the API capturedAt)',
    rank             UInt16 COMMENT '1-based rank of the offer on the page',
    title            String COMMENT 'Offer title',
    price            Float64 COMMENT 'Price in currency, as the engine reported it (a display value, never summed across currencies)',
    currency         LowCardinality(String) COMMENT 'ISO 4217 currency of price; offers of one page may differ',
    product_id       String COMMENT 'Engine product id; empty when the engine gives none',
    merchant         String COMMENT 'Merchant name',
    domain           String COMMENT 'Merchant host without www.; empty when the offer has no merchant URL',
    url              String COMMENT 'Offer URL; empty when none',
    relation         Enum8('' = 0, 'own' = 1, 'tracked-competitor' = 2) COMMENT 'own or tracked-competitor when the merchant domain is one of theirs; empty otherwise',
    competitor_id    Nullable(UUID) COMMENT 'Tracked competitor whose domain it is; NULL for own offers and anyone else''s'
)
ENGINE = ReplacingMergeTree
PARTITION BY toYYYYMM(captured_at)
ORDER BY (project_id, toDate(captured_at), tracked_query_id, run_id, pass_index, rank, id)
TTL toDateTime(captured_at) + INTERVAL 16 MONTH
SETTINGS non_replicated_deduplication_window = 1000
COMMENT 'One row per offer of a captured shopping page. Kept 16 months.';
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TABLE IF NOT EXISTS rank_rows
(
    organization_id      UUID COMMENT 'Organization that owns the project',
    project_id           UUID COMMENT 'Project of the tracked query',
    tracked_query_id     UUID COMMENT 'Tracked query that was checked',
    run_id               UUID COMMENT 'Check run; every pass of one run shares it',
    pass_index           UInt8 COMMENT '0-based pass within the run',
    pass_count           UInt8 COMMENT 'Number of passes the run was asked for',
    engine               LowCardinality(String) COMMENT 'Engine of the pass',
    country              FixedString(2) COMMENT 'ISO 3166-1 alpha-2 country the engine was asked from',
    query_text           String COMMENT 'Normalised query text as asked',
    captured_at          DateTime64(3, 'UTC') COMMENT 'When the run captured the pass; every pass of a run shares it',
    capture_id           UUID COMMENT 'The pass''s capture: ai_answers.id for AI engines, the snapshot_id of search_results or shopping_offers otherwise',
    relation             Enum8('own' = 1, 'tracked-competitor' = 2) COMMENT 'own: the row every completed pass has; tracked-competitor: a competitor that appears in the pass',
    competitor_id        UUID COMMENT 'Tracked competitor of the row; the nil UUID on own rows',
    mention_position     Nullable(UInt16) COMMENT 'The brand''s 1-based rank among the brands the answer names; NULL when not named or not an AI engine',
    mentioned            Bool ALIAS mention_position IS NOT NULL COMMENT 'The answer names the brand',
    tone                 Enum8('' = 0, 'positive' = 1, 'neutral' = 2, 'negative' = 3) COMMENT 'Sentiment of the brand''s mention; empty when not named',
    link_position        Nullable(UInt16) COMMENT 'Position of the first cited source on one of the brand''s domains; NULL when none',
    serp_position        Nullable(UInt16) COMMENT 'Best organic rank of a result on one of the brand''s domains (google_serp); NULL when none',
    shopping_position    Nullable(UInt16) COMMENT 'Best rank of an offer on one of the brand''s domains (google_shopping); NULL when none',
    own_mention_position Nullable(UInt16) COMMENT 'The own brand''s mention_position in the same answer, for head-to-head comparison; NULL when the own brand is not named'
)
ENGINE = ReplacingMergeTree
PARTITION BY toYYYYMM(captured_at)
ORDER BY (project_id, toDate(captured_at), tracked_query_id, run_id, pass_index, relation, competitor_id)
TTL toDateTime(captured_at) + INTERVAL 16 MONTH
SETTINGS non_replicated_deduplication_window = 1000
COMMENT 'Rank history: per completed pass one own row (always, so it counts the captures) and one row per tracked competitor that appears in it, with the brand''s positions in that pass. Written by the olap writer from the other capture tables of the pass. Kept 16 months.';
-- +goose StatementEnd

-- +goose Down
-- +goose StatementBegin
DROP TABLE IF EXISTS rank_rows;
-- +goose StatementEnd
-- +goose StatementBegin
DROP TABLE IF EXISTS shopping_offers;
-- +goose StatementEnd
-- +goose StatementBegin
DROP TABLE IF EXISTS search_results;
-- +goose StatementEnd
-- +goose StatementBegin
DROP TABLE IF EXISTS citations;
-- +goose StatementEnd
-- +goose StatementBegin
DROP TABLE IF EXISTS mentions;
-- +goose StatementEnd
-- +goose StatementBegin
DROP TABLE IF EXISTS ai_answers;
-- +goose StatementEnd
