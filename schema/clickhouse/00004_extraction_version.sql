-- Extraction is versioned: each stored pass records the version of the extraction rules
-- (ingest.ExtractionVersion) its mentions and cited sources were read with, so figures from
-- passes extracted under different rules can be told apart. Passes stored before this
-- migration read 0.

-- +goose Up
-- +goose StatementBegin
ALTER TABLE ai_answers ADD COLUMN IF NOT EXISTS extraction_version UInt16 DEFAULT 0
    COMMENT 'Version of the extraction rules the pass was read with (ingest.ExtractionVersion); 0 for passes stored before extraction was versioned'
    AFTER response_text;
-- +goose StatementEnd

-- +goose Down
-- +goose StatementBegin
ALTER TABLE ai_answers DROP COLUMN IF EXISTS extraction_version;
-- +goose StatementEnd
