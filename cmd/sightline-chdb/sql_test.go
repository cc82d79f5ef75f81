package main

import (
	"strings"
	"testing"
)

func TestSplitInsert(t *testing.T) {
	t.Parallel()
	tests := []struct {
		sql    string
		ok     bool
		head   string
		format string
		data   string
	}{
		{"INSERT INTO `t` (`a`, `b`) FORMAT Native", true, "INSERT INTO `t` (`a`, `b`) ", "Native", ""},
		{"INSERT INTO t FORMAT TSV\n1\t2\n\n3\t4\n", true, "INSERT INTO t ", "TSV", "1\t2\n\n3\t4\n"},
		{"insert into t format JSONEachRow {\"a\":1}", true, "insert into t ", "JSONEachRow", "{\"a\":1}"},
		{"INSERT INTO t SETTINGS async_insert=1 FORMAT CSV\r\n1,2", true, "INSERT INTO t SETTINGS async_insert=1 ", "CSV", "1,2"},
		{"/* c */ INSERT INTO t (format) FORMAT Native\n\x00\x01", true, "/* c */ INSERT INTO t (format) ", "Native", "\x00\x01"},
		{"INSERT INTO t VALUES (1, 'FORMAT x')", false, "", "", ""},
		{"INSERT INTO t SELECT * FROM s FORMAT Native", false, "", "", ""},
		{"SELECT 1 FORMAT Native", false, "", "", ""},
		{"INSERT INTO t FORMAT", false, "", "", ""},
	}
	for _, tt := range tests {
		ins, ok := splitInsert(tt.sql)
		if ok != tt.ok || ins.head != tt.head || ins.format != tt.format || ok && tt.sql[ins.dataOffset:] != tt.data {
			t.Errorf("splitInsert(%q) = %+v, %v; want head %q format %q data %q, %v", tt.sql, ins, ok, tt.head, tt.format, tt.data, tt.ok)
		}
	}
}

func TestStatementChecks(t *testing.T) {
	t.Parallel()
	multi := map[string]bool{
		"SELECT 1":                    false,
		"SELECT 1;":                   false,
		"SELECT 1; -- done\n":         false,
		"SELECT ';' ; ":               false,
		"SELECT `a;b` FROM t":         false,
		"SELECT 1; SELECT 2":          true,
		"SELECT 1;SET max_threads=1":  true,
		"SELECT '\\';'; DROP TABLE t": true,
	}
	for sql, want := range multi {
		if got := hasMultipleStatements(sql); got != want {
			t.Errorf("hasMultipleStatements(%q) = %v, want %v", sql, got, want)
		}
	}

	drops := map[string]string{
		"DROP TABLE t SYNC":             "DROP TABLE t ",
		"drop database d sync;":         "drop database d ;",
		"DROP TABLE sync":               "DROP TABLE sync",
		"DROP TABLE t":                  "DROP TABLE t",
		"SELECT 1 AS sync":              "SELECT 1 AS sync",
		"DROP TABLE IF EXISTS `t` SYNC": "DROP TABLE IF EXISTS `t` ",
	}
	for sql, want := range drops {
		if got, _ := stripDropSync(sql); got != want {
			t.Errorf("stripDropSync(%q) = %q, want %q", sql, got, want)
		}
	}

	if !isHelloQuery("SELECT displayName(), version(), revision(), timezone()") || !isHelloQuery(" select  displayName(), version(),\n revision(), timezone() ") {
		t.Error("hello query not recognised")
	}
	if isHelloQuery("SELECT version()") {
		t.Error("SELECT version() taken for the hello query")
	}

	session := map[string]bool{
		"SET max_threads = 1":               true,
		"use db":                            true,
		"CREATE TEMPORARY TABLE x (a Int8)": true,
		"CREATE TABLE x (a Int8)":           false,
		"SELECT 1":                          false,
	}
	for sql, want := range session {
		if got := changesSession(sql); got != want {
			t.Errorf("changesSession(%q) = %v, want %v", sql, got, want)
		}
	}

	formats := map[string]string{
		"SELECT 1 FORMAT JSONEachRow":       "JSONEachRow",
		"SELECT 1":                          "",
		"SELECT format('{}', 1) FORMAT CSV": "CSV",
		"SELECT * FROM file('x', 'CSV')":    "",
	}
	for sql, want := range formats {
		if got := outputFormat(sql); got != want {
			t.Errorf("outputFormat(%q) = %q, want %q", sql, got, want)
		}
	}

	if got := setStatement([]setting{{"max_threads", "1"}, {"join_algorithm", "hash"}, {"x", "it's"}}); got != `SET max_threads = 1, join_algorithm = 'hash', x = 'it\'s'` {
		t.Errorf("setStatement = %s", got)
	}
	if got := firstKeyword("-- c\n# d\n/* e /* nested */ */ (SELECT 1)"); got != "SELECT" {
		t.Errorf("firstKeyword = %q", got)
	}
}

func TestParseException(t *testing.T) {
	t.Parallel()
	e := parseException("Code: 60. DB::Exception: Table default.x does not exist. (UNKNOWN_TABLE)\n")
	if e.code != 60 || httpStatus(e.code) != 404 || strings.HasSuffix(e.text, "\n") {
		t.Errorf("parseException = %+v", e)
	}
	e = parseException("something broke")
	if e.code != codeStdException || !strings.HasPrefix(e.text, "Code: 1001. DB::Exception: something broke") {
		t.Errorf("parseException of plain text = %+v", e)
	}
}

func FuzzLexer(f *testing.F) {
	for _, s := range []string{"INSERT INTO t FORMAT Native\n\x00", "SELECT 'a\\'b' /* x */ -- y\n; SELECT 2", "`unterminated", "/* /* */"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, sql string) {
		if ins, ok := splitInsert(sql); ok && (ins.dataOffset > len(sql) || !strings.HasPrefix(sql, ins.head)) {
			t.Errorf("splitInsert(%q) = %+v", sql, ins)
		}
		hasMultipleStatements(sql)
		if out, ok := stripDropSync(sql); ok && len(out) != len(sql)-4 {
			t.Errorf("stripDropSync(%q) = %q", sql, out)
		}
		outputFormat(sql)
		leadingKeywords(sql, 3)
	})
}

func TestRefuseOutsideAccess(t *testing.T) {
	t.Parallel()
	for sql, refused := range map[string]bool{
		"SELECT * FROM file('x')":                 true,
		"select * from URL ('http://x', CSV)":     true,
		`SELECT * FROM "remoteSecure"('h', db.t)`: true,
		"CREATE DICTIONARY d (k UInt64) PRIMARY KEY k SOURCE(EXECUTABLE(command 'ls' format 'TSV')) LAYOUT(FLAT()) LIFETIME(0)": true,
		"SELECT 1 INTO OUTFILE 'x'":                    true,
		"INSERT INTO t FROM INFILE 'x'":                true,
		"SELECT domain(url), url FROM t":               false,
		"SELECT 'file(' AS s":                          false,
		"SELECT 1 /* file( */":                         false,
		"SELECT profile(1), urlHash(u) FROM files":     false,
		"SELECT outfile, infile FROM t":                false,
		"SELECT * FROM file":                           false,
		"INSERT INTO events (file, url) FORMAT Native": false,
	} {
		if got := refuseOutsideAccess(sql) != nil; got != refused {
			t.Errorf("refuseOutsideAccess(%q) refused = %v, want %v", sql, got, refused)
		}
	}
}
