package api

import (
	"net/http"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/jackc/pgx/v5"

	"github.com/sightline/sightline"
	"github.com/sightline/sightline/jobs"
	"github.com/sightline/sightline/oltp"
)

// Competitors of a project's brand profile (spec 2.5, 4.6).
//
// Decisions where the spec is silent:
//   - GET, PUT, DELETE and POST of a competitor under a project without a
//     brand profile answer 404 (a competitor cannot exist without one),
//     organization_not_found like every hidden resource (spec 7.2).
//   - DELETE marks the project's data dirty from its creation on, since the
//     removal changes history, until the cascade job has finished.

// competitorBody is a competitor on write, alone or inside a project create.
type competitorBody struct {
	Name           string   `json:"name" required:"true"`
	WebsiteDomains []string `json:"websiteDomains" required:"true" validate:"min=1"`
	BrandNames     []string `json:"brandNames" required:"true" validate:"min=1"`
}

func (b *competitorBody) normalize(errs sightline.ValidationErrors) { b.normalizeAt("", errs) }

// normalizeAt normalises the competitor, reporting problems under prefix.
func (b *competitorBody) normalizeAt(prefix string, errs sightline.ValidationErrors) {
	b.Name = oltp.NormalizeName(prefix+"name", b.Name, oltp.MaxCompetitorNameLength, errs)
	b.WebsiteDomains = oltp.NormalizeDomains(prefix+"websiteDomains", b.WebsiteDomains, errs)
	b.BrandNames = oltp.NormalizeBrandNames(prefix+"brandNames", b.BrandNames, errs)
}

func (b *competitorBody) competitor() oltp.NewCompetitor {
	return oltp.NewCompetitor{Name: b.Name, BrandLists: oltp.BrandLists{WebsiteDomains: b.WebsiteDomains, BrandNames: b.BrandNames}}
}

func (s *server) handleCreateCompetitor(r *request, tx pgx.Tx) (int, any, error) {
	in, p, err := decodeForProject[competitorBody](s, r, tx)
	if err != nil {
		return 0, nil, err
	}
	if !p.HasBrandProfile {
		return 0, nil, sightline.Errorf(sightline.CodeBrandProfileNotFound, "The project has no brand profile; competitors belong to it.")
	}
	c, err := oltp.CreateCompetitor(r.Context(), tx, p.ID, in.competitor())
	return http.StatusCreated, c, err
}

func (s *server) handleReplaceCompetitor(r *request, tx pgx.Tx) (int, any, error) {
	in, err := decodeNormalized[competitorBody](r.body)
	if err != nil {
		return 0, nil, err
	}
	p, id, err := s.projectItemForWrite(r, tx, "competitorId", sightline.CodeCompetitorNotFound)
	if err != nil {
		return 0, nil, err
	}
	c, err := oltp.ReplaceCompetitor(r.Context(), tx, r.organizationID, p.ID, id, in.competitor())
	return http.StatusOK, c, err
}

// handleDeleteCompetitor removes the competitor and, in the same
// transaction, registers the cascade that removes what was attributed to
// it and enqueues the job that runs it.
func (s *server) handleDeleteCompetitor(r *request, tx pgx.Tx) (int, any, error) {
	p, err := s.projectForUpdate(r, tx)
	if err != nil {
		return 0, nil, err
	}
	id, err := r.pathUUID("competitorId", sightline.CodeCompetitorNotFound)
	if err != nil {
		return 0, nil, err
	}
	ctx := r.Context()
	c, err := oltp.DeleteCompetitor(ctx, tx, r.organizationID, p.ID, id)
	if err != nil {
		return 0, nil, err
	}
	cascadeID, err := oltp.BeginCascade(ctx, tx, p.ID, "competitor", c.ID)
	if err != nil {
		return 0, nil, err
	}
	_, err = s.jobs.InsertTx(ctx, tx, jobs.CompetitorCascadeArgs{
		CascadeID: cascadeID, OrganizationID: r.organizationID, ProjectID: p.ID, CompetitorID: c.ID,
	}, nil)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, c, nil
}

func (s *server) competitorSchema() *openapi3.Schema {
	return s.component("Competitor", object(props{
		"id":             described(uuidSchema(), "v7: ordering by id is roughly creation order."),
		"name":           stringSchema().WithMinLength(1).WithMaxLength(oltp.MaxCompetitorNameLength),
		"websiteDomains": domainListSchema(),
		"brandNames":     brandNameListSchema(),
	}, "id", "name", "websiteDomains", "brandNames"))
}

func competitorInputSchema() *openapi3.Schema {
	return object(props{
		"name": described(stringSchema().WithMinLength(1).WithMaxLength(oltp.MaxCompetitorNameLength),
			"Trimmed; 1 to 200 characters, no control characters."),
		"websiteDomains": domainInputSchema(),
		"brandNames":     brandNameInputSchema(),
	}, "name", "websiteDomains", "brandNames")
}

// competitorRoutes lists the operations on a project's competitors (spec 4.6).
func (s *server) competitorRoutes(projects routeGroup) {
	projects.handle(route{
		method: http.MethodGet, pattern: projectBase + "/competitors", id: "listCompetitors",
		summary: "A project's competitors",
		description: "Ordered by id (creation order); only the direction can be chosen: sortBy and search are not " +
			"parameters of this operation and are rejected. A project without a brand profile has none.",
		query: projectPageParams("Direction of the id order (creation order)."), response: listingSchema(s.competitorSchema()), csv: true,
		errors: map[int]string{404: projectNotFound},
		read:   projectPageListing(s, oltp.ListCompetitors),
	})
	projects.handle(route{
		method: http.MethodPost, pattern: projectBase + "/competitors", id: "createCompetitor",
		summary: "Add a competitor",
		description: "Lists are normalised as on project creation. Applies to checks from then on; captured answers are " +
			"not re-matched. Answers the competitor as stored.",
		body: competitorInputSchema(), status: http.StatusCreated, response: s.competitorSchema(),
		errors:    projectWriteErrors("organization_not_found: no accessible project has the id, or it has no brand profile."),
		writeFunc: s.handleCreateCompetitor,
	})
	projects.handle(route{
		method: http.MethodGet, pattern: projectBase + "/competitors/{competitorId}", id: "getCompetitor",
		summary:  "One competitor",
		response: s.competitorSchema(),
		errors:   map[int]string{404: "organization_not_found: no accessible project, or no competitor of it, has the id (also when the project has no brand profile)."},
		read:     projectItemRead(s, "competitorId", sightline.CodeCompetitorNotFound, oltp.GetCompetitor),
	})
	projects.handle(route{
		method: http.MethodPut, pattern: projectBase + "/competitors/{competitorId}", id: "replaceCompetitor",
		summary: "Replace a competitor's name, website domains and brand names",
		description: "All three fields are required and replace the stored ones; the lists must stay non-empty. Applies " +
			"to checks from then on.",
		body: competitorInputSchema(), response: s.competitorSchema(),
		errors:    projectWriteErrors("organization_not_found: no accessible project, or no competitor of it, has the id."),
		writeFunc: s.handleReplaceCompetitor,
	})
	projects.handle(route{
		method: http.MethodDelete, pattern: projectBase + "/competitors/{competitorId}", id: "deleteCompetitor",
		summary: "Remove a competitor",
		description: "No body (a body gives 400). Answers the competitor as it was before removal. Every stored mention, " +
			"search result and shopping result attributed to it is removed asynchronously and permanently, changing " +
			"historical analytics; until that has finished, the project's analytics report dataDirtySince (from the " +
			"project's creation on).",
		response:  s.competitorSchema(),
		errors:    projectWriteErrors("organization_not_found: no accessible project, or no competitor of it, has the id."),
		writeFunc: s.handleDeleteCompetitor,
	})
}
