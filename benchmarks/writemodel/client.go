package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/sightline/sightline/benchmarks/internal/drive"
)

// client calls one Sightline API with one key.
type client struct {
	*drive.Client
}

// newClient is a client for the API at base (scheme://host:port) with
// conns connections to it.
func newClient(base, key string, conns int) (*client, error) {
	c, err := drive.NewClient(strings.TrimSuffix(base, "/"), key, conns, 30*time.Second)
	if err != nil {
		return nil, err
	}
	return &client{c}, nil
}

// mustCall is Call for the setup: any status but want is an error, and the
// body is decoded into out when out is not nil.
func (c *client) mustCall(ctx context.Context, method, path string, in any, want int, out any) (drive.Reply, error) {
	r, err := c.Call(ctx, method, path, in)
	if err != nil {
		return r, fmt.Errorf("%s %s: %w", method, path, err)
	}
	if r.Status != want {
		return r, fmt.Errorf("%s %s answered %d, want %d: %s", method, path, r.Status, want, drive.Snippet(r.Body))
	}
	if out != nil {
		if err := json.Unmarshal(r.Body, out); err != nil {
			return r, fmt.Errorf("%s %s: decoding answer: %w", method, path, err)
		}
	}
	return r, nil
}
