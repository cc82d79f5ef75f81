package engine

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/sightline/sightline"
	"github.com/sightline/sightline/ingest"
)

// Router sends every pass to the engine configured for its req.Engine.
type Router struct {
	routes map[sightline.Engine]ingest.Engine
}

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
func FromEnv(getenv func(string) string, fallback ingest.Engine, client *http.Client) (ingest.Engine, error) {
	env := func(name string) string { return strings.TrimSpace(getenv(name)) }
	routes := make(map[sightline.Engine]ingest.Engine, len(sightline.Engines))
	switch mode := env("SIGHTLINE_ENGINES"); mode {
	case "", "simulator":
		if fallback == nil {
			return nil, errors.New("SIGHTLINE_ENGINES=simulator: no simulator engine was given to route to")
		}
		for _, e := range sightline.Engines {
			routes[e] = fallback
		}
		return &Router{routes: routes}, nil
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

	routes[sightline.EngineChatGPT] = NewOpenAI(OpenAIConfig{
		APIKey:  need("OPENAI_API_KEY", "chatgpt"),
		Model:   env("OPENAI_MODEL"),
		BaseURL: base("OPENAI_BASE_URL"),
	}, o)
	routes[sightline.EnginePerplexity] = NewPerplexity(PerplexityConfig{
		APIKey:  need("PERPLEXITY_API_KEY", "perplexity"),
		Model:   env("PERPLEXITY_MODEL"),
		BaseURL: base("PERPLEXITY_BASE_URL"),
	}, o)

	google := []sightline.Engine{sightline.EngineGoogleSERP, sightline.EngineGoogleAIOverview, sightline.EngineGoogleAIMode}
	switch provider := env("SERP_PROVIDER"); provider {
	case "", "serpapi":
		serp := NewSerpAPI(SerpAPIConfig{
			APIKey:  need("SERPAPI_API_KEY", "google_serp, google_ai_overview, google_ai_mode and google_shopping"),
			BaseURL: base("SERPAPI_BASE_URL"),
		}, o)
		for _, e := range google {
			routes[e] = serp
		}
		routes[sightline.EngineGoogleShopping] = serp
	case "dataforseo":
		dfs := NewDataForSEO(DataForSEOConfig{
			Login:    need("DATAFORSEO_LOGIN", "google_serp, google_ai_overview and google_ai_mode"),
			Password: need("DATAFORSEO_PASSWORD", "google_serp, google_ai_overview and google_ai_mode"),
			BaseURL:  base("DATAFORSEO_BASE_URL"),
		}, o)
		for _, e := range google {
			routes[e] = dfs
		}
		routes[sightline.EngineGoogleShopping] = NewSerpAPI(SerpAPIConfig{
			APIKey:  need("SERPAPI_API_KEY", "google_shopping, which DataForSEO has no live endpoint for"),
			BaseURL: base("SERPAPI_BASE_URL"),
		}, o)
	default:
		errs = append(errs, fmt.Errorf("SERP_PROVIDER=%q: want serpapi or dataforseo", provider))
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return &Router{routes: routes}, nil
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
