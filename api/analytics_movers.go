package api

import (
	"net/http"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/sightline/sightline"
	"github.com/sightline/sightline/olap"
	"github.com/sightline/sightline/oltp"
)

// Analytics per tracked query and per keyword: the movers (which tracked
// queries gained or lost most against the previous window) and the keyword
// listing (analytics_keywords.go). Both compare the window with the equally
// long one before it and sign every trend so that positive means improved.

// queryAnalyticsRoutes registers GET /metrics/movers and GET /keyword-listings.
func (s *server) queryAnalyticsRoutes(analytics routeGroup) {
	analytics.handle(s.moversRoute())
	analytics.handle(s.keywordListingsRoute())
}

// moversSignificance documents the significant flag.
const moversSignificance = "significant says whether the change of the sortBy figure is larger than chance at the " +
	"95% level. trend_share_of_voice: a pooled two-proportion z-test, |z| > 1.96, of the two windows' shares, each " +
	"over n = mentions of every brand in its window (shareOfVoiceInterval.n). trend_serp, trend_shopping, " +
	"trend_mention, trend_link: Welch's two-sided t-test (unequal variances, Welch-Satterthwaite degrees of freedom), " +
	"p < 0.05, on the positions of each window, computed from their count, sum and sum of squares. false when the " +
	"trend is null, when a window has fewer than 2 positions (t-test) or no mention of any brand (z-test); when " +
	"neither window's positions vary at all, any change of the average is significant."

func (s *server) moversRoute() route {
	return route{
		method: http.MethodGet, pattern: projectBase + "/metrics/movers", id: "getMetricsMovers",
		summary: "Tracked queries whose figures gained or lost most against the previous window",
		description: "One row per current tracked query (within engines and countries) with at least one completed " +
			"capture in the window or in the equally long window just before it (the previous window). A row's figures " +
			"cover the window: average SERP, shopping, mention and link positions (lower is better) and the own brand's " +
			"share of voice and positivity index with their 95% Wilson intervals; each is null when no completed " +
			"capture measured it. Trends compare with the previous window, signed so that positive means improved: " +
			"previous minus current for positions, current minus previous for share of voice; null when either window " +
			"has no value. Rows are ordered by the sortBy trend, sortOrder desc (default: top gainers first) or asc " +
			"(top losers first); rows whose trend is null come last in both directions; ties go by queryText, engine, " +
			"country and trackedQueryId. total counts every row, not the page. " + moversSignificance,
		query:    moversParams(),
		response: s.moversSchema(),
		errors: analyticsErrors("dateFrom or dateTo missing_field, or invalid_value when not a YYYY-MM-DD date; dateFrom out_of_range " +
			"before the retention floor (16 months before today, UTC); dateTo out_of_range before dateFrom; engines " +
			"invalid_value; countries invalid_value when not a country or not configured on the project; sortBy and " +
			"sortOrder invalid_value outside their values; limit out_of_range outside 1-100; offset out_of_range below " +
			"0; unknown_field for any other parameter (queryClusterIds included: movers take no cluster filter)."),
		read: s.handleMovers,
	}
}

func moversParams() []*openapi3.Parameter {
	return append(append(append(analyticsWindowParams(), analyticsEnginesParam(), analyticsCountriesParam()),
		openapi3.NewQueryParameter("sortBy").WithSchema(enumOf(olap.MoverSorts...).WithDefault(string(olap.MoverTrendShareOfVoice))).
			WithDescription("The trend rows are ordered by, and whose change significant judges."),
		openapi3.NewQueryParameter("sortOrder").WithSchema(enumOf("asc", "desc").WithDefault("desc")).
			WithDescription("desc: largest improvement first (top gainers); asc: largest decline first (top losers). "+
				"Rows without a value of the trend come last either way.")),
		pagingParams()...)
}

func (s *server) moversSchema() *openapi3.Schema {
	position := func(what string) *openapi3.Schema {
		return described(nullable(openapi3.NewFloat64Schema().WithMin(1)),
			"Average "+what+" in the window, 1-based, lower is better; null when none was observed.")
	}
	trend := func(what string) *openapi3.Schema {
		return described(nullable(openapi3.NewFloat64Schema()), what+"; null when either window has no value.")
	}
	percent := func(what string) *openapi3.Schema {
		return described(nullable(openapi3.NewFloat64Schema().WithMin(0).WithMax(100)), what)
	}
	row := s.component("MoverRow", object(props{
		"trackedQueryId":      uuidSchema(),
		"queryText":           stringSchema(),
		"engine":              enumFrom(sightline.Engines),
		"country":             described(stringSchema().WithMinLength(2).WithMaxLength(2), "ISO 3166-1 alpha-2."),
		"avgSerpPosition":     position("best own organic rank per search snapshot"),
		"avgShoppingPosition": position("best own offer rank per shopping snapshot"),
		"avgMentionPosition":  position("own brand's rank among the brands an AI answer names"),
		"avgLinkPosition":     position("position of the first cited source on an own domain"),
		"shareOfVoice": percent("The own brand's summed mention worth over every brand's, x100; null when no brand " +
			"was mentioned in the window's answers."),
		"shareOfVoiceInterval":    s.intervalSchema(),
		"positivityIndex":         percent("100 x (positive + 0.5 x neutral) / own mentions; null without own mentions."),
		"positivityIndexInterval": s.intervalSchema(),
		"trendSerp":               trend("Previous minus current average SERP position (positive: moved up)"),
		"trendShopping":           trend("Previous minus current average shopping position (positive: moved up)"),
		"trendMention":            trend("Previous minus current average mention position (positive: named earlier)"),
		"trendLink":               trend("Previous minus current average link position (positive: cited earlier)"),
		"trendShareOfVoice":       trend("Current minus previous share of voice, in points (positive: gained)"),
		"significant":             described(boolSchema(), moversSignificance),
	}, "trackedQueryId", "queryText", "engine", "country", "avgSerpPosition", "avgShoppingPosition",
		"avgMentionPosition", "avgLinkPosition", "shareOfVoice", "shareOfVoiceInterval", "positivityIndex",
		"positivityIndexInterval", "trendSerp", "trendShopping", "trendMention", "trendLink", "trendShareOfVoice",
		"significant"))
	return object(props{
		"rows":           arrayOf(row),
		"total":          described(integerSchema().WithMin(0), "Rows in all, not the page size."),
		"dataDirtySince": dataDirtySinceSchema(),
	}, "rows", "total", "dataDirtySince")
}

// moversAnswer is the body of GET /metrics/movers.
type moversAnswer struct {
	Rows           []olap.Mover         `json:"rows"`
	Total          int                  `json:"total"`
	DataDirtySince *sightline.Timestamp `json:"dataDirtySince"`
}

func (s *server) handleMovers(r *request) (any, error) {
	p, scope, err := s.projectAnalyticsScope(r, ungroupedWidens)
	if err != nil {
		return nil, err
	}
	labels, err := oltp.TrackedQueryLabels(r.Context(), s.pool, p.ID, engineNames(scope.Engines), scope.Countries)
	if err != nil {
		return nil, err
	}
	queries := make([]olap.MoverQuery, len(labels))
	for i, l := range labels {
		queries[i] = olap.MoverQuery{ID: l.ID, QueryText: l.QueryText, Engine: l.Engine, Country: l.Country}
	}
	limit, offset := r.query.page()
	rows, total, err := s.analytics.Movers(r.Context(), scope, olap.MoversRequest{
		Queries: queries, SortBy: olap.MoverSort(r.query.string("sortBy")),
		Ascending: r.query.string("sortOrder") == "asc", Limit: limit, Offset: offset,
	})
	if err != nil {
		return nil, err
	}
	return moversAnswer{Rows: rows, Total: total, DataDirtySince: dataDirtySince(p)}, nil
}

// engineNames are engines as the stores take them.
func engineNames(engines []sightline.Engine) []string {
	out := make([]string, len(engines))
	for i, e := range engines {
		out[i] = string(e)
	}
	return out
}
