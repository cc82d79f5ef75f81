package jobs

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/riverqueue/river"

	"github.com/sightline/sightline/oltp"
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

// queues are the queues reported even before any process has worked them.
var queues = []string{CheckQueue, MaintenanceQueue, ProposalQueue, river.QueueDefault}

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
		SELECT q.name, s.state, count(j.id),
		       coalesce(extract(epoch FROM now() - min(j.scheduled_at) FILTER (WHERE s.state = 'available')), 0)::float8
		FROM (SELECT name FROM river_queue UNION SELECT unnest($1::text[])) q
		CROSS JOIN unnest(ARRAY['available', 'scheduled', 'retryable', 'running', 'pending']) s (state)
		LEFT JOIN river_job j ON j.queue = q.name AND j.state::text = s.state
		GROUP BY 1, 2`, queues)
	if err != nil {
		ch <- prometheus.NewInvalidMetric(c.desc, err)
		return
	}
	defer rows.Close()
	for rows.Next() {
		var queue, state string
		var n int64
		var oldest float64
		if err := rows.Scan(&queue, &state, &n, &oldest); err != nil {
			ch <- prometheus.NewInvalidMetric(c.desc, err)
			return
		}
		ch <- prometheus.MustNewConstMetric(c.desc, prometheus.GaugeValue, float64(n), queue, state)
		if state == "available" {
			ch <- prometheus.MustNewConstMetric(c.oldest, prometheus.GaugeValue, max(0, oldest), queue)
		}
	}
	if err := rows.Err(); err != nil {
		ch <- prometheus.NewInvalidMetric(c.desc, err)
	}
}

// CheckAnswersCollector exports the answered passes waiting for
// ClickHouse in the check_answers outbox, and the age of the oldest.
type CheckAnswersCollector struct {
	Pool       *pgxpool.Pool
	depth, age *prometheus.Desc
}

// NewCheckAnswersCollector returns a collector to register with Prometheus.
func NewCheckAnswersCollector(pool *pgxpool.Pool) *CheckAnswersCollector {
	return &CheckAnswersCollector{Pool: pool,
		depth: prometheus.NewDesc("sightline_check_answers_waiting",
			"Answered check passes kept in Postgres until ClickHouse stores them.", nil, nil),
		age: prometheus.NewDesc("sightline_check_answers_oldest_seconds",
			"Age of the oldest answered check pass waiting for ClickHouse; 0 when none waits.", nil, nil)}
}

// Describe implements prometheus.Collector.
func (c *CheckAnswersCollector) Describe(ch chan<- *prometheus.Desc) { ch <- c.depth; ch <- c.age }

// Collect implements prometheus.Collector.
func (c *CheckAnswersCollector) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	n, age, err := oltp.CheckAnswersWaiting(ctx, c.Pool)
	if err != nil {
		ch <- prometheus.NewInvalidMetric(c.depth, err)
		return
	}
	ch <- prometheus.MustNewConstMetric(c.depth, prometheus.GaugeValue, float64(n))
	ch <- prometheus.MustNewConstMetric(c.age, prometheus.GaugeValue, age)
}
