package measure_test

import (
	"testing"
	"time"

	"github.com/sightline/sightline/benchmarks/internal/measure"
)

func TestQuantile(t *testing.T) {
	t.Parallel()
	sorted := []time.Duration{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	for p, want := range map[float64]time.Duration{0: 1, 0.5: 6, 0.9: 10, 0.99: 10, 1: 10} {
		if got := measure.Quantile(sorted, p); got != want {
			t.Errorf("Quantile(%v) = %v, want %v", p, got, want)
		}
	}
}

func TestCheckLoopback(t *testing.T) {
	t.Parallel()
	for host, ok := range map[string]bool{"localhost": true, "127.0.0.1": true, "::1": true, "10.0.0.1": false, "example.com": false} {
		if err := measure.CheckLoopback(host); (err == nil) != ok {
			t.Errorf("CheckLoopback(%q) = %v, want ok %v", host, err, ok)
		}
	}
}
