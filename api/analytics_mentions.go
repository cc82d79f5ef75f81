package api

import (
	"net/http"
	"slices"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/google/uuid"

	"github.com/sightline/sightline"
	"github.com/sightline/sightline/olap"
	"github.com/sightline/sightline/oltp"
)

// Mentions, sentiment, cited sources, co-occurrence and the filter values
// (spec 4.3): how AI answers name the own brand and its competitors, which
// sources they cite, and what a project's analytics can be filtered by.
// This file holds the routes of the family and the mention operations;
// analytics_sources.go, analytics_cooccurrence.go and
// analytics_filters.go hold the others.

// analyticsCompetitorParam reads the optional competitorId parameter: a
// current tracked competitor of the project, else a problem in errs. It
// returns the competitor's id and name, nil when not given.
func (s *server) analyticsCompetitorParam(r *request, p *oltp.ProjectScope, errs sightline.ValidationErrors) (*oltp.CompetitorName, error) {
	if !r.query.has("competitorId") {
		return nil, nil
	}
	id := uuid.MustParse(r.query.string("competitorId")) // checked against the uuid format already
	competitors, err := oltp.CompetitorNames(r.Context(), s.pool, p.ID)
	if err != nil {
		return nil, err
	}
	i := slices.IndexFunc(competitors, func(c oltp.CompetitorName) bool { return c.ID == id })
	if i < 0 {
		errs.Add("competitorId", sightline.DetailInvalidValue, "%s is not a tracked competitor of this project", id)
		return nil, nil
	}
	return &competitors[i], nil
}

// competitorAnalyticsScope reads what a read about one competitor or all of
// them needs: the project, its analytics scope (ungrouped widening it) and
// the optional competitorId, answering every parameter problem at once.
func (s *server) competitorAnalyticsScope(r *request) (*oltp.ProjectScope, olap.Scope, *oltp.CompetitorName, error) {
	p, scope, err := s.projectAnalyticsScope(r, ungroupedWidens)
	errs := sightline.ValidationErrors{}
	if p == nil || !mergeValidation(errs, err) {
		return nil, olap.Scope{}, nil, err
	}
	competitor, err := s.analyticsCompetitorParam(r, p, errs)
	if err != nil {
		return nil, olap.Scope{}, nil, err
	}
	return p, scope, competitor, errs.Err()
}

// analyticsCompetitorParamSchema documents competitorId.
func analyticsCompetitorParamSchema(what string) *openapi3.Parameter {
	return openapi3.NewQueryParameter("competitorId").WithSchema(uuidSchema()).
		WithDescription(what + " It must be a current tracked competitor of the project, else 400 invalid_value.")
}

// /mentions

func mentionSampleParams() []*openapi3.Parameter {
	params := append(analyticsWindowParams(), analyticsEnginesParam(), analyticsCountriesParam(),
		openapi3.NewQueryParameter("sentiment").WithSchema(enumFrom(sightline.Tones)).
			WithDescription("Only mentions of this tone."),
		openapi3.NewQueryParameter("mentionType").WithSchema(enumFrom(sightline.MentionTypes)).
			WithDescription("Only mentions of this type."),
		analyticsCompetitorParamSchema("Only this tracked competitor's mentions; omitted, only rows with no stored "+
			"competitor id (the own brand and untracked competitors)."),
		openapi3.NewQueryParameter("sortBy").WithSchema(enumOf(string(olap.MentionSortRecent),
			string(olap.MentionSortNegative), string(olap.MentionSortEngine), string(olap.MentionSortCountry)).
			WithDefault(string(olap.MentionSortRecent))).
			WithDescription("recent: newest first; negative: negative tone first, then newest; engine, country: by "+
				"that A-Z, then newest. Ties by id."))
	return append(params, pagingParams()...)
}

func (s *server) mentionSamplesSchema() *openapi3.Schema {
	p := mentionProps()
	p["id"] = described(uuidSchema(), "The mention match id.")
	p["trackedQueryId"] = uuidSchema()
	p["country"] = described(nullable(stringSchema().WithMinLength(2).WithMaxLength(2)),
		"ISO 3166-1 alpha-2 country the query was asked from; null when the tracked query was deleted.")
	p["queryText"] = described(stringSchema(), "The tracked query's text; \"\" when it was deleted.")
	p["competitorId"] = described(nullable(uuidSchema()),
		"The tracked competitor named; null when none is stored (the own brand or an untracked competitor).")
	sample := s.component("MentionSample", object(p, "id", "aiResponseId", "trackedQueryId", "detectedAt",
		"mentionText", "engine", "country", "queryText", "sentiment", "mentionType", "mentionPosition",
		"competitorId", "mentionRelation", "brandName"))
	return s.component("MentionSamples", object(props{
		"samples": arrayOf(sample),
		"total":   described(integerSchema().WithMin(0), "Samples matching the filters, not the page size."),
	}, "samples", "total"))
}

// mentionSamples is the answer of GET /mentions.
type mentionSamples struct {
	Samples []olap.MentionSample `json:"samples"`
	Total   int                  `json:"total"`
}

func (s *server) handleMentionSamples(r *request) (any, error) {
	p, scope, competitor, err := s.competitorAnalyticsScope(r)
	if err != nil {
		return nil, err
	}
	q := r.query
	f := olap.MentionFilter{Tone: sightline.Tone(q.string("sentiment")), Type: sightline.MentionType(q.string("mentionType")),
		Sort: olap.MentionSort(q.string("sortBy"))}
	f.Limit, f.Offset = q.page()
	if competitor != nil {
		f.CompetitorID = &competitor.ID
	}
	samples, total, err := s.analytics.MentionSamples(r.Context(), scope, f)
	if err != nil {
		return nil, err
	}
	if err := s.blankDeletedQueries(r, p, samples); err != nil {
		return nil, err
	}
	return mentionSamples{Samples: samples, Total: total}, nil
}

// blankDeletedQueries shows the samples of tracked queries deleted since
// (their captures linger until the cascade removes them) with country null
// and queryText "".
func (s *server) blankDeletedQueries(r *request, p *oltp.ProjectScope, samples []olap.MentionSample) error {
	var ids []uuid.UUID
	for _, m := range samples {
		if !slices.Contains(ids, m.TrackedQueryID) {
			ids = append(ids, m.TrackedQueryID)
		}
	}
	if len(ids) == 0 {
		return nil
	}
	existing, err := oltp.ExistingTrackedQueries(r.Context(), s.pool, p.ID, ids)
	if err != nil {
		return err
	}
	for i := range samples {
		if !existing[samples[i].TrackedQueryID] {
			samples[i].Country, samples[i].QueryText = nil, ""
		}
	}
	return nil
}

// /mentions/mix

// mentionMixParams are the query parameters of GET /mentions/mix.
func mentionMixParams() []*openapi3.Parameter {
	return append(analyticsWindowParams(), analyticsEnginesParam(), analyticsCountriesParam())
}

func mixCountSchema() *openapi3.Schema { return integerSchema().WithMin(0) }

func (s *server) mentionMixSchema() *openapi3.Schema {
	byType := props{}
	for _, t := range sightline.MentionTypes {
		byType[string(t)] = mixCountSchema()
	}
	byTone := props{}
	for _, t := range sightline.Tones {
		byTone[string(t)] = mixCountSchema()
	}
	return s.component("MentionMix", object(props{
		"byType": described(object(byType, stringsOf(sightline.MentionTypes)...),
			"Own-brand mentions per mention type; sums to total."),
		"byTone": described(object(byTone, stringsOf(sightline.Tones)...),
			"Own-brand mentions per tone; sums to total."),
		"byQualifier": described(object(props{"direct": mixCountSchema(), "conditional": mixCountSchema()},
			"direct", "conditional"), "Own-brand mentions, unconditional or hedged; sums to total."),
		"total": described(mixCountSchema(), "Own-brand mentions in the window: AI answers naming the own brand."),
	}, "byType", "byTone", "byQualifier", "total"))
}

func (s *server) handleMentionMix(r *request) (any, error) {
	_, scope, err := s.projectAnalyticsScope(r, ungroupedWidens)
	if err != nil {
		return nil, err
	}
	return s.analytics.MentionMix(r.Context(), scope)
}

// /sentiment

// sentimentRowProps are the tone counts and positivity index of a sentiment
// row.
func (s *server) sentimentRowProps(p props) props {
	p["positive"] = mixCountSchema()
	p["neutral"] = mixCountSchema()
	p["negative"] = mixCountSchema()
	p["mentionCount"] = described(mixCountSchema(), "Mentions: AI answers naming the brand.")
	p["positivityIndex"] = described(nullable(openapi3.NewFloat64Schema().WithMin(0).WithMax(100)),
		"100 x (positive + 0.5 x neutral) / mentionCount; null without mentions.")
	p["positivityIndexInterval"] = s.intervalSchema()
	return p
}

var sentimentRowKeys = []string{"positive", "neutral", "negative", "mentionCount", "positivityIndex", "positivityIndexInterval"}

func (s *server) sentimentSchema() *openapi3.Schema {
	engine := object(s.sentimentRowProps(props{"engine": enumOf(aiEngines()...)}), append([]string{"engine"}, sentimentRowKeys...)...)
	competitor := object(s.sentimentRowProps(props{"competitorId": uuidSchema(), "name": stringSchema()}),
		append([]string{"competitorId", "name"}, sentimentRowKeys...)...)
	return s.component("Sentiment", object(props{
		"perEngine": described(arrayOf(engine),
			"The own brand per AI engine in scope, in the order chatgpt, perplexity, google_ai_overview, google_ai_mode."),
		"perCompetitor": described(arrayOf(competitor), "Every current tracked competitor, by name."),
	}, "perEngine", "perCompetitor"))
}

// sentiment is the answer of GET /sentiment.
type sentimentAnswer struct {
	PerEngine     []olap.EngineSentiment `json:"perEngine"`
	PerCompetitor []competitorSentiment  `json:"perCompetitor"`
}

type competitorSentiment struct {
	CompetitorID uuid.UUID `json:"competitorId"`
	Name         string    `json:"name"`
	olap.SentimentFigures
}

func (s *server) handleSentiment(r *request) (any, error) {
	_, scope, competitors, err := s.analyticsCompetitors(r, ungroupedNarrowsAlone)
	if err != nil {
		return nil, err
	}
	perEngine, figures, err := s.analytics.Sentiment(r.Context(), scope, competitorNameIDs(competitors))
	if err != nil {
		return nil, err
	}
	out := sentimentAnswer{PerEngine: perEngine, PerCompetitor: make([]competitorSentiment, len(competitors))}
	for i, c := range competitors {
		out.PerCompetitor[i] = competitorSentiment{CompetitorID: c.ID, Name: c.Name, SentimentFigures: figures[i]}
	}
	return out, nil
}

// competitorNameIDs are the ids of competitors, in order.
func competitorNameIDs(competitors []oltp.CompetitorName) []uuid.UUID {
	ids := make([]uuid.UUID, len(competitors))
	for i, c := range competitors {
		ids[i] = c.ID
	}
	return ids
}

// mentionsRoutes registers the family's operations.
func (s *server) mentionsRoutes(analytics routeGroup) {
	analytics.handle(route{
		method: http.MethodGet, pattern: projectBase + "/mentions", id: "listMentionSamples",
		summary: "Mention samples: single mentions of brands in AI answers",
		description: "Stored mention matches of every tracked query in the window, as classified when captured. Without " +
			"competitorId only rows with no stored competitor id are listed: the own brand's and untracked competitors' " +
			"(mentionRelation tells them apart); with it, only that tracked competitor's. total counts every row matching " +
			"the filters. A sample of a tracked query deleted moments ago (before its background cascade removes it) " +
			"shows country null and queryText \"\". sortBy recent: newest first; negative: negative tone first, then " +
			"newest; engine or country: by engine name or country code A-Z, then newest; ties by id. engines " +
			"google_serp and google_shopping are accepted and match nothing (they do not answer in prose).",
		query:    mentionSampleParams(),
		response: s.mentionSamplesSchema(),
		errors: analyticsErrors(analyticsWindowErrors(mentionSampleParams()) + " sentiment, mentionType or sortBy invalid_value outside their values; " +
			"competitorId invalid_uuid, or invalid_value when not a current tracked competitor of the project; " +
			"limit out_of_range outside 1-100; offset out_of_range below 0."),
		read: s.handleMentionSamples,
	})
	analytics.handle(route{
		method: http.MethodGet, pattern: projectBase + "/mentions/mix", id: "getMentionMix",
		summary: "How AI answers name the own brand: by mention type, tone and qualifier",
		description: "Counts of the own brand's mentions in the window (one per AI answer naming it), never a " +
			"competitor's. Every bucket is present, 0 when empty; byType, byTone and byQualifier each sum to total.",
		query:    mentionMixParams(),
		response: s.mentionMixSchema(),
		errors:   analyticsErrors(analyticsWindowErrors(mentionMixParams())),
		read:     s.handleMentionMix,
	})
	analytics.handle(route{
		method: http.MethodGet, pattern: projectBase + "/sentiment", id: "getSentiment",
		summary: "Tone of the mentions of the own brand per AI engine and of each tracked competitor",
		description: "perEngine: the own brand on every AI engine in scope (every AI engine without an engines filter; " +
			"google_serp and google_shopping have no rows), with or without mentions. perCompetitor: every current " +
			"tracked competitor, ordered by name. positivityIndex is 100 x (positive + 0.5 x neutral) / mentionCount, " +
			"null without mentions; its interval uses n = mentionCount.",
		query:    analyticsFilterParams(ungroupedNarrowsAlone),
		response: s.sentimentSchema(),
		errors:   analyticsErrors(analyticsWindowErrors(analyticsFilterParams(ungroupedNarrowsAlone))),
		read:     s.handleSentiment,
	})
	analytics.handle(route{
		method: http.MethodGet, pattern: projectBase + "/cited-sources", id: "listCitedSources",
		summary: "Domains or pages AI answers cite, most cited first",
		description: "Every cited source, whoever owns it. Citations still behind an engine redirect (unresolved) are " +
			"left out. Ordered by citationCount (most first), then domain (groupBy domain) or URL (groupBy page); total " +
			"counts every domain or page. engines google_serp and google_shopping are accepted and match nothing.",
		query:    citedSourceParams(),
		response: s.citedSourcesSchema(),
		errors:   analyticsErrors(analyticsWindowErrors(citedSourceParams()) + " groupBy invalid_value; limit out_of_range outside 1-100; offset out_of_range below 0."),
		read:     s.handleCitedSources,
	})
	analytics.handle(route{
		method: http.MethodGet, pattern: projectBase + "/competitors/co-occurrence", id: "getCompetitorCoOccurrence",
		summary: "The own brand head to head with each tracked competitor in answers naming both",
		description: "One row per current tracked competitor (ordered by name), or only competitorId's. Counts are over " +
			"the AI answers naming both brands: brandWins name the own brand first, competitorWins the competitor, " +
			"ties give both the same position. winRate = 100 x brandWins / sharedResponseCount; averages are over the " +
			"shared answers; the example is the latest shared answer. A competitor never named with the own brand " +
			"has zeros and nulls.",
		query:    coOccurrenceParams(),
		response: s.coOccurrenceSchema(),
		errors: analyticsErrors(analyticsWindowErrors(coOccurrenceParams()) + " competitorId invalid_uuid, or invalid_value when not a current tracked " +
			"competitor of the project."),
		read: s.handleCoOccurrence,
	})
	analytics.handle(route{
		method: http.MethodGet, pattern: projectBase + "/available-filters", id: "getAvailableFilters",
		summary: "The engines, countries and clusters a project's analytics can be filtered by",
		description: "engines and countries are those the project's tracked queries (active and paused) use; clusters " +
			"are the project's, by name. Competitor ids are not included (the project read lists them). Takes no " +
			"parameters.",
		response: s.availableFiltersSchema(),
		errors:   analyticsErrors("unknown_field for any parameter."),
		read:     s.handleAvailableFilters,
	})
}
