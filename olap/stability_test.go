package olap

import "testing"

// Positions spread alike give one stability, whatever their level: a sort
// by stability must tie them and fall back to its next key, not order them
// by the rounding of a float difference.
func TestStabilityIsExactForEqualSpreads(t *testing.T) {
	sums := func(positions ...uint64) positionSums {
		var p positionSums
		for _, x := range positions {
			p.count++
			p.sum += x
			p.sq += x * x
		}
		return p
	}
	cases := []struct {
		name string
		a, b positionSums
		want float64
	}{
		{"two apart by one", sums(1, 2), sums(7, 8), 0.5},
		{"three in a row", sums(1, 2, 3), sums(4, 5, 6), 0.816496580927726},
		{"one outlier", sums(1, 1, 1, 4), sums(3, 3, 3, 6), 1.299038105676658},
		{"all equal", sums(3, 3, 3), sums(9, 9, 9), 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a, b := c.a.stability(), c.b.stability()
			if *a != *b {
				t.Fatalf("stability %v and %v differ for the same spread", *a, *b)
			}
			if d := *a - c.want; d > 1e-12 || d < -1e-12 {
				t.Fatalf("stability %v, want %v", *a, c.want)
			}
		})
	}
	if sums(5).stability() != nil {
		t.Fatal("one observation has a stability")
	}
}
