package jobs

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"

	"github.com/sightline/sightline/oltp"
)

// RelayCheckAnswersArgs asks for the answers of closed runs still kept in
// the check_answers outbox to be stored in ClickHouse.
type RelayCheckAnswersArgs struct{}

// Kind names the job on the queue.
func (RelayCheckAnswersArgs) Kind() string { return "check_answer_relay" }

// InsertOpts puts the job on the maintenance queue, once per interval.
func (RelayCheckAnswersArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{Queue: MaintenanceQueue, UniqueOpts: river.UniqueOpts{ByPeriod: RelayCheckAnswersInterval}}
}

// RelayCheckAnswersInterval is how often the relay looks for answers.
const RelayCheckAnswersInterval = time.Minute

// relayBatch is how many answers the relay stores at once.
const relayBatch = 500

// RelayCheckAnswersWorker stores the answers whose run closed (failed or
// cancelled) while they waited for ClickHouse: the runs' own attempts
// store the answers of runs in flight, and a completed run has none. The
// answers were paid for, so they are stored like any other pass; an
// answer that can never be stored (it no longer decodes, or extraction
// refuses it) is logged and dropped rather than retried forever.
type RelayCheckAnswersWorker struct {
	river.WorkerDefaults[RelayCheckAnswersArgs]
	Pool   *pgxpool.Pool
	Sink   CaptureSink
	Logger *slog.Logger
}

// Work stores the waiting answers, a batch at a time, until none is left.
func (w *RelayCheckAnswersWorker) Work(ctx context.Context, _ *river.Job[RelayCheckAnswersArgs]) error {
	if w.Sink == nil {
		return errors.New("check answer relay has no capture sink configured")
	}
	for {
		answers, err := oltp.OrphanCheckAnswers(ctx, w.Pool, relayBatch)
		if err != nil || len(answers) == 0 {
			return err
		}
		for _, a := range answers {
			err := storeKept(ctx, w.Pool, w.Sink, a)
			var r retryable
			if errors.As(err, &r) && !r.Retryable() {
				w.Logger.ErrorContext(ctx, "dropping a check answer that cannot be stored", "runId", a.RunID,
					"pass", a.PassIndex, "error", err)
				err = oltp.DeleteCheckAnswer(ctx, w.Pool, a)
			}
			if err != nil {
				return err
			}
		}
		w.Logger.InfoContext(ctx, "stored the kept answers of closed check runs", "answers", len(answers))
	}
}
