//go:build linux

package main

import (
	"os"
	"os/signal"
	"syscall"
	"testing"
	"time"
)

// TestGoPanicsSurviveTheEngine loads libchdb.so into the test process, opens a connection
// (which is when chDB installs its handlers) and runs a query, then checks that a nil
// dereference is still a recoverable Go panic and that os/signal still delivers signals.
func TestGoPanicsSurviveTheEngine(t *testing.T) {
	lib, err := loadLibrary(libchdbPath(t))
	if err != nil {
		t.Fatal(err)
	}
	before, err := snapshotSignals()
	if err != nil {
		t.Fatal(err)
	}
	c, err := lib.open(nil) // in memory
	if err != nil {
		t.Fatal(err)
	}
	defer c.close()
	res, err := c.query("SELECT sum(number) FROM numbers(1000000)", "TabSeparated", nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := string(res.data); got != "499999500000\n" {
		t.Errorf("query answered %q", got)
	}
	res.free()

	after, err := snapshotSignals()
	if err != nil {
		t.Fatal(err)
	}
	for _, sig := range []syscall.Signal{syscall.SIGSEGV, syscall.SIGBUS, syscall.SIGFPE, syscall.SIGABRT, syscall.SIGILL, syscall.SIGTRAP, syscall.SIGSYS} {
		if before[sig] != after[sig] {
			t.Errorf("handler of %v changed: %+v -> %+v", sig, before[sig], after[sig])
		}
	}

	recovered := func() (r any) {
		defer func() { r = recover() }()
		var p *struct{ x int }
		return p.x // nil dereference: SIGSEGV, which Go turns into a panic
	}()
	if recovered == nil {
		t.Fatal("nil dereference did not panic")
	}
	t.Logf("recovered: %v", recovered)

	ch := make(chan os.Signal, 1)
	signal.Notify(ch, syscall.SIGUSR2)
	defer signal.Stop(ch)
	syscall.Kill(os.Getpid(), syscall.SIGUSR2)
	select {
	case <-ch:
	case <-time.After(5 * time.Second):
		t.Error("SIGUSR2 not delivered through os/signal")
	}
}
