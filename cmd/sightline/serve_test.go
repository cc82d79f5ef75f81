package main

import (
	"bufio"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// A client that stops reading cannot hold its answer open: the write
// deadline closes the connection.
func TestSlowReaderIsCutOff(t *testing.T) {
	t.Parallel()
	const size = 64 << 20
	chunk := []byte(strings.Repeat("x", 1<<16))
	handler := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Length", fmt.Sprint(size))
		for range size / len(chunk) {
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	})
	srv := newHTTPServer(handler, config{WriteTimeout: 300 * time.Millisecond}, slog.New(slog.DiscardHandler))
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })

	conn, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := io.WriteString(conn, "GET / HTTP/1.1\r\nHost: x\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	time.Sleep(time.Second) // a reader that does not read
	_ = conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	n, _ := io.Copy(io.Discard, bufio.NewReader(conn))
	if n >= size {
		t.Fatalf("the whole %d-byte answer arrived after the write deadline", n)
	}
}
