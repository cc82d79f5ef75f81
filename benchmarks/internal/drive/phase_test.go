package drive_test

import (
	"context"
	"errors"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sightline/sightline/benchmarks/internal/drive"
)

func TestPhaseCountsAnswersByVariant(t *testing.T) {
	t.Parallel()
	var sent atomic.Int64
	newSend := func(int) drive.SendFunc {
		return func(context.Context) (drive.Answer, error) {
			switch n := sent.Add(1); n % 4 {
			case 0:
				return drive.Answer{}, errors.New("connection reset")
			case 1:
				return drive.Reply{Status: http.StatusTooManyRequests, Body: []byte("slow\n  down")}.Answer(1, false), nil
			default:
				return drive.Reply{Status: http.StatusOK, Latency: time.Duration(n)}.Answer(int(n%2), true), nil
			}
		}
	}
	r := drive.Phase(context.Background(), time.Minute, 1, 100, 2, newSend)

	if got := sent.Load(); got != 100 {
		t.Fatalf("sent %d requests, want the budget of 100", got)
	}
	right, wrong := r.Counts()
	if right != 50 || wrong != 25 || r.Errors != 25 {
		t.Errorf("right %d, wrong %d, errors %d; want 50, 25, 25", right, wrong, r.Errors)
	}
	if len(r.Latencies[0]) != 25 || len(r.Latencies[1]) != 25 || r.Wrong[0] != 0 || r.Wrong[1] != 25 {
		t.Errorf("by variant: %d and %d right, %v wrong; want 25 and 25 right, [0 25] wrong", len(r.Latencies[0]), len(r.Latencies[1]), r.Wrong)
	}
	if r.Statuses[http.StatusTooManyRequests] != 25 || len(r.Statuses) != 1 {
		t.Errorf("statuses %v, want 25 x 429", r.Statuses)
	}
	if r.FirstWrong != "429 slow down" || r.FirstError != "connection reset" {
		t.Errorf("first wrong %q, first error %q", r.FirstWrong, r.FirstError)
	}
	all := r.Sorted()
	if len(all) != 50 || all[0] != 2 || all[49] != 99 {
		t.Errorf("Sorted() has %d latencies from %v to %v, want 50 from 2 to 99", len(all), all[0], all[len(all)-1])
	}
}

func TestPhaseEndsOnTimeAndDropsTheErrorsItsEndCauses(t *testing.T) {
	t.Parallel()
	start := time.Now()
	r := drive.Phase(context.Background(), 50*time.Millisecond, 4, 1<<62, 1, func(int) drive.SendFunc {
		return func(ctx context.Context) (drive.Answer, error) {
			select {
			case <-ctx.Done():
				return drive.Answer{}, ctx.Err()
			case <-time.After(time.Millisecond):
				return drive.Answer{Latency: time.Millisecond}, nil
			}
		}
	})
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("phase of 50ms took %s", took)
	}
	if right, _ := r.Counts(); right == 0 || r.Errors != 0 {
		t.Errorf("right %d, errors %d; want some right and no errors", right, r.Errors)
	}
}
