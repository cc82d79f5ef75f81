package engine

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/sightline/sightline"
	"github.com/sightline/sightline/ingest"
)

// assertKind asks e and requires an *Error of kind, with the matching
// Retryable answer.
func assertKind(t *testing.T, e ingest.Engine, req ingest.Request, kind ErrorKind) *Error {
	t.Helper()
	return assertKindCtx(t, context.Background(), e, req, kind)
}

func assertKindCtx(t *testing.T, ctx context.Context, e ingest.Engine, req ingest.Request, kind ErrorKind) *Error {
	t.Helper()
	c, err := e.Ask(ctx, req)
	var ee *Error
	if !errors.As(err, &ee) {
		t.Fatalf("Ask = %+v, %v (%T); want an *Error of kind %s", c, err, err, kind)
	}
	if ee.Kind != kind || ee.Engine != req.Engine {
		t.Fatalf("error %v: kind %s engine %s, want %s %s", ee, ee.Kind, ee.Engine, kind, req.Engine)
	}
	wantRetry := kind == Timeout || kind == RateLimited || kind == Unavailable
	if ee.Retryable() != wantRetry {
		t.Errorf("Retryable() = %v for %s", ee.Retryable(), kind)
	}
	return ee
}

// errorAdapters are every adapter, built against a base URL.
var errorAdapters = []struct {
	name   string
	engine sightline.Engine
	build  func(base string, o Options) ingest.Engine
}{
	{"openai", sightline.EngineChatGPT, func(base string, o Options) ingest.Engine {
		return NewOpenAI(OpenAIConfig{APIKey: "sk-secret", BaseURL: base}, o)
	}},
	{"perplexity", sightline.EnginePerplexity, func(base string, o Options) ingest.Engine {
		return NewPerplexity(PerplexityConfig{APIKey: "pplx-secret", BaseURL: base}, o)
	}},
	{"serpapi", sightline.EngineGoogleSERP, func(base string, o Options) ingest.Engine {
		return NewSerpAPI(SerpAPIConfig{APIKey: "serp-secret", BaseURL: base}, o)
	}},
	{"dataforseo", sightline.EngineGoogleAIMode, func(base string, o Options) ingest.Engine {
		return NewDataForSEO(DataForSEOConfig{Login: "login", Password: "dfs-secret", BaseURL: base}, o)
	}},
}

func respond(status int, header map[string]string, body string) func(http.ResponseWriter, *http.Request) {
	return func(w http.ResponseWriter, _ *http.Request) {
		for k, v := range header {
			w.Header().Set(k, v)
		}
		w.WriteHeader(status)
		_, _ = w.Write([]byte(body))
	}
}

func TestErrorMapping(t *testing.T) {
	t.Parallel()
	slow := func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-time.After(5 * time.Second):
		}
	}
	cases := []struct {
		name           string
		handler        func(http.ResponseWriter, *http.Request)
		timeout        time.Duration
		wantKind       ErrorKind
		wantRetryAfter time.Duration
		wantMsg        string
	}{
		{name: "429 with Retry-After seconds", wantKind: RateLimited, wantRetryAfter: 7 * time.Second, wantMsg: "Rate limit reached",
			handler: respond(429, map[string]string{"Retry-After": "7"}, `{"error":{"message":"Rate limit reached for requests","type":"requests","code":"rate_limit_exceeded"}}`)},
		{name: "429 with Retry-After date", wantKind: RateLimited, wantRetryAfter: 90 * time.Second,
			handler: respond(429, map[string]string{"Retry-After": testNow.Add(90 * time.Second).UTC().Format(http.TimeFormat)}, `{"error":"Your account has run out of searches."}`)},
		{name: "429 with retry-after-ms", wantKind: RateLimited, wantRetryAfter: 1500 * time.Millisecond,
			handler: respond(429, map[string]string{"Retry-After": "2", "Retry-After-Ms": "1500"}, `{}`)},
		{name: "429 without Retry-After", wantKind: RateLimited,
			handler: respond(429, nil, ``)},
		{name: "500", wantKind: Unavailable, wantMsg: "HTTP 500: Internal Server Error",
			handler: respond(500, nil, `<html>oops</html>`)},
		{name: "503 with Retry-After", wantKind: Unavailable, wantRetryAfter: 30 * time.Second, wantMsg: "overloaded",
			handler: respond(503, map[string]string{"Retry-After": "30"}, `{"error":{"message":"The engine is currently overloaded","type":"server_error"}}`)},
		{name: "401 bad key", wantKind: Rejected, wantMsg: "Incorrect API key provided",
			handler: respond(401, map[string]string{"Retry-After": "7"}, `{"error":{"message":"Incorrect API key provided: sk-***","type":"invalid_request_error","code":"invalid_api_key"}}`)},
		{name: "400 bad request", wantKind: Rejected, wantMsg: "Missing query `q` parameter.",
			handler: respond(400, nil, `{"error":"Missing query `+"`q`"+` parameter."}`)},
		{name: "402 funds (DataForSEO shape)", wantKind: Rejected, wantMsg: "billing",
			handler: respond(402, nil, `{"status_code":40200,"status_message":"We had a problem billing your account."}`)},
		{name: "408", wantKind: Timeout,
			handler: respond(408, nil, ``)},
		{name: "insufficient_quota is not retryable", wantKind: Rejected, wantMsg: "exceeded your current quota",
			handler: respond(429, nil, `{"error":{"message":"You exceeded your current quota","type":"insufficient_quota","code":"insufficient_quota"}}`)},
		{name: "slow provider", wantKind: Timeout, timeout: 50 * time.Millisecond, handler: slow},
		{name: "malformed 200", wantKind: Malformed,
			handler: respond(200, nil, `{"output": [`)},
		{name: "200 that is not JSON", wantKind: Malformed,
			handler: respond(200, nil, `<html><body>Service temporarily unavailable</body></html>`)},
	}
	for _, ad := range errorAdapters {
		for _, tc := range cases {
			t.Run(ad.name+"/"+tc.name, func(t *testing.T) {
				t.Parallel()
				p := newProvider(t, tc.handler)
				e := ad.build(p.srv.URL, testOptions(tc.timeout))
				err := assertKind(t, e, ingest.Request{Engine: ad.engine, QueryText: "q", Country: "US"}, tc.wantKind)
				if err.RetryAfter != tc.wantRetryAfter {
					t.Errorf("RetryAfter %s, want %s", err.RetryAfter, tc.wantRetryAfter)
				}
				if !strings.Contains(err.Error(), tc.wantMsg) {
					t.Errorf("error %q lacks %q", err, tc.wantMsg)
				}
				if strings.Contains(err.Error(), "secret") {
					t.Errorf("error %q leaks a credential", err)
				}
			})
		}
	}
}

func TestErrorTransport(t *testing.T) {
	t.Parallel()
	closed := httptest.NewServer(http.NotFoundHandler())
	closedURL := closed.URL
	closed.Close()
	for _, ad := range errorAdapters {
		t.Run(ad.name+"/unreachable", func(t *testing.T) {
			t.Parallel()
			err := assertKind(t, ad.build(closedURL, testOptions(0)), ingest.Request{Engine: ad.engine, QueryText: "q", Country: "US"}, Unavailable)
			if strings.Contains(err.Error(), "secret") || strings.Contains(err.Error(), "api_key") {
				t.Errorf("error %q leaks the query string", err)
			}
		})
		t.Run(ad.name+"/caller cancels", func(t *testing.T) {
			t.Parallel()
			p := newProvider(t, func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() })
			ctx, cancel := context.WithCancel(context.Background())
			time.AfterFunc(30*time.Millisecond, cancel)
			err := assertKindCtx(t, ctx, ad.build(p.srv.URL, testOptions(0)), ingest.Request{Engine: ad.engine, QueryText: "q", Country: "US"}, Unavailable)
			if !errors.Is(err, context.Canceled) {
				t.Errorf("error %v does not wrap context.Canceled", err)
			}
		})
		t.Run(ad.name+"/caller deadline", func(t *testing.T) {
			t.Parallel()
			p := newProvider(t, func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() })
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Millisecond)
			defer cancel()
			assertKindCtx(t, ctx, ad.build(p.srv.URL, testOptions(0)), ingest.Request{Engine: ad.engine, QueryText: "q", Country: "US"}, Timeout)
		})
		t.Run(ad.name+"/wrong engine", func(t *testing.T) {
			t.Parallel()
			p := newProvider(t, respond(500, nil, ""))
			other := sightline.EngineGoogleShopping
			if ad.engine == sightline.EngineChatGPT {
				other = sightline.EnginePerplexity
			}
			if ad.name == "serpapi" {
				other = sightline.EngineChatGPT
			}
			assertKind(t, ad.build(p.srv.URL, testOptions(0)), ingest.Request{Engine: other, QueryText: "q", Country: "US"}, Rejected)
			if n := len(p.all()); n != 0 {
				t.Errorf("%d requests sent for an engine the adapter does not serve", n)
			}
		})
	}
}

func TestErrorMessage(t *testing.T) {
	t.Parallel()
	cases := []struct {
		err  *Error
		want string
	}{
		{&Error{Engine: sightline.EngineChatGPT, Kind: RateLimited, RetryAfter: 7 * time.Second, Err: errors.New("HTTP 429: slow down")},
			"engine chatgpt: rate_limited: HTTP 429: slow down (retry after 7s)"},
		{&Error{Engine: sightline.EngineGoogleSERP, Kind: Malformed}, "engine google_serp: malformed"},
	}
	for _, tc := range cases {
		if got := tc.err.Error(); got != tc.want {
			t.Errorf("Error() = %q, want %q", got, tc.want)
		}
	}
}

func TestRetryAfter(t *testing.T) {
	t.Parallel()
	now := testNow
	cases := []struct {
		name   string
		header http.Header
		want   time.Duration
	}{
		{"absent", http.Header{}, 0},
		{"seconds", http.Header{"Retry-After": {"12"}}, 12 * time.Second},
		{"negative", http.Header{"Retry-After": {"-3"}}, 0},
		{"date", http.Header{"Retry-After": {now.Add(time.Minute).UTC().Format(http.TimeFormat)}}, time.Minute},
		{"past date", http.Header{"Retry-After": {now.Add(-time.Minute).UTC().Format(http.TimeFormat)}}, 0},
		{"garbage", http.Header{"Retry-After": {"soon"}}, 0},
		{"milliseconds win", http.Header{"Retry-After": {"1"}, "Retry-After-Ms": {"250"}}, 250 * time.Millisecond},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := retryAfter(tc.header, now); got != tc.want {
				t.Errorf("retryAfter = %s, want %s", got, tc.want)
			}
		})
	}
}

func TestProviderMessageTruncated(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("é", 400)
	msg, code := providerMessage([]byte(`{"error":{"message":"` + long + `","code":429}}`))
	if code != "429" || !strings.HasSuffix(msg, "...") || len(msg) > 303 || !utf8.ValidString(msg) {
		t.Errorf("providerMessage = %q (%d bytes), %q", msg, len(msg), code)
	}
}
