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
	"io"
	"net/http"
	"os"
	"slices"
	"sync"
	"sync/atomic"
	"time"

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

	if err := measure.CheckLoopback(*target); err != nil {
		return err
	}
	if *duration <= 0 || *duration > 10*time.Minute {
		return errors.New("-duration must be within (0, 10m]")
	}
	transport := &http.Transport{MaxIdleConnsPerHost: *concurrency, MaxConnsPerHost: *concurrency}
	client := &http.Client{Transport: transport, Timeout: 10 * time.Second}

	get := func(ctx context.Context) (time.Duration, int, error) {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, *target, nil)
		if err != nil {
			return 0, 0, err
		}
		if *key != "" {
			req.Header.Set("Authorization", "Bearer "+*key)
		}
		start := time.Now()
		res, err := client.Do(req)
		if err != nil {
			return 0, 0, err
		}
		_, _ = io.Copy(io.Discard, res.Body)
		res.Body.Close()
		return time.Since(start), res.StatusCode, nil
	}

	// Warm-up: connections, pools and caches settle before measuring.
	phase(*warmup, *concurrency, 1<<62, get)
	r := phase(*duration, *concurrency, *maxRequests, get)

	slices.Sort(r.latencies)
	n := len(r.latencies)
	if n == 0 {
		return fmt.Errorf("no request succeeded (%d errors)", r.errors)
	}
	fmt.Printf("target       %s\n", *target)
	fmt.Printf("concurrency  %d\n", *concurrency)
	fmt.Printf("requests     %d in %.1fs (%d non-200, %d transport errors)\n", n, r.elapsed.Seconds(), r.non200, r.errors)
	fmt.Printf("throughput   %.0f requests/s\n", float64(n)/r.elapsed.Seconds())
	fmt.Printf("latency      p50 %s  p90 %s  p99 %s  max %s\n",
		measure.Round(measure.Quantile(r.latencies, 0.50)), measure.Round(measure.Quantile(r.latencies, 0.90)),
		measure.Round(measure.Quantile(r.latencies, 0.99)), measure.Round(r.latencies[n-1]))
	if r.non200 > 0 {
		return fmt.Errorf("%d responses were not 200 (rate limits not raised, or a bad key?)", r.non200)
	}
	return nil
}

type result struct {
	latencies []time.Duration
	non200    int64
	errors    int64
	elapsed   time.Duration
}

func phase(d time.Duration, concurrency int, maxRequests int64, get func(context.Context) (time.Duration, int, error)) result {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	var (
		mu     sync.Mutex
		res    result
		budget atomic.Int64
		wg     sync.WaitGroup
	)
	budget.Store(maxRequests)
	start := time.Now()
	for range concurrency {
		wg.Add(1)
		go func() {
			defer wg.Done()
			local := make([]time.Duration, 0, 4096)
			var non200, errs int64
			for ctx.Err() == nil && budget.Add(-1) >= 0 {
				lat, status, err := get(ctx)
				switch {
				case err != nil:
					if ctx.Err() == nil {
						errs++
					}
				case status != http.StatusOK:
					non200++
				default:
					local = append(local, lat)
				}
			}
			mu.Lock()
			res.latencies = append(res.latencies, local...)
			res.non200 += non200
			res.errors += errs
			mu.Unlock()
		}()
	}
	wg.Wait()
	res.elapsed = time.Since(start)
	return res
}
