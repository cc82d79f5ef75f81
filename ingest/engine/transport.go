package engine

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/sightline/sightline"
	"github.com/sightline/sightline/ingest"
)

// DefaultTimeout bounds one request to an engine when neither ENGINE_TIMEOUT
// nor Options.Timeout says otherwise. Reasoning models with web search
// commonly take 20-40 s.
const DefaultTimeout = 60 * time.Second

// maxBody bounds what is read of one response; the largest real answers
// (DataForSEO advanced SERPs with 100 items) stay well under it.
const maxBody = 32 << 20

// Options are what every adapter shares.
type Options struct {
	// Client sends the requests; nil means a plain *http.Client. Its own
	// Timeout, if any, applies on top of Timeout below.
	Client *http.Client
	// Timeout bounds each request, from sending to the last byte of the
	// body; zero means DefaultTimeout.
	Timeout time.Duration
	// NowFunc stamps captures and reads HTTP-date Retry-After headers; nil
	// means time.Now.
	NowFunc func() time.Time
}

// transport sends requests to one provider and turns every failure into an
// *Error.
type transport struct {
	client  *http.Client
	timeout time.Duration
	now     func() time.Time
}

func newTransport(o Options) transport {
	t := transport{client: o.Client, timeout: o.Timeout, now: o.NowFunc}
	if t.client == nil {
		t.client = &http.Client{}
	}
	if t.timeout <= 0 {
		t.timeout = DefaultTimeout
	}
	if t.now == nil {
		t.now = time.Now
	}
	return t
}

// capturedAt is the capture time, in UTC.
func (t transport) capturedAt() time.Time { return t.now().UTC() }

// request is one HTTP exchange with a provider.
type request struct {
	method string
	url    string
	header http.Header
	body   []byte
}

// postJSON sends in as a JSON POST to url, authorised by auth, and answers
// as exchange does.
func (t transport) postJSON(ctx context.Context, engine sightline.Engine, url, auth string, in any) ([]byte, error) {
	body, err := json.Marshal(in)
	if err != nil {
		return nil, newError(engine, Rejected, "encoding request: %w", err)
	}
	return t.exchange(ctx, engine, request{method: http.MethodPost, url: url, header: jsonHeader(auth), body: body})
}

// AnswerAPIConfig configures an AI answer adapter (OpenAIConfig,
// PerplexityConfig).
type AnswerAPIConfig struct {
	APIKey string
	// Model is the model asked; empty means the adapter's default model.
	Model string
	// BaseURL is the API root; empty means the adapter's default.
	BaseURL string
}

// answerAPI is an AI answer provider's API, reached with a bearer key,
// that serves one engine: OpenAI's and Perplexity's.
type answerAPI struct {
	engine   sightline.Engine
	provider string // names the adapter in errors
	key      string
	model    string
	base     string
	t        transport
}

// answerProvider is what sets one AI answer API apart: the engine it
// serves, its name in errors, and what an empty Model or BaseURL of its
// AnswerAPIConfig means. version is the path segment a configured BaseURL
// may end in.
type answerProvider struct {
	engine               sightline.Engine
	name                 string
	model, base, version string
}

func newAnswerAPI(p answerProvider, cfg AnswerAPIConfig, o Options) answerAPI {
	return answerAPI{engine: p.engine, provider: p.name, key: cfg.APIKey, model: cmp.Or(cfg.Model, p.model),
		base: cmp.Or(trimBase(cfg.BaseURL, p.version), p.base), t: newTransport(o)}
}

// ask posts in to path and returns the capture of the answer parse reads
// from the response. A request for another engine is Rejected.
func (a answerAPI) ask(ctx context.Context, engine sightline.Engine, path string, in any,
	parse func(sightline.Engine, []byte) (*ingest.Answer, *Error)) (ingest.Capture, error) {
	if engine != a.engine {
		return ingest.Capture{}, newError(engine, Rejected, "the %s adapter serves %s only", a.provider, a.engine)
	}
	data, err := a.t.postJSON(ctx, engine, a.base+path, "Bearer "+a.key, in)
	if err != nil {
		return ingest.Capture{}, err
	}
	answer, perr := parse(engine, data)
	if perr != nil {
		return ingest.Capture{}, perr
	}
	return ingest.Capture{Engine: engine, CapturedAt: a.t.capturedAt(), Answer: answer}, nil
}

// exchange sends r and returns the body of a 2xx answer. Any other outcome
// is an *Error: non-2xx statuses by statusError, transport failures as
// Timeout or Unavailable, oversized bodies as Malformed.
func (t transport) exchange(ctx context.Context, engine sightline.Engine, r request) ([]byte, error) {
	reqCtx, cancel := context.WithTimeout(ctx, t.timeout)
	defer cancel()
	var body io.Reader
	if r.body != nil {
		body = bytes.NewReader(r.body)
	}
	req, err := http.NewRequestWithContext(reqCtx, r.method, r.url, body)
	if err != nil {
		return nil, newError(engine, Rejected, "building request: %w", redact(err))
	}
	for k, vs := range r.header {
		req.Header[k] = vs
	}
	resp, err := t.client.Do(req)
	if err != nil {
		return nil, transportError(ctx, engine, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxBody+1))
	if err != nil {
		return nil, transportError(ctx, engine, err)
	}
	if len(data) > maxBody {
		return nil, newError(engine, Malformed, "response body exceeds %d bytes", maxBody)
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return nil, statusError(engine, resp.StatusCode, resp.Header, data, t.now())
	}
	return data, nil
}

// transportError classifies a failure to send or read: a deadline (ours or
// the caller's) is a Timeout; anything else, the caller's cancellation
// included, is Unavailable, so the check is retried rather than failed.
func transportError(parent context.Context, engine sightline.Engine, err error) *Error {
	err = redact(err)
	if errors.Is(parent.Err(), context.Canceled) {
		return &Error{Engine: engine, Kind: Unavailable, Err: err}
	}
	var ne net.Error
	if errors.Is(err, context.DeadlineExceeded) || (errors.As(err, &ne) && ne.Timeout()) {
		return &Error{Engine: engine, Kind: Timeout, Err: err}
	}
	return &Error{Engine: engine, Kind: Unavailable, Err: err}
}

// redact drops the query string from the URL a *url.Error names: SerpApi
// takes its key as a query parameter, and errors end up in logs.
func redact(err error) error {
	var ue *url.Error
	if !errors.As(err, &ue) {
		return err
	}
	u := ue.URL
	if i := strings.IndexAny(u, "?#"); i >= 0 {
		u = u[:i]
	}
	return fmt.Errorf("%s %s: %w", ue.Op, u, ue.Err)
}

// statusError classifies a non-2xx answer: 429 is RateLimited (except
// OpenAI's insufficient_quota, which no retry cures), 408 a Timeout, other
// 4xx Rejected, 5xx and anything else Unavailable.
func statusError(engine sightline.Engine, status int, header http.Header, body []byte, now time.Time) *Error {
	msg, code := providerMessage(body)
	if msg == "" {
		msg = http.StatusText(status)
	}
	e := &Error{Engine: engine, Err: fmt.Errorf("HTTP %d: %s", status, msg)}
	switch {
	case status == http.StatusTooManyRequests && code == "insufficient_quota":
		e.Kind = Rejected
	case status == http.StatusTooManyRequests:
		e.Kind = RateLimited
	case status == http.StatusRequestTimeout:
		e.Kind = Timeout
	case status >= 400 && status < 500:
		e.Kind = Rejected
	default:
		e.Kind = Unavailable
	}
	if e.Kind == RateLimited || e.Kind == Unavailable {
		e.RetryAfter = retryAfter(header, now)
	}
	return e
}

// providerMessage reads the error message (and code) out of an error body in
// any of the providers' shapes: {"error":{"message","code"}} (OpenAI,
// Perplexity), {"error":"..."} (SerpApi), {"status_message"} (DataForSEO).
func providerMessage(body []byte) (msg, code string) {
	var v struct {
		Error         json.RawMessage `json:"error"`
		Message       string          `json:"message"`
		StatusMessage string          `json:"status_message"`
	}
	if json.Unmarshal(body, &v) != nil {
		return "", ""
	}
	var s string
	var o struct {
		Message string          `json:"message"`
		Code    json.RawMessage `json:"code"`
	}
	switch {
	case json.Unmarshal(v.Error, &s) == nil && s != "":
		msg = s
	case json.Unmarshal(v.Error, &o) == nil && o.Message != "":
		msg = o.Message
		if json.Unmarshal(o.Code, &code) != nil {
			code = strings.Trim(string(o.Code), `"`)
		}
	case v.Message != "":
		msg = v.Message
	default:
		msg = v.StatusMessage
	}
	return truncate(msg, 300), code
}

// retryAfter reads Retry-After (delay-seconds or HTTP-date) and OpenAI's
// retry-after-ms, which is more precise when present.
func retryAfter(h http.Header, now time.Time) time.Duration {
	if ms, err := strconv.ParseFloat(h.Get("Retry-After-Ms"), 64); err == nil && ms > 0 {
		return time.Duration(ms * float64(time.Millisecond))
	}
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0
	}
	if s, err := strconv.Atoi(v); err == nil {
		if s < 0 {
			return 0
		}
		return time.Duration(s) * time.Second
	}
	if at, err := http.ParseTime(v); err == nil && at.After(now) {
		return at.Sub(now)
	}
	return 0
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "..."
}

// trimBase drops trailing slashes and a trailing version segment from a
// base URL, so OPENAI_BASE_URL=https://api.openai.com/v1 (the SDKs' form)
// and https://api.openai.com both work.
func trimBase(base, version string) string {
	base = strings.TrimRight(base, "/")
	return strings.TrimSuffix(base, "/"+version)
}

func jsonHeader(auth string) http.Header {
	h := http.Header{"Content-Type": {"application/json"}, "Accept": {"application/json"}}
	if auth != "" {
		h.Set("Authorization", auth)
	}
	return h
}
