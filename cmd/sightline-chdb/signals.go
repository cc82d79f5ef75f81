//go:build linux

package main

import (
	"fmt"
	"syscall"
	"unsafe"
)

// kernelSigaction is the kernel's struct sigaction on Linux (amd64 and arm64 layout), the
// form rt_sigaction(2) reads and writes: not libc's, which differs in field order.
type kernelSigaction struct {
	handler  uintptr
	flags    uint64
	restorer uintptr
	mask     uint64
}

// maxSignal is the highest signal number on Linux (SIGRTMAX).
const maxSignal = 64

const (
	sigDFL = 0 // SIG_DFL
	sigIGN = 1 // SIG_IGN
)

// signalSet is a snapshot of the process's signal dispositions, indexed by signal number.
type signalSet [maxSignal + 1]kernelSigaction

// snapshotSignals reads the current disposition of every signal from the kernel.
func snapshotSignals() (*signalSet, error) {
	var s signalSet
	for sig := 1; sig <= maxSignal; sig++ {
		if err := rtSigaction(sig, nil, &s[sig]); err != nil {
			return nil, fmt.Errorf("reading handler of signal %d: %w", sig, err)
		}
	}
	return &s, nil
}

// restoreSignals puts back every handler in before that a library call replaced.
//
// libchdb installs its own handlers for SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTRAP
// and SIGSYS when a connection opens. With those in place a nil dereference in Go code no
// longer becomes a recoverable panic: chDB's handler prints a trace and kills the process.
// Every signal for which a handler was installed before the call (the Go runtime's, in this
// process) gets it back. Signals that were at SIG_DFL before are left to chDB: the Go
// runtime never claimed them, and chDB relies on some of them, e.g. SIGRTMIN, which its
// system.stack_trace table sends to its own threads and which would kill the process at
// SIG_DFL.
func restoreSignals(before *signalSet) error {
	for sig := 1; sig <= maxSignal; sig++ {
		was := before[sig]
		if was.handler == sigDFL {
			continue
		}
		var now kernelSigaction
		if err := rtSigaction(sig, nil, &now); err != nil {
			return fmt.Errorf("reading handler of signal %d: %w", sig, err)
		}
		if now == was {
			continue
		}
		if err := rtSigaction(sig, &was, nil); err != nil {
			return fmt.Errorf("restoring handler of signal %d: %w", sig, err)
		}
	}
	return nil
}

// withGoSignalHandlers runs fn, which calls into libchdb, and then gives the Go runtime
// back the signal handlers fn replaced.
func withGoSignalHandlers(fn func() error) error {
	before, err := snapshotSignals()
	if err != nil {
		return err
	}
	fnErr := fn()
	if err := restoreSignals(before); err != nil {
		return err
	}
	return fnErr
}

func rtSigaction(sig int, act, old *kernelSigaction) error {
	// SIGKILL and SIGSTOP cannot be changed; reading them works.
	_, _, errno := syscall.RawSyscall6(syscall.SYS_RT_SIGACTION, uintptr(sig),
		uintptr(unsafe.Pointer(act)), uintptr(unsafe.Pointer(old)), 8, 0, 0)
	if errno != 0 {
		return errno
	}
	return nil
}
