-- +goose Up
-- Projects with their brand profile, competitors and keyword clusters.

-- Who archived a project decides who may restore it: a project archived on its
-- own stays archived when its organization is restored.
CREATE TABLE projects (
    id              uuid PRIMARY KEY,
    organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    name            text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 255),
    status          text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'archived')),
    archived_by     text CHECK (archived_by IN ('caller', 'organization')),
    archived_at     timestamptz,
    created_at      timestamptz NOT NULL DEFAULT now(),
    -- Set while a background cascade may still change this project's analytics.
    data_dirty_since timestamptz,
    CONSTRAINT projects_archive_record CHECK (
        (status = 'archived') = (archived_at IS NOT NULL AND archived_by IS NOT NULL))
);
CREATE INDEX projects_organization ON projects (organization_id, created_at DESC, id DESC);

-- The brand profile is a project's brand-monitoring configuration. Its own id is
-- internal and never shown.
CREATE TABLE brand_profiles (
    project_id               uuid PRIMARY KEY REFERENCES projects (id) ON DELETE CASCADE,
    id                       uuid NOT NULL UNIQUE,
    website_domains          text[] NOT NULL CHECK (cardinality(website_domains) >= 1),
    brand_names              text[] NOT NULL CHECK (cardinality(brand_names) >= 1),
    description              text,
    description_generated_at timestamptz,
    updated_at               timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE competitors (
    id              uuid PRIMARY KEY, -- v7: ordering by id is creation order
    project_id      uuid NOT NULL REFERENCES brand_profiles (project_id) ON DELETE CASCADE,
    name            text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 200),
    website_domains text[] NOT NULL CHECK (cardinality(website_domains) >= 1),
    brand_names     text[] NOT NULL CHECK (cardinality(brand_names) >= 1),
    created_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX competitors_project ON competitors (project_id, id);

CREATE TABLE query_clusters (
    id         uuid PRIMARY KEY,
    project_id uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    name       text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 200 AND name = lower(btrim(name))),
    created_at timestamptz NOT NULL DEFAULT now(),
    UNIQUE (project_id, name),
    UNIQUE (project_id, id)
);

-- +goose Down
DROP TABLE query_clusters;
DROP TABLE competitors;
DROP TABLE brand_profiles;
DROP TABLE projects;
