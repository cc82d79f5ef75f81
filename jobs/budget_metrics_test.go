package jobs_test

import (
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/sightline/sightline/oltp"
)

func TestBudgetCollectorSumsCurrentEntitledContracts(t *testing.T) {
	t.Parallel()
	e := checksSetup(t)
	_, partly := e.org(10)
	e.exec(`UPDATE subscriptions SET checks_used = 4 WHERE id = $1`, partly)
	_, spent := e.org(5)
	e.exec(`UPDATE subscriptions SET checks_used = 5 WHERE id = $1`, spent)
	// An older contract does not count once a newer one exists; a
	// cancelled one accepts no checks.
	replaced, _ := e.org(100)
	e.subscription(replaced, "active", 7, "")
	cancelled, _ := e.org(-1)
	e.subscription(cancelled, "cancelled", 50, "")

	registry := prometheus.NewPedanticRegistry()
	registry.MustRegister(oltp.NewBudgetCollector(e.pool))
	want := `
# HELP sightline_check_budget_exhausted_subscriptions Entitled contracts with no unit left for new checks.
# TYPE sightline_check_budget_exhausted_subscriptions gauge
sightline_check_budget_exhausted_subscriptions 1
# HELP sightline_check_budget_units Check budget units of the entitled contracts, by kind (budget, used, reserved).
# TYPE sightline_check_budget_units gauge
sightline_check_budget_units{kind="budget"} 22
sightline_check_budget_units{kind="reserved"} 0
sightline_check_budget_units{kind="used"} 9
`
	if err := testutil.GatherAndCompare(registry, strings.NewReader(want),
		"sightline_check_budget_units", "sightline_check_budget_exhausted_subscriptions"); err != nil {
		t.Fatal(err)
	}
}
