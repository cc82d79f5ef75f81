package engine

import (
	"cmp"
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"

	"github.com/sightline/sightline"
	"github.com/sightline/sightline/ingest"
)

// DefaultSerpAPIBaseURL is SerpApi's API root.
const DefaultSerpAPIBaseURL = "https://serpapi.com"

// SerpAPIConfig configures the SerpApi adapter.
type SerpAPIConfig struct {
	APIKey string
	// BaseURL is the API root; empty means DefaultSerpAPIBaseURL.
	BaseURL string
}

// SerpAPI answers the Google engines through SerpApi
// (GET {base}/search.json, key in the api_key parameter):
//
//   - google_serp: engine=google. Results are organic_results in SerpApi's
//     order; Rank is SerpApi's `position`, 1-based among organic results
//     only (ads, AI Overview, shopping and local packs take no position and
//     are not captured). URL is the destination `link`, or, when a result
//     has none, its Google redirect_link as given (extraction marks it
//     unresolved). Rating and votes come from the result's rich snippet
//     (top, else bottom: a store rating) when Google shows one.
//   - google_shopping: engine=google_shopping. Offers are shopping_results
//     (the sponsored inline_shopping_results are ads and are not captured);
//     a page that only has categorized_shopping_results is read group by
//     group. Rank is `position` (array order when absent), Price is
//     extracted_price, ProductID product_id, Merchant `source`, URL the
//     merchant `link` or else product_link. SerpApi gives no currency code:
//     see offerCurrency. An offer that shows no price has Price 0 and no
//     currency.
//   - google_ai_overview: engine=google, reading the page's ai_overview.
//     When the overview must be fetched separately (only a page_token), a
//     second request to engine=google_ai_overview follows at once (the
//     token expires within minutes). A page without an AI Overview is an
//     empty answer (measured, nothing shown); an overview Google "can't
//     generate right now" is Unavailable. AI Overviews of related questions
//     are other queries' answers and are ignored.
//   - google_ai_mode: engine=google_ai_mode, reading its top-level
//     text_blocks and references.
//
// Country is gl, locale hl (omitted when empty: SerpApi then asks in
// English). AI engines send no_cache=true so every pass is a fresh answer;
// search and shopping pages accept SerpApi's one-hour cache.
//
// Answer text is the text blocks flattened to plain text (see serpBlocks).
// Citations are the `references` in their order, de-duplicated by link
// (SerpApi repeats a link under several indexes), then the inline
// snippet_links that are not Google search links, in text order. Links are
// kept as given: AI Mode references are often Google viewer links
// (google.com/searchviewer), which extraction marks unresolved.
type SerpAPI struct {
	key  string
	base string
	t    transport
}

// NewSerpAPI returns the SerpApi adapter.
func NewSerpAPI(cfg SerpAPIConfig, o Options) *SerpAPI {
	return &SerpAPI{key: cfg.APIKey, base: cmp.Or(trimBase(cfg.BaseURL, ""), DefaultSerpAPIBaseURL), t: newTransport(o)}
}

// Ask asks Google, through SerpApi, one pass of a check.
func (a *SerpAPI) Ask(ctx context.Context, req ingest.Request) (ingest.Capture, error) {
	var engine string
	switch req.Engine {
	case sightline.EngineGoogleSERP, sightline.EngineGoogleAIOverview:
		engine = "google"
	case sightline.EngineGoogleShopping:
		engine = "google_shopping"
	case sightline.EngineGoogleAIMode:
		engine = "google_ai_mode"
	default:
		return ingest.Capture{}, newError(req.Engine, Rejected, "the SerpApi adapter does not serve %s", req.Engine)
	}
	q := url.Values{"engine": {engine}, "q": {req.QueryText}}
	if req.Country != "" {
		q.Set("gl", googleCountry(req.Country))
	}
	if hl := googleLanguage(req.Locale, req.Country); hl != "" {
		q.Set("hl", hl)
	}
	if req.Engine.AI() {
		q.Set("no_cache", "true")
	}
	data, err := a.search(ctx, req.Engine, q)
	if err != nil {
		return ingest.Capture{}, err
	}
	c := ingest.Capture{Engine: req.Engine}
	var perr *Error
	switch req.Engine {
	case sightline.EngineGoogleSERP:
		c.Search, perr = parseSerpAPISearch(req.Engine, data)
	case sightline.EngineGoogleShopping:
		c.Shopping, perr = parseSerpAPIShopping(req.Engine, data, req.Country)
	case sightline.EngineGoogleAIMode:
		c.Answer, perr = parseSerpAPIAIMode(req.Engine, data)
	case sightline.EngineGoogleAIOverview:
		var token string
		c.Answer, token, perr = parseSerpAPIAIOverview(req.Engine, data)
		if perr == nil && token != "" {
			follow, err := a.search(ctx, req.Engine, url.Values{"engine": {"google_ai_overview"}, "page_token": {token}})
			if err != nil {
				return ingest.Capture{}, err
			}
			c.Answer, token, perr = parseSerpAPIAIOverview(req.Engine, follow)
			if perr == nil && token != "" {
				perr = newError(req.Engine, Malformed, "google_ai_overview answered with another page_token")
			}
		}
	}
	if perr != nil {
		return ingest.Capture{}, perr
	}
	c.CapturedAt = a.t.capturedAt()
	return c, nil
}

func (a *SerpAPI) search(ctx context.Context, engine sightline.Engine, q url.Values) ([]byte, error) {
	q.Set("api_key", a.key)
	return a.t.exchange(ctx, engine, request{
		method: http.MethodGet,
		url:    a.base + "/search.json?" + q.Encode(),
		header: http.Header{"Accept": {"application/json"}},
	})
}

// serpAPIStatus is the error SerpApi may put in any response. Each parser
// decodes only the part of the response its engine reads, so an odd layout
// elsewhere on the page cannot make the part it needs unreadable.
type serpAPIStatus struct {
	Error string `json:"error"`
}

type serpAPISearchResponse struct {
	serpAPIStatus
	OrganicResults []struct {
		Position     number `json:"position"`
		Title        string `json:"title"`
		Link         string `json:"link"`
		RedirectLink string `json:"redirect_link"`
		Snippet      string `json:"snippet"`
		RichSnippet  struct {
			Top    serpAPIRich `json:"top"`
			Bottom serpAPIRich `json:"bottom"`
		} `json:"rich_snippet"`
	} `json:"organic_results"`
}

type serpAPIShoppingResponse struct {
	serpAPIStatus
	ShoppingResults            []serpAPIOffer `json:"shopping_results"`
	CategorizedShoppingResults []struct {
		ShoppingResults []serpAPIOffer `json:"shopping_results"`
	} `json:"categorized_shopping_results"`
}

type serpAPIOverviewResponse struct {
	serpAPIStatus
	AIOverview *serpAPIOverview `json:"ai_overview"`
}

// serpAPIModeResponse is google_ai_mode's: the answer is at the top level.
type serpAPIModeResponse struct {
	serpAPIStatus
	serpAPIAnswerBody
}

type serpAPIRich struct {
	DetectedExtensions struct {
		Rating  number `json:"rating"`
		Reviews number `json:"reviews"`
	} `json:"detected_extensions"`
}

type serpAPIOffer struct {
	Position       number `json:"position"`
	Title          string `json:"title"`
	Price          string `json:"price"`
	ExtractedPrice number `json:"extracted_price"`
	ProductID      string `json:"product_id"`
	Source         string `json:"source"`
	Link           string `json:"link"`
	ProductLink    string `json:"product_link"`
}

type serpAPIOverview struct {
	Error     string `json:"error"`
	PageToken string `json:"page_token"`
	serpAPIAnswerBody
}

// serpAPIAnswerBody is an AI Overview's or AI Mode's answer.
type serpAPIAnswerBody struct {
	TextBlocks []serpAPIBlock     `json:"text_blocks"`
	References []serpAPIReference `json:"references"`
	Products   []struct {
		Title string `json:"title"`
	} `json:"products"`
}

type serpAPIReference struct {
	Title string `json:"title"`
	Link  string `json:"link"`
}

type serpAPILink struct {
	Text string `json:"text"`
	Link string `json:"link"`
}

type serpAPIBlock struct {
	Type         string            `json:"type"`
	Title        string            `json:"title"`
	Snippet      string            `json:"snippet"`
	SnippetLinks []serpAPILink     `json:"snippet_links"`
	List         []serpAPIListItem `json:"list"`
	TextBlocks   []serpAPIBlock    `json:"text_blocks"`
	// Table is kept raw: its layout varies (rows of strings, or worse).
	Table         json.RawMessage `json:"table"`
	ProductLabels []string        `json:"product_labels"`
	Comparison    []struct {
		Feature string   `json:"feature"`
		Values  []string `json:"values"`
	} `json:"comparison"`
	TopStories []struct {
		Title  string `json:"title"`
		Source string `json:"source"`
	} `json:"top_stories"`
}

type serpAPIListItem struct {
	Title        string            `json:"title"`
	Snippet      string            `json:"snippet"`
	SnippetLinks []serpAPILink     `json:"snippet_links"`
	List         []serpAPIListItem `json:"list"`
}

// decodeSerpAPI decodes data into r, whose status it then checks.
func decodeSerpAPI(engine sightline.Engine, data []byte, r any, status *serpAPIStatus) *Error {
	if err := json.Unmarshal(data, r); err != nil {
		return newError(engine, Malformed, "decoding response: %w", err)
	}
	// SerpApi answers 200 with an error for a search Google answered with
	// nothing; that is an empty page, not a failure. Other errors at 200
	// are SerpApi failing to get the page.
	if status.Error != "" && !strings.Contains(strings.ToLower(status.Error), "any results") {
		return newError(engine, Unavailable, "%s", truncate(status.Error, 300))
	}
	return nil
}

func parseSerpAPISearch(engine sightline.Engine, data []byte) (*ingest.SearchPage, *Error) {
	var r serpAPISearchResponse
	if err := decodeSerpAPI(engine, data, &r, &r.serpAPIStatus); err != nil {
		return nil, err
	}
	page := &ingest.SearchPage{Results: make([]ingest.SearchResult, 0, len(r.OrganicResults))}
	for i, o := range r.OrganicResults {
		res := ingest.SearchResult{Rank: i + 1, URL: o.Link, Title: o.Title, Snippet: o.Snippet}
		if p := o.Position.int(); p != nil && *p > 0 {
			res.Rank = *p
		}
		if res.URL == "" {
			res.URL = o.RedirectLink
		}
		if res.URL == "" {
			continue
		}
		rich := o.RichSnippet.Top.DetectedExtensions
		if !rich.Rating.ok {
			rich = o.RichSnippet.Bottom.DetectedExtensions
		}
		res.Rating = rich.Rating.float()
		if res.Rating != nil {
			res.RatingVotes = rich.Reviews.int()
		}
		page.Results = append(page.Results, res)
	}
	return page, nil
}

func parseSerpAPIShopping(engine sightline.Engine, data []byte, country string) (*ingest.ShoppingPage, *Error) {
	var r serpAPIShoppingResponse
	if err := decodeSerpAPI(engine, data, &r, &r.serpAPIStatus); err != nil {
		return nil, err
	}
	offers := r.ShoppingResults
	if len(offers) == 0 {
		for _, g := range r.CategorizedShoppingResults {
			offers = append(offers, g.ShoppingResults...)
		}
		// Positions restart in every group: rank by page order instead.
		for i := range offers {
			offers[i].Position = number{}
		}
	}
	page := &ingest.ShoppingPage{Offers: make([]ingest.Offer, 0, len(offers))}
	for i, o := range offers {
		offer := ingest.Offer{
			Rank:      i + 1,
			Title:     o.Title,
			ProductID: o.ProductID,
			Merchant:  o.Source,
			URL:       o.Link,
		}
		if p := o.Position.int(); p != nil && *p > 0 {
			offer.Rank = *p
		}
		if offer.URL == "" {
			offer.URL = o.ProductLink
		}
		if o.ExtractedPrice.ok {
			offer.Price = o.ExtractedPrice.v
			offer.Currency = offerCurrency(o.Price, country)
		}
		page.Offers = append(page.Offers, offer)
	}
	return page, nil
}

// parseSerpAPIAIOverview reads the ai_overview of an engine=google or
// engine=google_ai_overview response. A non-empty token means the overview
// is only a page_token and must be fetched with it.
func parseSerpAPIAIOverview(engine sightline.Engine, data []byte) (*ingest.Answer, string, *Error) {
	var r serpAPIOverviewResponse
	if err := decodeSerpAPI(engine, data, &r, &r.serpAPIStatus); err != nil {
		return nil, "", err
	}
	o := r.AIOverview
	switch {
	case o == nil:
		return &ingest.Answer{}, "", nil
	case len(o.TextBlocks) == 0 && o.Error != "":
		return nil, "", newError(engine, Unavailable, "ai_overview: %s", truncate(o.Error, 300))
	case len(o.TextBlocks) == 0 && o.PageToken != "":
		return nil, o.PageToken, nil
	}
	return serpAPIAnswer(&o.serpAPIAnswerBody), "", nil
}

func parseSerpAPIAIMode(engine sightline.Engine, data []byte) (*ingest.Answer, *Error) {
	var r serpAPIModeResponse
	if err := decodeSerpAPI(engine, data, &r, &r.serpAPIStatus); err != nil {
		return nil, err
	}
	return serpAPIAnswer(&r.serpAPIAnswerBody), nil
}

// serpAPIAnswer flattens an AI Overview or AI Mode answer. Product cards
// (products comparisons) come first, as Google shows them above the text.
func serpAPIAnswer(o *serpAPIAnswerBody) *ingest.Answer {
	var t text
	var inline []serpAPILink
	var products []string
	for _, p := range o.Products {
		if p.Title != "" {
			products = append(products, "- "+p.Title)
		}
	}
	t.paragraph(strings.Join(products, "\n"))
	serpBlocks(&t, &inline, o.TextBlocks)
	var cites citations
	for _, ref := range o.References {
		cites.add(ref.Link, ref.Title)
	}
	for _, l := range inline {
		if !isGoogleSearchLink(l.Link) {
			cites.add(l.Link, l.Text)
		}
	}
	return &ingest.Answer{Text: t.String(), Citations: cites.list}
}

// serpBlocks writes SerpApi text blocks as plain text, one paragraph per
// block: paragraphs and headings as their text, lists as "- " lines
// (nested ones indented), expandable sections as their title then their
// blocks, tables and comparisons as " | "-separated rows, top stories as
// "- title (source)" lines. Block types without text (videos, images)
// write nothing. It collects the inline snippet_links in text order.
func serpBlocks(t *text, links *[]serpAPILink, blocks []serpAPIBlock) {
	for _, b := range blocks {
		var lines []string
		switch b.Type {
		case "list":
			lines = appendNonBlank(lines, join(b.Title, b.Snippet))
			*links = append(*links, b.SnippetLinks...)
			lines = serpList(lines, links, b.List, 0)
		case "expandable":
			t.paragraph(b.Title)
			serpBlocks(t, links, b.TextBlocks)
		case "table":
			var rows [][]string
			if json.Unmarshal(b.Table, &rows) == nil {
				for _, row := range rows {
					lines = appendNonBlank(lines, strings.Join(row, " | "))
				}
			}
		case "comparison":
			lines = appendNonBlank(lines, strings.Join(b.ProductLabels, " | "))
			for _, c := range b.Comparison {
				lines = appendNonBlank(lines, c.Feature+": "+strings.Join(c.Values, " | "))
			}
		case "top_stories":
			for _, s := range b.TopStories {
				if strings.TrimSpace(s.Title) == "" {
					continue
				}
				line := "- " + s.Title
				if s.Source != "" {
					line += " (" + s.Source + ")"
				}
				lines = append(lines, line)
			}
		default:
			lines = appendNonBlank(lines, join(b.Title, b.Snippet))
			*links = append(*links, b.SnippetLinks...)
			t.paragraph(strings.Join(lines, "\n"))
			lines = nil
			serpBlocks(t, links, b.TextBlocks)
		}
		t.paragraph(strings.Join(lines, "\n"))
	}
}

func serpList(lines []string, links *[]serpAPILink, items []serpAPIListItem, depth int) []string {
	for _, it := range items {
		if s := join(it.Title, it.Snippet); s != "" {
			lines = append(lines, strings.Repeat("  ", depth)+"- "+s)
		}
		*links = append(*links, it.SnippetLinks...)
		lines = serpList(lines, links, it.List, depth+1)
	}
	return lines
}

func appendNonBlank(lines []string, s string) []string {
	if strings.TrimSpace(s) == "" {
		return lines
	}
	return append(lines, s)
}
