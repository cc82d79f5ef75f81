package oltp

import (
	"context"
	"fmt"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
)

// Check answers: the outbox between an engine's answer and ClickHouse
// (00010_check_answers.sql). A pass's answer is kept and charged in one
// statement, before it is stored in ClickHouse: when ClickHouse is down the
// answer waits here, and whoever stores it later (the run's next attempt,
// or RelayCheckAnswers for runs that closed meanwhile) never asks the engine
// again. The answered bit makes the charge happen once per pass.

// CheckAnswer is an answered pass waiting to be stored in ClickHouse.
type CheckAnswer struct {
	RunID     uuid.UUID `db:"run_id"`
	ProjectID uuid.UUID `db:"project_id"`
	PassIndex int       `db:"pass_index"`
	// Pass is the answer as the check worker encoded it.
	Pass []byte `db:"pass"`
}

// RecordCheckAnswer keeps the answer of pass (0-based) of the running run
// and charges its unit (one reserved unit becomes a used one), in one
// statement. It reports false, changing nothing, when the run is no longer
// running or the pass is already answered, so a pass is never charged
// twice.
func RecordCheckAnswer(ctx context.Context, db DBTX, run *CheckRun, pass int, answer []byte) (bool, error) {
	tag, err := db.Exec(ctx, `
		WITH r AS (
			UPDATE check_runs SET answered_passes = answered_passes | (1 << $3), passes_done = passes_done + 1,
			       charged_units = charged_units + 1, reserved_units = reserved_units - 1, updated_at = now()
			WHERE id = $1 AND project_id = $2 AND status = 'running' AND answered_passes & (1 << $3) = 0
			RETURNING id, project_id
		)
		INSERT INTO check_answers (run_id, project_id, pass_index, pass)
		SELECT id, project_id, $3, $4 FROM r`,
		run.ID, run.ProjectID, pass, answer)
	if err != nil {
		return false, fmt.Errorf("recording check answer: %w", err)
	}
	return tag.RowsAffected() == 1, nil
}

// CheckAnswersOfRun returns the run's answers not yet stored, by pass.
func CheckAnswersOfRun(ctx context.Context, db DBTX, run *CheckRun) ([]CheckAnswer, error) {
	return queryRows(ctx, db, pgx.RowToStructByName[CheckAnswer], "reading check answers", `
		SELECT run_id, project_id, pass_index, pass FROM check_answers
		WHERE run_id = $1 AND project_id = $2 ORDER BY pass_index`, run.ID, run.ProjectID)
}

// OrphanCheckAnswers returns up to limit answers, oldest first, whose run
// has closed (failed or cancelled) before storing them: no attempt of the
// run will store them, so the relay does.
func OrphanCheckAnswers(ctx context.Context, db DBTX, limit int) ([]CheckAnswer, error) {
	return queryRows(ctx, db, pgx.RowToStructByName[CheckAnswer], "reading orphan check answers", `
		SELECT a.run_id, a.project_id, a.pass_index, a.pass FROM check_answers a
		JOIN check_runs r ON r.id = a.run_id AND r.project_id = a.project_id
		WHERE r.status IN ('failed', 'cancelled')
		ORDER BY a.created_at LIMIT $1`, limit)
}

// DeleteCheckAnswer forgets an answer ClickHouse now holds.
func DeleteCheckAnswer(ctx context.Context, db DBTX, a CheckAnswer) error {
	if _, err := db.Exec(ctx, `DELETE FROM check_answers WHERE run_id = $1 AND project_id = $2 AND pass_index = $3`,
		a.RunID, a.ProjectID, a.PassIndex); err != nil {
		return fmt.Errorf("deleting stored check answer: %w", err)
	}
	return nil
}

// CheckAnswersWaiting counts the answers waiting for ClickHouse and the age
// in seconds of the oldest (0 when none wait), for the metrics.
func CheckAnswersWaiting(ctx context.Context, db DBTX) (int64, float64, error) {
	var n int64
	var age float64
	err := db.QueryRow(ctx, `
		SELECT count(*), coalesce(extract(epoch FROM now() - min(created_at)), 0)::float8 FROM check_answers`).Scan(&n, &age)
	if err != nil {
		return 0, 0, fmt.Errorf("counting check answers: %w", err)
	}
	return n, age, nil
}
