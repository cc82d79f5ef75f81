package api

import (
	"net/http"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/sightline/sightline"
)

// routes lists every operation of the service.
func (s *server) routes() {
	// Operational endpoints, outside the versioned API and its document.
	s.router.Get("/healthz", s.handleHealthz)
	s.router.Get("/readyz", s.handleReadyz)

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
	s.handle(route{
		method: http.MethodGet, pattern: "/api/v1/organizations/{organizationId}/projects", id: "listProjects", tag: "projects",
		summary: "The organization's projects with their per-project metrics", role: sightline.RoleViewer,
		description: "Rows are the project record plus its metrics. trackedQueryCount counts the project's tracked queries " +
			"(active and paused) live; the other metrics cover the checks of the last 30 days, are refreshed after each " +
			"completed check, and are null while not known (no check in that window measured them). Sorting by a metric puts " +
			"unknown values last in either order; ties are broken by id. search is a case-insensitive substring of the " +
			"name. In CSV, competitors are listed by name.",
		query: projectListParams(), response: listingSchema(s.projectRowSchema()), csv: true,
		read: s.handleListProjects,
	})
	s.handle(route{
		method: http.MethodPost, pattern: "/api/v1/organizations/{organizationId}/projects", id: "createProject", tag: "projects",
		summary: "Create a project with its brand profile and competitors", role: sightline.RoleManager,
		capability: sightline.CapabilityWrite,
		description: "Creates the project, its brand profile and its competitors in one transaction; no tracked queries, " +
			"checks or scraping. Names are trimmed. websiteDomains accept full http(s) URLs or bare hosts and are stored " +
			"as the lower-cased host without port, path or leading 'www.'; brand names are trimmed; each list collapses " +
			"duplicates (brand names case-insensitively), keeping first occurrences in order. Every field at fault is " +
			"named, e.g. websiteDomains[1] or competitors[0].brandNames[2].",
		body: projectCreateSchema(), status: http.StatusCreated, response: s.projectSchema(),
		errors:    map[int]string{409: "organization_is_archived."},
		writeFunc: s.handleCreateProject,
	})
	s.handle(route{
		method: http.MethodGet, pattern: "/api/v1/organizations/{organizationId}/projects/{projectId}", id: "getProject", tag: "projects",
		summary: "One project with its brand configuration", role: sightline.RoleViewer,
		description: "A project without a brand profile reports empty websiteDomains, brandNames and competitors.",
		response:    s.projectSchema(),
		errors:      map[int]string{404: "project_not_found, also for another organization's project."},
		read:        s.handleGetProject,
	})
	s.handle(route{
		method: http.MethodPatch, pattern: "/api/v1/organizations/{organizationId}/projects/{projectId}", id: "renameProject", tag: "projects",
		summary: "Rename a project", role: sightline.RoleManager, capability: sightline.CapabilityWrite,
		description: "Body name only; websiteDomains, brandNames and competitors are refused as unknown fields (change them " +
			"with the brand-profile and competitor operations). An archived project or organization refuses every rename " +
			"with 409, one to the current name included; a retry under the Idempotency-Key of a rename that succeeded " +
			"replays its 200.",
		body: projectRenameSchema(), response: s.projectSchema(),
		errors: map[int]string{
			404: "project_not_found.",
			409: "project_is_archived, organization_is_archived.",
		},
		writeFunc: s.handleRenameProject,
	})
	s.handle(route{
		method: http.MethodPost, pattern: "/api/v1/organizations/{organizationId}/projects/{projectId}/archive", id: "archiveProject", tag: "projects",
		summary: "Archive a project", role: sightline.RoleManager, capability: sightline.CapabilityWrite,
		description: "No body. Nothing is deleted; name, brand-profile, competitor, cluster and tracked-query writes answer " +
			"409 until the project is restored. Recorded as archived by the caller, so a later organization restore leaves " +
			"it archived. Answers the project in its new state.",
		response: s.projectSchema(),
		errors: map[int]string{
			404: "project_not_found.",
			409: "status_transition_not_allowed: already archived (a retry with the key that archived it replays the 200 " +
				"instead); organization_is_archived.",
		},
		writeFunc: s.handleArchiveProject,
	})
	s.handle(route{
		method: http.MethodPost, pattern: "/api/v1/organizations/{organizationId}/projects/{projectId}/restore", id: "restoreProject", tag: "projects",
		summary: "Restore a project archived on its own", role: sightline.RoleManager, capability: sightline.CapabilityWrite,
		description: "No body. No check is run; the record of who archived the project is cleared. Answers the project in " +
			"its new state.",
		response: s.projectSchema(),
		errors: map[int]string{
			404: "project_not_found.",
			409: "status_transition_not_allowed: already active (a retry with the key that restored it replays the 200 " +
				"instead); project_archived_by_organization: archived with its organization, restore the organization " +
				"instead; organization_is_archived.",
		},
		writeFunc: s.handleRestoreProject,
	})
	s.handle(route{
		method: http.MethodGet, pattern: "/api/v1/organizations/{organizationId}/projects/{projectId}/brand-profile", id: "getBrandProfile", tag: "projects",
		summary: "A project's brand profile", role: sightline.RoleViewer,
		response: s.brandProfileSchema(),
		errors:   map[int]string{404: "project_not_found; brand_profile_not_found when the project has no profile."},
		read:     s.handleGetBrandProfile,
	})
	s.handle(route{
		method: http.MethodPut, pattern: "/api/v1/organizations/{organizationId}/projects/{projectId}/brand-profile", id: "replaceBrandProfile", tag: "projects",
		summary: "Replace a brand profile's website domains and brand names", role: sightline.RoleManager,
		capability: sightline.CapabilityWrite,
		description: "Both lists are required and replace the stored ones, normalised as on project creation. The project " +
			"name, the competitors and the description are left as they are; the description is not regenerated. " +
			"Answers the profile as stored.",
		body: brandProfileInputSchema(), response: s.brandProfileSchema(),
		errors: map[int]string{
			404: "project_not_found; brand_profile_not_found when the project has no profile.",
			409: "project_is_archived, organization_is_archived.",
		},
		writeFunc: s.handleReplaceBrandProfile,
	})
	s.handle(route{
		method: http.MethodGet, pattern: "/api/v1/organizations/{organizationId}/projects/{projectId}/competitors", id: "listCompetitors", tag: "projects",
		summary: "A project's competitors", role: sightline.RoleViewer,
		description: "Ordered by id (creation order); only the direction can be chosen: sortBy and search are not " +
			"parameters of this operation and are rejected. A project without a brand profile has none.",
		query: competitorListParams(), response: listingSchema(s.competitorSchema()), csv: true,
		errors: map[int]string{404: "project_not_found."},
		read:   s.handleListCompetitors,
	})
	s.handle(route{
		method: http.MethodPost, pattern: "/api/v1/organizations/{organizationId}/projects/{projectId}/competitors", id: "createCompetitor", tag: "projects",
		summary: "Add a competitor", role: sightline.RoleManager, capability: sightline.CapabilityWrite,
		description: "Lists are normalised as on project creation. Applies to checks from then on; captured answers are " +
			"not re-matched. Answers the competitor as stored.",
		body: competitorInputSchema(), status: http.StatusCreated, response: s.competitorSchema(),
		errors: map[int]string{
			404: "project_not_found; brand_profile_not_found when the project has no brand profile.",
			409: "project_is_archived, organization_is_archived.",
		},
		writeFunc: s.handleCreateCompetitor,
	})
	s.handle(route{
		method: http.MethodGet, pattern: "/api/v1/organizations/{organizationId}/projects/{projectId}/competitors/{competitorId}", id: "getCompetitor", tag: "projects",
		summary: "One competitor", role: sightline.RoleViewer,
		response: s.competitorSchema(),
		errors:   map[int]string{404: "project_not_found; competitor_not_found, also when the project has no brand profile."},
		read:     s.handleGetCompetitor,
	})
	s.handle(route{
		method: http.MethodPut, pattern: "/api/v1/organizations/{organizationId}/projects/{projectId}/competitors/{competitorId}", id: "replaceCompetitor", tag: "projects",
		summary: "Replace a competitor's name, website domains and brand names", role: sightline.RoleManager,
		capability: sightline.CapabilityWrite,
		description: "All three fields are required and replace the stored ones; the lists must stay non-empty. Applies " +
			"to checks from then on.",
		body: competitorInputSchema(), response: s.competitorSchema(),
		errors: map[int]string{
			404: "project_not_found; competitor_not_found.",
			409: "project_is_archived, organization_is_archived.",
		},
		writeFunc: s.handleReplaceCompetitor,
	})
	s.handle(route{
		method: http.MethodDelete, pattern: "/api/v1/organizations/{organizationId}/projects/{projectId}/competitors/{competitorId}", id: "deleteCompetitor", tag: "projects",
		summary: "Remove a competitor", role: sightline.RoleManager, capability: sightline.CapabilityWrite,
		description: "No body (a body gives 400). Answers the competitor as it was before removal. Every stored mention, " +
			"search result and shopping result attributed to it is removed asynchronously and permanently, changing " +
			"historical analytics; until that has finished, the project's analytics report dataDirtySince (from the " +
			"project's creation on).",
		response: s.competitorSchema(),
		errors: map[int]string{
			404: "project_not_found; competitor_not_found.",
			409: "project_is_archived, organization_is_archived.",
		},
		writeFunc: s.handleDeleteCompetitor,
	})
	// (end of projects)

	// Keyword clusters (spec 4.7).
	s.handle(route{
		method: http.MethodGet, pattern: "/api/v1/organizations/{organizationId}/projects/{projectId}/clusters", id: "listClusters", tag: "clusters",
		summary: "A project's keyword clusters", role: sightline.RoleViewer,
		description: "Ordered by name; only the direction can be chosen. A cluster carries no metrics and no membership count.",
		query:       clusterListParams(), response: listingSchema(s.clusterSchema()), csv: true,
		errors: map[int]string{404: "project_not_found."},
		read:   s.handleListClusters,
	})
	s.handle(route{
		method: http.MethodPost, pattern: "/api/v1/organizations/{organizationId}/projects/{projectId}/clusters", id: "createCluster", tag: "clusters",
		summary: "Create an empty keyword cluster", role: sightline.RoleManager, capability: sightline.CapabilityWrite,
		description: "The name is trimmed and lower-cased before the length and uniqueness checks. A name the project " +
			"already has answers 409 with nothing merged, also when a concurrent request took it first.",
		body: clusterInputSchema(), status: http.StatusCreated, response: s.clusterSchema(),
		errors: map[int]string{
			404: "project_not_found.",
			409: "query_cluster_name_already_exists; project_is_archived, organization_is_archived.",
		},
		writeFunc: s.handleCreateCluster,
	})
	s.handle(route{
		method: http.MethodPost, pattern: "/api/v1/organizations/{organizationId}/projects/{projectId}/clusters/batch", id: "createClusterBatch", tag: "clusters",
		summary: "Create several keyword clusters", role: sightline.RoleManager, capability: sightline.CapabilityWrite,
		description: "names: 1 to 100 as sent, each trimmed and lower-cased; names equal after that are collapsed to their " +
			"first occurrence. A blank or too long name rejects the whole request with 400 naming names[i]. Otherwise " +
			"always 200, nothing rolled back: successful lists the clusters created ({id, name}), failed the names the " +
			"project already had ({id: null, name, errorCode query_cluster_name_already_exists, errorMessage}), never " +
			"resolved to the existing cluster; both in request order.",
		body: clusterBatchInputSchema(), response: s.clusterBatchResultSchema(),
		errors: map[int]string{
			404: "project_not_found.",
			409: "project_is_archived, organization_is_archived.",
		},
		writeFunc: s.handleCreateClusterBatch,
	})
	s.handle(route{
		method: http.MethodGet, pattern: "/api/v1/organizations/{organizationId}/projects/{projectId}/clusters/{clusterId}", id: "getCluster", tag: "clusters",
		summary: "One keyword cluster", role: sightline.RoleViewer,
		response: s.clusterSchema(),
		errors:   map[int]string{404: "project_not_found; query_cluster_not_found."},
		read:     s.handleGetCluster,
	})
	s.handle(route{
		method: http.MethodPatch, pattern: "/api/v1/organizations/{organizationId}/projects/{projectId}/clusters/{clusterId}", id: "renameCluster", tag: "clusters",
		summary: "Rename a keyword cluster", role: sightline.RoleManager, capability: sightline.CapabilityWrite,
		description: "Rename only: id and memberships are unchanged. The name is normalised as on create; the cluster's " +
			"current name is a no-op 200.",
		body: clusterInputSchema(), response: s.clusterSchema(),
		errors: map[int]string{
			404: "project_not_found; query_cluster_not_found.",
			409: "query_cluster_name_already_exists: another cluster has the name; project_is_archived, organization_is_archived.",
		},
		writeFunc: s.handleRenameCluster,
	})
	s.handle(route{
		method: http.MethodDelete, pattern: "/api/v1/organizations/{organizationId}/projects/{projectId}/clusters/{clusterId}", id: "deleteCluster", tag: "clusters",
		summary: "Delete a keyword cluster", role: sightline.RoleManager, capability: sightline.CapabilityWrite,
		description: "No body (a body gives 400). Answers the cluster as it was. Member tracked queries are unassigned from " +
			"it only; analytics filtered by its id return nothing afterwards, earlier dates included. Irreversible: " +
			"recreating the name gives a new id.",
		response: s.clusterSchema(),
		errors: map[int]string{
			404: "project_not_found; query_cluster_not_found.",
			409: "project_is_archived, organization_is_archived.",
		},
		writeFunc: s.handleDeleteCluster,
	})
	// (end of clusters)

	// Tracked queries (spec 4.2).
	s.handle(route{
		method: http.MethodGet, pattern: trackedBase, id: "searchTrackedQueries", tag: "tracked queries",
		summary: "Search the project's tracked queries with the metrics of their last check", role: sightline.RoleViewer,
		description: "Reads a projection refreshed in the background (within about a minute of a write), so a query just " +
			"created or changed may be absent or show old settings; total counts the rows matching the filters. search is a " +
			"case-insensitive substring of the stored text. countries take alpha-2 codes or English names and must be used by " +
			"one of the project's tracked queries. Any other parameter, an unknown sort key or filter value gives 400. " +
			"Archived projects answer. CSV: queryClusterIds joined with '; '.",
		query: trackedListParams(), response: listingSchema(s.trackedSearchRowSchema()), csv: true,
		errors: map[int]string{404: "project_not_found."},
		read:   s.handleListTrackedQueries,
	})
	s.handle(route{
		method: http.MethodPost, pattern: trackedBase, id: "createTrackedQueries", tag: "tracked queries",
		summary: "Track the cross product queryTexts x engines x countries", role: sightline.RoleManager,
		capability: sightline.CapabilityWrite,
		description: "Creates at most 100 combinations, enumerated queryTexts outermost, then engines, then countries; more is " +
			"400. Texts are normalised (Unicode-aware lower-casing, white space collapsed, leading list markers such as '1.', " +
			"'-', '*', '•' stripped); two texts that normalise equal are one query. Each combination lands in successful " +
			"(created, active, no check run) or failed: duplicate_combination_in_request (repeatsIndex names the earlier " +
			"entry), engine_not_available_in_country (google_ai_mode in " + trackedAIModeNote() + "), or " +
			"tracked_query_already_exists (the existing query keeps its id and its settings, locale included, and gains the " +
			"request's clusters). google_serp and google_shopping are created with 1 pass whatever nPasses says. " +
			"queryClusterIds is required and may be empty.",
		body: s.trackedCreateBodySchema(), response: s.trackedCreateAnswerSchema(),
		errors: map[int]string{
			404: "project_not_found; query_cluster_not_found: a cluster id matches no cluster of the organization.",
			409: "organization_is_archived, project_is_archived.",
			422: "query_cluster_in_other_project: a cluster belongs to another project of the organization.",
		},
		writeFunc: s.handleCreateTrackedQueries,
	})
	s.handle(route{
		method: http.MethodGet, pattern: trackedBase + "/count", id: "countTrackedQueries", tag: "tracked queries",
		summary: "Count the project's tracked queries and price checking them", role: sightline.RoleViewer,
		description: "Reads the write model, so it may exceed the listing's total for a moment. checkCost is a dry run: one " +
			"budget unit per configured pass of every matched query; nothing is reserved. Archived projects answer.",
		query: []*openapi3.Parameter{openapi3.NewQueryParameter("status").WithSchema(enumOf("active", "paused")).
			WithDescription("Omitted: all queries.")},
		response: trackedCountSchema(),
		errors:   map[int]string{404: "project_not_found."},
		read:     s.handleCountTrackedQueries,
	})
	s.handle(route{
		method: http.MethodGet, pattern: trackedBase + "/{trackedQueryId}", id: "getTrackedQuery", tag: "tracked queries",
		summary: "One tracked query's configuration (write model)", role: sightline.RoleViewer,
		description: "Metrics are not included; the search listing carries them.",
		response:    s.trackedQuerySchema(),
		errors:      map[int]string{404: "project_not_found; tracked_query_not_found, also for another project's query."},
		read:        s.handleGetTrackedQuery,
	})
	s.handle(route{
		method: http.MethodPut, pattern: trackedBase + "/{trackedQueryId}/check-frequency", id: "setTrackedQueryCheckFrequency",
		tag: "tracked queries", summary: "Set a tracked query's check frequency", role: sightline.RoleManager,
		capability: sightline.CapabilityWrite,
		description: "The same value is a successful no-op. Applies from the scheduler's next consideration; runs no check " +
			"and leaves one in flight alone. Answers the query in its new state.",
		body:     object(props{"checkFrequency": trackedFrequencySchema()}, "checkFrequency"),
		response: s.trackedQuerySchema(),
		errors: map[int]string{
			404: "project_not_found, tracked_query_not_found.",
			409: "organization_is_archived, project_is_archived.",
		},
		writeFunc: s.handleSetTrackedQueryFrequency,
	})
	s.handle(route{
		method: http.MethodPut, pattern: trackedBase + "/{trackedQueryId}/passes", id: "setTrackedQueryPasses",
		tag: "tracked queries", summary: "Set a tracked query's passes per check", role: sightline.RoleManager,
		capability:  sightline.CapabilityWrite,
		description: "Applies from the next check. 1 is always allowed; the same value is a no-op. Answers the query.",
		body:        object(props{"nPasses": trackedPassesSchema()}, "nPasses"),
		response:    s.trackedQuerySchema(),
		errors: map[int]string{
			404: "project_not_found, tracked_query_not_found.",
			409: "n_passes_not_supported_for_engine: more than 1 pass on google_serp or google_shopping; " +
				"organization_is_archived, project_is_archived.",
		},
		writeFunc: s.handleSetTrackedQueryPasses,
	})
	s.handle(route{
		method: http.MethodPut, pattern: trackedBase + "/{trackedQueryId}/pause", id: "pauseTrackedQuery",
		tag: "tracked queries", summary: "Pause a tracked query", role: sightline.RoleManager,
		capability: sightline.CapabilityWrite,
		description: "No body. Asserts a state: pausing a paused query succeeds with the same body. Keeps configuration, " +
			"clusters and results; the scheduler stops selecting it; a check already running completes.",
		response: s.trackedQuerySchema(),
		errors: map[int]string{
			404: "project_not_found, tracked_query_not_found.",
			409: "organization_is_archived, project_is_archived.",
		},
		writeFunc: s.trackedStatusWrite("paused"),
	})
	s.handle(route{
		method: http.MethodPut, pattern: trackedBase + "/{trackedQueryId}/resume", id: "resumeTrackedQuery",
		tag: "tracked queries", summary: "Resume a paused tracked query", role: sightline.RoleManager,
		capability: sightline.CapabilityWrite,
		description: "No body. Asserts a state: resuming an active query succeeds with the same body. Runs no check and " +
			"back-fills nothing; the next check comes when due under its checkFrequency.",
		response: s.trackedQuerySchema(),
		errors: map[int]string{
			404: "project_not_found, tracked_query_not_found.",
			409: "organization_is_archived, project_is_archived.",
		},
		writeFunc: s.trackedStatusWrite("active"),
	})
	s.handle(route{
		method: http.MethodPut, pattern: trackedBase + "/{trackedQueryId}/clusters", id: "addTrackedQueryClusters",
		tag: "tracked queries", summary: "Add a tracked query to clusters", role: sightline.RoleManager,
		capability: sightline.CapabilityWrite,
		description: "Clusters it already belongs to are skipped; memberships not named are untouched. The clusters are " +
			"locked until the write commits, so one deleted concurrently is either refused with 400 or removed after the " +
			"write, never half-applied. Answers the query with its resulting clusters.",
		body:     object(props{"queryClusterIds": trackedClusterIDsSchema()}, "queryClusterIds"),
		response: s.trackedQuerySchema(),
		errors: map[int]string{
			400: "queryClusterIds[i] invalid_value: not a cluster of this project (nothing written).",
			404: "project_not_found, tracked_query_not_found.",
			409: "organization_is_archived, project_is_archived.",
		},
		writeFunc: s.trackedMembershipWrite(true),
	})
	s.handle(route{
		method: http.MethodDelete, pattern: trackedBase + "/{trackedQueryId}/clusters", id: "removeTrackedQueryClusters",
		tag: "tracked queries", summary: "Remove a tracked query from clusters", role: sightline.RoleManager,
		capability: sightline.CapabilityWrite,
		description: "Requires a body (a stripped one gives 400). Removes membership only; clusters the query is not in " +
			"are skipped. Answers the query with its resulting clusters.",
		body:     object(props{"queryClusterIds": trackedClusterIDsSchema()}, "queryClusterIds"),
		response: s.trackedQuerySchema(),
		errors: map[int]string{
			400: "queryClusterIds[i] invalid_value: not a cluster of this project (nothing written).",
			404: "project_not_found, tracked_query_not_found.",
			409: "organization_is_archived, project_is_archived.",
		},
		writeFunc: s.trackedMembershipWrite(false),
	})
	s.handle(route{
		method: http.MethodPut, pattern: trackedBase + "/batch/check-frequency", id: "batchSetTrackedQueryCheckFrequency",
		tag: "tracked queries", summary: "Set the check frequency of several tracked queries", role: sightline.RoleManager,
		capability: sightline.CapabilityWrite,
		description: "Always 200 with successful and failed, in the order ids first appear; nothing is rolled back. " +
			"Queries already at the frequency are successes.",
		body: object(props{"ids": trackedBatchIDsSchema(), "checkFrequency": trackedFrequencySchema()},
			"ids", "checkFrequency"),
		response: trackedBatchAnswerSchema(sightline.ItemTrackedQueryNotFound),
		errors: map[int]string{
			404: "project_not_found.",
			409: "organization_is_archived, project_is_archived.",
		},
		writeFunc: s.handleBatchTrackedFrequency,
	})
	s.handle(route{
		method: http.MethodPut, pattern: trackedBase + "/batch/passes", id: "batchSetTrackedQueryPasses",
		tag: "tracked queries", summary: "Set the passes of several tracked queries", role: sightline.RoleManager,
		capability: sightline.CapabilityWrite,
		description: "Always 200 with successful and failed, in the order ids first appear; nothing is rolled back. A " +
			"google_serp or google_shopping query asked for more than 1 pass fails with n_passes_not_supported_for_engine.",
		body:     object(props{"ids": trackedBatchIDsSchema(), "nPasses": trackedPassesSchema()}, "ids", "nPasses"),
		response: trackedBatchAnswerSchema(sightline.ItemTrackedQueryNotFound, sightline.ItemNPassesNotSupported),
		errors: map[int]string{
			404: "project_not_found.",
			409: "organization_is_archived, project_is_archived.",
		},
		writeFunc: s.handleBatchTrackedPasses,
	})
	s.handle(route{
		method: http.MethodPut, pattern: trackedBase + "/batch/pause", id: "batchPauseTrackedQueries",
		tag: "tracked queries", summary: "Pause several tracked queries", role: sightline.RoleManager,
		capability: sightline.CapabilityWrite,
		description: "Always 200 with successful and failed, in the order ids first appear; already-paused queries are " +
			"successes. A retry must repeat the same ids in the same order, or the Idempotency-Key counts as reused.",
		body:     object(props{"ids": trackedBatchIDsSchema()}, "ids"),
		response: trackedBatchAnswerSchema(sightline.ItemTrackedQueryNotFound),
		errors: map[int]string{
			404: "project_not_found.",
			409: "organization_is_archived, project_is_archived.",
		},
		writeFunc: s.trackedBatchStatus("paused"),
	})
	s.handle(route{
		method: http.MethodPut, pattern: trackedBase + "/batch/resume", id: "batchResumeTrackedQueries",
		tag: "tracked queries", summary: "Resume several tracked queries", role: sightline.RoleManager,
		capability: sightline.CapabilityWrite,
		description: "Always 200 with successful and failed, in the order ids first appear; already-active queries are " +
			"successes. No check is run. A retry must repeat the same ids in the same order.",
		body:     object(props{"ids": trackedBatchIDsSchema()}, "ids"),
		response: trackedBatchAnswerSchema(sightline.ItemTrackedQueryNotFound),
		errors: map[int]string{
			404: "project_not_found.",
			409: "organization_is_archived, project_is_archived.",
		},
		writeFunc: s.trackedBatchStatus("active"),
	})
	s.handle(route{
		method: http.MethodPost, pattern: trackedBase + "/bulk-delete", id: "bulkDeleteTrackedQueries",
		tag: "tracked queries", summary: "Delete several tracked queries", role: sightline.RoleManager,
		capability: sightline.CapabilityWrite,
		description: "Hard delete, active or paused, with their cluster memberships. Their captured answers, matches, " +
			"search pages and rank history are removed by a background cascade; until it finishes the project's " +
			"dataDirtySince is set. Always 200 with successful and failed, in the order ids first appear.",
		body:     object(props{"ids": trackedBatchIDsSchema()}, "ids"),
		response: trackedBatchAnswerSchema(sightline.ItemTrackedQueryNotFound),
		errors: map[int]string{
			404: "project_not_found.",
			409: "organization_is_archived, project_is_archived.",
		},
		writeFunc: s.handleBulkDeleteTrackedQueries,
	})
	s.handle(route{
		method: http.MethodPut, pattern: trackedBase + "/bulk/clusters", id: "bulkAddTrackedQueryClusters",
		tag: "tracked queries", summary: "Add several tracked queries to clusters", role: sightline.RoleManager,
		capability: sightline.CapabilityWrite,
		description: "Adds every id to every cluster; existing memberships are skipped. Always 200 with successful and " +
			"failed per tracked query id, in the order ids first appear.",
		body: object(props{"ids": trackedBatchIDsSchema(), "queryClusterIds": trackedClusterIDsSchema()},
			"ids", "queryClusterIds"),
		response: trackedBatchAnswerSchema(sightline.ItemTrackedQueryNotFound),
		errors: map[int]string{
			400: "queryClusterIds[i] invalid_value: a cluster outside the project rejects the whole call; nothing is written.",
			404: "project_not_found.",
			409: "organization_is_archived, project_is_archived.",
		},
		writeFunc: s.trackedBulkMembershipWrite(true),
	})
	s.handle(route{
		method: http.MethodDelete, pattern: trackedBase + "/bulk/clusters", id: "bulkRemoveTrackedQueryClusters",
		tag: "tracked queries", summary: "Remove several tracked queries from clusters", role: sightline.RoleManager,
		capability: sightline.CapabilityWrite,
		description: "Requires a body. Removes every id from every cluster; absent memberships are skipped. Always 200 " +
			"with successful and failed per tracked query id, in the order ids first appear.",
		body: object(props{"ids": trackedBatchIDsSchema(), "queryClusterIds": trackedClusterIDsSchema()},
			"ids", "queryClusterIds"),
		response: trackedBatchAnswerSchema(sightline.ItemTrackedQueryNotFound),
		errors: map[int]string{
			400: "queryClusterIds[i] invalid_value: a cluster outside the project rejects the whole call; nothing is written.",
			404: "project_not_found.",
			409: "organization_is_archived, project_is_archived.",
		},
		writeFunc: s.trackedBulkMembershipWrite(false),
	})
	s.handle(route{
		method: http.MethodGet, pattern: "/api/v1/organizations/{organizationId}/projects/{projectId}/coverage",
		id: "getTrackedQueryCoverage", tag: "tracked queries",
		summary: "How well the project's check schedule keeps up", role: sightline.RoleViewer,
		description: "Reads the write model. overdue: active queries whose last completed check is older than their " +
			"frequency's interval (daily 1 day, weekly 7 days, monthly 30 days); neverChecked: active queries never checked, " +
			"disjoint from overdue. sample: up to 20 overdue queries, oldest last check first. Takes no parameters. " +
			"Archived projects answer.",
		response: s.coverageSchema(),
		errors:   map[int]string{404: "project_not_found."},
		read:     s.handleGetCoverage,
	})
	s.handle(route{
		method: http.MethodPut, pattern: trackedBase + "/check", id: "checkTrackedQueries",
		tag: "tracked queries", summary: "Check several tracked queries now", role: sightline.RoleManager,
		capability: sightline.CapabilityWrite,
		description: "Asks for a fresh check of each id now, ignoring recency; 200 with successful and failed in the " +
			"order ids first appear, and no job id. A success means accepted with budget reserved (or shared with the " +
			"query's check already pending, running or awaiting retry, at no extra cost), not that the check ran. Each " +
			"new check reserves one budget unit per pass of the query, ids earlier in the request first; the forecast " +
			"is pessimistic (units reserved by checks in flight count as spent), so an id failing with " +
			"check_budget_forecast_exhausted may be sent again later. subscription_not_found: the organization's most " +
			"recent subscription is not active, trialing or past_due within its current period (a cancelled one inside " +
			"its grace window included); nothing is accepted then. A retry must repeat the same ids in the same order.",
		body:     object(props{"ids": trackedBatchIDsSchema()}, "ids"),
		response: trackedBatchAnswerSchema(checkItemCodes...),
		errors: map[int]string{
			404: "project_not_found.",
			409: "organization_is_archived, project_is_archived.",
		},
		writeFunc: s.handleCheckTrackedQueries,
	})
	s.handle(route{
		method: http.MethodPut, pattern: trackedBase + "/check-all", id: "checkAllTrackedQueries",
		tag: "tracked queries", summary: "Check every eligible tracked query of the project now", role: sightline.RoleManager,
		capability: sightline.CapabilityWrite,
		description: "No body. Submits active queries without a check already running, least recently checked first " +
			"(never checked first), at most 1000. A query whose check is pending or awaiting retry on its engine is listed " +
			"at no extra cost (that check is shared; one awaiting retry keeps its retry schedule); a check in flight on an " +
			"engine the query no longer has is replaced and paid for. Every other query gets a new check reserving one " +
			"unit per pass; the list stops at the first that does not fit the units left (reserved ones count as spent). " +
			"Without an entitled subscription, and while a cancelled one is inside its grace window, nothing is submitted " +
			"and submitted is 0. Calling again lists the same queries until their checks start; finished checks are run " +
			"and charged again. No job id is returned.",
		response: checkAllSchema(),
		errors: map[int]string{
			404: "project_not_found.",
			409: "organization_is_archived, project_is_archived.",
		},
		writeFunc: s.handleCheckAllTrackedQueries,
	})
	s.handle(route{
		method: http.MethodPost, pattern: trackedBase + "/{trackedQueryId}/responses/{aiResponseId}/report",
		id: "reportAIResponse", tag: "tracked queries", summary: "Report a problem with a captured AI answer",
		role: sightline.RoleViewer, capability: sightline.CapabilityWrite,
		description: "Forwards the report to the review system, at most once; it changes nothing here and is never " +
			"shown again. 200 means accepted for review. The attempt is recorded as of unknown outcome before the " +
			"forward, and no transaction is held while the review system answers (a retry meanwhile answers 409 " +
			"idempotency_request_in_progress): if it does not accept the report, the answer is 502 and every retry with " +
			"the same Idempotency-Key answers 409 operation_outcome_uncertain (a new key may file the report twice).",
		body:     reportBodySchema(),
		response: reportAnswerSchema(),
		errors: map[int]string{
			404: "project_not_found, tracked_query_not_found, ai_response_not_found (no such AI answer of this tracked query).",
			409: "ai_check_session_unavailable: the answer cannot be routed to the check run that captured it; " +
				"organization_is_archived, project_is_archived.",
			502: "review_system_unavailable: the review system was unreachable or refused the report; the outcome is " +
				"unknown and the Idempotency-Key will not replay. With no review system configured nothing is sent and " +
				"the key stays unused.",
		},
		writeFunc: s.handleReportAIResponse,
	})
	s.handle(route{
		method: http.MethodGet, pattern: trackedBase + "/{trackedQueryId}/mention-matches", id: "listMentionMatches",
		tag: "tracked queries", summary: "Brands the tracked query's AI answers named", role: sightline.RoleViewer,
		description: "Stored mention matches, as classified when captured (never reclassified): own brand, tracked and " +
			"untracked competitors, each with mentionRelation; cited sources that name no brand in the text are not " +
			"matches. Ordered by detectedAt (the answer's capture time), ties by id in the same direction; sortOrder " +
			"desc (default) is newest first. dateFrom defaults to the retention floor (16 months back) and dateTo to " +
			"today, whole UTC days. Archived projects answer. CSV: the same page without total.",
		query: matchListingParams(), response: listingSchema(s.mentionMatchSchema()), csv: true,
		errors: matchListingErrors,
		read:   s.handleListMentionMatches,
	})
	s.handle(route{
		method: http.MethodGet, pattern: trackedBase + "/{trackedQueryId}/serp-matches", id: "listSerpMatches",
		tag: "tracked queries", summary: "The tracked query's search results on tracked domains", role: sightline.RoleViewer,
		description: "Stored serp matches: organic results of the query's search snapshots on the own brand's domains " +
			"(competitorId null) or a tracked competitor's, as classified when captured; a competitor's matches leave " +
			"with the competitor. Ordered by detectedAt (the page's capture time), ties by id in the same direction; " +
			"sortOrder desc (default) is newest first. dateFrom defaults to the retention floor (16 months back) and " +
			"dateTo to today, whole UTC days. Empty for queries on other engines. Archived projects answer. CSV: the " +
			"same page without total.",
		query: matchListingParams(), response: listingSchema(s.serpMatchSchema()), csv: true,
		errors: matchListingErrors,
		read:   s.handleListSerpMatches,
	})

	// Captures (spec 4.4).
	s.handle(route{
		method: http.MethodGet, pattern: "/api/v1/organizations/{organizationId}/projects/{projectId}/ai-responses",
		id: "listAIResponses", tag: "captures", summary: "Captured AI answers with their cited sources",
		role: sightline.RoleViewer,
		description: "One row per pass of a check on an AI engine; the passes of one run share trackedQueryId and " +
			"capturedAt and are listed together in pass order. Newest first. dateFrom is widened to 00:00:00.000 UTC and " +
			"dateTo to 23:59:59.999 UTC; dateFrom defaults to the retention floor (16 months back) and dateTo to today. " +
			"Captures of a tracked query deleted moments ago may show until the background cascade removes them. " +
			"Archived projects answer.",
		query:    captureListingParams(false),
		response: listingSchema(s.aiAnswerSchema()),
		errors:   captureListingErrors,
		read:     captureListing(s, false, CaptureReader.AIAnswers),
	})
	s.handle(route{
		method: http.MethodGet, pattern: "/api/v1/organizations/{organizationId}/projects/{projectId}/search-snapshots",
		id: "listSearchSnapshots", tag: "captures", summary: "Captured search pages with their organic results",
		role: sightline.RoleViewer,
		description: "One snapshot per completed google_serp check, with every organic result in rank order (empty when " +
			"the page had none). Ordered by capturedAt, ties by id in the same direction; sortOrder desc (default) is " +
			"newest first. Whole UTC days; dateFrom defaults to the retention floor (16 months back) and dateTo to today. " +
			"There is no engines filter. Archived projects answer.",
		query:    captureListingParams(true),
		response: listingSchema(s.searchSnapshotSchema()),
		errors:   captureListingErrors,
		read:     captureListing(s, true, CaptureReader.SearchSnapshots),
	})
	s.handle(route{
		method: http.MethodGet, pattern: "/api/v1/organizations/{organizationId}/projects/{projectId}/shopping-snapshots",
		id: "listShoppingSnapshots", tag: "captures", summary: "Captured shopping pages with their offers",
		role: sightline.RoleViewer,
		description: "One snapshot per completed google_shopping check, with every offer in rank order (empty when the " +
			"page had none); offers of one snapshot may carry different currencies. Ordered by capturedAt, ties by id in " +
			"the same direction; sortOrder desc (default) is newest first. Whole UTC days; dateFrom defaults to the " +
			"retention floor (16 months back) and dateTo to today. There is no engines filter. Archived projects answer.",
		query:    captureListingParams(true),
		response: listingSchema(s.shoppingSnapshotSchema()),
		errors:   captureListingErrors,
		read:     captureListing(s, true, CaptureReader.ShoppingSnapshots),
	})
	// (end of tracked queries)

	s.analyticsRoutes()
	s.proposalRoutes()
}
