// Package dbtest holds what the test packages of both engines (oltptest,
// olaptest) do alike: find the server, name a database of the test's own,
// create it, point a URL at it and drop it when the test ends. Each engine
// says only how it creates, migrates and drops a database.
package dbtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/url"
	"os"
	"testing"
	"time"
)

// Server is a database server on which tests create databases of their
// own.
type Server struct {
	// Engine names the server in messages: "postgres", "clickhouse".
	Engine string
	// Env is the environment variable that names the server's URL, and
	// DefaultURL the URL when it is unset: the server `make test` starts.
	Env, DefaultURL string
	// CreateFunc creates database name on the server at serverURL.
	CreateFunc func(ctx context.Context, serverURL, name string) error
	// MigrateFunc migrates the new database at dbURL; nil when CreateFunc
	// already made it migrated.
	MigrateFunc func(ctx context.Context, dbURL string) error
	// DropFunc drops database name on the server at serverURL if it exists.
	DropFunc func(ctx context.Context, serverURL, name string) error
}

// URL is the value of s.Env, or s.DefaultURL when it is unset or empty.
func (s Server) URL() string {
	if u := os.Getenv(s.Env); u != "" {
		return u
	}
	return s.DefaultURL
}

// NewDatabase creates a migrated database for this test, dropped when the
// test ends, and returns its URL.
func (s Server) NewDatabase(t testing.TB) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	serverURL := s.URL()
	name := newName()
	dbURL, err := WithDatabase(serverURL, name)
	if err != nil {
		t.Fatalf("%s: %v", s.Env, err)
	}
	if err := s.CreateFunc(ctx, serverURL, name); err != nil {
		t.Fatalf("creating a test database on %s at %s (run `make test`, which starts it): %v", s.Engine, serverURL, err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if err := s.DropFunc(ctx, serverURL, name); err != nil {
			t.Errorf("dropping %s: %v", name, err)
		}
	})
	if s.MigrateFunc != nil {
		if err := s.MigrateFunc(ctx, dbURL); err != nil {
			t.Fatalf("migrating test database: %v", err)
		}
	}
	return dbURL
}

// newName returns a database name no other test uses.
func newName() string {
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	return "test_" + hex.EncodeToString(b)
}

// WithDatabase is serverURL naming database name instead of its own.
func WithDatabase(serverURL, name string) (string, error) {
	u, err := url.Parse(serverURL)
	if err != nil {
		return "", fmt.Errorf("server URL is not a URL: %w", err)
	}
	u.Path = "/" + name
	return u.String(), nil
}
