package api

import (
	"github.com/getkin/kin-openapi/openapi3"

	"github.com/sightline/sightline/olap"
)

// GET /cited-sources: the domains or pages AI answers cite (routes in
// analytics_mentions.go).

func citedSourceParams() []*openapi3.Parameter {
	params := append(analyticsWindowParams(), analyticsEnginesParam(),
		openapi3.NewQueryParameter("groupBy").WithSchema(enumOf("domain", "page").WithDefault("domain")).
			WithDescription("domain: one row per host (url null); page: one row per cited URL."))
	return append(params, pagingParams()...)
}

func (s *server) citedSourcesSchema() *openapi3.Schema {
	source := s.component("CitedSource", object(props{
		"domain": described(nullable(stringSchema()), "Host without www."),
		"url":    described(nullable(stringSchema()), "The cited page; null when groupBy is domain."),
		"citationCount": described(mixCountSchema(),
			"Times answers cite it (an answer citing two pages of a domain counts twice for the domain)."),
		"distinctResponseCount": described(mixCountSchema(), "Distinct AI answers citing it."),
		"distinctQueryCount":    described(mixCountSchema(), "Distinct tracked queries whose answers cite it."),
		"avgPosition": described(nullable(openapi3.NewFloat64Schema().WithMin(1)),
			"Mean 1-based position among the answer's cited sources."),
		"sampleTitle": described(nullable(stringSchema()), "A title it was cited with; null when none had one."),
	}, "domain", "url", "citationCount", "distinctResponseCount", "distinctQueryCount", "avgPosition", "sampleTitle"))
	return s.component("CitedSources", object(props{
		"sources": arrayOf(source),
		"total":   described(mixCountSchema(), "Domains or pages cited in the window, not the page size."),
	}, "sources", "total"))
}

// citedSources is the answer of GET /cited-sources.
type citedSourcesAnswer struct {
	Sources []olap.CitedSource `json:"sources"`
	Total   int                `json:"total"`
}

func (s *server) handleCitedSources(r *request) (any, error) {
	_, scope, err := s.projectAnalyticsScope(r, ungroupedWidens)
	if err != nil {
		return nil, err
	}
	f := olap.CitedSourceFilter{ByPage: r.query.string("groupBy") == "page"}
	f.Limit, f.Offset = r.query.page()
	sources, total, err := s.analytics.CitedSources(r.Context(), scope, f)
	if err != nil {
		return nil, err
	}
	return citedSourcesAnswer{Sources: sources, Total: total}, nil
}
