// Package dbtest holds what the test packages of both engines (oltptest,
// olaptest) do alike: find the server, name a database of the test's own,
// point a URL at it and drop it when the test ends.
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

// ServerURL is the value of the environment variable env, or fallback when
// it is unset or empty.
func ServerURL(env, fallback string) string {
	if u := os.Getenv(env); u != "" {
		return u
	}
	return fallback
}

// NewName returns a database name no other test uses.
func NewName() string {
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

// DropAtCleanup runs drop, which drops the test's database, when t ends,
// reporting its failure as a test error.
func DropAtCleanup(t testing.TB, name string, drop func(ctx context.Context) error) {
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if err := drop(ctx); err != nil {
			t.Errorf("dropping %s: %v", name, err)
		}
	})
}
