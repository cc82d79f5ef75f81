//go:build linux

package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ClickHouse/clickhouse-go/v2"
	"github.com/ClickHouse/clickhouse-go/v2/lib/driver"
)

func TestPing(t *testing.T) {
	t.Parallel()
	ts := sharedServer(t)
	for _, path := range []string{"/ping", "/"} {
		resp, err := http.Get(ts.url() + path)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK || string(b) != "Ok.\n" {
			t.Errorf("GET %s = %d %q, want 200 %q", path, resp.StatusCode, b, "Ok.\n")
		}
	}
	resp, body := ts.do(t, http.MethodGet, "SELECT 1", nil, nil)
	if resp.StatusCode != http.StatusOK || body != "1\n" {
		t.Errorf("GET /?query=SELECT 1 = %d %q, want 200 %q", resp.StatusCode, body, "1\n")
	}
}

// event is the row the insert tests write: a mix of the column types the app uses.
type event struct {
	Project uint64    `ch:"project"`
	Day     time.Time `ch:"day"`
	Engine  string    `ch:"engine"`
	Query   string    `ch:"query"`
	Score   float64   `ch:"score"`
	Rank    *int32    `ch:"rank"`
	Tags    []string  `ch:"tags"`
}

const eventTable = `CREATE TABLE events (
	project UInt64,
	day Date,
	engine LowCardinality(String),
	query String,
	score Float64,
	rank Nullable(Int32),
	tags Array(String)
) ENGINE = MergeTree PARTITION BY toYYYYMM(day) ORDER BY (project, day)`

func insertEvents(t testing.TB, conn driver.Conn, ctx context.Context, n, offset int) {
	t.Helper()
	batch, err := conn.PrepareBatch(ctx, "INSERT INTO events")
	if err != nil {
		t.Fatal(err)
	}
	day := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	for i := offset; i < offset+n; i++ {
		var rank *int32
		if i%3 != 0 {
			r := int32(i % 10)
			rank = &r
		}
		// Blank lines and NUL bytes in the data must not cut it short.
		query := fmt.Sprintf("query %d\n\nwith a blank line\x00", i)
		if err := batch.Append(uint64(i%7), day.AddDate(0, 0, i%30), []string{"chatgpt", "gemini", "perplexity"}[i%3],
			query, float64(i)/2, rank, []string{"a", fmt.Sprint(i)}); err != nil {
			t.Fatal(err)
		}
	}
	if err := batch.Send(); err != nil {
		t.Fatal(err)
	}
}

func TestBatchInsertAndRead(t *testing.T) {
	t.Parallel()
	_, conn, _ := setup(t)
	ctx := context.Background()
	if err := conn.Exec(ctx, eventTable); err != nil {
		t.Fatal(err)
	}
	const n = 100_000
	insertEvents(t, conn, ctx, n, 0)

	var count, sumProject uint64
	var sumScore float64
	if err := conn.QueryRow(ctx, "SELECT count(), sum(project), sum(score) FROM events").Scan(&count, &sumProject, &sumScore); err != nil {
		t.Fatal(err)
	}
	var wantProject uint64
	var wantScore float64
	for i := range n {
		wantProject += uint64(i % 7)
		wantScore += float64(i) / 2
	}
	if count != n || sumProject != wantProject || sumScore != wantScore {
		t.Errorf("count, sum(project), sum(score) = %d, %d, %v; want %d, %d, %v", count, sumProject, sumScore, n, wantProject, wantScore)
	}

	rows, err := conn.Query(ctx, "SELECT engine, count() AS c, countIf(rank IS NULL) FROM events GROUP BY engine ORDER BY engine")
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][2]uint64{}
	for rows.Next() {
		var engine string
		var c, nulls uint64
		if err := rows.Scan(&engine, &c, &nulls); err != nil {
			t.Fatal(err)
		}
		got[engine] = [2]uint64{c, nulls}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	rows.Close()
	third := uint64(n / 3)
	want := map[string][2]uint64{"chatgpt": {third + 1, third + 1}, "gemini": {third, 0}, "perplexity": {third, 0}}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("per engine (count, nulls) = %v, want %v", got, want)
	}

	var e event
	if err := conn.QueryRow(ctx, "SELECT * FROM events WHERE project = 5 ORDER BY score LIMIT 1").ScanStruct(&e); err != nil {
		t.Fatal(err)
	}
	if e.Query != "query 5\n\nwith a blank line\x00" || e.Rank == nil || *e.Rank != 5 || len(e.Tags) != 2 || e.Tags[1] != "5" ||
		!e.Day.Equal(time.Date(2026, 11, 6, 0, 0, 0, 0, time.UTC)) || e.Engine != "perplexity" {
		t.Errorf("row 5 read back as %+v", e)
	}
}

func TestLargeInsert(t *testing.T) {
	if testing.Short() {
		t.Skip("1M rows")
	}
	t.Parallel()
	_, conn, _ := setup(t)
	ctx := context.Background()
	if err := conn.Exec(ctx, eventTable); err != nil {
		t.Fatal(err)
	}
	const n, batches = 1_000_000, 4
	start := time.Now()
	for b := range batches {
		insertEvents(t, conn, ctx, n/batches, b*n/batches)
	}
	elapsed := time.Since(start)
	var count uint64
	if err := conn.QueryRow(ctx, "SELECT count() FROM events").Scan(&count); err != nil {
		t.Fatal(err)
	}
	if count != n {
		t.Fatalf("count() = %d, want %d", count, n)
	}
	t.Logf("inserted %d rows in %d batches in %v (%.0f rows/s, including client-side encoding)", n, batches, elapsed, n/elapsed.Seconds())
}

func TestBadSQLIsAnExceptionAndTheServerCarriesOn(t *testing.T) {
	t.Parallel()
	ts, conn, _ := setup(t)
	ctx := context.Background()
	tests := []struct {
		sql        string
		code       int32
		status     int
		codeName   string
		useQuery   bool
		wantPrefix string
	}{
		{sql: "SELEC 1", code: 62, status: 400, codeName: "SYNTAX_ERROR"},
		{sql: "SELECT * FROM no_such_table", code: 60, status: 404, codeName: "UNKNOWN_TABLE"},
		{sql: "SELECT no_such_function(1)", code: 46, status: 404, codeName: "UNKNOWN_FUNCTION"},
		{sql: "SELECT throwIf(1)", code: 395, status: 500, codeName: "FUNCTION_THROW_IF_VALUE_IS_NON_ZERO"},
		{sql: "SELECT 1; SELECT 2", code: 62, status: 400, codeName: "SYNTAX_ERROR"},
		{sql: "", code: 62, status: 400, codeName: "SYNTAX_ERROR"},
	}
	for _, tt := range tests {
		t.Run(tt.sql, func(t *testing.T) {
			err := conn.Exec(ctx, tt.sql)
			var exc *clickhouse.Exception
			if !errors.As(err, &exc) {
				t.Fatalf("Exec(%q) error = %v (%T), want *clickhouse.Exception", tt.sql, err, err)
			}
			if exc.Code != tt.code || exc.CodeName != tt.codeName || exc.Name != "DB::Exception" {
				t.Errorf("exception = code %d %s %s, want %d %s DB::Exception", exc.Code, exc.CodeName, exc.Name, tt.code, tt.codeName)
			}
			var httpErr *clickhouse.HTTPError
			if !errors.As(err, &httpErr) || httpErr.StatusCode != tt.status {
				t.Errorf("HTTP status = %v, want %d", err, tt.status)
			}
			_, err = conn.Query(ctx, tt.sql)
			if !errors.As(err, &exc) || exc.Code != tt.code {
				t.Errorf("Query(%q) error = %v, want code %d", tt.sql, err, tt.code)
			}
			var one uint8
			if err := conn.QueryRow(ctx, "SELECT 1").Scan(&one); err != nil || one != 1 {
				t.Errorf("next query: %v, %d", err, one)
			}
		})
	}

	resp, body := ts.do(t, http.MethodPost, "SELECT * FROM no_such_table", nil, nil)
	if resp.StatusCode != 404 || resp.Header.Get("X-ClickHouse-Exception-Code") != "60" ||
		!strings.HasPrefix(body, "Code: 60. DB::Exception: ") || !strings.HasSuffix(body, "(UNKNOWN_TABLE)\n") {
		t.Errorf("raw error answer = %d %v %q", resp.StatusCode, resp.Header, body)
	}
	resp, body = ts.do(t, http.MethodGet, "CREATE TABLE x (a UInt8) ENGINE = Memory", nil, nil)
	if resp.Header.Get("X-ClickHouse-Exception-Code") != "164" {
		t.Errorf("GET with CREATE = %d %q, want READONLY (164)", resp.StatusCode, body)
	}
}

func TestFormatsAndEmptyResults(t *testing.T) {
	t.Parallel()
	ts, _, db := setup(t)
	params := url.Values{"database": {db}}
	tests := []struct {
		method, sql, want, contentType string
	}{
		{http.MethodPost, "CREATE TABLE f (a UInt8, s String) ENGINE = MergeTree ORDER BY a", "", ""},
		{http.MethodPost, "INSERT INTO f VALUES (1, 'x'), (2, 'y')", "", ""},
		{http.MethodPost, "INSERT INTO f FORMAT JSONEachRow\n{\"a\":3,\"s\":\"z\"}\n\n{\"a\":4,\"s\":\"w\"}\n", "", ""},
		{http.MethodGet, "SELECT a, s FROM f ORDER BY a FORMAT JSONEachRow", `{"a":1,"s":"x"}` + "\n" + `{"a":2,"s":"y"}` + "\n" + `{"a":3,"s":"z"}` + "\n" + `{"a":4,"s":"w"}` + "\n", "application/json; charset=UTF-8"},
		{http.MethodGet, "SELECT count() FROM f", "4\n", "text/tab-separated-values; charset=UTF-8"},
		{http.MethodGet, "SELECT a FROM f WHERE a > 100", "", ""},
	}
	for _, tt := range tests {
		resp, body := ts.do(t, tt.method, tt.sql, params, nil)
		if resp.StatusCode != 200 || body != tt.want {
			t.Errorf("%s %q = %d %q, want 200 %q", tt.method, tt.sql, resp.StatusCode, body, tt.want)
		}
		if tt.want == "" && resp.ContentLength != 0 {
			t.Errorf("%s %q: Content-Length = %d, want 0", tt.method, tt.sql, resp.ContentLength)
		}
		if tt.contentType != "" && resp.Header.Get("Content-Type") != tt.contentType {
			t.Errorf("%s %q: Content-Type = %q, want %q", tt.method, tt.sql, resp.Header.Get("Content-Type"), tt.contentType)
		}
	}
}

func TestConcurrentClients(t *testing.T) {
	t.Parallel()
	_, conn, _ := setup(t)
	ctx := context.Background()
	if err := conn.Exec(ctx, eventTable); err != nil {
		t.Fatal(err)
	}
	const clients, perClient = 8, 5_000
	var wg sync.WaitGroup
	for c := range clients {
		wg.Go(func() {
			insertEvents(t, conn, ctx, perClient, c*perClient)
			for range 10 {
				var n uint64
				if err := conn.QueryRow(ctx, "SELECT count() FROM events WHERE project = ?", uint64(c%7)).Scan(&n); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	var count uint64
	if err := conn.QueryRow(ctx, "SELECT count() FROM events").Scan(&count); err != nil {
		t.Fatal(err)
	}
	if count != clients*perClient {
		t.Errorf("count() = %d, want %d", count, clients*perClient)
	}
}

func TestQueryParameters(t *testing.T) {
	t.Parallel()
	_, conn, _ := setup(t)
	ctx := clickhouse.Context(context.Background(), clickhouse.WithParameters(clickhouse.Parameters{
		"n": "41", "s": "it's a \\ test", "d": "2026-11-23",
	}))
	var n uint64
	var s string
	var d time.Time
	if err := conn.QueryRow(ctx, "SELECT {n:UInt64} + 1, {s:String}, {d:Date}").Scan(&n, &s, &d); err != nil {
		t.Fatal(err)
	}
	if n != 42 || s != "it's a \\ test" || d.Format(time.DateOnly) != "2026-11-23" {
		t.Errorf("got %d, %q, %v", n, s, d)
	}
	// Named arguments travel as parameters too.
	if err := conn.QueryRow(context.Background(), "SELECT {name:String}", clickhouse.Named("name", "x'y")).Scan(&s); err != nil {
		t.Fatal(err)
	}
	if s != "x'y" {
		t.Errorf("named parameter = %q", s)
	}
	// A query without the parameters does not see earlier ones.
	var exc *clickhouse.Exception
	if err := conn.QueryRow(context.Background(), "SELECT {n:UInt64}").Scan(&n); !errors.As(err, &exc) {
		t.Errorf("query without parameters: %v, want an exception", err)
	}
}

// TestRequestStateDoesNotLeak runs on one connection, so every request sees what the one
// before it left behind.
func TestRequestStateDoesNotLeak(t *testing.T) {
	t.Parallel()
	ts := startServer(t, t.TempDir(), "-conns", "1")
	conn := ts.open(t, "default")
	ctx := context.Background()
	if err := conn.Exec(ctx, "CREATE DATABASE other"); err != nil {
		t.Fatal(err)
	}

	limited := clickhouse.Context(ctx, clickhouse.WithSettings(clickhouse.Settings{"max_result_rows": 1, "result_overflow_mode": "throw"}))
	rows, err := conn.Query(limited, "SELECT number FROM numbers(10)")
	var exc *clickhouse.Exception
	if err == nil {
		for rows.Next() {
		}
		err = rows.Err()
		rows.Close()
	}
	if !errors.As(err, &exc) || exc.Code != 396 {
		t.Fatalf("query with max_result_rows=1: %v, want TOO_MANY_ROWS_OR_BYTES (396)", err)
	}
	var n uint64
	if err := conn.QueryRow(ctx, "SELECT count() FROM (SELECT number FROM numbers(10))").Scan(&n); err != nil || n != 10 {
		t.Fatalf("count = %d, %v", n, err)
	}
	var setting string
	if err := conn.QueryRow(ctx, "SELECT getSetting('max_result_rows')::String").Scan(&setting); err != nil || setting != "0" {
		t.Errorf("max_result_rows after the request = %q, %v; want 0", setting, err)
	}

	// A failing SET must not leave anything behind either.
	bad := clickhouse.Context(ctx, clickhouse.WithSettings(clickhouse.Settings{"max_threads": 1, "no_such_setting": 1}))
	if err := conn.Exec(bad, "SELECT 1"); !errors.As(err, &exc) || exc.Code != 115 {
		t.Errorf("unknown setting: %v, want UNKNOWN_SETTING (115)", err)
	}

	// SET, USE and the database parameter last for one request only, as over HTTP
	// without a session.
	for _, sql := range []string{"SET max_threads = 1", "USE other"} {
		if err := conn.Exec(ctx, sql); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
	}
	other := ts.open(t, "other")
	var db string
	if err := other.QueryRow(ctx, "SELECT currentDatabase()").Scan(&db); err != nil || db != "other" {
		t.Errorf("currentDatabase() with database=other: %q, %v", db, err)
	}
	var threads string
	if err := conn.QueryRow(ctx, "SELECT currentDatabase(), getSetting('max_threads')::String").Scan(&db, &threads); err != nil {
		t.Fatal(err)
	}
	if db != "default" || threads == "1" {
		t.Errorf("after SET, USE and database=other: currentDatabase() = %q, max_threads = %s", db, threads)
	}

	// An unknown database is the client's mistake.
	missing := ts.open(t, "no_such_db")
	if err := missing.Ping(ctx); !errors.As(err, &exc) || exc.Code != 81 {
		t.Errorf("ping with database=no_such_db: %v, want UNKNOWN_DATABASE (81)", err)
	}
}

func TestDropDatabaseSync(t *testing.T) {
	t.Parallel()
	_, conn, db := setup(t)
	ctx := context.Background()
	if err := conn.Exec(ctx, "CREATE TABLE x (a UInt8) ENGINE = MergeTree ORDER BY a"); err != nil {
		t.Fatal(err)
	}
	if err := conn.Exec(ctx, "INSERT INTO x VALUES (1)"); err != nil {
		t.Fatal(err)
	}
	var n uint64
	if err := conn.QueryRow(ctx, "SELECT count() FROM x").Scan(&n); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		done <- conn.Exec(ctx, "DROP TABLE x SYNC")
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("DROP TABLE ... SYNC hangs")
	}
	if err := conn.Exec(ctx, "DROP DATABASE "+db+" SYNC"); err != nil {
		t.Fatal(err)
	}
}

func TestCompression(t *testing.T) {
	t.Parallel()
	ts, _, db := setup(t)
	ctx := context.Background()
	for i, method := range []clickhouse.CompressionMethod{clickhouse.CompressionGZIP, clickhouse.CompressionDeflate} {
		conn := ts.open(t, db, func(o *clickhouse.Options) {
			o.Compression = &clickhouse.Compression{Method: method}
			o.Settings = clickhouse.Settings{"enable_http_compression": 1}
		})
		if i == 0 {
			if err := conn.Exec(ctx, eventTable); err != nil {
				t.Fatal(err)
			}
		}
		insertEvents(t, conn, ctx, 20_000, i*20_000)
		var count uint64
		var queries []string
		if err := conn.QueryRow(ctx, "SELECT count(), groupArray(query) FROM (SELECT query FROM events ORDER BY project, day, query LIMIT 3)").Scan(&count, &queries); err != nil {
			t.Fatal(err)
		}
		if count != 3 || len(queries) != 3 {
			t.Errorf("%v: got %d, %q", method, count, queries)
		}
	}

	// The response really is gzip when asked for.
	resp, body := ts.do(t, http.MethodPost, "SELECT number FROM numbers(1000) FORMAT TSV",
		url.Values{"enable_http_compression": {"1"}}, http.Header{"Accept-Encoding": {"gzip"}})
	if resp.Header.Get("Content-Encoding") != "gzip" {
		t.Fatalf("Content-Encoding = %q, want gzip", resp.Header.Get("Content-Encoding"))
	}
	zr, err := gzip.NewReader(strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	plain, err := io.ReadAll(zr)
	if err != nil || !strings.HasPrefix(string(plain), "0\n1\n2\n") || strings.Count(string(plain), "\n") != 1000 {
		t.Errorf("decompressed body: %v, %.20q", err, plain)
	}

	// A gzip request body.
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	io.WriteString(zw, "SELECT 'gzipped'")
	zw.Close()
	req, _ := http.NewRequest(http.MethodPost, ts.url()+"/", &gz)
	req.SetBasicAuth("default", ts.password)
	req.Header.Set("Content-Encoding", "gzip")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if string(b) != "gzipped\n" {
		t.Errorf("gzip request body answered %d %q", res.StatusCode, b)
	}

	// LZ4 and ZSTD are refused with a clear exception.
	for _, method := range []clickhouse.CompressionMethod{clickhouse.CompressionLZ4, clickhouse.CompressionZSTD} {
		c := ts.open(t, db, func(o *clickhouse.Options) { o.Compression = &clickhouse.Compression{Method: method} })
		err := c.Ping(ctx)
		var exc *clickhouse.Exception
		if !errors.As(err, &exc) || exc.Code != 48 || !strings.Contains(exc.Message, "LZ4/ZSTD") {
			t.Errorf("%v: %v, want NOT_IMPLEMENTED (48) naming LZ4/ZSTD", method, err)
		}
	}
}

func TestDSN(t *testing.T) {
	t.Parallel()
	ts, _, db := setup(t)
	opts, err := clickhouse.ParseDSN("http://default:" + ts.password + "@" + ts.addr + "/" + db)
	if err != nil {
		t.Fatal(err)
	}
	sqlDB := clickhouse.OpenDB(opts)
	defer sqlDB.Close()
	var name string
	if err := sqlDB.QueryRow("SELECT currentDatabase()").Scan(&name); err != nil || name != db {
		t.Errorf("currentDatabase() through database/sql = %q, %v; want %q", name, err, db)
	}
}

func TestRestartKeepsDataAndShutsDownGracefully(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	ts := startServer(t, dir)
	conn := ts.open(t, "default")
	ctx := context.Background()
	for _, sql := range []string{
		"CREATE DATABASE keep",
		"CREATE TABLE keep.t (a UInt64) ENGINE = MergeTree ORDER BY a",
		"INSERT INTO keep.t SELECT number FROM numbers(1000)",
	} {
		if err := conn.Exec(ctx, sql); err != nil {
			t.Fatal(err)
		}
	}

	// A query running when SIGTERM arrives finishes and is answered.
	slow := make(chan error, 1)
	go func() {
		var n uint64
		err := conn.QueryRow(ctx, "SELECT count() FROM numbers(3) WHERE sleepEachRow(0.5) = 0").Scan(&n)
		if err == nil && n != 3 {
			err = fmt.Errorf("count = %d", n)
		}
		slow <- err
	}()
	time.Sleep(300 * time.Millisecond)
	if err := ts.stop(); err != nil {
		t.Fatalf("exit after SIGTERM: %v\n%s", err, ts.output())
	}
	if err := <-slow; err != nil {
		t.Errorf("query running during shutdown: %v", err)
	}
	if !strings.Contains(ts.output(), `"msg":"stopped"`) {
		t.Errorf("no clean stop in the log:\n%s", ts.output())
	}

	ts2 := startServer(t, dir)
	var sum uint64
	if err := ts2.open(t, "keep").QueryRow(ctx, "SELECT sum(a) FROM t").Scan(&sum); err != nil {
		t.Fatal(err)
	}
	if sum != 999*1000/2 {
		t.Errorf("sum after restart = %d, want %d", sum, 999*1000/2)
	}
}

func TestTypesRoundTrip(t *testing.T) {
	t.Parallel()
	_, conn, _ := setup(t)
	ctx := context.Background()
	if err := conn.Exec(ctx, `CREATE TABLE types (
		id UInt32,
		at DateTime('UTC'),
		at_ms DateTime64(3, 'UTC'),
		uid UUID,
		amount Decimal(18, 4),
		attrs Map(String, UInt64),
		tone Enum8('negative' = -1, 'neutral' = 0, 'positive' = 1),
		ok Bool,
		pair Tuple(String, Int64)
	) ENGINE = MergeTree ORDER BY id`); err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 11, 23, 10, 30, 0, 0, time.UTC)
	uid := "0f6d3a9e-8a2b-4c55-9d1e-3b2a1c0d9e8f"
	batch, err := conn.PrepareBatch(ctx, "INSERT INTO types")
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		if err := batch.Append(uint32(i), at, at.Add(1500*time.Millisecond), uid, "12.3456",
			map[string]uint64{"k": uint64(i)}, []string{"negative", "neutral", "positive"}[i], i%2 == 0,
			[]any{"p", int64(-i)}); err != nil {
			t.Fatal(err)
		}
	}
	if err := batch.Send(); err != nil {
		t.Fatal(err)
	}
	// An INSERT with bound values goes inline.
	if err := conn.Exec(ctx, "INSERT INTO types (id, at, at_ms, uid, amount, tone, ok) VALUES (?, ?, ?, ?, ?, ?, ?)",
		uint32(3), at, at, uid, "1", "neutral", false); err != nil {
		t.Fatal(err)
	}

	var rows []struct {
		ID     uint32            `ch:"id"`
		At     time.Time         `ch:"at"`
		AtMs   time.Time         `ch:"at_ms"`
		UID    string            `ch:"uid_s"`
		Amount string            `ch:"amount_s"`
		Attrs  map[string]uint64 `ch:"attrs"`
		Tone   string            `ch:"tone"`
		OK     bool              `ch:"ok"`
	}
	if err := conn.Select(ctx, &rows, "SELECT id, at, at_ms, toString(uid) AS uid_s, toString(amount) AS amount_s, attrs, tone, ok FROM types ORDER BY id"); err != nil {
		t.Fatal(err)
	}
	if len(rows) != 4 {
		t.Fatalf("%d rows, want 4", len(rows))
	}
	r := rows[1]
	if !r.At.Equal(at) || !r.AtMs.Equal(at.Add(1500*time.Millisecond)) || r.UID != uid || r.Amount != "12.3456" ||
		r.Attrs["k"] != 1 || r.Tone != "neutral" || r.OK {
		t.Errorf("row 1 = %+v", r)
	}
	if rows[3].Tone != "neutral" || rows[3].Amount != "1" {
		t.Errorf("row 3 = %+v", rows[3])
	}
}

func TestAsyncInsert(t *testing.T) {
	t.Parallel()
	_, conn, _ := setup(t)
	ctx := context.Background()
	if err := conn.Exec(ctx, "CREATE TABLE a (n UInt64) ENGINE = MergeTree ORDER BY n"); err != nil {
		t.Fatal(err)
	}
	if err := conn.AsyncInsert(ctx, "INSERT INTO a VALUES (1), (2)", true); err != nil {
		t.Fatal(err)
	}
	var n uint64
	if err := conn.QueryRow(ctx, "SELECT sum(n) FROM a").Scan(&n); err != nil || n != 3 {
		t.Errorf("sum = %d, %v", n, err)
	}
}
