package api

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/google/uuid"

	"github.com/sightline/sightline"
	"github.com/sightline/sightline/olap"
	"github.com/sightline/sightline/oltp"
)

// Captures (spec 4.4) and the match listings of tracked queries (spec 4.2,
// matches.go) read what checks stored in the analytics store. Windows are
// whole UTC days: dateFrom is widened to 00:00:00.000 and dateTo to
// 23:59:59.999. Both are optional: dateFrom defaults to the retention floor
// (the first day captures may still be kept on) and dateTo to today; a
// dateFrom before the floor is refused, so no listing reaches past the
// 16 months captures are kept.

// CaptureReader reads captures and matches; the analytics store
// (*olap.Reader) implements it. Each method returns one page in the
// filter's order and the number of rows matching the filter.
type CaptureReader interface {
	AIAnswers(ctx context.Context, f olap.ReadFilter) ([]olap.AIAnswer, int, error)
	SearchSnapshots(ctx context.Context, f olap.ReadFilter) ([]olap.SearchSnapshot, int, error)
	ShoppingSnapshots(ctx context.Context, f olap.ReadFilter) ([]olap.ShoppingSnapshot, int, error)
	MentionMatches(ctx context.Context, f olap.ReadFilter) ([]olap.MentionMatch, int, error)
	SerpMatches(ctx context.Context, f olap.ReadFilter) ([]olap.SerpMatch, int, error)
}

// captureRetentionMonths is how long captures are kept (spec 8), as the
// capture tables' TTL says.
const captureRetentionMonths = 16

// captureRetentionFloor is the first UTC day captures may still be kept
// on: today's date 16 months back, the day clamped to the month's last, as
// ClickHouse's interval arithmetic does.
func captureRetentionFloor(now time.Time) time.Time {
	y, m, d := now.UTC().Date()
	first := time.Date(y, m-captureRetentionMonths, 1, 0, 0, 0, 0, time.UTC)
	last := first.AddDate(0, 1, -1).Day()
	return time.Date(first.Year(), first.Month(), min(d, last), 0, 0, 0, 0, time.UTC)
}

// captureDateParams are dateFrom and dateTo of every capture and match
// listing.
func captureDateParams() []*openapi3.Parameter {
	return []*openapi3.Parameter{
		openapi3.NewQueryParameter("dateFrom").WithSchema(stringSchema().WithFormat("date")).
			WithDescription("First UTC day (YYYY-MM-DD, from 00:00:00.000). Default: the retention floor, the day 16 " +
				"months before today (UTC); an earlier day gives 400 out_of_range."),
		openapi3.NewQueryParameter("dateTo").WithSchema(stringSchema().WithFormat("date")).
			WithDescription("Last UTC day, inclusive (YYYY-MM-DD, to 23:59:59.999). Default: today (UTC). Before " +
				"dateFrom gives 400 out_of_range."),
	}
}

// captureSortOrderParam is the sortOrder of the snapshot and match listings.
func captureSortOrderParam() *openapi3.Parameter {
	return openapi3.NewQueryParameter("sortOrder").WithSchema(enumOf("asc", "desc").WithDefault("desc")).
		WithDescription("By capture time, ties by id in the same direction; desc is newest first.")
}

// captureTrackedQueryParam narrows a capture listing to one tracked query.
func captureTrackedQueryParam() *openapi3.Parameter {
	return openapi3.NewQueryParameter("trackedQueryId").WithSchema(uuidSchema()).
		WithDescription("Only this tracked query's captures; it must be a tracked query of the project, else 400 " +
			"invalid_value.")
}

// captureListingParams are the query parameters of the capture listings;
// sorted adds sortOrder.
func captureListingParams(sorted bool) []*openapi3.Parameter {
	params := append(append(pagingParams(), captureDateParams()...), captureTrackedQueryParam())
	if sorted {
		params = append(params, captureSortOrderParam())
	}
	return params
}

// captureWindow reads dateFrom and dateTo into [from, until), adding their
// problems to errs. A dateTo before dateFrom is blamed on dateTo when it was
// given, else on dateFrom (dateTo then defaulted to today).
func captureWindow(q *queryParams, now time.Time, errs sightline.ValidationErrors) (from, until time.Time) {
	floor := captureRetentionFloor(now)
	y, m, d := now.UTC().Date()
	to := time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
	from = floor
	valid := true
	if q.has("dateFrom") {
		day, err := time.Parse(time.DateOnly, q.string("dateFrom"))
		switch {
		case err != nil:
			errs.Add("dateFrom", sightline.DetailInvalidValue, "must be a date YYYY-MM-DD")
			valid = false
		case day.Before(floor):
			errs.Add("dateFrom", sightline.DetailOutOfRange,
				"must not be before %s: captures are kept %d months", floor.Format(time.DateOnly), captureRetentionMonths)
			valid = false
		default:
			from = day
		}
	}
	if q.has("dateTo") {
		day, err := time.Parse(time.DateOnly, q.string("dateTo"))
		if err != nil {
			errs.Add("dateTo", sightline.DetailInvalidValue, "must be a date YYYY-MM-DD")
			valid = false
		} else {
			to = day
		}
	}
	if valid && to.Before(from) {
		if q.has("dateTo") {
			errs.Add("dateTo", sightline.DetailOutOfRange, "must not be before dateFrom (%s)", from.Format(time.DateOnly))
		} else {
			errs.Add("dateFrom", sightline.DetailOutOfRange, "must not be after dateTo, which defaults to today (%s)",
				to.Format(time.DateOnly))
		}
	}
	return from, to.AddDate(0, 0, 1)
}

// captureFilter builds the filter of a capture or match listing of project
// p from its query parameters. query, when set, is the path's tracked
// query; otherwise the optional trackedQueryId parameter must name one of
// the project's. ok is false when the window cannot hold a capture (it
// starts after tomorrow, UTC), which spares the store a pointless read.
func (s *server) captureFilter(r *request, p *oltp.ProjectScope, query *uuid.UUID, sorted bool) (f olap.ReadFilter, ok bool, err error) {
	q := r.query
	errs := sightline.ValidationErrors{}
	now := time.Now()
	from, until := captureWindow(q, now, errs)
	if query == nil && q.has("trackedQueryId") {
		id := uuid.MustParse(q.string("trackedQueryId")) // checked against the uuid format already
		switch _, err := oltp.GetTrackedQuery(r.Context(), s.pool, p.ID, id); {
		case sightline.ErrorCode(err) == sightline.CodeTrackedQueryNotFound:
			errs.Add("trackedQueryId", sightline.DetailInvalidValue, "is not a tracked query of this project")
		case err != nil:
			return f, false, err
		default:
			query = &id
		}
	}
	if err := errs.Err(); err != nil {
		return f, false, err
	}
	limit, offset := q.page()
	f = olap.ReadFilter{ProjectID: p.ID, TrackedQueryID: query, From: from, Until: until, Limit: limit, Offset: offset}
	if sorted {
		f.Ascending = q.string("sortOrder") == "asc"
	}
	// Captures carry the time of their check run, never later than now; a
	// far dateTo is cut at the end of tomorrow so the bounds sent stay
	// inside ClickHouse's DateTime64 range.
	y, m, d := now.UTC().Date()
	if horizon := time.Date(y, m, d+2, 0, 0, 0, 0, time.UTC); f.Until.After(horizon) {
		f.Until = horizon
	}
	return f, f.From.Before(f.Until), nil
}

// Records.

// aiEngines are the engines that answer in prose.
func aiEngines() []string {
	var out []string
	for _, e := range sightline.Engines {
		if e.AI() {
			out = append(out, string(e))
		}
	}
	return out
}

func (s *server) aiAnswerSchema() *openapi3.Schema {
	source := object(props{
		"position": described(integerSchema().WithMin(1), "1-based, in order of first citation."),
		"url":      described(stringSchema(), "Still the engine's redirector URL when unresolved."),
		"domain":   described(stringSchema(), "Host without www.; the redirector's when unresolved."),
		"title":    described(nullable(stringSchema()), "As the engine gave it; null when none."),
		"unresolved": described(boolSchema(),
			"True when the URL is still an engine redirector whose destination is unknown."),
	}, "position", "url", "domain", "title", "unresolved")
	return s.component("AIAnswerCapture", object(props{
		"id":             described(uuidSchema(), "The AI answer id (aiResponseId)."),
		"trackedQueryId": uuidSchema(),
		"queryText":      described(stringSchema(), "The normalised query text as asked."),
		"engine":         enumOf(aiEngines()...),
		"country":        described(stringSchema().WithMinLength(2).WithMaxLength(2), "ISO 3166-1 alpha-2."),
		"locale":         described(nullable(stringSchema()), "ISO 639-1 language the engine was asked in; null when none."),
		"passIndex": described(integerSchema().WithMin(0),
			"0-based pass of the check run; the passes of one run share trackedQueryId and capturedAt."),
		"passCount":    described(integerSchema().WithMin(1), "Passes the run was asked for."),
		"capturedAt":   described(timeSchema(), "When the check run captured the answer; shared by its passes."),
		"responseText": stringSchema(),
		"citedSources": arrayOf(source),
	}, "id", "trackedQueryId", "queryText", "engine", "country", "locale", "passIndex", "passCount", "capturedAt",
		"responseText", "citedSources"))
}

func (s *server) searchSnapshotSchema() *openapi3.Schema {
	result := object(props{
		"rank": described(integerSchema().WithMin(1), "1-based organic rank."),
		"url": described(stringSchema(), "The destination when the page linked through a redirector that "+
			"carries it (Google /url, paid clicks); still the redirector URL when unresolved."),
		"domain":      described(stringSchema(), "Host without www.; the redirector's when unresolved."),
		"title":       stringSchema(),
		"snippet":     described(nullable(stringSchema()), "null when the page showed none."),
		"rating":      described(nullable(openapi3.NewFloat64Schema()), "Review rating shown with the result; often null."),
		"ratingVotes": described(nullable(integerSchema().WithMin(0)), "Reviews behind the rating; often null."),
		"unresolved":  described(boolSchema(), "True when the URL is still a redirector whose destination is unknown."),
	}, "rank", "url", "domain", "title", "snippet", "rating", "ratingVotes", "unresolved")
	return s.snapshotSchema("SearchSnapshot", described(uuidSchema(), "The snapshot id (snapshotId of serp matches)."),
		"results", described(arrayOf(result), "Organic results in rank order; empty for a page without any."))
}

func (s *server) shoppingSnapshotSchema() *openapi3.Schema {
	offer := object(props{
		"rank":      described(integerSchema().WithMin(1), "1-based rank on the page."),
		"title":     stringSchema(),
		"price":     described(openapi3.NewFloat64Schema(), "In currency, as the engine showed it."),
		"currency":  described(stringSchema(), "ISO 4217; offers of one snapshot may differ."),
		"productId": described(nullable(stringSchema()), "The engine's product id; null when it gave none."),
		"merchant":  stringSchema(),
		"domain":    described(nullable(stringSchema()), "Merchant host without www.; null without a merchant URL."),
		"url":       described(nullable(stringSchema()), "null when the offer has none."),
	}, "rank", "title", "price", "currency", "productId", "merchant", "domain", "url")
	return s.snapshotSchema("ShoppingSnapshot", uuidSchema(),
		"offers", described(arrayOf(offer), "Offers in rank order; empty for a page without any."))
}

// snapshotSchema registers under name the schema of a captured page: its
// id, its tracked query, country and capture time, and what the page
// listed, under the field list.
func (s *server) snapshotSchema(name string, id *openapi3.Schema, list string, listed *openapi3.Schema) *openapi3.Schema {
	return s.component(name, object(props{
		"id":             id,
		"trackedQueryId": uuidSchema(),
		"queryText":      stringSchema(),
		"country":        described(stringSchema().WithMinLength(2).WithMaxLength(2), "ISO 3166-1 alpha-2."),
		"capturedAt":     timeSchema(),
		list:             listed,
	}, "id", "trackedQueryId", "queryText", "country", "capturedAt", list))
}

// Handlers.

// captureListingErrors are the refusals of the capture listings.
var captureListingErrors = map[int]string{
	400: "dateFrom out_of_range: before the retention floor (16 months back) or after dateTo; dateTo out_of_range: " +
		"before dateFrom; dateFrom or dateTo invalid_value: not a YYYY-MM-DD date; trackedQueryId invalid_value: not a " +
		"tracked query of this project.",
	404: projectNotFound,
}

// captureListing serves a capture listing: read reads one page of the
// project's captures of one kind; sorted says whether sortOrder applies.
func captureListing[T any](s *server, sorted bool,
	read func(CaptureReader, context.Context, olap.ReadFilter) ([]T, int, error)) readFunc {
	filter := func(r *request) (olap.ReadFilter, bool, error) {
		p, err := s.projectForRead(r)
		if err != nil {
			return olap.ReadFilter{}, false, err
		}
		return s.captureFilter(r, p, nil, sorted)
	}
	return pagedCaptures(s, "captures", filter, read)
}

// pagedCaptures serves a listing of captures or matches: filter reads the
// request's filter (ok false when the window cannot hold a row, which
// answers an empty page), read reads one page; what names the rows in
// errors.
func pagedCaptures[T any](s *server, what string, filter func(*request) (f olap.ReadFilter, ok bool, err error),
	read func(CaptureReader, context.Context, olap.ReadFilter) ([]T, int, error)) readFunc {
	return func(r *request) (any, error) {
		f, ok, err := filter(r)
		if err != nil {
			return nil, err
		}
		if !ok {
			return listing[T]{Page: []T{}, Limit: f.Limit, Offset: f.Offset}, nil
		}
		page, total, err := read(s.captures, r.Context(), f)
		if err != nil {
			return nil, fmt.Errorf("listing %s: %w", what, err)
		}
		return listing[T]{Page: page, Total: total, Limit: f.Limit, Offset: f.Offset}, nil
	}
}

// captureRoutes lists the captured answers and pages (spec 4.4).
func (s *server) captureRoutes(captures routeGroup) {
	captures.handle(route{
		method: http.MethodGet, pattern: projectBase + "/ai-responses",
		id: "listAIResponses", summary: "Captured AI answers with their cited sources",
		description: "One row per pass of a check on an AI engine; the passes of one run share trackedQueryId and " +
			"capturedAt and are listed together in pass order. Newest first. dateFrom is widened to 00:00:00.000 UTC and " +
			"dateTo to 23:59:59.999 UTC; dateFrom defaults to the retention floor (16 months back) and dateTo to today. " +
			"Captures of a tracked query deleted moments ago may show until the background cascade removes them. " +
			"Archived projects answer.",
		query:    captureListingParams(false),
		response: listingSchema(s.aiAnswerSchema()),
		errors:   captureListingErrors,
		read:     captureListing(s, false, CaptureReader.AIAnswers),
	})
	captures.handle(route{
		method: http.MethodGet, pattern: projectBase + "/search-snapshots",
		id: "listSearchSnapshots", summary: "Captured search pages with their organic results",
		description: "One snapshot per completed google_serp check, with every organic result in rank order (empty when " +
			"the page had none). Ordered by capturedAt, ties by id in the same direction; sortOrder desc (default) is " +
			"newest first. Whole UTC days; dateFrom defaults to the retention floor (16 months back) and dateTo to today. " +
			"There is no engines filter. Archived projects answer.",
		query:    captureListingParams(true),
		response: listingSchema(s.searchSnapshotSchema()),
		errors:   captureListingErrors,
		read:     captureListing(s, true, CaptureReader.SearchSnapshots),
	})
	captures.handle(route{
		method: http.MethodGet, pattern: projectBase + "/shopping-snapshots",
		id: "listShoppingSnapshots", summary: "Captured shopping pages with their offers",
		description: "One snapshot per completed google_shopping check, with every offer in rank order (empty when the " +
			"page had none); offers of one snapshot may carry different currencies. Ordered by capturedAt, ties by id in " +
			"the same direction; sortOrder desc (default) is newest first. Whole UTC days; dateFrom defaults to the " +
			"retention floor (16 months back) and dateTo to today. There is no engines filter. Archived projects answer.",
		query:    captureListingParams(true),
		response: listingSchema(s.shoppingSnapshotSchema()),
		errors:   captureListingErrors,
		read:     captureListing(s, true, CaptureReader.ShoppingSnapshots),
	})
}
