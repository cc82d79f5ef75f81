package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"strconv"
	"time"

	"github.com/ClickHouse/clickhouse-go/v2/lib/driver"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"golang.org/x/sync/errgroup"

	"github.com/sightline/sightline"
	"github.com/sightline/sightline/ingest"
	"github.com/sightline/sightline/ingest/simulator"
	"github.com/sightline/sightline/jobs"
	"github.com/sightline/sightline/olap"
	"github.com/sightline/sightline/oltp"
	"github.com/sightline/sightline/progress"
)

// backfillNamespace derives a backfilled run's id from its query and day,
// so a second backfill over the same days stores nothing twice.
var backfillNamespace = uuid.MustParse("6f0c9f3e-2b7d-4f55-9a53-0c1f6d1e8a41")

// backfill runs `sightline backfill [--days N] [--org ID]`: simulated
// history for an organization's active tracked queries (by default the
// demo organization's), one check per query per frequency interval over
// the last N days (default 90) up to yesterday, stored as checks would
// store it. History cannot be asked of real engines, so it always comes
// from the simulator, and it draws on no budget. Running it again adds
// nothing already there.
func backfill(ctx context.Context, cfg config, args []string, stdout, stderr io.Writer) error {
	f, err := flags(args, nil, "days", "org")
	if err != nil {
		return usageError{fmt.Errorf("backfill: %w", err)}
	}
	days := 90
	if f["days"] != "" {
		if days, err = strconv.Atoi(f["days"]); err != nil || days < 1 || days > 480 {
			return usageError{fmt.Errorf("backfill: --days must be an integer from 1 to 480 (the retention window)")}
		}
	}
	pool, err := oltp.Connect(ctx, cfg.DatabaseURL, 4)
	if err != nil {
		return err
	}
	defer pool.Close()
	orgID := uuid.Nil
	if f["org"] != "" {
		if orgID, err = parseID("org", f["org"]); err != nil {
			return usageError{err}
		}
	} else if err := pool.QueryRow(ctx, demoOrganizationQuery, demoOrgName, demoEmail).Scan(&orgID); err != nil {
		return fmt.Errorf("backfill: no --org given and no demo organization (run `sightline admin demo`): %w", err)
	}
	ch, err := olap.Connect(ctx, cfg.ClickHouseURL, nil)
	if err != nil {
		return err
	}
	defer ch.Close()
	queries, err := oltp.BackfillQueries(ctx, pool, orgID)
	if err != nil {
		return err
	}

	queue, err := jobs.NewClient(pool, jobs.Config{Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		return err
	}
	// History is the bulk path: each pass is written once, so several
	// flushes may run at once.
	writer := olap.NewWriter(ch, olap.WriterOptions{MaxInFlight: backfillFlushes})
	sim := simulator.New(simulatorSeed)
	today := time.Now().UTC().Truncate(24 * time.Hour)
	bar := progress.New(stderr, backfillPasses(queries, days), "backfill").Units("passes")
	defer bar.Finish()
	passes := 0
	for start := 0; start < len(queries); {
		projectID := queries[start].ProjectID
		end := start
		for end < len(queries) && queries[end].ProjectID == projectID {
			end++
		}
		n, err := backfillProject(ctx, pool, queue, ch, writer, sim, bar, queries[start:end], today, days)
		if err != nil {
			return err
		}
		passes += n
		start = end
	}
	if err := writer.Close(ctx); err != nil {
		return err
	}
	return json.NewEncoder(stdout).Encode(map[string]any{"organizationId": orgID, "queries": len(queries), "passes": passes})
}

// backfillPasses is how many passes a backfill of days stores for queries:
// one run per frequency interval, counted back from yesterday.
func backfillPasses(queries []oltp.BackfillQuery, days int) int64 {
	var n int64
	for _, q := range queries {
		interval := sightline.CheckFrequency(q.CheckFrequency).IntervalDays()
		n += int64((days-1)/interval+1) * int64(q.NPasses)
	}
	return n
}

// backfillFlushes is how many flushes of history run at once.
const backfillFlushes = 4

// backfillProject stores the simulated checks of one project's queries,
// then advances their lastCheckedAt and refreshes the listings' figures.
func backfillProject(ctx context.Context, pool *pgxpool.Pool, queue jobs.TxInserter, ch driver.Conn, writer *olap.Writer, sim *simulator.Simulator,
	bar *progress.Bar, queries []oltp.BackfillQuery, today time.Time, days int) (int, error) {
	projectID := queries[0].ProjectID
	brands, err := jobs.ProjectBrands(ctx, pool, projectID)
	if err != nil {
		return 0, err
	}
	var rows []olap.PassRows
	last := map[uuid.UUID]time.Time{}
	for _, q := range queries {
		var locale string
		if q.Locale != nil {
			locale = *q.Locale
		}
		for d := days; d >= 1; d -= sightline.CheckFrequency(q.CheckFrequency).IntervalDays() {
			day := today.AddDate(0, 0, -d)
			run := uuid.NewSHA1(backfillNamespace, []byte(q.ID.String()+day.Format(time.DateOnly)))
			var capturedAt time.Time
			for pass := range q.NPasses {
				capture, _ := sim.Generate(ingest.Request{TrackedQueryID: q.ID, QueryText: q.QueryText,
					Engine: sightline.Engine(q.Engine), Country: q.Country, Locale: locale, PassIndex: pass,
					PassCount: q.NPasses, Day: day, Brands: brands})
				if pass == 0 {
					capturedAt = capture.CapturedAt
				}
				rows = append(rows, ingest.PassRows(olap.Pass{
					OrganizationID: q.OrganizationID, ProjectID: projectID, TrackedQueryID: q.ID, RunID: run,
					PassIndex: uint8(pass), PassCount: uint8(q.NPasses), Engine: sightline.Engine(q.Engine),
					Country: q.Country, Locale: locale, QueryText: q.QueryText, CapturedAt: capturedAt,
				}, capture, brands))
			}
			last[q.ID] = capturedAt
		}
	}
	// Write large parts from several goroutines, so flushes batch and
	// backfillFlushes of them run at once.
	group, gctx := errgroup.WithContext(ctx)
	group.SetLimit(4 * backfillFlushes)
	const chunk = 500
	for i := 0; i < len(rows); i += chunk {
		part := rows[i:min(i+chunk, len(rows))]
		group.Go(func() error {
			if err := writer.Write(gctx, part...); err != nil {
				return err
			}
			bar.Add(len(part))
			return nil
		})
	}
	if err := group.Wait(); err != nil {
		return 0, err
	}
	if err := pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
		if err := oltp.AdvanceLastCheckedAt(ctx, tx, projectID, last); err != nil {
			return err
		}
		return jobs.TrackedQueriesChanged(ctx, tx, queue, projectID)
	}); err != nil {
		return 0, err
	}
	return len(rows), jobs.RefreshCheckMetrics(ctx, pool, ch, projectID)
}
