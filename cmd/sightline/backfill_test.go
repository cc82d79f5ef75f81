package main

import (
	"testing"

	"github.com/sightline/sightline/oltp"
)

func TestBackfillPassesCountsEveryRunOfTheWindow(t *testing.T) {
	t.Parallel()
	queries := []oltp.BackfillQuery{
		{CheckFrequency: "daily", NPasses: 3},
		{CheckFrequency: "weekly", NPasses: 1},
		{CheckFrequency: "monthly", NPasses: 2},
	}
	for _, c := range []struct {
		days int
		want int64
	}{
		{1, 3 + 1 + 2},
		{7, 21 + 1 + 2},
		{8, 24 + 2 + 2},
		{90, 270 + 13 + 6},
	} {
		if got := backfillPasses(queries, c.days); got != c.want {
			t.Errorf("%d days: %d passes, want %d", c.days, got, c.want)
		}
	}
}
