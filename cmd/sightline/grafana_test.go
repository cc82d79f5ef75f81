package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
)

// The Grafana board (deploy/grafana/sightline.json) must query only
// metrics the service exports: Sightline's own, found in the sources that
// register them, and the Go and process collectors serve registers.

var (
	metricLiteral = regexp.MustCompile(`"(sightline_[a-z0-9_]*)"`)
	// The pool collector names its metrics prefix + d("suffix", ...).
	metricSuffix = regexp.MustCompile(`\bd\("([a-z0-9_]+)"`)
	exprMetric   = regexp.MustCompile(`\b((?:sightline|go|process)_[a-z0-9_]+)\b`)
)

// exportedMetrics are the names the service registers.
func exportedMetrics(t *testing.T) map[string]bool {
	t.Helper()
	names := map[string]bool{}
	for _, dir := range []string{"../../api", "../../jobs", "../../olap", "../../oltp", "."} {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		for _, file := range files {
			if strings.HasSuffix(file, "_test.go") {
				continue
			}
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range metricLiteral.FindAllStringSubmatch(string(src), -1) {
				if !strings.HasSuffix(m[1], "_") {
					names[m[1]] = true
					continue
				}
				for _, s := range metricSuffix.FindAllStringSubmatch(string(src), -1) {
					names[m[1]+s[1]] = true
				}
			}
		}
	}
	descs := make(chan *prometheus.Desc, 256)
	collectors.NewGoCollector().Describe(descs)
	collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}).Describe(descs)
	close(descs)
	fqName := regexp.MustCompile(`fqName: "([^"]+)"`)
	for d := range descs {
		if m := fqName.FindStringSubmatch(d.String()); m != nil {
			names[m[1]] = true
		}
	}
	return names
}

type grafanaPanel struct {
	Title   string `json:"title"`
	Type    string `json:"type"`
	Targets []struct {
		Expr string `json:"expr"`
	} `json:"targets"`
	Panels []grafanaPanel `json:"panels"`
}

func TestGrafanaBoardQueriesExportedMetrics(t *testing.T) {
	t.Parallel()
	raw, err := os.ReadFile("../../deploy/grafana/sightline.json")
	if err != nil {
		t.Fatal(err)
	}
	var board struct {
		Title      string         `json:"title"`
		UID        string         `json:"uid"`
		Panels     []grafanaPanel `json:"panels"`
		Templating struct {
			List []struct {
				Query any `json:"query"`
			} `json:"list"`
		} `json:"templating"`
	}
	if err := json.Unmarshal(raw, &board); err != nil {
		t.Fatalf("the board is not JSON: %v", err)
	}
	if board.Title == "" || board.UID == "" {
		t.Error("the board has no title or uid")
	}
	exported := exportedMetrics(t)
	for _, want := range []string{"sightline_http_requests_total", "sightline_river_jobs", "sightline_postgres_pool_acquired_connections",
		"sightline_check_passes_total", "go_goroutines"} {
		if !exported[want] {
			t.Fatalf("the scan of the sources misses %s, which the service exports: %v", want, exported)
		}
	}
	known := func(name string) bool {
		for _, suffix := range []string{"", "_bucket", "_sum", "_count"} {
			if base, ok := strings.CutSuffix(name, suffix); ok && exported[base] {
				return true
			}
		}
		return false
	}
	queried := map[string]bool{}
	check := func(where, expr string) {
		for _, m := range exprMetric.FindAllStringSubmatch(expr, -1) {
			queried[m[1]] = true
			if !known(m[1]) {
				t.Errorf("%s queries %s, which the service does not export", where, m[1])
			}
		}
	}
	var walk func([]grafanaPanel)
	walk = func(panels []grafanaPanel) {
		for _, p := range panels {
			if p.Type != "row" && len(p.Targets) == 0 {
				t.Errorf("panel %q has no query", p.Title)
			}
			for _, target := range p.Targets {
				check("panel "+p.Title, target.Expr)
			}
			walk(p.Panels)
		}
	}
	walk(board.Panels)
	for _, v := range board.Templating.List {
		if q, ok := v.Query.(string); ok {
			check("a variable", q)
		}
	}
	// Every family the operators need is on the board.
	for _, name := range []string{"sightline_http_requests_total", "sightline_http_request_duration_seconds_bucket",
		"sightline_check_passes_total", "sightline_checks_total", "sightline_engine_request_duration_seconds_bucket",
		"sightline_river_jobs", "sightline_river_oldest_available_job_age_seconds", "sightline_olap_writer_flushes_total",
		"sightline_olap_writer_rows_total", "sightline_olap_writer_retries_total", "sightline_clickhouse_read_rows_total",
		"sightline_postgres_pool_acquired_connections", "sightline_check_budget_units"} {
		if !queried[name] {
			t.Errorf("the board shows no %s", name)
		}
	}
}
