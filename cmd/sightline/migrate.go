package main

import (
	"context"
	"encoding/json"
	"io"

	"github.com/sightline/sightline/olap"
	"github.com/sightline/sightline/oltp"
	"github.com/sightline/sightline/schema"
)

// migrate applies every pending migration and prints what it did as JSON.
func migrate(ctx context.Context, cfg config, stdout io.Writer) error {
	pool, err := oltp.Connect(ctx, cfg.DatabaseURL, 4)
	if err != nil {
		return err
	}
	defer pool.Close()
	pgApplied, err := schema.MigratePostgres(ctx, pool)
	if err != nil {
		return err
	}
	db, err := olap.OpenDB(cfg.ClickHouseURL)
	if err != nil {
		return err
	}
	defer db.Close()
	chApplied, err := schema.MigrateClickHouse(ctx, db)
	if err != nil {
		return err
	}
	return json.NewEncoder(stdout).Encode(map[string]int{"postgresApplied": pgApplied, "clickhouseApplied": chApplied})
}
