//go:build linux

// Command sightline-chdb serves the embedded ClickHouse engine (chDB, libchdb.so) over
// ClickHouse's HTTP interface, so development machines and CI, which cannot run a
// ClickHouse server, use the same clickhouse-go/v2 code path (Protocol: clickhouse.HTTP)
// as production, which talks to a real ClickHouse server. It is a development tool:
// never point production at it.
//
// It serves the part of the HTTP interface clickhouse-go/v2 uses: GET /ping; GET and POST
// on / with the SQL in the body or the query parameter (GET is read-only, as on the
// server); INSERT ... FORMAT <fmt> with the data in the body, spooled to a file and read
// with the file() table function, because chDB cuts inline data at the first blank line;
// the URL parameters default_format (TabSeparated when absent, as on the server; the
// driver always asks for Native), database, query_id, param_<name>, and any other
// parameter as a setting for that request only; gzip and deflate request and response
// bodies; errors as "Code: N. DB::Exception: ..." with X-ClickHouse-Exception-Code and
// the server's status codes. The driver's handshake query is answered in the driver's
// block layout and names revision 0, which makes the driver read every later result as
// the plain Native format chDB writes.
//
// It does not serve sessions (session_id), temporary tables, SET or USE beyond the
// request that sends them, multi-statement queries, LZ4/ZSTD compression (compress,
// decompress), external tables, progress headers, users beyond the one configured, the
// native TCP protocol, cancelling a running query, or streaming: every result is
// buffered in memory before it is sent. DROP ... SYNC runs as a plain DROP because SYNC
// hangs in chDB.
//
// It is locked down for a developer's machine: every query must carry the configured user
// (-user, default "default") and password (SIGHTLINE_CH_PASSWORD, default empty) in the
// Authorization header or X-ClickHouse-User/X-ClickHouse-Key, as clickhouse-go sends them
// (never in the URL); a request with an Origin or Sec-Fetch-Site header, which only a
// browser sends, is refused, so no web page can reach it; and SQL that calls a table
// function, engine or dictionary source reaching files, programs, URLs or other servers
// (file, url, s3, remote, executable, ...), or uses INTO OUTFILE or FROM INFILE, is
// refused with ACCESS_DENIED. GET /ping and GET / without a query need no credentials.
//
// Usage:
//
//	sightline-chdb [-addr 127.0.0.1:18123] [-path .local/clickhouse] [-conns 4] [-lib .local/chdb/libchdb.so] [-user default]
//
// SIGTERM or SIGINT stops accepting requests, lets running queries finish, closes the
// engine and exits 0. Data under -path survives restarts. dev/clickhouse.sh runs it.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"syscall"
	"time"
)

func main() {
	if err := run(context.Background(), os.Args[1:], os.Getenv, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "sightline-chdb:", err)
		os.Exit(1)
	}
}

// config is what the command is told on its command line and in its environment.
type config struct {
	addr     string
	path     string
	conns    int
	lib      string
	spoolDir string
	user     string
	password string
}

func parseConfig(args []string, getenv func(string) string, stderr io.Writer) (config, error) {
	envOr := func(name, def string) string {
		if v := getenv(name); v != "" {
			return v
		}
		return def
	}
	conns, err := strconv.Atoi(envOr("SIGHTLINE_CH_CONNS", "4"))
	if err != nil {
		return config{}, fmt.Errorf("SIGHTLINE_CH_CONNS: %w", err)
	}
	var cfg config
	fs := flag.NewFlagSet("sightline-chdb", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&cfg.addr, "addr", envOr("SIGHTLINE_CH_ADDR", "127.0.0.1:18123"), "listen address (env SIGHTLINE_CH_ADDR)")
	fs.StringVar(&cfg.path, "path", envOr("SIGHTLINE_CH_PATH", ".local/clickhouse"), `data directory, persisted; "" keeps data in memory (env SIGHTLINE_CH_PATH)`)
	fs.IntVar(&cfg.conns, "conns", conns, "pooled chDB connections, each runs one query at a time (env SIGHTLINE_CH_CONNS)")
	fs.StringVar(&cfg.lib, "lib", envOr("SIGHTLINE_LIBCHDB", ".local/chdb/libchdb.so"), "path of libchdb.so (env SIGHTLINE_LIBCHDB)")
	fs.StringVar(&cfg.spoolDir, "spool-dir", os.TempDir(), "directory for INSERT data spooled before the engine reads it")
	fs.StringVar(&cfg.user, "user", envOr("SIGHTLINE_CH_USER", "default"), "the user every query must name (env SIGHTLINE_CH_USER)")
	// The password comes from the environment only: a command line is
	// visible to every user of the machine.
	cfg.password = getenv("SIGHTLINE_CH_PASSWORD")
	if err := fs.Parse(args); err != nil {
		return config{}, err
	}
	if fs.NArg() > 0 {
		return config{}, fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	if cfg.conns < 1 {
		return config{}, fmt.Errorf("-conns %d: need at least one connection", cfg.conns)
	}
	return cfg, nil
}

// run serves until ctx ends or SIGINT/SIGTERM arrives, then shuts down gracefully.
func run(ctx context.Context, args []string, getenv func(string) string, stderr io.Writer) error {
	cfg, err := parseConfig(args, getenv, stderr)
	if err != nil {
		return err
	}
	log := slog.New(slog.NewJSONHandler(stderr, nil))

	ctx, stop := signal.NotifyContext(ctx, syscall.SIGINT, syscall.SIGTERM)
	defer stop()

	ln, err := net.Listen("tcp", cfg.addr)
	if err != nil {
		return err
	}
	defer ln.Close()

	start := time.Now()
	lib, err := loadLibrary(cfg.lib)
	if err != nil {
		return err
	}
	var engineArgs []string
	if cfg.path != "" && cfg.path != ":memory:" {
		path, err := filepath.Abs(cfg.path)
		if err != nil {
			return err
		}
		if err := os.MkdirAll(path, 0o755); err != nil {
			return err
		}
		engineArgs = append(engineArgs, "--path="+path)
	}
	p, err := newPool(lib, engineArgs, cfg.conns, log)
	if err != nil {
		return err
	}
	defer p.close()

	spoolDir, err := os.MkdirTemp(cfg.spoolDir, "sightline-chdb-spool-")
	if err != nil {
		return fmt.Errorf("creating spool directory: %w", err)
	}
	defer os.RemoveAll(spoolDir)

	srv := &http.Server{
		Handler:           newHandler(log, p, spoolDir, credentials{user: cfg.user, password: cfg.password}),
		ReadHeaderTimeout: 30 * time.Second,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
	serveErr := make(chan error, 1)
	go func() { serveErr <- srv.Serve(ln) }()
	log.Info("listening", slog.String("addr", ln.Addr().String()), slog.String("path", cfg.path),
		slog.Int("conns", cfg.conns), slog.Duration("startup", time.Since(start)))

	select {
	case err := <-serveErr:
		return err
	case <-ctx.Done():
	}
	// From here a second signal terminates the process the default way.
	stop()
	log.Info("shutting down: finishing running queries")
	if err := srv.Shutdown(context.Background()); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	if err := p.close(); err != nil {
		return fmt.Errorf("closing the engine: %w", err)
	}
	log.Info("stopped")
	return nil
}
