// Package schema holds Sightline's database migrations, embedded in the
// binary, and applies them: Postgres (configuration and write-model state),
// River's own tables, and ClickHouse (captures and analytics). Migration
// files are frozen once landed; a change is always a new file.
package schema

import "embed"

// Postgres holds the goose migrations of the Postgres database.
//
//go:embed postgres/*.sql
var Postgres embed.FS

// ClickHouse holds the goose migrations of the ClickHouse database.
//
//go:embed clickhouse/*.sql
var ClickHouse embed.FS
