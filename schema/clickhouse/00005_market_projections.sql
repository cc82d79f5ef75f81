-- Aggregate projections of the daily rollups without the tracked query: per project, day,
-- engine, country and brand (mentions_daily) or competitor (cooccurrence_daily), and per
-- project, day, engine and cited domain or page (cited_sources_daily; cited sources take no
-- country filter). A query checked once a day leaves about one rollup row per brand and day,
-- so a window's figures over every tracked query read far fewer rows from a projection.
-- ClickHouse picks one whenever a read neither filters nor groups by tracked_query_id and
-- reads the table itself otherwise (cluster filters). Merges and lightweight deletes rebuild
-- the projections of the parts they touch, so the deletion cascades (olap.DeleteTrackedQueries,
-- olap.DeleteCompetitor) reach them too.

-- +goose Up
-- +goose StatementBegin
ALTER TABLE mentions_daily
    MODIFY SETTING deduplicate_merge_projection_mode = 'rebuild', lightweight_mutation_projection_mode = 'rebuild';
-- +goose StatementEnd

-- +goose StatementBegin
ALTER TABLE mentions_daily ADD PROJECTION IF NOT EXISTS by_market
(
    SELECT project_id, day, engine, country, relation, competitor_id,
           sum(mentions), sum(worth), sum(tone_positive), sum(tone_neutral), sum(tone_negative),
           sum(type_recommendation), sum(type_comparison), sum(type_listing), sum(type_example), sum(type_reference),
           sum(qualifier_direct), sum(qualifier_conditional)
    GROUP BY project_id, day, engine, country, relation, competitor_id
);
-- +goose StatementEnd

-- +goose StatementBegin
ALTER TABLE mentions_daily MATERIALIZE PROJECTION by_market;
-- +goose StatementEnd

-- +goose StatementBegin
ALTER TABLE cooccurrence_daily
    MODIFY SETTING deduplicate_merge_projection_mode = 'rebuild', lightweight_mutation_projection_mode = 'rebuild';
-- +goose StatementEnd

-- +goose StatementBegin
ALTER TABLE cooccurrence_daily ADD PROJECTION IF NOT EXISTS by_market
(
    SELECT project_id, day, engine, country, competitor_id,
           sum(shared_answers), sum(brand_wins), sum(competitor_wins), sum(ties),
           sum(own_position_sum), sum(competitor_position_sum), argMaxMerge(example)
    GROUP BY project_id, day, engine, country, competitor_id
);
-- +goose StatementEnd

-- +goose StatementBegin
ALTER TABLE cooccurrence_daily MATERIALIZE PROJECTION by_market;
-- +goose StatementEnd

-- +goose StatementBegin
ALTER TABLE cited_sources_daily
    MODIFY SETTING deduplicate_merge_projection_mode = 'rebuild', lightweight_mutation_projection_mode = 'rebuild';
-- +goose StatementEnd

-- +goose StatementBegin
ALTER TABLE cited_sources_daily ADD PROJECTION IF NOT EXISTS by_domain
(
    SELECT project_id, day, engine, domain,
           sum(citations), sum(position_sum), uniqExactMerge(answers), uniqExact(tracked_query_id), max(sample_title)
    GROUP BY project_id, day, engine, domain
);
-- +goose StatementEnd

-- +goose StatementBegin
ALTER TABLE cited_sources_daily ADD PROJECTION IF NOT EXISTS by_page
(
    SELECT project_id, day, engine, domain, url,
           sum(citations), sum(position_sum), uniqExactMerge(answers), uniqExact(tracked_query_id), max(sample_title)
    GROUP BY project_id, day, engine, domain, url
);
-- +goose StatementEnd

-- +goose StatementBegin
ALTER TABLE cited_sources_daily MATERIALIZE PROJECTION by_domain;
-- +goose StatementEnd

-- +goose StatementBegin
ALTER TABLE cited_sources_daily MATERIALIZE PROJECTION by_page;
-- +goose StatementEnd

-- +goose Down
-- +goose StatementBegin
ALTER TABLE cited_sources_daily DROP PROJECTION IF EXISTS by_page;
-- +goose StatementEnd
-- +goose StatementBegin
ALTER TABLE cited_sources_daily DROP PROJECTION IF EXISTS by_domain;
-- +goose StatementEnd
-- +goose StatementBegin
ALTER TABLE cooccurrence_daily DROP PROJECTION IF EXISTS by_market;
-- +goose StatementEnd
-- +goose StatementBegin
ALTER TABLE mentions_daily DROP PROJECTION IF EXISTS by_market;
-- +goose StatementEnd
-- +goose StatementBegin
ALTER TABLE cited_sources_daily RESET SETTING deduplicate_merge_projection_mode, lightweight_mutation_projection_mode;
-- +goose StatementEnd
-- +goose StatementBegin
ALTER TABLE cooccurrence_daily RESET SETTING deduplicate_merge_projection_mode, lightweight_mutation_projection_mode;
-- +goose StatementEnd
-- +goose StatementBegin
ALTER TABLE mentions_daily RESET SETTING deduplicate_merge_projection_mode, lightweight_mutation_projection_mode;
-- +goose StatementEnd
