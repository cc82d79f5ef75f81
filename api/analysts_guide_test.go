package api

import (
	"bufio"
	"context"
	"fmt"
	"math"
	"net/url"
	"os"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/ClickHouse/clickhouse-go/v2"
	"github.com/google/uuid"

	"github.com/sightline/sightline/olap/olaptest"
	"github.com/sightline/sightline/schema"
)

// The analysts' guide (docs/analysts.md) is checked against the API: every
// ```sql block of it runs on the oracle's seeded history (deletions and
// failed passes included) with the guide's parameters substituted, and a
// block whose first line reads
//
//	-- reproduces: GET <path>[?<query>] [<array>[<key>]]
//
// must return what that operation answers over the same window: each
// column compared with the answer's field of the same name, at the top
// level when no array is named, else in the array's element whose <key>
// field equals the row's <key> column. An element the SQL has no row for
// must have nothing to show (every compared field zero or null). A paged
// answer is compared on its first page, which the query's own ORDER BY
// and LIMIT must match.

const analystsGuide = "../docs/analysts.md"

// guideQuery is one ```sql block of the guide.
type guideQuery struct {
	line int // of the opening fence
	sql  string
	// Set when the block reproduces an operation.
	path  string
	query url.Values
	array string
	key   string
}

var reproducesLine = regexp.MustCompile(`^-- reproduces: GET (/[^\s?]*)(\?\S+)?(?: (\w+)\[(\w+)\])?$`)

func readGuideQueries(t *testing.T) []guideQuery {
	t.Helper()
	f, err := os.Open(analystsGuide)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var (
		out  []guideQuery
		cur  *guideQuery
		body []string
	)
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		switch {
		case cur == nil && line == "```sql":
			cur, body = &guideQuery{line: n}, nil
		case cur != nil && line == "```":
			cur.sql = strings.Join(body, "\n")
			out = append(out, *cur)
			cur = nil
		case cur != nil:
			if len(body) == 0 && strings.HasPrefix(line, "-- reproduces:") {
				m := reproducesLine.FindStringSubmatch(line)
				if m == nil {
					t.Fatalf("%s:%d: marker %q does not read GET <path>[?<query>] [<array>[<key>]]", analystsGuide, n, line)
				}
				cur.path, cur.array, cur.key = m[1], m[3], m[4]
				if cur.query, err = url.ParseQuery(strings.TrimPrefix(m[2], "?")); err != nil {
					t.Fatalf("%s:%d: %v", analystsGuide, n, err)
				}
			}
			body = append(body, line)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if cur != nil {
		t.Fatalf("%s:%d: unclosed ```sql block", analystsGuide, cur.line)
	}
	return out
}

func TestAnalystsGuideQueries(t *testing.T) {
	t.Parallel()
	queries := readGuideQueries(t)
	reproducing := map[string]bool{}
	for _, q := range queries {
		if q.path != "" {
			reproducing[q.path] = true
		}
	}
	// The headline figures the guide must show how to compute.
	for _, path := range []string{"/metrics", "/metrics/movers", "/competitors/co-occurrence", "/cited-sources"} {
		if !reproducing[path] {
			t.Errorf("no query of the guide reproduces GET %s", path)
		}
	}

	of := oracleSetup(t)
	windows := []struct{ from, to time.Time }{
		{of.today.AddDate(0, 0, -30), of.today.AddDate(0, 0, -1)},
		{of.today.AddDate(0, 0, -7), of.today},
		{of.today.AddDate(0, 0, -400), of.today.AddDate(0, 0, -380)}, // before the history: no data
	}
	for _, q := range queries {
		name := fmt.Sprintf("line%d", q.line)
		var columns []string // an empty result carries none: the last ones seen
		if q.path != "" {
			name += strings.ReplaceAll(q.path, "/", "_")
		}
		t.Run(name, func(t *testing.T) {
			for _, w := range windows {
				cols, rows := of.runGuideQuery(t, q, w.from, w.to)
				if len(cols) > 0 {
					columns = cols
				}
				if q.path == "" {
					continue
				}
				params := url.Values{"dateFrom": {w.from.Format(time.DateOnly)}, "dateTo": {w.to.Format(time.DateOnly)}}
				for k, v := range q.query {
					params[k] = v
				}
				answer := of.get(t, q.path, params)
				where := fmt.Sprintf("%s:%d over %s..%s", analystsGuide, q.line, params.Get("dateFrom"), params.Get("dateTo"))
				compareGuideRows(t, where, q, columns, rows, answer)
			}
		})
	}
}

// runGuideQuery runs the block on the oracle's database with the guide's
// parameters and returns its columns and rows, each value normalised to
// nil, float64 or string.
func (of *oracleFixture) runGuideQuery(t *testing.T, q guideQuery, from, to time.Time) ([]string, [][]any) {
	t.Helper()
	ctx := clickhouse.Context(context.Background(), clickhouse.WithParameters(clickhouse.Parameters{
		"project": of.project.String(), "from": from.Format(time.DateOnly), "to": to.Format(time.DateOnly),
	}))
	rows, err := of.server.analytics.Conn.Query(ctx, q.sql)
	if err != nil {
		t.Fatalf("%s:%d: %v", analystsGuide, q.line, err)
	}
	defer rows.Close()
	types := rows.ColumnTypes()
	var out [][]any
	for rows.Next() {
		dest := make([]any, len(types))
		for i, ct := range types {
			dest[i] = reflect.New(ct.ScanType()).Interface()
		}
		if err := rows.Scan(dest...); err != nil {
			t.Fatalf("%s:%d: %v", analystsGuide, q.line, err)
		}
		row := make([]any, len(dest))
		for i, d := range dest {
			row[i] = normaliseGuideValue(reflect.ValueOf(d).Elem())
		}
		out = append(out, row)
	}
	if err := rows.Err(); err != nil {
		t.Fatalf("%s:%d: %v", analystsGuide, q.line, err)
	}
	return rows.Columns(), out
}

func normaliseGuideValue(v reflect.Value) any {
	for v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return nil
		}
		v = v.Elem()
	}
	if id, ok := v.Interface().(uuid.UUID); ok {
		return id.String()
	}
	switch v.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return float64(v.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return float64(v.Uint())
	case reflect.Float32, reflect.Float64:
		f := v.Float()
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return fmt.Sprint(f) // never equal to an answer's figure
		}
		return f
	case reflect.String:
		return v.String()
	}
	return fmt.Sprint(v.Interface())
}

// compareGuideRows checks the query's rows against the operation's answer.
func compareGuideRows(t *testing.T, where string, q guideQuery, columns []string, rows [][]any, answer map[string]any) {
	t.Helper()
	if q.array == "" {
		if len(rows) != 1 {
			t.Fatalf("%s: %d rows, want 1", where, len(rows))
		}
		compareGuideRow(t, where, columns, rows[0], answer)
		return
	}
	elements, ok := answer[q.array].([]any)
	if !ok {
		t.Fatalf("%s: the answer has no array %q", where, q.array)
	}
	if total, paged := answer["total"].(float64); paged && int(total) > len(elements) && len(rows) > len(elements) {
		t.Errorf("%s: %d rows for a page of %d: the query must page as the operation does", where, len(rows), len(elements))
	}
	keyColumn := -1
	for i, c := range columns {
		if c == q.key {
			keyColumn = i
		}
	}
	if keyColumn < 0 {
		t.Fatalf("%s: no column %q", where, q.key)
	}
	byKey := map[string]map[string]any{}
	for _, e := range elements {
		obj := e.(map[string]any)
		byKey[fmt.Sprint(obj[q.key])] = obj
	}
	matched := map[string]bool{}
	for _, row := range rows {
		key := fmt.Sprint(row[keyColumn])
		obj, ok := byKey[key]
		if !ok {
			t.Errorf("%s: row %s=%s is not in the answer", where, q.key, key)
			continue
		}
		matched[key] = true
		compareGuideRow(t, where+" "+q.key+"="+key, columns, row, obj)
	}
	for key, obj := range byKey {
		if matched[key] {
			continue
		}
		for _, c := range columns {
			if v := obj[c]; c != q.key && v != nil && v != 0.0 {
				t.Errorf("%s: the answer's %s=%s has %s = %v, the guide's query no row", where, q.key, key, c, v)
			}
		}
	}
}

func compareGuideRow(t *testing.T, where string, columns []string, row []any, obj map[string]any) {
	t.Helper()
	for i, c := range columns {
		got, ok := obj[c]
		if !ok {
			t.Errorf("%s: column %s names no field of the answer", where, c)
			continue
		}
		want := row[i]
		switch w := want.(type) {
		case nil:
			if got != nil {
				t.Errorf("%s: %s: the guide gives NULL, the API %v", where, c, got)
			}
		case float64:
			g, isNum := got.(float64)
			if !isNum || math.Abs(g-w) > 1e-9*math.Max(1, math.Abs(w)) {
				t.Errorf("%s: %s: the guide gives %v, the API %v", where, c, w, got)
			}
		default:
			if fmt.Sprint(got) != fmt.Sprint(w) {
				t.Errorf("%s: %s: the guide gives %v, the API %v", where, c, w, got)
			}
		}
	}
}

// TestAnalystsGuideTables checks that the guide has a section for every
// table analysts are granted, naming each of its columns.
func TestAnalystsGuideTables(t *testing.T) {
	t.Parallel()
	raw, err := os.ReadFile(analystsGuide)
	if err != nil {
		t.Fatal(err)
	}
	sections := map[string]string{}
	for _, part := range strings.Split(string(raw), "\n#### `")[1:] {
		name, body, _ := strings.Cut(part, "`")
		sections[name] = body
	}
	conn := olaptest.NewConn(t)
	for _, table := range schema.AnalystTables {
		section, ok := sections[table.Name]
		if !ok {
			t.Errorf("%s has no section #### `%s`", analystsGuide, table.Name)
			continue
		}
		rows, err := conn.Query(context.Background(), "SELECT name FROM system.columns WHERE database = currentDatabase() AND table = ?", table.Name)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for rows.Next() {
			var column string
			if err := rows.Scan(&column); err != nil {
				t.Fatal(err)
			}
			n++
			if !strings.Contains(section, "| `"+column+"` |") {
				t.Errorf("%s: the section of %s has no row for column %s", analystsGuide, table.Name, column)
			}
		}
		rows.Close()
		if n == 0 {
			t.Errorf("%s has no columns", table.Name)
		}
	}
}
