package olap

import (
	"encoding/json"
	"net/http"
	"strconv"

	"github.com/prometheus/client_golang/prometheus"
)

// ReadStats counts what ClickHouse read for the queries of the connections
// it is given to, as ClickHouse reports it in the X-ClickHouse-Summary header
// of every answer over the HTTP interface (ClickHouse server and the
// development endpoint both send it); connections over the native protocol
// have no such header and are not counted. ClickHouse server writes the
// header when the answer starts, so a query that streams a large result
// before it has read everything reports less than it reads; the
// aggregations of the analytics answer after reading.
type ReadStats struct {
	queries, rows, bytes prometheus.Counter
}

// NewReadStats registers the counters with reg.
func NewReadStats(reg prometheus.Registerer) *ReadStats {
	s := &ReadStats{
		queries: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "sightline_clickhouse_queries_total",
			Help: "ClickHouse answers that reported what they read (X-ClickHouse-Summary, HTTP interface only).",
		}),
		rows: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "sightline_clickhouse_read_rows_total",
			Help: "Rows ClickHouse reported reading for this process's queries (X-ClickHouse-Summary read_rows).",
		}),
		bytes: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "sightline_clickhouse_read_bytes_total",
			Help: "Bytes ClickHouse reported reading for this process's queries (X-ClickHouse-Summary read_bytes).",
		}),
	}
	reg.MustRegister(s.queries, s.rows, s.bytes)
	return s
}

// transport wraps the HTTP transport clickhouse-go builds so that every
// answer's summary is added to the counters.
func (s *ReadStats) transport(t *http.Transport) (http.RoundTripper, error) {
	return readCounter{next: t, stats: s}, nil
}

type readCounter struct {
	next  http.RoundTripper
	stats *ReadStats
}

func (c readCounter) RoundTrip(r *http.Request) (*http.Response, error) {
	res, err := c.next.RoundTrip(r)
	if err == nil {
		if rows, bytes, ok := parseSummary(res.Header.Get("X-ClickHouse-Summary")); ok {
			c.stats.queries.Inc()
			c.stats.rows.Add(float64(rows))
			c.stats.bytes.Add(float64(bytes))
		}
	}
	return res, err
}

// parseSummary reads read_rows and read_bytes from an X-ClickHouse-Summary
// header, a JSON object whose values are decimal strings.
func parseSummary(header string) (rows, bytes uint64, ok bool) {
	if header == "" {
		return 0, 0, false
	}
	var s map[string]string
	if json.Unmarshal([]byte(header), &s) != nil {
		return 0, 0, false
	}
	rows, errRows := strconv.ParseUint(s["read_rows"], 10, 64)
	bytes, errBytes := strconv.ParseUint(s["read_bytes"], 10, 64)
	if errRows != nil || errBytes != nil {
		return 0, 0, false
	}
	return rows, bytes, true
}
