package api

import (
	"context"
	"log/slog"
	"net/http"
	"strconv"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/google/uuid"
	"github.com/prometheus/client_golang/prometheus"
)

type contextKey int

const requestIDKey contextKey = iota

func requestIDFrom(ctx context.Context) string {
	id, _ := ctx.Value(requestIDKey).(string)
	return id
}

// withRequestID gives every request a fresh uuid, echoed in X-Request-Id,
// every error body and every log line about the request.
func withRequestID(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := uuid.NewString()
		w.Header().Set("X-Request-Id", id)
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), requestIDKey, id)))
	})
}

// withNoSniff tells browsers never to guess a response's type from its
// content: an error echoing a client's text must stay JSON.
func withNoSniff(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Content-Type-Options", "nosniff")
		next.ServeHTTP(w, r)
	})
}

// statusRecorder remembers the status a handler sent.
type statusRecorder struct {
	http.ResponseWriter
	status int
}

func (s *statusRecorder) WriteHeader(code int) {
	if s.status == 0 {
		s.status = code
	}
	s.ResponseWriter.WriteHeader(code)
}

func (s *statusRecorder) Write(b []byte) (int, error) {
	if s.status == 0 {
		s.status = http.StatusOK
	}
	return s.ResponseWriter.Write(b)
}

// httpMetrics are the request counters and latencies exported at /metrics.
type httpMetrics struct {
	requests *prometheus.CounterVec
	duration *prometheus.HistogramVec
}

func newHTTPMetrics(reg prometheus.Registerer) (*httpMetrics, error) {
	m := &httpMetrics{
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "sightline_http_requests_total",
			Help: "HTTP requests answered, by method, route pattern and status.",
		}, []string{"method", "route", "status"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "sightline_http_request_duration_seconds",
			Help:    "Time to answer HTTP requests, by method and route pattern.",
			Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10},
		}, []string{"method", "route"}),
	}
	for _, c := range []prometheus.Collector{m.requests, m.duration} {
		if err := reg.Register(c); err != nil {
			return nil, err
		}
	}
	return m, nil
}

// withObservation logs and measures every request once it is answered, by
// its route pattern (never its raw path, which would explode the labels),
// and turns a panic into a logged internal_error.
func (s *server) withObservation(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		rec := &statusRecorder{ResponseWriter: w}
		defer func() {
			if p := recover(); p != nil {
				if p == http.ErrAbortHandler {
					panic(p)
				}
				s.logger.ErrorContext(r.Context(), "panic serving request", "requestId", requestIDFrom(r.Context()), "panic", p)
				if rec.status == 0 {
					s.writeError(rec, r, errPanic)
				}
			}
			route := chi.RouteContext(r.Context()).RoutePattern()
			if route == "" {
				route = "unmatched"
			}
			elapsed := time.Since(start)
			status := rec.status
			if status == 0 {
				status = http.StatusOK
			}
			s.metrics.requests.WithLabelValues(r.Method, route, strconv.Itoa(status)).Inc()
			s.metrics.duration.WithLabelValues(r.Method, route).Observe(elapsed.Seconds())
			level := slog.LevelInfo
			if status >= 500 {
				level = slog.LevelError
			}
			s.logger.Log(r.Context(), level, "request", "requestId", requestIDFrom(r.Context()),
				"method", r.Method, "route", route, "path", r.URL.Path, "status", status,
				"durationMs", float64(elapsed.Microseconds())/1000)
		}()
		next.ServeHTTP(rec, r)
	})
}
