package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sightline/sightline/olap/olaptest"
)

// process runs `sightline <args>` until stopped (as SIGTERM would) or the
// test ends.
func process(t *testing.T, getenv func(string) string, logs *syncWriter, args ...string) (stop func() error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- run(ctx, args, getenv, strings.NewReader(""), &bytes.Buffer{}, logs) }()
	stop = sync.OnceValue(func() error {
		cancel()
		select {
		case err := <-done:
			return err
		case <-time.After(30 * time.Second):
			return errors.New("did not stop within 30s")
		}
	})
	t.Cleanup(func() {
		if err := stop(); err != nil {
			t.Errorf("%v: %v", args, err)
		}
	})
	return stop
}

// TestProposalJobsAcrossProcesses runs the API and the workers as separate
// processes: jobs started while no worker runs wait queued, and a worker
// started later, or started again after a stop, works them to completion.
func TestProposalJobsAcrossProcesses(t *testing.T) {
	t.Parallel()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	logs := &syncWriter{}
	getenv := env(t, map[string]string{"CLICKHOUSE_URL": olaptest.NewDatabase(t), "SIGHTLINE_LISTEN": addr,
		"SIGHTLINE_PROPOSAL_WORKERS": "1"})
	s := &service{t: t, base: "http://" + addr, getenv: getenv, logs: logs}
	process(t, getenv, logs, "serve")
	// The worker processes run beside serve on this machine: its metrics
	// listener has the default address.
	workerEnv := func(k string) string {
		if k == "SIGHTLINE_METRICS_ADDR" {
			return "off"
		}
		return getenv(k)
	}
	s.eventually("ready", 10*time.Second, func() bool {
		res, err := http.Get(s.base + "/readyz")
		if err != nil {
			return false
		}
		res.Body.Close()
		return res.StatusCode == http.StatusOK
	})

	runJSON(t, getenv, "admin", "user", "create", "--email", "jobs@example.com")
	org := runJSON(t, getenv, "admin", "org", "create", "--name", "Proposal Jobs", "--owner-email", "jobs@example.com")["id"].(string)
	key := runJSON(t, getenv, "admin", "key", "create", "--email", "jobs@example.com", "--capabilities", "read,write",
		"--orgs", org)["key"].(string)
	base := "/api/v1/organizations/" + org
	project := s.must(key, "POST", base+"/projects", `{"name": "Acme", "websiteDomains": ["acme.com"], "brandNames": ["Acme"]}`, 201)["id"].(string)

	status := func(job map[string]any) string {
		return s.must(key, "GET", job["trackingUrl"].(string), "", 200)["status"].(string)
	}
	awaitCompleted := func(job map[string]any) {
		t.Helper()
		s.eventually("job completed", 30*time.Second, func() bool { return status(job) == "completed" })
	}

	names := s.must(key, "POST", base+"/brand-name-suggestions", `{"name": "HubSpot", "websiteDomains": ["hubspot.com"]}`, 202)
	brands := s.must(key, "POST", base+"/projects/"+project+"/discovery/brands", "", 202)
	time.Sleep(500 * time.Millisecond)
	if status(names) != "queued" || status(brands) != "queued" {
		t.Fatal("a job ran without a worker")
	}
	stopWorker := process(t, workerEnv, logs, "worker")
	awaitCompleted(names)
	awaitCompleted(brands)
	if err := stopWorker(); err != nil {
		t.Fatal(err)
	}

	again := s.must(key, "POST", base+"/brand-name-suggestions", `{"name": "Globex", "websiteDomains": ["globex.com"]}`, 202)
	time.Sleep(300 * time.Millisecond)
	if status(again) != "queued" {
		t.Fatal("a job ran with the worker stopped")
	}
	process(t, workerEnv, logs, "worker")
	awaitCompleted(again)
}

// TestProposalRefinerConfig: the model refines proposals only with live
// engines and an OpenAI key.
func TestProposalRefinerConfig(t *testing.T) {
	t.Parallel()
	live := map[string]string{"SIGHTLINE_ENGINES": "live", "OPENAI_API_KEY": "sk-x", "PERPLEXITY_API_KEY": "p",
		"SERPAPI_API_KEY": "s"}
	for name, vars := range map[string]map[string]string{"simulator": {}, "live": live} {
		cfg, err := loadConfig(func(k string) string { return vars[k] })
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if (cfg.Refiner != nil) != (name == "live") {
			t.Errorf("%s: refiner %v", name, cfg.Refiner)
		}
		if cfg.ProposalWorkers != 2 {
			t.Errorf("%s: %d proposal workers", name, cfg.ProposalWorkers)
		}
	}
	if _, err := loadConfig(func(k string) string { return map[string]string{"SIGHTLINE_PROPOSAL_WORKERS": "0"}[k] }); err == nil {
		t.Error("0 proposal workers accepted")
	}
}

// A worker process serves its own metrics: a deployment of separate API and
// worker processes scrapes the checks' and engines' figures from the worker.
func TestWorkerServesMetrics(t *testing.T) {
	t.Parallel()
	metricsAddr := freeAddress(t)
	getenv := env(t, map[string]string{"CLICKHOUSE_URL": olaptest.NewDatabase(t), "SIGHTLINE_METRICS_ADDR": metricsAddr})
	runJSON(t, getenv, "migrate")
	process(t, getenv, &syncWriter{}, "worker")
	deadline := time.Now().Add(20 * time.Second)
	for {
		resp, err := http.Get("http://" + metricsAddr + "/metrics")
		if err == nil {
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if !strings.Contains(string(body), `sightline_river_jobs{queue="checks"`) {
				t.Fatalf("the worker's /metrics has no queue depth:\n%.2000s", body)
			}
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the worker serves no /metrics on %s: %v", metricsAddr, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
