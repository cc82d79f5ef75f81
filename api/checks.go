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

func (s *server) handleCheckTrackedQueries(r *request, tx pgx.Tx) (int, any, error) {
	in, err := decodeBody[trackedIDsBody](r.body)
	if err != nil {
		return 0, nil, err
	}
	errs := sightline.ValidationErrors{}
	items, valid := trackedBatchIDs(in.IDs, errs)
	if err := errs.Err(); err != nil {
		return 0, nil, err
	}
	ctx := r.Context()
	p, err := s.projectForWrite(r, tx)
	if err != nil {
		return 0, nil, err
	}
	outcomes, created, err := oltp.RequestChecks(ctx, tx, r.organizationID, p.ID, valid)
	if err != nil {
		return 0, nil, err
	}
	if err := s.enqueueChecks(ctx, tx, created); err != nil {
		return 0, nil, err
	}
	byID := make(map[uuid.UUID]oltp.CheckOutcome, len(outcomes))
	for _, o := range outcomes {
		byID[o.TrackedQueryID] = o
	}
	answer := newTrackedBatchAnswer()
	for _, item := range items {
		o, ok := byID[item.id]
		switch {
		case !item.ok || !ok:
			answer.notFound(item.raw)
		case o.Code != "":
			answer.Failed = append(answer.Failed, trackedBatchFailure{ID: item.id.String(), ErrorCode: o.Code, ErrorMessage: o.Message})
		default:
			answer.Successful = append(answer.Successful, trackedBatchSuccess{ID: item.id})
		}
	}
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
			"engine": enumOf(oltp.TrackedQueryEngines...),
		}, "id", "engine")), "The submitted queries, least recently checked first."),
	}, "submitted", "queries")
}

func (s *server) handleCheckAllTrackedQueries(r *request, tx pgx.Tx) (int, any, error) {
	ctx := r.Context()
	p, err := s.projectForWrite(r, tx)
	if err != nil {
		return 0, nil, err
	}
	submitted, created, err := oltp.CheckAll(ctx, tx, r.organizationID, p.ID, maxCheckAll)
	if err != nil {
		return 0, nil, err
	}
	if err := s.enqueueChecks(ctx, tx, created); err != nil {
		return 0, nil, err
	}
	answer := checkAllAnswer{Submitted: len(submitted), Queries: make([]checkAllQuery, len(submitted))}
	for i, o := range submitted {
		answer.Queries[i] = checkAllQuery{ID: o.TrackedQueryID, Engine: o.Engine}
	}
	return http.StatusOK, answer, nil
}
