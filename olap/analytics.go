package olap

import (
	"slices"
	"strings"
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
// Which rows a read touches decides its cost, so readers pick them by what
// they group and filter by. A read over every tracked query of the project
// that sums plain columns per market and brand is answered by the rollups'
// per-market projections (rollupFrom; migrations 00005 and 00006); one that
// groups or filters by tracked query takes the whole months of its window
// from ranks_monthly and mentions_monthly and the edge days from the daily
// rollups (perQueryFrom). Both stay exact under deletions (see
// schema/clickhouse/README.md).
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

// rollupFrom is a FROM item holding the scope's rows of a daily rollup
// with per-query rows (ranks_daily or mentions_daily), for reads that
// neither group nor filter by tracked query beyond the scope's own filter.
// Without a tracked-query filter it is the daily table, whose per-market
// projection (by_market) answers such reads with one row per market, brand
// and day whenever the read asks only for the projection's aggregates. With
// one, it is perQueryFrom: the filter leaves no projection to use, and the
// monthly rollup holds fewer rows per query.
func (s Scope) rollupFrom(daily string) (string, []any) {
	if s.TrackedQueryIDs == nil {
		where, args := s.bounded().rollupWhere()
		return "(SELECT * FROM " + daily + " WHERE " + where + ")", args
	}
	return perQueryFrom(daily, s)
}

// trendFrom is a FROM item holding the rows of daily (ranks_daily or
// mentions_daily) of the scope's window and of the previous one, which a
// read tells apart by day >= s.From: rollupFrom over both windows at once,
// so that one pass reads both. With a tracked-query filter each window
// takes its own whole months (perQueryFrom), so that no month straddles
// the two.
func (s Scope) trendFrom(daily string) (string, []any) {
	if s.TrackedQueryIDs == nil {
		both := s.Previous()
		both.To = s.To
		return both.rollupFrom(daily)
	}
	return perQueryFrom(daily, s.Previous(), s)
}

// monthlyRollups are the monthly twins of the daily rollups that keep
// tracked_query_id (migration 00006): same key and columns, day being the
// first day of the month.
var monthlyRollups = map[string]string{"ranks_daily": "ranks_monthly", "mentions_daily": "mentions_monthly"}

// perQueryFrom is a FROM item holding the rows of daily (ranks_daily or
// mentions_daily) of every scope, for reads per tracked query: the calendar
// months a scope's window covers whole come from the monthly rollup (day is
// the month's first day, so it still lies in the scope's window), the days
// before and after them from the daily one. A 16-month window reads about
// 45 rows per query and brand instead of 480. The scopes differ only in
// their windows, which must not overlap. Each rollup is read in one arm
// whose predicate lists its runs of days (runs that meet joined), whatever
// the number of scopes: every arm costs the server its own analysis and
// reading, more than the rows the runs select.
func perQueryFrom(daily string, scopes ...Scope) (string, []any) {
	var months, days []WindowPart
	for _, s := range scopes {
		s = s.bounded()
		for _, part := range WindowParts(s.From, s.To) {
			if part.Monthly {
				months = append(months, part)
			} else {
				days = append(days, part)
			}
		}
	}
	var arms []string
	var args []any
	for _, r := range []struct {
		table string
		parts []WindowPart
		next  func(time.Time) time.Time // the first row of the run after one ending at t
	}{
		{monthlyRollups[daily], months, func(t time.Time) time.Time { return t.AddDate(0, 1, 0) }},
		{daily, days, func(t time.Time) time.Time { return t.AddDate(0, 0, 1) }},
	} {
		if len(r.parts) == 0 {
			continue
		}
		slices.SortFunc(r.parts, func(a, b WindowPart) int { return a.From.Compare(b.From) })
		runs := []WindowPart{r.parts[0]}
		for _, p := range r.parts[1:] {
			if last := &runs[len(runs)-1]; r.next(last.To).Equal(p.From) {
				last.To = p.To
			} else {
				runs = append(runs, p)
			}
		}
		window := make([]string, len(runs))
		bounds := make([]any, 0, 2*len(runs))
		for i, run := range runs {
			window[i] = "day >= ? AND day <= ?"
			bounds = append(bounds, run.From, run.To)
		}
		where, a := scopes[0].predicate("("+strings.Join(window, " OR ")+")", bounds...)
		arms = append(arms, "SELECT * FROM "+r.table+" WHERE "+where)
		args = append(args, a...)
	}
	return "(" + strings.Join(arms, " UNION ALL ") + ")", args
}

// WindowPart is a run of a window's days that a per-query read takes from
// one rollup: whole calendar months from a monthly rollup (From and To are
// the first days of the first and the last month) or days from a daily one.
type WindowPart struct {
	Monthly  bool
	From, To time.Time
}

// WindowParts cuts the days from..to (UTC midnights) into what a read per
// tracked query takes from the rollups: the calendar months lying wholly
// within the window from the monthly rollups, the days before and after
// them from the daily ones.
func WindowParts(from, to time.Time) []WindowPart {
	first := time.Date(from.Year(), from.Month(), 1, 0, 0, 0, 0, time.UTC)
	if !first.Equal(from) {
		first = first.AddDate(0, 1, 0)
	}
	last := time.Date(to.Year(), to.Month(), 1, 0, 0, 0, 0, time.UTC)
	if !last.AddDate(0, 1, -1).Equal(to) {
		last = last.AddDate(0, -1, 0)
	}
	if first.After(last) {
		return []WindowPart{{From: from, To: to}}
	}
	parts := []WindowPart{{Monthly: true, From: first, To: last}}
	if from.Before(first) {
		parts = append(parts, WindowPart{From: from, To: first.AddDate(0, 0, -1)})
	}
	if end := last.AddDate(0, 1, -1); end.Before(to) {
		parts = append(parts, WindowPart{From: end.AddDate(0, 0, 1), To: to})
	}
	return parts
}

// rawWhere is the scope's predicate over a raw capture table (column
// captured_at), on the same whole days as rollupWhere.
func (s Scope) rawWhere() (string, []any) {
	return s.predicate("captured_at >= ? AND captured_at < ?", s.From, s.To.AddDate(0, 0, 1))
}

// predicate is project_id = ? AND window, with window's arguments bounds,
// and the scope's filters.
func (s Scope) predicate(window string, bounds ...any) (string, []any) {
	sql := "project_id = ? AND " + window
	args := append([]any{s.ProjectID}, bounds...)
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

// entryOf returns m's entry for k, adding a zero one first when there is
// none: the sums a reader adds rows into, per brand, bucket or query.
func entryOf[K comparable, V any](m map[K]*V, k K) *V {
	v := m[k]
	if v == nil {
		v = new(V)
		m[k] = v
	}
	return v
}
