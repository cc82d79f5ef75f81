package engine

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/sightline/sightline"
	"github.com/sightline/sightline/ingest"
)

// The providers an engine's passes go to, as Router.Provider names them:
// the unit that per-provider limits count in.
const (
	ProviderSimulator  = "simulator"
	ProviderOpenAI     = "openai"
	ProviderPerplexity = "perplexity"
	ProviderSerpAPI    = "serpapi"
	ProviderDataForSEO = "dataforseo"
)

// Providers lists every provider name.
var Providers = []string{ProviderOpenAI, ProviderPerplexity, ProviderSerpAPI, ProviderDataForSEO, ProviderSimulator}

// Router sends every pass to the engine configured for its req.Engine.
type Router struct {
	routes    map[sightline.Engine]ingest.Engine
	providers map[sightline.Engine]string
}

// Provider names the provider the passes of engine e go to; empty for an
// engine with no route.
func (r *Router) Provider(e sightline.Engine) string { return r.providers[e] }

// Ask asks the engine routed for req.Engine; an engine with no route is
// Rejected.
func (r *Router) Ask(ctx context.Context, req ingest.Request) (ingest.Capture, error) {
	e, ok := r.routes[req.Engine]
	if !ok {
		return ingest.Capture{}, newError(req.Engine, Rejected, "no engine is configured for %q", req.Engine)
	}
	return e.Ask(ctx, req)
}

// FromEnv builds the Router the environment describes (see the package
// documentation for every variable). In simulator mode (the default) every
// engine goes to fallback. In live mode every engine goes to its real
// adapter, all sharing client (nil: a plain *http.Client); a missing
// credential or an unreadable value is an error naming the variable, and
// all such problems are reported together.
func FromEnv(getenv func(string) string, fallback ingest.Engine, client *http.Client) (*Router, error) {
	env := func(name string) string { return strings.TrimSpace(getenv(name)) }
	routes := make(map[sightline.Engine]ingest.Engine, len(sightline.Engines))
	providers := make(map[sightline.Engine]string, len(sightline.Engines))
	route := func(provider string, to ingest.Engine, engines ...sightline.Engine) {
		for _, e := range engines {
			routes[e], providers[e] = to, provider
		}
	}
	switch mode := env("SIGHTLINE_ENGINES"); mode {
	case "", "simulator":
		if fallback == nil {
			return nil, errors.New("SIGHTLINE_ENGINES=simulator: no simulator engine was given to route to")
		}
		least, most, err := parseLatency(env("SIGHTLINE_SIMULATOR_LATENCY"))
		if err != nil {
			return nil, err
		}
		if most > 0 {
			fallback = &delayed{Engine: fallback, least: least, most: most}
		}
		route(ProviderSimulator, fallback, sightline.Engines...)
		return &Router{routes: routes, providers: providers}, nil
	case "live":
	default:
		return nil, fmt.Errorf("SIGHTLINE_ENGINES=%q: want simulator or live", mode)
	}

	var errs []error
	need := func(name, engines string) string {
		v := env(name)
		if v == "" {
			errs = append(errs, fmt.Errorf("SIGHTLINE_ENGINES=live: %s is not set (needed for %s)", name, engines))
		}
		return v
	}
	base := func(name string) string {
		v := env(name)
		if v == "" {
			return ""
		}
		u, err := url.Parse(v)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			errs = append(errs, fmt.Errorf("%s=%q: want an absolute http or https URL", name, v))
		}
		return v
	}
	timeout, err := parseTimeout(env("ENGINE_TIMEOUT"))
	if err != nil {
		errs = append(errs, err)
	}
	o := Options{Client: client, Timeout: timeout}

	route(ProviderOpenAI, NewOpenAI(OpenAIConfig{APIKey: need("OPENAI_API_KEY", "chatgpt"),
		Model: env("OPENAI_MODEL"), BaseURL: base("OPENAI_BASE_URL")}, o), sightline.EngineChatGPT)
	route(ProviderPerplexity, NewPerplexity(PerplexityConfig{APIKey: need("PERPLEXITY_API_KEY", "perplexity"),
		Model: env("PERPLEXITY_MODEL"), BaseURL: base("PERPLEXITY_BASE_URL")}, o), sightline.EnginePerplexity)

	google := []sightline.Engine{sightline.EngineGoogleSERP, sightline.EngineGoogleAIOverview, sightline.EngineGoogleAIMode}
	switch provider := env("SERP_PROVIDER"); provider {
	case "", "serpapi":
		serp := NewSerpAPI(SerpAPIConfig{
			APIKey:  need("SERPAPI_API_KEY", "google_serp, google_ai_overview, google_ai_mode and google_shopping"),
			BaseURL: base("SERPAPI_BASE_URL"),
		}, o)
		route(ProviderSerpAPI, serp, append(google, sightline.EngineGoogleShopping)...)
	case "dataforseo":
		dfs := NewDataForSEO(DataForSEOConfig{
			Login:    need("DATAFORSEO_LOGIN", "google_serp, google_ai_overview and google_ai_mode"),
			Password: need("DATAFORSEO_PASSWORD", "google_serp, google_ai_overview and google_ai_mode"),
			BaseURL:  base("DATAFORSEO_BASE_URL"),
		}, o)
		route(ProviderDataForSEO, dfs, google...)
		route(ProviderSerpAPI, NewSerpAPI(SerpAPIConfig{
			APIKey:  need("SERPAPI_API_KEY", "google_shopping, which DataForSEO has no live endpoint for"),
			BaseURL: base("SERPAPI_BASE_URL"),
		}, o), sightline.EngineGoogleShopping)
	default:
		errs = append(errs, fmt.Errorf("SERP_PROVIDER=%q: want serpapi or dataforseo", provider))
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return &Router{routes: routes, providers: providers}, nil
}

// parseLatency reads SIGHTLINE_SIMULATOR_LATENCY: empty, a duration, or
// a range "least-most" of durations.
func parseLatency(v string) (least, most time.Duration, err error) {
	if v == "" {
		return 0, 0, nil
	}
	lo, hi, isRange := strings.Cut(v, "-")
	if !isRange {
		hi = lo
	}
	least, err = time.ParseDuration(strings.TrimSpace(lo))
	if err == nil {
		most, err = time.ParseDuration(strings.TrimSpace(hi))
	}
	if err != nil || least < 0 || most < least {
		return 0, 0, fmt.Errorf("SIGHTLINE_SIMULATOR_LATENCY=%q: want a duration (2s) or a range (5s-30s)", v)
	}
	return least, most, nil
}

// delayed answers after a pause drawn uniformly from [least, most], as a
// live engine takes seconds to answer, so that load tests see realistic
// concurrency.
type delayed struct {
	ingest.Engine
	least, most time.Duration
}

func (d *delayed) Ask(ctx context.Context, req ingest.Request) (ingest.Capture, error) {
	pause := d.least + rand.N(d.most-d.least+1)
	timer := time.NewTimer(pause)
	defer timer.Stop()
	select {
	case <-timer.C:
		return d.Engine.Ask(ctx, req)
	case <-ctx.Done():
		return ingest.Capture{}, ctx.Err()
	}
}

// parseTimeout reads ENGINE_TIMEOUT: a Go duration ("45s", "2m") or whole
// seconds ("45"); empty means DefaultTimeout.
func parseTimeout(v string) (time.Duration, error) {
	if v == "" {
		return DefaultTimeout, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil {
		s, aerr := strconv.Atoi(v)
		if aerr != nil {
			return 0, fmt.Errorf("ENGINE_TIMEOUT=%q: want a duration such as 60s or a number of seconds", v)
		}
		d = time.Duration(s) * time.Second
	}
	if d <= 0 {
		return 0, fmt.Errorf("ENGINE_TIMEOUT=%q: must be positive", v)
	}
	return d, nil
}
