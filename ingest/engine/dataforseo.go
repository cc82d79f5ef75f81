package engine

import (
	"cmp"
	"context"
	"encoding/base64"
	"encoding/json"
	"strings"

	"golang.org/x/text/language"

	"github.com/sightline/sightline"
	"github.com/sightline/sightline/ingest"
)

// DefaultDataForSEOBaseURL is DataForSEO's API root.
const DefaultDataForSEOBaseURL = "https://api.dataforseo.com"

// DataForSEOConfig configures the DataForSEO adapter.
type DataForSEOConfig struct {
	Login    string
	Password string
	// BaseURL is the API root, with or without a trailing /v3; empty means
	// DefaultDataForSEOBaseURL.
	BaseURL string
}

// DataForSEO answers google_serp, google_ai_overview and google_ai_mode
// through DataForSEO's live SERP endpoints (HTTP Basic auth, one task per
// POST):
//
//   - google_serp: POST {base}/v3/serp/google/organic/live/advanced. Results
//     are the items of type organic; Rank is their rank_group, DataForSEO's
//     1-based position among organic results only (paid, featured and other
//     SERP features are separate types and are not captured; rank_absolute,
//     the position among all items, is not used). Rating and votes are the
//     item's rating.value and rating.votes_count.
//   - google_ai_overview: the same endpoint with load_async_ai_overview=true
//     (otherwise only cached overviews come back), reading the top-level
//     ai_overview item; none is an empty answer. AI Overviews inside
//     people_also_ask are other queries' answers and are ignored.
//   - google_ai_mode: POST {base}/v3/serp/google/ai_mode/live/advanced,
//     reading its ai_overview items.
//
// google_shopping is not served: DataForSEO's Google Shopping data
// (Merchant API) has no live endpoint, only task_post/task_get; FromEnv
// routes google_shopping to SerpApi.
//
// Country is location_code (Google Ads geo target of the country: 2000 +
// its ISO 3166-1 numeric code), locale language_code; DataForSEO requires a
// language, so an empty locale asks in English, as SerpApi does by default.
// The keyword is sent with "%" and "+" escaped, which DataForSEO would
// otherwise decode.
//
// Answer text is the overview's elements as plain text (title and text,
// expanded sections with their components, tables as " | " rows; videos
// write nothing), or its markdown when it has no elements. Citations are the
// overview's references in order, then those of its elements, then its
// inline links, de-duplicated by URL and kept as given (with their
// #:~:text= fragments).
//
// DataForSEO answers HTTP 200 with its own status codes (envelope and
// task): 2xxxx is success, 40102 "No Search Results" an empty page, rate
// limits (40202, 40209, or a message saying so) RateLimited, other 4xxxx
// Rejected (bad credentials, funds, parameters), 5xxxx Unavailable.
type DataForSEO struct {
	auth string
	base string
	t    transport
}

// NewDataForSEO returns the DataForSEO adapter.
func NewDataForSEO(cfg DataForSEOConfig, o Options) *DataForSEO {
	return &DataForSEO{
		auth: "Basic " + base64.StdEncoding.EncodeToString([]byte(cfg.Login+":"+cfg.Password)),
		base: cmp.Or(trimBase(cfg.BaseURL, "v3"), DefaultDataForSEOBaseURL),
		t:    newTransport(o),
	}
}

type dataForSEOTask struct {
	Keyword             string `json:"keyword"`
	LocationCode        int    `json:"location_code"`
	LanguageCode        string `json:"language_code"`
	Device              string `json:"device"`
	LoadAsyncAIOverview bool   `json:"load_async_ai_overview,omitempty"`
}

// Ask asks Google, through DataForSEO, one pass of a check.
func (a *DataForSEO) Ask(ctx context.Context, req ingest.Request) (ingest.Capture, error) {
	path := "/v3/serp/google/organic/live/advanced"
	switch req.Engine {
	case sightline.EngineGoogleSERP, sightline.EngineGoogleAIOverview:
	case sightline.EngineGoogleAIMode:
		path = "/v3/serp/google/ai_mode/live/advanced"
	default:
		return ingest.Capture{}, newError(req.Engine, Rejected, "the DataForSEO adapter does not serve %s", req.Engine)
	}
	location, ok := dataForSEOLocation(req.Country)
	if !ok {
		return ingest.Capture{}, newError(req.Engine, Rejected, "country %q has no DataForSEO location", req.Country)
	}
	task := dataForSEOTask{
		Keyword:             strings.NewReplacer("%", "%25", "+", "%2B").Replace(req.QueryText),
		LocationCode:        location,
		LanguageCode:        dataForSEOLanguage(req.Locale, req.Country),
		Device:              "desktop",
		LoadAsyncAIOverview: req.Engine == sightline.EngineGoogleAIOverview,
	}
	data, err := a.t.postJSON(ctx, req.Engine, a.base+path, a.auth, []dataForSEOTask{task})
	if err != nil {
		return ingest.Capture{}, err
	}
	items, perr := decodeDataForSEO(req.Engine, data)
	if perr != nil {
		return ingest.Capture{}, perr
	}
	c := ingest.Capture{Engine: req.Engine, CapturedAt: a.t.capturedAt()}
	if req.Engine == sightline.EngineGoogleSERP {
		c.Search = dataForSEOSearch(items)
	} else {
		c.Answer, perr = dataForSEOAnswer(req.Engine, items, req.Engine == sightline.EngineGoogleAIOverview)
	}
	if perr != nil {
		return ingest.Capture{}, perr
	}
	return c, nil
}

// dataForSEOLocation is the location_code of a country: Google Ads geo
// target ids for countries are 2000 + the ISO 3166-1 numeric code
// (2840 United States, 2826 United Kingdom, 2604 Peru).
func dataForSEOLocation(country string) (int, bool) {
	r, err := language.ParseRegion(country)
	if err != nil || !r.IsCountry() || r.M49() <= 0 {
		return 0, false
	}
	return 2000 + r.M49(), true
}

// dataForSEOLanguage is the language_code for a locale: English when none
// is asked for, Chinese by script region.
func dataForSEOLanguage(locale, country string) string {
	switch l := strings.ToLower(locale); l {
	case "":
		return "en"
	case "zh":
		return chineseVariant(country)
	default:
		return l
	}
}

type dataForSEOResponse struct {
	StatusCode    int    `json:"status_code"`
	StatusMessage string `json:"status_message"`
	Tasks         []struct {
		StatusCode    int    `json:"status_code"`
		StatusMessage string `json:"status_message"`
		Result        []struct {
			Items []json.RawMessage `json:"items"`
		} `json:"result"`
	} `json:"tasks"`
}

// dataForSEOItem is an organic or ai_overview SERP item. Items of other
// types are never decoded further than their type, so their layouts cannot
// make a page unreadable; within these two, nested lists stay raw until
// read.
type dataForSEOItem struct {
	Type        string `json:"type"`
	RankGroup   number `json:"rank_group"`
	URL         string `json:"url"`
	Title       string `json:"title"`
	Description string `json:"description"`
	Rating      *struct {
		Value      number `json:"value"`
		VotesCount number `json:"votes_count"`
	} `json:"rating"`
	Markdown   string          `json:"markdown"`
	Items      json.RawMessage `json:"items"`
	References json.RawMessage `json:"references"`
}

type dataForSEOElement struct {
	Type       string `json:"type"`
	Title      string `json:"title"`
	Text       string `json:"text"`
	Components []struct {
		Title string `json:"title"`
		Text  string `json:"text"`
	} `json:"components"`
	Table *struct {
		// TableContent is kept raw: a cell that is not a string must not
		// make the whole answer unreadable.
		TableContent json.RawMessage `json:"table_content"`
	} `json:"table"`
	References []dataForSEOReference `json:"references"`
	Links      []dataForSEOReference `json:"links"`
}

type dataForSEOReference struct {
	URL   string `json:"url"`
	Title string `json:"title"`
}

// decodeDataForSEO checks the envelope and task status codes and returns
// the items of the single task's result.
func decodeDataForSEO(engine sightline.Engine, data []byte) ([]dataForSEOItem, *Error) {
	var r dataForSEOResponse
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, newError(engine, Malformed, "decoding response: %w", err)
	}
	if err := dataForSEOStatus(engine, r.StatusCode, r.StatusMessage); err != nil {
		return nil, err
	}
	if len(r.Tasks) == 0 {
		return nil, newError(engine, Malformed, "response has no task")
	}
	task := r.Tasks[0]
	if task.StatusCode == 40102 && strings.Contains(strings.ToLower(task.StatusMessage), "no search results") {
		return nil, nil
	}
	if err := dataForSEOStatus(engine, task.StatusCode, task.StatusMessage); err != nil {
		return nil, err
	}
	var items []dataForSEOItem
	for _, res := range task.Result {
		for _, raw := range res.Items {
			var head struct {
				Type string `json:"type"`
			}
			if json.Unmarshal(raw, &head) != nil || (head.Type != "organic" && head.Type != "ai_overview") {
				continue
			}
			var it dataForSEOItem
			if err := json.Unmarshal(raw, &it); err != nil {
				return nil, newError(engine, Malformed, "decoding %s item: %w", head.Type, err)
			}
			items = append(items, it)
		}
	}
	return items, nil
}

func dataForSEOStatus(engine sightline.Engine, code int, msg string) *Error {
	lower := strings.ToLower(msg)
	switch {
	case code >= 20000 && code < 30000:
		return nil
	case code == 40202 || code == 40209 || strings.Contains(lower, "rate limit") || strings.Contains(lower, "too many"):
		return newError(engine, RateLimited, "status %d: %s", code, truncate(msg, 300))
	case code >= 40000 && code < 50000:
		return newError(engine, Rejected, "status %d: %s", code, truncate(msg, 300))
	case code >= 50000 && code < 60000:
		return newError(engine, Unavailable, "status %d: %s", code, truncate(msg, 300))
	}
	return newError(engine, Malformed, "unknown status %d: %s", code, truncate(msg, 300))
}

func dataForSEOSearch(items []dataForSEOItem) *ingest.SearchPage {
	page := &ingest.SearchPage{Results: []ingest.SearchResult{}}
	for _, it := range items {
		if it.Type != "organic" || it.URL == "" {
			continue
		}
		res := ingest.SearchResult{Rank: len(page.Results) + 1, URL: it.URL, Title: it.Title, Snippet: it.Description}
		if p := it.RankGroup.int(); p != nil && *p > 0 {
			res.Rank = *p
		}
		if it.Rating != nil {
			res.Rating = it.Rating.Value.float()
			if res.Rating != nil {
				res.RatingVotes = it.Rating.VotesCount.int()
			}
		}
		page.Results = append(page.Results, res)
	}
	return page
}

// dataForSEOAnswer reads the answer out of the ai_overview items: the first
// one for google_ai_overview (an organic SERP has one overview), all of
// them in order for google_ai_mode.
func dataForSEOAnswer(engine sightline.Engine, items []dataForSEOItem, first bool) (*ingest.Answer, *Error) {
	var t text
	var cites citations
	var inline []dataForSEOReference
	for _, it := range items {
		if it.Type != "ai_overview" {
			continue
		}
		var elems []dataForSEOElement
		if len(it.Items) > 0 && string(it.Items) != "null" {
			if err := json.Unmarshal(it.Items, &elems); err != nil {
				return nil, newError(engine, Malformed, "decoding ai_overview items: %w", err)
			}
		}
		var refs []dataForSEOReference
		if len(it.References) > 0 && string(it.References) != "null" {
			if err := json.Unmarshal(it.References, &refs); err != nil {
				return nil, newError(engine, Malformed, "decoding ai_overview references: %w", err)
			}
		}
		for _, r := range refs {
			cites.add(r.URL, r.Title)
		}
		wrote := false
		for _, e := range elems {
			before := t.b.Len()
			switch e.Type {
			case "ai_overview_table_element":
				var cells [][]string
				if e.Table != nil && json.Unmarshal(e.Table.TableContent, &cells) == nil {
					rows := make([]string, 0, len(cells))
					for _, row := range cells {
						rows = append(rows, strings.Join(row, " | "))
					}
					t.paragraph(strings.Join(rows, "\n"))
				}
			case "ai_overview_video_element":
			default:
				t.paragraph(e.Title)
				t.paragraph(e.Text)
				for _, c := range e.Components {
					t.paragraph(join(c.Title, c.Text))
				}
			}
			wrote = wrote || t.b.Len() > before
			for _, r := range e.References {
				cites.add(r.URL, r.Title)
			}
			inline = append(inline, e.Links...)
		}
		if !wrote {
			t.paragraph(it.Markdown)
		}
		if first {
			break
		}
	}
	for _, l := range inline {
		if !isGoogleSearchLink(l.URL) {
			cites.add(l.URL, l.Title)
		}
	}
	return &ingest.Answer{Text: t.String(), Citations: cites.list}, nil
}
