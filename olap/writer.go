package olap

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"time"

	"github.com/ClickHouse/clickhouse-go/v2"
	"github.com/ClickHouse/clickhouse-go/v2/lib/driver"
	"github.com/prometheus/client_golang/prometheus"
	"golang.org/x/sync/errgroup"
)

// WriterOptions tunes a Writer; zero values take the defaults.
type WriterOptions struct {
	// FlushRows caps a flush: a batch takes no more passes once one of its
	// tables holds this many rows (default 50 000).
	FlushRows int
	// FlushBytes caps a flush by the approximate size of its rows (default
	// 32 MiB), so a burst of long answers cannot build one huge insert.
	FlushBytes int
	// Attempts is how many times a flush is tried before its rows are
	// failed back to their writers (default 5).
	Attempts int
	// RetryDelay is the pause after the first failed attempt, doubled after
	// each further one up to 10 s (default 200 ms).
	RetryDelay time.Duration
	// AttemptTimeout bounds one attempt (default 1 min).
	AttemptTimeout time.Duration
	// MaxInFlight is how many flushes may run at once (default 1). Bulk
	// loads of distinct passes (history, imports) gain from several; the
	// check path keeps one, so that a pass written again while its first
	// write is still in flight is found stored rather than stored twice.
	MaxInFlight int
	// Logger receives failed attempts (default: discard).
	Logger *slog.Logger
	// Registerer receives the writer's metrics when set.
	Registerer prometheus.Registerer
}

func (o WriterOptions) withDefaults() WriterOptions {
	if o.FlushRows <= 0 {
		o.FlushRows = 50_000
	}
	if o.FlushBytes <= 0 {
		o.FlushBytes = 32 << 20
	}
	if o.Attempts <= 0 {
		o.Attempts = 5
	}
	if o.RetryDelay <= 0 {
		o.RetryDelay = 200 * time.Millisecond
	}
	if o.AttemptTimeout <= 0 {
		o.AttemptTimeout = time.Minute
	}
	if o.MaxInFlight <= 0 {
		o.MaxInFlight = 1
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	return o
}

// ErrWriterClosed is returned by Write after Close.
var ErrWriterClosed = errors.New("olap writer is closed")

// Writer batches the passes of many concurrent checks into few inserts. A
// Write returns once the flush holding its rows has been stored, or with
// the error that flush ended with, so a check is marked completed only when
// its rows are durable; callers writing at the same time share one flush.
//
// It commits in groups: when no flush is running, what is waiting is
// flushed at once, so a lone writer waits about one insert; while a flush
// runs, the passes that arrive gather into the next batch (closed at
// FlushRows rows in a table or FlushBytes), which is flushed as soon as the
// running one ends. Flushes run one at a time (MaxInFlight), each one
// INSERT per capture table holding rows. A failed attempt is
// retried with the same blocks and the same deduplication tokens (see
// prepareBlocks), so a block that was stored although its attempt failed is
// not stored twice, in the capture tables or in the rollups. Rows are never
// dropped silently: when every attempt fails, every Write waiting on them
// gets the error.
type Writer struct {
	conn    driver.Conn
	opts    WriterOptions
	metrics *writerMetrics

	// columns are the capture tables' insert column types, read at the
	// first flush.
	columnsMu sync.Mutex
	columns   *[numCaptureTables][]clickhouse.ColumnNameAndType

	ctx    context.Context // ends retries when Close gives up waiting
	cancel context.CancelFunc
	wake   chan struct{}
	done   chan struct{}

	mu       sync.Mutex
	queue    []*writeBatch // waiting, oldest first; only the last one takes more passes
	inflight []*writeBatch // being flushed, oldest first
	closed   bool
}

// writeBatch is the passes of one flush and its outcome.
type writeBatch struct {
	entries []*passEntry
	rows    [numCaptureTables]int
	bytes   int
	done    chan struct{}
	err     error // set before done is closed
}

func newWriteBatch() *writeBatch { return &writeBatch{done: make(chan struct{})} }

// full reports whether the batch takes no more passes.
func (b *writeBatch) full(o WriterOptions) bool {
	return slices.Max(b.rows[:]) >= o.FlushRows || b.bytes >= o.FlushBytes
}

// NewWriter starts a Writer on conn. Close it to flush what is waiting and
// stop its goroutine.
func NewWriter(conn driver.Conn, opts WriterOptions) *Writer {
	ctx, cancel := context.WithCancel(context.Background())
	w := &Writer{
		conn:   conn,
		opts:   opts.withDefaults(),
		ctx:    ctx,
		cancel: cancel,
		wake:   make(chan struct{}, 1),
		done:   make(chan struct{}),
	}
	w.metrics = newWriterMetrics(w.opts.Registerer)
	go w.run()
	return w
}

// Write queues passes and waits until they are stored. Invalid passes are
// refused before anything is queued. When ctx ends first Write returns its
// error, but the passes stay queued and may still be stored; writing them
// again later is harmless, since a pass is stored once.
func (w *Writer) Write(ctx context.Context, passes ...PassRows) error {
	if len(passes) == 0 {
		return nil
	}
	entries := make([]*passEntry, len(passes))
	for i, p := range passes {
		if err := p.Validate(); err != nil {
			return err
		}
		// The batch outlives a cancelled Write: keep it off the caller's slices.
		p.Mentions, p.Citations = slices.Clone(p.Mentions), slices.Clone(p.Citations)
		p.SearchResults, p.ShoppingOffers = slices.Clone(p.SearchResults), slices.Clone(p.ShoppingOffers)
		entries[i] = newPassEntry(p)
	}

	w.mu.Lock()
	if w.closed {
		w.mu.Unlock()
		return ErrWriterClosed
	}
	if len(w.queue) == 0 || w.queue[len(w.queue)-1].full(w.opts) {
		w.queue = append(w.queue, newWriteBatch())
	}
	b := w.queue[len(w.queue)-1]
	b.entries = append(b.entries, entries...)
	for _, e := range entries {
		for t := range numCaptureTables {
			b.rows[t] += captureTables[t].count(e)
		}
		b.bytes += e.size()
	}
	w.mu.Unlock()
	w.signal()

	select {
	case <-b.done:
		return b.err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// pending is every batch not yet stored: being flushed or waiting.
// Callers hold mu.
func (w *Writer) pending() []*writeBatch {
	return append(slices.Clone(w.inflight), w.queue...)
}

// Flush waits until everything written before it is stored and reports
// how the flushes holding it ended.
func (w *Writer) Flush(ctx context.Context) error {
	w.mu.Lock()
	pending := w.pending()
	w.mu.Unlock()
	var errs []error
	for _, b := range pending {
		select {
		case <-b.done:
			errs = append(errs, b.err)
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return errors.Join(errs...)
}

// Close refuses further writes, flushes what is waiting and stops the
// writer. If ctx ends first, the flushes in progress are abandoned and
// their writers get an error.
func (w *Writer) Close(ctx context.Context) error {
	w.mu.Lock()
	w.closed = true
	pending := w.pending()
	w.mu.Unlock()
	w.signal()
	defer w.cancel()
	select {
	case <-w.done:
	case <-ctx.Done():
		w.cancel()
		<-w.done
		return ctx.Err()
	}
	var errs []error
	for _, b := range pending {
		errs = append(errs, b.err)
	}
	return errors.Join(errs...)
}

func (w *Writer) signal() {
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

// run is the flush loop: it starts flushing the oldest waiting batch as
// soon as fewer than MaxInFlight flushes run.
func (w *Writer) run() {
	defer close(w.done)
	var flushing sync.WaitGroup
	defer flushing.Wait()
	for {
		w.mu.Lock()
		if len(w.queue) > 0 && len(w.inflight) < w.opts.MaxInFlight {
			b := w.queue[0]
			w.queue = w.queue[1:]
			w.inflight = append(w.inflight, b)
			w.mu.Unlock()
			flushing.Go(func() {
				w.flush(b)
				w.mu.Lock()
				w.inflight = slices.DeleteFunc(w.inflight, func(f *writeBatch) bool { return f == b })
				w.mu.Unlock()
				w.signal()
			})
			continue
		}
		closed := w.closed && len(w.queue) == 0
		w.mu.Unlock()
		if closed {
			return
		}
		<-w.wake
	}
}

// flush stores b, retrying, and releases its writers with the outcome.
func (w *Writer) flush(b *writeBatch) {
	start := time.Now()
	err := w.store(b)
	w.metrics.flushed(err, time.Since(start))
	b.err = err
	close(b.done)
}

func (w *Writer) store(b *writeBatch) error {
	entries := uniqueEntries(b.entries)
	var (
		blocks []block // prepared once: retries re-send the same blocks with the same tokens
		sent   []bool  // per block: stored by an earlier attempt
		delay  = w.opts.RetryDelay
	)
	for attempt := 1; ; attempt++ {
		err := func() error {
			ctx, cancel := context.WithTimeout(w.ctx, w.opts.AttemptTimeout)
			defer cancel()
			columns, err := w.insertColumns(ctx)
			if err != nil {
				return err
			}
			if blocks == nil {
				prepared, err := prepareBlocks(ctx, w.conn, entries)
				if err != nil {
					return err
				}
				blocks, sent = prepared, make([]bool, len(prepared))
				w.metrics.skipped(entries, blocks)
			}
			// The tables are independent, so their blocks go in parallel;
			// each one's views see only its own block.
			var group errgroup.Group
			for i := range blocks {
				if sent[i] {
					continue
				}
				group.Go(func() error {
					if err := blocks[i].insert(ctx, w.conn, columns[blocks[i].table]); err != nil {
						return err
					}
					sent[i] = true
					w.metrics.stored(blocks[i])
					return nil
				})
			}
			return group.Wait()
		}()
		if err == nil {
			return nil
		}
		if attempt == w.opts.Attempts || w.ctx.Err() != nil {
			return fmt.Errorf("storing %d passes in clickhouse (%d attempts): %w", len(entries), attempt, err)
		}
		w.metrics.retries.Inc()
		w.opts.Logger.Warn("olap flush failed; retrying", "passes", len(entries), "attempt", attempt,
			"retry_in", delay, "error", err)
		select {
		case <-time.After(delay):
		case <-w.ctx.Done():
		}
		delay = min(2*delay, 10*time.Second)
	}
}

// insertColumns returns the capture tables' insert column types, reading
// them at the first call that succeeds.
func (w *Writer) insertColumns(ctx context.Context) (*[numCaptureTables][]clickhouse.ColumnNameAndType, error) {
	w.columnsMu.Lock()
	defer w.columnsMu.Unlock()
	if w.columns == nil {
		columns, err := insertColumns(ctx, w.conn)
		if err != nil {
			return nil, err
		}
		w.columns = &columns
	}
	return w.columns, nil
}

// writerMetrics are the Writer's Prometheus metrics.
type writerMetrics struct {
	flushes  *prometheus.CounterVec
	duration prometheus.Histogram
	rows     *prometheus.CounterVec
	skips    *prometheus.CounterVec
	retries  prometheus.Counter
}

func newWriterMetrics(reg prometheus.Registerer) *writerMetrics {
	m := &writerMetrics{
		flushes: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "sightline_olap_writer_flushes_total",
			Help: "Flushes of the ClickHouse capture writer, by outcome (stored or failed after every attempt).",
		}, []string{"outcome"}),
		duration: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name:    "sightline_olap_writer_flush_seconds",
			Help:    "Duration of capture writer flushes, retries included.",
			Buckets: prometheus.ExponentialBuckets(0.005, 2, 14),
		}),
		rows: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "sightline_olap_writer_rows_total",
			Help: "Rows the capture writer stored, by table.",
		}, []string{"table"}),
		skips: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "sightline_olap_writer_passes_already_stored_total",
			Help: "Passes the capture writer skipped for a table because the table already held them, by table.",
		}, []string{"table"}),
		retries: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "sightline_olap_writer_retries_total",
			Help: "Failed flush attempts of the capture writer that were retried.",
		}),
	}
	if reg != nil {
		reg.MustRegister(m.flushes, m.duration, m.rows, m.skips, m.retries)
	}
	return m
}

func (m *writerMetrics) flushed(err error, d time.Duration) {
	outcome := "stored"
	if err != nil {
		outcome = "failed"
	}
	m.flushes.WithLabelValues(outcome).Inc()
	m.duration.Observe(d.Seconds())
}

func (m *writerMetrics) stored(b block) {
	m.rows.WithLabelValues(captureTables[b.table].name).Add(float64(b.rows))
}

// skipped counts, per table, passes with rows for it that its block left
// out because the table held them already.
func (m *writerMetrics) skipped(entries []*passEntry, blocks []block) {
	var kept [numCaptureTables]int
	for _, b := range blocks {
		kept[b.table] = len(b.entries)
	}
	for t := range numCaptureTables {
		n := 0
		for _, e := range entries {
			if captureTables[t].count(e) > 0 {
				n++
			}
		}
		if n > kept[t] {
			m.skips.WithLabelValues(captureTables[t].name).Add(float64(n - kept[t]))
		}
	}
}
