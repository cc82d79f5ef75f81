// Package progress shows how far long command-line work has got (done and
// total, rate, time left) on a terminal, and nothing at all when its
// output is not one: logs and redirected output stay free of redraws.
package progress

import (
	"io"
	"os"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// Bar counts units of work towards a total. Safe for concurrent use.
type Bar struct {
	bar *progressbar.ProgressBar
}

// New returns a bar of total units labelled with description, drawn on w
// when w is a terminal and invisible otherwise.
func New(w io.Writer, total int64, description string) *Bar {
	return newBar(w, total, description, IsTerminal(w))
}

func newBar(w io.Writer, total int64, description string, visible bool) *Bar {
	return &Bar{bar: progressbar.NewOptions64(total,
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetVisibility(visible),
		progressbar.OptionSetDescription(description),
		progressbar.OptionShowCount(),
		progressbar.OptionShowIts(),
		progressbar.OptionSetItsString("units"),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionSetElapsedTime(true),
		progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionSetWidth(30),
		progressbar.OptionClearOnFinish(),
	)}
}

// Units names what the bar counts in its rate (passes/s, rows/s).
func (b *Bar) Units(name string) *Bar {
	progressbar.OptionSetItsString(name)(b.bar)
	return b
}

// Add counts n more units done.
func (b *Bar) Add(n int) {
	_ = b.bar.Add(n) // writes to a terminal; a failed redraw is no reason to stop the work
}

// Finish clears the bar from the terminal.
func (b *Bar) Finish() {
	_ = b.bar.Finish()
}

// IsTerminal reports whether w is a terminal.
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}
