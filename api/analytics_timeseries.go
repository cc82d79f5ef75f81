package api

import (
	"fmt"
	"net/http"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/google/uuid"

	"github.com/sightline/sightline"
	"github.com/sightline/sightline/olap"
	"github.com/sightline/sightline/oltp"
)

// Time series (spec 4.3): a project's, or one tracked query's, figures per
// day, ISO week or calendar month of the window, for the own brand and the
// competitors asked for. Every bucket of the window has a point; a figure
// no completed capture stands behind is null (a gap), never 0.
//
// Decisions where the spec is silent:
//   - competitorIds must name current competitors of the project; any
//     other id (unknown, deleted, another project's) is refused with 400
//     rather than answered with an empty entry, so a typo cannot pass for
//     a competitor that is never mentioned.
//   - A project with no tracked query answers points: [] (spec 2.9), and
//     so does a cluster filter that leaves no tracked query (a deleted or
//     empty cluster, alone or together): analytics filtered by a deleted
//     cluster return nothing (spec 4.7). A filter that leaves tracked
//     queries without captures in the window answers null points.
//   - The single tracked query's shareOfVoice is 0 when its AI answers of
//     the bucket name no brand at all; that 0's interval is {n: 0, low: 0,
//     high: 100}, the limit of a Wilson interval without observations.

// timeseriesParams are the query parameters of a time series; filtered
// adds the engine, country and cluster filters of the project's.
func timeseriesParams(filtered bool) []*openapi3.Parameter {
	params := analyticsWindowParams()
	if filtered {
		params = analyticsFilterParams(ungroupedNarrowsAlone)
	}
	return append(params,
		openapi3.NewQueryParameter("granularity").
			WithSchema(enumFrom(olap.Granularities).WithDefault(string(olap.GranularityDaily))).
			WithDescription("Bucket width: UTC days, ISO weeks (Monday to Sunday) or calendar months. The first "+
				"bucket starts on dateFrom whatever its weekday or day of the month."),
		openapi3.NewQueryParameter("competitorIds").WithSchema(arrayOf(uuidSchema())).
			WithDescription("Competitors to chart next to the own brand, repeatable or comma-separated; each point's "+
				"competitors map has one entry per id. Each must be a current competitor of the project, else 400."),
	)
}

// Records.

// timeseriesAnswer is the answer of both time-series operations.
type timeseriesAnswer struct {
	Points         []timeseriesPoint    `json:"points"`
	DataDirtySince *sightline.Timestamp `json:"dataDirtySince"`
}

// timeseriesPoint is one bucket: the own brand's figures and each
// requested competitor's.
type timeseriesPoint struct {
	Date string `json:"date"`
	olap.TimeseriesFigures
	Competitors map[uuid.UUID]olap.TimeseriesFigures `json:"competitors"`
}

func (s *server) timeseriesSchema() *openapi3.Schema {
	interval := s.intervalSchema()
	figures := func() props {
		position := func(what string) *openapi3.Schema {
			return described(nullable(openapi3.NewFloat64Schema().WithMin(1)),
				"Mean "+what+" over the bucket's passes that have one (lower is better); null without any.")
		}
		percent := func(what string) *openapi3.Schema {
			return described(nullable(openapi3.NewFloat64Schema().WithMin(0).WithMax(100)), what)
		}
		return props{
			"serp":     position("best organic rank on the brand's domains, per search snapshot,"),
			"shopping": position("best offer rank on the brand's domains, per shopping snapshot,"),
			"mention":  position("1-based rank among the brands an AI answer names"),
			"link":     position("position of the first cited source on the brand's domains"),
			"positivity": percent("100 x (positive + 0.5 x neutral) / mentions of the brand in the bucket; null " +
				"without mentions."),
			"shareOfVoice": percent("The brand's summed mention worth over every brand's, x 100; null when no brand " +
				"was named (single tracked query: 0 when AI answers were captured, null when none were)."),
			"mentionRate": percent("100 x AI answers naming the brand / AI answers captured (the own brand's " +
				"completed AI passes); null without AI answers."),
			"serpRate": percent("100 x search snapshots with a result on the brand's domains / search snapshots " +
				"captured; null without search snapshots."),
			"shareOfVoiceInterval": interval,
			"mentionRateInterval":  interval,
			"serpRateInterval":     interval,
			"positivityInterval":   interval,
		}
	}
	required := []string{"serp", "shopping", "mention", "link", "positivity", "shareOfVoice", "mentionRate",
		"serpRate", "shareOfVoiceInterval", "mentionRateInterval", "serpRateInterval", "positivityInterval"}
	competitor := s.component("TimeseriesFigures", object(figures(), required...))
	point := figures()
	point["date"] = described(stringSchema().WithFormat("date"),
		"First day of the bucket (YYYY-MM-DD): the day, the ISO week's Monday or the month's first day; the first "+
			"bucket's is dateFrom.")
	point["competitors"] = described(openapi3.NewObjectSchema().WithAdditionalProperties(competitor),
		"Keyed by competitor id: one entry per requested competitor, the same figures as the own brand's. Rates "+
			"divide by the own brand's captures of the bucket.")
	return s.component("Timeseries", object(props{
		"points": described(arrayOf(s.component("TimeseriesPoint",
			object(point, append([]string{"date"}, append(required, "competitors")...)...))),
			"One per bucket of the window up to today (UTC; days yet to come have none), in date order; empty "+
				"for a project with no tracked query and for a cluster filter that leaves none."),
		"dataDirtySince": dataDirtySinceSchema(),
	}, "points", "dataDirtySince"))
}

// Handlers.

func (s *server) handleProjectTimeseries(r *request) (any, error) {
	p, err := s.projectForRead(r)
	if err != nil {
		return nil, err
	}
	q, err := s.timeseriesQuery(r, p)
	if err != nil {
		return nil, err
	}
	count, _, err := oltp.CountTrackedQueries(r.Context(), s.pool, p.ID, "")
	if err != nil {
		return nil, err
	}
	if count == 0 || q.Empty() {
		return timeseriesAnswer{Points: []timeseriesPoint{}, DataDirtySince: dataDirtySince(p)}, nil
	}
	return s.timeseries(r, p, q)
}

func (s *server) handleTrackedQueryTimeseries(r *request) (any, error) {
	p, query, err := s.trackedQueryForRead(r)
	if err != nil {
		return nil, err
	}
	q, err := s.timeseriesQuery(r, p)
	if err != nil {
		return nil, err
	}
	q.TrackedQueryIDs, q.MeasuredShare = []uuid.UUID{query.ID}, true
	return s.timeseries(r, p, q)
}

// timeseriesQuery reads the window, the filters the operation declares,
// granularity and competitorIds, reporting every problem at once.
func (s *server) timeseriesQuery(r *request, p *oltp.ProjectScope) (olap.TimeseriesQuery, error) {
	errs := sightline.ValidationErrors{}
	scope, err := s.analyticsScope(r, p, ungroupedNarrowsAlone)
	if !mergeValidation(errs, err) {
		return olap.TimeseriesQuery{}, err
	}
	q := olap.TimeseriesQuery{Scope: scope, Granularity: olap.Granularity(r.query.string("granularity"))}
	// Days yet to come have no point: a window reaching past today ends
	// today, so a far dateTo cannot ask for millions of empty buckets.
	if today := time.Now().UTC().Truncate(24 * time.Hour); q.To.After(today) {
		q.To = today
	}
	if r.query.has("competitorIds") {
		q.CompetitorIDs = uuidsOf(r.query.strings("competitorIds"))
		unknown, err := oltp.UnknownCompetitors(r.Context(), s.pool, p.ID, q.CompetitorIDs)
		if err != nil {
			return q, err
		}
		for _, id := range unknown {
			errs.Add("competitorIds", sightline.DetailInvalidValue, "%s is not a competitor of this project", id)
		}
	}
	return q, errs.Err()
}

// timeseries reads q's points and answers them.
func (s *server) timeseries(r *request, p *oltp.ProjectScope, q olap.TimeseriesQuery) (any, error) {
	points, err := s.analytics.Timeseries(r.Context(), q)
	if err != nil {
		return nil, fmt.Errorf("reading time series: %w", err)
	}
	out := timeseriesAnswer{Points: make([]timeseriesPoint, len(points)), DataDirtySince: dataDirtySince(p)}
	for i, pt := range points {
		out.Points[i] = timeseriesPoint{Date: pt.Start.Format(time.DateOnly), TimeseriesFigures: pt.Own,
			Competitors: pt.Competitors}
	}
	return out, nil
}

// timeseriesRoutes registers both time-series operations.
func (s *server) timeseriesRoutes(analytics routeGroup) {
	analytics.handle(route{
		method: http.MethodGet, pattern: projectBase + "/timeseries", id: "getProjectTimeseries",
		summary: "The project's figures per day, week or month, with competitors side by side",
		description: "One point per bucket of the window, data or not: each UTC day (daily), each ISO week starting " +
			"Monday (weekly) or each calendar month (monthly), the first bucket starting on dateFrom. Positions are " +
			"means over the passes that have one; mentionRate and serpRate divide by the own brand's completed AI " +
			"answers and search snapshots of the bucket, competitors' rates too; shareOfVoice is the brand's mention " +
			"worth over every brand's worth in the bucket (null when no brand was named). Null means no completed " +
			"capture stands behind the figure, never 0. A project with no tracked query answers points: [], and so " +
			"does a cluster filter that leaves no tracked query (a deleted or empty cluster). " +
			"Archived projects answer.",
		query:    timeseriesParams(true),
		response: s.timeseriesSchema(),
		errors: map[int]string{
			400: analyticsWindowErrors(timeseriesParams(true)) + " granularity invalid_value; competitorIds invalid_uuid, or invalid_value " +
				"when not a current competitor of the project.",
			404: projectNotFound,
		},
		read: s.handleProjectTimeseries,
	})
	analytics.handle(route{
		method: http.MethodGet, pattern: projectBase + "/tracked-queries/{trackedQueryId}/timeseries",
		id:      "getTrackedQueryTimeseries",
		summary: "One tracked query's figures per day, week or month, with competitors side by side",
		description: "As the project's time series, over one tracked query's captures; there is no engine, country " +
			"or cluster filter (those parameters are refused). shareOfVoice 0 means measured and never mentioned " +
			"(AI answers were captured in the bucket and did not name the brand; when they named no brand at all its " +
			"interval is {n: 0, low: 0, high: 100}); null means no AI answer was captured in the bucket. " +
			"dataDirtySince non-null warns that a deleted query's or competitor's figures may still be in historical " +
			"buckets until the background recalculation ends.",
		query:    timeseriesParams(false),
		response: s.timeseriesSchema(),
		errors: map[int]string{
			400: "dateFrom or dateTo missing_field, or invalid_value when not a YYYY-MM-DD date; dateFrom out_of_range " +
				"before the retention floor (16 months before today, UTC); dateTo out_of_range before dateFrom; " +
				"granularity invalid_value; competitorIds invalid_uuid, or invalid_value when not a current competitor " +
				"of the project; unknown_field for any other parameter (engines, countries, queryClusterIds and " +
				"includeUngroupedQueries included).",
			404: "organization_not_found: no accessible project, or no tracked query of it, has the id (another project's query included).",
		},
		read: s.handleTrackedQueryTimeseries,
	})
}
