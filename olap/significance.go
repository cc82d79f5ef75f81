package olap

import "math"

// SignificantMeanChange reports whether the means of two samples, each
// given by its count n, sum and sum of squares, differ by more than chance
// at the 95% level: Welch's two-sided t-test (unequal variances, Welch-
// Satterthwaite degrees of freedom), p < 0.05. Positions come to the
// analytics as such sums (ranks_daily), so no single observation is needed.
// It is false when either side has fewer than 2 observations (no variance
// to judge by). When neither side varies at all, any difference of the
// means is certain and reported true.
func SignificantMeanChange(n1, sum1, sq1, n2, sum2, sq2 float64) bool {
	if n1 < 2 || n2 < 2 {
		return false
	}
	m1, m2 := sum1/n1, sum2/n2
	// Sample variances; rounding can leave a constant sample a hair below 0.
	v1 := math.Max(0, (sq1-sum1*sum1/n1)/(n1-1))
	v2 := math.Max(0, (sq2-sum2*sum2/n2)/(n2-1))
	a, b := v1/n1, v2/n2
	se2 := a + b
	if se2 == 0 {
		return m1 != m2
	}
	t := (m1 - m2) / math.Sqrt(se2)
	df := se2 * se2 / (a*a/(n1-1) + b*b/(n2-1))
	return studentTwoSidedP(t, df) < 0.05
}

// studentTwoSidedP is P(|T| >= |t|) for Student's t distribution with df
// degrees of freedom: the regularized incomplete beta I_x(df/2, 1/2) at
// x = df / (df + t²).
func studentTwoSidedP(t, df float64) float64 {
	if math.IsInf(t, 0) {
		return 0
	}
	return regularizedIncompleteBeta(df/2, 0.5, df/(df+t*t))
}

// regularizedIncompleteBeta is I_x(a, b) for a, b > 0 and 0 <= x <= 1, by
// its continued fraction (Numerical Recipes, betai), which converges fast
// on the side of x < (a+1)/(a+b+2); the other side uses the symmetry
// I_x(a, b) = 1 - I_(1-x)(b, a).
func regularizedIncompleteBeta(a, b, x float64) float64 {
	switch {
	case x <= 0:
		return 0
	case x >= 1:
		return 1
	}
	la, _ := math.Lgamma(a)
	lb, _ := math.Lgamma(b)
	lab, _ := math.Lgamma(a + b)
	front := math.Exp(lab - la - lb + a*math.Log(x) + b*math.Log1p(-x))
	if x < (a+1)/(a+b+2) {
		return front * betaContinuedFraction(a, b, x) / a
	}
	return 1 - front*betaContinuedFraction(b, a, 1-x)/b
}

// betaContinuedFraction evaluates the continued fraction of the incomplete
// beta function by the modified Lentz method.
func betaContinuedFraction(a, b, x float64) float64 {
	const (
		maxIterations = 300
		epsilon       = 1e-15
		tiny          = 1e-300
	)
	// nonZero keeps a denominator of the method away from zero.
	nonZero := func(v float64) float64 {
		if math.Abs(v) < tiny {
			return tiny
		}
		return v
	}
	qab, qap, qam := a+b, a+1, a-1
	c, d := 1.0, 1/nonZero(1-qab*x/qap)
	h := d
	// step takes the next coefficient aa of the fraction into c and d and
	// returns the factor it changes h by.
	step := func(aa float64) float64 {
		d = 1 / nonZero(1+aa*d)
		c = nonZero(1 + aa/c)
		return d * c
	}
	for m := 1; m <= maxIterations; m++ {
		fm := float64(m)
		m2 := 2 * fm
		h *= step(fm * (b - fm) * x / ((qam + m2) * (a + m2)))
		del := step(-(a + fm) * (qab + fm) * x / ((a + m2) * (qap + m2)))
		h *= del
		if math.Abs(del-1) < epsilon {
			break
		}
	}
	return h
}
