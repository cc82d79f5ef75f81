package drive

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"time"
)

// Main runs a driver: an error run returns is printed after name, and the
// driver exits with status 1.
func Main(name string, run func() error) {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, name+":", err)
		os.Exit(1)
	}
}

// Flags are the flags every load driver takes.
type Flags struct {
	URL         string        // where the load goes, loopback only
	Key         string        // API key, sent as a bearer token
	Duration    time.Duration // how long each measured phase sends load
	Warmup      time.Duration // load sent before each measured phase and not measured
	Concurrency int           // requests in flight
	MaxRequests int64         // measured requests that end a phase early
}

// DefineFlags defines the flags every load driver takes on the command
// line. url and key tell what -url and -key name; concurrency and
// maxRequests are the defaults of -concurrency and -max-requests.
func DefineFlags(url, key string, concurrency int, maxRequests int64) *Flags {
	f := &Flags{}
	flag.StringVar(&f.URL, "url", "", url)
	flag.StringVar(&f.Key, "key", "", key)
	flag.DurationVar(&f.Duration, "duration", 20*time.Second, "how long each measured phase sends load (at most 10m)")
	flag.DurationVar(&f.Warmup, "warmup", 2*time.Second, "load sent before each measured phase and not measured")
	flag.IntVar(&f.Concurrency, "concurrency", concurrency, "requests in flight")
	flag.Int64Var(&f.MaxRequests, "max-requests", maxRequests, "stop a measured phase after this many requests")
	return f
}

// Check refuses a duration out of (0, 10m] and a concurrency or request
// budget below one. NewClient checks the URL.
func (f *Flags) Check() error {
	switch {
	case f.Duration <= 0 || f.Duration > 10*time.Minute:
		return errors.New("-duration must be within (0, 10m]")
	case f.Concurrency < 1 || f.MaxRequests < 1:
		return errors.New("-concurrency and -max-requests must be positive")
	}
	return nil
}
