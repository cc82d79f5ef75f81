package olap

import (
	"slices"
	"testing"
	"time"
)

func TestGranularityBuckets(t *testing.T) {
	t.Parallel()
	d := func(s string) time.Time {
		v, err := time.Parse(time.DateOnly, s)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	cases := []struct {
		g        Granularity
		from, to string
		want     []string
	}{
		{GranularityDaily, "2024-02-28", "2024-03-01", []string{"2024-02-28", "2024-02-29", "2024-03-01"}},
		{GranularityDaily, "2025-06-05", "2025-06-05", []string{"2025-06-05"}},
		// 2025-12-31 is a Wednesday; 2026-01-05 a Monday.
		{GranularityWeekly, "2025-12-31", "2026-01-12", []string{"2025-12-31", "2026-01-05", "2026-01-12"}},
		{GranularityWeekly, "2026-01-05", "2026-01-11", []string{"2026-01-05"}},
		// 2026-01-04 is a Sunday: its week ends that day.
		{GranularityWeekly, "2026-01-04", "2026-01-05", []string{"2026-01-04", "2026-01-05"}},
		{GranularityMonthly, "2025-11-30", "2026-02-01", []string{"2025-11-30", "2025-12-01", "2026-01-01", "2026-02-01"}},
		{GranularityMonthly, "2024-01-31", "2024-03-30", []string{"2024-01-31", "2024-02-01", "2024-03-01"}},
		{GranularityMonthly, "2024-03-01", "2024-03-31", []string{"2024-03-01"}},
	}
	for _, c := range cases {
		var got []string
		for _, b := range c.g.Buckets(d(c.from), d(c.to)) {
			got = append(got, b.Format(time.DateOnly))
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s %s..%s = %v, want %v", c.g, c.from, c.to, got, c.want)
		}
	}
}
