package engine

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sightline/sightline"
	"github.com/sightline/sightline/ingest"
)

// routerFake is a stand-in simulator that records what it was asked.
type routerFake struct {
	mu    sync.Mutex
	asked []sightline.Engine
}

func (f *routerFake) Ask(_ context.Context, req ingest.Request) (ingest.Capture, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.asked = append(f.asked, req.Engine)
	return ingest.Capture{Engine: req.Engine, Answer: &ingest.Answer{Text: "simulated"}}, nil
}

func envOf(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

func TestFromEnvSimulator(t *testing.T) {
	t.Parallel()
	for _, mode := range []string{"", "simulator", " simulator "} {
		fake := &routerFake{}
		r, err := FromEnv(envOf(map[string]string{"SIGHTLINE_ENGINES": mode, "OPENAI_API_KEY": "ignored"}), fake, nil)
		if err != nil {
			t.Fatalf("mode %q: %v", mode, err)
		}
		for _, e := range sightline.Engines {
			c, err := r.Ask(t.Context(), ingest.Request{Engine: e})
			if err != nil || c.Answer == nil || c.Answer.Text != "simulated" {
				t.Errorf("mode %q engine %s: %+v %v", mode, e, c, err)
			}
		}
		if len(fake.asked) != len(sightline.Engines) {
			t.Errorf("mode %q: simulator asked %v", mode, fake.asked)
		}
	}
}

func TestFromEnvSimulatorLatency(t *testing.T) {
	t.Parallel()
	cases := []struct {
		latency     string
		least, most time.Duration
		bad         bool
	}{
		{latency: "30ms", least: 30 * time.Millisecond, most: 30 * time.Millisecond},
		{latency: "20ms-60ms", least: 20 * time.Millisecond, most: 60 * time.Millisecond},
		{latency: "60ms-20ms", bad: true},
		{latency: "fast", bad: true},
		{latency: "-1s", bad: true},
	}
	for _, tc := range cases {
		r, err := FromEnv(envOf(map[string]string{"SIGHTLINE_SIMULATOR_LATENCY": tc.latency}), &routerFake{}, nil)
		if tc.bad {
			if err == nil {
				t.Errorf("%q accepted", tc.latency)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%q: %v", tc.latency, err)
		}
		if p := r.Provider(sightline.EngineChatGPT); p != ProviderSimulator {
			t.Errorf("%q: provider %q", tc.latency, p)
		}
		start := time.Now()
		if _, err := r.Ask(t.Context(), ingest.Request{Engine: sightline.EngineChatGPT}); err != nil {
			t.Fatal(err)
		}
		if took := time.Since(start); took < tc.least || took > tc.most+time.Second {
			t.Errorf("%q: answered in %s", tc.latency, took)
		}
	}
	// A stopped check does not wait for the simulated latency.
	r, err := FromEnv(envOf(map[string]string{"SIGHTLINE_SIMULATOR_LATENCY": "1h"}), &routerFake{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Millisecond)
	defer cancel()
	if _, err := r.Ask(ctx, ingest.Request{Engine: sightline.EngineChatGPT}); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("cancelled ask returned %v", err)
	}
}

func TestFromEnvErrors(t *testing.T) {
	t.Parallel()
	live := func(extra map[string]string) map[string]string {
		m := map[string]string{
			"SIGHTLINE_ENGINES": "live", "OPENAI_API_KEY": "sk", "PERPLEXITY_API_KEY": "pplx", "SERPAPI_API_KEY": "serp",
		}
		for k, v := range extra {
			if v == "<unset>" {
				delete(m, k)
				continue
			}
			m[k] = v
		}
		return m
	}
	cases := []struct {
		name     string
		env      map[string]string
		fallback bool
		want     []string // every one must appear in the error
	}{
		{name: "simulator without a simulator", env: map[string]string{}, want: []string{"SIGHTLINE_ENGINES=simulator"}},
		{name: "unknown mode", env: map[string]string{"SIGHTLINE_ENGINES": "real"}, fallback: true, want: []string{`SIGHTLINE_ENGINES="real"`}},
		{name: "no OpenAI key", env: live(map[string]string{"OPENAI_API_KEY": "<unset>"}), want: []string{"OPENAI_API_KEY is not set", "chatgpt"}},
		{name: "no Perplexity key", env: live(map[string]string{"PERPLEXITY_API_KEY": " "}), want: []string{"PERPLEXITY_API_KEY is not set"}},
		{name: "no SerpApi key", env: live(map[string]string{"SERPAPI_API_KEY": "<unset>"}), want: []string{"SERPAPI_API_KEY is not set", "google_serp"}},
		{name: "everything missing at once", env: map[string]string{"SIGHTLINE_ENGINES": "live"},
			want: []string{"OPENAI_API_KEY", "PERPLEXITY_API_KEY", "SERPAPI_API_KEY"}},
		{name: "DataForSEO without credentials", env: live(map[string]string{"SERP_PROVIDER": "dataforseo"}),
			want: []string{"DATAFORSEO_LOGIN is not set", "DATAFORSEO_PASSWORD is not set"}},
		{name: "DataForSEO still needs SerpApi for shopping",
			env:  live(map[string]string{"SERP_PROVIDER": "dataforseo", "DATAFORSEO_LOGIN": "l", "DATAFORSEO_PASSWORD": "p", "SERPAPI_API_KEY": "<unset>"}),
			want: []string{"SERPAPI_API_KEY is not set", "google_shopping"}},
		{name: "unknown SERP provider", env: live(map[string]string{"SERP_PROVIDER": "brightdata"}), want: []string{`SERP_PROVIDER="brightdata"`}},
		{name: "bad timeout", env: live(map[string]string{"ENGINE_TIMEOUT": "soon"}), want: []string{`ENGINE_TIMEOUT="soon"`}},
		{name: "zero timeout", env: live(map[string]string{"ENGINE_TIMEOUT": "0s"}), want: []string{"ENGINE_TIMEOUT", "positive"}},
		{name: "negative timeout", env: live(map[string]string{"ENGINE_TIMEOUT": "-5"}), want: []string{"ENGINE_TIMEOUT", "positive"}},
		{name: "relative base URL", env: live(map[string]string{"OPENAI_BASE_URL": "api.openai.com"}), want: []string{`OPENAI_BASE_URL="api.openai.com"`}},
		{name: "non-http base URL", env: live(map[string]string{"SERPAPI_BASE_URL": "ftp://serpapi.com"}), want: []string{"SERPAPI_BASE_URL"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var fallback ingest.Engine
			if tc.fallback {
				fallback = &routerFake{}
			}
			r, err := FromEnv(envOf(tc.env), fallback, nil)
			if err == nil {
				t.Fatalf("FromEnv = %v, want an error", r)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
		})
	}
}

func TestParseTimeout(t *testing.T) {
	t.Parallel()
	cases := map[string]time.Duration{"": DefaultTimeout, "45": 45 * time.Second, "1m30s": 90 * time.Second, "250ms": 250 * time.Millisecond}
	for in, want := range cases {
		if got, err := parseTimeout(in); err != nil || got != want {
			t.Errorf("parseTimeout(%q) = %s, %v; want %s", in, got, err, want)
		}
	}
}

// TestFromEnvLive routes every engine through FromEnv to fake providers and
// checks each reached the right one with the right credentials, and that
// ENGINE_TIMEOUT applies.
func TestFromEnvLive(t *testing.T) {
	t.Parallel()
	openai := newProvider(t, serving(sample(t, "openai-responses-web-search.json")))
	perplexity := newProvider(t, serving(sample(t, "perplexity-sonar-chat.json")))
	serp := newProvider(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Query().Get("engine") {
		case "google_shopping":
			serving(sample(t, "serpapi-google-shopping.json"))(w, r)
		case "google_ai_mode":
			serving(sample(t, "serpapi-google-ai-mode.json"))(w, r)
		default:
			serving(sample(t, "serpapi-google-inline-ai-overview.partial.json"))(w, r)
		}
	})
	dfs := newProvider(t, func(w http.ResponseWriter, r *http.Request) {
		if strings.Contains(r.URL.Path, "ai_mode") {
			serving(sample(t, "dataforseo-google-ai-mode-advanced.json"))(w, r)
			return
		}
		serving(sample(t, "dataforseo-google-organic-advanced.json"))(w, r)
	})
	slow := newProvider(t, func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() })

	base := map[string]string{
		"SIGHTLINE_ENGINES": "live",
		"OPENAI_API_KEY":    "sk-live", "OPENAI_MODEL": "gpt-5.2", "OPENAI_BASE_URL": openai.srv.URL + "/v1",
		"PERPLEXITY_API_KEY": "pplx-live", "PERPLEXITY_MODEL": "sonar-pro", "PERPLEXITY_BASE_URL": perplexity.srv.URL,
		"SERPAPI_API_KEY": "serp-live", "SERPAPI_BASE_URL": serp.srv.URL,
		"DATAFORSEO_LOGIN": "dfs-login", "DATAFORSEO_PASSWORD": "dfs-pw", "DATAFORSEO_BASE_URL": dfs.srv.URL,
		"ENGINE_TIMEOUT": "10s",
	}
	cases := []struct {
		provider string
		want     map[sightline.Engine]*provider
	}{
		{"serpapi", map[sightline.Engine]*provider{
			sightline.EngineChatGPT: openai, sightline.EnginePerplexity: perplexity,
			sightline.EngineGoogleSERP: serp, sightline.EngineGoogleAIOverview: serp, sightline.EngineGoogleAIMode: serp, sightline.EngineGoogleShopping: serp}},
		{"dataforseo", map[sightline.Engine]*provider{
			sightline.EngineChatGPT: openai, sightline.EnginePerplexity: perplexity,
			sightline.EngineGoogleSERP: dfs, sightline.EngineGoogleAIOverview: dfs, sightline.EngineGoogleAIMode: dfs, sightline.EngineGoogleShopping: serp}},
	}
	// The subtests share the fake providers, so they run one after the other.
	for _, tc := range cases {
		env := map[string]string{"SERP_PROVIDER": tc.provider}
		for k, v := range base {
			env[k] = v
		}
		r, err := FromEnv(envOf(env), &routerFake{}, &http.Client{})
		if err != nil {
			t.Fatalf("%s: %v", tc.provider, err)
		}
		for _, e := range sightline.Engines {
			p := tc.want[e]
			before := len(p.all())
			c, err := r.Ask(t.Context(), ingest.Request{Engine: e, QueryText: "q", Country: "US", Locale: "en"})
			if err != nil {
				t.Fatalf("%s %s: %v", tc.provider, e, err)
			}
			if (c.Answer != nil) != e.AI() || c.Engine != e {
				t.Errorf("%s %s: capture %+v", tc.provider, e, c)
			}
			names := map[*provider]string{openai: ProviderOpenAI, perplexity: ProviderPerplexity, serp: ProviderSerpAPI,
				dfs: ProviderDataForSEO}
			if got := r.Provider(e); got != names[p] {
				t.Errorf("%s %s: provider %q, want %q", tc.provider, e, got, names[p])
			}
			reqs := p.all()
			if len(reqs) != before+1 {
				t.Fatalf("%s %s: provider got %d new requests, want 1", tc.provider, e, len(reqs)-before)
			}
			last := reqs[len(reqs)-1]
			switch p {
			case openai:
				var body map[string]any
				decodeJSON(t, last.Body, &body)
				if last.Header.Get("Authorization") != "Bearer sk-live" || body["model"] != "gpt-5.2" || last.Path != "/v1/responses" {
					t.Errorf("openai request %+v", last)
				}
			case perplexity:
				var body map[string]any
				decodeJSON(t, last.Body, &body)
				if last.Header.Get("Authorization") != "Bearer pplx-live" || body["model"] != "sonar-pro" {
					t.Errorf("perplexity request %+v", last)
				}
			case serp:
				if last.Query.Get("api_key") != "serp-live" {
					t.Errorf("serpapi request %+v", last)
				}
			case dfs:
				if user, pw, ok := (&http.Request{Header: last.Header}).BasicAuth(); !ok || user != "dfs-login" || pw != "dfs-pw" {
					t.Errorf("dataforseo auth %q", last.Header.Get("Authorization"))
				}
			}
		}
		if _, err := r.Ask(t.Context(), ingest.Request{Engine: "bing"}); err == nil {
			t.Errorf("%s: unknown engine answered", tc.provider)
		}
	}

	env := map[string]string{"ENGINE_TIMEOUT": "50ms", "OPENAI_BASE_URL": slow.srv.URL}
	for k, v := range base {
		if _, ok := env[k]; !ok {
			env[k] = v
		}
	}
	r, err := FromEnv(envOf(env), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	assertKind(t, r, ingest.Request{Engine: sightline.EngineChatGPT, QueryText: "q", Country: "US"}, Timeout)
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("ENGINE_TIMEOUT=50ms took %s", d)
	}
}
