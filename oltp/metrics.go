package oltp

import (
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
