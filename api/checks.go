package api

import (
	"context"
	"fmt"
	"net/http"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"

	"github.com/sightline/sightline"
	"github.com/sightline/sightline/jobs"
	"github.com/sightline/sightline/oltp"
)

// Checks on demand (spec 4.2 check and check-all). Both create their runs,
// reserve their units and enqueue their jobs in the write's transaction
// (oltp.RequestChecks, oltp.CheckAll); a run already in flight is shared,
// never doubled.

// maxCheckAll bounds the queries one check-all submits (spec 8).
const maxCheckAll = 1000

// checkItemCodes are the per-item refusals of the check operation.
var checkItemCodes = []sightline.Code{sightline.ItemTrackedQueryNotFound, sightline.ItemTrackedQueryAlreadyPaused,
	sightline.ItemSubscriptionNotFound, sightline.ItemCheckBudgetForecastExhausted}

// enqueueChecks enqueues the jobs of runs created on demand, in tx.
func (s *server) enqueueChecks(ctx context.Context, tx pgx.Tx, runs []uuid.UUID) error {
	if len(runs) == 0 {
		return nil
	}
	params := make([]river.InsertManyParams, len(runs))
	for i, id := range runs {
		params[i] = jobs.CheckJob(id, oltp.CheckTriggerOnDemand)
	}
	if _, err := s.jobs.InsertManyTx(ctx, tx, params); err != nil {
		return fmt.Errorf("enqueueing checks: %w", err)
	}
	return nil
}

// checkProject locks the path's project for a write, lets create make its
// checks and enqueues the jobs of the runs create made, all in tx; it
// returns create's outcomes.
func (s *server) checkProject(r *request, tx pgx.Tx,
	create func(ctx context.Context, projectID uuid.UUID) ([]oltp.CheckOutcome, []uuid.UUID, error)) ([]oltp.CheckOutcome, error) {
	p, err := s.projectForWrite(r, tx)
	if err != nil {
		return nil, err
	}
	outcomes, runs, err := create(r.Context(), p.ID)
	if err != nil {
		return nil, err
	}
	return outcomes, s.enqueueChecks(r.Context(), tx, runs)
}

func (s *server) handleCheckTrackedQueries(r *request, tx pgx.Tx) (int, any, error) {
	items, valid, err := decodeTrackedIDs(r)
	if err != nil {
		return 0, nil, err
	}
	outcomes, err := s.checkProject(r, tx, func(ctx context.Context, projectID uuid.UUID) ([]oltp.CheckOutcome, []uuid.UUID, error) {
		return oltp.RequestChecks(ctx, tx, r.organizationID, projectID, valid)
	})
	if err != nil {
		return 0, nil, err
	}
	byID := make(map[uuid.UUID]oltp.CheckOutcome, len(outcomes))
	for _, o := range outcomes {
		byID[o.TrackedQueryID] = o
	}
	answer, _ := answerTrackedItems(items, func(id uuid.UUID) bool {
		_, ok := byID[id]
		return ok
	}, func(id uuid.UUID) (sightline.Code, string) {
		return byID[id].Code, byID[id].Message
	})
	return http.StatusOK, answer, nil
}

// checkAllAnswer is the check-all answer of api-decisions.
type checkAllAnswer struct {
	Submitted int             `json:"submitted"`
	Queries   []checkAllQuery `json:"queries"`
}

type checkAllQuery struct {
	ID     uuid.UUID `json:"id"`
	Engine string    `json:"engine"`
}

func checkAllSchema() *openapi3.Schema {
	return object(props{
		"submitted": described(integerSchema().WithMin(0), "How many queries were submitted: the length of queries."),
		"queries": described(arrayOf(object(props{
			"id":     uuidSchema(),
			"engine": enumFrom(sightline.Engines),
		}, "id", "engine")), "The submitted queries, least recently checked first."),
	}, "submitted", "queries")
}

func (s *server) handleCheckAllTrackedQueries(r *request, tx pgx.Tx) (int, any, error) {
	submitted, err := s.checkProject(r, tx, func(ctx context.Context, projectID uuid.UUID) ([]oltp.CheckOutcome, []uuid.UUID, error) {
		return oltp.CheckAll(ctx, tx, r.organizationID, projectID, maxCheckAll)
	})
	if err != nil {
		return 0, nil, err
	}
	answer := checkAllAnswer{Submitted: len(submitted), Queries: make([]checkAllQuery, len(submitted))}
	for i, o := range submitted {
		answer.Queries[i] = checkAllQuery{ID: o.TrackedQueryID, Engine: o.Engine}
	}
	return http.StatusOK, answer, nil
}

// checkRoutes lists the on-demand checks of tracked queries (spec 4.2).
func (s *server) checkRoutes(tracked routeGroup) {
	tracked.handle(route{
		method: http.MethodPut, pattern: trackedBase + "/check", id: "checkTrackedQueries",
		summary: "Check several tracked queries now",
		description: "Asks for a fresh check of each id now, ignoring recency; 200 with successful and failed in the " +
			"order ids first appear, and no job id. A success means accepted with budget reserved (or shared with the " +
			"query's check already pending, running or awaiting retry, at no extra cost), not that the check ran. Each " +
			"new check reserves one budget unit per pass of the query, ids earlier in the request first; the forecast " +
			"is pessimistic (units reserved by checks in flight count as spent), so an id failing with " +
			"check_budget_forecast_exhausted may be sent again later. subscription_not_found: the organization's most " +
			"recent subscription is not active, trialing or past_due within its current period (a cancelled one inside " +
			"its grace window included); nothing is accepted then. A retry must repeat the same ids in the same order.",
		body:      trackedIDsBodySchema(),
		response:  trackedBatchAnswerSchema(checkItemCodes...),
		errors:    projectWriteErrors(projectNotFound),
		writeFunc: s.handleCheckTrackedQueries,
	})
	tracked.handle(route{
		method: http.MethodPut, pattern: trackedBase + "/check-all", id: "checkAllTrackedQueries",
		summary: "Check every eligible tracked query of the project now",
		description: "No body. Submits active queries without a check already running, least recently checked first " +
			"(never checked first), at most 1000. A query whose check is pending or awaiting retry on its engine is listed " +
			"at no extra cost (that check is shared; one awaiting retry keeps its retry schedule); a check in flight on an " +
			"engine the query no longer has is replaced and paid for. Every other query gets a new check reserving one " +
			"unit per pass; the list stops at the first that does not fit the units left (reserved ones count as spent). " +
			"Without an entitled subscription, and while a cancelled one is inside its grace window, nothing is submitted " +
			"and submitted is 0. Calling again lists the same queries until their checks start; finished checks are run " +
			"and charged again. No job id is returned.",
		response:  checkAllSchema(),
		errors:    projectWriteErrors(projectNotFound),
		writeFunc: s.handleCheckAllTrackedQueries,
	})
}
