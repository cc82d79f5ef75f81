package engine

import (
	"encoding/base64"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/sightline/sightline"
	"github.com/sightline/sightline/ingest"
)

// dataForSEOBody is the single task a DataForSEO request carries.
type dataForSEOBody []struct {
	Keyword             string `json:"keyword"`
	LocationCode        int    `json:"location_code"`
	LanguageCode        string `json:"language_code"`
	Device              string `json:"device"`
	LoadAsyncAIOverview *bool  `json:"load_async_ai_overview"`
}

func TestDataForSEORequest(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name          string
		engine        sightline.Engine
		query         string
		country       string
		locale        string
		wantPath      string
		wantKeyword   string
		wantLocation  int
		wantLanguage  string
		wantAsyncLoad bool
	}{
		{name: "organic, Peru in Spanish", engine: sightline.EngineGoogleSERP, query: "implantes dentales", country: "PE", locale: "es",
			wantPath: "/v3/serp/google/organic/live/advanced", wantKeyword: "implantes dentales", wantLocation: 2604, wantLanguage: "es"},
		{name: "AI overview loads asynchronous overviews", engine: sightline.EngineGoogleAIOverview, query: "best crm", country: "GB", locale: "en",
			wantPath: "/v3/serp/google/organic/live/advanced", wantKeyword: "best crm", wantLocation: 2826, wantLanguage: "en", wantAsyncLoad: true},
		{name: "AI mode, no locale asks in English, % and + escaped", engine: sightline.EngineGoogleAIMode, query: "50% off c++ course", country: "US",
			wantPath: "/v3/serp/google/ai_mode/live/advanced", wantKeyword: "50%25 off c%2B%2B course", wantLocation: 2840, wantLanguage: "en"},
		{name: "Chinese in Taiwan", engine: sightline.EngineGoogleSERP, query: "q", country: "TW", locale: "zh",
			wantPath: "/v3/serp/google/organic/live/advanced", wantKeyword: "q", wantLocation: 2158, wantLanguage: "zh-TW"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			p := newProvider(t, serving(sample(t, "dataforseo-google-ai-mode-advanced.json")))
			a := NewDataForSEO(DataForSEOConfig{Login: "me@example.com", Password: "pw:with:colons", BaseURL: p.srv.URL + "/v3/"}, testOptions(0))
			if _, err := a.Ask(t.Context(), ingest.Request{Engine: tc.engine, QueryText: tc.query, Country: tc.country, Locale: tc.locale}); err != nil {
				t.Fatal(err)
			}
			r := p.only(t)
			if r.Method != "POST" || r.Path != tc.wantPath {
				t.Errorf("request %s %s, want POST %s", r.Method, r.Path, tc.wantPath)
			}
			wantAuth := "Basic " + base64.StdEncoding.EncodeToString([]byte("me@example.com:pw:with:colons"))
			if got := r.Header.Get("Authorization"); got != wantAuth {
				t.Errorf("Authorization %q, want %q", got, wantAuth)
			}
			var body dataForSEOBody
			decodeJSON(t, r.Body, &body)
			if len(body) != 1 {
				t.Fatalf("body %s: want one task", r.Body)
			}
			task := body[0]
			if task.Keyword != tc.wantKeyword || task.LocationCode != tc.wantLocation || task.LanguageCode != tc.wantLanguage || task.Device != "desktop" {
				t.Errorf("task %s", r.Body)
			}
			if got := task.LoadAsyncAIOverview != nil && *task.LoadAsyncAIOverview; got != tc.wantAsyncLoad {
				t.Errorf("load_async_ai_overview %v, want %v", got, tc.wantAsyncLoad)
			}
		})
	}
}

func TestDataForSEOSearch(t *testing.T) {
	t.Parallel()
	p := newProvider(t, serving(sample(t, "dataforseo-google-organic-advanced.json")))
	a := NewDataForSEO(DataForSEOConfig{Login: "l", Password: "p", BaseURL: p.srv.URL}, testOptions(0))
	c := ask(t, a, ingest.Request{Engine: sightline.EngineGoogleSERP, QueryText: "iphone", Country: "US", Locale: "en"})
	if c.Search == nil || c.Answer != nil || c.Shopping != nil {
		t.Fatalf("capture %+v: want a search page only", c)
	}
	// One organic item (rank_group 26 among organic results); the paid,
	// shopping, popular_products, people_also_ask and ai_overview items are
	// not organic results.
	want := []ingest.SearchResult{{
		Rank:        26,
		URL:         "https://www.t-mobile.com/cell-phone/apple-iphone-12-pro",
		Title:       "Apple iPhone 12 Pro 5G | 4 colors in 512GB, 256GB & 128GB",
		Snippet:     "Get a great deal on the 5G-ready Apple iPhone 12 Pro. See all the features, specs, price and get it on T-Mobile.",
		Rating:      ptr(4.0),
		RatingVotes: ptr(231),
	}}
	if !reflect.DeepEqual(c.Search.Results, want) {
		t.Errorf("results\n got %+v\nwant %+v", c.Search.Results, want)
	}
}

func TestDataForSEOAnswers(t *testing.T) {
	t.Parallel()
	const component = "Springfield Division sales in Quarter 1 are $ 1, 500, 000 $ 1 comma 500 comma 000 $ 1, 5 0 0, 0 0 0. Growth rate is 3 % 3 % 3 %. Sales in Quarter 2 are $ 1, 500, 000 × ( 1 + 0.03 ) = $ 1, 545, 000 $ 1 comma 500 comma 000 cross open paren 1 plus 0.03 close paren equals $ 1 comma 545 comma 000 $ 1, 5 0 0, 0 0 0 × ( 1 + 0. 0 3 ) = $ 1, 5 4 5, 0 0 0."
	const aiModeComponent = "Springfield Division sales in Quarter 1 are $1,500,000. Growth rate is 3%. Sales in Quarter 2 are $1,545,000."
	const lead = "The BMW M4 F82 is a high-performance coupe known for its aggressive styling and powerful engine. Key specs include a 3.0-liter twin-turbo inline-six engine producing 425 hp (or 444 hp with the Competition Package), a 6-speed manual or 7-speed M DCT transmission, and rear-wheel drive."
	const autoevolution = "https://www.autoevolution.com/cars/bmw-m4-f82-2014.html#:~:text=The%20load%20capacity%20was%20more,4%20GASOLINE%20Engines"
	const pistonheads = "https://www.pistonheads.com/news/ph-driven/2014-bmw-m3-and-m4-f80-f82--review/29973"
	cases := []struct {
		name      string
		engine    sightline.Engine
		sample    string
		wantText  string
		wantCites []ingest.Citation
	}{
		{
			name: "AI overview item of an organic SERP", engine: sightline.EngineGoogleAIOverview, sample: "dataforseo-google-organic-advanced.json",
			wantText: lead + "\n\nStep 4\n\nCalculate Springfield Division sales for Quarter 2\n\n" + component + "\n\n" +
				"Aspect | Sanity Testing | Regression Testing\n" +
				"Scope | Narrow and focused on recently changed functionalities or components. | Broad, covering the entire application to ensure changes don't negatively affect existing functionalities.\n" +
				"Depth of Testing | Surface-level, a quick check for stability after recent changes. | Deep and thorough, testing various scenarios to ensure all functionalities work after modifications.\n" +
				"Objective | To quickly validate specific functionalities after minor changes or bug fixes. | To detect defects or regressions introduced by recent code changes, ensuring stability and expected performance.",
			wantCites: cites(
				autoevolution, "BMW M4 Coupe (F82) ( (2014-2020)) Photos, engines & full specs",
				pistonheads, "2014 BMW M3 and M4 (F80/F82) | Review - PistonHeads UK",
				"https://www.bankrate.com/home-equity/heloc-rates/", "according to Bankrate"),
		},
		{
			name: "AI mode", engine: sightline.EngineGoogleAIMode, sample: "dataforseo-google-ai-mode-advanced.json",
			wantText: lead + "\n\nStep 4\n\nCalculate Springfield Division sales for Quarter 2\n\n" + aiModeComponent + "\n\n" +
				"Aspect | Sanity Testing | Regression Testing\nScope | Narrow and focused | Broad and thorough\nDepth | Surface-level | Deep testing\nObjective | Quick validation | Detect regressions",
			wantCites: cites(
				autoevolution, "BMW M4 Coupe (F82) (2014-2020) Photos, engines & full specs",
				pistonheads, "2014 BMW M3 and M4 (F80/F82) | Review - PistonHeads UK",
				"https://www.bankrate.com/home-equity/heloc-rates/", "according to Bankrate"),
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			p := newProvider(t, serving(sample(t, tc.sample)))
			a := NewDataForSEO(DataForSEOConfig{Login: "l", Password: "p", BaseURL: p.srv.URL}, testOptions(0))
			c := ask(t, a, ingest.Request{Engine: tc.engine, QueryText: "bmw m4 f82", Country: "US", Locale: "en"})
			if c.Answer == nil || c.Search != nil || c.Shopping != nil {
				t.Fatalf("capture %+v: want an answer only", c)
			}
			if c.Answer.Text != tc.wantText {
				t.Errorf("text\n got %q\nwant %q", c.Answer.Text, tc.wantText)
			}
			assertCitations(t, c.Answer.Citations, tc.wantCites)
		})
	}
}

func TestDataForSEOStatusCodes(t *testing.T) {
	t.Parallel()
	envelope := func(code int, msg string, task string) string {
		return `{"version":"0.1","status_code":` + strconv.Itoa(code) + `,"status_message":"` + msg + `","tasks":[` + task + `]}`
	}
	task := func(code int, msg, result string) string {
		return `{"id":"x","status_code":` + strconv.Itoa(code) + `,"status_message":"` + msg + `","result":` + result + `}`
	}
	cases := []struct {
		name      string
		engine    sightline.Engine
		body      string
		wantKind  ErrorKind
		wantEmpty bool
		wantOne   bool
	}{
		{name: "auth failure", engine: sightline.EngineGoogleSERP, body: envelope(40100, "You are not authorized.", ""), wantKind: Rejected},
		{name: "rate limit", engine: sightline.EngineGoogleSERP, body: envelope(40202, "Rate limit per minute exceeded.", ""), wantKind: RateLimited},
		{name: "rate limit by message", engine: sightline.EngineGoogleSERP, body: envelope(40299, "Too many requests.", ""), wantKind: RateLimited},
		{name: "internal error", engine: sightline.EngineGoogleAIMode, body: envelope(50000, "Internal error.", ""), wantKind: Unavailable},
		{name: "task: invalid field", engine: sightline.EngineGoogleAIMode, body: envelope(20000, "Ok.", task(40501, "Invalid Field: 'language_code'.", "null")), wantKind: Rejected},
		{name: "task: server error", engine: sightline.EngineGoogleSERP, body: envelope(20000, "Ok.", task(50301, "Search engine did not respond.", "null")), wantKind: Unavailable},
		{name: "no tasks", engine: sightline.EngineGoogleSERP, body: envelope(20000, "Ok.", ""), wantKind: Malformed},
		{name: "unknown status", engine: sightline.EngineGoogleSERP, body: `{"tasks":[]}`, wantKind: Malformed},
		{name: "no search results is an empty page", engine: sightline.EngineGoogleSERP, body: envelope(20000, "Ok.", task(40102, "No Search Results.", "null")), wantEmpty: true},
		{name: "no items is an empty answer", engine: sightline.EngineGoogleAIOverview, body: envelope(20000, "Ok.", task(20000, "Ok.", `[{"items":null}]`)), wantEmpty: true},
		{name: "other item types are not read", engine: sightline.EngineGoogleSERP, body: envelope(20000, "Ok.", task(20000, "Ok.", `[{"items":[{"type":"paid","url":5,"rating":"x"},"odd",{"type":"organic","rank_group":"3","url":"https://a.example","title":"A","rating":null}]}]`)), wantOne: true},
		{name: "bad ai_overview items", engine: sightline.EngineGoogleAIMode, body: envelope(20000, "Ok.", task(20000, "Ok.", `[{"items":[{"type":"ai_overview","items":{"x":1}}]}]`)), wantKind: Malformed},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			p := newProvider(t, serving([]byte(tc.body)))
			a := NewDataForSEO(DataForSEOConfig{Login: "l", Password: "p", BaseURL: p.srv.URL}, testOptions(0))
			req := ingest.Request{Engine: tc.engine, QueryText: "q", Country: "US"}
			if tc.wantOne {
				c := ask(t, a, req)
				want := []ingest.SearchResult{{Rank: 3, URL: "https://a.example", Title: "A"}}
				if c.Search == nil || !reflect.DeepEqual(c.Search.Results, want) {
					t.Errorf("search %+v, want %+v", c.Search, want)
				}
				return
			}
			if !tc.wantEmpty {
				err := assertKind(t, a, req, tc.wantKind)
				if tc.wantKind != Malformed && !strings.Contains(err.Error(), "status") {
					t.Errorf("error %q does not name the status", err)
				}
				return
			}
			c := ask(t, a, req)
			switch {
			case tc.engine == sightline.EngineGoogleSERP && (c.Search == nil || len(c.Search.Results) != 0):
				t.Errorf("search %+v, want an empty page", c.Search)
			case tc.engine != sightline.EngineGoogleSERP && (c.Answer == nil || c.Answer.Text != "" || len(c.Answer.Citations) != 0):
				t.Errorf("answer %+v, want an empty answer", c.Answer)
			}
		})
	}
}

func TestDataForSEOUnknownCountry(t *testing.T) {
	t.Parallel()
	p := newProvider(t, serving(sample(t, "dataforseo-google-ai-mode-advanced.json")))
	a := NewDataForSEO(DataForSEOConfig{Login: "l", Password: "p", BaseURL: p.srv.URL}, testOptions(0))
	for _, country := range []string{"", "ZZ", "EU", "U"} {
		assertKind(t, a, ingest.Request{Engine: sightline.EngineGoogleSERP, QueryText: "q", Country: country}, Rejected)
	}
	if n := len(p.all()); n != 0 {
		t.Errorf("%d requests sent", n)
	}
}
