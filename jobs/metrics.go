package jobs

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/prometheus/client_golang/prometheus"
)

// QueueCollector exports River's queue depth at scrape time: jobs per queue
// and state that are not finished yet, and how long the oldest job ready
// to run has waited.
type QueueCollector struct {
	Pool   *pgxpool.Pool
	desc   *prometheus.Desc
	oldest *prometheus.Desc
}

// NewQueueCollector returns a collector to register with Prometheus.
func NewQueueCollector(pool *pgxpool.Pool) *QueueCollector {
	return &QueueCollector{Pool: pool, desc: prometheus.NewDesc("sightline_river_jobs",
		"River jobs not yet finished, by queue and state.", []string{"queue", "state"}, nil),
		oldest: prometheus.NewDesc("sightline_river_oldest_available_job_age_seconds",
			"Time since the oldest job ready to run (available) was due, by queue; 0 when none waits.", []string{"queue"}, nil)}
}

// Describe implements prometheus.Collector.
func (c *QueueCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- c.desc
	ch <- c.oldest
}

// Collect implements prometheus.Collector.
func (c *QueueCollector) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	// Every queue and state is reported, zeros included, so that an empty
	// queue reads as 0 rather than as a missing series.
	rows, err := c.Pool.Query(ctx, `
		SELECT q.name, s.state, count(j.id)
		FROM (SELECT name FROM river_queue UNION SELECT 'default') q
		CROSS JOIN unnest(ARRAY['available', 'scheduled', 'retryable', 'running', 'pending']) s (state)
		LEFT JOIN river_job j ON j.queue = q.name AND j.state::text = s.state
		GROUP BY 1, 2`)
	if err != nil {
		ch <- prometheus.NewInvalidMetric(c.desc, err)
		return
	}
	defer rows.Close()
	for rows.Next() {
		var queue, state string
		var n int64
		if err := rows.Scan(&queue, &state, &n); err != nil {
			ch <- prometheus.NewInvalidMetric(c.desc, err)
			return
		}
		ch <- prometheus.MustNewConstMetric(c.desc, prometheus.GaugeValue, float64(n), queue, state)
	}
	if err := rows.Err(); err != nil {
		ch <- prometheus.NewInvalidMetric(c.desc, err)
	}
	c.collectOldest(ctx, ch)
}

// collectOldest reports every queue, an idle one as 0.
func (c *QueueCollector) collectOldest(ctx context.Context, ch chan<- prometheus.Metric) {
	rows, err := c.Pool.Query(ctx, `
		SELECT q.name, coalesce(extract(epoch FROM now() - min(j.scheduled_at)), 0)::float8
		FROM (SELECT name FROM river_queue UNION SELECT 'default') q
		LEFT JOIN river_job j ON j.queue = q.name AND j.state = 'available'
		GROUP BY 1`)
	if err != nil {
		ch <- prometheus.NewInvalidMetric(c.oldest, err)
		return
	}
	defer rows.Close()
	for rows.Next() {
		var queue string
		var age float64
		if err := rows.Scan(&queue, &age); err != nil {
			ch <- prometheus.NewInvalidMetric(c.oldest, err)
			return
		}
		ch <- prometheus.MustNewConstMetric(c.oldest, prometheus.GaugeValue, max(0, age), queue)
	}
	if err := rows.Err(); err != nil {
		ch <- prometheus.NewInvalidMetric(c.oldest, err)
	}
}
