package jobs

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/prometheus/client_golang/prometheus"
	"golang.org/x/time/rate"

	"github.com/sightline/sightline"
	"github.com/sightline/sightline/ingest"
	"github.com/sightline/sightline/oltp"
)

// ProviderLimit is what one engine provider may be asked, counted over
// every worker process on the same Postgres; a zero field does not limit.
type ProviderLimit struct {
	// Concurrency bounds the requests in flight.
	Concurrency int
	// RequestsPerSecond bounds how often a request starts.
	RequestsPerSecond float64
}

// ProviderLimits holds every provider to its ProviderLimit and backs off a
// provider that answered 429 or 503 with Retry-After.
//
// The limits hold across worker processes by per-process shares of the
// configured totals: each process beats a row of worker_processes every
// BeatInterval and takes 1/n of every limit, n being the processes seen
// within ProcessTTL. A shared token bucket in Postgres was the other way;
// it would cost a round trip and an update of one hot row per request,
// which at a thousand passes a second is Postgres's busiest write, while
// shares cost one statement per process every few seconds and no latency
// on the request. The price: a process that joins or dies is counted
// within ProcessTTL, and until then the processes may together exceed a
// limit by the share of the one that died, or stay under it; and each
// process learns a provider's Retry-After by itself.
type ProviderLimits struct {
	id         uuid.UUID // this process's row of worker_processes
	providerOf func(sightline.Engine) string
	totals     map[string]ProviderLimit
	metrics    *providerMetrics

	mu        sync.Mutex
	processes int
	providers map[string]*provider
}

// BeatInterval is how often a worker process records that it is alive;
// ProcessTTL is how long after its last beat it still counts.
const (
	BeatInterval = 5 * time.Second
	ProcessTTL   = 15 * time.Second
)

// NewProviderLimits limits the providers named by providerOf (a provider
// without an entry in totals is not limited) and registers its metrics on
// reg when set. It counts this process alone until Run has beaten once.
func NewProviderLimits(providerOf func(sightline.Engine) string, totals map[string]ProviderLimit,
	reg prometheus.Registerer) *ProviderLimits {
	return &ProviderLimits{id: uuid.Must(uuid.NewV7()), providerOf: providerOf, totals: totals, metrics: newProviderMetrics(reg),
		processes: 1, providers: map[string]*provider{}}
}

// Run beats every BeatInterval until ctx ends, then removes this process's
// row so that the others take its share at once.
func (l *ProviderLimits) Run(ctx context.Context, pool *pgxpool.Pool, logger *slog.Logger) {
	defer func() {
		forget, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		if err := oltp.ForgetWorkerProcess(forget, pool, l.id); err != nil {
			logger.Warn("forgetting this worker process", "error", err)
		}
	}()
	ticker := time.NewTicker(BeatInterval)
	defer ticker.Stop()
	for {
		if err := l.Beat(ctx, pool); err != nil && ctx.Err() == nil {
			logger.Warn("worker process beat failed; keeping the last shares", "error", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-ticker.C:
		}
	}
}

// Beat records that this process is alive and resizes its shares to the
// processes alive.
func (l *ProviderLimits) Beat(ctx context.Context, pool *pgxpool.Pool) error {
	n, err := oltp.BeatWorkerProcess(ctx, pool, l.id, ProcessTTL)
	if err != nil {
		return err
	}
	l.share(n)
	return nil
}

// share gives this process 1/processes of every limit.
func (l *ProviderLimits) share(processes int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if processes == l.processes {
		return
	}
	l.processes = processes
	for _, p := range l.providers {
		p.resize(processes)
	}
}

// provider returns the state of engine e's provider.
func (l *ProviderLimits) provider(e sightline.Engine) *provider {
	name := l.providerOf(e)
	l.mu.Lock()
	defer l.mu.Unlock()
	p, ok := l.providers[name]
	if !ok {
		p = newProvider(name, l.totals[name], l.metrics)
		p.resize(l.processes)
		l.providers[name] = p
	}
	return p
}

// Ask asks e one pass within the limits of req.Engine's provider. A
// provider backed off by an earlier Retry-After is not asked: Ask returns
// a ThrottledError saying how long is left. A nil ProviderLimits asks e
// directly.
func (l *ProviderLimits) Ask(ctx context.Context, e ingest.Engine, req ingest.Request) (ingest.Capture, error) {
	if l == nil {
		return e.Ask(ctx, req)
	}
	p := l.provider(req.Engine)
	if wait := p.backedOff(); wait > 0 {
		p.metrics.throttled.WithLabelValues(p.name, "backed_off").Inc()
		return ingest.Capture{}, &ThrottledError{Provider: p.name, Wait: wait}
	}
	if err := p.acquire(ctx); err != nil {
		return ingest.Capture{}, err
	}
	defer p.release()
	start := time.Now()
	capture, err := e.Ask(ctx, req)
	p.metrics.latency.WithLabelValues(p.name).Observe(time.Since(start).Seconds())
	var asked interface{ RetryDelay() time.Duration }
	if errors.As(err, &asked) && asked.RetryDelay() > 0 {
		p.backOff(asked.RetryDelay())
		p.metrics.throttled.WithLabelValues(p.name, "retry_after").Inc()
	}
	return capture, err
}

// ThrottledError is a pass not asked because its provider asked, in an
// earlier answer, to be left alone for a while.
type ThrottledError struct {
	Provider string
	Wait     time.Duration
}

func (e *ThrottledError) Error() string {
	return fmt.Sprintf("provider %s asked to wait; %s left", e.Provider, e.Wait.Round(time.Second))
}

// Retryable says asking later may succeed.
func (e *ThrottledError) Retryable() bool { return true }

// RetryDelay is how long is left of the provider's wait.
func (e *ThrottledError) RetryDelay() time.Duration { return e.Wait }

// provider is one provider's share of its limits in this process.
type provider struct {
	name    string
	total   ProviderLimit
	metrics *providerMetrics
	slots   *slots
	rate    *rate.Limiter // nil: no rate limit

	mu         sync.Mutex
	backoffEnd time.Time
}

func newProvider(name string, total ProviderLimit, m *providerMetrics) *provider {
	p := &provider{name: name, total: total, metrics: m, slots: newSlots()}
	if total.RequestsPerSecond > 0 {
		p.rate = rate.NewLimiter(rate.Limit(total.RequestsPerSecond), 1)
	}
	return p
}

// resize takes 1/processes of the totals: at least one request at a time,
// so that a process is never shut out.
func (p *provider) resize(processes int) {
	if p.total.Concurrency > 0 {
		p.slots.setLimit(max(1, p.total.Concurrency/processes))
	}
	if p.rate != nil {
		perSecond := p.total.RequestsPerSecond / float64(processes)
		p.rate.SetLimit(rate.Limit(perSecond))
		// A burst of one second's share, so that a share below one request
		// a second still lets requests through.
		p.rate.SetBurst(max(1, int(math.Ceil(perSecond))))
	}
}

func (p *provider) acquire(ctx context.Context) error {
	if err := p.slots.acquire(ctx); err != nil {
		return err
	}
	if p.rate != nil {
		if err := p.rate.Wait(ctx); err != nil {
			p.slots.release()
			return err
		}
	}
	p.metrics.inFlight.WithLabelValues(p.name).Inc()
	return nil
}

func (p *provider) release() {
	p.metrics.inFlight.WithLabelValues(p.name).Dec()
	p.slots.release()
}

func (p *provider) backOff(d time.Duration) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if end := time.Now().Add(d); end.After(p.backoffEnd) {
		p.backoffEnd = end
	}
}

func (p *provider) backedOff() time.Duration {
	p.mu.Lock()
	defer p.mu.Unlock()
	return time.Until(p.backoffEnd)
}

// slots is a counting semaphore whose size can change while it is held;
// waiters are served in arrival order. Its limit is 0 until set: no limit.
type slots struct {
	mu      sync.Mutex
	limit   int
	held    int
	waiters []chan struct{}
}

func newSlots() *slots { return &slots{} }

func (s *slots) acquire(ctx context.Context) error {
	s.mu.Lock()
	if s.limit == 0 || (s.held < s.limit && len(s.waiters) == 0) {
		s.held++
		s.mu.Unlock()
		return nil
	}
	ready := make(chan struct{})
	s.waiters = append(s.waiters, ready)
	s.mu.Unlock()
	select {
	case <-ready:
		return nil
	case <-ctx.Done():
		s.mu.Lock()
		defer s.mu.Unlock()
		select {
		case <-ready: // handed a slot meanwhile: give it on
			s.held--
			s.handOn()
		default:
			for i, w := range s.waiters {
				if w == ready {
					s.waiters = append(s.waiters[:i], s.waiters[i+1:]...)
					break
				}
			}
		}
		return ctx.Err()
	}
}

func (s *slots) release() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.held--
	s.handOn()
}

func (s *slots) setLimit(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.limit = n
	s.handOn()
}

// handOn gives free slots to the waiters, oldest first. Callers hold mu.
func (s *slots) handOn() {
	for len(s.waiters) > 0 && (s.limit == 0 || s.held < s.limit) {
		s.held++
		close(s.waiters[0])
		s.waiters = s.waiters[1:]
	}
}

// providerMetrics are the per-provider Prometheus metrics.
type providerMetrics struct {
	inFlight  *prometheus.GaugeVec
	latency   *prometheus.HistogramVec
	throttled *prometheus.CounterVec
}

func newProviderMetrics(reg prometheus.Registerer) *providerMetrics {
	m := &providerMetrics{
		inFlight: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "sightline_engine_requests_in_flight",
			Help: "Engine requests in flight in this process, by provider.",
		}, []string{"provider"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "sightline_engine_request_seconds",
			Help:    "Duration of engine requests, by provider, failures included.",
			Buckets: prometheus.ExponentialBuckets(0.05, 2, 12),
		}, []string{"provider"}),
		throttled: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "sightline_engine_throttled_total",
			Help: "Passes a provider throttled, by provider and how: retry_after (it answered 429 or 503 " +
				"with Retry-After) or backed_off (not asked while backing off after such an answer).",
		}, []string{"provider", "reason"}),
	}
	if reg != nil {
		reg.MustRegister(m.inFlight, m.latency, m.throttled)
	}
	return m
}

// ParseProviderLimits reads provider limits written as
// "provider=concurrency:requestsPerSecond" separated by commas, for
// example "openai=100:50,simulator=0:0" (0: no limit). Providers not named
// keep their entry in defaults.
func ParseProviderLimits(s string, defaults map[string]ProviderLimit) (map[string]ProviderLimit, error) {
	limits := make(map[string]ProviderLimit, len(defaults))
	for name, l := range defaults {
		limits[name] = l
	}
	for item := range strings.SplitSeq(s, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		name, value, ok := strings.Cut(item, "=")
		conc, perSecond, ok2 := strings.Cut(value, ":")
		if !ok || !ok2 {
			return nil, fmt.Errorf("%q: want provider=concurrency:requestsPerSecond", item)
		}
		name = strings.TrimSpace(name)
		if _, known := defaults[name]; !known {
			return nil, fmt.Errorf("%q: unknown provider %q", item, name)
		}
		c, err := strconv.Atoi(strings.TrimSpace(conc))
		if err != nil || c < 0 {
			return nil, fmt.Errorf("%q: concurrency must be a whole number >= 0", item)
		}
		r, err := strconv.ParseFloat(strings.TrimSpace(perSecond), 64)
		if err != nil || r < 0 || math.IsInf(r, 0) || math.IsNaN(r) {
			return nil, fmt.Errorf("%q: requests per second must be a number >= 0", item)
		}
		limits[name] = ProviderLimit{Concurrency: c, RequestsPerSecond: r}
	}
	return limits, nil
}
