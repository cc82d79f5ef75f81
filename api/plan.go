package api

import (
	"net/http"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/sightline/sightline"
	"github.com/sightline/sightline/oltp"
)

// An organization's plan, allowance and counts (spec 2.8): entitlements and
// the subscription come from the most recent contract; stats and the
// tracked-query count and the projected monthly checks are live; membership
// stats are a periodic snapshot (jobs/stats.go).

var subscriptionStatuses = []string{oltp.SubscriptionNone, "active", "trialing", "past_due", "cancelled", "expired"}

// trackedQueryUsage is the answer of GET .../usage/tracked-queries.
type trackedQueryUsage struct {
	TrackedQueryCount int `json:"trackedQueryCount"`
}

func (s *server) handleGetTrackedQueryUsage(r *request) (any, error) {
	n, err := oltp.CountOrganizationTrackedQueries(r.Context(), s.pool, r.organizationID)
	if err != nil {
		return nil, err
	}
	return trackedQueryUsage{TrackedQueryCount: n}, nil
}

func (s *server) entitlementsSchema() *openapi3.Schema {
	count := func(text string) *openapi3.Schema { return described(nullable(integerSchema().WithMin(0)), text) }
	return s.component("Entitlements", object(props{
		"status": described(enumOf(subscriptionStatuses...),
			"Status of the most recent contract; none when the organization never subscribed, and then every other field is null."),
		"tier":            nullable(stringSchema()),
		"checkBudget":     count("Check budget units per billing period; null means no plan on file, not zero."),
		"checksUsed":      count("Units consumed in the current period."),
		"checksAvailable": count("Units left this period; 0 once the contract is cancelled or expired, as no new checks are accepted."),
		"periodStart":     nullable(timeSchema()),
		"nextResetAt": described(nullable(timeSchema()),
			"When the budget renews (end of the current period); null when the contract ends before it renews."),
	}, "status", "tier", "checkBudget", "checksUsed", "checksAvailable", "periodStart", "nextResetAt"))
}

func (s *server) subscriptionSchema() *openapi3.Schema {
	return s.component("Subscription", object(props{
		"status": described(enumOf(subscriptionStatuses...),
			"none when the organization never subscribed; every other field is then null."),
		"tier":               nullable(stringSchema()),
		"billingInterval":    nullable(enumOf("monthly", "yearly")),
		"checkBudget":        nullable(integerSchema().WithMin(0)),
		"checksUsed":         nullable(integerSchema().WithMin(0)),
		"currentPeriodStart": nullable(timeSchema()),
		"currentPeriodEnd":   nullable(timeSchema()),
		"cancelAt":           described(nullable(timeSchema()), "When a scheduled cancellation takes effect."),
		"cancelledAt":        nullable(timeSchema()),
		"graceUntil":         nullable(timeSchema()),
	}, "status", "tier", "billingInterval", "checkBudget", "checksUsed", "currentPeriodStart", "currentPeriodEnd",
		"cancelAt", "cancelledAt", "graceUntil"))
}

func (s *server) membershipStatsSchema() *openapi3.Schema {
	return s.component("MembershipStats", object(props{
		"computedAt":              timeSchema(),
		"totalMembersCount":       described(integerSchema().WithMin(0), "Members, suspended ones included."),
		"totalProjectsCount":      described(integerSchema().WithMin(0), "Projects, archived ones included."),
		"pendingInvitationsCount": described(integerSchema().WithMin(0), "Invitations pending and not expired."),
	}, "computedAt", "totalMembersCount", "totalProjectsCount", "pendingInvitationsCount"))
}

func (s *server) organizationStatsSchema() *openapi3.Schema {
	count := func() *openapi3.Schema { return integerSchema().WithMin(0) }
	return s.component("OrganizationStats", object(props{
		"members":     object(props{"total": described(count(), "Active memberships.")}, "total"),
		"projects":    object(props{"total": described(count(), "All projects, archived ones included."), "active": count()}, "total", "active"),
		"invitations": object(props{"pending": described(count(), "Pending and not expired.")}, "pending"),
	}, "members", "projects", "invitations"))
}

func (s *server) trackedQueryUsageSchema() *openapi3.Schema {
	return s.component("TrackedQueryUsage", object(props{
		"trackedQueryCount": described(integerSchema().WithMin(0),
			"Tracked queries of every project (archived included), active and paused."),
	}, "trackedQueryCount"))
}

func (s *server) projectedChecksSchema() *openapi3.Schema {
	return s.component("ProjectedMonthlyChecks", object(props{
		"activeTrackedQueryCount": described(integerSchema().WithMin(0),
			"Active tracked queries of active projects: paused queries and archived projects are not checked."),
		"projectedMonthlyChecks": described(integerSchema().WithMin(0),
			"Sum over those queries of runs per month (daily 30, weekly 4, monthly 1) times nPasses, in check budget units."),
		"computedAt": described(timeSchema(),
			"When the projection was computed: it is computed on request, so every change shows at once."),
	}, "activeTrackedQueryCount", "projectedMonthlyChecks", "computedAt"))
}

// planRoutes lists an organization's plan, usage and stats (spec 4.5, 2.8).
func (s *server) planRoutes(organizations routeGroup) {
	organizations.handle(route{
		method: http.MethodGet, pattern: "/api/v1/organizations/{organizationId}/entitlements", id: "getEntitlements",
		summary: "Plan allowance, consumption and next reset, from the most recent contract", role: sightline.RoleOwner,
		response: s.entitlementsSchema(), read: organizationRead(s, oltp.GetEntitlements),
	})
	organizations.handle(route{
		method: http.MethodGet, pattern: "/api/v1/organizations/{organizationId}/subscription", id: "getSubscription",
		summary:  "The most recent subscription contract in any state, or status none",
		response: s.subscriptionSchema(), read: organizationRead(s, oltp.GetSubscription),
	})
	organizations.handle(route{
		method: http.MethodGet, pattern: "/api/v1/organizations/{organizationId}/membership-stats", id: "getMembershipStats",
		summary: "Periodically computed member, project and invitation counts", role: sightline.RoleOwner,
		response: s.membershipStatsSchema(), read: organizationRead(s, oltp.GetMembershipStats),
		description: "A snapshot refreshed every minute (computedAt says when): a new organization's stats, and every " +
			"change, show within a minute.",
		errors: map[int]string{404: "organization_membership_stats_not_found: not computed yet for this organization (never a body of zeros)."},
	})
	organizations.handle(route{
		method: http.MethodGet, pattern: "/api/v1/organizations/{organizationId}/stats", id: "getOrganizationStats",
		summary:  "Live headline counts of members, projects and invitations",
		response: s.organizationStatsSchema(), read: organizationRead(s, oltp.GetOrganizationStats),
	})
	organizations.handle(route{
		method: http.MethodGet, pattern: "/api/v1/organizations/{organizationId}/usage/tracked-queries", id: "getTrackedQueryUsage",
		summary: "Live count of the organization's tracked queries",
		description: "Counts every tracked query of every project, archived projects and paused queries included: the sum " +
			"of the per-project unfiltered counts. Takes no query parameters.",
		response: s.trackedQueryUsageSchema(), read: s.handleGetTrackedQueryUsage,
	})
	organizations.handle(route{
		method: http.MethodGet, pattern: "/api/v1/organizations/{organizationId}/usage/projected-monthly-checks", id: "getProjectedMonthlyChecks",
		summary: "Projection of the check budget units used per month",
		description: "For each active tracked query of an active project, runs per month (daily 30, weekly 4, monthly 1) " +
			"times nPasses, summed. Computed on request, so it reflects every change at once and no field is ever " +
			"null. Takes no query parameters.",
		response: s.projectedChecksSchema(), read: organizationRead(s, oltp.GetProjectedChecks),
	})
}
