package oltp

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/prometheus/client_golang/prometheus"
)

// PoolCollector exports a pgx pool's statistics at scrape time.
type PoolCollector struct {
	pool                                 *pgxpool.Pool
	acquired, idle, total, max, acquires *prometheus.Desc
	waitSeconds                          *prometheus.Desc
}

// NewPoolCollector returns a collector to register with Prometheus.
func NewPoolCollector(pool *pgxpool.Pool) *PoolCollector {
	d := func(name, help string) *prometheus.Desc {
		return prometheus.NewDesc("sightline_postgres_pool_"+name, help, nil, nil)
	}
	return &PoolCollector{
		pool:        pool,
		acquired:    d("acquired_connections", "Connections in use."),
		idle:        d("idle_connections", "Connections idle in the pool."),
		total:       d("total_connections", "Connections open."),
		max:         d("max_connections", "Most connections the pool may open."),
		acquires:    d("acquires_total", "Connections handed out since start."),
		waitSeconds: d("acquire_wait_seconds_total", "Time spent waiting for a connection since start."),
	}
}

// Describe implements prometheus.Collector.
func (c *PoolCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{c.acquired, c.idle, c.total, c.max, c.acquires, c.waitSeconds} {
		ch <- d
	}
}

// Collect implements prometheus.Collector.
func (c *PoolCollector) Collect(ch chan<- prometheus.Metric) {
	s := c.pool.Stat()
	ch <- prometheus.MustNewConstMetric(c.acquired, prometheus.GaugeValue, float64(s.AcquiredConns()))
	ch <- prometheus.MustNewConstMetric(c.idle, prometheus.GaugeValue, float64(s.IdleConns()))
	ch <- prometheus.MustNewConstMetric(c.total, prometheus.GaugeValue, float64(s.TotalConns()))
	ch <- prometheus.MustNewConstMetric(c.max, prometheus.GaugeValue, float64(s.MaxConns()))
	ch <- prometheus.MustNewConstMetric(c.acquires, prometheus.CounterValue, float64(s.AcquireCount()))
	ch <- prometheus.MustNewConstMetric(c.waitSeconds, prometheus.CounterValue, s.AcquireDuration().Seconds())
}

// Gauge is a gauge a QueryCollector reads from Postgres.
type Gauge struct{ desc *prometheus.Desc }

// NewGauge declares a gauge and the names of its labels.
func NewGauge(name, help string, labels ...string) *Gauge {
	return &Gauge{desc: prometheus.NewDesc(name, help, labels, nil)}
}

// QueryCollector exports gauges that it reads from Postgres at scrape time,
// within two seconds so that a slow database does not hold the scrape.
type QueryCollector struct {
	pool     *pgxpool.Pool
	gauges   []*Gauge
	readFunc ReadFunc
}

// ReadFunc queries db and sets each gauge's values through set. An error
// makes the scrape report the collector as failed, after the values
// already set.
type ReadFunc func(ctx context.Context, db DBTX, set SetFunc) error

// SetFunc gives gauge g the value v for the label values.
type SetFunc func(g *Gauge, v float64, labels ...string)

// NewQueryCollector returns a collector of gauges, every gauge read sets,
// to register with Prometheus.
func NewQueryCollector(pool *pgxpool.Pool, read ReadFunc, gauges ...*Gauge) *QueryCollector {
	return &QueryCollector{pool: pool, gauges: gauges, readFunc: read}
}

// Describe implements prometheus.Collector.
func (c *QueryCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, g := range c.gauges {
		ch <- g.desc
	}
}

// Collect implements prometheus.Collector.
func (c *QueryCollector) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	err := c.readFunc(ctx, c.pool, func(g *Gauge, v float64, labels ...string) {
		ch <- prometheus.MustNewConstMetric(g.desc, prometheus.GaugeValue, v, labels...)
	})
	if err != nil {
		ch <- prometheus.NewInvalidMetric(c.gauges[0].desc, err)
	}
}
