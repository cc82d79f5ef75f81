//go:build linux

package main

import (
	"bytes"
	"compress/gzip"
	"compress/zlib"
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"mime"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
)

// server answers ClickHouse HTTP requests with the engine.
type server struct {
	log      *slog.Logger
	pool     *pool
	spoolDir string
	spoolSeq atomic.Uint64
	creds    credentials
}

// credentials are the user and password every query must carry.
type credentials struct {
	user, password string
}

// newHandler returns the HTTP interface: every route is here.
func newHandler(log *slog.Logger, p *pool, spoolDir string, creds credentials) http.Handler {
	s := &server{log: log, pool: p, spoolDir: spoolDir, creds: creds}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /ping", handlePing)
	mux.HandleFunc("/{$}", s.handleQuery)
	mux.HandleFunc("/", handleNotFound)
	return s.refuseBrowsers(mux)
}

// refuseBrowsers refuses every request a web page could have made: a
// browser names the page's origin (Origin, Sec-Fetch-Site) on every
// cross-origin POST, including the text/plain ones it sends without asking
// first, and no ClickHouse client sends either header. Without this, any
// page open in a developer's browser could run SQL here.
func (s *server) refuseBrowsers(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Origin") != "" || r.Header.Get("Sec-Fetch-Site") != "" {
			s.log.Warn("refused a request from a web page", slog.String("origin", r.Header.Get("Origin")),
				slog.String("path", r.URL.Path))
			writeException(w, newException(codeAccessDenied, "ACCESS_DENIED",
				"requests from web pages (with an Origin or Sec-Fetch-Site header) are refused: sightline-chdb serves local programs only"))
			return
		}
		next.ServeHTTP(w, r)
	})
}

// authenticate checks the request's credentials against the configured
// ones. They are read from the Authorization header (Basic, as
// clickhouse-go sends them over plain HTTP) or X-ClickHouse-User and
// X-ClickHouse-Key, never from the URL, where a link or a form could put them.
func (s *server) authenticate(r *http.Request) *exception {
	user, password, ok := r.BasicAuth()
	if !ok && r.Header.Get("X-ClickHouse-User") != "" {
		user, password, ok = r.Header.Get("X-ClickHouse-User"), r.Header.Get("X-ClickHouse-Key"), true
	}
	if !ok {
		return newException(codeAuthFailed, "AUTHENTICATION_FAILED",
			"Authentication failed: send the user and password in the Authorization header (Basic) or in X-ClickHouse-User and X-ClickHouse-Key")
	}
	userOK := subtle.ConstantTimeCompare([]byte(user), []byte(s.creds.user)) == 1
	passwordOK := subtle.ConstantTimeCompare([]byte(password), []byte(s.creds.password)) == 1
	if !userOK || !passwordOK {
		return newException(codeAuthFailed, "AUTHENTICATION_FAILED",
			"%s: Authentication failed: password is incorrect, or there is no user with such name", user)
	}
	return nil
}

func handlePing(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "text/html; charset=UTF-8")
	io.WriteString(w, "Ok.\n")
}

func handleNotFound(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/plain; charset=UTF-8")
	w.WriteHeader(http.StatusNotFound)
	fmt.Fprintf(w, "There is no handle %s\n\nUse / or /ping for health checks.\nSend queries with POST or GET /?query=...\n", r.URL.Path)
}

// maxSQLSize bounds SQL read into memory; INSERT data is streamed to a file instead.
const maxSQLSize = 256 << 20

// setting is one per-request setting from the URL.
type setting struct {
	name, value string
}

// request is one query as the HTTP interface received it.
type request struct {
	queryID  string
	database string
	format   string // default output format; a FORMAT clause in the SQL wins
	sql      string // what runs on the engine
	logSQL   string // what the log shows
	params   []queryParam
	settings []setting
	readonly bool
	get      bool

	responseEncoding string // "gzip", "deflate" or "" for none
	compressionLevel int

	hello          bool   // the driver's handshake, answered in its own layout
	clientRevision uint64 // client_protocol_version

	spoolPath  string // INSERT data, removed when the request ends
	spoolBytes int64
	noop       bool // an INSERT without data: nothing to run
}

func (s *server) handleQuery(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	if r.Method != http.MethodGet && r.Method != http.MethodPost {
		writeException(w, newException(codeUnsupportedMethod, "UNSUPPORTED_METHOD", "HTTP method %s is not supported; use GET or POST", r.Method))
		return
	}
	// GET / without a query is the server's health answer.
	if r.Method == http.MethodGet && !r.URL.Query().Has("query") {
		handlePing(w, r)
		return
	}
	// Credentials are checked before the body is read: an INSERT's data is
	// spooled to disk as it arrives.
	if exc := s.authenticate(r); exc != nil {
		s.log.Warn("refused a request without valid credentials", slog.String("remote", r.RemoteAddr), slog.Int("code", exc.code))
		writeException(w, exc)
		return
	}

	req, err := s.parseRequest(r)
	if req != nil && req.spoolPath != "" {
		defer os.Remove(req.spoolPath)
	}
	var res *result
	if err == nil && !req.noop {
		res, err = s.execute(r.Context(), req)
	}
	if res != nil {
		defer res.free()
	}

	var body []byte
	if res != nil {
		body = res.data
	}
	if err == nil && req.hello {
		body, err = helloBlock(req.clientRevision, res.data)
		req.format = "Native"
	}
	exc := asException(err)
	if exc != nil {
		writeException(w, exc)
	} else {
		s.writeResult(w, req, res, body)
	}
	s.logRequest(req, res, exc, time.Since(start))
}

func asException(err error) *exception {
	if err == nil {
		return nil
	}
	var exc *exception
	if errors.As(err, &exc) {
		return exc
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return newException(codeQueryWasCancelled, "QUERY_WAS_CANCELLED", "request cancelled while waiting for a free engine connection")
	}
	return newException(codeStdException, "STD_EXCEPTION", "%v", err)
}

// Parameters of the HTTP interface that are not settings.
var reservedParams = map[string]bool{
	"query": true, "database": true, "default_format": true, "query_id": true,
	"client_protocol_version": true, "user": true, "password": true, "quota_key": true,
	"role": true, "stacktrace": true, "buffer_size": true, "wait_end_of_query": true,
	"session_id": true, "session_timeout": true, "session_check": true,
	"compress": true, "decompress": true, "readonly": true,
	"enable_http_compression": true, "http_zlib_compression_level": true,
}

var settingNameRe = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

func truthy(v string) bool {
	return v == "1" || strings.EqualFold(v, "true")
}

// parseRequest reads the URL, headers and body into a request. It spools INSERT data to
// a file, and returns the request even on error so the file can be removed.
func (s *server) parseRequest(r *http.Request) (*request, error) {
	q := r.URL.Query()
	req := &request{
		queryID:          q.Get("query_id"),
		database:         q.Get("database"),
		format:           q.Get("default_format"),
		readonly:         r.Method == http.MethodGet || truthy(q.Get("readonly")) || q.Get("readonly") == "2",
		get:              r.Method == http.MethodGet,
		compressionLevel: 3,
	}
	if req.queryID == "" {
		req.queryID = newQueryID()
	}
	if v := q.Get("client_protocol_version"); v != "" {
		rev, err := strconv.ParseUint(v, 10, 64)
		if err != nil {
			return req, newException(36, "BAD_ARGUMENTS", "client_protocol_version %q is not a number", v)
		}
		req.clientRevision = rev
	}
	if req.database == "" {
		req.database = r.Header.Get("X-ClickHouse-Database")
	}
	if req.format == "" {
		req.format = r.Header.Get("X-ClickHouse-Format")
	}
	if req.format == "" {
		req.format = "TabSeparated"
	}
	if v := q.Get("session_id"); v != "" {
		return req, newException(codeNotImplemented, "NOT_IMPLEMENTED", "sessions (session_id) are not supported by sightline-chdb, the development stand-in for ClickHouse")
	}
	if truthy(q.Get("compress")) || truthy(q.Get("decompress")) {
		return req, newException(codeNotImplemented, "NOT_IMPLEMENTED", "native LZ4/ZSTD compression (compress/decompress) is not supported by sightline-chdb; use gzip or no compression")
	}
	if truthy(q.Get("enable_http_compression")) {
		req.responseEncoding = acceptedEncoding(r.Header.Get("Accept-Encoding"))
		if v := q.Get("http_zlib_compression_level"); v != "" {
			level, err := strconv.Atoi(v)
			if err != nil || level < 1 || level > 9 {
				return req, newException(36, "BAD_ARGUMENTS", "http_zlib_compression_level %q must be between 1 and 9", v)
			}
			req.compressionLevel = level
		}
	}

	for _, name := range slices.Sorted(maps.Keys(q)) {
		value := q.Get(name)
		switch {
		case reservedParams[name]:
		case strings.HasPrefix(name, "param_"):
			req.params = append(req.params, queryParam{name: strings.TrimPrefix(name, "param_"), value: value})
		case name == "database_atomic_wait_for_drop_and_detach_synchronously" && truthy(value):
			return req, newException(codeNotImplemented, "NOT_IMPLEMENTED", "%s: synchronous DROP hangs in chDB and is not supported by sightline-chdb", name)
		case !settingNameRe.MatchString(name):
			return req, newException(codeUnknownSetting, "UNKNOWN_SETTING", "Unknown setting '%s'", name)
		default:
			req.settings = append(req.settings, setting{name: name, value: value})
		}
	}

	if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt == "multipart/form-data" {
		return req, newException(codeNotImplemented, "NOT_IMPLEMENTED", "external tables (multipart/form-data) are not supported by sightline-chdb")
	}
	body, err := decodedBody(r)
	if err != nil {
		return req, err
	}
	defer body.Close()
	if err := s.readStatement(req, q.Get("query"), body); err != nil {
		return req, err
	}
	return req, prepareStatement(req)
}

// acceptedEncoding picks the response encoding from Accept-Encoding: gzip or deflate,
// the ones the standard library writes.
func acceptedEncoding(accept string) string {
	found := ""
	for _, part := range strings.Split(accept, ",") {
		enc, _, _ := strings.Cut(strings.TrimSpace(part), ";")
		switch strings.ToLower(enc) {
		case "gzip":
			return "gzip"
		case "deflate":
			found = "deflate"
		}
	}
	return found
}

type readCloser struct {
	io.Reader
	close func() error
}

func (r readCloser) Close() error { return r.close() }

// decodedBody undoes the request's Content-Encoding.
func decodedBody(r *http.Request) (io.ReadCloser, error) {
	enc := strings.ToLower(strings.TrimSpace(r.Header.Get("Content-Encoding")))
	switch enc {
	case "", "identity":
		return r.Body, nil
	case "gzip", "x-gzip":
		zr, err := gzip.NewReader(r.Body)
		if err != nil {
			if errors.Is(err, io.EOF) { // empty body
				return r.Body, nil
			}
			return nil, newException(271, "CANNOT_DECOMPRESS", "gzip request body: %v", err)
		}
		return readCloser{zr, r.Body.Close}, nil
	case "deflate":
		zr, err := zlib.NewReader(r.Body)
		if err != nil {
			if errors.Is(err, io.EOF) {
				return r.Body, nil
			}
			return nil, newException(271, "CANNOT_DECOMPRESS", "deflate request body: %v", err)
		}
		return readCloser{zr, r.Body.Close}, nil
	}
	return nil, newException(codeNotImplemented, "NOT_IMPLEMENTED",
		"Content-Encoding %q is not supported by sightline-chdb; use gzip, deflate or none (LZ4/ZSTD are not available)", enc)
}

// readStatement assembles the SQL from the query parameter and the body, as the server
// does: with a query parameter the body continues it, which for INSERT ... FORMAT is the
// data. Inline data is spooled to a file.
func (s *server) readStatement(req *request, queryParam string, body io.Reader) error {
	if queryParam != "" {
		if ins, ok := splitInsert(queryParam); ok {
			data := io.MultiReader(strings.NewReader(queryParam[ins.dataOffset:]), body)
			return s.spoolInsert(req, ins, data)
		}
		rest, err := readSQL(body, maxSQLSize-len(queryParam))
		if err != nil {
			return err
		}
		req.sql = queryParam
		if len(rest) > 0 {
			req.sql += "\n" + string(rest)
		}
		return nil
	}
	// Only the statement is needed in memory: look for INSERT ... FORMAT in the first
	// megabyte and stream whatever data follows it.
	head := make([]byte, 1<<20)
	n, err := io.ReadFull(body, head)
	head = head[:n]
	complete := errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF)
	if err != nil && !complete {
		return fmt.Errorf("reading request body: %w", err)
	}
	if ins, ok := splitInsert(string(head)); ok {
		data := io.MultiReader(bytes.NewReader(head[ins.dataOffset:]), body)
		return s.spoolInsert(req, ins, data)
	}
	if !complete {
		rest, err := readSQL(body, maxSQLSize-len(head))
		if err != nil {
			return err
		}
		head = append(head, rest...)
	}
	req.sql = string(head)
	return nil
}

func readSQL(r io.Reader, limit int) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r, int64(limit)+1))
	if err != nil {
		return nil, fmt.Errorf("reading request body: %w", err)
	}
	if len(b) > limit {
		return nil, newException(229, "QUERY_IS_TOO_LARGE", "query is larger than %d bytes", maxSQLSize)
	}
	return b, nil
}

// spoolInsert writes INSERT data to a file and rewrites the statement to read it with
// file(): chDB cuts data that follows FORMAT inline at the first blank line and runs the
// rest as SQL, which truncates binary formats silently.
func (s *server) spoolInsert(req *request, ins insertData, data io.Reader) error {
	req.logSQL = strings.TrimSpace(ins.head) + " FORMAT " + ins.format
	if req.readonly {
		return readonlyError(req.get)
	}
	if hasMultipleStatements(ins.head) {
		return multiStatementError()
	}
	if exc := refuseOutsideAccess(ins.head); exc != nil {
		return exc
	}
	// Unique names matter beyond collisions: file() caches inferred schemas by path.
	path := filepath.Join(s.spoolDir, fmt.Sprintf("insert-%d-%s.data", s.spoolSeq.Add(1), newQueryID()))
	f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return fmt.Errorf("spooling insert data: %w", err)
	}
	req.spoolPath = path
	n, err := io.Copy(f, data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	var exc *exception
	if errors.As(err, &exc) {
		return exc
	}
	if err != nil {
		return fmt.Errorf("spooling insert data: %w", err)
	}
	req.spoolBytes = n
	if n == 0 {
		req.noop = true
		return nil
	}
	req.sql = ins.head + "SELECT * FROM file(" + quoteString(path) + ", " + quoteString(ins.format) + ")"
	return nil
}

func readonlyError(get bool) *exception {
	if !get {
		return newException(codeReadonly, "READONLY", "Cannot execute query in readonly mode")
	}
	return newException(codeReadonly, "READONLY", "Cannot execute query in readonly mode. For queries over HTTP, method GET implies readonly. You should use method POST for modifying queries")
}

func multiStatementError() *exception {
	return newException(codeSyntaxError, "SYNTAX_ERROR", "Syntax error (Multi-statements are not allowed)")
}

// prepareStatement checks the SQL the way the HTTP interface would and rewrites what chDB
// needs rewritten.
func prepareStatement(req *request) error {
	if req.logSQL == "" {
		req.logSQL = req.sql
	}
	if req.spoolPath != "" {
		return nil
	}
	if tokenless(req.sql) {
		return newException(codeSyntaxError, "SYNTAX_ERROR", "Empty query")
	}
	if hasMultipleStatements(req.sql) {
		return multiStatementError()
	}
	if exc := refuseOutsideAccess(req.sql); exc != nil {
		return exc
	}
	if req.readonly && writeKeywords[firstKeyword(req.sql)] {
		return readonlyError(req.get)
	}
	if isHelloQuery(req.sql) && strings.EqualFold(req.format, "Native") {
		req.hello = true
		req.sql = helloValuesQuery
		req.format = "JSONCompactEachRow"
	}
	if sql, ok := stripDropSync(req.sql); ok {
		req.sql = sql
	}
	return nil
}

// tokenless reports whether sql holds nothing but blanks and comments.
func tokenless(sql string) bool {
	l := &lexer{s: sql}
	return l.next().kind == tokEnd
}

// execute runs req on a pooled connection. Per-request state (current database,
// settings) is set on the connection before and reset after; a connection whose state
// cannot be reset is replaced.
func (s *server) execute(ctx context.Context, req *request) (*result, error) {
	c, err := s.pool.acquire(ctx)
	if err != nil {
		return nil, err
	}
	clean := false // a panic in between retires the connection rather than losing it
	defer func() {
		if clean {
			s.pool.release(c)
		} else {
			s.pool.replace(c)
		}
	}()
	res, clean, err := runOn(c, req)
	return res, err
}

func runOn(c *conn, req *request) (res *result, clean bool, err error) {
	clean = true
	exec := func(sql string) error {
		r, err := c.query(sql, "TabSeparated", nil)
		if err == nil {
			r.free()
		}
		return err
	}
	if req.database != "" && req.database != "default" {
		if err := exec("USE " + quoteIdent(req.database)); err != nil {
			return nil, clean, err
		}
		defer func() {
			if exec("USE default") != nil {
				clean = false
			}
		}()
	}
	if len(req.settings) > 0 {
		if err := exec(setStatement(req.settings)); err != nil {
			// SET may have applied some settings before failing on another.
			return nil, false, err
		}
		defer func() {
			if exec(resetStatement(req.settings)) != nil {
				clean = false
			}
		}()
	}
	res, err = c.query(req.sql, req.format, req.params)
	if err == nil && changesSession(req.sql) {
		clean = false
	}
	return res, clean, err
}

var numberRe = regexp.MustCompile(`^-?[0-9]+(\.[0-9]+)?$`)

// setStatement applies the request's settings to the connection. Numbers go in as
// numbers and everything else as strings, which the server converts to the setting's type.
func setStatement(settings []setting) string {
	parts := make([]string, len(settings))
	for i, st := range settings {
		v := st.value
		if !numberRe.MatchString(v) {
			v = quoteString(v)
		}
		parts[i] = st.name + " = " + v
	}
	return "SET " + strings.Join(parts, ", ")
}

func resetStatement(settings []setting) string {
	parts := make([]string, len(settings))
	for i, st := range settings {
		parts[i] = st.name + " = DEFAULT"
	}
	return "SET " + strings.Join(parts, ", ")
}

func (s *server) writeResult(w http.ResponseWriter, req *request, res *result, data []byte) {
	h := w.Header()
	format := req.format
	if f := outputFormat(req.sql); f != "" && req.spoolPath == "" && !req.hello {
		format = f
	}
	h.Set("X-ClickHouse-Query-Id", req.queryID)
	h.Set("X-ClickHouse-Format", format)
	h.Set("Content-Type", contentType(format))
	if res != nil {
		h.Set("X-ClickHouse-Summary", summary(res))
	}
	if len(data) == 0 {
		h.Set("Content-Length", "0")
		w.WriteHeader(http.StatusOK)
		return
	}
	switch req.responseEncoding {
	case "gzip", "deflate":
		h.Set("Content-Encoding", req.responseEncoding)
		w.WriteHeader(http.StatusOK)
		var zw io.WriteCloser
		if req.responseEncoding == "gzip" {
			zw, _ = gzip.NewWriterLevel(w, req.compressionLevel)
		} else {
			zw, _ = zlib.NewWriterLevel(w, req.compressionLevel)
		}
		if _, err := zw.Write(data); err == nil {
			zw.Close()
		}
	default:
		h.Set("Content-Length", strconv.Itoa(len(data)))
		w.WriteHeader(http.StatusOK)
		w.Write(data)
	}
}

func summary(res *result) string {
	b, _ := json.Marshal(map[string]string{
		"read_rows":     strconv.FormatUint(res.rowsRead, 10),
		"read_bytes":    strconv.FormatUint(res.bytesRead, 10),
		"written_rows":  strconv.FormatUint(res.rowsWritten, 10),
		"written_bytes": strconv.FormatUint(res.bytesWritten, 10),
		"result_rows":   strconv.FormatUint(res.resultRows, 10),
		"result_bytes":  strconv.Itoa(len(res.data)),
		"elapsed_ns":    strconv.FormatInt(int64(res.elapsed*1e9), 10),
	})
	return string(b)
}

func contentType(format string) string {
	f := strings.ToLower(format)
	switch {
	case strings.HasPrefix(f, "tabseparated") || strings.HasPrefix(f, "tsv"):
		return "text/tab-separated-values; charset=UTF-8"
	case strings.HasPrefix(f, "json"):
		return "application/json; charset=UTF-8"
	case strings.HasPrefix(f, "csv"):
		return "text/csv; charset=UTF-8; header=absent"
	case strings.HasPrefix(f, "pretty") || f == "vertical" || f == "markdown" || f == "values":
		return "text/plain; charset=UTF-8"
	}
	return "application/octet-stream"
}

// writeException answers as the server does: status by code, the code in a header and
// the message in the body.
func writeException(w http.ResponseWriter, exc *exception) {
	h := w.Header()
	h.Set("Content-Type", "text/plain; charset=UTF-8")
	h.Set("X-ClickHouse-Exception-Code", strconv.Itoa(exc.code))
	w.WriteHeader(httpStatus(exc.code))
	io.WriteString(w, exc.text+"\n")
}

func (s *server) logRequest(req *request, res *result, exc *exception, d time.Duration) {
	attrs := []slog.Attr{
		slog.String("query_id", req.queryID),
		slog.String("sql", truncate(req.logSQL, 200)),
		slog.Float64("duration_ms", float64(d.Microseconds())/1000),
	}
	if req.database != "" {
		attrs = append(attrs, slog.String("database", req.database))
	}
	if req.spoolBytes > 0 {
		attrs = append(attrs, slog.Int64("insert_bytes", req.spoolBytes))
	}
	if res != nil {
		attrs = append(attrs,
			slog.Uint64("read_rows", res.rowsRead), slog.Uint64("read_bytes", res.bytesRead),
			slog.Uint64("result_rows", res.resultRows), slog.Int("result_bytes", len(res.data)))
		if res.rowsWritten > 0 {
			attrs = append(attrs, slog.Uint64("written_rows", res.rowsWritten), slog.Uint64("written_bytes", res.bytesWritten))
		}
	}
	level := slog.LevelInfo
	if exc != nil {
		attrs = append(attrs, slog.Int("code", exc.code), slog.String("error", exc.text))
		level = slog.LevelWarn
		if httpStatus(exc.code) >= 500 {
			level = slog.LevelError
		}
	}
	s.log.LogAttrs(context.Background(), level, "query", attrs...)
}

// truncate cuts s to at most n bytes without splitting a UTF-8 sequence.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

func utf8RuneStart(b byte) bool { return b&0xC0 != 0x80 }

// newQueryID returns a random UUID, as the server makes one when the client sends none.
func newQueryID() string {
	var b [16]byte
	rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}
