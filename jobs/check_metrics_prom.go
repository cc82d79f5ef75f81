package jobs

import (
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// CheckMetrics are the check worker's Prometheus metrics: passes by engine
// and outcome, the engines' answer times and finished runs.
type CheckMetrics struct {
	passes *prometheus.CounterVec
	engine *prometheus.HistogramVec
	runs   *prometheus.CounterVec
}

// NewCheckMetrics registers the check worker's metrics with reg.
func NewCheckMetrics(reg prometheus.Registerer) (*CheckMetrics, error) {
	m := &CheckMetrics{
		passes: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "sightline_check_passes_total",
			Help: "Check passes worked, by engine and outcome (stored, engine_error, storage_error).",
		}, []string{"engine", "outcome"}),
		engine: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "sightline_engine_request_duration_seconds",
			Help:    "Time an engine took to answer one pass, failures included, by engine.",
			Buckets: prometheus.ExponentialBuckets(0.05, 2, 12),
		}, []string{"engine"}),
		runs: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "sightline_check_runs_total",
			Help: "Check runs finished, by engine and outcome (completed, failed).",
		}, []string{"engine", "outcome"}),
	}
	for _, c := range []prometheus.Collector{m.passes, m.engine, m.runs} {
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

func (m *CheckMetrics) run(engine, outcome string) {
	if m != nil {
		m.runs.WithLabelValues(engine, outcome).Inc()
	}
}
