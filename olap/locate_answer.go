package olap

import (
	"context"
	"fmt"

	"github.com/google/uuid"
)

// LocateAIResponse returns the check run that captured the AI answer
// aiResponseID of the project's tracked query, so a report on the answer
// can be routed to it; found is false when the project holds no such
// answer for that query.
func (l *Reader) LocateAIResponse(ctx context.Context, projectID, trackedQueryID, aiResponseID uuid.UUID) (runID uuid.UUID, found bool, err error) {
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
