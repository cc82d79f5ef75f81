package olap_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/sightline/sightline"
	"github.com/sightline/sightline/olap"
	"github.com/sightline/sightline/olap/olaptest"
)

// BenchmarkTimeseries measures time-series reads at the size the service
// is built for: 10 projects of 1,000 tracked queries each (engines in
// turn), every query checked daily for 16 months, each project with 3
// tracked competitors appearing in half the passes. The rollups are seeded
// directly, server-side (about 11M ranks_daily and 11M mentions_daily
// rows), then merged as months-old partitions would be. Each sub-benchmark
// reports p50 and p99 latencies of one read; run with -benchtime=200x or
// more for a meaningful p99.
func BenchmarkTimeseries(b *testing.B) {
	conn := olaptest.NewConn(b)
	ctx := context.Background()
	const projects, queries, days = 10, 1000, 486
	start := time.Now()
	for _, sql := range timeseriesSeed {
		if err := conn.Exec(ctx, sql, projects, queries, days); err != nil {
			b.Fatalf("seeding: %v", err)
		}
	}
	for _, table := range []string{"ranks_daily", "mentions_daily"} {
		if err := conn.Exec(ctx, "OPTIMIZE TABLE "+table+" FINAL"); err != nil {
			b.Fatalf("merging %s: %v", table, err)
		}
	}
	b.Logf("seeded in %s", time.Since(start).Round(time.Millisecond))

	a := &olap.Analytics{Conn: conn}
	y, m, d := time.Now().UTC().Date()
	today := time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
	project := func(p int) uuid.UUID { return uuid.MustParse(fmt.Sprintf("00000000-0000-0000-0000-%012d", p)) }
	competitors := func(p int) []uuid.UUID {
		return []uuid.UUID{
			uuid.MustParse(fmt.Sprintf("00000002-0000-0000-%04d-%012d", p, 0)),
			uuid.MustParse(fmt.Sprintf("00000002-0000-0000-%04d-%012d", p, 1)),
			uuid.MustParse(fmt.Sprintf("00000002-0000-0000-%04d-%012d", p, 2)),
		}
	}
	query := func(p, q int) uuid.UUID { return uuid.MustParse(fmt.Sprintf("00000001-0000-0000-%04d-%012d", p, q)) }
	for _, bc := range []struct {
		name string
		q    func(p int) olap.TimeseriesQuery
	}{
		{"30 days daily", func(p int) olap.TimeseriesQuery {
			return olap.TimeseriesQuery{Scope: olap.Scope{ProjectID: project(p), From: today.AddDate(0, 0, -29), To: today},
				Granularity: olap.GranularityDaily, CompetitorIDs: competitors(p)}
		}},
		{"16 months daily", func(p int) olap.TimeseriesQuery {
			return olap.TimeseriesQuery{Scope: olap.Scope{ProjectID: project(p), From: today.AddDate(0, -16, 0), To: today},
				Granularity: olap.GranularityDaily, CompetitorIDs: competitors(p)}
		}},
		{"16 months weekly, one engine", func(p int) olap.TimeseriesQuery {
			return olap.TimeseriesQuery{Scope: olap.Scope{ProjectID: project(p), From: today.AddDate(0, -16, 0), To: today,
				Engines: []sightline.Engine{sightline.EngineChatGPT}}, Granularity: olap.GranularityWeekly, CompetitorIDs: competitors(p)}
		}},
		{"16 months monthly, one tracked query", func(p int) olap.TimeseriesQuery {
			return olap.TimeseriesQuery{Scope: olap.Scope{ProjectID: project(p), From: today.AddDate(0, -16, 0), To: today,
				TrackedQueryIDs: []uuid.UUID{query(p, 7)}}, Granularity: olap.GranularityMonthly,
				CompetitorIDs: competitors(p), MeasuredShare: true}
		}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			var took []time.Duration
			i := 0
			for b.Loop() {
				t0 := time.Now()
				if _, err := a.Timeseries(ctx, bc.q(i%projects)); err != nil {
					b.Fatal(err)
				}
				took = append(took, time.Since(t0))
				i++
			}
			slices.Sort(took)
			b.ReportMetric(float64(took[len(took)/2].Microseconds())/1000, "p50-ms")
			b.ReportMetric(float64(took[len(took)*99/100].Microseconds())/1000, "p99-ms")
		})
	}
}

// timeseriesSeed fills ranks_daily and mentions_daily; each statement
// takes the number of projects, queries per project and days.
var timeseriesSeed = []string{`
	INSERT INTO ranks_daily (project_id, day, tracked_query_id, engine, country, relation, competitor_id, passes,
		mention_count, mention_position_sum, mention_position_sq_sum, mention_position_min,
		link_count, link_position_sum, link_position_sq_sum, link_position_min,
		serp_count, serp_position_sum, serp_position_sq_sum, serp_position_min,
		shopping_count, shopping_position_sum, shopping_position_sq_sum, shopping_position_min)
	WITH ?::UInt64 AS projects, ?::UInt64 AS queries, ?::UInt64 AS days,
		intDiv(number, queries * days) AS p, intDiv(number, days) % queries AS q, number % days AS d,
		['chatgpt', 'perplexity', 'google_ai_overview', 'google_ai_mode', 'google_serp', 'google_shopping'][q % 6 + 1] AS e,
		e NOT IN ('google_serp', 'google_shopping') AS ai, if(ai, 3, 1) AS n, toUInt64((q + d) % 5 + 1) AS pos
	SELECT toUUID(format('00000000-0000-0000-0000-{}', leftPad(toString(p), 12, '0'))), today() - d,
		toUUID(format('00000001-0000-0000-{}-{}', leftPad(toString(p), 4, '0'), leftPad(toString(q), 12, '0'))),
		e, 'US', 'own', toUUID('00000000-0000-0000-0000-000000000000'), n,
		if(ai, 2, 0), if(ai, 2 * pos, 0), if(ai, 2 * pos * pos, 0), if(ai, toUInt16(pos), NULL),
		if(ai, 1, 0), if(ai, pos, 0), if(ai, pos * pos, 0), if(ai, toUInt16(pos), NULL),
		if(e = 'google_serp', 1, 0), if(e = 'google_serp', pos, 0), if(e = 'google_serp', pos * pos, 0), if(e = 'google_serp', toUInt16(pos), NULL),
		if(e = 'google_shopping', 1, 0), if(e = 'google_shopping', pos, 0), if(e = 'google_shopping', pos * pos, 0), if(e = 'google_shopping', toUInt16(pos), NULL)
	FROM numbers(projects * queries * days)`, `
	INSERT INTO ranks_daily (project_id, day, tracked_query_id, engine, country, relation, competitor_id, passes,
		mention_count, mention_position_sum, mention_position_sq_sum, mention_position_min,
		serp_count, serp_position_sum, serp_position_sq_sum, serp_position_min)
	WITH ?::UInt64 AS projects, ?::UInt64 AS queries, ?::UInt64 AS days,
		intDiv(number, queries * days * 3) AS p, intDiv(number, days * 3) % queries AS q, intDiv(number, 3) % days AS d,
		number % 3 AS c,
		['chatgpt', 'perplexity', 'google_ai_overview', 'google_ai_mode', 'google_serp', 'google_shopping'][q % 6 + 1] AS e,
		e NOT IN ('google_serp', 'google_shopping') AS ai, toUInt64((q + d + c) % 6 + 1) AS pos
	SELECT toUUID(format('00000000-0000-0000-0000-{}', leftPad(toString(p), 12, '0'))), today() - d,
		toUUID(format('00000001-0000-0000-{}-{}', leftPad(toString(p), 4, '0'), leftPad(toString(q), 12, '0'))),
		e, 'US', 'tracked-competitor',
		toUUID(format('00000002-0000-0000-{}-{}', leftPad(toString(p), 4, '0'), leftPad(toString(c), 12, '0'))), 1,
		if(ai, 1, 0), if(ai, pos, 0), if(ai, pos * pos, 0), if(ai, toUInt16(pos), NULL),
		if(e = 'google_serp', 1, 0), if(e = 'google_serp', pos, 0), if(e = 'google_serp', pos * pos, 0), if(e = 'google_serp', toUInt16(pos), NULL)
	FROM numbers(projects * queries * days * 3)
	WHERE (q + d + c) % 2 = 0 AND e != 'google_shopping'`, `
	INSERT INTO mentions_daily (project_id, day, tracked_query_id, engine, country, relation, competitor_id,
		mentions, worth, tone_positive, tone_neutral, tone_negative)
	WITH ?::UInt64 AS projects, ?::UInt64 AS queries, ?::UInt64 AS days,
		intDiv(number, queries * days * 5) AS p, intDiv(number, days * 5) % queries AS q, intDiv(number, 5) % days AS d,
		number % 5 AS b,
		['chatgpt', 'perplexity', 'google_ai_overview', 'google_ai_mode', 'google_serp', 'google_shopping'][q % 6 + 1] AS e
	SELECT toUUID(format('00000000-0000-0000-0000-{}', leftPad(toString(p), 12, '0'))), today() - d,
		toUUID(format('00000001-0000-0000-{}-{}', leftPad(toString(p), 4, '0'), leftPad(toString(q), 12, '0'))),
		e, 'US', multiIf(b = 0, 'own', b = 4, 'untracked-competitor', 'tracked-competitor'),
		if(b IN (1, 2, 3), toUUID(format('00000002-0000-0000-{}-{}', leftPad(toString(p), 4, '0'), leftPad(toString(b - 1), 12, '0'))),
			toUUID('00000000-0000-0000-0000-000000000000')),
		2, 1.2 + b / 10, 1, 1, 0
	FROM numbers(projects * queries * days * 5)
	WHERE e NOT IN ('google_serp', 'google_shopping') AND (b = 0 OR b = 4 OR (q + d + b - 1) % 2 = 0)`,
}
