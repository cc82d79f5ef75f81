package olap

import (
	"math"
	"testing"
)

func TestStudentTwoSidedP(t *testing.T) {
	t.Parallel()
	// Two-sided tail probabilities from statistical tables: the 97.5%
	// quantiles give exactly 0.05.
	tests := []struct {
		t, df, want float64
	}{
		{12.7062047, 1, 0.05},
		{2.2281389, 10, 0.05},
		{2.0422725, 30, 0.05},
		{1.9599640, 1e7, 0.05},
		{2, 10, 0.0733880},
		{0, 5, 1},
		{-2.2281389, 10, 0.05},
	}
	for _, tt := range tests {
		if got := studentTwoSidedP(tt.t, tt.df); math.Abs(got-tt.want) > 1e-6 {
			t.Errorf("p(t=%g, df=%g) = %.8f, want %.8f", tt.t, tt.df, got, tt.want)
		}
	}
}

// sums returns the count, sum and sum of squares of xs.
func sums(xs ...float64) (n, sum, sq float64) {
	for _, x := range xs {
		n, sum, sq = n+1, sum+x, sq+x*x
	}
	return n, sum, sq
}

func TestSignificantMeanChange(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		before []float64
		after  []float64
		want   bool
	}{
		// Welch: means 5 and 1.5, variances 1.11 and 0.28, t = 9.4 on
		// about 13 degrees of freedom.
		{"large change", []float64{4, 6, 4, 6, 4, 6, 4, 6, 4, 6}, []float64{1, 2, 1, 2, 1, 2, 1, 2, 1, 2}, true},
		// t = 3.13 on 1.47 degrees of freedom: p is about 0.13.
		{"two observations a side", []float64{4, 6}, []float64{1, 2}, false},
		{"noise", []float64{3, 4, 5, 3, 4, 5}, []float64{4, 3, 5, 4, 3, 4}, false},
		{"one observation", []float64{9}, []float64{1, 1, 1}, false},
		{"no observation", nil, []float64{1, 1}, false},
		{"constant and equal", []float64{2, 2}, []float64{2, 2, 2}, false},
		{"constant and different", []float64{3, 3}, []float64{1, 1}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n1, s1, q1 := sums(tt.before...)
			n2, s2, q2 := sums(tt.after...)
			if got := SignificantMeanChange(n1, s1, q1, n2, s2, q2); got != tt.want {
				t.Errorf("SignificantMeanChange = %v, want %v", got, tt.want)
			}
		})
	}
}
