package drive_test

import (
	"testing"
	"time"

	"github.com/sightline/sightline/benchmarks/internal/drive"
)

func TestFlagsCheck(t *testing.T) {
	t.Parallel()
	ok := drive.Flags{Duration: 20 * time.Second, Concurrency: 8, MaxRequests: 1}
	for _, tc := range []struct {
		name string
		edit func(*drive.Flags)
		ok   bool
	}{
		{"defaults", func(*drive.Flags) {}, true},
		{"ten minutes", func(f *drive.Flags) { f.Duration = 10 * time.Minute }, true},
		{"longer", func(f *drive.Flags) { f.Duration = 10*time.Minute + 1 }, false},
		{"no duration", func(f *drive.Flags) { f.Duration = 0 }, false},
		{"no concurrency", func(f *drive.Flags) { f.Concurrency = 0 }, false},
		{"no requests", func(f *drive.Flags) { f.MaxRequests = 0 }, false},
	} {
		f := ok
		tc.edit(&f)
		if err := f.Check(); (err == nil) != tc.ok {
			t.Errorf("%s: Check() = %v, want ok %v", tc.name, err, tc.ok)
		}
	}
}
