package olap_test

import (
	"reflect"
	"testing"
	"time"

	"github.com/sightline/sightline/olap"
)

func TestWindowParts(t *testing.T) {
	t.Parallel()
	day := func(s string) time.Time {
		d, err := time.Parse(time.DateOnly, s)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	days := func(from, to string) olap.WindowPart { return olap.WindowPart{From: day(from), To: day(to)} }
	months := func(from, to string) olap.WindowPart {
		return olap.WindowPart{Monthly: true, From: day(from), To: day(to)}
	}
	tests := []struct {
		name     string
		from, to string
		want     []olap.WindowPart
	}{
		{"inside one month", "2026-03-05", "2026-03-20", []olap.WindowPart{days("2026-03-05", "2026-03-20")}},
		{"across a month end, no whole month", "2026-02-15", "2026-03-14", []olap.WindowPart{days("2026-02-15", "2026-03-14")}},
		{"exactly one month", "2026-02-01", "2026-02-28", []olap.WindowPart{months("2026-02-01", "2026-02-01")}},
		{"whole months and both edges", "2025-07-25", "2026-11-23", []olap.WindowPart{
			months("2025-08-01", "2026-10-01"), days("2025-07-25", "2025-07-31"), days("2026-11-01", "2026-11-23")}},
		{"starts on a first day", "2026-01-01", "2026-03-10", []olap.WindowPart{
			months("2026-01-01", "2026-02-01"), days("2026-03-01", "2026-03-10")}},
		{"ends on a last day, leap year", "2024-01-20", "2024-02-29", []olap.WindowPart{
			months("2024-02-01", "2024-02-01"), days("2024-01-20", "2024-01-31")}},
		{"one day", "2026-05-31", "2026-05-31", []olap.WindowPart{days("2026-05-31", "2026-05-31")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := olap.WindowParts(day(tt.from), day(tt.to)); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("WindowParts(%s, %s) = %+v, want %+v", tt.from, tt.to, got, tt.want)
			}
		})
	}
}
