package api

import (
	"github.com/getkin/kin-openapi/openapi3"
)

// The metric glossary (spec 4.3): a static catalogue of every figure the
// analytics operations serve, so a dashboard can explain each number in
// plain words, say what it divides by and where else to find it.

// glossaryEntry is one figure of the catalogue.
type glossaryEntry struct {
	Metric        string `json:"metric"`
	EverydayWords string `json:"everydayWords"`
	Unit          string `json:"unit"`
	Range         string `json:"range"`
	// Direction is higher_is_better, lower_is_better or glossaryNeutral.
	Direction        string   `json:"direction"`
	Numerator        string   `json:"numerator"`
	Denominator      *string  `json:"denominator"`
	ServedBy         []string `json:"servedBy"`
	ExampleQuestions []string `json:"exampleQuestions"`
}

// The directions of a figure.
const (
	glossaryHigher  = "higher_is_better"
	glossaryLower   = "lower_is_better"
	glossaryNeutral = "neutral"
)

// Operation paths the glossary names.
const (
	glossaryProject           = "/api/v1/organizations/{organizationId}/projects/{projectId}"
	glossaryOpMetrics         = "GET " + glossaryProject + "/metrics"
	glossaryOpClusters        = "GET " + glossaryProject + "/metrics/clusters"
	glossaryOpMovers          = "GET " + glossaryProject + "/metrics/movers"
	glossaryOpKeywords        = "GET " + glossaryProject + "/keyword-listings"
	glossaryOpSentiment       = "GET " + glossaryProject + "/sentiment"
	glossaryOpTimeseries      = "GET " + glossaryProject + "/timeseries"
	glossaryOpQueryTimeseries = "GET " + glossaryProject + "/tracked-queries/{trackedQueryId}/timeseries"
	glossaryOpMix             = "GET " + glossaryProject + "/mentions/mix"
	glossaryOpCitedSources    = "GET " + glossaryProject + "/cited-sources"
	glossaryOpCooccurrence    = "GET " + glossaryProject + "/competitors/co-occurrence"
	glossaryOpOverview        = "GET /api/v1/organizations/{organizationId}/overview"
	glossaryOpProjectListing  = "GET /api/v1/organizations/{organizationId}/projects"
	glossaryOpSOVFormula      = "GET " + glossaryProject + "/metrics/share-of-voice-formula"
	glossaryAIAnswers         = "AI answers captured (completed passes on chatgpt, perplexity, google_ai_overview and google_ai_mode; a failed pass is never counted)"
	glossaryOwnNamed          = "AI answers that name the own brand"
	glossaryAllWorth          = "summed mention worth of every brand named in those answers: own, tracked and untracked competitors"
	glossaryPercent           = "percent"
	glossaryPosition          = "position (1-based rank)"
	glossaryCount             = "count"
	glossaryZeroTo100         = "0 to 100"
	glossaryOneAndUp          = "1 and up"
	glossaryZeroAndUp         = "0 and up"
	glossaryPoints            = "percentage points"
	glossaryAnySign           = "-100 to 100"
	glossaryPositionDelta     = "positions, any sign"
)

func words(s string) *string { return &s }

// metricGlossary is the catalogue, in the order it is served.
var metricGlossary = []glossaryEntry{
	{
		Metric:        "shareOfVoice",
		EverydayWords: "How much of the conversation is about you: your brand's weighted share of every brand mention in AI answers.",
		Unit:          glossaryPercent, Range: glossaryZeroTo100, Direction: glossaryHigher,
		Numerator: "summed mention worth of the brand (each mention: type weight x tone multiplier x qualifier " +
			"multiplier, see " + glossaryOpSOVFormula + ")",
		Denominator: words(glossaryAllWorth + "; null when nobody was named (for a single tracked query's time " +
			"series 0 means answers were captured and no brand, or not yours, was named)"),
		ServedBy: []string{glossaryOpMetrics, glossaryOpClusters, glossaryOpOverview, glossaryOpMovers, glossaryOpKeywords, glossaryOpTimeseries, glossaryOpQueryTimeseries,
			glossaryOpProjectListing},
		ExampleQuestions: []string{"Are AI assistants talking about us more than about our competitors?",
			"Which competitor owns the conversation for this cluster of keywords?"},
	},
	{
		Metric:        "mentionRate",
		EverydayWords: "How often AI answers name your brand at all.",
		Unit:          glossaryPercent, Range: glossaryZeroTo100, Direction: glossaryHigher,
		Numerator:   glossaryOwnNamed + " (for a competitor: answers naming it)",
		Denominator: words(glossaryAIAnswers + "; null when none was captured"),
		ServedBy:    []string{glossaryOpMetrics, glossaryOpClusters, glossaryOpOverview, glossaryOpKeywords, glossaryOpTimeseries, glossaryOpQueryTimeseries, glossaryOpProjectListing},
		ExampleQuestions: []string{"In what share of ChatGPT answers do we appear?",
			"Did our mention rate rise after the product launch?"},
	},
	{
		Metric:        "serpRate",
		EverydayWords: "How often your site shows up in Google's organic results for your keywords.",
		Unit:          glossaryPercent, Range: glossaryZeroTo100, Direction: glossaryHigher,
		Numerator:        "search snapshots (google_serp) with an organic result on one of your domains",
		Denominator:      words("search snapshots captured; null when none was"),
		ServedBy:         []string{glossaryOpMetrics, glossaryOpClusters, glossaryOpTimeseries, glossaryOpQueryTimeseries, glossaryOpProjectListing},
		ExampleQuestions: []string{"For how many of our keywords do we rank on Google at all?"},
	},
	{
		Metric:        "shoppingRate",
		EverydayWords: "How often one of your offers appears in Google Shopping results.",
		Unit:          glossaryPercent, Range: glossaryZeroTo100, Direction: glossaryHigher,
		Numerator:        "shopping snapshots (google_shopping) with an offer on one of your domains",
		Denominator:      words("shopping snapshots captured; null when none was"),
		ServedBy:         []string{glossaryOpMetrics, glossaryOpClusters, glossaryOpProjectListing},
		ExampleQuestions: []string{"Do our products show in Google Shopping for our keywords?"},
	},
	{
		Metric:        "positivityIndex",
		EverydayWords: "How favourably AI answers speak of you: 100 all positive, 50 glossaryNeutral, 0 all negative.",
		Unit:          glossaryPercent, Range: glossaryZeroTo100, Direction: glossaryHigher,
		Numerator:   "positive mentions + half the neutral mentions of the brand",
		Denominator: words("mentions of the brand; null without any"),
		ServedBy: []string{glossaryOpMetrics, glossaryOpClusters, glossaryOpOverview, glossaryOpMovers, glossaryOpKeywords, glossaryOpSentiment,
			glossaryOpTimeseries + " (as positivity)", glossaryOpQueryTimeseries + " (as positivity)", glossaryOpProjectListing},
		ExampleQuestions: []string{"Is the tone about us getting better?", "Which engine speaks most kindly of us?"},
	},
	{
		Metric:        "avgMentionPosition",
		EverydayWords: "When an AI answer names several brands, how early yours comes: 1 means named first.",
		Unit:          glossaryPosition, Range: glossaryOneAndUp, Direction: glossaryLower,
		Numerator:   "sum of the brand's rank among the brands each answer names, by first appearance",
		Denominator: words(glossaryOwnNamed + "; null without any"),
		ServedBy: []string{glossaryOpMetrics, glossaryOpClusters, glossaryOpOverview, glossaryOpMovers, glossaryOpKeywords,
			glossaryOpTimeseries + " (as mention)", glossaryOpQueryTimeseries + " (as mention)", glossaryOpProjectListing},
		ExampleQuestions: []string{"Are we recommended first or as an afterthought?"},
	},
	{
		Metric:        "bestMentionPosition",
		EverydayWords: "The earliest your brand was named in any answer of the window.",
		Unit:          glossaryPosition, Range: glossaryOneAndUp, Direction: glossaryLower,
		Numerator:        "lowest mention position observed",
		Denominator:      nil,
		ServedBy:         []string{glossaryOpMetrics},
		ExampleQuestions: []string{"Were we ever the first brand named?"},
	},
	{
		Metric:        "avgLinkPosition",
		EverydayWords: "How high your own pages sit among the sources an AI answer cites.",
		Unit:          glossaryPosition, Range: glossaryOneAndUp, Direction: glossaryLower,
		Numerator:   "sum of the position of the first cited source on one of your domains, per answer citing you",
		Denominator: words("AI answers citing one of your domains; null without any"),
		ServedBy: []string{glossaryOpMetrics, glossaryOpClusters, glossaryOpMovers, glossaryOpKeywords, glossaryOpTimeseries + " (as link)",
			glossaryOpQueryTimeseries + " (as link)", glossaryOpProjectListing},
		ExampleQuestions: []string{"When Perplexity cites us, is our page the first source?"},
	},
	{
		Metric:        "bestLinkPosition",
		EverydayWords: "The highest one of your pages was cited in any answer of the window.",
		Unit:          glossaryPosition, Range: glossaryOneAndUp, Direction: glossaryLower,
		Numerator:        "lowest link position observed",
		ServedBy:         []string{glossaryOpMetrics},
		ExampleQuestions: []string{"Were we ever the top cited source?"},
	},
	{
		Metric:        "avgSerpPosition",
		EverydayWords: "Your average Google organic rank, counting your best result on each page.",
		Unit:          glossaryPosition, Range: glossaryOneAndUp, Direction: glossaryLower,
		Numerator:   "sum of the best organic rank of one of your domains, per search snapshot showing you",
		Denominator: words("search snapshots with an own-domain result; null without any"),
		ServedBy: []string{glossaryOpMetrics, glossaryOpClusters, glossaryOpMovers, glossaryOpKeywords, glossaryOpTimeseries + " (as serp)",
			glossaryOpQueryTimeseries + " (as serp)", glossaryOpProjectListing},
		ExampleQuestions: []string{"Where do we rank on Google for our money keywords?"},
	},
	{
		Metric:        "bestSerpPosition",
		EverydayWords: "Your best Google organic rank in the window.",
		Unit:          glossaryPosition, Range: glossaryOneAndUp, Direction: glossaryLower,
		Numerator:        "lowest organic rank of one of your domains observed",
		ServedBy:         []string{glossaryOpMetrics},
		ExampleQuestions: []string{"Did we reach the top spot on Google at least once?"},
	},
	{
		Metric:        "avgShoppingPosition",
		EverydayWords: "Your average rank in Google Shopping, counting your best offer on each page.",
		Unit:          glossaryPosition, Range: glossaryOneAndUp, Direction: glossaryLower,
		Numerator:   "sum of the best rank of an offer on one of your domains, per shopping snapshot showing you",
		Denominator: words("shopping snapshots with an own-domain offer; null without any"),
		ServedBy: []string{glossaryOpMetrics, glossaryOpClusters, glossaryOpMovers, glossaryOpKeywords, glossaryOpTimeseries + " (as shopping)",
			glossaryOpQueryTimeseries + " (as shopping)", glossaryOpProjectListing},
		ExampleQuestions: []string{"How prominent are our offers in Google Shopping?"},
	},
	{
		Metric:        "bestShoppingPosition",
		EverydayWords: "Your best Google Shopping rank in the window.",
		Unit:          glossaryPosition, Range: glossaryOneAndUp, Direction: glossaryLower,
		Numerator:        "lowest rank of an own-domain offer observed",
		ServedBy:         []string{glossaryOpMetrics},
		ExampleQuestions: []string{"Was one of our offers ever first in Shopping?"},
	},
	{
		Metric:        "mentionPositionStability",
		EverydayWords: "How much your place in AI answers jumps around; 0 means always the same position.",
		Unit:          "positions (standard deviation)", Range: glossaryZeroAndUp, Direction: glossaryLower,
		Numerator:        "population standard deviation of the mention positions (square root of the mean squared distance from their mean)",
		Denominator:      words(glossaryOwnNamed + "; null under 2"),
		ServedBy:         []string{glossaryOpMetrics, glossaryOpKeywords},
		ExampleQuestions: []string{"Is our position in answers dependable or luck of the draw?"},
	},
	{
		Metric:        "linkPositionStability",
		EverydayWords: "How much the position of your cited pages jumps around.",
		Unit:          "positions (standard deviation)", Range: glossaryZeroAndUp, Direction: glossaryLower,
		Numerator:        "population standard deviation of the link positions",
		Denominator:      words("AI answers citing one of your domains; null under 2"),
		ServedBy:         []string{glossaryOpMetrics},
		ExampleQuestions: []string{"Are we cited at a steady place among the sources?"},
	},
	{
		Metric:        "serpPositionStability",
		EverydayWords: "How much your Google organic rank jumps around.",
		Unit:          "positions (standard deviation)", Range: glossaryZeroAndUp, Direction: glossaryLower,
		Numerator:        "population standard deviation of the best organic ranks",
		Denominator:      words("search snapshots with an own-domain result; null under 2"),
		ServedBy:         []string{glossaryOpMetrics, glossaryOpProjectListing},
		ExampleQuestions: []string{"Is our Google ranking volatile?"},
	},
	{
		Metric:        "shoppingPositionStability",
		EverydayWords: "How much your Google Shopping rank jumps around.",
		Unit:          "positions (standard deviation)", Range: glossaryZeroAndUp, Direction: glossaryLower,
		Numerator:        "population standard deviation of the best offer ranks",
		Denominator:      words("shopping snapshots with an own-domain offer; null under 2"),
		ServedBy:         []string{glossaryOpMetrics, glossaryOpProjectListing},
		ExampleQuestions: []string{"Is our Shopping placement volatile?"},
	},
	{
		Metric:        "mentionCount",
		EverydayWords: "How many AI answers named the brand.",
		Unit:          glossaryCount, Range: glossaryZeroAndUp, Direction: glossaryHigher,
		Numerator:        glossaryOwnNamed + " (for a competitor or an engine row: answers naming that brand)",
		ServedBy:         []string{glossaryOpMetrics, glossaryOpClusters, glossaryOpSentiment},
		ExampleQuestions: []string{"How many answers mentioned us this month?"},
	},
	{
		Metric:        "sentimentPositive, sentimentNeutral, sentimentNegative",
		EverydayWords: "How many of your mentions were favourable, neutral or critical.",
		Unit:          glossaryCount, Range: glossaryZeroAndUp, Direction: glossaryNeutral,
		Numerator:        "own mentions of each tone; the three add up to the own mentions",
		ServedBy:         []string{glossaryOpMetrics, glossaryOpSentiment + " (as positive, glossaryNeutral, negative)", glossaryOpMix + " (byTone)"},
		ExampleQuestions: []string{"How many answers said something negative about us?"},
	},
	{
		Metric:        "mentionTypeCounts",
		EverydayWords: "How you were named: recommended, compared, listed, given as an example or merely referenced.",
		Unit:          glossaryCount, Range: glossaryZeroAndUp, Direction: glossaryNeutral,
		Numerator:        "own mentions of each type (recommendation, comparison, listing, example, reference)",
		ServedBy:         []string{glossaryOpMetrics, glossaryOpKeywords, glossaryOpMix + " (byType)"},
		ExampleQuestions: []string{"Are we recommended or only listed among others?"},
	},
	{
		Metric:        "byQualifier",
		EverydayWords: "Whether you were named outright or only with a condition (\"if you need X, then ...\").",
		Unit:          glossaryCount, Range: glossaryZeroAndUp, Direction: glossaryNeutral,
		Numerator:        "own mentions that are direct, and those that are conditional",
		ServedBy:         []string{glossaryOpMix},
		ExampleQuestions: []string{"How often are we recommended only for a niche?"},
	},
	{
		Metric:        "mentionPositionDistribution",
		EverydayWords: "How often you were named first, second or third, and so on, in buckets 1, 2-3, 4-5, 6-10 and 11+.",
		Unit:          glossaryCount, Range: glossaryZeroAndUp, Direction: glossaryNeutral,
		Numerator:        "AI answers naming the own brand at a position in each bucket",
		ServedBy:         []string{glossaryOpMetrics},
		ExampleQuestions: []string{"How often are we the first brand named?"},
	},
	{
		Metric:        "aiTrackedQueryCount, serpTrackedQueryCount, shoppingTrackedQueryCount",
		EverydayWords: "How many of your tracked keywords were actually measured in the window, per kind of engine.",
		Unit:          glossaryCount, Range: glossaryZeroAndUp, Direction: glossaryNeutral,
		Numerator:        "tracked queries (AI engines; google_serp; google_shopping) with at least one completed capture in the window",
		ServedBy:         []string{glossaryOpMetrics},
		ExampleQuestions: []string{"How many keywords are these figures based on?"},
	},
	{
		Metric: "mentionQueriesWithResult, linkQueriesWithResult, serpQueriesWithResult, shoppingQueriesWithResult",
		EverydayWords: "For how many measured keywords you showed up at least once: named, cited, ranked " +
			"organically, or with an offer.",
		Unit: glossaryCount, Range: glossaryZeroAndUp, Direction: glossaryHigher,
		Numerator: "measured tracked queries whose captures named the own brand / cited an own domain / had an " +
			"own-domain result / had an own-domain offer at least once",
		Denominator:      words("the matching *TrackedQueryCount (reported, not divided)"),
		ServedBy:         []string{glossaryOpMetrics},
		ExampleQuestions: []string{"For how many of our keywords does ChatGPT ever mention us?"},
	},
	{
		Metric:        "trackedQueryCount",
		EverydayWords: "How many keywords a row is about.",
		Unit:          glossaryCount, Range: glossaryZeroAndUp, Direction: glossaryNeutral,
		Numerator: "cluster rows: the cluster's member tracked queries today on the filtered engines and countries; " +
			"overview rows: the project's tracked queries, active and paused",
		ServedBy:         []string{glossaryOpClusters, glossaryOpOverview, glossaryOpProjectListing},
		ExampleQuestions: []string{"How big is this cluster?"},
	},
	{
		Metric:        "totalTrackedQueries, projectCount",
		EverydayWords: "How many keywords and active projects the organization overview covers.",
		Unit:          glossaryCount, Range: glossaryZeroAndUp, Direction: glossaryNeutral,
		Numerator:        "tracked queries of the listed (active) projects; active projects listed",
		ServedBy:         []string{glossaryOpOverview},
		ExampleQuestions: []string{"How much are we tracking across the organization?"},
	},
	{
		Metric: "trend* of GET /metrics (trendShareOfVoice, trendMentionRate, trendSerpRate, trendShoppingRate, " +
			"trendPositivityIndex, trendAvgMentionPosition, trendAvgLinkPosition, trendAvgSerpPosition, trendAvgShoppingPosition)",
		EverydayWords: "How a figure moved compared with the equally long period just before: current minus previous, " +
			"so a rise in a rate and a drop in a position are both good news.",
		Unit:  glossaryPoints + " for rates, shares and indexes; " + glossaryPositionDelta + " for positions",
		Range: glossaryAnySign + " for rates; any for positions", Direction: glossaryNeutral,
		Numerator:        "the figure over dateFrom..dateTo minus the same figure over the previous window",
		Denominator:      words("none; null when either window has no value"),
		ServedBy:         []string{glossaryOpMetrics},
		ExampleQuestions: []string{"Did our share of voice grow compared with last month?"},
	},
	{
		Metric: "trend deltas of windowed analytics (trendShareOfVoice, trendPositivityIndex, trendMention, trendLink, " +
			"trendSerp, trendShopping of movers and keyword listings; trendShareOfVoice of the overview)",
		EverydayWords: "How a figure moved compared with the equally long period just before, signed so that " +
			"positive always means improved.",
		Unit: glossaryPoints + " for shares and indexes; positions for positions", Range: "any sign; positive is better",
		Direction:        glossaryHigher,
		Numerator:        "rates, shares, indexes: current minus previous; positions: previous minus current",
		Denominator:      words("none; null when either window has no value"),
		ServedBy:         []string{glossaryOpMovers, glossaryOpKeywords, glossaryOpOverview},
		ExampleQuestions: []string{"Which keywords gained the most this week?"},
	},
	{
		Metric: "significant",
		EverydayWords: "Whether a mover's change is bigger than chance would explain, so top gainers are not " +
			"noise.",
		Unit: "boolean", Range: "true or false", Direction: glossaryNeutral,
		Numerator: "for share of voice: a pooled two-proportion z-test of the two windows at 95%; for positions: a " +
			"Welch t-test on the positions' sums and squares at 95%",
		Denominator:      words("false when either window has too few observations"),
		ServedBy:         []string{glossaryOpMovers},
		ExampleQuestions: []string{"Is this keyword's drop real or a fluke?"},
	},
	{
		Metric: "*Interval (shareOfVoiceInterval, mentionRateInterval, serpRateInterval, shoppingRateInterval, " +
			"positivityIndexInterval, positivityInterval, winRateInterval)",
		EverydayWords: "How sure the figure beside it is: the range the true value lies in with 95% confidence, and " +
			"how many observations it rests on.",
		Unit: "object {n, low, high}; low and high in percent", Range: "low and high 0 to 100; n 1 and up",
		Direction: glossaryNeutral,
		Numerator: "95% Wilson score interval of the figure's proportion (positivity: (positive + 0.5 glossaryNeutral) / " +
			"mentions; share of voice: the share)",
		Denominator: words("n: the figure's denominator (AI answers, snapshots, mentions, shared answers; for share " +
			"of voice the mentions of every brand); the interval is null exactly when the figure is"),
		ServedBy: []string{glossaryOpMetrics, glossaryOpClusters, glossaryOpOverview, glossaryOpMovers, glossaryOpKeywords, glossaryOpSentiment, glossaryOpTimeseries,
			glossaryOpQueryTimeseries, glossaryOpCooccurrence},
		ExampleQuestions: []string{"Is a 50% mention rate from 4 answers worth acting on?"},
	},
	{
		Metric:        "winRate",
		EverydayWords: "When an answer names both you and a competitor, how often you come first.",
		Unit:          glossaryPercent, Range: glossaryZeroTo100, Direction: glossaryHigher,
		Numerator:        "shared answers naming the own brand before the competitor (brandWins)",
		Denominator:      words("AI answers naming both (sharedResponseCount); null without any"),
		ServedBy:         []string{glossaryOpCooccurrence},
		ExampleQuestions: []string{"Head to head, do we beat competitor X in answers?"},
	},
	{
		Metric:        "sharedResponseCount, brandWins, competitorWins, ties",
		EverydayWords: "How many answers named both you and a competitor, and who came first in them.",
		Unit:          glossaryCount, Range: glossaryZeroAndUp, Direction: glossaryNeutral,
		Numerator:        "AI answers naming both brands; of those, own brand first / competitor first / same position",
		ServedBy:         []string{glossaryOpCooccurrence},
		ExampleQuestions: []string{"How often do we appear alongside competitor X?"},
	},
	{
		Metric:        "avgOwnPosition, avgCompetitorPosition",
		EverydayWords: "In answers naming both brands, the average place of each.",
		Unit:          glossaryPosition, Range: glossaryOneAndUp, Direction: glossaryLower,
		Numerator:        "sum of the brand's mention positions in the shared answers",
		Denominator:      words("shared answers; null without any"),
		ServedBy:         []string{glossaryOpCooccurrence},
		ExampleQuestions: []string{"When both are named, who tends to be named earlier?"},
	},
	{
		Metric:        "citationCount, distinctResponseCount, distinctQueryCount",
		EverydayWords: "How often a website or page is cited as a source by AI answers, in how many answers and for how many keywords.",
		Unit:          glossaryCount, Range: glossaryZeroAndUp, Direction: glossaryNeutral,
		Numerator:        "citations of the source; distinct answers citing it; distinct tracked queries whose answers cite it",
		ServedBy:         []string{glossaryOpCitedSources},
		ExampleQuestions: []string{"Which sites do AI engines rely on for our keywords?"},
	},
	{
		Metric:        "avgPosition (cited sources)",
		EverydayWords: "How high a source sits, on average, in the list of sources an answer cites.",
		Unit:          glossaryPosition, Range: glossaryOneAndUp, Direction: glossaryLower,
		Numerator:        "sum of the source's citation positions",
		Denominator:      words("citations of the source; null without any"),
		ServedBy:         []string{glossaryOpCitedSources},
		ExampleQuestions: []string{"Is this review site cited first or last?"},
	},
	{
		Metric:        "variantCount, totalVariantCount",
		EverydayWords: "How many tracked queries (engine and country combinations) stand behind a keyword, and in total.",
		Unit:          glossaryCount, Range: glossaryZeroAndUp, Direction: glossaryNeutral,
		Numerator:        "tracked queries sharing the keyword text; every variant matching the filters except search",
		ServedBy:         []string{glossaryOpKeywords},
		ExampleQuestions: []string{"On how many engines and countries do we track this keyword?"},
	},
	{
		Metric: "dataDirtySince",
		EverydayWords: "A warning that a deletion is still being applied in the background, so figures from that " +
			"time on may still change.",
		Unit: "date-time or null", Range: "null when nothing is pending", Direction: glossaryNeutral,
		Numerator:        "start of the period a pending recalculation may still change",
		ServedBy:         []string{glossaryOpMetrics, glossaryOpClusters, glossaryOpMovers, glossaryOpKeywords, glossaryOpTimeseries, glossaryOpQueryTimeseries},
		ExampleQuestions: []string{"Can I trust these numbers right after deleting a competitor?"},
	},
}

type glossaryResponse struct {
	Metrics []glossaryEntry `json:"metrics"`
}

func (s *server) handleGlossary(*request) (any, error) {
	return glossaryResponse{Metrics: metricGlossary}, nil
}

func (s *server) glossarySchema() *openapi3.Schema {
	text := func(t string) *openapi3.Schema { return described(stringSchema(), t) }
	entry := object(props{
		"metric":        text("The field name(s) as the operations serve them."),
		"everydayWords": text("What the figure says, in plain words."),
		"unit":          text("Unit of the value."),
		"range":         text("Values it can take."),
		"direction":     described(enumOf(glossaryHigher, glossaryLower, glossaryNeutral), "Which way is better."),
		"numerator":     text("What is counted or summed, in plain words."),
		"denominator": described(nullable(stringSchema()),
			"What it is divided by, in plain words, and when it is null; null for plain counts and extremes."),
		"servedBy":         described(arrayOf(stringSchema()), "Operations serving it: method and path template."),
		"exampleQuestions": described(arrayOf(stringSchema()), "Questions the figure answers."),
	}, "metric", "everydayWords", "unit", "range", "direction", "numerator", "denominator", "servedBy",
		"exampleQuestions")
	return s.component("MetricGlossary", object(props{"metrics": arrayOf(entry)}, "metrics"))
}
