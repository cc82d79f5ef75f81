package oltp

import (
	"context"
	"fmt"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/sightline/sightline"
)

// AnswerReport is a report of a captured AI answer (spec 4.2 report): what
// an external review system receives as JSON, and what Sightline's own
// review queue (answer_reports) keeps when none is configured.
type AnswerReport struct {
	ReportID         uuid.UUID           `json:"reportId" db:"id"`
	Type             string              `json:"type" db:"type"`
	Comment          *string             `json:"comment" db:"comment"`
	MissedBrandNames []string            `json:"missedBrandNames" db:"missed_brand_names"`
	OrganizationID   uuid.UUID           `json:"organizationId" db:"organization_id"`
	ProjectID        uuid.UUID           `json:"projectId" db:"project_id"`
	TrackedQueryID   uuid.UUID           `json:"trackedQueryId" db:"tracked_query_id"`
	AIResponseID     uuid.UUID           `json:"aiResponseId" db:"ai_response_id"`
	CheckRunID       uuid.UUID           `json:"checkRunId" db:"check_run_id"`
	ReportedBy       uuid.UUID           `json:"reportedBy" db:"reported_by"`
	ReportedAt       sightline.Timestamp `json:"reportedAt" db:"reported_at"`
}

// QueueAnswerReport puts the report in the review queue, in the caller's
// transaction, so that it is queued exactly when the request's answer is
// stored.
func QueueAnswerReport(ctx context.Context, tx pgx.Tx, r AnswerReport) error {
	_, err := tx.Exec(ctx, `
		INSERT INTO answer_reports (id, type, comment, missed_brand_names, organization_id, project_id,
		                            tracked_query_id, ai_response_id, check_run_id, reported_by, reported_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
		r.ReportID, r.Type, r.Comment, r.MissedBrandNames, r.OrganizationID, r.ProjectID,
		r.TrackedQueryID, r.AIResponseID, r.CheckRunID, r.ReportedBy, r.ReportedAt.Time)
	if err != nil {
		return fmt.Errorf("queueing answer report: %w", err)
	}
	return nil
}

// AnswerReports lists the queued reports, oldest first, at most limit of
// them reported after the report after (uuid.Nil: from the start; an id
// not in the queue lists nothing); the last id of a page is the next
// page's after.
func AnswerReports(ctx context.Context, db DBTX, after uuid.UUID, limit int) ([]AnswerReport, error) {
	return queryRows(ctx, db, pgx.RowToStructByName[AnswerReport], "listing answer reports", `
		SELECT id, type, comment, missed_brand_names, organization_id, project_id,
		       tracked_query_id, ai_response_id, check_run_id, reported_by, reported_at
		FROM answer_reports
		WHERE $1::uuid = '00000000-0000-0000-0000-000000000000'
		   OR (reported_at, id) > (SELECT reported_at, id FROM answer_reports WHERE id = $1)
		ORDER BY reported_at, id
		LIMIT $2`, after, limit)
}

// ResolveAnswerReport takes a reviewed report out of the queue; it reports
// whether the queue held it.
func ResolveAnswerReport(ctx context.Context, db DBTX, id uuid.UUID) (bool, error) {
	tag, err := db.Exec(ctx, `DELETE FROM answer_reports WHERE id = $1`, id)
	if err != nil {
		return false, fmt.Errorf("resolving answer report: %w", err)
	}
	return tag.RowsAffected() == 1, nil
}
