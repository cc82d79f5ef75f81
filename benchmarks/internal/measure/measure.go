// Package measure is what the benchmark commands share to take and print
// their figures: latency quantiles and rounding, the machine's load, and
// the rule that load is only ever sent to this machine.
package measure

import (
	"fmt"
	"net"
	"net/url"
	"os"
	"strings"
	"time"
)

// Quantile is the p-quantile of sorted latencies.
func Quantile(sorted []time.Duration, p float64) time.Duration {
	return sorted[min(len(sorted)-1, int(float64(len(sorted))*p))]
}

// Round rounds a latency for printing.
func Round(d time.Duration) time.Duration { return d.Round(10 * time.Microsecond) }

// Summary is the p50, p90, p99 and maximum of sorted latencies, rounded for
// printing.
func Summary(sorted []time.Duration) string {
	return fmt.Sprintf("p50 %s  p90 %s  p99 %s  max %s", Round(Quantile(sorted, 0.50)), Round(Quantile(sorted, 0.90)),
		Round(Quantile(sorted, 0.99)), Round(sorted[len(sorted)-1]))
}

// LoadAverage is the machine's 1, 5 and 15 minute load averages where the
// system tells them (Linux): figures taken on a busy machine mean little.
func LoadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if fields := strings.Fields(string(b)); err == nil && len(fields) >= 3 {
		return strings.Join(fields[:3], " ")
	}
	return "unknown"
}

// CheckLoopback refuses what the -url flag of a load driver gives unless
// it is an absolute URL on localhost or a loopback address: the load
// drivers only target this machine.
func CheckLoopback(rawURL string) error {
	u, err := url.Parse(rawURL)
	if err != nil || u.Host == "" {
		return fmt.Errorf("-url must be an absolute URL, got %q", rawURL)
	}
	host := u.Hostname()
	if host == "localhost" {
		return nil
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return nil
	}
	return fmt.Errorf("refusing to load %s: only loopback targets are allowed", host)
}
