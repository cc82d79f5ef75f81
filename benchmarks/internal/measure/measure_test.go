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
	for rawURL, ok := range map[string]bool{
		"http://localhost:18080/api/v1/me": true, "http://127.0.0.1:18081": true, "http://[::1]:8080/": true,
		"http://10.0.0.1/": false, "https://example.com/": false, "127.0.0.1:18080": false, "": false,
	} {
		if err := measure.CheckLoopback(rawURL); (err == nil) != ok {
			t.Errorf("CheckLoopback(%q) = %v, want ok %v", rawURL, err, ok)
		}
	}
}
