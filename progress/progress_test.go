package progress

import (
	"bytes"
	"os"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestBarDrawsDoneTotalRateAndTimeLeftWhenVisible(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	b := newBar(&out, 200, "backfill", true).Units("passes")
	b.Add(50)
	time.Sleep(150 * time.Millisecond) // past the redraw throttle
	b.Add(50)
	got := out.String()
	for _, want := range []string{"backfill", "100/200", "passes/s", ":"} {
		if !strings.Contains(got, want) {
			t.Errorf("the bar shows %q, which lacks %q", got, want)
		}
	}
}

func TestBarIsSilentWhenNotATerminal(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	b := New(&out, 10, "backfill")
	var wg sync.WaitGroup
	for range 10 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			b.Add(1)
		}()
	}
	wg.Wait()
	b.Finish()
	if out.Len() != 0 {
		t.Errorf("a bar on a buffer wrote %q", out.String())
	}
	f, err := os.CreateTemp(t.TempDir(), "log")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if IsTerminal(f) || IsTerminal(&out) {
		t.Error("a file or a buffer was taken for a terminal")
	}
}
