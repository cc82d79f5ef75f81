package api

import (
	"github.com/getkin/kin-openapi/openapi3"

	"github.com/sightline/sightline"
	"github.com/sightline/sightline/oltp"
)

// GET /available-filters: the values a project's analytics filters accept
// (routes in analytics_mentions.go).

func (s *server) availableFiltersSchema() *openapi3.Schema {
	return s.component("AvailableFilters", object(props{
		"engines": described(arrayOf(enumFrom(sightline.Engines)),
			"Engines the project's tracked queries use, in the order chatgpt, perplexity, google_ai_overview, "+
				"google_ai_mode, google_serp, google_shopping."),
		"countries": described(arrayOf(stringSchema().WithMinLength(2).WithMaxLength(2)),
			"ISO 3166-1 alpha-2 codes the project's tracked queries use, A-Z."),
		"clusters": described(arrayOf(s.clusterSchema()), "The project's keyword clusters, by name."),
	}, "engines", "countries", "clusters"))
}

func (s *server) handleAvailableFilters(r *request) (any, error) {
	p, err := s.projectForRead(r)
	if err != nil {
		return nil, err
	}
	return oltp.ProjectAvailableFilters(r.Context(), s.pool, p.ID)
}
