//go:build linux

package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/ClickHouse/clickhouse-go/v2"
	"github.com/ClickHouse/clickhouse-go/v2/lib/driver"
)

// The integration tests run the command as a subprocess (this test binary re-executed
// with serveEnv set), the way dev/clickhouse.sh runs it: the engine allows one data
// path per process and cannot be restarted in-process reliably, and a subprocess is what
// a restart or a SIGTERM needs anyway.
const serveEnv = "SIGHTLINE_CHDB_TEST_SERVE"

func TestMain(m *testing.M) {
	if os.Getenv(serveEnv) == "1" {
		if err := run(context.Background(), os.Args[1:], os.Getenv, os.Stderr); err != nil {
			fmt.Fprintln(os.Stderr, "sightline-chdb:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	code := m.Run()
	shared.stop()
	os.Exit(code)
}

// libchdbPath finds libchdb.so from SIGHTLINE_LIBCHDB or .local/chdb under the repository
// root, and skips the test when there is none.
func libchdbPath(t testing.TB) string {
	t.Helper()
	if p := os.Getenv("SIGHTLINE_LIBCHDB"); p != "" {
		if _, err := os.Stat(p); err != nil {
			t.Fatalf("SIGHTLINE_LIBCHDB=%s: %v", p, err)
		}
		return p
	}
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Skip("libchdb.so not found: no go.mod above the test directory")
		}
		dir = parent
	}
	p := filepath.Join(dir, ".local", "chdb", "libchdb.so")
	if _, err := os.Stat(p); err != nil {
		t.Skipf("libchdb.so not found at %s and SIGHTLINE_LIBCHDB not set; run dev/clickhouse.sh fetch", p)
	}
	return p
}

// testPassword is the password the test servers require, as a developer's
// endpoint does with SIGHTLINE_CH_PASSWORD set; the user is "default".
const testPassword = "test-password-123"

// testServer is a sightline-chdb subprocess.
type testServer struct {
	addr     string
	dataDir  string
	password string // what the server requires (user "default")
	cmd      *exec.Cmd
	exited   chan struct{}
	waitErr  error

	mu  sync.Mutex
	log bytes.Buffer
}

// startServer starts the command on a random loopback port with dataDir,
// requiring testPassword.
func startServer(t testing.TB, dataDir string, extraArgs ...string) *testServer {
	t.Helper()
	return startServerWithPassword(t, dataDir, testPassword, extraArgs...)
}

func startServerWithPassword(t testing.TB, dataDir, password string, extraArgs ...string) *testServer {
	t.Helper()
	ts, err := launchServer(libchdbPath(t), dataDir, password, extraArgs...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := ts.stop(); err != nil {
			t.Errorf("stopping server: %v\n%s", err, ts.output())
		}
		if t.Failed() {
			t.Logf("server log:\n%s", ts.output())
		}
	})
	return ts
}

func launchServer(lib, dataDir, password string, extraArgs ...string) (*testServer, error) {
	args := append([]string{"-addr", "127.0.0.1:0", "-path", dataDir, "-lib", lib}, extraArgs...)
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), serveEnv+"=1", "SIGHTLINE_CH_USER=", "SIGHTLINE_CH_PASSWORD="+password)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return nil, err
	}
	ts := &testServer{dataDir: dataDir, password: password, cmd: cmd, exited: make(chan struct{})}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	addr := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			line := sc.Bytes()
			ts.mu.Lock()
			ts.log.Write(line)
			ts.log.WriteByte('\n')
			ts.mu.Unlock()
			var entry struct{ Msg, Addr string }
			if json.Unmarshal(line, &entry) == nil && entry.Msg == "listening" {
				addr <- entry.Addr
			}
		}
		io.Copy(io.Discard, stderr)
		ts.waitErr = cmd.Wait()
		close(ts.exited)
	}()
	select {
	case ts.addr = <-addr:
		return ts, nil
	case <-ts.exited:
		return nil, fmt.Errorf("server exited during startup: %v\n%s", ts.waitErr, ts.output())
	case <-time.After(60 * time.Second):
		cmd.Process.Kill()
		return nil, fmt.Errorf("server did not start within 60s\n%s", ts.output())
	}
}

func (ts *testServer) output() string {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	return ts.log.String()
}

// stop sends SIGTERM and waits for a clean exit.
func (ts *testServer) stop() error {
	if ts == nil {
		return nil
	}
	select {
	case <-ts.exited:
		return ts.waitErr
	default:
	}
	if err := ts.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		return err
	}
	select {
	case <-ts.exited:
		return ts.waitErr
	case <-time.After(60 * time.Second):
		ts.cmd.Process.Kill()
		<-ts.exited
		return errors.New("server did not exit within 60s of SIGTERM")
	}
}

func (ts *testServer) url() string { return "http://" + ts.addr }

// open connects clickhouse-go/v2 over HTTP, as the app does.
func (ts *testServer) open(t testing.TB, database string, configure ...func(*clickhouse.Options)) driver.Conn {
	t.Helper()
	opts := &clickhouse.Options{
		Addr:        []string{ts.addr},
		Protocol:    clickhouse.HTTP,
		Auth:        clickhouse.Auth{Database: database, Username: "default", Password: ts.password},
		DialTimeout: 5 * time.Second,
	}
	for _, c := range configure {
		c(opts)
	}
	conn, err := clickhouse.Open(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return conn
}

// get sends a raw HTTP request, for what the driver does not show (status, headers).
func (ts *testServer) do(t testing.TB, method, sql string, params url.Values, header http.Header) (*http.Response, string) {
	t.Helper()
	u := ts.url() + "/"
	var body io.Reader
	if method == http.MethodGet {
		if params == nil {
			params = url.Values{}
		}
		params.Set("query", sql)
	} else {
		body = strings.NewReader(sql)
	}
	if len(params) > 0 {
		u += "?" + params.Encode()
	}
	req, err := http.NewRequest(method, u, body)
	if err != nil {
		t.Fatal(err)
	}
	req.SetBasicAuth("default", ts.password)
	for k, v := range header {
		req.Header[k] = v
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, string(b)
}

// sharedState is the server most tests use, each in its own database, started by the
// first test that needs it and stopped by TestMain.
type sharedState struct {
	once sync.Once
	ts   *testServer
	err  error
}

var shared sharedState

func sharedServer(t testing.TB) *testServer {
	t.Helper()
	lib := libchdbPath(t)
	shared.once.Do(func() {
		dir, err := os.MkdirTemp("", "sightline-chdb-test-")
		if err != nil {
			shared.err = err
			return
		}
		shared.ts, shared.err = launchServer(lib, dir, testPassword)
	})
	if shared.err != nil {
		t.Fatal(shared.err)
	}
	return shared.ts
}

func (s *sharedState) stop() {
	if s.ts == nil {
		return
	}
	if err := s.ts.stop(); err != nil {
		fmt.Fprintf(os.Stderr, "stopping shared server: %v\n%s", err, s.ts.output())
	}
	os.RemoveAll(s.ts.dataDir)
}

// setup returns the shared server and a connection to a fresh database of the test's own.
func setup(t *testing.T) (*testServer, driver.Conn, string) {
	t.Helper()
	ts := sharedServer(t)
	db := "t_" + strings.ToLower(strings.NewReplacer("/", "_", "-", "_").Replace(t.Name()))
	admin := ts.open(t, "default")
	ctx := context.Background()
	if err := admin.Exec(ctx, "DROP DATABASE IF EXISTS "+db); err != nil {
		t.Fatal(err)
	}
	if err := admin.Exec(ctx, "CREATE DATABASE "+db); err != nil {
		t.Fatal(err)
	}
	return ts, ts.open(t, db), db
}
