package drive

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Answer is what one request of a phase gave.
type Answer struct {
	Variant int // the request's kind, from 0
	Status  int
	Latency time.Duration
	Wrong   string // why the answer is wrong; empty when it is right
}

// Answer is r, an answer of variant v, for a phase's count: wrong unless
// ok, and then told by its status and the start of its body.
func (r Reply) Answer(v int, ok bool) Answer {
	a := Answer{Variant: v, Status: r.Status, Latency: r.Latency}
	if !ok {
		a.Wrong = fmt.Sprintf("%d %s", r.Status, Snippet(r.Body))
	}
	return a
}

// Snippet is the start of body on one line, for messages.
func Snippet(body []byte) string {
	s := strings.Join(strings.Fields(string(body)), " ")
	if len(s) > 160 {
		s = s[:160] + "..."
	}
	return s
}

// SendFunc sends one request of a phase. An error means the request got no
// answer.
type SendFunc func(ctx context.Context) (Answer, error)

// Result is what one phase measured.
type Result struct {
	Latencies  [][]time.Duration // of the right answers, by variant
	Wrong      []int64           // wrong answers, by variant
	Statuses   map[int]int64     // wrong answers, by status
	Errors     int64             // requests without an answer, not counting those the phase's end cut off
	FirstWrong string            // the Wrong of the first wrong answer
	FirstError string            // the error of the first request without an answer
	Elapsed    time.Duration
}

func newResult(variants int) Result {
	return Result{Latencies: make([][]time.Duration, variants), Wrong: make([]int64, variants), Statuses: map[int]int64{}}
}

// Phase sends requests from concurrency workers until d has passed, ctx is
// done or maxRequests were sent, and measures their answers by variant
// (there are variants kinds of request). Worker w sends with newSend(w), so
// that it keeps state of its own (a random source, its share of targets).
// The context a send gets ends with the phase: a request that must run to
// its answer detaches from it (context.WithoutCancel).
func Phase(ctx context.Context, d time.Duration, concurrency int, maxRequests int64, variants int,
	newSend func(w int) SendFunc,
) Result {
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	var (
		mu     sync.Mutex
		wg     sync.WaitGroup
		budget atomic.Int64
	)
	res := newResult(variants)
	budget.Store(maxRequests)
	start := time.Now()
	for w := range concurrency {
		wg.Go(func() {
			send := newSend(w)
			local := newResult(variants)
			for ctx.Err() == nil && budget.Add(-1) >= 0 {
				a, err := send(ctx)
				switch {
				case err != nil:
					// A request the phase's end cut short is no error; one
					// that failed on its own is, whenever it ends.
					if ctx.Err() == nil || !errors.Is(err, ctx.Err()) {
						local.Errors++
						local.FirstError = cmp.Or(local.FirstError, err.Error())
					}
				case a.Wrong != "":
					local.Wrong[a.Variant]++
					local.Statuses[a.Status]++
					local.FirstWrong = cmp.Or(local.FirstWrong, a.Wrong)
				default:
					local.Latencies[a.Variant] = append(local.Latencies[a.Variant], a.Latency)
				}
			}
			mu.Lock()
			defer mu.Unlock()
			res.add(local)
		})
	}
	wg.Wait()
	res.Elapsed = time.Since(start)
	return res
}

// add counts what another worker measured into r.
func (r *Result) add(o Result) {
	for v := range r.Latencies {
		r.Latencies[v] = append(r.Latencies[v], o.Latencies[v]...)
		r.Wrong[v] += o.Wrong[v]
	}
	for s, n := range o.Statuses {
		r.Statuses[s] += n
	}
	r.Errors += o.Errors
	r.FirstWrong = cmp.Or(r.FirstWrong, o.FirstWrong)
	r.FirstError = cmp.Or(r.FirstError, o.FirstError)
}

// Sorted sorts the latencies of each variant and returns all of them,
// sorted.
func (r Result) Sorted() []time.Duration {
	var all []time.Duration
	for _, l := range r.Latencies {
		slices.Sort(l)
		all = append(all, l...)
	}
	slices.Sort(all)
	return all
}

// Counts are the right and the wrong answers of every variant.
func (r Result) Counts() (right, wrong int64) {
	for v, l := range r.Latencies {
		right += int64(len(l))
		wrong += r.Wrong[v]
	}
	return right, wrong
}
