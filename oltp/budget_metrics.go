package oltp

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/prometheus/client_golang/prometheus"
)

// BudgetCollector exports the check budgets of the organizations' current
// contracts that accept new checks now, summed over organizations (no label per organization):
// units budgeted, used and reserved, and how many contracts have none left.
type BudgetCollector struct {
	pool             *pgxpool.Pool
	units, exhausted *prometheus.Desc
}

// NewBudgetCollector returns a collector to register with Prometheus.
func NewBudgetCollector(pool *pgxpool.Pool) *BudgetCollector {
	return &BudgetCollector{
		pool: pool,
		units: prometheus.NewDesc("sightline_check_budget_units",
			"Check budget units of the entitled contracts, by kind (budget, used, reserved).", []string{"kind"}, nil),
		exhausted: prometheus.NewDesc("sightline_check_budget_exhausted_subscriptions",
			"Entitled contracts with no unit left for new checks.", nil, nil),
	}
}

// Describe implements prometheus.Collector.
func (c *BudgetCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- c.units
	ch <- c.exhausted
}

// Collect implements prometheus.Collector.
func (c *BudgetCollector) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	var budget, used, reserved, exhausted int64
	err := c.pool.QueryRow(ctx, `
		SELECT coalesce(sum(s.check_budget), 0), coalesce(sum(s.checks_used), 0), coalesce(sum(s.checks_reserved), 0),
		       count(*) FILTER (WHERE s.check_budget - s.checks_used - s.checks_reserved <= 0)
		FROM (SELECT DISTINCT ON (organization_id) * FROM subscriptions
		      ORDER BY organization_id, created_at DESC, id DESC) s
		WHERE `+entitledSubscription).Scan(&budget, &used, &reserved, &exhausted)
	if err != nil {
		ch <- prometheus.NewInvalidMetric(c.units, err)
		return
	}
	for kind, v := range map[string]int64{"budget": budget, "used": used, "reserved": reserved} {
		ch <- prometheus.MustNewConstMetric(c.units, prometheus.GaugeValue, float64(v), kind)
	}
	ch <- prometheus.MustNewConstMetric(c.exhausted, prometheus.GaugeValue, float64(exhausted))
}
