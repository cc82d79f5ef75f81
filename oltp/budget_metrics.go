package oltp

import (
	"context"

	"github.com/jackc/pgx/v5/pgxpool"
)

// NewBudgetCollector returns a collector of the check budgets of the
// organizations' current contracts that accept new checks now, summed over
// organizations (no label per organization): units budgeted, used and
// reserved, and how many contracts have none left.
func NewBudgetCollector(pool *pgxpool.Pool) *QueryCollector {
	units := NewGauge("sightline_check_budget_units",
		"Check budget units of the entitled contracts, by kind (budget, used, reserved).", "kind")
	exhausted := NewGauge("sightline_check_budget_exhausted_subscriptions",
		"Entitled contracts with no unit left for new checks.")
	return NewQueryCollector(pool, func(ctx context.Context, db DBTX, set SetFunc) error {
		var budget, used, reserved, n int64
		err := db.QueryRow(ctx, `
			SELECT coalesce(sum(s.check_budget), 0), coalesce(sum(s.checks_used), 0), coalesce(sum(s.checks_reserved), 0),
			       count(*) FILTER (WHERE s.check_budget - s.checks_used - s.checks_reserved <= 0)
			FROM (SELECT DISTINCT ON (organization_id) * FROM subscriptions
			      ORDER BY organization_id, created_at DESC, id DESC) s
			WHERE `+entitledSubscription).Scan(&budget, &used, &reserved, &n)
		if err != nil {
			return err
		}
		for kind, v := range map[string]int64{"budget": budget, "used": used, "reserved": reserved} {
			set(units, float64(v), kind)
		}
		set(exhausted, float64(n))
		return nil
	}, units, exhausted)
}
