package api

import (
	"maps"
	"net/http"
	"slices"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/google/uuid"

	"github.com/sightline/sightline"
	"github.com/sightline/sightline/olap"
	"github.com/sightline/sightline/oltp"
)

// The headline metrics (spec 4.3, 2.9): GET /metrics, /metrics/clusters and
// /metrics/share-of-voice-formula of a project, the organization overview
// (overview.go) and the metric glossary (glossary.go).

// Handlers.

type metricsResponse struct {
	*olap.Metrics
	DataDirtySince *sightline.Timestamp `json:"dataDirtySince"`
}

func (s *server) handleMetrics(r *request) (any, error) {
	p, scope, names, err := s.analyticsCompetitors(r, ungroupedWidens)
	if err != nil {
		return nil, err
	}
	competitors := make([]olap.Competitor, len(names))
	for i, c := range names {
		competitors[i] = olap.Competitor{ID: c.ID, Name: c.Name}
	}
	m, err := s.analytics.Metrics(r.Context(), scope, competitors)
	if err != nil {
		return nil, err
	}
	return metricsResponse{Metrics: m, DataDirtySince: dataDirtySince(p)}, nil
}

type clusterMetricsResponse struct {
	Rows           []olap.ClusterMetrics `json:"rows"`
	DataDirtySince *sightline.Timestamp  `json:"dataDirtySince"`
}

func (s *server) handleClusterMetrics(r *request) (any, error) {
	p, scope, err := s.projectAnalyticsScope(r, ungroupedNarrowsAlone)
	if err != nil {
		return nil, err
	}
	q := r.query
	ungrouped := q.string("includeUngroupedQueries") == "true"
	filter := oltp.ClusterMembersFilter{ProjectID: p.ID, Engines: engineNames(scope.Engines), Countries: scope.Countries}
	switch {
	case q.has("queryClusterIds"):
		filter.ClusterIDs = uuidsOf(q.strings("queryClusterIds"))
	case ungrouped:
		filter.ClusterIDs = []uuid.UUID{} // alone: only the ungrouped bucket
	}
	clusters, ungroupedIDs, err := oltp.ClusterMemberships(r.Context(), s.pool, filter)
	if err != nil {
		return nil, err
	}
	groups := make([]olap.QueryGroup, 0, len(clusters)+1)
	for _, c := range clusters {
		groups = append(groups, olap.QueryGroup{ClusterID: &c.ID, ClusterName: &c.Name, TrackedQueryIDs: c.TrackedQueryIDs})
	}
	if ungrouped {
		groups = append(groups, olap.QueryGroup{TrackedQueryIDs: ungroupedIDs})
	}
	rows, err := s.analytics.ClusterMetrics(r.Context(), scope, groups)
	if err != nil {
		return nil, err
	}
	return clusterMetricsResponse{Rows: rows, DataDirtySince: dataDirtySince(p)}, nil
}

// shareOfVoiceFormula is the answer of GET /metrics/share-of-voice-formula.
type shareOfVoiceFormula struct {
	MentionTypeWeights    map[sightline.MentionType]float64 `json:"mentionTypeWeights"`
	SentimentMultipliers  map[sightline.Tone]float64        `json:"sentimentMultipliers"`
	ConditionalMultiplier float64                           `json:"conditionalMultiplier"`
	DirectMultiplier      float64                           `json:"directMultiplier"`
}

func (s *server) handleShareOfVoiceFormula(r *request) (any, error) {
	if _, err := s.projectForRead(r); err != nil {
		return nil, err
	}
	return shareOfVoiceFormula{
		MentionTypeWeights:    sightline.MentionTypeWeights,
		SentimentMultipliers:  sightline.SentimentMultipliers,
		ConditionalMultiplier: sightline.ConditionalMultiplier,
		DirectMultiplier:      sightline.DirectMultiplier,
	}, nil
}

// Schemas.

// metricsPercent documents a nullable percentage.
func metricsPercent(text string) *openapi3.Schema {
	return described(nullable(openapi3.NewFloat64Schema().WithMin(0).WithMax(100)), text)
}

// metricsPosition documents a nullable 1-based position.
func metricsPosition(text string) *openapi3.Schema {
	return described(nullable(openapi3.NewFloat64Schema().WithMin(1)), text+" Lower is better; null without an observation.")
}

// metricsCounter documents a counter, never null.
func metricsCounter(text string) *openapi3.Schema {
	return described(integerSchema().WithMin(0), text)
}

// metricsTrend documents a nullable trend.
func metricsTrend(text string) *openapi3.Schema {
	return described(nullable(openapi3.NewFloat64Schema()), text+" Null when either window has no value.")
}

// withRate adds a percentage and its interval to p.
func (s *server) withRate(p props, name, text string) props {
	p[name] = metricsPercent(text)
	p[name+"Interval"] = s.intervalSchema()
	return p
}

// metricsOwnRates are the rates, shares and index every headline row has.
func (s *server) metricsOwnRates(p props) props {
	s.withRate(p, "shareOfVoice", "Own worth over the worth of every brand named, x 100 (mentions_daily); null when "+
		"nobody was named. Interval n: mentions of every brand.")
	s.withRate(p, "mentionRate", "AI answers naming the own brand over AI answers captured, x 100; null without AI answers.")
	s.withRate(p, "serpRate", "Search snapshots with an own-domain organic result over search snapshots, x 100; null "+
		"without search snapshots.")
	s.withRate(p, "shoppingRate", "Shopping snapshots with an own-domain offer over shopping snapshots, x 100; null "+
		"without shopping snapshots.")
	s.withRate(p, "positivityIndex", "100 x (positive + 0.5 x neutral) / own mentions; null without mentions. "+
		"Interval n: own mentions.")
	return p
}

func (s *server) metricsSchema() *openapi3.Schema {
	p := s.metricsOwnRates(props{
		"avgMentionPosition":   metricsPosition("Mean rank of the own brand among the brands an AI answer names."),
		"bestMentionPosition":  described(nullable(integerSchema().WithMin(1)), "Best (lowest) mention position; null without one."),
		"avgLinkPosition":      metricsPosition("Mean position of the first cited source on an own domain."),
		"bestLinkPosition":     described(nullable(integerSchema().WithMin(1)), "Best link position; null without one."),
		"avgSerpPosition":      metricsPosition("Mean best organic rank of an own-domain result per search snapshot."),
		"bestSerpPosition":     described(nullable(integerSchema().WithMin(1)), "Best search rank; null without one."),
		"avgShoppingPosition":  metricsPosition("Mean best rank of an own-domain offer per shopping snapshot."),
		"bestShoppingPosition": described(nullable(integerSchema().WithMin(1)), "Best shopping rank; null without one."),
		"mentionPositionStability": described(nullable(openapi3.NewFloat64Schema().WithMin(0)),
			"Population standard deviation of the mention positions; lower is steadier; null under 2 observations."),
		"linkPositionStability": described(nullable(openapi3.NewFloat64Schema().WithMin(0)),
			"Population standard deviation of the link positions; null under 2 observations."),
		"serpPositionStability": described(nullable(openapi3.NewFloat64Schema().WithMin(0)),
			"Population standard deviation of the search ranks; null under 2 observations."),
		"shoppingPositionStability": described(nullable(openapi3.NewFloat64Schema().WithMin(0)),
			"Population standard deviation of the shopping ranks; null under 2 observations."),
		"mentionCount":      metricsCounter("AI answers naming the own brand."),
		"sentimentPositive": metricsCounter("Own mentions with a positive tone."),
		"sentimentNeutral":  metricsCounter("Own mentions with a neutral tone."),
		"sentimentNegative": metricsCounter("Own mentions with a negative tone."),
		"mentionTypeCounts": described(object(props{
			"recommendation": metricsCounter(""), "comparison": metricsCounter(""), "listing": metricsCounter(""),
			"example": metricsCounter(""), "reference": metricsCounter(""),
		}, "recommendation", "comparison", "listing", "example", "reference"), "Own mentions by mention type."),
		"mentionPositionDistribution": described(object(props{
			"1": metricsCounter(""), "2-3": metricsCounter(""), "4-5": metricsCounter(""), "6-10": metricsCounter(""),
			"11+": metricsCounter(""),
		}, "1", "2-3", "4-5", "6-10", "11+"), "AI answers naming the own brand, by its mention position."),
		"aiTrackedQueryCount":       metricsCounter("Tracked queries on AI engines with at least one completed capture in the window."),
		"serpTrackedQueryCount":     metricsCounter("google_serp tracked queries with at least one completed capture in the window."),
		"shoppingTrackedQueryCount": metricsCounter("google_shopping tracked queries with at least one completed capture in the window."),
		"mentionQueriesWithResult":  metricsCounter("Of the AI queries, those whose answers named the own brand at least once."),
		"linkQueriesWithResult":     metricsCounter("Of the AI queries, those whose answers cited an own domain at least once."),
		"serpQueriesWithResult":     metricsCounter("Of the google_serp queries, those with an own-domain result at least once."),
		"shoppingQueriesWithResult": metricsCounter("Of the google_shopping queries, those with an own-domain offer at least once."),
		"competitors": described(arrayOf(s.competitorMetricsSchema()),
			"Every current tracked competitor, ordered by shareOfVoice (greatest first, null last), then name."),
		"trendShareOfVoice":        metricsTrend("shareOfVoice minus the previous window's."),
		"trendMentionRate":         metricsTrend("mentionRate minus the previous window's."),
		"trendSerpRate":            metricsTrend("serpRate minus the previous window's."),
		"trendShoppingRate":        metricsTrend("shoppingRate minus the previous window's."),
		"trendPositivityIndex":     metricsTrend("positivityIndex minus the previous window's."),
		"trendAvgMentionPosition":  metricsTrend("avgMentionPosition minus the previous window's (negative: improved)."),
		"trendAvgLinkPosition":     metricsTrend("avgLinkPosition minus the previous window's (negative: improved)."),
		"trendAvgSerpPosition":     metricsTrend("avgSerpPosition minus the previous window's (negative: improved)."),
		"trendAvgShoppingPosition": metricsTrend("avgShoppingPosition minus the previous window's (negative: improved)."),
		"dataDirtySince":           dataDirtySinceSchema(),
	})
	return s.component("ProjectMetrics", object(p, metricsKeys(p)...))
}

func (s *server) competitorMetricsSchema() *openapi3.Schema {
	p := props{
		"competitorId":       uuidSchema(),
		"name":               stringSchema(),
		"mentionCount":       metricsCounter("AI answers naming the competitor."),
		"avgMentionPosition": metricsPosition("Mean rank of the competitor among the brands an answer names."),
	}
	s.withRate(p, "shareOfVoice", "The competitor's worth over the worth of every brand named, x 100; null when nobody "+
		"was named.")
	s.withRate(p, "mentionRate", "AI answers naming the competitor over every AI answer captured, x 100; null "+
		"without AI answers.")
	return s.component("CompetitorMetrics", object(p, metricsKeys(p)...))
}

func (s *server) clusterMetricsSchema() *openapi3.Schema {
	p := s.metricsOwnRates(props{
		"clusterId":           described(nullable(uuidSchema()), "null for the ungrouped bucket."),
		"clusterName":         described(nullable(stringSchema()), "null for the ungrouped bucket."),
		"trackedQueryCount":   metricsCounter("The cluster's member tracked queries today, on the filtered engines and countries."),
		"avgMentionPosition":  metricsPosition("Mean rank of the own brand among the brands an AI answer names."),
		"avgLinkPosition":     metricsPosition("Mean position of the first cited source on an own domain."),
		"avgSerpPosition":     metricsPosition("Mean best organic rank of an own-domain result per search snapshot."),
		"avgShoppingPosition": metricsPosition("Mean best rank of an own-domain offer per shopping snapshot."),
		"mentionCount":        metricsCounter("AI answers naming the own brand."),
	})
	row := s.component("ClusterMetrics", object(p, metricsKeys(p)...))
	return object(props{
		"rows":           described(arrayOf(row), "Ordered by cluster name, the ungrouped bucket last."),
		"dataDirtySince": dataDirtySinceSchema(),
	}, "rows", "dataDirtySince")
}

func (s *server) shareOfVoiceFormulaSchema() *openapi3.Schema {
	weight := func(text string) *openapi3.Schema {
		return described(openapi3.NewFloat64Schema().WithMin(0), text)
	}
	types, tones := props{}, props{}
	for _, t := range sightline.MentionTypes {
		types[string(t)] = weight("")
	}
	for _, t := range sightline.Tones {
		tones[string(t)] = weight("")
	}
	return s.component("ShareOfVoiceFormula", object(props{
		"mentionTypeWeights":    described(object(types, metricsKeys(types)...), "Weight of a mention by its type."),
		"sentimentMultipliers":  described(object(tones, metricsKeys(tones)...), "Multiplier of a mention by its tone."),
		"conditionalMultiplier": weight("Multiplier of a hedged mention (if you need X, then Brand)."),
		"directMultiplier":      weight("Multiplier of an unconditional mention."),
	}, "mentionTypeWeights", "sentimentMultipliers", "conditionalMultiplier", "directMultiplier"))
}

// metricsKeys are the names of p in order: every field of a metrics
// record is required, null standing for a missing value.
func metricsKeys(p props) []string {
	return slices.Sorted(maps.Keys(p))
}

// metricsRoutes registers the headline metrics, the overview and the
// glossary.
func (s *server) metricsRoutes(analytics routeGroup) {
	analytics.handle(route{
		method: http.MethodGet, pattern: projectBase + "/metrics", id: "getProjectMetrics",
		summary: "Headline metrics of the own brand and every tracked competitor over a window",
		description: "Figures of the own brand over dateFrom..dateTo (whole UTC days), summed from the daily rollups of " +
			"completed passes: a failed pass is never stored, so it never counts as \"not mentioned\". Rates and " +
			"positions are null, never zero, when no completed capture stands behind them; counters are 0. Every rate, " +
			"share and index has a 95% Wilson interval beside it (XInterval), null exactly when the figure is. The " +
			"trend* fields are current minus previous for every figure, positions included (a negative position trend " +
			"is an improvement), against the equally long window ending the day before dateFrom; null when either " +
			"window has no value. competitors lists every current tracked competitor, ordered by shareOfVoice " +
			"(greatest first, null last), then name. Cluster filters use today's memberships for every date.",
		query:    analyticsFilterParams(ungroupedWidens),
		response: s.metricsSchema(),
		errors:   analyticsErrors(analyticsWindowErrors(analyticsFilterParams(ungroupedWidens))),
		read:     s.handleMetrics,
	})
	analytics.handle(route{
		method: http.MethodGet, pattern: projectBase + "/metrics/clusters", id: "getClusterMetrics",
		summary: "The own brand's metrics per keyword cluster over a window",
		description: "One row per cluster, from the tracked queries that belong to it today (for every date of the " +
			"window), narrowed by engines and countries; a query in several clusters counts in each. Without " +
			"queryClusterIds: every cluster of the project. With queryClusterIds: those clusters (a cluster deleted " +
			"since is absent). includeUngroupedQueries adds the ungrouped bucket (clusterId and clusterName null: the " +
			"queries in no cluster); alone it answers only that bucket. Rows are ordered by name, the ungrouped bucket " +
			"last. trackedQueryCount counts the cluster's member queries on the filtered engines and countries. Figures " +
			"are null, never zero, without a completed capture behind them; every rate, share and index has its 95% " +
			"Wilson interval.",
		query:    analyticsFilterParams(ungroupedNarrowsAlone),
		response: s.clusterMetricsSchema(),
		errors:   analyticsErrors(analyticsWindowErrors(analyticsFilterParams(ungroupedNarrowsAlone))),
		read:     s.handleClusterMetrics,
	})
	analytics.handle(route{
		method: http.MethodGet, pattern: projectBase + "/metrics/share-of-voice-formula", id: "getShareOfVoiceFormula",
		summary: "The constants share of voice is computed with",
		description: "A mention is worth mentionTypeWeights[type] x sentimentMultipliers[tone] x (conditionalMultiplier " +
			"when the mention is hedged, else directMultiplier); a brand's share of voice is its summed worth over the " +
			"summed worth of every brand named in the window, x 100. Takes no parameters.",
		response: s.shareOfVoiceFormulaSchema(),
		errors:   map[int]string{404: projectNotFound},
		read:     s.handleShareOfVoiceFormula,
	})
	analytics.handle(route{
		method: http.MethodGet, pattern: "/api/v1/organizations/{organizationId}/overview", id: "getOrganizationOverview",
		summary: "The own brand's headline metrics per active project and for the organization",
		description: "One row per active project (archived projects, and every project of an archived organization, " +
			"are left out) over the last 30 UTC days, today included (windowFrom..windowTo), " +
			"ordered by shareOfVoice (greatest first, null last), then name. trendShareOfVoice is current minus " +
			"previous against the 30 days before, null when either has no value. trackedQueryCount counts the " +
			"project's tracked queries, active and paused. aggregate pools the listed projects' captures (each project " +
			"weighs by what was captured for it); totalTrackedQueries sums their trackedQueryCount. Takes no parameters.",
		response: s.overviewSchema(),
		read:     s.handleOverview,
	})
	s.handle(route{
		method: http.MethodGet, pattern: "/api/v1/metric-glossary", id: "getMetricGlossary", tag: "analytics",
		summary: "What every analytics figure means, how it is computed and where it is served",
		description: "A static catalogue: each figure the analytics operations serve, in everyday words, with its " +
			"numerator and denominator, unit, range, which way is better, the operations serving it and questions it " +
			"answers. Needs any valid key; takes no parameters.",
		response: s.glossarySchema(),
		read:     s.handleGlossary,
	})
}
