// Command load drives HTTP load at one endpoint of a Sightline API on this
// machine and prints throughput and latency percentiles. It only targets
// loopback addresses, and every run is bounded in time and in requests.
//
//	go run ./benchmarks/load -url http://127.0.0.1:18080/api/v1/me -key sl_... -duration 20s -concurrency 16
package main

import (
	"context"
	"flag"
	"fmt"
	"net/http"
	"time"

	"github.com/sightline/sightline/benchmarks/internal/drive"
	"github.com/sightline/sightline/benchmarks/internal/measure"
)

func main() { drive.Main("load", run) }

func run() error {
	f := drive.DefineFlags("URL to GET (loopback only)", "API key sent as a bearer token", 16, 5_000_000)
	flag.Parse()
	if err := f.Check(); err != nil {
		return err
	}
	c, err := drive.NewClient(f.URL, f.Key, f.Concurrency, 10*time.Second)
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
	drive.Phase(ctx, f.Warmup, f.Concurrency, 1<<62, 1, get)
	r := drive.Phase(ctx, f.Duration, f.Concurrency, f.MaxRequests, 1, get)

	latencies := r.Sorted()
	_, non200 := r.Counts()
	n := len(latencies)
	if n == 0 {
		return fmt.Errorf("no request succeeded (%d errors)", r.Errors)
	}
	fmt.Printf("target       %s\n", f.URL)
	fmt.Printf("concurrency  %d\n", f.Concurrency)
	fmt.Printf("requests     %d in %.1fs (%d non-200, %d transport errors)\n", n, r.Elapsed.Seconds(), non200, r.Errors)
	fmt.Printf("throughput   %.0f requests/s\n", float64(n)/r.Elapsed.Seconds())
	fmt.Printf("latency      %s\n", measure.Summary(latencies))
	if non200 > 0 {
		return fmt.Errorf("%d responses were not 200 (rate limits not raised, or a bad key?)", non200)
	}
	return nil
}
