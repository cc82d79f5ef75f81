package drive

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"time"

	"github.com/google/uuid"

	"github.com/sightline/sightline/benchmarks/internal/measure"
)

// Client calls one API on this machine with one key.
type Client struct {
	HTTP *http.Client
	base string
	key  string
}

// NewClient is a client for the API at base, which must be on this
// machine, with conns connections to it and timeout for each answer. The
// path of a call is appended to base.
func NewClient(base, key string, conns int, timeout time.Duration) (*Client, error) {
	if err := measure.CheckLoopback(base); err != nil {
		return nil, err
	}
	transport := &http.Transport{MaxIdleConnsPerHost: conns, MaxConnsPerHost: conns}
	return &Client{HTTP: &http.Client{Transport: transport, Timeout: timeout}, base: base, key: key}, nil
}

// Reply is one answer: its status, its body and the time from sending the
// request to reading the last byte of the body.
type Reply struct {
	Status  int
	Body    []byte
	Latency time.Duration
}

// Call sends one request and reads the whole answer; in (when not nil) is
// sent as JSON. Writes carry a fresh Idempotency-Key each.
func (c *Client) Call(ctx context.Context, method, path string, in any) (Reply, error) {
	var body io.Reader
	if in != nil {
		b, err := json.Marshal(in)
		if err != nil {
			return Reply{}, err
		}
		body = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, body)
	if err != nil {
		return Reply{}, err
	}
	if c.key != "" {
		req.Header.Set("Authorization", "Bearer "+c.key)
	}
	if in != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if method != http.MethodGet {
		req.Header.Set("Idempotency-Key", uuid.NewString())
	}
	start := time.Now()
	res, err := c.HTTP.Do(req)
	if err != nil {
		return Reply{}, err
	}
	b, err := io.ReadAll(res.Body)
	res.Body.Close()
	if err != nil {
		return Reply{}, err
	}
	return Reply{Status: res.StatusCode, Body: b, Latency: time.Since(start)}, nil
}
