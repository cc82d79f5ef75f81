package main

import (
	"strings"
)

// The endpoint looks at SQL only as far as the HTTP interface itself does: the first
// keywords, where inline INSERT data starts, and whether there is more than one
// statement. A small lexer that knows ClickHouse's quoting and comments is enough.

type tokenKind int

const (
	tokEnd         tokenKind = iota
	tokWord                  // keyword, identifier or number
	tokQuotedIdent           // `x` or "x"
	tokString                // 'x'
	tokPunct                 // any other single character
)

type token struct {
	kind       tokenKind
	start, end int
}

type lexer struct {
	s   string
	pos int
}

func isWordByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

// skipSpace skips whitespace and comments: "-- ...", "# ..." or "#!...", and
// "/* ... */", which nests in ClickHouse.
func (l *lexer) skipSpace() {
	s := l.s
	for l.pos < len(s) {
		c := s[l.pos]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
			l.pos++
		case c == '-' && l.pos+1 < len(s) && s[l.pos+1] == '-',
			c == '#' && l.pos+1 < len(s) && (s[l.pos+1] == ' ' || s[l.pos+1] == '!'):
			if i := strings.IndexByte(s[l.pos:], '\n'); i >= 0 {
				l.pos += i + 1
			} else {
				l.pos = len(s)
			}
		case c == '/' && l.pos+1 < len(s) && s[l.pos+1] == '*':
			depth := 0
			for l.pos < len(s) {
				if strings.HasPrefix(s[l.pos:], "/*") {
					depth++
					l.pos += 2
				} else if strings.HasPrefix(s[l.pos:], "*/") {
					depth--
					l.pos += 2
					if depth == 0 {
						break
					}
				} else {
					l.pos++
				}
			}
		default:
			return
		}
	}
}

func (l *lexer) next() token {
	l.skipSpace()
	s := l.s
	if l.pos >= len(s) {
		return token{kind: tokEnd, start: len(s), end: len(s)}
	}
	start := l.pos
	c := s[l.pos]
	switch {
	case isWordByte(c):
		for l.pos < len(s) && isWordByte(s[l.pos]) {
			l.pos++
		}
		return token{kind: tokWord, start: start, end: l.pos}
	case c == '\'' || c == '`' || c == '"':
		l.pos++
		for l.pos < len(s) {
			switch s[l.pos] {
			case '\\':
				l.pos += 2
				continue
			case c:
				if l.pos+1 < len(s) && s[l.pos+1] == c { // doubled quote
					l.pos += 2
					continue
				}
				l.pos++
				kind := tokQuotedIdent
				if c == '\'' {
					kind = tokString
				}
				return token{kind: kind, start: start, end: l.pos}
			}
			l.pos++
		}
		l.pos = len(s) // unterminated: the engine reports it
		return token{kind: tokString, start: start, end: l.pos}
	default:
		l.pos++
		return token{kind: tokPunct, start: start, end: l.pos}
	}
}

func (l *lexer) text(t token) string { return l.s[t.start:t.end] }

func (l *lexer) isWord(t token, word string) bool {
	return t.kind == tokWord && strings.EqualFold(l.text(t), word)
}

// leadingKeywords returns up to n leading words of sql in upper case, skipping opening
// parentheses, e.g. ["CREATE", "TEMPORARY"].
func leadingKeywords(sql string, n int) []string {
	l := &lexer{s: sql}
	var words []string
	for len(words) < n {
		t := l.next()
		if t.kind == tokPunct && l.text(t) == "(" && len(words) == 0 {
			continue
		}
		if t.kind != tokWord {
			break
		}
		words = append(words, strings.ToUpper(l.text(t)))
	}
	return words
}

func firstKeyword(sql string) string {
	if w := leadingKeywords(sql, 1); len(w) > 0 {
		return w[0]
	}
	return ""
}

// insertData describes an INSERT whose data follows its FORMAT clause inline.
type insertData struct {
	head       string // the statement up to FORMAT, e.g. "INSERT INTO t (a, b) "
	format     string // the format name, e.g. "Native"
	dataOffset int    // where the data starts in the text
}

// splitInsert finds the FORMAT clause of an INSERT statement, and with it where the
// inline data starts, without reading into the data (which may be binary). ok is false
// for anything else, including INSERT ... VALUES and INSERT ... SELECT.
func splitInsert(sql string) (insertData, bool) {
	l := &lexer{s: sql}
	if t := l.next(); !l.isWord(t, "INSERT") {
		return insertData{}, false
	}
	depth := 0
	for {
		t := l.next()
		switch {
		case t.kind == tokEnd:
			return insertData{}, false
		case t.kind == tokPunct && l.text(t) == "(":
			depth++
		case t.kind == tokPunct && l.text(t) == ")":
			depth--
		case depth == 0 && (l.isWord(t, "VALUES") || l.isWord(t, "SELECT") || l.isWord(t, "WITH")):
			return insertData{}, false
		case depth == 0 && l.isWord(t, "FORMAT"):
			name := l.next()
			if name.kind != tokWord && name.kind != tokQuotedIdent {
				return insertData{}, false
			}
			format := l.text(name)
			if name.kind == tokQuotedIdent {
				format = format[1 : len(format)-1]
			}
			// As the server does: the data starts after the first line break that follows
			// the format name, or after the blanks when there is none.
			pos := name.end
			for pos < len(sql) && (sql[pos] == ' ' || sql[pos] == '\t' || sql[pos] == '\f') {
				pos++
			}
			if pos < len(sql) && sql[pos] == '\r' {
				pos++
			}
			if pos < len(sql) && sql[pos] == '\n' {
				pos++
			}
			return insertData{head: sql[:t.start], format: format, dataOffset: pos}, true
		}
	}
}

// hasMultipleStatements reports whether sql holds more than one statement. The HTTP
// interface refuses that; chDB would run them all.
func hasMultipleStatements(sql string) bool {
	l := &lexer{s: sql}
	semicolon := false
	for {
		t := l.next()
		switch {
		case t.kind == tokEnd:
			return false
		case t.kind == tokPunct && l.text(t) == ";":
			semicolon = true
		case semicolon:
			return true
		}
	}
}

// stripDropSync removes a trailing SYNC from a DROP statement: DROP ... SYNC never
// returns in chDB once the table has been used, and a plain DROP does the same work.
func stripDropSync(sql string) (string, bool) {
	l := &lexer{s: sql}
	if t := l.next(); !l.isWord(t, "DROP") {
		return sql, false
	}
	var prev, last token
	for {
		t := l.next()
		if t.kind == tokEnd {
			break
		}
		if t.kind == tokPunct && l.text(t) == ";" {
			continue
		}
		prev, last = last, t
	}
	if !l.isWord(last, "SYNC") {
		return sql, false
	}
	// "DROP TABLE sync" and "DROP TABLE db.sync" name a table.
	if prev.kind == tokPunct || prev.kind == tokWord && dropObjectKeywords[strings.ToUpper(l.text(prev))] {
		return sql, false
	}
	return sql[:last.start] + sql[last.end:], true
}

var dropObjectKeywords = map[string]bool{
	"TABLE": true, "DATABASE": true, "VIEW": true, "DICTIONARY": true, "EXISTS": true, "TEMPORARY": true,
}

// outputFormat returns the format named by a trailing FORMAT clause, or "".
func outputFormat(sql string) string {
	l := &lexer{s: sql}
	depth := 0
	format := ""
	for {
		t := l.next()
		switch {
		case t.kind == tokEnd:
			return format
		case t.kind == tokPunct && l.text(t) == "(":
			depth++
		case t.kind == tokPunct && l.text(t) == ")":
			depth--
		case depth == 0 && l.isWord(t, "FORMAT"):
			peek := *l
			if name := peek.next(); name.kind == tokWord {
				format = l.text(name)
				*l = peek
			}
		}
	}
}

func isHelloQuery(sql string) bool {
	return strings.EqualFold(strings.Join(strings.Fields(sql), " "), helloQuery)
}

// writeKeywords start the statements ClickHouse refuses with readonly set, as it is for
// every GET request. Anything unknown goes to the engine, which reports its own error.
var writeKeywords = map[string]bool{
	"INSERT": true, "CREATE": true, "DROP": true, "ALTER": true, "TRUNCATE": true,
	"RENAME": true, "EXCHANGE": true, "OPTIMIZE": true, "ATTACH": true, "DETACH": true,
	"DELETE": true, "UPDATE": true, "UNDROP": true, "SYSTEM": true, "KILL": true,
	"GRANT": true, "REVOKE": true, "BACKUP": true, "RESTORE": true, "MOVE": true,
	"REPLACE": true, "UPSERT": true,
}

// changesSession reports whether a statement changes state that outlives it on the
// connection (current database, settings, temporary tables). Over HTTP without a
// session such state ends with the request; here the connection is replaced instead.
func changesSession(sql string) bool {
	w := leadingKeywords(sql, 2)
	if len(w) == 0 {
		return false
	}
	switch w[0] {
	case "SET", "USE":
		return true
	case "CREATE":
		return len(w) > 1 && w[1] == "TEMPORARY"
	}
	return false
}

// outsideAccess names the table functions, table engines and dictionary
// sources that reach outside the engine's own databases: local files,
// programs, URLs, object stores and other servers. The endpoint refuses
// client SQL that calls any of them, so that the developer's files and
// network stay out of reach of whoever can send it a query; its own
// spooling of INSERT data through file() is added after the check.
var outsideAccess = map[string]bool{
	"file": true, "filecluster": true, "url": true, "urlcluster": true, "http": true,
	"s3": true, "s3cluster": true, "gcs": true, "oss": true, "cosn": true,
	"azureblobstorage": true, "azureblobstoragecluster": true, "hdfs": true, "hdfscluster": true,
	"remote": true, "remotesecure": true, "cluster": true, "clusterallreplicas": true, "clickhouse": true,
	"executable": true, "executablepool": true,
	"mysql": true, "postgresql": true, "materializedmysql": true, "materializedpostgresql": true,
	"mongodb": true, "redis": true, "sqlite": true, "odbc": true, "jdbc": true,
	"iceberg": true, "icebergs3": true, "icebergazure": true, "iceberghdfs": true, "icebergcluster": true,
	"icebergs3cluster": true, "icebergazurecluster": true, "iceberghdfscluster": true, "iceberglocal": true,
	"deltalake": true, "deltalakes3": true, "deltalakeazure": true, "deltalakecluster": true, "deltalakelocal": true,
	"hudi": true, "hudicluster": true, "kafka": true, "rabbitmq": true, "nats": true, "arrowflight": true,
}

// refuseOutsideAccess refuses SQL that calls one of outsideAccess (a name
// followed by an opening parenthesis, quoted or not, in any case) or
// reads or writes a local file with FROM INFILE or INTO OUTFILE.
func refuseOutsideAccess(sql string) *exception {
	l := &lexer{s: sql}
	var prev token
	for {
		t := l.next()
		switch {
		case t.kind == tokEnd:
			return nil
		case t.kind == tokPunct && l.text(t) == "(" && (prev.kind == tokWord || prev.kind == tokQuotedIdent):
			name := l.text(prev)
			if prev.kind == tokQuotedIdent {
				name = name[1 : len(name)-1]
			}
			if outsideAccess[strings.ToLower(name)] {
				return newException(codeAccessDenied, "ACCESS_DENIED",
					"%s() is refused: sightline-chdb does not let queries reach files, programs or other servers", name)
			}
		case l.isWord(prev, "INTO") && l.isWord(t, "OUTFILE"), l.isWord(prev, "FROM") && l.isWord(t, "INFILE"):
			return newException(codeAccessDenied, "ACCESS_DENIED",
				"%s %s is refused: sightline-chdb does not let queries read or write local files",
				strings.ToUpper(l.text(prev)), strings.ToUpper(l.text(t)))
		}
		prev = t
	}
}

// quoteString quotes s as a ClickHouse string literal.
func quoteString(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'"
}

// quoteIdent quotes s as a ClickHouse identifier.
func quoteIdent(s string) string {
	return "`" + strings.NewReplacer(`\`, `\\`, "`", "\\`").Replace(s) + "`"
}
