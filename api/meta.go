package api

import (
	"context"
	"net/http"
)

func (s *server) handleDocument(*request) (any, error) { return s.doc, nil }

// handleHealthz answers while the process is up.
func (s *server) handleHealthz(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
}

// handleReadyz answers 200 only when both stores answer.
func (s *server) handleReadyz(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), healthTimeout)
	defer cancel()
	checks := map[string]string{"postgres": "ok", "clickhouse": "ok"}
	status := http.StatusOK
	if err := s.pool.Ping(ctx); err != nil {
		checks["postgres"], status = err.Error(), http.StatusServiceUnavailable
	}
	if err := s.ch.Ping(ctx); err != nil {
		checks["clickhouse"], status = err.Error(), http.StatusServiceUnavailable
	}
	writeJSON(w, status, checks)
}
