package api

import (
	"net/http"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/sightline/sightline"
	"github.com/sightline/sightline/olap"
)

// Match listings of one tracked query (spec 4.2): the brands its AI answers
// named (mention matches) and the results of its search pages on the own
// brand's or a tracked competitor's domain (serp matches), as stored when
// captured, never reclassified. Windows and defaults are the captures'
// (captures.go).

// matchListingParams are the query parameters of both match listings.
func matchListingParams() []*openapi3.Parameter {
	return append(append(pagingParams(), captureDateParams()...), captureSortOrderParam())
}

// matchListingErrors are the refusals of both match listings.
var matchListingErrors = map[int]string{
	400: "dateFrom out_of_range: before the retention floor (16 months back) or after dateTo; dateTo out_of_range: " +
		"before dateFrom; dateFrom or dateTo invalid_value: not a YYYY-MM-DD date.",
	404: "organization_not_found: no accessible project, or no tracked query of it, has the id (another project's query included).",
}

// mentionProps are the fields of a stored mention that a mention match and
// a mention sample (GET /mentions) both carry.
func mentionProps() props {
	return props{
		"aiResponseId": described(uuidSchema(), "The AI answer naming the brand (an ai-responses id)."),
		"detectedAt":   described(timeSchema(), "When the answer was captured."),
		"engine":       enumOf(aiEngines()...),
		"brandName":    described(stringSchema(), "The brand as the answer first writes it."),
		"mentionRelation": described(nullable(enumOf(string(sightline.RelationOwn),
			string(sightline.RelationTrackedCompetitor), string(sightline.RelationUntrackedCompetitor))),
			"Whose brand it is; the contract reserves null for rows predating the field, which this service never "+
				"stores."),
		"mentionPosition": described(integerSchema().WithMin(1),
			"1-based rank of the brand among every brand the answer names, by first appearance."),
		"mentionType": enumFrom(sightline.MentionTypes),
		"sentiment":   enumFrom(sightline.Tones),
		"mentionText": described(stringSchema(), "The sentence of the first mention."),
	}
}

func (s *server) mentionMatchSchema() *openapi3.Schema {
	p := mentionProps()
	p["id"] = uuidSchema()
	p["competitorId"] = described(nullable(uuidSchema()),
		"The tracked competitor named; null for the own brand and for untracked competitors.")
	p["qualifier"] = enumFrom(sightline.Qualifiers)
	return s.component("MentionMatch", object(p, "id", "aiResponseId", "detectedAt", "engine", "brandName",
		"competitorId", "mentionRelation", "mentionPosition", "mentionType", "sentiment", "qualifier", "mentionText"))
}

func (s *server) serpMatchSchema() *openapi3.Schema {
	return s.component("SerpMatch", object(props{
		"id":         uuidSchema(),
		"snapshotId": described(uuidSchema(), "The search snapshot the result is on (a search-snapshots id)."),
		"detectedAt": described(timeSchema(), "When the page was captured."),
		"rank":       described(integerSchema().WithMin(1), "1-based organic rank."),
		"url":        stringSchema(),
		"domain":     described(stringSchema(), "Host without www."),
		"competitorId": described(nullable(uuidSchema()),
			"The tracked competitor whose domain it is; null means the own brand's."),
	}, "id", "snapshotId", "detectedAt", "rank", "url", "domain", "competitorId"))
}

// matchFilter loads the path's project and tracked query and builds the
// listing's filter; ok is false when the window cannot hold a match.
func (s *server) matchFilter(r *request) (f olap.ReadFilter, ok bool, err error) {
	p, q, err := s.trackedQueryForRead(r)
	if err != nil {
		return f, false, err
	}
	return s.captureFilter(r, p, &q.ID, true)
}

// matchRoutes lists a tracked query's mention and SERP matches (spec 4.2).
func (s *server) matchRoutes(tracked routeGroup) {
	tracked.handle(route{
		method: http.MethodGet, pattern: trackedBase + "/{trackedQueryId}/mention-matches", id: "listMentionMatches",
		summary: "Brands the tracked query's AI answers named",
		description: "Stored mention matches, as classified when captured (never reclassified): own brand, tracked and " +
			"untracked competitors, each with mentionRelation; cited sources that name no brand in the text are not " +
			"matches. Ordered by detectedAt (the answer's capture time), ties by id in the same direction; sortOrder " +
			"desc (default) is newest first. dateFrom defaults to the retention floor (16 months back) and dateTo to " +
			"today, whole UTC days. Archived projects answer. CSV: the same page without total.",
		query: matchListingParams(), response: listingSchema(s.mentionMatchSchema()), csv: true,
		errors: matchListingErrors,
		read:   pagedCaptures(s, "mention matches", s.matchFilter, CaptureReader.MentionMatches),
	})
	tracked.handle(route{
		method: http.MethodGet, pattern: trackedBase + "/{trackedQueryId}/serp-matches", id: "listSerpMatches",
		summary: "The tracked query's search results on tracked domains",
		description: "Stored serp matches: organic results of the query's search snapshots on the own brand's domains " +
			"(competitorId null) or a tracked competitor's, as classified when captured; a competitor's matches leave " +
			"with the competitor. Ordered by detectedAt (the page's capture time), ties by id in the same direction; " +
			"sortOrder desc (default) is newest first. dateFrom defaults to the retention floor (16 months back) and " +
			"dateTo to today, whole UTC days. Empty for queries on other engines. Archived projects answer. CSV: the " +
			"same page without total.",
		query: matchListingParams(), response: listingSchema(s.serpMatchSchema()), csv: true,
		errors: matchListingErrors,
		read:   pagedCaptures(s, "serp matches", s.matchFilter, CaptureReader.SerpMatches),
	})
}
