package jobs_test

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sightline/sightline"
	"github.com/sightline/sightline/ingest"
	"github.com/sightline/sightline/jobs"
	"github.com/sightline/sightline/oltp/oltptest"
)

// limitsEngine answers after a pause and records the most requests it
// had in flight at once.
type limitsEngine struct {
	pause         time.Duration
	err           error
	inFlight, top atomic.Int64
}

func (e *limitsEngine) Ask(ctx context.Context, req ingest.Request) (ingest.Capture, error) {
	n := e.inFlight.Add(1)
	defer e.inFlight.Add(-1)
	for {
		top := e.top.Load()
		if n <= top || e.top.CompareAndSwap(top, n) {
			break
		}
	}
	time.Sleep(e.pause)
	return ingest.Capture{Engine: req.Engine}, e.err
}

func onProvider(name string) func(sightline.Engine) string {
	return func(sightline.Engine) string { return name }
}

// askMany asks n passes at once and returns how long they took.
func askMany(t *testing.T, l *jobs.ProviderLimits, e ingest.Engine, n int) time.Duration {
	t.Helper()
	start := time.Now()
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() {
			if _, err := l.Ask(context.Background(), e, ingest.Request{Engine: sightline.EngineChatGPT}); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	return time.Since(start)
}

func TestProviderLimitsBoundConcurrencyAndRate(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name        string
		limit       jobs.ProviderLimit
		asks        int
		maxInFlight int64
		minTook     time.Duration
	}{
		{"concurrency", jobs.ProviderLimit{Concurrency: 3}, 12, 3, 4 * 20 * time.Millisecond},
		// A burst of one second's requests, then 20 a second.
		{"rate", jobs.ProviderLimit{RequestsPerSecond: 20}, 30, 30, 400 * time.Millisecond},
		{"unlimited", jobs.ProviderLimit{}, 12, 12, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			l := jobs.NewProviderLimits(onProvider("openai"), map[string]jobs.ProviderLimit{"openai": tc.limit}, nil)
			e := &limitsEngine{pause: 20 * time.Millisecond}
			took := askMany(t, l, e, tc.asks)
			if top := e.top.Load(); top > tc.maxInFlight {
				t.Errorf("%d requests in flight, limit %d", top, tc.maxInFlight)
			}
			if took < tc.minTook {
				t.Errorf("%d requests took %s, want at least %s", tc.asks, took, tc.minTook)
			}
		})
	}
}

func TestProviderLimitsShareTheTotalAmongWorkerProcesses(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := oltptest.NewPool(t)
	totals := map[string]jobs.ProviderLimit{"openai": {Concurrency: 4}}
	a := jobs.NewProviderLimits(onProvider("openai"), totals, nil)
	b := jobs.NewProviderLimits(onProvider("openai"), totals, nil)
	for _, l := range []*jobs.ProviderLimits{a, b, a} {
		if err := l.Beat(ctx, pool); err != nil {
			t.Fatal(err)
		}
	}
	e := &limitsEngine{pause: 20 * time.Millisecond}
	askMany(t, a, e, 8)
	if top := e.top.Load(); top != 2 {
		t.Fatalf("one of two processes had %d requests in flight, want half of 4", top)
	}
}

func TestProviderLimitsBackOffAfterRetryAfter(t *testing.T) {
	t.Parallel()
	l := jobs.NewProviderLimits(onProvider("perplexity"), nil, nil)
	limited := &limitsEngine{err: checksRateLimited{time.Hour}}
	if _, err := l.Ask(context.Background(), limited, ingest.Request{}); !errors.As(err, new(checksRateLimited)) {
		t.Fatalf("the provider's own answer came back as %v", err)
	}
	// Until the hour is over the provider is not asked; the pass is told
	// how long is left, which snoozes its job.
	fresh := &limitsEngine{}
	_, err := l.Ask(context.Background(), fresh, ingest.Request{})
	var throttled *jobs.ThrottledError
	if !errors.As(err, &throttled) || throttled.RetryDelay() < 59*time.Minute || !throttled.Retryable() {
		t.Fatalf("asked during the back-off: %v", err)
	}
	if fresh.top.Load() != 0 {
		t.Fatal("a backed-off provider was asked")
	}
}

func TestParseProviderLimits(t *testing.T) {
	t.Parallel()
	defaults := map[string]jobs.ProviderLimit{"openai": {Concurrency: 100, RequestsPerSecond: 50}, "simulator": {}}
	cases := []struct {
		in   string
		want map[string]jobs.ProviderLimit
		bad  bool
	}{
		{in: "", want: defaults},
		{in: "openai=10:2.5", want: map[string]jobs.ProviderLimit{"openai": {Concurrency: 10, RequestsPerSecond: 2.5}, "simulator": {}}},
		{in: " simulator = 5:0 ,", want: map[string]jobs.ProviderLimit{"openai": defaults["openai"], "simulator": {Concurrency: 5}}},
		{in: "openai=10", bad: true},
		{in: "bing=1:1", bad: true},
		{in: "openai=-1:1", bad: true},
		{in: "openai=1:x", bad: true},
		{in: "openai=1:+Inf", bad: true},
	}
	for _, tc := range cases {
		got, err := jobs.ParseProviderLimits(tc.in, defaults)
		if tc.bad {
			if err == nil {
				t.Errorf("%q: accepted as %v", tc.in, got)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", tc.in, err)
			continue
		}
		if len(got) != len(tc.want) {
			t.Errorf("%q: %v, want %v", tc.in, got, tc.want)
		}
		for name, l := range tc.want {
			if got[name] != l {
				t.Errorf("%q: %s = %+v, want %+v", tc.in, name, got[name], l)
			}
		}
	}
}
