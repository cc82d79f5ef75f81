package main

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/sightline/sightline/benchmarks/internal/measure"
	"github.com/sightline/sightline/olap"
)

// The side-by-side phase: each headline figure computed three ways over
// the same window of the same project, warm, -reps times each:
//
//   - rollups: ClickHouse, from ranks_daily and mentions_daily (the SQL
//     shape a reader has: one scan of the window and the trend window,
//     re-aggregated with sum / min / sumMap and GROUP BY), whole months
//     from ranks_monthly and mentions_monthly where the figure is per
//     tracked query (metrics' query counts, movers, keyword listings), as
//     the readers take them;
//   - raw: ClickHouse, the same figures from rank_rows and mentions
//     (without FINAL, which a raw reader would need to be exact: a lower
//     bound of the views' gain);
//   - postgres: the same figures from the copied raw rows in plain indexed
//     Postgres tables, as a Postgres-only tracker would compute them.
//
// Each computation returns the figure's numbers, which must agree across
// the three (relative 1e-9: sums of floats differ in the last bits).

// variant is where a figure is computed.
type variant int

const (
	fromRollups variant = iota
	fromRaw
	fromPostgres
	numVariants
)

func (v variant) String() string { return [...]string{"rollups", "raw", "postgres"}[v] }

// figure is a computed figure: numbers by key, NaN for null.
type figure map[string][]float64

// dialect writes a variant's SQL.
type dialect struct {
	v variant
}

// col names a raw table column (Postgres queries alias the table r).
func (d dialect) col(name string) string {
	if d.v == fromPostgres {
		return "r." + name
	}
	return name
}

// num is a numeric output column, null-preserving.
func (d dialect) num(expr string) string {
	if d.v == fromPostgres {
		return "(" + expr + ")::float8"
	}
	return "toNullable(toFloat64(" + expr + "))"
}

func (d dialect) text(expr string) string {
	if d.v == fromPostgres {
		return "(" + expr + ")::text"
	}
	return "toString(" + expr + ")"
}

func (d dialect) ranksTable() string {
	return [...]string{"ranks_daily", "rank_rows", "raw.rank_rows r"}[d.v]
}

func (d dialect) mentionsTable() string {
	return [...]string{"mentions_daily", "mentions", "raw.mentions r"}[d.v]
}

// perQueryFrom is the FROM item of a read per tracked query over the
// windows of project p (not overlapping) in table, ranksTable or
// mentionsTable: the table itself, except for the rollups, where the
// windows' whole calendar months come from the monthly rollup and the
// days around them from the daily one, as the readers do it.
func (d dialect) perQueryFrom(table string, p int, windows ...window) string {
	if d.v != fromRollups {
		return table
	}
	monthly := strings.TrimSuffix(table, "_daily") + "_monthly"
	var arms []string
	for _, w := range windows {
		for _, part := range olap.WindowParts(w.from, w.to) {
			t := table
			if part.Monthly {
				t = monthly
			}
			arms = append(arms, "SELECT * FROM "+t+" WHERE "+d.where(p, part.From, part.To))
		}
	}
	return "(" + strings.Join(arms, " UNION ALL ") + ")"
}

// day is the row's UTC day.
func (d dialect) day() string {
	return [...]string{"day", "toDate(captured_at)", "(r.captured_at AT TIME ZONE 'UTC')::date"}[d.v]
}

func chDate(t time.Time) string { return "toDate('" + t.Format(time.DateOnly) + "')" }
func chTime(t time.Time) string {
	return "toDateTime64('" + t.Format(time.DateTime) + "', 3, 'UTC')"
}
func pgTime(t time.Time) string { return "'" + t.Format(time.RFC3339) + "'::timestamptz" }

// where selects project p's rows on the days from..to.
func (d dialect) where(p int, from, to time.Time) string {
	switch d.v {
	case fromRollups:
		return fmt.Sprintf("project_id = toUUID('%s') AND day >= %s AND day <= %s", projectID(p), chDate(from), chDate(to))
	case fromRaw:
		return fmt.Sprintf("project_id = toUUID('%s') AND captured_at >= %s AND captured_at < %s", projectID(p), chTime(from),
			chTime(to.AddDate(0, 0, 1)))
	}
	return fmt.Sprintf("r.project_id = '%s'::uuid AND r.captured_at >= %s AND r.captured_at < %s", projectID(p), pgTime(from),
		pgTime(to.AddDate(0, 0, 1)))
}

// side is 'cur' for rows on or after from, else 'prev'.
func (d dialect) side(from time.Time) string {
	switch d.v {
	case fromRollups:
		return fmt.Sprintf("if(day >= %s, 'cur', 'prev')", chDate(from))
	case fromRaw:
		return fmt.Sprintf("if(captured_at >= %s, 'cur', 'prev')", chTime(from))
	}
	return fmt.Sprintf("CASE WHEN r.captured_at >= %s THEN 'cur' ELSE 'prev' END", pgTime(from))
}

func (d dialect) kind() string {
	if d.v == fromPostgres {
		return "CASE r.engine WHEN 'google_serp' THEN 'serp' WHEN 'google_shopping' THEN 'shopping' ELSE 'ai' END"
	}
	return "multiIf(engine = 'google_serp', 'serp', engine = 'google_shopping', 'shopping', 'ai')"
}

// bucket is the time-series bucket of the row's day: the day, the ISO
// week's Monday or the month's first day, clipped to from.
func (d dialect) bucket(granularity string, from time.Time) string {
	day := d.day()
	if d.v == fromPostgres {
		switch granularity {
		case "weekly":
			return fmt.Sprintf("greatest(date_trunc('week', (%s)::timestamp)::date, '%s'::date)::text", day, from.Format(time.DateOnly))
		case "monthly":
			return fmt.Sprintf("greatest(date_trunc('month', (%s)::timestamp)::date, '%s'::date)::text", day, from.Format(time.DateOnly))
		}
		return day + "::text"
	}
	switch granularity {
	case "weekly":
		return fmt.Sprintf("toString(greatest(toMonday(%s), %s))", day, chDate(from))
	case "monthly":
		return fmt.Sprintf("toString(greatest(toStartOfMonth(%s), %s))", day, chDate(from))
	}
	return "toString(" + day + ")"
}

func (d dialect) competitor(mentions bool) string {
	switch {
	case d.v == fromPostgres && mentions:
		return "coalesce(r.competitor_id, '00000000-0000-0000-0000-000000000000'::uuid)::text"
	case d.v == fromPostgres:
		return "r.competitor_id::text"
	case d.v == fromRaw && mentions:
		return "toString(ifNull(competitor_id, toUUID('00000000-0000-0000-0000-000000000000')))"
	}
	return "toString(competitor_id)"
}

// rankValues: passes, then for mention, link, serp and shopping
// positions: count, sum, sum of squares, best.
func (d dialect) rankValues() []string {
	if d.v == fromRollups {
		out := []string{"sum(passes)"}
		for _, k := range []string{"mention", "link", "serp", "shopping"} {
			count := k + "_count"
			out = append(out, "sum("+count+")", "sum("+k+"_position_sum)", "sum("+k+"_position_sq_sum)", "min("+k+"_position_min)")
		}
		return out
	}
	out := []string{"count(*)"}
	for _, k := range []string{"mention", "link", "serp", "shopping"} {
		c := d.col(k + "_position")
		if d.v == fromRaw {
			out = append(out, "count("+c+")", "sum(ifNull("+c+", 0))", "sum(toUInt64(ifNull("+c+", 0)) * ifNull("+c+", 0))", "min("+c+")")
		} else {
			out = append(out, "count("+c+")", "coalesce(sum("+c+"), 0)", "coalesce(sum("+c+"::int8 * "+c+"), 0)", "min("+c+")")
		}
	}
	return out
}

// queryCounts: tracked queries with rows, and with a mention, a link, a
// search result or an offer of the brand.
func (d dialect) queryCounts() []string {
	switch d.v {
	case fromRollups:
		return []string{"uniqExact(tracked_query_id)", "uniqExactIf(tracked_query_id, mention_count > 0)",
			"uniqExactIf(tracked_query_id, link_count > 0)", "uniqExactIf(tracked_query_id, serp_count > 0)",
			"uniqExactIf(tracked_query_id, shopping_count > 0)"}
	case fromRaw:
		return []string{"uniqExact(tracked_query_id)", "uniqExactIf(tracked_query_id, mention_position IS NOT NULL)",
			"uniqExactIf(tracked_query_id, link_position IS NOT NULL)", "uniqExactIf(tracked_query_id, serp_position IS NOT NULL)",
			"uniqExactIf(tracked_query_id, shopping_position IS NOT NULL)"}
	}
	return []string{"count(DISTINCT r.tracked_query_id)",
		"count(DISTINCT r.tracked_query_id) FILTER (WHERE r.mention_position IS NOT NULL)",
		"count(DISTINCT r.tracked_query_id) FILTER (WHERE r.link_position IS NOT NULL)",
		"count(DISTINCT r.tracked_query_id) FILTER (WHERE r.serp_position IS NOT NULL)",
		"count(DISTINCT r.tracked_query_id) FILTER (WHERE r.shopping_position IS NOT NULL)"}
}

// mentionValues: mentions, worth, the three tones and the five types.
func (d dialect) mentionValues() []string {
	count, worth := "count(*)", "sum(r.worth)"
	tone, kind := "count(*) FILTER (WHERE r.tone = '%s')", "count(*) FILTER (WHERE r.mention_type = '%s')"
	switch d.v {
	case fromRollups:
		count, worth, tone, kind = "sum(mentions)", "sum(worth)", "sum(tone_%s)", "sum(type_%s)"
	case fromRaw:
		count, worth, tone, kind = "count()", "sum(worth)", "countIf(tone = '%s')", "countIf(mention_type = '%s')"
	}
	out := []string{count, worth}
	for _, t := range []string{"positive", "neutral", "negative"} {
		out = append(out, fmt.Sprintf(tone, t))
	}
	for _, t := range []string{"recommendation", "comparison", "listing", "example", "reference"} {
		out = append(out, fmt.Sprintf(kind, t))
	}
	return out
}

// Indexes of mentionValues and rankValues.
const (
	mvMentions, mvWorth, mvPositive, mvNeutral, mvNegative, mvTypes = 0, 1, 2, 3, 4, 5
	rvPasses                                                        = 0
	rvMention, rvLink, rvSerp, rvShopping                           = 1, 5, 9, 13 // count; +1 sum, +2 sq, +3 best
)

// aggregate writes SELECT keys..., values... FROM table [JOIN] WHERE ...
// GROUP BY keys.
func (d dialect) aggregate(keys, values []string, table, join, where string) string {
	cols := make([]string, 0, len(keys)+len(values))
	groups := make([]string, len(keys))
	for i, k := range keys {
		cols = append(cols, d.text(k)+" AS k"+fmt.Sprint(i))
		groups[i] = "k" + fmt.Sprint(i)
	}
	for _, v := range values {
		cols = append(cols, d.num(v))
	}
	sql := "SELECT " + strings.Join(cols, ", ") + " FROM " + table + " " + join + " WHERE " + where
	if len(keys) > 0 {
		sql += " GROUP BY " + strings.Join(groups, ", ")
	}
	return sql
}

// computer runs a variant's queries and returns the rows as strings and
// numbers.
type computer struct {
	b *bench
}

type row struct {
	keys   []string
	values []float64
}

func (c computer) query(ctx context.Context, v variant, sql string, nkeys int) ([]row, error) {
	var out []row
	if v == fromPostgres {
		rows, err := c.b.pool.Query(ctx, sql)
		if err != nil {
			return nil, fmt.Errorf("%w\n%s", err, sql)
		}
		defer rows.Close()
		for rows.Next() {
			vals, err := rows.Values()
			if err != nil {
				return nil, err
			}
			r := row{}
			for i, x := range vals {
				switch {
				case i < nkeys:
					r.keys = append(r.keys, fmt.Sprint(x))
				case x == nil:
					r.values = append(r.values, math.NaN())
				default:
					r.values = append(r.values, x.(float64))
				}
			}
			out = append(out, r)
		}
		return out, rows.Err()
	}
	rows, err := c.b.ch.Query(ctx, sql)
	if err != nil {
		return nil, fmt.Errorf("%w\n%s", err, sql)
	}
	defer rows.Close()
	n := len(rows.Columns())
	for rows.Next() {
		keys := make([]string, nkeys)
		values := make([]*float64, n-nkeys)
		dest := make([]any, 0, n)
		for i := range keys {
			dest = append(dest, &keys[i])
		}
		for i := range values {
			dest = append(dest, &values[i])
		}
		if err := rows.Scan(dest...); err != nil {
			return nil, err
		}
		r := row{keys: keys}
		for _, x := range values {
			if x == nil {
				r.values = append(r.values, math.NaN())
			} else {
				r.values = append(r.values, *x)
			}
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// collect adds rows to f under prefix|keys.
func collect(f figure, prefix string, rows []row) {
	for _, r := range rows {
		f[prefix+"|"+strings.Join(r.keys, "|")] = r.values
	}
}

// headline is one of the side-by-side figures.
type headline struct {
	name    string
	compute func(ctx context.Context, c computer, d dialect, p int, w window) (figure, error)
}

func headlines() []headline {
	return []headline{
		{"metrics", computeMetrics},
		{"timeseries", computeTimeseries},
		{"movers", computeMovers},
		{"keyword-listings", computeKeywords},
	}
}

// previous is the trend window: as long as w, ending the day before it.
func previous(w window) window {
	days := int(w.to.Sub(w.from).Hours()/24) + 1
	to := w.from.AddDate(0, 0, -1)
	return window{"prev", to.AddDate(0, 0, -(days - 1)), to}
}

// computeMetrics: GET /metrics for the own brand and every competitor,
// with the trend window: rank figures per side, brand and engine kind
// (passes, positions, best, stability inputs, query counts), mention
// figures per side and brand (share-of-voice worth, tones, types), and the
// own mention-position distribution.
func computeMetrics(ctx context.Context, c computer, d dialect, p int, w window) (figure, error) {
	prev := previous(w)
	f := figure{}
	rows, err := c.query(ctx, d.v, d.aggregate([]string{d.side(w.from), d.col("relation"), d.competitor(false), d.kind()},
		append(d.rankValues(), d.queryCounts()...), d.perQueryFrom(d.ranksTable(), p, prev, w), "", d.where(p, prev.from, w.to)), 4)
	if err != nil {
		return nil, err
	}
	collect(f, "ranks", rows)
	rows, err = c.query(ctx, d.v, d.aggregate([]string{d.side(w.from), d.col("relation"), d.competitor(true)},
		d.mentionValues(), d.perQueryFrom(d.mentionsTable(), p, prev, w), "", d.where(p, prev.from, w.to)), 3)
	if err != nil {
		return nil, err
	}
	collect(f, "mentions", rows)
	var sql string
	switch d.v {
	case fromRollups:
		sql = fmt.Sprintf(`SELECT toString(k), toNullable(toFloat64(v)) FROM (SELECT sumMap(mention_positions) AS m FROM ranks_daily
			WHERE %s AND relation = 'own') ARRAY JOIN mapKeys(m) AS k, mapValues(m) AS v`, d.where(p, w.from, w.to))
	case fromRaw:
		sql = fmt.Sprintf(`SELECT toString(mention_position), toNullable(toFloat64(count())) FROM rank_rows
			WHERE %s AND relation = 'own' AND mention_position IS NOT NULL GROUP BY mention_position`, d.where(p, w.from, w.to))
	default:
		sql = fmt.Sprintf(`SELECT r.mention_position::text, count(*)::float8 FROM raw.rank_rows r
			WHERE %s AND r.relation = 'own' AND r.mention_position IS NOT NULL GROUP BY r.mention_position`, d.where(p, w.from, w.to))
	}
	rows, err = c.query(ctx, d.v, sql, 1)
	if err != nil {
		return nil, err
	}
	buckets := map[string]float64{"1": 0, "2-3": 0, "4-5": 0, "6-10": 0, "11+": 0}
	for _, r := range rows {
		pos, err := strconv.Atoi(r.keys[0])
		if err != nil {
			return nil, fmt.Errorf("mention position %q: %w", r.keys[0], err)
		}
		switch {
		case pos == 1:
			buckets["1"] += r.values[0]
		case pos <= 3:
			buckets["2-3"] += r.values[0]
		case pos <= 5:
			buckets["4-5"] += r.values[0]
		case pos <= 10:
			buckets["6-10"] += r.values[0]
		default:
			buckets["11+"] += r.values[0]
		}
	}
	for k, n := range buckets {
		f["distribution|"+k] = []float64{n}
	}
	return f, nil
}

// computeTimeseries: GET /timeseries for the own brand and every
// competitor, one point per bucket (days up to 30 days, weeks up to 90,
// months beyond).
func computeTimeseries(ctx context.Context, c computer, d dialect, p int, w window) (figure, error) {
	granularity := map[string]string{"7d": "daily", "30d": "daily", "90d": "weekly"}[w.name]
	if granularity == "" {
		granularity = "monthly"
	}
	f := figure{}
	rows, err := c.query(ctx, d.v, d.aggregate([]string{d.bucket(granularity, w.from), d.col("relation"), d.competitor(false), d.kind()},
		d.rankValues(), d.ranksTable(), "", d.where(p, w.from, w.to)), 4)
	if err != nil {
		return nil, err
	}
	collect(f, "ranks", rows)
	rows, err = c.query(ctx, d.v, d.aggregate([]string{d.bucket(granularity, w.from), d.col("relation"), d.competitor(true)},
		d.mentionValues(), d.mentionsTable(), "", d.where(p, w.from, w.to)), 3)
	if err != nil {
		return nil, err
	}
	collect(f, "mentions", rows)
	return f, nil
}

// groupFigures are one group's (a tracked query's or a keyword's) own
// rank figures by side and engine kind, and mention figures by side and
// relation.
type groupFigures struct {
	ranks    map[[2]string][]float64 // side, kind
	mentions map[[2]string][]float64 // side, relation
}

// perGroup aggregates the own brand's rank rows and every mention by
// group (key expression) and side, over the window and the trend window.
func perGroup(ctx context.Context, c computer, d dialect, p int, w window, group, join string) (map[string]*groupFigures, error) {
	prev := previous(w)
	out := map[string]*groupFigures{}
	get := func(k string) *groupFigures {
		g := out[k]
		if g == nil {
			g = &groupFigures{ranks: map[[2]string][]float64{}, mentions: map[[2]string][]float64{}}
			out[k] = g
		}
		return g
	}
	rows, err := c.query(ctx, d.v, d.aggregate([]string{group, d.side(w.from), d.kind()}, d.rankValues(),
		d.perQueryFrom(d.ranksTable(), p, prev, w), join,
		d.where(p, prev.from, w.to)+" AND "+d.col("relation")+" = 'own'"), 3)
	if err != nil {
		return nil, err
	}
	for _, r := range rows {
		get(r.keys[0]).ranks[[2]string{r.keys[1], r.keys[2]}] = r.values
	}
	rows, err = c.query(ctx, d.v, d.aggregate([]string{group, d.side(w.from), d.col("relation")}, d.mentionValues(),
		d.perQueryFrom(d.mentionsTable(), p, prev, w), join, d.where(p, prev.from, w.to)), 3)
	if err != nil {
		return nil, err
	}
	for _, r := range rows {
		get(r.keys[0]).mentions[[2]string{r.keys[1], r.keys[2]}] = r.values
	}
	return out, nil
}

// merge adds another group's figures to g (counts and sums add, bests
// take the minimum).
func (g *groupFigures) merge(o *groupFigures) {
	add := func(dst map[[2]string][]float64, k [2]string, v []float64, bests map[int]bool) {
		cur, ok := dst[k]
		if !ok {
			dst[k] = slices.Clone(v)
			return
		}
		for i := range cur {
			switch {
			case bests[i] && math.IsNaN(cur[i]):
				cur[i] = v[i]
			case bests[i] && !math.IsNaN(v[i]):
				cur[i] = math.Min(cur[i], v[i])
			case !bests[i]:
				cur[i] += v[i]
			}
		}
	}
	rankBests := map[int]bool{rvMention + 3: true, rvLink + 3: true, rvSerp + 3: true, rvShopping + 3: true}
	for k, v := range o.ranks {
		add(g.ranks, k, v, rankBests)
	}
	for k, v := range o.mentions {
		add(g.mentions, k, v, nil)
	}
}

func ratio(num, den float64) float64 {
	if den == 0 {
		return math.NaN()
	}
	return num / den
}

// derived are a group's figures as the API shows them, for one side.
func (g *groupFigures) derived(side string) []float64 {
	ai := g.ranks[[2]string{side, "ai"}]
	serp := g.ranks[[2]string{side, "serp"}]
	shop := g.ranks[[2]string{side, "shopping"}]
	avg := func(r []float64, at int) float64 {
		if r == nil {
			return math.NaN()
		}
		return ratio(r[at+1], r[at])
	}
	stability := func(r []float64, at int) float64 {
		if r == nil || r[at] < 2 {
			return math.NaN()
		}
		mean := r[at+1] / r[at]
		return math.Sqrt(math.Max(0, r[at+2]/r[at]-mean*mean))
	}
	mentionRate := math.NaN()
	if ai != nil {
		mentionRate = 100 * ratio(ai[rvMention], ai[rvPasses])
	}
	var total float64
	for k, m := range g.mentions {
		if k[0] == side {
			total += m[mvWorth]
		}
	}
	own := g.mentions[[2]string{side, "own"}]
	sov, positivity := math.NaN(), math.NaN()
	if total > 0 {
		sov = 0
		if own != nil {
			sov = 100 * own[mvWorth] / total
		}
	}
	if own != nil {
		positivity = 100 * ratio(own[mvPositive]+0.5*own[mvNeutral], own[mvMentions])
	}
	out := []float64{sov, positivity, mentionRate, avg(ai, rvMention), stability(ai, rvMention), avg(ai, rvLink),
		avg(serp, rvSerp), avg(shop, rvShopping)}
	if own != nil {
		out = append(out, own[mvTypes:mvTypes+5]...)
	} else {
		out = append(out, 0, 0, 0, 0, 0)
	}
	return out
}

// page sorts groups by the trend of share of voice (movers) or by share of
// voice (keywords), descending, nulls last, then by name, and keeps the
// first page of 20 with every group's current figures and trends.
func page(groups map[string]*groupFigures, byTrend bool) figure {
	type ranked struct {
		name      string
		cur, prev []float64
		key       float64
	}
	var all []ranked
	for name, g := range groups {
		r := ranked{name: name, cur: g.derived("cur"), prev: g.derived("prev")}
		r.key = r.cur[0]
		if byTrend {
			r.key = r.cur[0] - r.prev[0]
		}
		all = append(all, r)
	}
	slices.SortFunc(all, func(a, b ranked) int {
		an, bn := math.IsNaN(a.key), math.IsNaN(b.key)
		switch {
		case an && !bn:
			return 1
		case bn && !an:
			return -1
		case !an && a.key != b.key:
			return cmp.Compare(b.key, a.key)
		}
		return strings.Compare(a.name, b.name)
	})
	f := figure{"total": {float64(len(all))}}
	for i, r := range all[:min(20, len(all))] {
		values := append(slices.Clone(r.cur), r.key)
		for j := range 8 { // trends of the rates and positions
			values = append(values, r.cur[j]-r.prev[j])
		}
		f[fmt.Sprintf("row|%02d|%s", i, r.name)] = values
	}
	return f
}

// computeMovers: GET /metrics/movers: per tracked query, the window
// against the trend window, top gainers by share of voice.
func computeMovers(ctx context.Context, c computer, d dialect, p int, w window) (figure, error) {
	groups, err := perGroup(ctx, c, d, p, w, d.col("tracked_query_id"), "")
	if err != nil {
		return nil, err
	}
	return page(groups, true), nil
}

// computeKeywords: GET /keyword-listings sorted by share of voice: per
// keyword (the tracked queries sharing a text). From the rollups, which
// know tracked queries only, the variants' texts come from Postgres as a
// reader would read them; the raw ClickHouse rows carry the text, and
// Postgres joins tracked_queries.
func computeKeywords(ctx context.Context, c computer, d dialect, p int, w window) (figure, error) {
	var groups map[string]*groupFigures
	var err error
	switch d.v {
	case fromRollups:
		rows, err := c.b.pool.Query(ctx, `SELECT id::text, query_text FROM tracked_queries WHERE project_id = $1`, projectID(p))
		if err != nil {
			return nil, err
		}
		texts := map[string]string{}
		for rows.Next() {
			var id, text string
			if err := rows.Scan(&id, &text); err != nil {
				rows.Close()
				return nil, err
			}
			texts[id] = text
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
		perQuery, err := perGroup(ctx, c, d, p, w, "tracked_query_id", "")
		if err != nil {
			return nil, err
		}
		groups = map[string]*groupFigures{}
		for id, g := range perQuery {
			text := texts[id]
			if groups[text] == nil {
				groups[text] = &groupFigures{ranks: map[[2]string][]float64{}, mentions: map[[2]string][]float64{}}
			}
			groups[text].merge(g)
		}
	case fromRaw:
		groups, err = perGroup(ctx, c, d, p, w, "query_text", "")
	default:
		groups, err = perGroup(ctx, c, d, p, w, "t.query_text", "JOIN tracked_queries t ON t.id = r.tracked_query_id")
	}
	if err != nil {
		return nil, err
	}
	return page(groups, false), nil
}

// agree reports the first difference between two computations of a
// figure.
func agree(want, got figure) string {
	for k, wv := range want {
		gv, ok := got[k]
		if !ok {
			return "missing " + k
		}
		if len(gv) != len(wv) {
			return fmt.Sprintf("%s has %d numbers, not %d", k, len(gv), len(wv))
		}
		for i := range wv {
			a, b := wv[i], gv[i]
			if math.IsNaN(a) != math.IsNaN(b) || !math.IsNaN(a) && math.Abs(a-b) > 1e-9*math.Max(1, math.Max(math.Abs(a), math.Abs(b))) {
				return fmt.Sprintf("%s[%d]: %v vs %v", k, i, a, b)
			}
		}
	}
	for k := range got {
		if _, ok := want[k]; !ok {
			return "extra " + k
		}
	}
	return ""
}

// compare times every headline figure three ways and prints the medians,
// the rows ClickHouse read and both ratios.
func (b *bench) compare(ctx context.Context) error {
	readRows := func() float64 {
		families, _ := b.chReads.Gather()
		for _, f := range families {
			if f.GetName() == "sightline_clickhouse_read_rows_total" {
				return f.GetMetric()[0].GetCounter().GetValue()
			}
		}
		return 0
	}
	c := computer{b: b}
	const p = 0
	chFloor, pgFloor, err := b.roundTrips(ctx)
	if err != nil {
		return err
	}
	fmt.Fprintf(b.out, "  round trip of SELECT 1, median of 20: clickhouse %.1f ms, postgres %.1f ms (every figure below runs 2 or 3 queries)\n",
		ms(chFloor), ms(pgFloor))
	fmt.Fprintf(b.out, "  project %d (%s, %d tracked queries), own brand and every competitor, trend windows included; "+
		"one warm-up then %d timed runs each, median\n", p, markets[p].name, b.data.perProject, b.o.reps)
	fmt.Fprintf(b.out, "  %-17s %-6s %10s %12s %10s %12s %11s %10s %10s  %s\n", "figure", "window", "rollups ms", "rows read",
		"raw CH ms", "rows read", "postgres ms", "raw/rollup", "pg/rollup", "same figures")
	lowest, highest := math.Inf(1), math.Inf(-1)
	for _, h := range headlines() {
		for _, w := range b.windows() {
			var medians [numVariants]time.Duration
			var rows [numVariants]float64
			var results [numVariants]figure
			for v := range numVariants {
				d := dialect{v: v}
				f, err := h.compute(ctx, c, d, p, w) // warm-up, and the figure compared
				if err != nil {
					return fmt.Errorf("%s %s from %s: %w", h.name, w.name, v, err)
				}
				results[v] = f
				times := make([]time.Duration, b.o.reps)
				before := readRows()
				for i := range b.o.reps {
					start := time.Now()
					if _, err := h.compute(ctx, c, d, p, w); err != nil {
						return err
					}
					times[i] = time.Since(start)
				}
				medians[v] = median(times)
				rows[v] = (readRows() - before) / float64(b.o.reps)
			}
			same := "yes"
			for _, v := range []variant{fromRaw, fromPostgres} {
				if diff := agree(results[fromRollups], results[v]); diff != "" {
					same = fmt.Sprintf("NO (%s: %s)", v, diff)
					break
				}
			}
			pgRatio := ms(medians[fromPostgres]) / ms(medians[fromRollups])
			lowest, highest = math.Min(lowest, pgRatio), math.Max(highest, pgRatio)
			fmt.Fprintf(b.out, "  %-17s %-6s %10.1f %12.0f %10.1f %12.0f %11.1f %9.1fx %9.1fx  %s (%d numbers)\n",
				h.name, w.name, ms(medians[fromRollups]), rows[fromRollups], ms(medians[fromRaw]), rows[fromRaw],
				ms(medians[fromPostgres]), ms(medians[fromRaw])/ms(medians[fromRollups]), pgRatio, same, numbers(results[0]))
		}
	}
	fmt.Fprintf(b.out, "  postgres/rollups ratio from %.1fx to %.1fx (load average %s)\n", lowest, highest, measure.LoadAverage())
	return nil
}

func numbers(f figure) int {
	n := 0
	for _, v := range f {
		n += len(v)
	}
	return n
}

// roundTrips measures the floor under every query: SELECT 1 on each store.
func (b *bench) roundTrips(ctx context.Context) (ch, pg time.Duration, err error) {
	var chTimes, pgTimes []time.Duration
	for range 20 {
		start := time.Now()
		var one uint8
		if err := b.ch.QueryRow(ctx, "SELECT 1").Scan(&one); err != nil {
			return 0, 0, err
		}
		chTimes = append(chTimes, time.Since(start))
		start = time.Now()
		var n int
		if err := b.pool.QueryRow(ctx, "SELECT 1").Scan(&n); err != nil {
			return 0, 0, err
		}
		pgTimes = append(pgTimes, time.Since(start))
	}
	return median(chTimes), median(pgTimes), nil
}
