package oltp

import (
	"context"
	"strings"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
)

// The check budget (spec 2.8 and 8: one unit per pass).
//
// Checks draw on the organization's current contract: its most recent one
// (created_at, then id), as in every plan read. That contract is entitled
// to new checks while
//   - its status is running (active, trialing or past_due: the states in
//     which the entitlements show checks available),
//   - its current period has begun and not yet ended, and
//   - no cancellation has taken effect (cancel_at unset or still ahead).
//
// Anything else has no entitled subscription; in particular a cancelled
// contract inside its paid grace window (grace_until ahead) submits
// nothing new, while runs already in flight finish on what they reserved.
//
// The available units are the budget minus the used and the reserved ones.
// Reserved units count as spent although a run that stops early gives back
// those of its passes never run: that is what makes the forecast of the
// check operations pessimistic, and what lets the database refuse any run
// that could overspend (subscriptions_within_budget). A run stays charged
// to the contract it reserved on, even when a newer contract replaces it
// before the run ends.

// entitledSubscription is the condition on subscriptions s for a contract
// that accepts new checks.
var entitledSubscription = `s.status IN ('` + strings.Join(runningSubscriptionStatuses, "', '") + `')
	AND s.current_period_start <= now() AND now() < s.current_period_end
	AND (s.cancel_at IS NULL OR s.cancel_at > now())`

// Budget is what an organization can spend on new checks now.
type Budget struct {
	// SubscriptionID is the current contract; uuid.Nil when there is none.
	SubscriptionID uuid.UUID
	// Entitled says the current contract accepts new checks.
	Entitled bool
	// InGrace says the contract has ended (cancelled) but its paid grace
	// window is still open.
	InGrace bool
	// Available is the budget left after used and reserved units; 0 when
	// not entitled.
	Available int
}

// LockBudget reads the organization's budget and locks its current
// contract FOR UPDATE until the transaction ends, so that no other
// reservation can land between this forecast and the runs it admits.
// Callers lock tracked queries and their runs before the contract (the
// order every check writer follows), so that concurrent writers cannot
// deadlock.
func LockBudget(ctx context.Context, tx pgx.Tx, organizationID uuid.UUID) (*Budget, error) {
	var b Budget
	found, err := scanFound(tx.QueryRow(ctx, `
		SELECT s.id, `+entitledSubscription+`,
		       coalesce(s.grace_until > now(), false),
		       s.check_budget - s.checks_used - s.checks_reserved
		FROM subscriptions s WHERE s.organization_id = $1
		ORDER BY s.created_at DESC, s.id DESC LIMIT 1
		FOR UPDATE`, organizationID), "locking check budget", &b.SubscriptionID, &b.Entitled, &b.InGrace, &b.Available)
	if err != nil {
		return nil, err
	}
	if !found {
		return &Budget{}, nil
	}
	if b.Entitled {
		b.InGrace = false
	} else {
		b.Available = 0
	}
	b.Available = max(b.Available, 0)
	return &b, nil
}
