//go:build linux

package main

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/ClickHouse/clickhouse-go/v2"
)

// raw sends sql as a POST with exactly the headers given: no credentials
// unless the test adds them.
func (ts *testServer) raw(t *testing.T, target, sql string, header http.Header) (int, string, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, ts.url()+target, strings.NewReader(sql))
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range header {
		req.Header[k] = v
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, res.Header.Get("X-ClickHouse-Exception-Code"), string(b)
}

func basic(user, password string) http.Header {
	r, _ := http.NewRequest(http.MethodGet, "/", nil)
	r.SetBasicAuth(user, password)
	return http.Header{"Authorization": r.Header["Authorization"]}
}

func TestQueriesNeedTheConfiguredCredentials(t *testing.T) {
	t.Parallel()
	ts := sharedServer(t)
	refused := map[string]struct {
		target string
		header http.Header
	}{
		"none":                {"/", nil},
		"wrong password":      {"/", basic("default", "guess")},
		"wrong user":          {"/", basic("admin", ts.password)},
		"empty password":      {"/", basic("default", "")},
		"only in the URL":     {"/?" + url.Values{"user": {"default"}, "password": {ts.password}}.Encode(), nil},
		"wrong X-ClickHouse-": {"/", http.Header{"X-Clickhouse-User": {"default"}, "X-Clickhouse-Key": {"nope"}}},
	}
	for name, c := range refused {
		status, code, body := ts.raw(t, c.target, "SELECT 1", c.header)
		if status != http.StatusForbidden || code != "516" || !strings.Contains(body, "AUTHENTICATION_FAILED") {
			t.Errorf("%s: %d %s %q, want 403 AUTHENTICATION_FAILED (516)", name, status, code, body)
		}
	}
	for name, header := range map[string]http.Header{
		"basic":         basic("default", ts.password),
		"X-ClickHouse-": {"X-Clickhouse-User": {"default"}, "X-Clickhouse-Key": {ts.password}},
	} {
		if status, _, body := ts.raw(t, "/", "SELECT 1", header); status != http.StatusOK || body != "1\n" {
			t.Errorf("%s: %d %q", name, status, body)
		}
	}
	// Health checks need none.
	for _, path := range []string{"/ping", "/"} {
		res, err := http.Get(ts.url() + path)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusOK {
			t.Errorf("GET %s without credentials: %d", path, res.StatusCode)
		}
	}
	// An insert without credentials is refused before its data is read.
	status, code, _ := ts.raw(t, "/?query="+url.QueryEscape("INSERT INTO t FORMAT TSV"), strings.Repeat("1\n", 1000), nil)
	if status != http.StatusForbidden || code != "516" {
		t.Errorf("insert without credentials: %d %s", status, code)
	}
}

// A web page open in the developer's browser can send a text/plain POST
// to the endpoint without asking first; the browser names its origin.
func TestRequestsFromWebPagesAreRefused(t *testing.T) {
	t.Parallel()
	ts := sharedServer(t)
	for name, header := range map[string]http.Header{
		"cross-origin form": {"Origin": {"https://evil.example"}, "Content-Type": {"text/plain"}},
		"null origin":       {"Origin": {"null"}},
		"fetch metadata":    {"Sec-Fetch-Site": {"cross-site"}},
	} {
		for k, v := range basic("default", ts.password) {
			header[k] = v // even with the right credentials
		}
		status, code, body := ts.raw(t, "/", "SELECT 1", header)
		if status != http.StatusForbidden || code != "497" || !strings.Contains(body, "web pages") {
			t.Errorf("%s: %d %s %q, want 403 ACCESS_DENIED (497)", name, status, code, body)
		}
	}
	req, _ := http.NewRequest(http.MethodGet, ts.url()+"/ping", nil)
	req.Header.Set("Origin", "https://evil.example")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusForbidden {
		t.Errorf("/ping from a web page: %d", res.StatusCode)
	}
}

func TestQueriesCannotReachOutside(t *testing.T) {
	t.Parallel()
	ts, conn, db := setup(t)
	ctx := context.Background()
	for _, sql := range []string{
		"SELECT * FROM file('/etc/passwd', 'LineAsString')",
		"SELECT file('/etc/hostname')",
		"SELECT * FROM `FILE`('/etc/passwd', 'LineAsString')",
		"SELECT * FROM url('http://127.0.0.1:1/', 'CSV', 'a String')",
		"SELECT * FROM s3('http://127.0.0.1:1/b/k.csv', 'CSV', 'a String')",
		"SELECT * FROM remote('127.0.0.1:9000', system.one)",
		"SELECT * FROM executable('cat /etc/passwd', 'TSV', 'a String')",
		"CREATE TABLE leak (a String) ENGINE = File(TSV, '/etc/passwd')",
		"INSERT INTO FUNCTION file('/tmp/sightline-chdb-leak.tsv', 'TSV', 'a UInt8') VALUES (1)",
		"SELECT 1 INTO OUTFILE '/tmp/sightline-chdb-leak.tsv'",
		"INSERT INTO t FROM INFILE '/etc/passwd' FORMAT LineAsString",
		"SELECT * FROM file /* a comment */ ('/etc/passwd', 'LineAsString')",
	} {
		err := conn.Exec(ctx, sql)
		var exc *clickhouse.Exception
		if !errors.As(err, &exc) || exc.Code != 497 {
			t.Errorf("%s: %v, want ACCESS_DENIED (497)", sql, err)
		}
	}
	// Through the inline-data path too, before anything is spooled.
	status, code, _ := ts.raw(t, "/?database="+db+"&query="+url.QueryEscape("INSERT INTO FUNCTION file('/tmp/sightline-chdb-leak.tsv', 'TSV', 'a UInt8') FORMAT TSV"),
		"1\n", basic("default", ts.password))
	if status != http.StatusForbidden || code != "497" {
		t.Errorf("insert into file() with inline data: %d %s", status, code)
	}
	// The endpoint's own use of file() for batch inserts still works.
	if err := conn.Exec(ctx, eventTable); err != nil {
		t.Fatal(err)
	}
	insertEvents(t, conn, ctx, 100, 0)
	var n uint64
	if err := conn.QueryRow(ctx, "SELECT count() FROM events").Scan(&n); err != nil || n != 100 {
		t.Fatalf("count = %d, %v", n, err)
	}
}

// With the defaults (user "default", no password) the app's default URL,
// which names no user, is what the endpoint requires; a request with no
// credentials at all is still refused.
func TestDefaultCredentialsMatchTheAppsDefaultURL(t *testing.T) {
	t.Parallel()
	ts := startServerWithPassword(t, t.TempDir(), "")
	opts, err := clickhouse.ParseDSN("http://" + ts.addr + "/default")
	if err != nil {
		t.Fatal(err)
	}
	conn, err := clickhouse.Open(opts)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	var one uint8
	if err := conn.QueryRow(context.Background(), "SELECT 1").Scan(&one); err != nil || one != 1 {
		t.Fatalf("SELECT 1 with the default URL: %d, %v", one, err)
	}
	if status, code, _ := ts.raw(t, "/", "SELECT 1", nil); status != http.StatusForbidden || code != "516" {
		t.Fatalf("no credentials: %d %s", status, code)
	}
}
