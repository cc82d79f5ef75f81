package olap

import (
	"time"

	"github.com/ClickHouse/clickhouse-go/v2/lib/driver"
	"github.com/google/uuid"

	"github.com/sightline/sightline"
)

// Analytics serves the windowed analytics of spec 4.3. Figures come from
// the daily rollups (mentions_daily, ranks_daily, cooccurrence_daily,
// cited_sources_daily), which re-aggregate on read and are exact before
// merges; only figures that need single rows (mention samples, examples)
// read the raw capture tables. One file per figure family holds its reader
// methods and their SQL.
//
// Every figure counts completed passes only: rank_rows holds a row for a
// pass once it is stored, and a failed pass stores nothing, so a failure is
// never a "not mentioned". A window with no completed capture gives nil
// rates and positions, never zeros.
type Analytics struct {
	Conn driver.Conn
}

// Scope selects the captures a figure is computed over: one project's
// passes on whole UTC days From..To inclusive, narrowed by engine, country
// and tracked query.
type Scope struct {
	ProjectID uuid.UUID
	// From and To are UTC midnights; To is the last day counted.
	From, To time.Time
	// Engines and Countries narrow the passes; empty means all.
	Engines   []sightline.Engine
	Countries []string // ISO 3166-1 alpha-2, upper case
	// TrackedQueryIDs, when non-nil, keeps only these tracked queries: a
	// cluster filter resolved against today's memberships. An empty non-nil
	// slice selects nothing (a deleted cluster, a cluster without members).
	TrackedQueryIDs []uuid.UUID
}

// Days is the number of days in the window.
func (s Scope) Days() int {
	return int(s.To.Sub(s.From).Hours()/24) + 1
}

// Previous is the equally long window that ends the day before From
// (api-decisions: the trend's comparison window).
func (s Scope) Previous() Scope {
	p := s
	p.To = s.From.AddDate(0, 0, -1)
	p.From = p.To.AddDate(0, 0, -(s.Days() - 1))
	return p
}

// Empty reports whether the scope can select no capture at all, which
// spares the store a read.
func (s Scope) Empty() bool {
	return s.TrackedQueryIDs != nil && len(s.TrackedQueryIDs) == 0
}

// rollupWhere is the scope's predicate over a daily rollup (column day).
// It is built from literal fragments only; values travel as arguments.
func (s Scope) rollupWhere() (string, []any) {
	return s.predicate("day >= ? AND day <= ?", s.From, s.To)
}

// rawWhere is the scope's predicate over a raw capture table (column
// captured_at), on the same whole days as rollupWhere.
func (s Scope) rawWhere() (string, []any) {
	return s.predicate("captured_at >= ? AND captured_at < ?", s.From, s.To.AddDate(0, 0, 1))
}

func (s Scope) predicate(window string, from, until time.Time) (string, []any) {
	sql := "project_id = ? AND " + window
	args := []any{s.ProjectID, from, until}
	if len(s.Engines) > 0 {
		engines := make([]string, len(s.Engines))
		for i, e := range s.Engines {
			engines[i] = string(e)
		}
		sql += " AND engine IN ?"
		args = append(args, engines)
	}
	if len(s.Countries) > 0 {
		sql += " AND country IN ?"
		args = append(args, s.Countries)
	}
	if s.TrackedQueryIDs != nil {
		if len(s.TrackedQueryIDs) == 0 {
			return sql + " AND 0", args
		}
		sql += " AND tracked_query_id IN ?"
		args = append(args, s.TrackedQueryIDs)
	}
	return sql, args
}
