package olap

import (
	"math"
	"testing"
)

func TestPercentWilson(t *testing.T) {
	t.Parallel()
	cases := []struct {
		part      float64
		whole     int64
		value     float64
		low, high float64
	}{
		// Reference values: Wilson score interval, z = 1.96 (two-sided 95%).
		{part: 0, whole: 10, value: 0, low: 0, high: 27.753},
		{part: 5, whole: 10, value: 50, low: 23.659, high: 76.341},
		{part: 190, whole: 540, value: 35.185, low: 31.275, high: 39.305},
		{part: 1, whole: 1, value: 100, low: 20.655, high: 100},
	}
	for _, c := range cases {
		v, iv := Percent(c.part, c.whole)
		if v == nil || iv == nil {
			t.Fatalf("Percent(%v, %d) is nil", c.part, c.whole)
		}
		if math.Abs(*v-c.value) > 0.001 || math.Abs(iv.Low-c.low) > 0.001 || math.Abs(iv.High-c.high) > 0.001 || iv.N != c.whole {
			t.Errorf("Percent(%v, %d) = %.3f %+v, want %.3f [%.3f, %.3f]", c.part, c.whole, *v, *iv, c.value, c.low, c.high)
		}
	}
	if v, iv := Percent(0, 0); v != nil || iv != nil {
		t.Errorf("Percent(0, 0) = %v %v, want nil: nothing observed is not zero", v, iv)
	}
}

func TestSignificantChange(t *testing.T) {
	t.Parallel()
	cases := []struct {
		x1     float64
		n1     int64
		x2     float64
		n2     int64
		expect bool
	}{
		{x1: 50, n1: 100, x2: 52, n2: 100, expect: false},    // noise
		{x1: 30, n1: 100, x2: 60, n2: 100, expect: true},     // z about 4.3
		{x1: 1, n1: 2, x2: 2, n2: 2, expect: false},          // too few to tell
		{x1: 300, n1: 1000, x2: 345, n2: 1000, expect: true}, // z about 2.1
		{x1: 0, n1: 10, x2: 0, n2: 10, expect: false},        // no variance
		{x1: 5, n1: 0, x2: 5, n2: 10, expect: false},         // nothing before
	}
	for _, c := range cases {
		if got := SignificantChange(c.x1, c.n1, c.x2, c.n2); got != c.expect {
			t.Errorf("SignificantChange(%v/%d, %v/%d) = %v, want %v", c.x1, c.n1, c.x2, c.n2, got, c.expect)
		}
	}
}
