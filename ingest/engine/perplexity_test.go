package engine

import (
	"strings"
	"testing"

	"github.com/sightline/sightline"
	"github.com/sightline/sightline/ingest"
)

func TestPerplexityAsk(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name      string
		sample    string
		country   string
		wantStart string
		wantCites []ingest.Citation
	}{
		{
			// Markers [1][3][4][5]; [2] is never marked and comes last.
			name: "citations with search_results titles", sample: "perplexity-sonar-chat.json", country: "IN",
			wantStart: "The current repo rate in India is **5.50%** as of August 6, 2025.",
			wantCites: cites(
				"https://tradingeconomics.com/india/interest-rate", "India Interest Rate",
				"https://www.finnovate.in/learn/blog/rbi-repo-rate-update-august-2025", "RBI Holds Repo Rate at 5.5% in August 2025",
				"https://www.southindianbank.com/blog/general-topics/rbi-cuts-repo-rate-by-50-basis-points-changes-policy-stance-to-neutral", "RBI cuts repo rate for third consecutive time in a row",
				"https://cleartax.in/s/repo-rate", "Current Repo and Reverse Repo Rate 2025",
				"https://www.ujjivansfb.in/banking-blogs/borrow/what-is-repo-rate", "What is Repo Rate and How Does it Work?"),
		},
		{
			// First markers in text order: [2][3][5][7], then [6], then [1]; [4] never.
			name: "citations only, no titles", sample: "perplexity-sonar-chat-citations-only.json", country: "US",
			wantStart: "The most recent estimates for San Francisco's city population",
			wantCites: cites(
				"https://en.wikipedia.org/wiki/San_Francisco", "",
				"https://www.california-demographics.com/cities_by_population", "",
				"https://fred.stlouisfed.org/series/CASANF0POP", "",
				"https://worldpopulationreview.com/us-counties/california/san-francisco-county", "",
				"https://worldpopulationreview.com/us-cities/california/san-francisco", "",
				"https://populationstat.com/united-states/san-francisco", "",
				"https://wfin.com/fox-sports/pat-mcafee-says-san-francisco-wasnt-the-s-hole-he-thought-it-may-be-during-super-bowl-week/", ""),
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			body := sample(t, tc.sample)
			p := newProvider(t, serving(body))
			a := NewPerplexity(PerplexityConfig{APIKey: "pplx-test", BaseURL: p.srv.URL + "/"}, testOptions(0))
			c := ask(t, a, ingest.Request{Engine: sightline.EnginePerplexity, QueryText: "repo rate?", Country: tc.country, Locale: "en"})

			r := p.only(t)
			if r.Method != "POST" || r.Path != "/chat/completions" {
				t.Errorf("request %s %s", r.Method, r.Path)
			}
			if got := r.Header.Get("Authorization"); got != "Bearer pplx-test" {
				t.Errorf("Authorization %q", got)
			}
			var in struct {
				Model    string `json:"model"`
				Messages []struct {
					Role    string `json:"role"`
					Content string `json:"content"`
				} `json:"messages"`
				WebSearchOptions struct {
					UserLocation struct {
						Country string `json:"country"`
					} `json:"user_location"`
				} `json:"web_search_options"`
			}
			decodeJSON(t, r.Body, &in)
			if in.Model != "sonar" || len(in.Messages) != 1 || in.Messages[0].Role != "user" || in.Messages[0].Content != "repo rate?" ||
				in.WebSearchOptions.UserLocation.Country != tc.country {
				t.Errorf("body %s", r.Body)
			}

			if c.Answer == nil || !strings.HasPrefix(c.Answer.Text, tc.wantStart) {
				t.Fatalf("answer %+v", c.Answer)
			}
			if !strings.Contains(c.Answer.Text, "[1]") {
				t.Errorf("markers were removed from the text: %q", c.Answer.Text)
			}
			assertCitations(t, c.Answer.Citations, tc.wantCites)
		})
	}
}

func TestParsePerplexityEdges(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name      string
		body      string
		wantKind  ErrorKind
		wantText  string
		wantCites []ingest.Citation
	}{
		{name: "no choices", body: `{"citations":[]}`, wantKind: Malformed},
		{name: "not json", body: `{"choices":`, wantKind: Malformed},
		{
			name:      "search_results without citations; out-of-range and repeated markers",
			body:      `{"search_results":[{"title":"A","url":"https://a.example"},{"title":"B","url":"https://b.example"}],"choices":[{"message":{"content":"X[2][9] and [0][2][1]."}}]}`,
			wantText:  "X[2][9] and [0][2][1].",
			wantCites: cites("https://b.example", "B", "https://a.example", "A"),
		},
		{
			name:      "duplicated URL keeps its first rank",
			body:      `{"citations":["https://a.example","https://a.example","https://c.example"],"choices":[{"message":{"content":"See [3] then [2]."}}]}`,
			wantText:  "See [3] then [2].",
			wantCites: cites("https://c.example", "", "https://a.example", ""),
		},
		{
			name:     "reasoning model think block dropped",
			body:     `{"citations":["https://a.example"],"choices":[{"message":{"content":"<think>Acme or Beta? [1]</think>\n\nAcme is best [1]."}}]}`,
			wantText: "Acme is best [1].", wantCites: cites("https://a.example", ""),
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			a, err := parsePerplexity(sightline.EnginePerplexity, []byte(tc.body))
			if tc.wantKind != "" {
				if err == nil || err.Kind != tc.wantKind {
					t.Fatalf("error %v, want kind %s", err, tc.wantKind)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if a.Text != tc.wantText {
				t.Errorf("text %q, want %q", a.Text, tc.wantText)
			}
			assertCitations(t, a.Citations, tc.wantCites)
		})
	}
}
