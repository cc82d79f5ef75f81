package olap_test

import (
	"context"
	"testing"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/sightline/sightline/olap"
	"github.com/sightline/sightline/olap/olaptest"
)

// A connection given ReadStats counts what ClickHouse reports reading for
// each of its queries.
func TestReadStatsCountWhatQueriesRead(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	reg := prometheus.NewRegistry()
	counted, err := olap.Connect(ctx, olaptest.ServerURL(), olap.NewReadStats(reg))
	if err != nil {
		t.Fatal(err)
	}
	defer counted.Close()

	var sum uint64
	before := readCounters(t, reg)
	if err := counted.QueryRow(ctx, "SELECT sum(number) FROM numbers(5000)").Scan(&sum); err != nil {
		t.Fatal(err)
	}
	after := readCounters(t, reg)
	if got := after["sightline_clickhouse_read_rows_total"] - before["sightline_clickhouse_read_rows_total"]; got != 5000 {
		t.Errorf("read rows grew by %v, want 5000", got)
	}
	if after["sightline_clickhouse_queries_total"] <= before["sightline_clickhouse_queries_total"] ||
		after["sightline_clickhouse_read_bytes_total"] <= before["sightline_clickhouse_read_bytes_total"] {
		t.Errorf("counters before %v, after %v", before, after)
	}
}

func readCounters(t *testing.T, reg *prometheus.Registry) map[string]float64 {
	t.Helper()
	families, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]float64{}
	for _, f := range families {
		out[f.GetName()] = f.GetMetric()[0].GetCounter().GetValue()
	}
	return out
}
