package api

import (
	"net/http"
	"strconv"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/sightline/sightline"
	"github.com/sightline/sightline/olap"
	"github.com/sightline/sightline/oltp"
)

// The keyword listing: one row per distinct keyword text of the project,
// over its variants (the tracked queries with that text, one per engine
// and country) that match every filter. It answers JSON only (spec 4.0).

func (s *server) keywordListingsRoute() route {
	return route{
		method: http.MethodGet, pattern: projectBase + "/keyword-listings", id: "listKeywordListings",
		summary: "Keywords with the own brand's figures over their variants",
		description: "One row per distinct keyword (normalised query text) having a tracked query (variant: one per " +
			"engine and country) that matches every filter; variantIds lists those variants (by id, that is creation " +
			"order), and only they count in the row. statusSummary: active or paused when every variant is, else mixed. " +
			"lastCheckedAt: the latest completed check of any variant (write model), null when none completed one. " +
			"Figures cover the window over the variants' completed captures, null when none measured them: share of " +
			"voice, positivity index and mention rate with their 95% Wilson intervals, average mention, link, SERP " +
			"and shopping positions, mentionPositionStability (population standard deviation of the mention " +
			"positions, lower is steadier; null under 2) and mentionTypeCounts (own mentions by type; counters). " +
			"Trends compare with the equally long window just before, signed so that positive means improved: current " +
			"minus previous for share of voice and positivity index, previous minus current for positions; null when " +
			"either window has no value. Every keyword is ordered before the page is cut; rows without a value of the " +
			"sortBy key come last in either direction; ties go by keyword. total counts the keywords; " +
			"totalVariantCount the variants matching every filter except search. Memberships of clusters are today's. " +
			"JSON only: an Accept header asking for anything else (text/csv, for one) is answered JSON all the same.",
		query:    keywordListingParams(),
		response: s.keywordListingSchema(),
		errors: map[int]string{
			400: analyticsWindowErrors(keywordListingParams()) + " status, checkFrequencies, sortBy and sortOrder invalid_value outside their " +
				"values; nPasses invalid_type when not an integer, out_of_range outside 1-10; search out_of_range over " +
				"100 characters; limit out_of_range outside 1-100; offset out_of_range below 0.",
			404: projectNotFound,
		},
		read: s.handleKeywordListings,
	}
}

func keywordListingParams() []*openapi3.Parameter {
	return append(append(analyticsFilterParams(ungroupedNarrowsAlone),
		openapi3.NewQueryParameter("status").WithSchema(enumFrom(sightline.TrackedQueryStatuses)).
			WithDescription("Only variants in this state."),
		openapi3.NewQueryParameter("checkFrequencies").WithSchema(arrayOf(enumFrom(sightline.CheckFrequencies))).
			WithDescription("Only variants checked at one of these frequencies. Repeatable or comma-separated."),
		openapi3.NewQueryParameter("nPasses").WithSchema(arrayOf(integerSchema().WithMin(1).WithMax(10))).
			WithDescription("Only variants configured with one of these numbers of passes (1-10). Repeatable or "+
				"comma-separated."),
		openapi3.NewQueryParameter("search").WithSchema(stringSchema().WithMaxLength(100)).
			WithDescription("Only keywords containing this text, case-insensitively (white space folded as in stored "+
				"texts). Does not change totalVariantCount."),
		openapi3.NewQueryParameter("sortBy").WithSchema(enumOf(olap.KeywordSorts...).WithDefault(string(olap.KeywordSortKeyword))).
			WithDescription("Rows without a value of the key come last in either order; ties go by keyword."),
		openapi3.NewQueryParameter("sortOrder").WithSchema(enumOf("asc", "desc").WithDefault("asc"))),
		pagingParams()...)
}

func (s *server) keywordListingSchema() *openapi3.Schema {
	number := func(s *openapi3.Schema, description string) *openapi3.Schema {
		return described(nullable(s), description)
	}
	percent := func(description string) *openapi3.Schema {
		return number(openapi3.NewFloat64Schema().WithMin(0).WithMax(100), description)
	}
	position := func(what string) *openapi3.Schema {
		return number(openapi3.NewFloat64Schema().WithMin(1), "Average "+what+" in the window, 1-based, lower is "+
			"better; null when none was observed.")
	}
	trend := func(what string) *openapi3.Schema {
		return number(openapi3.NewFloat64Schema(), what+"; null when either window has no value.")
	}
	counter := func() *openapi3.Schema { return integerSchema().WithMin(0) }
	row := s.component("KeywordListingRow", object(props{
		"keyword": described(stringSchema(), "The normalised query text shared by the variants."),
		"variantIds": described(arrayOf(uuidSchema()), "The tracked queries behind the row that match every "+
			"filter, by id."),
		"variantCount":  described(integerSchema().WithMin(1), "Length of variantIds."),
		"statusSummary": enumOf("active", "paused", "mixed"),
		"lastCheckedAt": described(nullable(timeSchema()), "Latest completed check of any variant; null when none."),
		"shareOfVoice": percent("The own brand's summed mention worth over every brand's in the variants' AI " +
			"answers, x100; null when no brand was mentioned."),
		"shareOfVoiceInterval":    s.intervalSchema(),
		"positivityIndex":         percent("100 x (positive + 0.5 x neutral) / own mentions; null without own mentions."),
		"positivityIndexInterval": s.intervalSchema(),
		"mentionRate":             percent("100 x AI answers naming the own brand / AI answers captured; null without AI answers."),
		"mentionRateInterval":     s.intervalSchema(),
		"avgMentionPosition":      position("own brand's rank among the brands an AI answer names"),
		"avgLinkPosition":         position("position of the first cited source on an own domain"),
		"mentionPositionStability": number(openapi3.NewFloat64Schema().WithMin(0), "Population standard deviation "+
			"of the own mention positions; lower is steadier; null under 2 positions."),
		"avgSerpPosition":     position("best own organic rank per search snapshot"),
		"avgShoppingPosition": position("best own offer rank per shopping snapshot"),
		"mentionTypeCounts": described(object(props{
			"recommendation": counter(), "comparison": counter(), "listing": counter(), "example": counter(),
			"reference": counter(),
		}, "recommendation", "comparison", "listing", "example", "reference"), "Own mentions in the window by type."),
		"trendShareOfVoice":    trend("Current minus previous share of voice, in points"),
		"trendPositivityIndex": trend("Current minus previous positivity index, in points"),
		"trendMention":         trend("Previous minus current average mention position"),
		"trendLink":            trend("Previous minus current average link position"),
		"trendSerp":            trend("Previous minus current average SERP position"),
		"trendShopping":        trend("Previous minus current average shopping position"),
	}, "keyword", "variantIds", "variantCount", "statusSummary", "lastCheckedAt", "shareOfVoice",
		"shareOfVoiceInterval", "positivityIndex", "positivityIndexInterval", "mentionRate", "mentionRateInterval",
		"avgMentionPosition", "avgLinkPosition", "mentionPositionStability", "avgSerpPosition", "avgShoppingPosition",
		"mentionTypeCounts", "trendShareOfVoice", "trendPositivityIndex", "trendMention", "trendLink", "trendSerp",
		"trendShopping"))
	return object(props{
		"page":              arrayOf(row),
		"total":             described(integerSchema().WithMin(0), "Keywords matching the filters, not the page size."),
		"totalVariantCount": described(integerSchema().WithMin(0), "Variants matching every filter except search."),
		"dataDirtySince":    dataDirtySinceSchema(),
	}, "page", "total", "totalVariantCount", "dataDirtySince")
}

// keywordListingAnswer is the body of GET /keyword-listings.
type keywordListingAnswer struct {
	Page              []olap.KeywordRow    `json:"page"`
	Total             int                  `json:"total"`
	TotalVariantCount int                  `json:"totalVariantCount"`
	DataDirtySince    *sightline.Timestamp `json:"dataDirtySince"`
}

func (s *server) handleKeywordListings(r *request) (any, error) {
	p, scope, err := s.projectAnalyticsScope(r, ungroupedNarrowsAlone)
	if err != nil {
		return nil, err
	}
	q := r.query
	filter := oltp.KeywordFilter{
		ProjectID: p.ID, Engines: engineNames(scope.Engines), Countries: scope.Countries,
		TrackedQueryIDs: scope.TrackedQueryIDs, Status: q.string("status"),
		CheckFrequencies: q.strings("checkFrequencies"), NPasses: intsOf(q.strings("nPasses")), Search: q.string("search"),
	}
	keywords, err := oltp.Keywords(r.Context(), s.pool, filter)
	if err != nil {
		return nil, err
	}
	limit, offset := q.page()
	req := olap.KeywordListingRequest{
		SortBy: olap.KeywordSort(q.string("sortBy")), Ascending: q.string("sortOrder") == "asc",
		Limit: limit, Offset: offset,
	}
	answer := keywordListingAnswer{DataDirtySince: dataDirtySince(p)}
	for _, k := range keywords {
		answer.TotalVariantCount += len(k.VariantIDs)
		if k.MatchesSearch {
			req.Keywords = append(req.Keywords, olap.KeywordVariants{Keyword: k.Text, VariantIDs: k.VariantIDs,
				Active: k.Active, Paused: k.Paused, LastCheckedAt: k.LastCheckedAt})
		}
	}
	answer.Total = len(req.Keywords)
	if answer.Page, err = s.analytics.KeywordListing(r.Context(), scope, req); err != nil {
		return nil, err
	}
	return answer, nil
}

// intsOf parses values the query check has already found to be integers.
func intsOf(values []string) []int {
	out := make([]int, len(values))
	for i, v := range values {
		out[i], _ = strconv.Atoi(v)
	}
	return out
}
