package api

import (
	"net/http"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/sightline/sightline/oltp"
)

func organizationListParams() []*openapi3.Parameter {
	return append(pagingParams(),
		openapi3.NewQueryParameter("search").WithSchema(stringSchema().WithMaxLength(100)),
		openapi3.NewQueryParameter("status").WithSchema(enumOf("active", "archived")),
		openapi3.NewQueryParameter("sortBy").WithSchema(enumOf("createdAt", "name").WithDefault("createdAt")),
		openapi3.NewQueryParameter("sortOrder").WithSchema(enumOf("asc", "desc").WithDefault("desc")),
	)
}

func (s *server) handleListOrganizations(r *request) (any, error) {
	q := r.query
	limit, offset := q.page()
	f := oltp.OrganizationFilter{
		UserID:     r.key.User.ID,
		Search:     q.string("search"),
		Status:     q.string("status"),
		SortBy:     q.string("sortBy"),
		Descending: q.string("sortOrder") == "desc",
		Limit:      limit,
		Offset:     offset,
	}
	if !r.key.AllOrganizations {
		f.OrganizationIDs = r.key.OrganizationIDs
	}
	page, total, err := oltp.ListOrganizations(r.Context(), s.pool, f)
	if err != nil {
		return nil, err
	}
	return listing[oltp.Organization]{Page: page, Total: total, Limit: limit, Offset: offset}, nil
}

func (s *server) organizationSchema() *openapi3.Schema {
	return s.component("Organization", object(props{
		"id":           uuidSchema(),
		"name":         stringSchema().WithMinLength(3).WithMaxLength(100),
		"description":  nullable(stringSchema()),
		"contactEmail": nullable(stringSchema().WithFormat("email")),
		"imageUrl":     described(nullable(stringSchema()), "Read-only here."),
		"status":       enumOf("active", "archived"),
		"createdAt":    timeSchema(),
	}, "id", "name", "description", "contactEmail", "imageUrl", "status", "createdAt"))
}

// organizationRoutes lists the reads of organizations (spec 4.5).
func (s *server) organizationRoutes(organizations routeGroup) {
	s.handle(route{
		method: http.MethodGet, pattern: "/api/v1/organizations", id: "listOrganizations", tag: "organizations",
		summary:     "Organizations the key's owner is an active member of, narrowed to the key's scope",
		query:       organizationListParams(),
		response:    listingSchema(s.organizationSchema()),
		csv:         true,
		read:        s.handleListOrganizations,
		description: "Search is a case-insensitive substring of the name.",
	})
	organizations.handle(route{
		method: http.MethodGet, pattern: "/api/v1/organizations/{organizationId}", id: "getOrganization",
		summary:  "One organization",
		response: s.organizationSchema(),
		read:     organizationRead(s, oltp.GetOrganization),
	})
}
