// Command writemodel benchmarks the tracked-query write model through the
// whole API pipeline and prints requests/s and latency percentiles:
//
//   - the search listing (GET .../tracked-queries) of a project it fills
//     with -queries tracked queries through the API, under a mix of
//     parameters (default sort, search, sortBy=lastCheckedAt, engines,
//     countries and status filters, deep offsets, limit=100);
//   - creates of 100 combinations per call (10 fresh texts x 2 engines x 5
//     countries), round-robin over -create-projects new projects; creates
//     into one project serialise on its row lock.
//
// The server must run its River workers (`sightline run`): the listing
// reads a projection they refresh, and measuring starts only once the
// listing shows every query. It only targets loopback addresses, and every
// phase is bounded in time and in requests.
//
//	go run ./benchmarks/writemodel -url http://127.0.0.1:18081 -key sl_... -org ID
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/url"
	"os"
	"runtime"
	"strconv"
	"sync/atomic"
	"text/tabwriter"
	"time"

	"github.com/sightline/sightline/benchmarks/internal/drive"
	"github.com/sightline/sightline/benchmarks/internal/measure"
)

func main() { drive.Main("writemodel", run) }

func run() error {
	f := drive.DefineFlags("API base URL, loopback only (e.g. http://127.0.0.1:18081)",
		"API key with read and write capabilities, sent as a bearer token", 8, 2_000_000)
	org := flag.String("org", "", "organization id; the key's user must be a manager or owner")
	queries := flag.Int("queries", 10_000, "tracked queries in the listing project, a multiple of 100 (at most 100,000)")
	createConcurrency := flag.Int("create-concurrency", 2, "create calls in flight")
	createProjects := flag.Int("create-projects", 10, "projects the create calls go to, round-robin")
	maxCreates := flag.Int64("max-creates", 2_000, "stop the create phase after this many measured calls")
	catchUp := flag.Duration("catch-up", 3*time.Minute, "longest wait for the search projection to show the setup")
	only := flag.String("only", "", `"listing" or "create" runs one phase; empty runs both`)
	flag.Parse()

	if err := f.Check(); err != nil {
		return err
	}
	switch {
	case f.Key == "" || *org == "":
		return errors.New("-key and -org are required")
	case *queries <= 0 || *queries%perCall != 0 || *queries > 100_000:
		return errors.New("-queries must be a positive multiple of 100, at most 100,000")
	case *createConcurrency < 1 || *createProjects < 1 || *maxCreates < 1:
		return errors.New("-create-concurrency, -create-projects and -max-creates must be positive")
	case *only != "" && *only != "listing" && *only != "create":
		return errors.New(`-only must be "listing" or "create"`)
	}
	c, err := newClient(f.URL, f.Key, max(f.Concurrency, *createConcurrency))
	if err != nil {
		return err
	}
	ctx := context.Background()
	fmt.Printf("machine      %d cores, load average %s\n", runtime.NumCPU(), measure.LoadAverage())

	if *only != "create" {
		project, err := setupListing(ctx, c, *org, *queries, *catchUp)
		if err != nil {
			return err
		}
		if err := benchListing(ctx, c, trackedPath(*org, project), *queries, f.Warmup, f.Duration, f.Concurrency, f.MaxRequests); err != nil {
			return err
		}
	}
	if *only != "listing" {
		return benchCreate(ctx, c, *org, *createProjects, f.Warmup, f.Duration, *createConcurrency, *maxCreates, *catchUp)
	}
	return nil
}

// variant is one kind of listing request and its share of the mix. An
// answer counts as correct when it is a 200 and, where total is not
// negative, reports that total.
type variant struct {
	name   string
	weight int
	total  int
	query  func(rng *rand.Rand) url.Values
}

func fixed(kv ...string) func(*rand.Rand) url.Values {
	return func(*rand.Rand) url.Values {
		q := url.Values{}
		for i := 0; i < len(kv); i += 2 {
			q.Set(kv[i], kv[i+1])
		}
		return q
	}
}

// listingMix is the parameter mix of the listing phase; weights sum to 100.
// Shares of matching rows refer to the data setupListing creates.
func listingMix(n int) []variant {
	return []variant{
		{"default (queryText desc, limit 20)", 25, n, fixed()},
		{"limit=100", 10, n, fixed("limit", "100")},
		{"deep page: offset>=n/2, limit=100", 10, n, func(rng *rand.Rand) url.Values {
			pages := n / 100
			return url.Values{"limit": {"100"}, "offset": {strconv.Itoa((pages/2 + rng.IntN(pages-pages/2)) * 100)}}
		}},
		{"search, 10% match", 10, -1, fixed("search", "running shoes")},
		{"search, 1% match", 5, -1, fixed("search", "CRM Software for startups")},
		{"search, no match", 3, 0, fixed("search", "quantum computing")},
		{"sortBy=lastCheckedAt", 10, n, fixed("sortBy", "lastCheckedAt")},
		{"sortBy=lastCheckedAt asc, limit=100", 5, n, fixed("sortBy", "lastCheckedAt", "sortOrder", "asc", "limit", "100")},
		{"engines=chatgpt,perplexity (40%)", 7, -1, fixed("engines", "chatgpt,perplexity")},
		{"status=paused (10%)", 5, n / pausedEvery, fixed("status", "paused")},
		{"status=active+engines=google_serp+lastCheckedAt", 5, -1, fixed("status", "active", "engines", "google_serp", "sortBy", "lastCheckedAt")},
		{"countries=DE (20%)", 5, n / len(countries), fixed("countries", "DE")},
	}
}

func benchListing(ctx context.Context, c *client, base string, n int, warmup, duration time.Duration, concurrency int, maxRequests int64) error {
	mix := listingMix(n)
	var schedule []int // 100 slots, shuffled, so every window of the run sees the mix
	for i, v := range mix {
		for range v.weight {
			schedule = append(schedule, i)
		}
	}
	rand.New(rand.NewPCG(1, 2)).Shuffle(len(schedule), func(i, j int) { schedule[i], schedule[j] = schedule[j], schedule[i] })
	ok := func(v int, r drive.Reply) bool {
		if r.Status != http.StatusOK {
			return false
		}
		if mix[v].total < 0 {
			return true
		}
		var page struct {
			Total int `json:"total"`
		}
		return json.Unmarshal(r.Body, &page) == nil && page.Total == mix[v].total
	}
	var next atomic.Int64
	send := func(w int) drive.SendFunc {
		rng := rand.New(rand.NewPCG(uint64(w), 7))
		return func(ctx context.Context) (drive.Answer, error) {
			v := schedule[next.Add(1)%int64(len(schedule))]
			r, err := c.Call(ctx, http.MethodGet, base+"?"+mix[v].query(rng).Encode(), nil)
			if err != nil {
				return drive.Answer{}, err
			}
			return r.Answer(v, ok(v, r)), nil
		}
	}

	drive.Phase(ctx, warmup, concurrency, 1<<62, len(mix), send)
	res := drive.Phase(ctx, duration, concurrency, maxRequests, len(mix), send)
	names := make([]string, len(mix))
	for i, v := range mix {
		names[i] = fmt.Sprintf("%s [%d%%]", v.name, v.weight)
	}
	fmt.Printf("\nGET tracked-queries listing, %d queries, concurrency %d (load average after: %s)\n", n, concurrency, measure.LoadAverage())
	return report(res, names)
}

func benchCreate(ctx context.Context, c *client, org string, projects int, warmup, duration time.Duration, concurrency int, maxCreates int64, catchUp time.Duration) error {
	type target struct {
		base, cluster string
		created       atomic.Int64
	}
	targets := make([]*target, projects)
	for i := range targets {
		project, clusters, err := createProject(ctx, c, org, fmt.Sprintf("Create bench %d %s", i+1, time.Now().UTC().Format(time.RFC3339Nano)), 1)
		if err != nil {
			return err
		}
		targets[i] = &target{base: trackedPath(org, project), cluster: clusters[0]}
	}
	var calls atomic.Int64
	// A create runs to its answer even when the phase ends meanwhile, so
	// that every committed query is counted.
	send := func(int) drive.SendFunc {
		return func(context.Context) (drive.Answer, error) {
			n := calls.Add(1)
			t := targets[n%int64(len(targets))]
			r, err := c.Call(ctx, http.MethodPost, t.base, freshCreateBody(n, t.cluster))
			if err != nil {
				return drive.Answer{}, err
			}
			var a createAnswer
			decoded := r.Status == http.StatusOK && json.Unmarshal(r.Body, &a) == nil
			if decoded {
				t.created.Add(int64(len(a.Successful)))
			}
			return r.Answer(0, decoded && len(a.Successful) == perCall), nil
		}
	}
	drive.Phase(ctx, warmup, concurrency, 1<<62, 1, send)
	res := drive.Phase(ctx, duration, concurrency, maxCreates, 1, send)
	writesDone := time.Now()
	fmt.Printf("\nPOST tracked-queries, 100 combinations per call (10 fresh texts x 2 engines x 5 countries), "+
		"round-robin over %d projects, concurrency %d (load average after: %s)\n", projects, concurrency, measure.LoadAverage())
	if err := report(res, []string{"create 100"}); err != nil {
		return err
	}
	var total int64
	for _, t := range targets {
		n := t.created.Load()
		total += n
		if err := awaitProjection(ctx, c, t.base, map[string]int{"": int(n)}, catchUp); err != nil {
			return err
		}
	}
	fmt.Printf("projection   %d queries created in %d projects; the listings showed them all %.1fs after the last write\n",
		total, projects, time.Since(writesDone).Seconds())
	return nil
}

// report prints the totals, then one line per variant when there are
// several; it fails when any answer was wrong.
func report(r drive.Result, names []string) error {
	all := r.Sorted()
	_, failed := r.Counts()
	n := len(all)
	if n == 0 {
		return fmt.Errorf("no request succeeded (%d wrong answers, %d transport errors; first: %s)", failed, r.Errors, r.FirstWrong)
	}
	fmt.Printf("requests     %d in %.1fs (%d wrong answers, %d transport errors)\n", n, r.Elapsed.Seconds(), failed, r.Errors)
	fmt.Printf("throughput   %.1f requests/s\n", float64(n)/r.Elapsed.Seconds())
	fmt.Printf("latency      %s\n", measure.Summary(all))
	if len(names) > 1 {
		w := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', 0)
		fmt.Fprintln(w, "variant\trequests\tp50\tp90\tp99\t")
		for v, name := range names {
			l := r.Latencies[v]
			if len(l) == 0 {
				fmt.Fprintf(w, "%s\t0\t-\t-\t-\t\n", name)
				continue
			}
			fmt.Fprintf(w, "%s\t%d\t%s\t%s\t%s\t\n", name, len(l), measure.Round(measure.Quantile(l, 0.5)), measure.Round(measure.Quantile(l, 0.9)), measure.Round(measure.Quantile(l, 0.99)))
		}
		w.Flush()
	}
	if failed > 0 {
		return fmt.Errorf("%d answers were wrong (not 200: rate limits not raised, or a bad key? or an unexpected total); first: %s",
			failed, r.FirstWrong)
	}
	return nil
}
