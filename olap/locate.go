package olap

import (
	"context"
	"fmt"

	"github.com/ClickHouse/clickhouse-go/v2/lib/driver"
	"github.com/google/uuid"
)

// AnswerLocator finds the check run that captured an AI answer, so a
// report on the answer can be routed to it.
type AnswerLocator struct {
	Conn driver.Conn
}

// LocateAIResponse returns the run of the AI answer aiResponseID of the
// project's tracked query; found is false when the project holds no such
// answer for that query.
func (l AnswerLocator) LocateAIResponse(ctx context.Context, projectID, trackedQueryID, aiResponseID uuid.UUID) (runID uuid.UUID, found bool, err error) {
	rows, err := l.Conn.Query(ctx, `
		SELECT run_id FROM ai_answers
		WHERE project_id = ? AND tracked_query_id = ? AND id = ?
		LIMIT 1`, projectID, trackedQueryID, aiResponseID)
	if err != nil {
		return uuid.Nil, false, fmt.Errorf("locating ai answer: %w", err)
	}
	defer rows.Close()
	if !rows.Next() {
		return uuid.Nil, false, rows.Err()
	}
	if err := rows.Scan(&runID); err != nil {
		return uuid.Nil, false, fmt.Errorf("locating ai answer: %w", err)
	}
	return runID, true, nil
}
