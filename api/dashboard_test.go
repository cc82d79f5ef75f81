package api

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/google/uuid"

	"github.com/sightline/sightline"
	"github.com/sightline/sightline/ingest"
	"github.com/sightline/sightline/ingest/simulator"
	"github.com/sightline/sightline/jobs"
	"github.com/sightline/sightline/olap"
	"github.com/sightline/sightline/oltp"
)

// The dashboard's browser tests drive Debian's chromium, headless, against
// the API of the package's test setup with simulated history. A machine
// without the browser fails them: they never skip.

// dashboardGapDays are the days before today with no capture at all, so the
// chart must show gaps there.
var dashboardGapDays = []int{9, 10, 11}

// requestLog records the path and query of every request the page sends.
type requestLog struct {
	mu   sync.Mutex
	urls []*url.URL
}

func (l *requestLog) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		l.mu.Lock()
		u := *r.URL
		l.urls = append(l.urls, &u)
		l.mu.Unlock()
		next.ServeHTTP(w, r)
	})
}

func (l *requestLog) reset() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.urls = nil
}

// waitFor waits until a request to a path ending in suffix matches want,
// and returns its query.
func (l *requestLog) waitFor(t *testing.T, suffix string, want func(url.Values) bool) url.Values {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for time.Now().Before(deadline) {
		l.mu.Lock()
		for _, u := range l.urls {
			if strings.HasSuffix(u.Path, suffix) && want(u.Query()) {
				l.mu.Unlock()
				return u.Query()
			}
		}
		l.mu.Unlock()
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("the page sent no matching request to …%s", suffix)
	return nil
}

// dashFixture is an API with seeded history, served through a request log,
// and a headless browser.
type dashFixture struct {
	*tsFixture
	url         string
	log         *requestLog
	competitors []uuid.UUID
	empty       uuid.UUID
	// drill is a tracked query with captured answers.
	drill   uuid.UUID
	browser context.Context
}

// newBrowser starts headless chromium, failing the test when it cannot.
func newBrowser(t *testing.T) context.Context {
	t.Helper()
	path, err := exec.LookPath("chromium")
	if err != nil {
		t.Fatalf("the browser tests need Debian's chromium package (make deps installs it): %v", err)
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(path), chromedp.NoSandbox,
		chromedp.DisableGPU, chromedp.WindowSize(1280, 1000))
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(cancelAlloc)
	browser, cancel := chromedp.NewContext(alloc)
	t.Cleanup(cancel)
	if err := chromedp.Do(browser); err != nil {
		t.Fatalf("chromium did not start: %v", err)
	}
	return browser
}

// tab opens a fresh tab (its own sessionStorage) with a time limit.
func (df *dashFixture) tab(t *testing.T) context.Context {
	t.Helper()
	ctx, cancel := chromedp.NewContext(df.browser)
	t.Cleanup(cancel)
	ctx, cancelTime := context.WithTimeout(ctx, 2*time.Minute)
	t.Cleanup(cancelTime)
	return ctx
}

func dashSetup(t *testing.T) *dashFixture {
	t.Helper()
	tf := tsSetup(t)
	df := &dashFixture{tsFixture: tf, log: &requestLog{}}
	srv := httptest.NewServer(df.log.wrap(tf.server.router))
	t.Cleanup(srv.Close)
	df.url = srv.URL
	df.competitors = []uuid.UUID{tf.competitor(tf.project, "Zendesk"), tf.competitor(tf.project, "Freshdesk")}
	var queries []uuid.UUID
	for i := range 12 {
		text := fmt.Sprintf("best help desk software %02d", i)
		queries = append(queries, tf.trackedQuery(tf.project, sightline.EngineChatGPT, "US", text, 2))
		if i < 2 {
			queries = append(queries, tf.trackedQuery(tf.project, sightline.EnginePerplexity, "GB", text, 2))
		}
	}
	queries = append(queries, tf.trackedQuery(tf.project, sightline.EngineGoogleSERP, "US", "help desk software", 1))
	df.seed(queries, 45)
	df.drill = queries[0]
	df.empty = tf.fixture.project(tf.org, "Empty")
	tf.trackedQuery(df.empty, sightline.EngineChatGPT, "US", "new keyword", 1)
	for _, p := range []uuid.UUID{tf.project, df.empty} {
		if err := oltp.MarkTrackedQuerySearchStale(context.Background(), tf.pool, p); err != nil {
			t.Fatal(err)
		}
		if _, _, err := oltp.RefreshTrackedQuerySearch(context.Background(), tf.pool, p); err != nil {
			t.Fatal(err)
		}
	}
	df.browser = newBrowser(t)
	return df
}

// seed stores simulated checks of queries for each of the last days days,
// except the gap days.
func (df *dashFixture) seed(queries []uuid.UUID, days int) {
	df.t.Helper()
	ctx := context.Background()
	brands, err := jobs.ProjectBrands(ctx, df.pool, df.project)
	if err != nil {
		df.t.Fatal(err)
	}
	sim := simulator.New(1)
	today := tsToday()
	var rows []olap.PassRows
	last := map[uuid.UUID]time.Time{}
	for _, id := range queries {
		q := df.queries[id]
		for d := days; d >= 1; d-- {
			if slices.Contains(dashboardGapDays, d) {
				continue
			}
			day := today.AddDate(0, 0, -d)
			run := uuid.New()
			var at time.Time
			for pass := range int(q.passes) {
				c, _ := sim.Generate(ingest.Request{TrackedQueryID: id, QueryText: "best help desk software",
					Engine: q.engine, Country: q.country, PassIndex: pass, PassCount: int(q.passes), Day: day, Brands: brands})
				if pass == 0 {
					at = c.CapturedAt
					last[id] = at
				}
				rows = append(rows, ingest.PassRows(olap.Pass{OrganizationID: df.org, ProjectID: df.project,
					TrackedQueryID: id, RunID: run, PassIndex: uint8(pass), PassCount: q.passes, Engine: q.engine,
					Country: q.country, QueryText: "best help desk software", CapturedAt: at}, c, brands))
			}
		}
	}
	df.insert(rows...)
	if err := oltp.AdvanceLastCheckedAt(ctx, df.pool, df.project, last); err != nil {
		df.t.Fatal(err)
	}
}

// apiJSON reads path with the owner's key into v.
func (df *dashFixture) apiJSON(t *testing.T, path string, v any) {
	t.Helper()
	r := df.get(path)
	if r.status != http.StatusOK {
		t.Fatalf("GET %s: %d %s", path, r.status, r.body)
	}
	if err := json.Unmarshal(r.body, v); err != nil {
		t.Fatal(err)
	}
}

// signIn opens the page in ctx and signs in with key.
func signIn(t *testing.T, ctx context.Context, base, hash, key string) {
	t.Helper()
	do(t, ctx, chromedp.Navigate(base+"/"+hash), visible("#api-key"),
		chromedp.SendKeys(chromedp.ID("api-key"), key), chromedp.Click(chromedp.CSS("form.signin button[type=submit]")))
}

// do runs steps in the tab, failing the test at the first that fails.
func do(t *testing.T, ctx context.Context, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(ctx, steps...); err != nil {
		t.Fatal(err)
	}
}

// read runs one action in the tab and returns its value.
func read[T any](t *testing.T, ctx context.Context, a chromedp.Action[T]) T {
	t.Helper()
	v, err := chromedp.Run(ctx, a)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// eval evaluates a script in the page.
func eval[T any](t *testing.T, ctx context.Context, script string) T {
	t.Helper()
	return read(t, ctx, chromedp.Evaluate[T](script))
}

// text is the visible text of the first element matching css.
func text(t *testing.T, ctx context.Context, css string) string {
	t.Helper()
	return read(t, ctx, chromedp.Text(chromedp.CSS(css)))
}

// visible waits until an element matching css is visible.
func visible(css string) chromedp.Action[chromedp.Void] {
	return chromedp.WaitVisible(chromedp.CSS(css))
}

// choose picks value in the select with id; SetValue fires input and
// change as a user's choice does.
func choose(t *testing.T, ctx context.Context, id, value string) {
	t.Helper()
	do(t, ctx, chromedp.SetValue(chromedp.ID(id), value))
}

// shownNumber is the first number in a figure as the page shows it.
func shownNumber(t *testing.T, text string) *float64 {
	t.Helper()
	m := regexp.MustCompile(`-?\d+(\.\d+)?`).FindString(text)
	if m == "" {
		return nil
	}
	v, err := strconv.ParseFloat(m, 64)
	if err != nil {
		t.Fatal(err)
	}
	return &v
}

// sameFigure says whether a shown figure rounds the API's value to one
// decimal; both absent counts as the same.
func sameFigure(shown, api *float64) bool {
	if shown == nil || api == nil {
		return shown == nil && api == nil
	}
	return math.Abs(*shown-*api) <= 0.05+1e-9
}

func (df *dashFixture) projectHash(params string) string {
	return fmt.Sprintf("#/o/%s/p/%s?%s", df.org, df.project, params)
}

func windowDates(days int) (string, string) {
	today := tsToday()
	return today.AddDate(0, 0, -days).Format(time.DateOnly), today.AddDate(0, 0, -1).Format(time.DateOnly)
}

// checkCards compares the headline cards with the API's figures for query.
func (df *dashFixture) checkCards(t *testing.T, ctx context.Context, query string) {
	t.Helper()
	var m map[string]any
	df.apiJSON(t, df.path("/metrics?"+query), &m)
	for _, metric := range []string{"shareOfVoice", "mentionRate", "avgMentionPosition", "serpRate", "shoppingRate"} {
		sel := fmt.Sprintf(`.card[data-metric=%q]`, metric)
		value, sample := text(t, ctx, sel+" .value"), text(t, ctx, sel+" .sample")
		attr := read(t, ctx, chromedp.AttributeValue(chromedp.CSS(sel+" .trend"), "data-trend"))
		trend, hasTrend := attr.Value, attr.Exists
		trendName := "trend" + strings.ToUpper(metric[:1]) + metric[1:]
		if wantTrend, ok := m[trendName].(float64); ok != hasTrend {
			t.Errorf("%s card shows trend %v, the API answers %v", metric, hasTrend, m[trendName])
		} else if shown, _ := strconv.ParseFloat(trend, 64); ok && math.Abs(shown-wantTrend) > 1e-9 {
			t.Errorf("%s card's trend is %s, the API answers %v", metric, trend, wantTrend)
		}
		want, _ := m[metric].(float64)
		var wantPtr *float64
		if m[metric] != nil {
			wantPtr = &want
		}
		if !sameFigure(shownNumber(t, value), wantPtr) {
			t.Errorf("%s card shows %q, the API answers %v", metric, value, m[metric])
		}
		if iv, ok := m[metric+"Interval"].(map[string]any); ok {
			if n := fmt.Sprintf("n = %v", iv["n"]); !strings.Contains(sample, n) {
				t.Errorf("%s card's sample %q lacks %q", metric, sample, n)
			}
		}
	}
}

func TestDashboard(t *testing.T) {
	t.Parallel()
	df := dashSetup(t)
	ctx := df.tab(t)
	from30, to30 := windowDates(30)

	t.Run("sign in shows the overview with the API's figures", func(t *testing.T) {
		signIn(t, ctx, df.url, "", df.owner.key)
		var overview struct {
			Projects []struct {
				ProjectID    uuid.UUID `json:"projectId"`
				ShareOfVoice *float64  `json:"shareOfVoice"`
			} `json:"projects"`
		}
		df.apiJSON(t, fmt.Sprintf("/api/v1/organizations/%s/overview", df.org), &overview)
		do(t, ctx, visible("table.overview"))
		if len(overview.Projects) != 2 {
			t.Fatalf("overview lists %d projects, want 2", len(overview.Projects))
		}
		rows := eval[[]string](t, ctx, `[...document.querySelectorAll('table.overview tbody tr')].map(r => r.dataset.project)`)
		for i, p := range overview.Projects {
			if i >= len(rows) || rows[i] != p.ProjectID.String() {
				t.Fatalf("rows %v are not in the API's order (%d: %s)", rows, i, p.ProjectID)
			}
			shown := text(t, ctx, fmt.Sprintf(`tr[data-project=%q] .sov`, p.ProjectID))
			if !sameFigure(shownNumber(t, shown), p.ShareOfVoice) {
				t.Errorf("project %s shows share of voice %q, the API answers %v", p.ProjectID, shown, p.ShareOfVoice)
			}
		}
		stored := eval[string](t, ctx, `sessionStorage.getItem('sightline.apiKey')`)
		cookie, href := eval[string](t, ctx, `document.cookie`), eval[string](t, ctx, `location.href`)
		if stored != df.owner.key || cookie != "" || strings.Contains(href, df.owner.key) {
			t.Errorf("key kept wrongly: sessionStorage %q, cookie %q, URL %q", stored, cookie, href)
		}
		if strings.Contains(df.logs.String(), df.owner.key) {
			t.Error("the API key reached the server's log")
		}
	})

	t.Run("headline cards equal the API's figures", func(t *testing.T) {
		do(t, ctx, chromedp.Navigate(df.url+"/"+df.projectHash("")), visible(".card .value"))
		df.checkCards(t, ctx, "dateFrom="+from30+"&dateTo="+to30)
	})

	t.Run("chart has the API's points and gaps", func(t *testing.T) {
		var ts timeseriesAnswer
		df.apiJSON(t, df.path(fmt.Sprintf("/timeseries?dateFrom=%s&dateTo=%s&competitorIds=%s,%s", from30, to30,
			df.competitors[0], df.competitors[1])), &ts)
		var withData, gaps []string
		segments := 0
		open := false
		for _, p := range ts.Points {
			day := p.Date
			if p.ShareOfVoice == nil {
				gaps, open = append(gaps, day), false
				continue
			}
			withData = append(withData, day)
			if !open {
				segments++
			}
			open = true
		}
		for _, d := range dashboardGapDays {
			if day := tsToday().AddDate(0, 0, -d).Format(time.DateOnly); !slices.Contains(gaps, day) {
				t.Errorf("the API has a value on %s, a day without captures", day)
			}
		}
		do(t, ctx, visible("#timeseries .series"))
		shownPoints := eval[[]string](t, ctx, `[...document.querySelectorAll('#timeseries .series:first-of-type .point')].map(p => p.dataset.date)`)
		shownGaps := eval[[]string](t, ctx, `[...document.querySelectorAll('#timeseries .gap')].map(g => g.dataset.date)`)
		path := eval[string](t, ctx, `document.querySelector('#timeseries .series:first-of-type .line').getAttribute('d')`)
		seriesCount := eval[int](t, ctx, `document.querySelectorAll('#timeseries .series').length`)
		if !slices.Equal(shownPoints, withData) {
			t.Errorf("own points on %v, want %v", shownPoints, withData)
		}
		if !slices.Equal(shownGaps, gaps) {
			t.Errorf("gaps on %v, want %v", shownGaps, gaps)
		}
		if got := strings.Count(path, "M"); got != segments {
			t.Errorf("own line has %d segments, want %d (broken at every gap): %s", got, segments, path)
		}
		if seriesCount != 3 {
			t.Errorf("%d series charted, want own and two competitors", seriesCount)
		}
	})

	t.Run("filters change the requests and the figures", func(t *testing.T) {
		df.log.reset()
		choose(t, ctx, "engine", "chatgpt")
		df.log.waitFor(t, "/metrics", func(q url.Values) bool { return q.Get("engines") == "chatgpt" })
		df.log.waitFor(t, "/timeseries", func(q url.Values) bool { return q.Get("engines") == "chatgpt" })
		df.log.waitFor(t, "/keyword-listings", func(q url.Values) bool { return q.Get("engines") == "chatgpt" })
		do(t, ctx, visible(".card .value"))
		df.checkCards(t, ctx, "dateFrom="+from30+"&dateTo="+to30+"&engines=chatgpt")

		df.log.reset()
		choose(t, ctx, "country", "GB")
		df.log.waitFor(t, "/metrics", func(q url.Values) bool { return q.Get("countries") == "GB" && q.Get("engines") == "chatgpt" })
		do(t, ctx, visible("#empty-state .empty"))

		df.log.reset()
		from7, to7 := windowDates(7)
		do(t, ctx, chromedp.Navigate(df.url+"/"+df.projectHash("window=7")))
		df.log.waitFor(t, "/metrics", func(q url.Values) bool { return q.Get("dateFrom") == from7 && q.Get("dateTo") == to7 })
		do(t, ctx, visible(".card .value"))
		df.checkCards(t, ctx, "dateFrom="+from7+"&dateTo="+to7)
	})

	t.Run("custom dates, buckets and competitors change the chart's request", func(t *testing.T) {
		from, to := tsToday().AddDate(0, 0, -60).Format(time.DateOnly), tsToday().AddDate(0, 0, -20).Format(time.DateOnly)
		do(t, ctx, chromedp.Navigate(df.url+"/"+df.projectHash("")), visible("#timeseries .series"))
		df.log.reset()
		choose(t, ctx, "window", "custom")
		do(t, ctx, visible("#date-from"))
		if floor := read(t, ctx, chromedp.AttributeValue(chromedp.ID("date-from"), "min")).Value; floor != captureRetentionFloor(time.Now()).Format(time.DateOnly) {
			t.Errorf("custom dates start at %s, not the retention floor", floor)
		}
		choose(t, ctx, "date-from", from)
		do(t, ctx, visible("#date-to"))
		choose(t, ctx, "date-to", to)
		df.log.waitFor(t, "/metrics", func(q url.Values) bool { return q.Get("dateFrom") == from && q.Get("dateTo") == to })
		do(t, ctx, visible("#granularity"))
		df.log.reset()
		choose(t, ctx, "granularity", "weekly")
		df.log.waitFor(t, "/timeseries", func(q url.Values) bool { return q.Get("granularity") == "weekly" && q.Get("dateFrom") == from })
		do(t, ctx, visible("#timeseries .series"))
		var ts timeseriesAnswer
		df.apiJSON(t, df.path(fmt.Sprintf("/timeseries?dateFrom=%s&dateTo=%s&granularity=weekly", from, to)), &ts)
		var weeks []string
		for _, p := range ts.Points {
			if p.ShareOfVoice != nil {
				weeks = append(weeks, p.Date)
			}
		}
		if shown := eval[[]string](t, ctx, `[...document.querySelectorAll('#timeseries .series:first-of-type .point')].map(p => p.dataset.date)`); !slices.Equal(shown, weeks) {
			t.Errorf("weekly points on %v, want %v", shown, weeks)
		}
		df.log.reset()
		do(t, ctx, chromedp.Click(chromedp.CSS(fmt.Sprintf(`input[value=%q]`, df.competitors[0]))))
		df.log.waitFor(t, "/timeseries", func(q url.Values) bool { return q.Get("competitorIds") == df.competitors[1].String() })
		do(t, ctx, visible("#timeseries .series"))
		if n := eval[int](t, ctx, `document.querySelectorAll('#timeseries .series').length`); n != 2 {
			t.Errorf("%d series after leaving out a competitor, want 2", n)
		}
	})

	t.Run("keyword table sorts with the keyboard", func(t *testing.T) {
		do(t, ctx, chromedp.Navigate(df.url+"/"+df.projectHash("")), visible("table.keywords"))
		df.log.reset()
		do(t, ctx, chromedp.Focus(chromedp.CSS(`button.sort[data-sort="avgMentionPosition"]`)), chromedp.KeyEvent("\r"))
		df.log.waitFor(t, "/keyword-listings", func(q url.Values) bool { return q.Get("sortBy") == "avgMentionPosition" })
	})

	t.Run("a phone-wide screen scrolls no page sideways", func(t *testing.T) {
		defer do(t, ctx, chromedp.EmulateReset())
		do(t, ctx, chromedp.EmulateViewport(390, 844))
		for _, view := range []struct{ hash, ready string }{
			{fmt.Sprintf("#/o/%s", df.org), "table.overview"},
			{df.projectHash(""), "#sources table"},
			{fmt.Sprintf("#/o/%s/p/%s/q/%s", df.org, df.project, df.drill), "#answers article"},
		} {
			do(t, ctx, chromedp.Navigate(df.url+"/"+view.hash), visible(view.ready), visible("table.keywords, table.overview, #answers .text"))
			if wide := eval[bool](t, ctx, `document.documentElement.scrollWidth > window.innerWidth`); wide {
				t.Errorf("%s is %d px wide on a 390 px screen", view.hash, eval[int](t, ctx, `document.documentElement.scrollWidth`))
			}
		}
	})

	t.Run("keyword table sorts and pages", func(t *testing.T) {
		do(t, ctx, chromedp.Navigate(df.url+"/"+df.projectHash("")), visible("table.keywords"))
		df.log.reset()
		do(t, ctx, chromedp.Click(chromedp.CSS(`button.sort[data-sort="shareOfVoice"]`)))
		df.log.waitFor(t, "/keyword-listings", func(q url.Values) bool { return q.Get("sortBy") == "shareOfVoice" && q.Get("sortOrder") == "asc" })
		do(t, ctx, visible(`th[aria-sort="ascending"] button[data-sort="shareOfVoice"]`))
		var page struct {
			Page []struct {
				Keyword string `json:"keyword"`
			} `json:"page"`
			Total int `json:"total"`
		}
		query := "/keyword-listings?dateFrom=" + from30 + "&dateTo=" + to30 + "&sortBy=shareOfVoice&sortOrder=asc&limit=10"
		df.apiJSON(t, df.path(query), &page)
		shown := eval[[]string](t, ctx, `[...document.querySelectorAll('table.keywords tbody tr')].map(r => r.dataset.keyword)`)
		var want []string
		for _, r := range page.Page {
			want = append(want, r.Keyword)
		}
		if !slices.Equal(shown, want) {
			t.Errorf("keywords shown %v, the API orders %v", shown, want)
		}
		df.log.reset()
		do(t, ctx, chromedp.Click(chromedp.ID("keywords-next")))
		df.log.waitFor(t, "/keyword-listings", func(q url.Values) bool { return q.Get("offset") == "10" })
		do(t, ctx, visible("#keywords-prev:not([disabled])"))
		rangeText := text(t, ctx, "#keywords-range")
		if want := fmt.Sprintf("11–%d of %d", page.Total, page.Total); rangeText != want {
			t.Errorf("second page is %q, want %q", rangeText, want)
		}
	})

	t.Run("drill-down shows the query's series and highlighted answers", func(t *testing.T) {
		do(t, ctx, chromedp.Navigate(df.url+"/"+df.projectHash("")), visible("table.keywords"))
		df.log.reset()
		do(t, ctx, chromedp.Click(chromedp.CSS(`table.keywords tbody tr:first-child th a`)))
		q := df.log.waitFor(t, "/timeseries", func(url.Values) bool { return true })
		query := df.log.waitFor(t, "/ai-responses", func(url.Values) bool { return true }).Get("trackedQueryId")
		if q.Get("engines") != "" {
			t.Errorf("the tracked query's series was asked with engines %q", q.Get("engines"))
		}
		do(t, ctx, visible("#answers article"), visible("#timeseries .series"))
		marks := eval[[]string](t, ctx, `[...document.querySelectorAll('#answers .text mark')].map(m =>
			m.closest('article').dataset.answer + '|' + m.className + '|' + m.textContent.toLowerCase())`)
		answers := eval[int](t, ctx, `document.querySelectorAll('#answers article').length`)
		if answers != 4 {
			t.Errorf("%d answers shown, want the last two runs of two passes", answers)
		}
		var matches struct {
			Page []struct {
				AIResponseID string `json:"aiResponseId"`
				BrandName    string `json:"brandName"`
				Relation     string `json:"mentionRelation"`
			} `json:"page"`
		}
		df.apiJSON(t, df.path("/tracked-queries/"+query+"/mention-matches?limit=100"), &matches)
		want := map[string]bool{}
		for _, m := range matches.Page {
			kind := "competitor"
			if m.Relation == "own" {
				kind = "own"
			}
			want[m.AIResponseID+"|"+kind+"|"+strings.ToLower(m.BrandName)] = true
		}
		if len(marks) == 0 {
			t.Fatal("no mention is highlighted")
		}
		for _, m := range marks {
			if !want[m] {
				t.Errorf("highlight %q is no mention match of its answer", m)
			}
		}
	})

	t.Run("a project without captures says when the first checks run", func(t *testing.T) {
		do(t, ctx, chromedp.Navigate(fmt.Sprintf("%s/#/o/%s/p/%s", df.url, df.org, df.empty)), visible("#empty-state .empty"))
		if says := text(t, ctx, "#empty-state"); !strings.Contains(says, "first checks run at") {
			t.Errorf("empty state says %q", says)
		}
	})

	if path := os.Getenv("SIGHTLINE_DASHBOARD_SCREENSHOT"); path != "" {
		do(t, ctx, chromedp.Navigate(df.url+"/"+df.projectHash("")), visible("table.keywords"), visible("#sources table"))
		png := read(t, ctx, chromedp.FullScreenshot(100))
		if err := os.WriteFile(path, png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestDashboardErrors signs in with keys the API refuses, one way each.
func TestDashboardErrors(t *testing.T) {
	t.Parallel()
	f := setup(t, setupOptions{limits: Limits{PerUser: 10000, PerKey: 10000, JobStartsPerOrg: 10,
		AuthFailuresPerAddress: 1, Window: DefaultLimits.Window}})
	_, org := f.owner()
	viewer := f.user()
	f.join(org, viewer, sightline.RoleViewer, sightline.MembershipActive)
	viewer = f.keyFor(viewer, nil, sightline.CapabilityRead)
	browser := newBrowser(t)
	ctx, cancel := context.WithTimeout(browser, 30*time.Second)
	defer cancel()
	problem := func(t *testing.T, key, want string) {
		t.Helper()
		signIn(t, ctx, f.http.URL, "", key)
		do(t, ctx, visible("#signin-problem strong"))
		if says := text(t, ctx, "#signin-problem"); !strings.Contains(says, want) {
			t.Errorf("sign-in problem %q, want %q", says, want)
		}
		if stored := eval[*string](t, ctx, `sessionStorage.getItem('sightline.apiKey')`); stored != nil {
			t.Errorf("a refused key stays in sessionStorage")
		}
	}
	// Order matters: after one bad key the address is limited for a minute.
	t.Run("403", func(t *testing.T) {
		// Every key can read; the plan's figures are for owners only.
		signIn(t, ctx, f.http.URL, "", viewer.key)
		do(t, ctx, visible("#budget .error"))
		if says := text(t, ctx, "#budget .error"); !strings.Contains(says, "Not allowed with this key") || !strings.Contains(says, "owner role") {
			t.Errorf("403 says %q", says)
		}
		do(t, ctx, chromedp.Click(chromedp.ID("signout")), visible("#api-key"))
	})
	t.Run("bad key", func(t *testing.T) { problem(t, "sl_not_a_key", "API key not accepted") })
	t.Run("429", func(t *testing.T) {
		problem(t, "sl_not_a_key", "Too many requests")
		if says := text(t, ctx, "#signin-problem"); !regexp.MustCompile(`Try again in \d+ s \(at .+\)`).MatchString(says) {
			t.Errorf("429 gives no retry time: %q", says)
		}
	})
}

// TestDashboardServing checks the page's headers and that the API's own
// answers are unchanged around it.
func TestDashboardServing(t *testing.T) {
	t.Parallel()
	f := setup(t)
	for _, c := range []struct {
		path        string
		status      int
		contentType string
	}{
		{"/", 200, "text/html"},
		{"/dashboard/app.js", 200, "text/javascript"},
		{"/dashboard/app.css", 200, "text/css"},
		{"/dashboard/missing.js", 404, "application/json"},
		{"/dashboard/", 404, "application/json"},
		{"/api/v1/nothing-here", 404, "application/json"},
		{"/index.html", 404, "application/json"},
	} {
		r := f.do(call{method: http.MethodGet, path: c.path})
		if r.status != c.status || !strings.HasPrefix(r.header.Get("Content-Type"), c.contentType) {
			t.Errorf("GET %s: %d %s, want %d %s", c.path, r.status, r.header.Get("Content-Type"), c.status, c.contentType)
		}
		if r.header.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("GET %s: no nosniff", c.path)
		}
		csp := r.header.Get("Content-Security-Policy")
		if c.status == 200 && !strings.Contains(csp, "script-src 'self'") {
			t.Errorf("GET %s: Content-Security-Policy %q", c.path, csp)
		}
		if c.status == 404 {
			assertError(t, r, 404, sightline.CodeNotFound)
			if csp != "" {
				t.Errorf("GET %s: an API answer carries the page's policy", c.path)
			}
		}
	}
	assertError(t, f.do(call{method: http.MethodPost, path: "/"}), http.StatusMethodNotAllowed, sightline.CodeMethodNotAllowed)
}
