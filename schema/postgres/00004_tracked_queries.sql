-- +goose Up
-- Tracked queries, their cluster memberships and the search listing's read model.

-- A tracked query is one normalised text on one engine in one country; the
-- database refuses a second one and a multi-pass search or shopping query.
CREATE TABLE tracked_queries (
    id              uuid PRIMARY KEY,
    project_id      uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    query_text      text NOT NULL CHECK (query_text <> ''),
    engine          text NOT NULL CHECK (engine IN ('chatgpt', 'perplexity', 'google_ai_overview',
                                                    'google_ai_mode', 'google_serp', 'google_shopping')),
    country         char(2) NOT NULL CHECK (country ~ '^[A-Z]{2}$'),
    locale          char(2) CHECK (locale ~ '^[a-z]{2}$'),
    check_frequency text NOT NULL CHECK (check_frequency IN ('daily', 'weekly', 'monthly')),
    n_passes        smallint NOT NULL CHECK (n_passes BETWEEN 1 AND 10),
    status          text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'paused')),
    last_checked_at timestamptz,
    created_at      timestamptz NOT NULL DEFAULT now(),
    UNIQUE (project_id, query_text, engine, country),
    UNIQUE (project_id, id),
    CONSTRAINT tracked_queries_single_pass_engines
        CHECK (engine NOT IN ('google_serp', 'google_shopping') OR n_passes = 1)
);
CREATE INDEX tracked_queries_due ON tracked_queries (status, last_checked_at NULLS FIRST);

-- Cluster membership; both sides must be in the same project.
CREATE TABLE tracked_query_clusters (
    project_id       uuid NOT NULL,
    tracked_query_id uuid NOT NULL,
    cluster_id       uuid NOT NULL,
    PRIMARY KEY (tracked_query_id, cluster_id),
    FOREIGN KEY (project_id, tracked_query_id) REFERENCES tracked_queries (project_id, id) ON DELETE CASCADE,
    FOREIGN KEY (project_id, cluster_id) REFERENCES query_clusters (project_id, id) ON DELETE CASCADE
);
CREATE INDEX tracked_query_clusters_cluster ON tracked_query_clusters (cluster_id);

-- The search listing's read model: configuration plus the metrics of the most
-- recent completed check, refreshed in the background.
CREATE TABLE tracked_query_search_rows (
    tracked_query_id       uuid PRIMARY KEY,
    project_id             uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    query_text             text NOT NULL,
    engine                 text NOT NULL,
    country                char(2) NOT NULL,
    locale                 char(2),
    check_frequency        text NOT NULL,
    n_passes               smallint NOT NULL,
    status                 text NOT NULL,
    query_cluster_ids      uuid[] NOT NULL DEFAULT '{}',
    created_at             timestamptz NOT NULL,
    last_checked_at        timestamptz,
    last_serp_position     double precision,
    last_mention_position  double precision,
    last_link_position     double precision,
    last_shopping_position double precision,
    last_share_of_voice    double precision,
    last_positivity_index  double precision,
    last_mention_count     integer NOT NULL DEFAULT 0,
    refreshed_at           timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX tracked_query_search_rows_project ON tracked_query_search_rows (project_id, query_text);

-- +goose Down
DROP TABLE tracked_query_search_rows;
DROP TABLE tracked_query_clusters;
DROP TABLE tracked_queries;
