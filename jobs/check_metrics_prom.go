package jobs

import (
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// CheckMetrics are the check worker's Prometheus metrics: check attempts
// and passes by engine and outcome, and the engines' answer times.
type CheckMetrics struct {
	checks *prometheus.CounterVec
	passes *prometheus.CounterVec
	engine *prometheus.HistogramVec
}

// The outcomes of a check attempt.
const (
	checkStarted   = "started"
	checkCompleted = "completed"
	checkFailed    = "failed"
	checkRetried   = "retried"
	checkSnoozed   = "snoozed"
)

// NewCheckMetrics registers the check worker's metrics with reg.
func NewCheckMetrics(reg prometheus.Registerer) (*CheckMetrics, error) {
	m := &CheckMetrics{
		checks: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "sightline_checks_total",
			Help: "Check run attempts by engine and outcome: started, then completed, failed (for good), retried " +
				"(an attempt spent) or snoozed (waiting on a provider's Retry-After or on ClickHouse, no attempt spent).",
		}, []string{"engine", "outcome"}),
		passes: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "sightline_check_passes_total",
			Help: "Check passes worked, by engine and outcome (stored, engine_error, storage_error).",
		}, []string{"engine", "outcome"}),
		engine: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "sightline_engine_request_duration_seconds",
			Help:    "Time an engine took to answer one pass, failures included, by engine.",
			Buckets: prometheus.ExponentialBuckets(0.05, 2, 12),
		}, []string{"engine"}),
	}
	for _, c := range []prometheus.Collector{m.checks, m.passes, m.engine} {
		if err := reg.Register(c); err != nil {
			return nil, err
		}
	}
	return m, nil
}

// asked records one engine request; a nil CheckMetrics records nothing.
func (m *CheckMetrics) asked(engine string, took time.Duration) {
	if m != nil {
		m.engine.WithLabelValues(engine).Observe(took.Seconds())
	}
}

func (m *CheckMetrics) pass(engine, outcome string) {
	if m != nil {
		m.passes.WithLabelValues(engine, outcome).Inc()
	}
}

func (m *CheckMetrics) started(engine string) { m.finished(engine, checkStarted) }

func (m *CheckMetrics) finished(engine, outcome string) {
	if m != nil {
		m.checks.WithLabelValues(engine, outcome).Inc()
	}
}
