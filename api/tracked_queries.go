package api

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"unicode/utf8"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/sightline/sightline"
	"github.com/sightline/sightline/jobs"
	"github.com/sightline/sightline/oltp"
)

// Tracked queries (spec 4.2). Reads of one query, counts and coverage read
// the write model; the search listing reads the projection that
// jobs.RefreshTrackedQuerySearchWorker keeps up to date. Every write that
// changes a project's tracked queries marks the projection stale and
// enqueues its refresh in the write's own transaction
// (jobs.TrackedQueriesChanged).

// maxTrackedCombinations bounds the cross product of one create (spec 8).
const maxTrackedCombinations = 100

// maxTrackedBatch bounds the distinct ids of a batch, and the clusters of a
// membership change (spec 8).
const maxTrackedBatch = 100

// trackedQueryID is the path's tracked query id; a malformed one is
// tracked_query_not_found like an unknown one.
func trackedQueryID(r *request) (uuid.UUID, error) {
	return r.pathUUID("trackedQueryId", sightline.CodeTrackedQueryNotFound)
}

// Reads.

func trackedListParams() []*openapi3.Parameter {
	sortKeys := []string{"queryText", "lastSerpPosition", "lastMentionPosition", "lastShoppingPosition",
		"lastShareOfVoice", "lastPositivityIndex", "lastMentionCount", "lastCheckedAt"}
	return append(pagingParams(),
		openapi3.NewQueryParameter("search").WithSchema(stringSchema().WithMaxLength(100)).
			WithDescription("Case-insensitive substring of the (normalised) query text; white space is folded as in stored texts."),
		openapi3.NewQueryParameter("status").WithSchema(enumFrom(sightline.TrackedQueryStatuses)),
		openapi3.NewQueryParameter("engines").WithSchema(arrayOf(enumFrom(sightline.Engines))).
			WithDescription("Repeatable or comma-separated."),
		openapi3.NewQueryParameter("countries").WithSchema(arrayOf(stringSchema().WithMaxLength(100))).
			WithDescription("Repeatable or comma-separated ISO 3166-1 alpha-2 codes (any case) or English country names; "+
				"each must be configured on the project, that is used by one of its tracked queries, else 400."),
		openapi3.NewQueryParameter("sortBy").WithSchema(enumOf(sortKeys...).WithDefault("queryText")).
			WithDescription("Rows without a value of the key come last in either order; ties go by text, engine, country and id."),
		openapi3.NewQueryParameter("sortOrder").WithSchema(enumOf("asc", "desc").WithDefault("desc")),
	)
}

func (s *server) handleListTrackedQueries(r *request) (any, error) {
	p, err := s.projectForRead(r)
	if err != nil {
		return nil, err
	}
	q := r.query
	limit, offset := q.page()
	f := oltp.TrackedQuerySearchFilter{
		ProjectID:  p.ID,
		Search:     q.string("search"),
		Status:     q.string("status"),
		Engines:    q.strings("engines"),
		SortBy:     q.string("sortBy"),
		Descending: q.string("sortOrder") == "desc",
		Limit:      limit,
		Offset:     offset,
	}
	if q.has("countries") {
		if f.Countries, err = s.trackedCountryFilter(r.Context(), p.ID, q.strings("countries")); err != nil {
			return nil, err
		}
	}
	page, total, err := oltp.ListTrackedQuerySearchRows(r.Context(), s.pool, f)
	if err != nil {
		return nil, err
	}
	return listing[oltp.TrackedQuerySearchRow]{Page: page, Total: total, Limit: limit, Offset: offset}, nil
}

// trackedCountryFilter resolves the countries parameter: every value must
// name a country, by code or English name, that the project is configured
// for, else the call is refused naming the parameter.
func (s *server) trackedCountryFilter(ctx context.Context, projectID uuid.UUID, values []string) ([]string, error) {
	configured, err := oltp.ProjectCountries(ctx, s.pool, projectID)
	if err != nil {
		return nil, err
	}
	errs := sightline.ValidationErrors{}
	codes := make([]string, 0, len(values))
	for _, v := range values {
		code, ok := trackedResolveCountry(v)
		switch {
		case !ok:
			errs.Add("countries", sightline.DetailInvalidValue, "%q is not an ISO 3166-1 alpha-2 code or English country name", v)
		case !configured[code]:
			errs.Add("countries", sightline.DetailInvalidValue, "%q (%s) is not configured on this project: no tracked query uses it", v, code)
		default:
			codes = append(codes, code)
		}
	}
	return codes, errs.Err()
}

// trackedQueryForRead loads the path's project and tracked query for
// reading.
func (s *server) trackedQueryForRead(r *request) (*oltp.ProjectScope, *oltp.TrackedQuery, error) {
	p, err := s.projectForRead(r)
	if err != nil {
		return nil, nil, err
	}
	id, err := trackedQueryID(r)
	if err != nil {
		return nil, nil, err
	}
	q, err := oltp.GetTrackedQuery(r.Context(), s.pool, p.ID, id)
	if err != nil {
		return nil, nil, err
	}
	return p, q, nil
}

// trackedQueryForWrite locks the path's project for a write and reads the
// path's tracked query id.
func (s *server) trackedQueryForWrite(r *request, tx pgx.Tx) (*oltp.ProjectScope, uuid.UUID, error) {
	return s.projectItemForWrite(r, tx, "trackedQueryId", sightline.CodeTrackedQueryNotFound)
}

func (s *server) handleGetTrackedQuery(r *request) (any, error) {
	_, q, err := s.trackedQueryForRead(r)
	if err != nil {
		return nil, err
	}
	return q, nil
}

// trackedCount is the count resource (spec 2.3).
type trackedCount struct {
	Count     int `json:"count"`
	CheckCost int `json:"checkCost"`
}

func (s *server) handleCountTrackedQueries(r *request) (any, error) {
	p, err := s.projectForRead(r)
	if err != nil {
		return nil, err
	}
	count, cost, err := oltp.CountTrackedQueries(r.Context(), s.pool, p.ID, r.query.string("status"))
	if err != nil {
		return nil, err
	}
	return trackedCount{Count: count, CheckCost: cost}, nil
}

func (s *server) handleGetCoverage(r *request) (any, error) {
	p, err := s.projectForRead(r)
	if err != nil {
		return nil, err
	}
	return oltp.GetCoverage(r.Context(), s.pool, p.ID)
}

// Create.

type trackedCreateBody struct {
	QueryTexts      []string    `json:"queryTexts" required:"true" validate:"min=1,max=100"`
	Engines         []string    `json:"engines" required:"true" validate:"min=1,max=100,dive,engine"`
	Countries       []string    `json:"countries" required:"true" validate:"min=1,max=100"`
	Locale          *string     `json:"locale"`
	CheckFrequency  string      `json:"checkFrequency" required:"true" validate:"checkFrequency"`
	NPasses         int         `json:"nPasses" required:"true" validate:"min=1,max=10"`
	QueryClusterIDs []uuid.UUID `json:"queryClusterIds" required:"true" validate:"max=100"`
}

// trackedCreateItem is a created combination.
type trackedCreateItem struct {
	ID        uuid.UUID `json:"id"`
	QueryText string    `json:"queryText"`
	Engine    string    `json:"engine"`
	Country   string    `json:"country"`
}

// trackedCreateFailure is a combination not created.
type trackedCreateFailure struct {
	ID           *uuid.UUID     `json:"id"`
	QueryText    string         `json:"queryText"`
	Engine       string         `json:"engine"`
	Country      string         `json:"country"`
	ErrorCode    sightline.Code `json:"errorCode"`
	ErrorMessage string         `json:"errorMessage"`
	RepeatsIndex *int           `json:"repeatsIndex"`
}

type trackedCreateAnswer struct {
	Successful []trackedCreateItem    `json:"successful"`
	Failed     []trackedCreateFailure `json:"failed"`
}

// normalize checks what the validator cannot and normalises in place:
// texts normalise to 1..500 characters, countries are ISO codes, the locale
// is ISO 639-1, the cross product fits the limit. Countries and locale are
// accepted in any case and stored as US and en; one of another length than
// 2 is out_of_range (spec 8), as a discovery job's country is.
func (b *trackedCreateBody) normalize(errs sightline.ValidationErrors) {
	for i, raw := range b.QueryTexts {
		field := fmt.Sprintf("queryTexts[%d]", i)
		text := oltp.NormalizeQueryText(raw)
		switch n := utf8.RuneCountInString(text); {
		case n == 0:
			errs.Add(field, sightline.DetailInvalidValue, "is empty once normalised (white space and list markers are removed)")
		case n > oltp.MaxQueryTextLength:
			errs.Add(field, sightline.DetailOutOfRange, "must have at most %d characters once normalised", oltp.MaxQueryTextLength)
		}
		b.QueryTexts[i] = text
	}
	for i := range b.Countries {
		b.Countries[i] = checkCountry(fmt.Sprintf("countries[%d]", i), &b.Countries[i], errs)
	}
	if b.Locale != nil {
		locale := strings.ToLower(*b.Locale)
		switch {
		case utf8.RuneCountInString(locale) != 2:
			errs.Add("locale", sightline.DetailOutOfRange, "must have exactly 2 characters")
		case !trackedLanguages[locale]:
			errs.Add("locale", sightline.DetailInvalidValue, "must be an ISO 639-1 language code of 2 letters")
		}
		b.Locale = &locale
	}
	if n := b.newTrackedQueries().Combinations(); n > maxTrackedCombinations {
		errs.Add("body", sightline.DetailOutOfRange,
			"queryTexts x engines x countries gives %d combinations; at most %d are allowed", n, maxTrackedCombinations)
	}
}

// newTrackedQueries is the create the body asks for.
func (b *trackedCreateBody) newTrackedQueries() oltp.NewTrackedQueries {
	return oltp.NewTrackedQueries{
		QueryTexts: b.QueryTexts, Engines: b.Engines, Countries: b.Countries, Locale: b.Locale,
		CheckFrequency: b.CheckFrequency, NPasses: b.NPasses, ClusterIDs: trackedDistinct(b.QueryClusterIDs),
	}
}

func (s *server) handleCreateTrackedQueries(r *request, tx pgx.Tx) (int, any, error) {
	body, err := decodeNormalized[trackedCreateBody](r.body)
	if err != nil {
		return 0, nil, err
	}
	in := body.newTrackedQueries()
	ctx := r.Context()
	p, err := s.projectForWrite(r, tx)
	if err != nil {
		return 0, nil, err
	}
	in.ProjectID = p.ID
	if err := oltp.CheckClustersForCreate(ctx, tx, r.organizationID, p.ID, in.ClusterIDs); err != nil {
		return 0, nil, err
	}
	results, changed, err := oltp.CreateTrackedQueries(ctx, tx, in)
	if err != nil {
		return 0, nil, err
	}
	if err := s.trackedChanged(ctx, tx, p.ID, changed); err != nil {
		return 0, nil, err
	}
	answer := trackedCreateAnswer{Successful: []trackedCreateItem{}, Failed: []trackedCreateFailure{}}
	for _, res := range results {
		if res.Code == "" {
			answer.Successful = append(answer.Successful, trackedCreateItem{
				ID: *res.ID, QueryText: res.QueryText, Engine: res.Engine, Country: res.Country})
			continue
		}
		answer.Failed = append(answer.Failed, trackedCreateFailure{
			ID: res.ID, QueryText: res.QueryText, Engine: res.Engine, Country: res.Country,
			ErrorCode: res.Code, ErrorMessage: res.Message, RepeatsIndex: res.RepeatsIndex,
		})
	}
	return 200, answer, nil
}

// Single-query writes.

type trackedFrequencyBody struct {
	CheckFrequency string `json:"checkFrequency" required:"true" validate:"checkFrequency"`
}

type trackedPassesBody struct {
	NPasses int `json:"nPasses" required:"true" validate:"min=1,max=10"`
}

// updateTrackedQuery applies change to the path's query and answers it in
// its new state; setting a value it has already is a no-op success.
func (s *server) updateTrackedQuery(r *request, tx pgx.Tx, change oltp.TrackedQueryChange) (int, any, error) {
	ctx := r.Context()
	p, id, err := s.trackedQueryForWrite(r, tx)
	if err != nil {
		return 0, nil, err
	}
	q, changed, err := oltp.UpdateTrackedQuery(ctx, tx, p.ID, id, change)
	if err != nil {
		return 0, nil, err
	}
	if err := s.trackedChanged(ctx, tx, p.ID, changed); err != nil {
		return 0, nil, err
	}
	return 200, q, nil
}

func (s *server) handleSetTrackedQueryFrequency(r *request, tx pgx.Tx) (int, any, error) {
	in, err := decodeBody[trackedFrequencyBody](r.body)
	if err != nil {
		return 0, nil, err
	}
	return s.updateTrackedQuery(r, tx, oltp.TrackedQueryChange{CheckFrequency: &in.CheckFrequency})
}

func (s *server) handleSetTrackedQueryPasses(r *request, tx pgx.Tx) (int, any, error) {
	in, err := decodeBody[trackedPassesBody](r.body)
	if err != nil {
		return 0, nil, err
	}
	return s.updateTrackedQuery(r, tx, oltp.TrackedQueryChange{NPasses: &in.NPasses})
}

// trackedStatusWrite asserts a status (spec 3.1): pausing a paused query or
// resuming an active one succeeds with the same body.
func (s *server) trackedStatusWrite(status string) writeFunc {
	return func(r *request, tx pgx.Tx) (int, any, error) {
		return s.updateTrackedQuery(r, tx, oltp.TrackedQueryChange{Status: &status})
	}
}

type trackedClustersBody struct {
	QueryClusterIDs []uuid.UUID `json:"queryClusterIds" required:"true"`
}

// trackedClusterIDs collapses duplicate cluster ids and checks that 1 to
// 100 distinct ones remain.
func trackedClusterIDs(ids []uuid.UUID, errs sightline.ValidationErrors) []uuid.UUID {
	distinct := trackedDistinct(ids)
	if len(distinct) == 0 || len(distinct) > maxTrackedBatch {
		errs.Add("queryClusterIds", sightline.DetailOutOfRange, "must have 1 to %d distinct ids", maxTrackedBatch)
	}
	return distinct
}

// trackedProjectClusters checks that every id is a cluster of the project,
// locking them for the write that follows; any other id rejects the whole
// call with 400 naming it, and nothing is written.
func trackedProjectClusters(ctx context.Context, tx pgx.Tx, projectID uuid.UUID, requested, distinct []uuid.UUID) error {
	found, err := oltp.ProjectClusters(ctx, tx, projectID, distinct)
	if err != nil {
		return err
	}
	errs := sightline.ValidationErrors{}
	reported := map[uuid.UUID]bool{}
	for i, id := range requested {
		if !found[id] && !reported[id] {
			reported[id] = true
			errs.Add(fmt.Sprintf("queryClusterIds[%d]", i), sightline.DetailInvalidValue, "%s is not a cluster of this project", id)
		}
	}
	return errs.Err()
}

// trackedMembershipWrite adds (add) or removes the clusters of the body to
// or from the path's query, and answers the query with its resulting
// clusters. Memberships already in the requested state are skipped.
func (s *server) trackedMembershipWrite(add bool) writeFunc {
	return func(r *request, tx pgx.Tx) (int, any, error) {
		in, err := decodeBody[trackedClustersBody](r.body)
		if err != nil {
			return 0, nil, err
		}
		errs := sightline.ValidationErrors{}
		clusters := trackedClusterIDs(in.QueryClusterIDs, errs)
		if err := errs.Err(); err != nil {
			return 0, nil, err
		}
		ctx := r.Context()
		p, id, err := s.trackedQueryForWrite(r, tx)
		if err != nil {
			return 0, nil, err
		}
		found, err := oltp.LockTrackedQueries(ctx, tx, p.ID, []uuid.UUID{id})
		if err != nil {
			return 0, nil, err
		}
		if _, ok := found[id]; !ok {
			return 0, nil, sightline.Errorf(sightline.CodeTrackedQueryNotFound, "Tracked query not found.")
		}
		if err := trackedProjectClusters(ctx, tx, p.ID, in.QueryClusterIDs, clusters); err != nil {
			return 0, nil, err
		}
		if err := s.trackedMembership(ctx, tx, p.ID, []uuid.UUID{id}, clusters, add); err != nil {
			return 0, nil, err
		}
		q, err := oltp.GetTrackedQuery(ctx, tx, p.ID, id)
		if err != nil {
			return 0, nil, err
		}
		return 200, q, nil
	}
}

// trackedMembership writes a membership change and, when it changed
// anything, marks the listing stale.
func (s *server) trackedMembership(ctx context.Context, tx pgx.Tx, projectID uuid.UUID, queries, clusters []uuid.UUID, add bool) error {
	change := oltp.RemoveTrackedQueryClusters
	if add {
		change = oltp.AddTrackedQueryClusters
	}
	n, err := change(ctx, tx, projectID, queries, clusters)
	if err != nil {
		return err
	}
	return s.trackedChanged(ctx, tx, projectID, n > 0)
}

// trackedChanged marks the project's tracked query listing stale when a
// write changed any of its queries.
func (s *server) trackedChanged(ctx context.Context, tx pgx.Tx, projectID uuid.UUID, changed bool) error {
	if !changed {
		return nil
	}
	return jobs.TrackedQueriesChanged(ctx, tx, s.jobs, projectID)
}

// Batches.

// trackedBatchAnswer is the batch answer of api-decisions; both lists are
// always present.
type trackedBatchAnswer struct {
	Successful []trackedBatchSuccess `json:"successful"`
	Failed     []trackedBatchFailure `json:"failed"`
}

type trackedBatchSuccess struct {
	ID uuid.UUID `json:"id"`
}

// trackedBatchFailure carries the id as sent when it is no uuid.
type trackedBatchFailure struct {
	ID           string         `json:"id"`
	ErrorCode    sightline.Code `json:"errorCode"`
	ErrorMessage string         `json:"errorMessage"`
}

func newTrackedBatchAnswer() *trackedBatchAnswer {
	return &trackedBatchAnswer{Successful: []trackedBatchSuccess{}, Failed: []trackedBatchFailure{}}
}

func (a *trackedBatchAnswer) notFound(id string) {
	a.Failed = append(a.Failed, trackedBatchFailure{ID: id, ErrorCode: sightline.ItemTrackedQueryNotFound,
		ErrorMessage: "No tracked query of this project has this id."})
}

// answerTrackedItems answers the items of a batch in order: an item that
// is no uuid or not known fails as tracked_query_not_found, one that
// refuse (when set) gives a code fails with it, and the rest succeed and
// are returned.
func answerTrackedItems(items []trackedBatchItem, known func(uuid.UUID) bool,
	refuse func(uuid.UUID) (sightline.Code, string)) (*trackedBatchAnswer, []uuid.UUID) {
	answer := newTrackedBatchAnswer()
	var succeeded []uuid.UUID
	for _, item := range items {
		if !item.ok || !known(item.id) {
			answer.notFound(item.raw)
			continue
		}
		if refuse != nil {
			if code, msg := refuse(item.id); code != "" {
				answer.Failed = append(answer.Failed, trackedBatchFailure{ID: item.id.String(), ErrorCode: code, ErrorMessage: msg})
				continue
			}
		}
		succeeded = append(succeeded, item.id)
		answer.Successful = append(answer.Successful, trackedBatchSuccess{ID: item.id})
	}
	return answer, succeeded
}

// trackedBatchItem is one distinct id of a batch, in order of first
// appearance; ok is false for a string that is no uuid.
type trackedBatchItem struct {
	raw string
	id  uuid.UUID
	ok  bool
}

// maxTrackedIDLength is the longest spelling of a uuid that uuid.Parse
// accepts ("urn:uuid:" and 36 characters). A longer string is an
// over-large id (spec 7.2), refused with 400 rather than echoed back in an
// item.
const maxTrackedIDLength = 45

// trackedBatchIDs collapses duplicate ids (the same uuid in any spelling)
// and checks that 1 to 100 distinct ones remain. Malformed ids are kept as
// items: they fail as tracked_query_not_found. Over-large ones reject the
// call, naming ids[i].
func trackedBatchIDs(raw []string, errs sightline.ValidationErrors) (items []trackedBatchItem, valid []uuid.UUID) {
	seen := map[string]bool{}
	for i, s := range raw {
		if len(s) > maxTrackedIDLength {
			errs.Add(fmt.Sprintf("ids[%d]", i), sightline.DetailOutOfRange,
				"has %d bytes; no spelling of an id is longer than %d", len(s), maxTrackedIDLength)
			continue
		}
		item := trackedBatchItem{raw: s}
		key := "raw:" + s
		if id, err := uuid.Parse(s); err == nil {
			item.id, item.ok, key = id, true, id.String()
		}
		if seen[key] {
			continue
		}
		seen[key] = true
		items = append(items, item)
		if item.ok {
			valid = append(valid, item.id)
		}
	}
	if (len(items) == 0 && len(raw) == 0) || len(items) > maxTrackedBatch {
		errs.Add("ids", sightline.DetailOutOfRange, "must have 1 to %d distinct ids", maxTrackedBatch)
	}
	return items, valid
}

type trackedIDsBody struct {
	IDs []string `json:"ids" required:"true"`
}

// decodeTrackedIDs decodes a body of tracked query ids and checks them as
// trackedBatchIDs does.
func decodeTrackedIDs(r *request) (items []trackedBatchItem, valid []uuid.UUID, err error) {
	in, err := decodeBody[trackedIDsBody](r.body)
	if err != nil {
		return nil, nil, err
	}
	errs := sightline.ValidationErrors{}
	items, valid = trackedBatchIDs(in.IDs, errs)
	return items, valid, errs.Err()
}

type trackedFrequencyBatchBody struct {
	IDs            []string `json:"ids" required:"true"`
	CheckFrequency string   `json:"checkFrequency" required:"true" validate:"checkFrequency"`
}

type trackedPassesBatchBody struct {
	IDs     []string `json:"ids" required:"true"`
	NPasses int      `json:"nPasses" required:"true" validate:"min=1,max=10"`
}

// trackedBatchUpdate applies change to each id: unknown ones (malformed,
// deleted, of another project) fail with tracked_query_not_found, those the
// change does not fit with its code, the rest succeed, already in the
// requested state or not.
func (s *server) trackedBatchUpdate(r *request, tx pgx.Tx, ids []string, change oltp.TrackedQueryChange) (int, any, error) {
	errs := sightline.ValidationErrors{}
	items, valid := trackedBatchIDs(ids, errs)
	if err := errs.Err(); err != nil {
		return 0, nil, err
	}
	ctx := r.Context()
	p, err := s.projectForWrite(r, tx)
	if err != nil {
		return 0, nil, err
	}
	engines, err := oltp.LockTrackedQueries(ctx, tx, p.ID, valid)
	if err != nil {
		return 0, nil, err
	}
	answer, apply := answerTrackedItems(items, func(id uuid.UUID) bool {
		_, found := engines[id]
		return found
	}, func(id uuid.UUID) (sightline.Code, string) {
		return oltp.RefusedChange(change, engines[id])
	})
	n, err := oltp.SetTrackedQueries(ctx, tx, p.ID, apply, change)
	if err != nil {
		return 0, nil, err
	}
	if err := s.trackedChanged(ctx, tx, p.ID, n > 0); err != nil {
		return 0, nil, err
	}
	return 200, answer, nil
}

func (s *server) handleBatchTrackedFrequency(r *request, tx pgx.Tx) (int, any, error) {
	in, err := decodeBody[trackedFrequencyBatchBody](r.body)
	if err != nil {
		return 0, nil, err
	}
	return s.trackedBatchUpdate(r, tx, in.IDs, oltp.TrackedQueryChange{CheckFrequency: &in.CheckFrequency})
}

func (s *server) handleBatchTrackedPasses(r *request, tx pgx.Tx) (int, any, error) {
	in, err := decodeBody[trackedPassesBatchBody](r.body)
	if err != nil {
		return 0, nil, err
	}
	return s.trackedBatchUpdate(r, tx, in.IDs, oltp.TrackedQueryChange{NPasses: &in.NPasses})
}

func (s *server) trackedBatchStatus(status string) writeFunc {
	return func(r *request, tx pgx.Tx) (int, any, error) {
		in, err := decodeBody[trackedIDsBody](r.body)
		if err != nil {
			return 0, nil, err
		}
		return s.trackedBatchUpdate(r, tx, in.IDs, oltp.TrackedQueryChange{Status: &status})
	}
}

// handleBulkDeleteTrackedQueries hard-deletes the queries (memberships go
// with them) and, when any was deleted, registers the project's cascade,
// which sets data_dirty_since, and enqueues the cascade job that removes
// their captured data, all in this transaction. The project row is locked
// for update from the start, as the cascade updates it.
func (s *server) handleBulkDeleteTrackedQueries(r *request, tx pgx.Tx) (int, any, error) {
	items, valid, err := decodeTrackedIDs(r)
	if err != nil {
		return 0, nil, err
	}
	ctx := r.Context()
	p, err := s.projectForUpdate(r, tx)
	if err != nil {
		return 0, nil, err
	}
	deleted, err := oltp.DeleteTrackedQueries(ctx, tx, p.ID, valid)
	if err != nil {
		return 0, nil, err
	}
	gone := map[uuid.UUID]bool{}
	for _, id := range deleted {
		gone[id] = true
	}
	answer, _ := answerTrackedItems(items, func(id uuid.UUID) bool { return gone[id] }, nil)
	if len(deleted) == 0 {
		return 200, answer, nil
	}
	cascadeID, err := oltp.BeginCascade(ctx, tx, p.ID, "tracked_queries", uuid.Must(uuid.NewV7()))
	if err != nil {
		return 0, nil, err
	}
	args := jobs.TrackedQueryCascadeArgs{ProjectID: p.ID, CascadeID: cascadeID, TrackedQueryIDs: deleted}
	if _, err := s.jobs.InsertTx(ctx, tx, args, nil); err != nil {
		return 0, nil, fmt.Errorf("enqueueing tracked query cascade: %w", err)
	}
	if err := jobs.TrackedQueriesChanged(ctx, tx, s.jobs, p.ID); err != nil {
		return 0, nil, err
	}
	return 200, answer, nil
}

type trackedBulkClustersBody struct {
	IDs             []string    `json:"ids" required:"true"`
	QueryClusterIDs []uuid.UUID `json:"queryClusterIds" required:"true"`
}

// trackedBulkMembershipWrite adds or removes every cluster for every id. A
// cluster outside the project rejects the whole call with 400; ids that
// are not tracked queries of the project fail one by one.
func (s *server) trackedBulkMembershipWrite(add bool) writeFunc {
	return func(r *request, tx pgx.Tx) (int, any, error) {
		in, err := decodeBody[trackedBulkClustersBody](r.body)
		if err != nil {
			return 0, nil, err
		}
		errs := sightline.ValidationErrors{}
		items, valid := trackedBatchIDs(in.IDs, errs)
		clusters := trackedClusterIDs(in.QueryClusterIDs, errs)
		if err := errs.Err(); err != nil {
			return 0, nil, err
		}
		ctx := r.Context()
		p, err := s.projectForWrite(r, tx)
		if err != nil {
			return 0, nil, err
		}
		if err := trackedProjectClusters(ctx, tx, p.ID, in.QueryClusterIDs, clusters); err != nil {
			return 0, nil, err
		}
		found, err := oltp.LockTrackedQueries(ctx, tx, p.ID, valid)
		if err != nil {
			return 0, nil, err
		}
		answer, members := answerTrackedItems(items, func(id uuid.UUID) bool {
			_, ok := found[id]
			return ok
		}, nil)
		if err := s.trackedMembership(ctx, tx, p.ID, members, clusters, add); err != nil {
			return 0, nil, err
		}
		return 200, answer, nil
	}
}

// trackedDistinct drops repeated ids, keeping the first of each.
func trackedDistinct(ids []uuid.UUID) []uuid.UUID {
	seen := make(map[uuid.UUID]bool, len(ids))
	out := make([]uuid.UUID, 0, len(ids))
	for _, id := range ids {
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out
}

// trackedQueryRoutes lists the operations on tracked queries and the project's
// check coverage (spec 4.2).
func (s *server) trackedQueryRoutes(tracked routeGroup) {
	tracked.handle(route{
		method: http.MethodGet, pattern: trackedBase, id: "searchTrackedQueries",
		summary: "Search the project's tracked queries with the metrics of their last check",
		description: "Reads a projection refreshed in the background (within about a minute of a write), so a query just " +
			"created or changed may be absent or show old settings; total counts the rows matching the filters. search is a " +
			"case-insensitive substring of the stored text. countries take alpha-2 codes or English names and must be used by " +
			"one of the project's tracked queries. Any other parameter, an unknown sort key or filter value gives 400. " +
			"Archived projects answer. CSV: queryClusterIds joined with '; '.",
		query: trackedListParams(), response: listingSchema(s.trackedSearchRowSchema()), csv: true,
		errors: map[int]string{404: projectNotFound},
		read:   s.handleListTrackedQueries,
	})
	tracked.handle(route{
		method: http.MethodPost, pattern: trackedBase, id: "createTrackedQueries",
		summary: "Track the cross product queryTexts x engines x countries",
		description: "Creates at most 100 combinations, enumerated queryTexts outermost, then engines, then countries; more is " +
			"400. Texts are normalised (Unicode-aware lower-casing, white space collapsed, leading list markers such as '1.', " +
			"'-', '*', '•' stripped); two texts that normalise equal are one query. Each combination lands in successful " +
			"(created, active, no check run) or failed: duplicate_combination_in_request (repeatsIndex names the earlier " +
			"queryTexts entry it repeats), engine_not_available_in_country (google_ai_mode in " + trackedAIModeNote() + "), or " +
			"tracked_query_already_exists (the existing query keeps its id and its settings, locale included, and gains the " +
			"request's clusters). google_serp and google_shopping are created with 1 pass whatever nPasses says. " +
			"queryClusterIds is required and may be empty.",
		body: s.trackedCreateBodySchema(), response: s.trackedCreateAnswerSchema(),
		errors: map[int]string{
			404: "organization_not_found: no accessible project has the id, or a cluster id matches no cluster of the organization.",
			409: "project_is_archived: the project or its organization is archived.",
			422: "query_cluster_in_other_project: a cluster belongs to another project of the organization.",
		},
		writeFunc: s.handleCreateTrackedQueries,
	})
	tracked.handle(route{
		method: http.MethodGet, pattern: trackedBase + "/count", id: "countTrackedQueries",
		summary: "Count the project's tracked queries and price checking them",
		description: "Reads the write model, so it may exceed the listing's total for a moment. checkCost is a dry run: one " +
			"budget unit per configured pass of every matched query; nothing is reserved. Archived projects answer.",
		query: []*openapi3.Parameter{openapi3.NewQueryParameter("status").WithSchema(enumFrom(sightline.TrackedQueryStatuses)).
			WithDescription("Omitted: all queries.")},
		response: trackedCountSchema(),
		errors:   map[int]string{404: projectNotFound},
		read:     s.handleCountTrackedQueries,
	})
	tracked.handle(route{
		method: http.MethodGet, pattern: trackedBase + "/{trackedQueryId}", id: "getTrackedQuery",
		summary:     "One tracked query's configuration (write model)",
		description: "Metrics are not included; the search listing carries them.",
		response:    s.trackedQuerySchema(),
		errors:      map[int]string{404: "organization_not_found: no accessible project, or no tracked query of it, has the id (another project's query included)."},
		read:        s.handleGetTrackedQuery,
	})
	tracked.handle(route{
		method: http.MethodPut, pattern: trackedBase + "/{trackedQueryId}/check-frequency", id: "setTrackedQueryCheckFrequency",
		summary: "Set a tracked query's check frequency",
		description: "The same value is a successful no-op. Applies from the scheduler's next consideration; runs no check " +
			"and leaves one in flight alone. Answers the query in its new state.",
		body:      object(props{"checkFrequency": trackedFrequencySchema()}, "checkFrequency"),
		response:  s.trackedQuerySchema(),
		errors:    projectWriteErrors(trackedQueryNotFound),
		writeFunc: s.handleSetTrackedQueryFrequency,
	})
	tracked.handle(route{
		method: http.MethodPut, pattern: trackedBase + "/{trackedQueryId}/passes", id: "setTrackedQueryPasses",
		summary:     "Set a tracked query's passes per check",
		description: "Applies from the next check. 1 is always allowed; the same value is a no-op. Answers the query.",
		body:        object(props{"nPasses": trackedPassesSchema()}, "nPasses"),
		response:    s.trackedQuerySchema(),
		errors: map[int]string{
			404: trackedQueryNotFound,
			409: "n_passes_not_supported_for_engine: more than 1 pass on google_serp or google_shopping; " +
				"project_is_archived: the project or its organization is archived.",
		},
		writeFunc: s.handleSetTrackedQueryPasses,
	})
	tracked.handle(route{
		method: http.MethodPut, pattern: trackedBase + "/{trackedQueryId}/pause", id: "pauseTrackedQuery",
		summary: "Pause a tracked query",
		description: "No body. Asserts a state: pausing a paused query succeeds with the same body. Keeps configuration, " +
			"clusters and results; the scheduler stops selecting it; a check already running completes.",
		response:  s.trackedQuerySchema(),
		errors:    projectWriteErrors(trackedQueryNotFound),
		writeFunc: s.trackedStatusWrite("paused"),
	})
	tracked.handle(route{
		method: http.MethodPut, pattern: trackedBase + "/{trackedQueryId}/resume", id: "resumeTrackedQuery",
		summary: "Resume a paused tracked query",
		description: "No body. Asserts a state: resuming an active query succeeds with the same body. Runs no check and " +
			"back-fills nothing; the next check comes when due under its checkFrequency.",
		response:  s.trackedQuerySchema(),
		errors:    projectWriteErrors(trackedQueryNotFound),
		writeFunc: s.trackedStatusWrite("active"),
	})
	tracked.handle(route{
		method: http.MethodPut, pattern: trackedBase + "/{trackedQueryId}/clusters", id: "addTrackedQueryClusters",
		summary: "Add a tracked query to clusters",
		description: "Clusters it already belongs to are skipped; memberships not named are untouched. The clusters are " +
			"locked until the write commits, so one deleted concurrently is either refused with 400 or removed after the " +
			"write, never half-applied. Answers the query with its resulting clusters.",
		body:      trackedClustersBodySchema(),
		response:  s.trackedQuerySchema(),
		errors:    trackedMembershipErrors(),
		writeFunc: s.trackedMembershipWrite(true),
	})
	tracked.handle(route{
		method: http.MethodDelete, pattern: trackedBase + "/{trackedQueryId}/clusters", id: "removeTrackedQueryClusters",
		summary: "Remove a tracked query from clusters",
		description: "Requires a body (a stripped one gives 400). Removes membership only; clusters the query is not in " +
			"are skipped. Answers the query with its resulting clusters.",
		body:      trackedClustersBodySchema(),
		response:  s.trackedQuerySchema(),
		errors:    trackedMembershipErrors(),
		writeFunc: s.trackedMembershipWrite(false),
	})
	tracked.handle(route{
		method: http.MethodPut, pattern: trackedBase + "/batch/check-frequency", id: "batchSetTrackedQueryCheckFrequency",
		summary: "Set the check frequency of several tracked queries",
		description: "Always 200 with successful and failed, in the order ids first appear; nothing is rolled back. " +
			"Queries already at the frequency are successes.",
		body: object(props{"ids": trackedBatchIDsSchema(), "checkFrequency": trackedFrequencySchema()},
			"ids", "checkFrequency"),
		response:  trackedBatchAnswerSchema(sightline.ItemTrackedQueryNotFound),
		errors:    projectWriteErrors(projectNotFound),
		writeFunc: s.handleBatchTrackedFrequency,
	})
	tracked.handle(route{
		method: http.MethodPut, pattern: trackedBase + "/batch/passes", id: "batchSetTrackedQueryPasses",
		summary: "Set the passes of several tracked queries",
		description: "Always 200 with successful and failed, in the order ids first appear; nothing is rolled back. A " +
			"google_serp or google_shopping query asked for more than 1 pass fails with n_passes_not_supported_for_engine.",
		body:      object(props{"ids": trackedBatchIDsSchema(), "nPasses": trackedPassesSchema()}, "ids", "nPasses"),
		response:  trackedBatchAnswerSchema(sightline.ItemTrackedQueryNotFound, sightline.ItemNPassesNotSupported),
		errors:    projectWriteErrors(projectNotFound),
		writeFunc: s.handleBatchTrackedPasses,
	})
	tracked.handle(route{
		method: http.MethodPut, pattern: trackedBase + "/batch/pause", id: "batchPauseTrackedQueries",
		summary: "Pause several tracked queries",
		description: "Always 200 with successful and failed, in the order ids first appear; already-paused queries are " +
			"successes. A retry must repeat the same ids in the same order, or the Idempotency-Key counts as reused.",
		body:      trackedIDsBodySchema(),
		response:  trackedBatchAnswerSchema(sightline.ItemTrackedQueryNotFound),
		errors:    projectWriteErrors(projectNotFound),
		writeFunc: s.trackedBatchStatus("paused"),
	})
	tracked.handle(route{
		method: http.MethodPut, pattern: trackedBase + "/batch/resume", id: "batchResumeTrackedQueries",
		summary: "Resume several tracked queries",
		description: "Always 200 with successful and failed, in the order ids first appear; already-active queries are " +
			"successes. No check is run. A retry must repeat the same ids in the same order.",
		body:      trackedIDsBodySchema(),
		response:  trackedBatchAnswerSchema(sightline.ItemTrackedQueryNotFound),
		errors:    projectWriteErrors(projectNotFound),
		writeFunc: s.trackedBatchStatus("active"),
	})
	tracked.handle(route{
		method: http.MethodPost, pattern: trackedBase + "/bulk-delete", id: "bulkDeleteTrackedQueries",
		summary: "Delete several tracked queries",
		description: "Hard delete, active or paused, with their cluster memberships. Their captured answers, matches, " +
			"search pages and rank history are removed by a background cascade; until it finishes the project's " +
			"dataDirtySince is set. Always 200 with successful and failed, in the order ids first appear.",
		body:      trackedIDsBodySchema(),
		response:  trackedBatchAnswerSchema(sightline.ItemTrackedQueryNotFound),
		errors:    projectWriteErrors(projectNotFound),
		writeFunc: s.handleBulkDeleteTrackedQueries,
	})
	tracked.handle(route{
		method: http.MethodPut, pattern: trackedBase + "/bulk/clusters", id: "bulkAddTrackedQueryClusters",
		summary: "Add several tracked queries to clusters",
		description: "Adds every id to every cluster; existing memberships are skipped. Always 200 with successful and " +
			"failed per tracked query id, in the order ids first appear.",
		body:      trackedBulkClustersBodySchema(),
		response:  trackedBatchAnswerSchema(sightline.ItemTrackedQueryNotFound),
		errors:    trackedBulkMembershipErrors(),
		writeFunc: s.trackedBulkMembershipWrite(true),
	})
	tracked.handle(route{
		method: http.MethodDelete, pattern: trackedBase + "/bulk/clusters", id: "bulkRemoveTrackedQueryClusters",
		summary: "Remove several tracked queries from clusters",
		description: "Requires a body. Removes every id from every cluster; absent memberships are skipped. Always 200 " +
			"with successful and failed per tracked query id, in the order ids first appear.",
		body:      trackedBulkClustersBodySchema(),
		response:  trackedBatchAnswerSchema(sightline.ItemTrackedQueryNotFound),
		errors:    trackedBulkMembershipErrors(),
		writeFunc: s.trackedBulkMembershipWrite(false),
	})
	tracked.handle(route{
		method: http.MethodGet, pattern: projectBase + "/coverage", id: "getTrackedQueryCoverage",
		summary: "How well the project's check schedule keeps up",
		description: "Reads the write model. overdue: active queries whose last completed check is older than their " +
			"frequency's interval (daily 1 day, weekly 7 days, monthly 30 days); neverChecked: active queries never checked, " +
			"disjoint from overdue. sample: up to 20 overdue queries, oldest last check first. Takes no parameters. " +
			"Archived projects answer.",
		response: s.coverageSchema(),
		errors:   map[int]string{404: projectNotFound},
		read:     s.handleGetCoverage,
	})
}
