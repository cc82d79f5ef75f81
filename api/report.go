package api

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/go-chi/chi/v5"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/sightline/sightline"
	"github.com/sightline/sightline/oltp"
)

// Reports of captured AI answers (spec 4.2 report) go to review and are
// never shown again. With an external review system configured
// (REVIEW_URL) each is forwarded to it at most once; without one it is
// queued in Sightline's own review queue (answer_reports), which operators
// read with `sightline admin reports list`.

// AIResponseLocator finds the check run that captured an AI answer; the
// analytics store, which holds the answers, implements it.
type AIResponseLocator interface {
	// LocateAIResponse returns the run that captured the AI answer
	// aiResponseID of the tracked query of the project. found is false
	// when the project holds no such answer for that query; runID is
	// uuid.Nil when the answer is known but no run is recorded for it.
	LocateAIResponse(ctx context.Context, projectID, trackedQueryID, aiResponseID uuid.UUID) (runID uuid.UUID, found bool, err error)
}

// Reviews is where reports go.
type Reviews struct {
	// URL receives each report as a JSON POST (REVIEW_URL); any 2xx answer
	// accepts it. Empty: reports are queued in answer_reports.
	URL string
	// Client sends the forwards; nil means one with ReviewTimeout.
	Client *http.Client
	// Locator routes an AI answer to its check run.
	Locator AIResponseLocator
}

// ReviewTimeout bounds one forward to the review system.
const ReviewTimeout = 10 * time.Second

// Report limits (spec 8).
const (
	maxReportComment      = 1000
	maxMissedBrandNames   = 50
	maxMissedBrandNameLen = 255
)

// reportTypes are what a report may be about.
var reportTypes = []string{"missed_mention", "other"}

type reportBody struct {
	Type             string   `json:"type" required:"true" validate:"reportType"`
	Comment          *string  `json:"comment"`
	MissedBrandNames []string `json:"missedBrandNames"`
}

// normalize checks what the validator cannot: the comment's length in
// characters, and the missed brand names, which are trimmed, must have 1 to
// 255 characters and count at most 50 once
// duplicates (ignoring case) are collapsed. An empty comment becomes none,
// and the names the trimmed distinct ones.
func (b *reportBody) normalize(errs sightline.ValidationErrors) {
	if b.Comment != nil {
		if utf8.RuneCountInString(*b.Comment) > maxReportComment {
			errs.Add("comment", sightline.DetailOutOfRange, "must have at most %d characters", maxReportComment)
		} else if *b.Comment == "" {
			b.Comment = nil
		}
	}
	seen := map[string]bool{}
	names := []string{}
	for i, raw := range b.MissedBrandNames {
		name := strings.TrimSpace(raw)
		field := fmt.Sprintf("missedBrandNames[%d]", i)
		switch n := utf8.RuneCountInString(name); {
		case n == 0:
			errs.Add(field, sightline.DetailOutOfRange, "must have at least 1 character once trimmed; it has 0")
		case n > maxMissedBrandNameLen:
			errs.Add(field, sightline.DetailOutOfRange, "must have at most %d characters", maxMissedBrandNameLen)
		case !seen[strings.ToLower(name)]:
			seen[strings.ToLower(name)] = true
			names = append(names, name)
		}
	}
	if len(names) > maxMissedBrandNames {
		errs.Add("missedBrandNames", sightline.DetailOutOfRange, "must name at most %d distinct brands", maxMissedBrandNames)
	}
	b.MissedBrandNames = names
}

// reportAnswer says the report was accepted for review.
type reportAnswer struct {
	ReportID uuid.UUID `json:"reportId"`
	Status   string    `json:"status"`
}

func reportAnswerSchema() *openapi3.Schema {
	return object(props{
		"reportId": described(uuidSchema(), "Identifies the report in review (the review system's, or Sightline's own queue without one), for support requests."),
		"status":   enumOf("accepted"),
	}, "reportId", "status")
}

func reportBodySchema() *openapi3.Schema {
	return object(props{
		"type": enumOf(reportTypes...),
		"comment": described(nullable(stringSchema().WithMaxLength(maxReportComment)),
			"At most 1000 characters; an empty string or null is no comment."),
		"missedBrandNames": described(arrayOf(stringSchema().WithMinLength(1).WithMaxLength(maxMissedBrandNameLen)),
			"Brands the answer should have been credited with: trimmed, each 1 to 255 characters, at most 50 distinct "+
				"once duplicates (ignoring case) are collapsed."),
	}, "type")
}

// handleReportAIResponse checks the report in the write's transaction.
// Without a review system it queues the report in that transaction. With
// one it returns the forward as an externalCall: the pipeline records the intent
// and commits before the forward, so no transaction or lock is held while
// the review system answers, and if it does not accept the report (or the
// process dies) every retry under the key answers
// operation_outcome_uncertain instead of forwarding again.
func (s *server) handleReportAIResponse(r *request, tx pgx.Tx) (int, any, error) {
	body, err := decodeNormalized[reportBody](r.body)
	if err != nil {
		return 0, nil, err
	}
	ctx := r.Context()
	// The report changes no project row (a queued report is a row of its
	// own), so the project is checked without the write lock, which would
	// otherwise be held through the forward.
	p, err := s.projectForRead(r)
	if err != nil {
		return 0, nil, err
	}
	if err := p.CheckWritable(); err != nil {
		return 0, nil, err
	}
	queryID, err := trackedQueryID(r)
	if err != nil {
		return 0, nil, err
	}
	if _, err := oltp.GetTrackedQuery(ctx, tx, p.ID, queryID); err != nil {
		return 0, nil, err
	}
	responseID, err := uuid.Parse(chi.URLParam(r.Request, "aiResponseId"))
	if err != nil {
		return 0, nil, sightline.Errorf(sightline.CodeAIResponseNotFound, "AI response not found.")
	}
	runID, err := s.reportRun(ctx, tx, p.ID, queryID, responseID)
	if err != nil {
		return 0, nil, err
	}
	report := oltp.AnswerReport{
		ReportID: uuid.Must(uuid.NewV7()), Type: body.Type, Comment: body.Comment, MissedBrandNames: body.MissedBrandNames,
		OrganizationID: r.organizationID, ProjectID: p.ID, TrackedQueryID: queryID, AIResponseID: responseID,
		CheckRunID: runID, ReportedBy: r.key.User.ID, ReportedAt: sightline.Timestamp{Time: time.Now().UTC()},
	}
	accepted := reportAnswer{ReportID: report.ReportID, Status: "accepted"}
	if s.reviews.URL == "" {
		// Queued with the stored answer in one transaction: a replay
		// answers the same report and never queues it twice.
		if err := oltp.QueueAnswerReport(ctx, tx, report); err != nil {
			return 0, nil, err
		}
		return http.StatusOK, accepted, nil
	}
	return http.StatusOK, externalCall(func(ctx context.Context) (int, any, error) {
		if err := s.forwardReport(ctx, report); err != nil {
			s.logger.WarnContext(ctx, "report forward failed", "reportId", report.ReportID, "error", err.Error())
			return 0, nil, &sightline.Error{Code: sightline.CodeReviewSystemUnavailable, Cause: err,
				Message: "The review system could not be reached or did not accept the report; whether it was filed is " +
					"unknown. This Idempotency-Key will not replay; a new key may file the report twice."}
		}
		return http.StatusOK, accepted, nil
	}), nil
}

// reportRun routes the AI answer to the check run that captured it.
func (s *server) reportRun(ctx context.Context, tx pgx.Tx, projectID, queryID, responseID uuid.UUID) (uuid.UUID, error) {
	if s.reviews.Locator == nil {
		return uuid.Nil, fmt.Errorf("no AI response locator is configured")
	}
	runID, found, err := s.reviews.Locator.LocateAIResponse(ctx, projectID, queryID, responseID)
	if err != nil {
		return uuid.Nil, fmt.Errorf("locating AI response: %w", err)
	}
	if !found {
		return uuid.Nil, sightline.Errorf(sightline.CodeAIResponseNotFound, "AI response not found.")
	}
	unavailable := sightline.Errorf(sightline.CodeAICheckSessionUnavailable,
		"This AI answer cannot be routed to the check run that captured it, so it cannot be reviewed.")
	if runID == uuid.Nil {
		return uuid.Nil, unavailable
	}
	known, err := oltp.CheckRunOfQuery(ctx, tx, projectID, queryID, runID)
	if err != nil {
		return uuid.Nil, err
	}
	if !known {
		return uuid.Nil, unavailable
	}
	return runID, nil
}

// forwardReport posts the report to the review system once; only a 2xx
// answer accepts it. The request carries no Idempotency-Key header on
// purpose: net/http would then resend it on a broken keep-alive
// connection, and delivery is at most once (the payload's reportId lets
// the review system tell reports apart).
func (s *server) forwardReport(ctx context.Context, report oltp.AnswerReport) error {
	payload, err := json.Marshal(report)
	if err != nil {
		return fmt.Errorf("encoding report: %w", err)
	}
	client := s.reviews.Client
	if client == nil {
		client = &http.Client{Timeout: ReviewTimeout}
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.reviews.URL, bytes.NewReader(payload))
	if err != nil {
		return fmt.Errorf("building report forward: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	res, err := client.Do(req)
	if err != nil {
		return fmt.Errorf("forwarding report: %w", err)
	}
	defer res.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(res.Body, 1<<16))
	if res.StatusCode < 200 || res.StatusCode > 299 {
		return fmt.Errorf("review system answered %d", res.StatusCode)
	}
	return nil
}

// reportRoutes lists the report of a wrong AI answer (spec 4.2).
func (s *server) reportRoutes(tracked routeGroup) {
	tracked.handle(route{
		method: http.MethodPost, pattern: trackedBase + "/{trackedQueryId}/responses/{aiResponseId}/report",
		id: "reportAIResponse", summary: "Report a problem with a captured AI answer",
		role: sightline.RoleViewer,
		description: "Sends the report to review; it changes nothing and is never shown again. 200 means accepted for " +
			"review. Without an external review system configured, the report is queued in Sightline's own review " +
			"queue with the answer, so a retry with the same Idempotency-Key replays it. With one, the report is " +
			"forwarded to it at most once: the attempt is recorded as of unknown outcome before the " +
			"forward, and no transaction is held while the review system answers (a retry meanwhile answers 409 " +
			"idempotency_request_in_progress): if it does not accept the report, the answer is 502 and every retry with " +
			"the same Idempotency-Key answers 409 operation_outcome_uncertain (a new key may file the report twice).",
		body:     reportBodySchema(),
		response: reportAnswerSchema(),
		errors: map[int]string{
			404: "organization_not_found: no accessible project, tracked query of it, or AI answer of that query has the id.",
			409: "ai_check_session_unavailable: the answer cannot be routed to the check run that captured it; " +
				"project_is_archived: the project or its organization is archived.",
			502: "review_system_unavailable: the external review system was unreachable or refused the report; the " +
				"outcome is unknown and the Idempotency-Key will not replay.",
		},
		writeFunc: s.handleReportAIResponse,
	})
}
