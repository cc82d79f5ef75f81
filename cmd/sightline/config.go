package main

import (
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"time"

	"github.com/sightline/sightline"
	"github.com/sightline/sightline/api"
	"github.com/sightline/sightline/ingest"
	"github.com/sightline/sightline/ingest/engine"
	"github.com/sightline/sightline/ingest/simulator"
	"github.com/sightline/sightline/jobs"
	"github.com/sightline/sightline/proposal/refine"
)

// config is read from the environment. Every variable has a default that
// matches the project-local engines `make run` starts.
type config struct {
	DatabaseURL     string        // DATABASE_URL
	ClickHouseURL   string        // CLICKHOUSE_URL
	Listen          string        // SIGHTLINE_LISTEN
	MetricsAddr     string        // SIGHTLINE_METRICS_ADDR: where /metrics is served; "off" serves none
	LogLevel        slog.Level    // SIGHTLINE_LOG_LEVEL: debug, info, warn, error
	PGMaxConns      int32         // SIGHTLINE_PG_MAX_CONNS
	Limits          api.Limits    // SIGHTLINE_RATE_LIMIT_USER, _KEY, SIGHTLINE_JOB_STARTS_PER_MINUTE, SIGHTLINE_AUTH_FAILURES_PER_MINUTE
	MaxBodyBytes    int64         // SIGHTLINE_MAX_BODY_BYTES
	ShutdownTimeout time.Duration // SIGHTLINE_SHUTDOWN_TIMEOUT
	// SoftStopTimeout is how long running jobs may finish after SIGTERM
	// before they are cancelled (SIGHTLINE_SOFT_STOP_TIMEOUT).
	SoftStopTimeout    time.Duration
	WriteTimeout       time.Duration // SIGHTLINE_WRITE_TIMEOUT: the longest a response may take to send
	CheckWorkers       int           // SIGHTLINE_CHECK_WORKERS: concurrent check runs per worker process
	PassConcurrency    int           // SIGHTLINE_CHECK_PASS_CONCURRENCY: passes of one run asked at once
	MaintenanceWorkers int           // SIGHTLINE_MAINTENANCE_WORKERS: concurrent maintenance jobs per worker process
	ProposalWorkers    int           // SIGHTLINE_PROPOSAL_WORKERS: concurrent proposal jobs per worker process
	// ProviderLimits are every engine provider's limits over all worker
	// processes (SIGHTLINE_PROVIDER_LIMITS).
	ProviderLimits map[string]jobs.ProviderLimit
	ReviewURL      string // REVIEW_URL: where reports of captured AI answers are forwarded
	// Engines answers checks: the deterministic simulator by default, the
	// live adapters with SIGHTLINE_ENGINES=live (see package ingest/engine).
	Engines ingest.Engine
	// Providers names the provider an engine's passes go to.
	Providers func(sightline.Engine) string
	// Refiner lets the chatgpt engine's model improve proposal jobs: only
	// with SIGHTLINE_ENGINES=live and OPENAI_API_KEY (package proposal/refine).
	Refiner jobs.ProposalRefiner
}

// simulatorSeed fixes the simulator's answers, so demo data and tests are
// the same on every machine.
const simulatorSeed = 1

// defaultPassConcurrency asks half of the largest run's passes at once.
const defaultPassConcurrency = 5

// defaultProviderLimits are the engine providers' limits over every worker
// process, "concurrency:requests per second" (0: no limit). They sit under
// the providers' usual account limits; raise them to what a contract allows.
var defaultProviderLimits = map[string]jobs.ProviderLimit{
	engine.ProviderOpenAI:     {Concurrency: 100, RequestsPerSecond: 50},
	engine.ProviderPerplexity: {Concurrency: 50, RequestsPerSecond: 20},
	engine.ProviderSerpAPI:    {Concurrency: 100, RequestsPerSecond: 50},
	engine.ProviderDataForSEO: {Concurrency: 100, RequestsPerSecond: 30},
	engine.ProviderSimulator:  {},
}

const (
	defaultMetricsAddr   = "127.0.0.1:9464"
	defaultDatabaseURL   = "postgres://postgres@127.0.0.1:54329/sightline?sslmode=disable"
	defaultClickHouseURL = "http://127.0.0.1:18123/default"
)

func loadConfig(getenv func(string) string) (config, error) {
	cfg := config{
		DatabaseURL:   or(getenv("DATABASE_URL"), defaultDatabaseURL),
		ClickHouseURL: or(getenv("CLICKHOUSE_URL"), defaultClickHouseURL),
		Listen:        or(getenv("SIGHTLINE_LISTEN"), "127.0.0.1:8080"),
		MetricsAddr:   or(getenv("SIGHTLINE_METRICS_ADDR"), defaultMetricsAddr),
		Limits:        api.DefaultLimits,
	}
	if err := cfg.LogLevel.UnmarshalText([]byte(or(getenv("SIGHTLINE_LOG_LEVEL"), "info"))); err != nil {
		return cfg, fmt.Errorf("SIGHTLINE_LOG_LEVEL: %w", err)
	}
	var err error
	ints := []struct {
		name string
		dst  *int
		def  int
	}{
		{"SIGHTLINE_RATE_LIMIT_USER", &cfg.Limits.PerUser, api.DefaultLimits.PerUser},
		{"SIGHTLINE_RATE_LIMIT_KEY", &cfg.Limits.PerKey, api.DefaultLimits.PerKey},
		{"SIGHTLINE_JOB_STARTS_PER_MINUTE", &cfg.Limits.JobStartsPerOrg, api.DefaultLimits.JobStartsPerOrg},
		{"SIGHTLINE_AUTH_FAILURES_PER_MINUTE", &cfg.Limits.AuthFailuresPerAddress, api.DefaultLimits.AuthFailuresPerAddress},
		{"SIGHTLINE_CHECK_WORKERS", &cfg.CheckWorkers, jobs.DefaultCheckWorkers},
		{"SIGHTLINE_CHECK_PASS_CONCURRENCY", &cfg.PassConcurrency, defaultPassConcurrency},
		{"SIGHTLINE_MAINTENANCE_WORKERS", &cfg.MaintenanceWorkers, jobs.DefaultMaintenanceWorkers},
		{"SIGHTLINE_PROPOSAL_WORKERS", &cfg.ProposalWorkers, 2},
	}
	for _, v := range ints {
		if *v.dst, err = positiveInt(getenv, v.name, v.def); err != nil {
			return cfg, err
		}
	}
	maxConns, err := positiveInt(getenv, "SIGHTLINE_PG_MAX_CONNS", 40)
	if err != nil {
		return cfg, err
	}
	cfg.PGMaxConns = int32(maxConns)
	maxBody, err := positiveInt(getenv, "SIGHTLINE_MAX_BODY_BYTES", api.DefaultMaxBodyBytes)
	if err != nil {
		return cfg, err
	}
	cfg.MaxBodyBytes = int64(maxBody)
	cfg.ShutdownTimeout, err = time.ParseDuration(or(getenv("SIGHTLINE_SHUTDOWN_TIMEOUT"), "30s"))
	if err != nil {
		return cfg, fmt.Errorf("SIGHTLINE_SHUTDOWN_TIMEOUT: %w", err)
	}
	cfg.SoftStopTimeout, err = time.ParseDuration(or(getenv("SIGHTLINE_SOFT_STOP_TIMEOUT"), "25s"))
	if err != nil || cfg.SoftStopTimeout < 0 {
		return cfg, fmt.Errorf("SIGHTLINE_SOFT_STOP_TIMEOUT must be a duration >= 0, got %q", getenv("SIGHTLINE_SOFT_STOP_TIMEOUT"))
	}
	if cfg.ProviderLimits, err = jobs.ParseProviderLimits(getenv("SIGHTLINE_PROVIDER_LIMITS"), defaultProviderLimits); err != nil {
		return cfg, fmt.Errorf("SIGHTLINE_PROVIDER_LIMITS: %w", err)
	}
	cfg.WriteTimeout, err = time.ParseDuration(or(getenv("SIGHTLINE_WRITE_TIMEOUT"), "60s"))
	if err != nil || cfg.WriteTimeout <= 0 {
		return cfg, fmt.Errorf("SIGHTLINE_WRITE_TIMEOUT must be a positive duration, got %q", getenv("SIGHTLINE_WRITE_TIMEOUT"))
	}
	cfg.ReviewURL = getenv("REVIEW_URL")
	router, err := engine.FromEnv(getenv, simulator.New(simulatorSeed), &http.Client{})
	if err != nil {
		return cfg, err
	}
	cfg.Engines, cfg.Providers = router, router.Provider
	if getenv("SIGHTLINE_ENGINES") == "live" && getenv("OPENAI_API_KEY") != "" {
		cfg.Refiner = refine.New(refine.Config{APIKey: getenv("OPENAI_API_KEY"), Model: getenv("OPENAI_MODEL"),
			BaseURL: getenv("OPENAI_BASE_URL"), Client: &http.Client{}})
	}
	return cfg, nil
}

func or(v, def string) string {
	if v == "" {
		return def
	}
	return v
}

func positiveInt(getenv func(string) string, name string, def int) (int, error) {
	v := getenv(name)
	if v == "" {
		return def, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("%s must be a positive integer, got %q", name, v)
	}
	return n, nil
}
