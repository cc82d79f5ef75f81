package drive_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/sightline/sightline/benchmarks/internal/drive"
)

func TestClientCall(t *testing.T) {
	t.Parallel()
	seen := make(chan string, 2)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		idempotent := r.Header.Get("Idempotency-Key") != ""
		seen <- r.Method + " " + r.URL.RequestURI() + " [" + r.Header.Get("Authorization") + "] [" +
			r.Header.Get("Content-Type") + "] " + string(body) + map[bool]string{true: " idempotent"}[idempotent]
		_, _ = w.Write([]byte("answer"))
	}))
	t.Cleanup(srv.Close)
	c, err := drive.NewClient(srv.URL, "sl_key", 2, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	r, err := c.Call(ctx, http.MethodGet, "/a?b=1", nil)
	if err != nil || r.Status != http.StatusOK || string(r.Body) != "answer" || r.Latency <= 0 {
		t.Errorf("GET = %d %q %s, %v", r.Status, r.Body, r.Latency, err)
	}
	if got, want := <-seen, "GET /a?b=1 [Bearer sl_key] [] "; got != want {
		t.Errorf("server saw %q, want %q", got, want)
	}
	if _, err := c.Call(ctx, http.MethodPost, "/a", map[string]int{"n": 1}); err != nil {
		t.Fatal(err)
	}
	if got, want := <-seen, `POST /a [Bearer sl_key] [application/json] {"n":1} idempotent`; got != want {
		t.Errorf("server saw %q, want %q", got, want)
	}

	if _, err := drive.NewClient("http://10.0.0.1:8080", "", 1, time.Second); err == nil {
		t.Error("NewClient accepted a target off this machine")
	}
}
