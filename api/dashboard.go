package api

import (
	"embed"
	"io/fs"
	"net/http"
	"path"
	"strings"

	"github.com/sightline/sightline"
)

// dashboardFiles is the dashboard page: hand-written HTML, CSS and ES
// modules, served as they are, so the binary needs no build step and the
// page works offline.
//
//go:embed dashboard
var dashboardFiles embed.FS

// dashboardPolicy lets the page load only its own files and talk only to
// this origin: no inline script, no third-party code that could read the
// API key out of sessionStorage.
const dashboardPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// dashboardRoutes serves the dashboard at / and its files under
// /dashboard/, outside the versioned API and its document. The page is a
// client of the public API and holds no privilege of its own.
func (s *server) dashboardRoutes() {
	files, err := fs.Sub(dashboardFiles, "dashboard")
	if err != nil {
		panic(err) // the directory is embedded at build time
	}
	serve := func(w http.ResponseWriter, r *http.Request, name string) {
		if info, err := fs.Stat(files, name); err != nil || info.IsDir() {
			s.writeError(w, r, sightline.Errorf(sightline.CodeNotFound, "No operation matches %s.", r.URL.Path))
			return
		}
		h := w.Header()
		h.Set("Content-Security-Policy", dashboardPolicy)
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Cache-Control", "no-cache")
		http.ServeFileFS(w, r, files, name)
	}
	s.router.Get("/", func(w http.ResponseWriter, r *http.Request) { serve(w, r, "index.html") })
	s.router.Get("/dashboard/*", func(w http.ResponseWriter, r *http.Request) {
		serve(w, r, path.Clean(strings.TrimPrefix(r.URL.Path, "/dashboard/")))
	})
}
