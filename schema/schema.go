// Package schema holds Sightline's database migrations, embedded in the
// binary, and applies them: Postgres (configuration and write-model state),
// River's own tables, and ClickHouse (captures and analytics). What a
// landed migration builds is frozen, as databases have run it: a schema
// change is always a new file, and a landed file may only be re-expressed
// when the schema it builds stays the one recorded in testdata (see
// migrations_test.go).
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
