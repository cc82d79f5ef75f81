package jobs

import (
	"context"
	"errors"
	"fmt"

	"github.com/sightline/sightline/ingest"
	"github.com/sightline/sightline/olap"
)

// AnalyticsSink is the CaptureSink of a running service: it extracts each
// pass (ingest.PassRows) and writes its rows to ClickHouse through the
// shared batching writer, returning once they are stored. The writer stores
// a pass once whatever the number of attempts, so StorePass is idempotent
// per run and pass as CaptureSink requires.
type AnalyticsSink struct {
	Writer *olap.Writer
}

// StorePass implements CaptureSink.
func (s AnalyticsSink) StorePass(ctx context.Context, p PassResult) error {
	rows := ingest.PassRows(olap.Pass{
		OrganizationID: p.OrganizationID, ProjectID: p.ProjectID, TrackedQueryID: p.TrackedQueryID, RunID: p.RunID,
		PassIndex: uint8(p.PassIndex), PassCount: uint8(p.PassCount), Engine: p.Engine, Country: p.Country,
		Locale: p.Locale, QueryText: p.QueryText, CapturedAt: p.CapturedAt,
	}, p.Capture, p.Brands)
	rows.Fresh = p.Fresh
	if err := s.Writer.Write(ctx, rows); err != nil {
		if errors.Is(err, olap.ErrInvalidPass) {
			return permanentError{fmt.Errorf("storing pass: %w", err)}
		}
		return fmt.Errorf("storing pass: %w", err)
	}
	return nil
}

// permanentError is a failure that trying again cannot fix.
type permanentError struct{ err error }

func (e permanentError) Error() string   { return e.err.Error() }
func (e permanentError) Unwrap() error   { return e.err }
func (e permanentError) Retryable() bool { return false }
