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
	// (end of organizations)

	// Projects, brand profiles and competitors (spec 4.6).
	// (end of projects)

	// Keyword clusters (spec 4.7).
	// (end of clusters)

	// Tracked queries (spec 4.2).
	// (end of tracked queries)
}
