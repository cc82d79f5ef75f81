-- +goose Up
-- Deleted clusters leave a tombstone: analytics filtered by a deleted cluster's
-- id answer nothing (spec 4.7, "including earlier dates") instead of refusing
-- the id as one that never belonged to the project.
CREATE TABLE deleted_query_clusters (
    id         uuid PRIMARY KEY,
    project_id uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    deleted_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX deleted_query_clusters_project ON deleted_query_clusters (project_id);

-- +goose Down
DROP TABLE deleted_query_clusters;
