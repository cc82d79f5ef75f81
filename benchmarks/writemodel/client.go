package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/sightline/sightline/benchmarks/internal/measure"
)

// client calls one Sightline API with one key. Writes carry a fresh
// Idempotency-Key each.
type client struct {
	http *http.Client
	base string // scheme://host:port
	key  string
}

func newClient(base, key string, conns int) (*client, error) {
	if err := measure.CheckLoopback(base); err != nil {
		return nil, err
	}
	transport := &http.Transport{MaxIdleConnsPerHost: conns, MaxConnsPerHost: conns}
	return &client{
		http: &http.Client{Transport: transport, Timeout: 30 * time.Second},
		base: strings.TrimSuffix(base, "/"),
		key:  key,
	}, nil
}

// reply is one answer: its status, its body and the time from sending the
// request to reading the last byte of the body.
type reply struct {
	status  int
	body    []byte
	latency time.Duration
}

// call sends one request; in (when not nil) is sent as JSON.
func (c *client) call(ctx context.Context, method, path string, in any) (reply, error) {
	var body io.Reader
	if in != nil {
		b, err := json.Marshal(in)
		if err != nil {
			return reply{}, err
		}
		body = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, body)
	if err != nil {
		return reply{}, err
	}
	req.Header.Set("Authorization", "Bearer "+c.key)
	if in != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if method != http.MethodGet {
		req.Header.Set("Idempotency-Key", uuid.NewString())
	}
	start := time.Now()
	res, err := c.http.Do(req)
	if err != nil {
		return reply{}, err
	}
	b, err := io.ReadAll(res.Body)
	res.Body.Close()
	if err != nil {
		return reply{}, err
	}
	return reply{status: res.StatusCode, body: b, latency: time.Since(start)}, nil
}

// mustCall is call for the setup: any status but want is an error, and the
// body is decoded into out when out is not nil.
func (c *client) mustCall(ctx context.Context, method, path string, in any, want int, out any) (reply, error) {
	r, err := c.call(ctx, method, path, in)
	if err != nil {
		return r, fmt.Errorf("%s %s: %w", method, path, err)
	}
	if r.status != want {
		return r, fmt.Errorf("%s %s answered %d, want %d: %s", method, path, r.status, want, snippet(r.body))
	}
	if out != nil {
		if err := json.Unmarshal(r.body, out); err != nil {
			return r, fmt.Errorf("%s %s: decoding answer: %w", method, path, err)
		}
	}
	return r, nil
}

func snippet(b []byte) string {
	if len(b) > 300 {
		return string(b[:300]) + "..."
	}
	return string(b)
}
