//go:build linux

package main

import (
	"context"
	"errors"
	"testing"
	"time"
)

func TestAcquireGivesUpWithTheRequest(t *testing.T) {
	t.Parallel()
	p := &pool{idle: make(chan *conn, 1)} // every connection busy
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, err := p.acquire(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("acquire = %v, want the context's error", err)
	}
	if exc := asException(context.Canceled); exc.code != codeQueryWasCancelled {
		t.Errorf("cancelled wait answered with code %d", exc.code)
	}

	c := &conn{}
	go func() {
		time.Sleep(20 * time.Millisecond)
		p.release(c)
	}()
	got, err := p.acquire(context.Background())
	if err != nil || got != c {
		t.Fatalf("acquire after release = %v, %v", got, err)
	}
}
