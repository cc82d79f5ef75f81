package api

import (
	"net/http"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/sightline/sightline"
)

// routes lists every operation of the service.
func (s *server) routes() {
	// Operational endpoints, outside the versioned API and its document.
	s.router.Get("/healthz", s.handleHealthz)
	s.router.Get("/readyz", s.handleReadyz)
	s.router.Method(http.MethodGet, "/metrics", promhttp.HandlerFor(s.gatherer, promhttp.HandlerOpts{}))

	s.handle(route{
		method: http.MethodGet, pattern: "/api/v1/doc/json", id: "getOpenAPIDocument", tag: "contract",
		summary: "This OpenAPI 3.0 document", public: true,
		response: described(openapi3.NewObjectSchema(), "The OpenAPI 3.0 document."),
		read:     s.handleDocument,
	})
	s.handle(route{
		method: http.MethodGet, pattern: "/api/v1/me", id: "getMe", tag: "account",
		summary:  "The user the API key belongs to, and the key's capabilities and scope",
		response: s.meSchema(),
		read:     s.handleMe,
	})
	s.handle(route{
		method: http.MethodGet, pattern: "/api/v1/organizations", id: "listOrganizations", tag: "organizations",
		summary:     "Organizations the key's owner is an active member of, narrowed to the key's scope",
		query:       organizationListParams(),
		response:    listingSchema(s.organizationSchema()),
		csv:         true,
		read:        s.handleListOrganizations,
		description: "Search is a case-insensitive substring of the name.",
	})
	s.handle(route{
		method: http.MethodGet, pattern: "/api/v1/organizations/{organizationId}", id: "getOrganization", tag: "organizations",
		summary: "One organization", role: sightline.RoleViewer,
		response: s.organizationSchema(),
		read:     s.handleGetOrganization,
	})

	// Organizations (spec 4.5): confirmed writes, plan, usage and stats.
	s.handle(route{
		method: http.MethodPost, pattern: "/api/v1/organization-operation-previews", id: "previewOrganizationOperation",
		tag: "organizations", summary: "Preview a confirmed organization operation and get its confirmation token",
		description: "Reports what organization.create, organization.update, organization.archive or organization.restore " +
			"would do and issues a token to send in X-Service-Confirmation with that operation: single use, valid five " +
			"minutes, bound to the action, organization, body, these effects, the organization's current state and this " +
			"API key. Authorised as the operation itself (create: a key scoped to all organizations; others: owner of " +
			"an organization in the key's scope) and refused as it would be, so no token is issued for an operation " +
			"that cannot succeed. Like every write it takes an Idempotency-Key; a retry replays the same token.",
		capability: sightline.CapabilityOrganizationManage,
		body:       s.previewRequestSchema(), response: s.previewResponseSchema(),
		errors: map[int]string{
			403: "api_key_capability_required also when the owner's role is below owner, or, for organization.create, the key is not scoped to all organizations.",
			404: "organization_not_found: organizationId names no organization the key can see.",
			409: "status_transition_not_allowed (archive of an archived or restore of an active organization); " +
				"organization_is_archived (update of an archived organization).",
		},
		writeFunc: s.handlePreviewOrganizationOperation,
	})
	s.handleConfirmed(route{
		method: http.MethodPost, pattern: "/api/v1/organizations", id: "createOrganization", tag: "organizations",
		summary: "Create an organization, with the key's user as its owner",
		description: "Confirmed write: preview organization.create with the same body first. The owner membership is " +
			"created in the same transaction, so the organization can be read at once. The body is required and may be {}.",
		capability: sightline.CapabilityOrganizationManage,
		body:       s.organizationCreateSchema(), status: http.StatusCreated, response: s.organizationSchema(),
		errors: map[int]string{
			403: "api_key_capability_required also when the key is not scoped to all organizations.",
		},
		writeFunc: s.handleCreateOrganization,
	})
	s.handleConfirmed(route{
		method: http.MethodPatch, pattern: "/api/v1/organizations/{organizationId}", id: "updateOrganization", tag: "organizations",
		summary: "Change an organization's name, description or contact email",
		description: "Confirmed write: preview organization.update with the same body first; the token is bound to the " +
			"organization's values at preview time. An omitted field is unchanged, null clears it (name cannot be cleared); " +
			"imageUrl is read-only. An archived organization's profile cannot be changed.",
		role: sightline.RoleOwner, capability: sightline.CapabilityOrganizationManage,
		body: s.organizationPatchSchema(), response: s.organizationSchema(),
		errors:    map[int]string{409: "organization_is_archived: restore the organization first."},
		writeFunc: s.handleUpdateOrganization,
	})
	s.handleConfirmed(route{
		method: http.MethodPost, pattern: "/api/v1/organizations/{organizationId}/archive", id: "archiveOrganization", tag: "organizations",
		summary: "Archive an organization with its active projects",
		description: "Confirmed write: preview organization.archive first. In one transaction, active projects are archived " +
			"(recorded as archived by the organization), pending invitations cancelled and the running subscription set " +
			"to end with its current billing period; the 200 is sent once all of it is done. No body.",
		role: sightline.RoleOwner, capability: sightline.CapabilityOrganizationManage,
		response:  s.organizationSchema(),
		errors:    map[int]string{409: "status_transition_not_allowed: the organization is already archived."},
		writeFunc: s.handleArchiveOrganization,
	})
	s.handleConfirmed(route{
		method: http.MethodPost, pattern: "/api/v1/organizations/{organizationId}/restore", id: "restoreOrganization", tag: "organizations",
		summary: "Restore an archived organization",
		description: "Confirmed write: preview organization.restore first. Reinstates the projects the organization archive " +
			"archived (not those archived on their own) and withdraws the subscription cancellation the archive scheduled; " +
			"invitations it cancelled stay cancelled. No body.",
		role: sightline.RoleOwner, capability: sightline.CapabilityOrganizationManage,
		response:  s.organizationSchema(),
		errors:    map[int]string{409: "status_transition_not_allowed: the organization is not archived."},
		writeFunc: s.handleRestoreOrganization,
	})
	s.handle(route{
		method: http.MethodGet, pattern: "/api/v1/organizations/{organizationId}/entitlements", id: "getEntitlements", tag: "organizations",
		summary: "Plan allowance, consumption and next reset, from the most recent contract", role: sightline.RoleOwner,
		response: s.entitlementsSchema(), read: s.handleGetEntitlements,
	})
	s.handle(route{
		method: http.MethodGet, pattern: "/api/v1/organizations/{organizationId}/subscription", id: "getSubscription", tag: "organizations",
		summary: "The most recent subscription contract in any state, or status none", role: sightline.RoleViewer,
		response: s.subscriptionSchema(), read: s.handleGetSubscription,
	})
	s.handle(route{
		method: http.MethodGet, pattern: "/api/v1/organizations/{organizationId}/membership-stats", id: "getMembershipStats", tag: "organizations",
		summary: "Periodically computed member, project and invitation counts", role: sightline.RoleOwner,
		response: s.membershipStatsSchema(), read: s.handleGetMembershipStats,
		errors: map[int]string{404: "organization_membership_stats_not_found: not computed yet for this organization (never a body of zeros)."},
	})
	s.handle(route{
		method: http.MethodGet, pattern: "/api/v1/organizations/{organizationId}/stats", id: "getOrganizationStats", tag: "organizations",
		summary: "Live headline counts of members, projects and invitations", role: sightline.RoleViewer,
		response: s.organizationStatsSchema(), read: s.handleGetOrganizationStats,
	})
	s.handle(route{
		method: http.MethodGet, pattern: "/api/v1/organizations/{organizationId}/usage/tracked-queries", id: "getTrackedQueryUsage", tag: "organizations",
		summary: "Live count of the organization's tracked queries", role: sightline.RoleViewer,
		description: "Counts every tracked query of every project, archived projects and paused queries included: the sum " +
			"of the per-project unfiltered counts. Takes no query parameters.",
		response: s.trackedQueryUsageSchema(), read: s.handleGetTrackedQueryUsage,
	})
	s.handle(route{
		method: http.MethodGet, pattern: "/api/v1/organizations/{organizationId}/usage/projected-monthly-checks", id: "getProjectedMonthlyChecks", tag: "organizations",
		summary: "Cached projection of the check budget units used per month", role: sightline.RoleViewer,
		description: "For each active tracked query of an active project, runs per month (daily 30, weekly 4, monthly 1) " +
			"times nPasses, summed. Refreshed periodically; an organization the refresh has not reached yet is computed " +
			"on request, so no field is ever null. Takes no query parameters.",
		response: s.projectedChecksSchema(), read: s.handleGetProjectedChecks,
	})
	// (end of organizations)

	// Projects, brand profiles and competitors (spec 4.6).
	// (end of projects)

	// (end of clusters)

	// Tracked queries (spec 4.2).
	// (end of tracked queries)
}
