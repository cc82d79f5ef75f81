package api

import (
	"errors"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/google/uuid"

	"github.com/sightline/sightline"
	"github.com/sightline/sightline/olap"
	"github.com/sightline/sightline/oltp"
)

// Analytics (spec 4.3): windowed figures over a project's captures. Every
// windowed operation takes dateFrom and dateTo, both required, whole UTC
// days inclusive; dateFrom may not lie before the retention floor (the day
// 16 months before today) and dateTo not before dateFrom. The filters
// engines, countries, queryClusterIds and includeUngroupedQueries read the
// same everywhere they are accepted, except what includeUngroupedQueries
// does alone, which each operation documents (ungroupedMeaning). Each
// family of figures has its own file: its routes, handlers and records;
// the readers and their SQL live in olap.

// analyticsRoutes registers every analytics operation.
func (s *server) analyticsRoutes(analytics routeGroup) {
	s.metricsRoutes(analytics)
	s.timeseriesRoutes(analytics)
	s.queryAnalyticsRoutes(analytics)
	s.mentionsRoutes(analytics)
}

// analyticsErrors are an analytics read's refusals: badRequest for 400,
// and a project the key cannot see for 404.
func analyticsErrors(badRequest string) map[int]string {
	return map[int]string{400: badRequest, 404: projectNotFound}
}

// analyticsWindowErrors documents the refusals of a windowed operation
// that takes the query parameters params: those of the window, and of the
// engine, country and cluster filters among params (a filter the operation
// does not take is an unknown_field like any other parameter).
func analyticsWindowErrors(params []*openapi3.Parameter) string {
	text := "dateFrom or dateTo missing_field, or invalid_value when not a YYYY-MM-DD date; dateFrom out_of_range " +
		"before the retention floor (16 months before today, UTC); dateTo out_of_range before dateFrom;"
	for _, p := range params {
		switch p.Name {
		case "engines":
			text += " engines invalid_value;"
		case "countries":
			text += " countries invalid_value when not a country or not configured on the project;"
		case "queryClusterIds":
			text += " queryClusterIds invalid_value when not a cluster of the project;"
		}
	}
	return text + " unknown_field for any other parameter."
}

// analyticsWindowParams are dateFrom and dateTo.
func analyticsWindowParams() []*openapi3.Parameter {
	return []*openapi3.Parameter{
		openapi3.NewQueryParameter("dateFrom").WithRequired(true).WithSchema(stringSchema().WithFormat("date")).
			WithDescription("First UTC day of the window (YYYY-MM-DD). Not before the retention floor, the day 16 months " +
				"before today (UTC), else 400 out_of_range."),
		openapi3.NewQueryParameter("dateTo").WithRequired(true).WithSchema(stringSchema().WithFormat("date")).
			WithDescription("Last UTC day of the window, inclusive (YYYY-MM-DD). Not before dateFrom, else 400 " +
				"out_of_range."),
	}
}

// analyticsEnginesParam narrows to engines.
func analyticsEnginesParam() *openapi3.Parameter {
	return openapi3.NewQueryParameter("engines").WithSchema(arrayOf(enumFrom(sightline.Engines))).
		WithDescription("Only captures of these engines. Repeatable or comma-separated.")
}

// analyticsCountriesParam narrows to countries.
func analyticsCountriesParam() *openapi3.Parameter {
	return openapi3.NewQueryParameter("countries").WithSchema(arrayOf(stringSchema().WithMaxLength(100))).
		WithDescription("Only captures asked from these countries: ISO 3166-1 alpha-2 codes (any case) or English " +
			"names, repeatable or comma-separated; each must be configured on the project (used by one of its tracked " +
			"queries), else 400 naming the parameter.")
}

// ungroupedMeaning is what includeUngroupedQueries does on an operation.
type ungroupedMeaning int

const (
	// ungroupedWidens: with queryClusterIds it adds the queries that
	// belong to no cluster; alone it changes nothing (GET /metrics).
	ungroupedWidens ungroupedMeaning = iota
	// ungroupedNarrowsAlone: with queryClusterIds it adds the queries in no
	// cluster; alone it narrows to them.
	ungroupedNarrowsAlone
)

// analyticsClusterParams are queryClusterIds and includeUngroupedQueries.
func analyticsClusterParams(meaning ungroupedMeaning) []*openapi3.Parameter {
	ungrouped := "With queryClusterIds, also the tracked queries that belong to no cluster; alone, no effect."
	if meaning == ungroupedNarrowsAlone {
		ungrouped = "With queryClusterIds, also the tracked queries that belong to no cluster; alone, only those."
	}
	return []*openapi3.Parameter{
		openapi3.NewQueryParameter("queryClusterIds").WithSchema(arrayOf(uuidSchema())).
			WithDescription("Only tracked queries that are members of one of these clusters today (memberships as they " +
				"are now, applied to every date of the window). Repeatable or comma-separated. Each must be a cluster of " +
				"the project, else 400; a cluster deleted since selects nothing."),
		openapi3.NewQueryParameter("includeUngroupedQueries").WithSchema(boolSchema().WithDefault(false)).
			WithDescription(ungrouped),
	}
}

// analyticsFilterParams are the window and the engine, country and cluster
// filters, in that order.
func analyticsFilterParams(meaning ungroupedMeaning) []*openapi3.Parameter {
	return append(append(analyticsWindowParams(), analyticsEnginesParam(), analyticsCountriesParam()),
		analyticsClusterParams(meaning)...)
}

// projectAnalyticsScope loads the path's project for reading and reads
// its analytics scope. A validation error of the scope comes with the
// project, so a caller can add its own problems to it.
func (s *server) projectAnalyticsScope(r *request, meaning ungroupedMeaning) (*oltp.ProjectScope, olap.Scope, error) {
	p, err := s.projectForRead(r)
	if err != nil {
		return nil, olap.Scope{}, err
	}
	scope, err := s.analyticsScope(r, p, meaning)
	return p, scope, err
}

// analyticsCompetitors reads the path's project and its analytics scope
// as projectAnalyticsScope does, and the project's current competitors by
// name.
func (s *server) analyticsCompetitors(r *request, meaning ungroupedMeaning) (*oltp.ProjectScope, olap.Scope, []oltp.CompetitorName, error) {
	p, scope, err := s.projectAnalyticsScope(r, meaning)
	if err != nil {
		return nil, olap.Scope{}, nil, err
	}
	competitors, err := oltp.CompetitorNames(r.Context(), s.pool, p.ID)
	if err != nil {
		return nil, olap.Scope{}, nil, err
	}
	return p, scope, competitors, nil
}

// analyticsScope reads the window and whichever filters the operation
// declares into the scope of project p, reporting every problem at once.
func (s *server) analyticsScope(r *request, p *oltp.ProjectScope, meaning ungroupedMeaning) (olap.Scope, error) {
	q := r.query
	scope := olap.Scope{ProjectID: p.ID}
	errs := sightline.ValidationErrors{}
	scope.From, scope.To = analyticsWindow(q, time.Now(), errs)
	if _, ok := q.params["engines"]; ok {
		for _, e := range q.strings("engines") {
			scope.Engines = append(scope.Engines, sightline.Engine(e))
		}
	}
	if _, ok := q.params["countries"]; ok && q.has("countries") {
		codes, err := s.trackedCountryFilter(r.Context(), p.ID, q.strings("countries"))
		if !mergeValidation(errs, err) {
			return scope, err
		}
		scope.Countries = codes
	}
	if _, ok := q.params["queryClusterIds"]; ok {
		ids, err := s.analyticsClusterSelection(r, p.ID, meaning, errs)
		if err != nil {
			return scope, err
		}
		scope.TrackedQueryIDs = ids
	}
	return scope, errs.Err()
}

// analyticsClusterSelection resolves queryClusterIds and
// includeUngroupedQueries to the tracked queries they select; nil selects
// every query.
func (s *server) analyticsClusterSelection(r *request, projectID uuid.UUID, meaning ungroupedMeaning,
	errs sightline.ValidationErrors) ([]uuid.UUID, error) {
	q := r.query
	ungrouped := q.string("includeUngroupedQueries") == "true"
	if !q.has("queryClusterIds") && (!ungrouped || meaning == ungroupedWidens) {
		return nil, nil
	}
	clusterIDs := uuidsOf(q.strings("queryClusterIds"))
	sel, err := oltp.SelectQueryClusters(r.Context(), s.pool, projectID, clusterIDs, ungrouped)
	if err != nil {
		return nil, err
	}
	for _, id := range sel.Unknown {
		errs.Add("queryClusterIds", sightline.DetailInvalidValue, "%s is not a cluster of this project", id)
	}
	return sel.TrackedQueryIDs, nil
}

// analyticsWindow reads the required dateFrom and dateTo as UTC days,
// adding their problems to errs.
func analyticsWindow(q *queryParams, now time.Time, errs sightline.ValidationErrors) (from, to time.Time) {
	floor := captureRetentionFloor(now)
	day := func(name string) (time.Time, bool) {
		if !q.has(name) {
			errs.Add(name, sightline.DetailMissingField, "is required (YYYY-MM-DD)")
			return time.Time{}, false
		}
		d, err := time.Parse(time.DateOnly, q.string(name))
		if err != nil {
			errs.Add(name, sightline.DetailInvalidValue, "must be a date YYYY-MM-DD")
			return time.Time{}, false
		}
		return d, true
	}
	from, fromOK := day("dateFrom")
	to, toOK := day("dateTo")
	if fromOK && from.Before(floor) {
		errs.Add("dateFrom", sightline.DetailOutOfRange,
			"must not be before %s: captures are kept %d months", floor.Format(time.DateOnly), captureRetentionMonths)
	}
	if fromOK && toOK && to.Before(from) {
		errs.Add("dateTo", sightline.DetailOutOfRange, "must not be before dateFrom (%s)", from.Format(time.DateOnly))
	}
	return from, to
}

// mergeValidation adds err's details to errs and reports true when err is
// nil or a validation error; any other error is the caller's to return.
func mergeValidation(errs sightline.ValidationErrors, err error) bool {
	if err == nil {
		return true
	}
	var e *sightline.Error
	if !errors.As(err, &e) || e.Code != sightline.CodeValidation {
		return false
	}
	for field, details := range e.Details {
		errs[field] = append(errs[field], details...)
	}
	return true
}

// uuidsOf parses values the query check has already found to be uuids.
func uuidsOf(values []string) []uuid.UUID {
	ids := make([]uuid.UUID, 0, len(values))
	seen := map[uuid.UUID]bool{}
	for _, v := range values {
		id := uuid.MustParse(v)
		if !seen[id] {
			seen[id] = true
			ids = append(ids, id)
		}
	}
	return ids
}

// dataDirtySince is the project's dataDirtySince as the analytics answer
// it: null when nothing is pending.
func dataDirtySince(p *oltp.ProjectScope) *sightline.Timestamp {
	if p.DataDirtySince == nil {
		return nil
	}
	return &sightline.Timestamp{Time: *p.DataDirtySince}
}

// dataDirtySinceSchema documents dataDirtySince.
func dataDirtySinceSchema() *openapi3.Schema {
	return described(nullable(timeSchema()), "null when nothing is pending; while a background recalculation "+
		"(a deleted tracked query's or competitor's cascade) is pending, the time from which figures may still move.")
}

// intervalSchema documents the confidence interval that accompanies every
// rate and share.
func (s *server) intervalSchema() *openapi3.Schema {
	return s.component("ConfidenceInterval", described(nullable(object(props{
		"n":    described(integerSchema().WithMin(0), "Observations the figure is computed from (its denominator)."),
		"low":  described(openapi3.NewFloat64Schema().WithMin(0).WithMax(100), "Lower bound, percent."),
		"high": described(openapi3.NewFloat64Schema().WithMin(0).WithMax(100), "Upper bound, percent."),
	}, "n", "low", "high")), "95% Wilson score interval of the figure beside it and its sample size; null exactly "+
		"when that figure is null."))
}
