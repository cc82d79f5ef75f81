package api

import (
	"context"
	"net/http"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

func (s *server) handleDocument(*request) (any, error) { return s.doc, nil }

// handleHealthz answers while the process is up.
func (s *server) handleHealthz(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
}

// readiness is the answer of /readyz: ready, or not_ready with the names
// of the stores that did not answer. Why they did not is logged, never
// sent: a driver's error text names hosts, users and databases.
type readiness struct {
	Status  string   `json:"status"`
	Failing []string `json:"failing"`
}

// handleReadyz answers 200 only when both stores answer.
func (s *server) handleReadyz(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), healthTimeout)
	defer cancel()
	answer := readiness{Status: "ready", Failing: []string{}}
	for _, store := range []struct {
		name string
		ping func(context.Context) error
	}{{"postgres", s.pool.Ping}, {"clickhouse", s.ch.Ping}} {
		if err := store.ping(ctx); err != nil {
			s.logger.WarnContext(ctx, "readiness check failed", "requestId", requestIDFrom(ctx),
				"store", store.name, "error", err.Error())
			answer.Status, answer.Failing = "not_ready", append(answer.Failing, store.name)
		}
	}
	status := http.StatusOK
	if answer.Status != "ready" {
		status = http.StatusServiceUnavailable
	}
	writeJSON(w, status, answer)
}

// MetricsHandler serves the Prometheus metrics gathered by g. It is not
// part of the API's handler: the service serves it on a listener of its
// own (SIGHTLINE_METRICS_ADDR), by default on loopback only.
func MetricsHandler(g prometheus.Gatherer) http.Handler {
	return withNoSniff(promhttp.HandlerFor(g, promhttp.HandlerOpts{}))
}

// documentRoutes lists the operation serving this OpenAPI document.
func (s *server) documentRoutes() {
	s.handle(route{
		method: http.MethodGet, pattern: "/api/v1/doc/json", id: "getOpenAPIDocument", tag: "contract",
		summary: "This OpenAPI 3.0 document", public: true,
		response: described(openapi3.NewObjectSchema(), "The OpenAPI 3.0 document."),
		read:     s.handleDocument,
	})
}
