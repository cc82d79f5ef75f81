//go:build linux

package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
)

// pool holds the chDB connections requests run on. All share one engine and data path;
// each runs one query at a time, different ones run in parallel.
type pool struct {
	lib    *library
	args   []string
	log    *slog.Logger
	idle   chan *conn
	size   int
	anchor *conn // held outside the pool so the engine never shuts down while one is replaced

	closeOnce sync.Once
}

// newPool boots the engine with args and opens size connections on it.
func newPool(lib *library, args []string, size int, log *slog.Logger) (*pool, error) {
	if size < 1 {
		return nil, fmt.Errorf("pool size %d: need at least one connection", size)
	}
	anchor, err := lib.open(args)
	if err != nil {
		return nil, fmt.Errorf("starting the engine: %w", err)
	}
	p := &pool{lib: lib, args: args, log: log, idle: make(chan *conn, size), size: size, anchor: anchor}
	for range size {
		c, err := lib.open(args)
		if err != nil {
			p.close()
			return nil, fmt.Errorf("opening connection: %w", err)
		}
		p.idle <- c
	}
	return p, nil
}

// acquire waits for a free connection or for ctx to end.
func (p *pool) acquire(ctx context.Context) (*conn, error) {
	select {
	case c := <-p.idle:
		return c, nil
	default:
	}
	select {
	case c := <-p.idle:
		return c, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// release returns a connection whose state is as it was when acquired.
func (p *pool) release(c *conn) { p.idle <- c }

// replace retires a connection whose session state may have changed (a setting or the
// current database that could not be reset, a temporary table) and puts a fresh one in
// its place.
func (p *pool) replace(c *conn) {
	fresh, err := p.lib.open(p.args)
	if err != nil {
		// Keeping the pool at its size matters more than a stray session setting.
		p.log.Error("replacing chdb connection failed; keeping the old one", slog.Any("error", err))
		p.idle <- c
		return
	}
	if err := c.close(); err != nil {
		p.log.Error("closing chdb connection", slog.Any("error", err))
	}
	p.idle <- fresh
}

// close closes every connection, the anchor last, which shuts the engine down. All
// connections must have been released.
func (p *pool) close() error {
	var errs []error
	p.closeOnce.Do(func() {
		for {
			select {
			case c := <-p.idle:
				errs = append(errs, c.close())
				continue
			default:
			}
			break
		}
		errs = append(errs, p.anchor.close())
	})
	return errors.Join(errs...)
}
