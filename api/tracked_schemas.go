package api

import (
	"github.com/getkin/kin-openapi/openapi3"

	"github.com/sightline/sightline"
	"github.com/sightline/sightline/oltp"
)

// OpenAPI schemas of the tracked-query operations (spec 4.2).

func trackedCountrySchema() *openapi3.Schema {
	return described(stringSchema().WithPattern(`^[A-Z]{2}$`), "ISO 3166-1 alpha-2 code.")
}

func trackedFrequencySchema() *openapi3.Schema {
	return enumFrom(sightline.CheckFrequencies)
}

func trackedPassesSchema() *openapi3.Schema {
	return described(integerSchema().WithMin(1).WithMax(10),
		"Passes per check, 1 to 10; always 1 for google_serp and google_shopping.")
}

func (s *server) trackedQuerySchema() *openapi3.Schema {
	return s.component("TrackedQuery", object(props{
		"id":             uuidSchema(),
		"projectId":      uuidSchema(),
		"queryText":      described(stringSchema(), "Stored normalised: lower-cased, white space collapsed, leading list markers stripped."),
		"engine":         enumFrom(sightline.Engines),
		"country":        trackedCountrySchema(),
		"locale":         described(nullable(stringSchema().WithPattern(`^[a-z]{2}$`)), "ISO 639-1; null: the engine is asked without a language."),
		"checkFrequency": trackedFrequencySchema(),
		"nPasses":        trackedPassesSchema(),
		"status":         enumFrom(sightline.TrackedQueryStatuses),
		"queryClusterIds": described(arrayOf(uuidSchema()),
			"The clusters the query belongs to, in creation order."),
		"lastCheckedAt": described(nullable(timeSchema()), "Null: no check has completed yet."),
		"createdAt":     timeSchema(),
	}, "id", "projectId", "queryText", "engine", "country", "locale", "checkFrequency", "nPasses", "status",
		"queryClusterIds", "lastCheckedAt", "createdAt"))
}

func (s *server) trackedSearchRowSchema() *openapi3.Schema {
	position := func(what string) *openapi3.Schema {
		return described(nullable(openapi3.NewFloat64Schema().WithMin(1)),
			"1-based "+what+" of the most recent completed check, lower is better; null: not known.")
	}
	percentage := func(what string) *openapi3.Schema {
		return described(nullable(openapi3.NewFloat64Schema().WithMin(0).WithMax(100)),
			what+" of the most recent completed check, 0 to 100, higher is better; null: not known.")
	}
	return s.component("TrackedQuerySearchRow", object(props{
		"id":                   uuidSchema(),
		"queryText":            stringSchema(),
		"engine":               enumFrom(sightline.Engines),
		"country":              trackedCountrySchema(),
		"status":               enumFrom(sightline.TrackedQueryStatuses),
		"checkFrequency":       trackedFrequencySchema(),
		"nPasses":              trackedPassesSchema(),
		"queryClusterIds":      arrayOf(uuidSchema()),
		"lastSerpPosition":     position("search-results rank of the own domain"),
		"lastMentionPosition":  position("rank of the own brand among the brands the answers name"),
		"lastLinkPosition":     position("position of the first cited source on an own domain"),
		"lastShoppingPosition": position("shopping-results rank of the own domain"),
		"lastShareOfVoice":     percentage("Share of voice"),
		"lastPositivityIndex":  percentage("Positivity index"),
		"lastMentionCount": described(integerSchema().WithMin(0),
			"Own-brand mentions in the most recent completed check; a counter, 0 before any check."),
		"lastCheckedAt": described(nullable(timeSchema()), "Null: no check has completed yet."),
	}, "id", "queryText", "engine", "country", "status", "checkFrequency", "nPasses", "queryClusterIds",
		"lastSerpPosition", "lastMentionPosition", "lastLinkPosition", "lastShoppingPosition",
		"lastShareOfVoice", "lastPositivityIndex", "lastMentionCount", "lastCheckedAt"))
}

func (s *server) trackedCreateBodySchema() *openapi3.Schema {
	return object(props{
		"queryTexts": described(arrayOf(stringSchema()).WithMinItems(1).WithMaxItems(100),
			"Each normalised (lower-cased, white space collapsed, leading list markers such as 1. - * • stripped) "+
				"to 1 to 500 characters."),
		"engines": arrayOf(enumFrom(sightline.Engines)).WithMinItems(1).WithMaxItems(100),
		"countries": described(arrayOf(stringSchema().WithMinLength(2).WithMaxLength(2)).WithMinItems(1).WithMaxItems(100),
			"ISO 3166-1 alpha-2 codes, any case; stored upper-case."),
		"locale": described(nullable(stringSchema().WithMinLength(2).WithMaxLength(2)),
			"ISO 639-1 code, any case; stored lower-case. Absent or null: no language."),
		"checkFrequency": trackedFrequencySchema(),
		"nPasses":        trackedPassesSchema(),
		"queryClusterIds": described(arrayOf(uuidSchema()).WithMaxItems(100),
			"Clusters of the project every combination joins; may be empty; duplicates collapsed."),
	}, "queryTexts", "engines", "countries", "checkFrequency", "nPasses", "queryClusterIds")
}

func (s *server) trackedCreateAnswerSchema() *openapi3.Schema {
	combination := func(p props) props {
		p["queryText"] = described(stringSchema(), "The normalised text.")
		p["engine"] = enumFrom(sightline.Engines)
		p["country"] = trackedCountrySchema()
		return p
	}
	return s.component("TrackedQueryCreateResult", object(props{
		"successful": arrayOf(object(combination(props{"id": uuidSchema()}), "id", "queryText", "engine", "country")),
		"failed": arrayOf(object(combination(props{
			"id": described(nullable(uuidSchema()),
				"tracked_query_already_exists: the existing query; duplicate_combination_in_request: the query of the "+
					"entry repeated, if it has one; otherwise null."),
			"errorCode": enumOf(string(sightline.ItemTrackedQueryAlreadyExists), string(sightline.ItemDuplicateCombinationInRequest),
				string(sightline.ItemEngineNotAvailableInCountry)),
			"errorMessage": stringSchema(),
			"repeatsIndex": described(nullable(integerSchema().WithMin(0)),
				"duplicate_combination_in_request only: 0-based index of the queryTexts entry whose text this "+
					"combination's text repeats once normalised; null otherwise."),
		}), "id", "queryText", "engine", "country", "errorCode", "errorMessage", "repeatsIndex")),
	}, "successful", "failed"))
}

// trackedBatchAnswerSchema is the batch answer; codes are the item codes
// the operation can give.
func trackedBatchAnswerSchema(codes ...sightline.Code) *openapi3.Schema {
	names := make([]string, len(codes))
	for i, c := range codes {
		names[i] = string(c)
	}
	return object(props{
		"successful": arrayOf(object(props{"id": uuidSchema()}, "id")),
		"failed": arrayOf(object(props{
			"id":           described(stringSchema(), "The id as sent (it may be no uuid)."),
			"errorCode":    enumOf(names...),
			"errorMessage": stringSchema(),
		}, "id", "errorCode", "errorMessage")),
	}, "successful", "failed")
}

// trackedIDsBodySchema is the body of trackedIDsBody.
func trackedIDsBodySchema() *openapi3.Schema {
	return object(props{"ids": trackedBatchIDsSchema()}, "ids")
}

func trackedBatchIDsSchema() *openapi3.Schema {
	return described(arrayOf(stringSchema().WithMaxLength(maxTrackedIDLength)).WithMinItems(1),
		"Tracked query ids: 1 to 100 distinct once duplicates are collapsed. An id that is not a tracked query of "+
			"this project (unknown, malformed, deleted, of another project) fails as tracked_query_not_found; one "+
			"longer than any spelling of a uuid rejects the call with 400 naming ids[i].")
}

func trackedClusterIDsSchema() *openapi3.Schema {
	return described(arrayOf(uuidSchema()).WithMinItems(1),
		"1 to 100 distinct cluster ids once duplicates are collapsed; each must be a cluster of this project, "+
			"else 400 naming it and nothing is written.")
}

// trackedClustersBodySchema is the body of adding one query to clusters or
// removing it from them (trackedClustersBody).
func trackedClustersBodySchema() *openapi3.Schema {
	return object(props{"queryClusterIds": trackedClusterIDsSchema()}, "queryClusterIds")
}

// trackedBulkClustersBodySchema is the body of adding several queries to
// clusters or removing them from them (trackedBulkClustersBody).
func trackedBulkClustersBodySchema() *openapi3.Schema {
	return object(props{"ids": trackedBatchIDsSchema(), "queryClusterIds": trackedClusterIDsSchema()},
		"ids", "queryClusterIds")
}

// trackedMembershipErrors are the refusals of a membership change of the
// path's query.
func trackedMembershipErrors() routeErrors {
	return projectWriteErrors(trackedQueryNotFound).
		with(400, "queryClusterIds[i] invalid_value: not a cluster of this project (nothing written).")
}

// trackedBulkMembershipErrors are the refusals of a membership change of
// several queries; their ids fail one by one instead.
func trackedBulkMembershipErrors() routeErrors {
	return projectWriteErrors(projectNotFound).
		with(400, "queryClusterIds[i] invalid_value: a cluster outside the project rejects the whole call; nothing is written.")
}

func trackedCountSchema() *openapi3.Schema {
	return object(props{
		"count": integerSchema().WithMin(0),
		"checkCost": described(integerSchema().WithMin(0),
			"Check budget units to check every matched query once: the sum of their nPasses. Reserves nothing."),
	}, "count", "checkCost")
}

func (s *server) coverageSchema() *openapi3.Schema {
	return s.component("Coverage", object(props{
		"total":        integerSchema().WithMin(0),
		"active":       integerSchema().WithMin(0),
		"paused":       integerSchema().WithMin(0),
		"neverChecked": described(integerSchema().WithMin(0), "Active queries no check has completed for."),
		"overdue": described(integerSchema().WithMin(0),
			"Active queries whose last completed check is older than their frequency's interval "+
				"(daily 1 day, weekly 7 days, monthly 30 days); disjoint from neverChecked."),
		"sample": described(arrayOf(object(props{
			"id":             uuidSchema(),
			"queryText":      stringSchema(),
			"engine":         enumFrom(sightline.Engines),
			"country":        trackedCountrySchema(),
			"checkFrequency": trackedFrequencySchema(),
			"lastCheckedAt":  timeSchema(),
		}, "id", "queryText", "engine", "country", "checkFrequency", "lastCheckedAt")).WithMaxItems(oltp.CoverageSampleSize),
			"Up to 20 overdue queries, most stale (oldest last check) first; never a never-checked one."),
	}, "total", "active", "paused", "neverChecked", "overdue", "sample"))
}

// trackedBase is the path every tracked-query operation starts with.
const trackedBase = projectBase + "/tracked-queries"

// trackedQueryNotFound is the 404 of an operation on one tracked query.
const trackedQueryNotFound = "organization_not_found: no accessible project, or no tracked query of it, has the id."
