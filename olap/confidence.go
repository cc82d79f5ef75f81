package olap

import "math"

// How much data stands behind a figure. Every rate and share the analytics
// serve (percentages 0..100) comes with the number of observations it was
// computed from and a 95% Wilson score interval, so a client can tell a
// 50% of 2 answers from a 50% of 2,000. Wilson rather than the normal
// approximation: it stays inside 0..100 and is honest for small n and for
// rates near 0 or 100.

// z95 is the two-sided 95% quantile of the standard normal distribution.
const z95 = 1.959963984540054

// Interval is a 95% Wilson score interval of a percentage and the sample
// size behind it.
type Interval struct {
	N    int64   `json:"n"`
	Low  float64 `json:"low"`
	High float64 `json:"high"`
}

// Percent is 100 x part / whole with its interval; both nil when whole is
// zero (nothing observed: not known, never zero). part may be fractional
// (a weighted share, half-counted neutral mentions); the interval then
// treats it as that many successes out of n = whole observations.
func Percent(part float64, whole int64) (*float64, *Interval) {
	if whole <= 0 {
		return nil, nil
	}
	p := part / float64(whole)
	v := 100 * p
	return &v, WilsonInterval(p, whole)
}

// WilsonInterval is the 95% Wilson score interval, in percent, of a
// proportion p observed over n trials.
func WilsonInterval(p float64, n int64) *Interval {
	if n <= 0 {
		return nil
	}
	p = math.Min(1, math.Max(0, p))
	nf := float64(n)
	z2 := z95 * z95
	centre := (p + z2/(2*nf)) / (1 + z2/nf)
	half := z95 / (1 + z2/nf) * math.Sqrt(p*(1-p)/nf+z2/(4*nf*nf))
	return &Interval{N: n, Low: 100 * math.Max(0, centre-half), High: 100 * math.Min(1, centre+half)}
}

// SignificantChange reports whether two proportions, successes x1 of n1
// and x2 of n2, differ by more than chance at the 95% level: a pooled
// two-proportion z-test, |z| > 1.96. It is false when either side has no
// observations or the pooled proportion is 0 or 1 (no variance: both
// sides agree exactly).
func SignificantChange(x1 float64, n1 int64, x2 float64, n2 int64) bool {
	if n1 <= 0 || n2 <= 0 {
		return false
	}
	f1, f2 := float64(n1), float64(n2)
	pooled := (x1 + x2) / (f1 + f2)
	if pooled <= 0 || pooled >= 1 {
		return false
	}
	se := math.Sqrt(pooled * (1 - pooled) * (1/f1 + 1/f2))
	return math.Abs(x1/f1-x2/f2)/se > z95
}
