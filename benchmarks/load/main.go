// Command load drives HTTP load at one endpoint of a Sightline API on this
// machine and prints throughput and latency percentiles. It only targets
// loopback addresses, and every run is bounded in time and in requests.
//
//	go run ./benchmarks/load -url http://127.0.0.1:18080/api/v1/me -key sl_... -duration 20s -concurrency 16
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net/http"
	"os"
	"time"

	"github.com/sightline/sightline/benchmarks/internal/drive"
	"github.com/sightline/sightline/benchmarks/internal/measure"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "load:", err)
		os.Exit(1)
	}
}

func run() error {
	target := flag.String("url", "", "URL to GET (loopback only)")
	key := flag.String("key", "", "API key sent as a bearer token")
	duration := flag.Duration("duration", 20*time.Second, "how long to send load (at most 10m)")
	warmup := flag.Duration("warmup", 2*time.Second, "load sent first and not measured")
	concurrency := flag.Int("concurrency", 16, "requests in flight")
	maxRequests := flag.Int64("max-requests", 5_000_000, "stop after this many measured requests")
	flag.Parse()

	if *duration <= 0 || *duration > 10*time.Minute {
		return errors.New("-duration must be within (0, 10m]")
	}
	c, err := drive.NewClient(*target, *key, *concurrency, 10*time.Second)
	if err != nil {
		return err
	}
	get := func(int) drive.SendFunc {
		return func(ctx context.Context) (drive.Answer, error) {
			r, err := c.Call(ctx, http.MethodGet, "", nil)
			return r.Answer(0, r.Status == http.StatusOK), err
		}
	}

	// Warm-up: connections, pools and caches settle before measuring.
	ctx := context.Background()
	drive.Phase(ctx, *warmup, *concurrency, 1<<62, 1, get)
	r := drive.Phase(ctx, *duration, *concurrency, *maxRequests, 1, get)

	latencies := r.Sorted()
	_, non200 := r.Counts()
	n := len(latencies)
	if n == 0 {
		return fmt.Errorf("no request succeeded (%d errors)", r.Errors)
	}
	fmt.Printf("target       %s\n", *target)
	fmt.Printf("concurrency  %d\n", *concurrency)
	fmt.Printf("requests     %d in %.1fs (%d non-200, %d transport errors)\n", n, r.Elapsed.Seconds(), non200, r.Errors)
	fmt.Printf("throughput   %.0f requests/s\n", float64(n)/r.Elapsed.Seconds())
	fmt.Printf("latency      %s\n", measure.Summary(latencies))
	if non200 > 0 {
		return fmt.Errorf("%d responses were not 200 (rate limits not raised, or a bad key?)", non200)
	}
	return nil
}
