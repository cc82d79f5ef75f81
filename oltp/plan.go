package oltp

import (
	"context"
	"fmt"
	"slices"

	"github.com/google/uuid"

	"github.com/sightline/sightline"
)

// An organization's plan, allowance and counts (spec 2.8).

// SubscriptionNone is the status of an organization without any contract.
const SubscriptionNone = "none"

// runningSubscriptionStatuses are the contract states in which checks are
// accepted and the budget renews with the period.
var runningSubscriptionStatuses = []string{"active", "trialing", "past_due"}

// subscriptionRow is a stored contract.
type subscriptionRow struct {
	ID                       uuid.UUID            `db:"id"`
	Status                   string               `db:"status"`
	Tier                     string               `db:"tier"`
	BillingInterval          string               `db:"billing_interval"`
	CheckBudget              int                  `db:"check_budget"`
	ChecksUsed               int                  `db:"checks_used"`
	ChecksReserved           int                  `db:"checks_reserved"`
	CurrentPeriodStart       sightline.Timestamp  `db:"current_period_start"`
	CurrentPeriodEnd         sightline.Timestamp  `db:"current_period_end"`
	CancelAt                 *sightline.Timestamp `db:"cancel_at"`
	CancelledAt              *sightline.Timestamp `db:"cancelled_at"`
	GraceUntil               *sightline.Timestamp `db:"grace_until"`
	CancelRequestedByArchive bool                 `db:"cancel_requested_by_archive"`
	// CancelAhead says the scheduled cancellation has not taken effect yet.
	CancelAhead bool `db:"cancel_ahead"`
}

func (s *subscriptionRow) running() bool {
	return slices.Contains(runningSubscriptionStatuses, s.Status)
}

// currentSubscription returns the organization's most recent contract in
// any state, or nil when it never subscribed. With lock it is locked FOR
// UPDATE until the transaction ends.
func currentSubscription(ctx context.Context, db DBTX, organizationID uuid.UUID, lock bool) (*subscriptionRow, error) {
	query := `
		SELECT id, status, tier, billing_interval, check_budget, checks_used, checks_reserved,
		       current_period_start, current_period_end, cancel_at, cancelled_at, grace_until,
		       cancel_requested_by_archive, coalesce(cancel_at > now(), false) AS cancel_ahead
		FROM subscriptions WHERE organization_id = $1
		ORDER BY created_at DESC, id DESC LIMIT 1`
	if lock {
		query += " FOR UPDATE"
	}
	return queryOne[subscriptionRow](ctx, db, nil, "reading subscription", query, organizationID)
}

// Subscription is the organization's most recent contract in any state;
// with status "none" every other field is nil.
type Subscription struct {
	Status             string               `json:"status"`
	Tier               *string              `json:"tier"`
	BillingInterval    *string              `json:"billingInterval"`
	CheckBudget        *int                 `json:"checkBudget"`
	ChecksUsed         *int                 `json:"checksUsed"`
	CurrentPeriodStart *sightline.Timestamp `json:"currentPeriodStart"`
	CurrentPeriodEnd   *sightline.Timestamp `json:"currentPeriodEnd"`
	CancelAt           *sightline.Timestamp `json:"cancelAt"`
	CancelledAt        *sightline.Timestamp `json:"cancelledAt"`
	GraceUntil         *sightline.Timestamp `json:"graceUntil"`
}

// GetSubscription returns the organization's subscription read.
func GetSubscription(ctx context.Context, db DBTX, organizationID uuid.UUID) (*Subscription, error) {
	sub, err := currentSubscription(ctx, db, organizationID, false)
	if err != nil {
		return nil, err
	}
	if sub == nil {
		return &Subscription{Status: SubscriptionNone}, nil
	}
	return &Subscription{
		Status: sub.Status, Tier: &sub.Tier, BillingInterval: &sub.BillingInterval,
		CheckBudget: &sub.CheckBudget, ChecksUsed: &sub.ChecksUsed,
		CurrentPeriodStart: &sub.CurrentPeriodStart, CurrentPeriodEnd: &sub.CurrentPeriodEnd,
		CancelAt: sub.CancelAt, CancelledAt: sub.CancelledAt, GraceUntil: sub.GraceUntil,
	}, nil
}

// Entitlements are the allowance and consumption of the organization's most
// recent contract. Without any contract the status is "none" and every other
// field nil: no plan on file, which differs from a zero budget.
type Entitlements struct {
	Status      string  `json:"status"`
	Tier        *string `json:"tier"`
	CheckBudget *int    `json:"checkBudget"`
	ChecksUsed  *int    `json:"checksUsed"`
	// ChecksAvailable is the budget left this period: neither used nor set
	// aside for checks in flight; 0 once the contract is cancelled or
	// expired, since no new checks are accepted then.
	ChecksAvailable *int                 `json:"checksAvailable"`
	PeriodStart     *sightline.Timestamp `json:"periodStart"`
	// NextResetAt is when the budget renews: the end of the current period,
	// or nil when the contract ends before it renews.
	NextResetAt *sightline.Timestamp `json:"nextResetAt"`
}

// GetEntitlements returns the organization's entitlements.
func GetEntitlements(ctx context.Context, db DBTX, organizationID uuid.UUID) (*Entitlements, error) {
	sub, err := currentSubscription(ctx, db, organizationID, false)
	if err != nil {
		return nil, err
	}
	if sub == nil {
		return &Entitlements{Status: SubscriptionNone}, nil
	}
	available := 0
	var nextReset *sightline.Timestamp
	if sub.running() {
		available = max(0, sub.CheckBudget-sub.ChecksUsed-sub.ChecksReserved)
		if sub.CancelAt == nil || sub.CancelAt.After(sub.CurrentPeriodEnd.Time) {
			nextReset = &sub.CurrentPeriodEnd
		}
	}
	return &Entitlements{
		Status: sub.Status, Tier: &sub.Tier, CheckBudget: &sub.CheckBudget, ChecksUsed: &sub.ChecksUsed,
		ChecksAvailable: &available, PeriodStart: &sub.CurrentPeriodStart, NextResetAt: nextReset,
	}, nil
}

// MembershipStats is the periodically computed snapshot of an organization.
type MembershipStats struct {
	ComputedAt              sightline.Timestamp `json:"computedAt" db:"computed_at"`
	TotalMembersCount       int                 `json:"totalMembersCount" db:"total_members_count"`
	TotalProjectsCount      int                 `json:"totalProjectsCount" db:"total_projects_count"`
	PendingInvitationsCount int                 `json:"pendingInvitationsCount" db:"pending_invitations_count"`
}

// GetMembershipStats returns the last computed snapshot, or
// organization_membership_stats_not_found before the first computation.
func GetMembershipStats(ctx context.Context, db DBTX, organizationID uuid.UUID) (*MembershipStats, error) {
	return queryOne[MembershipStats](ctx, db, sightline.Errorf(sightline.CodeMembershipStatsNotFound,
		"Membership stats have not been computed for this organization yet; they are refreshed periodically."),
		"reading membership stats", `
		SELECT computed_at, total_members_count, total_projects_count, pending_invitations_count
		FROM organization_membership_stats WHERE organization_id = $1`, organizationID)
}

// RefreshMembershipStats recomputes the snapshot of every organization:
// members whatever their status, projects whatever their status, and
// invitations that are pending and not expired. It returns the number of
// organizations refreshed.
func RefreshMembershipStats(ctx context.Context, db DBTX) (int64, error) {
	return execCount(ctx, db, "refreshing membership stats", `
		INSERT INTO organization_membership_stats
		       (organization_id, computed_at, total_members_count, total_projects_count, pending_invitations_count)
		SELECT o.id, now(),
		       (SELECT count(*) FROM memberships m WHERE m.organization_id = o.id),
		       (SELECT count(*) FROM projects p WHERE p.organization_id = o.id),
		       (SELECT count(*) FROM invitations i
		        WHERE i.organization_id = o.id AND i.status = 'pending' AND i.expires_at > now())
		FROM organizations o
		ON CONFLICT (organization_id) DO UPDATE SET
		    computed_at = excluded.computed_at,
		    total_members_count = excluded.total_members_count,
		    total_projects_count = excluded.total_projects_count,
		    pending_invitations_count = excluded.pending_invitations_count`)
}

// OrganizationStats are live headline counts; never null.
type OrganizationStats struct {
	Members struct {
		Total int `json:"total"`
	} `json:"members"`
	Projects struct {
		Total  int `json:"total"`
		Active int `json:"active"`
	} `json:"projects"`
	Invitations struct {
		Pending int `json:"pending"`
	} `json:"invitations"`
}

// GetOrganizationStats counts active memberships, all projects and the
// active ones, and invitations that are pending and not expired.
func GetOrganizationStats(ctx context.Context, db DBTX, organizationID uuid.UUID) (*OrganizationStats, error) {
	var s OrganizationStats
	err := db.QueryRow(ctx, `
		SELECT (SELECT count(*) FROM memberships m WHERE m.organization_id = $1 AND m.status = 'active'),
		       (SELECT count(*) FROM projects p WHERE p.organization_id = $1),
		       (SELECT count(*) FROM projects p WHERE p.organization_id = $1 AND p.status = 'active'),
		       (SELECT count(*) FROM invitations i
		        WHERE i.organization_id = $1 AND i.status = 'pending' AND i.expires_at > now())`,
		organizationID).Scan(&s.Members.Total, &s.Projects.Total, &s.Projects.Active, &s.Invitations.Pending)
	if err != nil {
		return nil, fmt.Errorf("counting organization stats: %w", err)
	}
	return &s, nil
}

// CountOrganizationTrackedQueries counts the tracked queries of every
// project of the organization, archived projects and paused queries
// included: the sum of the per-project unfiltered counts.
func CountOrganizationTrackedQueries(ctx context.Context, db DBTX, organizationID uuid.UUID) (int, error) {
	var n int
	err := db.QueryRow(ctx, `
		SELECT count(*) FROM tracked_queries t JOIN projects p ON p.id = t.project_id
		WHERE p.organization_id = $1`, organizationID).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("counting tracked queries: %w", err)
	}
	return n, nil
}

// ProjectedChecks is the projection of an organization's monthly check
// units (spec 2.8): for each active tracked query of an active project, its
// runs per month (daily 30, weekly 4, monthly 1) times its passes.
type ProjectedChecks struct {
	ActiveTrackedQueryCount int                 `json:"activeTrackedQueryCount" db:"active_tracked_query_count"`
	ProjectedMonthlyChecks  int64               `json:"projectedMonthlyChecks" db:"projected_monthly_checks"`
	ComputedAt              sightline.Timestamp `json:"computedAt" db:"computed_at"`
}

// GetProjectedChecks computes the projection on request: paused queries
// are not checked, and neither are those of archived projects. It is one
// aggregate over the organization's tracked queries, so computedAt is
// always now and every change shows at once.
func GetProjectedChecks(ctx context.Context, db DBTX, organizationID uuid.UUID) (*ProjectedChecks, error) {
	return queryOne[ProjectedChecks](ctx, db, sightline.Errorf(sightline.CodeOrganizationNotFound, "Organization not found."),
		"computing projected checks", `
		SELECT now() AS computed_at,
		       count(t.id) AS active_tracked_query_count,
		       coalesce(sum(t.n_passes * CASE t.check_frequency
		                                    WHEN 'daily' THEN 30 WHEN 'weekly' THEN 4 ELSE 1 END), 0)
		           AS projected_monthly_checks
		FROM organizations o
		LEFT JOIN projects p ON p.organization_id = o.id AND p.status = 'active'
		LEFT JOIN tracked_queries t ON t.project_id = p.id AND t.status = 'active'
		WHERE o.id = $1
		GROUP BY o.id`, organizationID)
}
