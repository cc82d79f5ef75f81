package ingest

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/sightline/sightline"
)

// extractSampleAnswer reads the answer of an engine sample in testdata as an
// adapter would: OpenAI Responses (message text, url_citation annotations),
// Perplexity (content, citations), SerpApi AI Mode (reconstructed_markdown,
// references) and SerpApi AI Overview (text_blocks flattened to markdown,
// references).
func extractSampleAnswer(t *testing.T, file string, pick func(map[string]any) map[string]any) Answer {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("testdata", file))
	if err != nil {
		t.Fatal(err)
	}
	var body map[string]any
	if err := json.Unmarshal(raw, &body); err != nil {
		t.Fatal(err)
	}
	if pick != nil {
		body = pick(body)
	}
	var a Answer
	cite := func(url, title string) {
		for _, c := range a.Citations {
			if c.URL == url {
				return
			}
		}
		a.Citations = append(a.Citations, Citation{Position: len(a.Citations) + 1, URL: url, Title: title})
	}
	switch {
	case body["output"] != nil:
		for _, o := range body["output"].([]any) {
			item := o.(map[string]any)
			if item["type"] != "message" {
				continue
			}
			for _, c := range item["content"].([]any) {
				content := c.(map[string]any)
				a.Text = content["text"].(string)
				for _, an := range content["annotations"].([]any) {
					ann := an.(map[string]any)
					cite(ann["url"].(string), ann["title"].(string))
				}
			}
		}
	case body["choices"] != nil:
		msg := body["choices"].([]any)[0].(map[string]any)["message"].(map[string]any)
		a.Text = msg["content"].(string)
		for _, u := range body["citations"].([]any) {
			cite(u.(string), "")
		}
	case body["reconstructed_markdown"] != nil:
		a.Text = body["reconstructed_markdown"].(string)
		for _, r := range body["references"].([]any) {
			ref := r.(map[string]any)
			title, _ := ref["title"].(string)
			cite(ref["link"].(string), title)
		}
	case body["ai_overview"] != nil:
		ov := body["ai_overview"].(map[string]any)
		var b strings.Builder
		extractSampleFlatten(&b, ov["text_blocks"].([]any), 0)
		a.Text = b.String()
		if refs, ok := ov["references"].([]any); ok {
			for _, r := range refs {
				ref := r.(map[string]any)
				title, _ := ref["title"].(string)
				cite(ref["link"].(string), title)
			}
		}
	default:
		t.Fatalf("%s: no answer", file)
	}
	return a
}

// extractSampleFlatten writes AI Overview text blocks as markdown, the way an
// adapter renders them: paragraphs, headings, lists ("- **title** snippet"),
// expandable sections and tables.
func extractSampleFlatten(b *strings.Builder, blocks []any, depth int) {
	for _, x := range blocks {
		blk := x.(map[string]any)
		switch blk["type"] {
		case "paragraph":
			b.WriteString(extractStr(blk["snippet"]) + "\n\n")
		case "heading":
			b.WriteString("### " + extractStr(blk["snippet"]) + "\n\n")
		case "list":
			extractSampleFlattenList(b, blk["list"].([]any), depth)
			b.WriteString("\n")
		case "expandable":
			b.WriteString("### " + extractStr(blk["title"]) + "\n\n")
			extractSampleFlatten(b, blk["text_blocks"].([]any), depth)
		case "table":
			for i, row := range blk["table"].([]any) {
				var cells []string
				for _, c := range row.([]any) {
					cells = append(cells, extractStr(c))
				}
				b.WriteString("| " + strings.Join(cells, " | ") + " |\n")
				if i == 0 {
					b.WriteString(strings.Repeat("|---", len(cells)) + "|\n")
				}
			}
			b.WriteString("\n")
		}
	}
}

func extractSampleFlattenList(b *strings.Builder, items []any, depth int) {
	for _, x := range items {
		it := x.(map[string]any)
		line := strings.Repeat("  ", depth) + "- "
		if title := extractStr(it["title"]); title != "" {
			line += "**" + title + "** "
		}
		b.WriteString(strings.TrimSpace(line+extractStr(it["snippet"])) + "\n")
		if sub, ok := it["list"].([]any); ok {
			extractSampleFlattenList(b, sub, depth+1)
		}
	}
}

func extractStr(v any) string {
	s, _ := v.(string)
	return s
}

// extractSampleJSON reads a testdata file.
func extractSampleJSON(t *testing.T, file string) map[string]any {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("testdata", file))
	if err != nil {
		t.Fatal(err)
	}
	var body map[string]any
	if err := json.Unmarshal(raw, &body); err != nil {
		t.Fatal(err)
	}
	return body
}

// TestExtractSamples runs the extraction on real engine answers with
// plausible brand sets.
func TestExtractSamples(t *testing.T) {
	t.Parallel()
	type mention struct {
		name string
		rel  sightline.Relation
	}
	type citation struct {
		domain     string
		unresolved bool
		rel        sightline.Relation
	}
	odontonova, dentalia := uuid.MustParse("0193a7e4-0000-7000-8000-0000000000a1"), uuid.MustParse("0193a7e4-0000-7000-8000-0000000000a2")
	hubspot := uuid.MustParse("0193a7e4-0000-7000-8000-0000000000b1")
	const (
		own = sightline.RelationOwn
		trk = sightline.RelationTrackedCompetitor
		unt = sightline.RelationUntrackedCompetitor
		no  = sightline.RelationNone
	)
	docs := func(key string) func(map[string]any) map[string]any {
		return func(m map[string]any) map[string]any { return m[key].(map[string]any) }
	}
	cases := []struct {
		name      string
		file      string
		pick      func(map[string]any) map[string]any
		brands    Brands
		mentions  []mention
		citations []citation // nil: not checked
	}{
		{
			// Spanish ChatGPT answer: list leads are the clinics (after a
			// label, "Opción adicional: V&C Odontólogos"); questions are no
			// options; the chip "(dentalia.com)" names a tracked domain.
			name: "openai es", file: "openai-responses-web-search-es-sdk-dump.json",
			brands: Brands{Own: Brand{Names: []string{"Clínica Miraflores"}, Domains: []string{"clinica-miraflores.com"}},
				Competitors: []Competitor{
					{ID: odontonova, Name: "Odontonova", Brand: Brand{Domains: []string{"centrodeimplantologiaodontonova.com"}}},
					{ID: dentalia, Name: "Dentalia", Brand: Brand{Domains: []string{"dentalia.com"}}},
				}},
			mentions: []mention{{"Dental Clinic & GT Concept Asociados", unt}, {"Odontonova", trk}, {"Clínica Miraflores", own},
				{"V&C Odontólogos", unt}, {"dentalia.com", trk}},
			citations: []citation{{"limadentalrating.com", false, no}, {"centrodeimplantologiaodontonova.com", false, trk},
				{"clinica-miraflores.com", false, own}, {"dentalia.com", false, trk}, {"spch.cl", false, no},
				{"consalud.es", false, no}, {"thedentalclinic.pe", false, no}},
		},
		{
			name: "perplexity without brands", file: "perplexity-sonar-chat.json",
			brands: Brands{Own: Brand{Names: []string{"HDFC Bank"}, Domains: []string{"hdfcbank.com"}}},
		},
		{
			// Clinics named by their link labels; references are Google
			// viewer links, unresolved.
			name: "serpapi ai mode", file: "serpapi-google-ai-mode.json",
			brands:    Brands{Own: Brand{Names: []string{"Dental Pérez Yance"}, Domains: []string{"dentalperezyance.com"}}},
			mentions:  []mention{{"Dr. Aldo Implants", unt}, {"Dental Pérez Yance", own}, {"Implantes Dentales Miraflores", unt}},
			citations: []citation{{"google.com", true, no}, {"google.com", true, no}, {"google.com", true, no}},
		},
		{
			name: "serpapi ai overview crm", file: "serpapi-google-inline-ai-overview.partial.json",
			brands: Brands{Own: Brand{Names: []string{"Pipedrive"}, Domains: []string{"pipedrive.com"}},
				Competitors: []Competitor{{ID: hubspot, Name: "HubSpot", Brand: Brand{Names: []string{"HubSpot CRM"}, Domains: []string{"hubspot.com"}}}}},
			mentions:  []mention{{"HubSpot CRM", trk}, {"Pipedrive", own}, {"Zoho", unt}}, // at company level
			citations: []citation{{"uschamber.com", false, no}},
		},
		{name: "docs labels", file: "serpapi-google-ai-overview-docs-examples.json", pick: docs("typical_result"), brands: extractBrands()},
		{name: "docs steps", file: "serpapi-google-ai-overview-docs-examples.json", pick: docs("nested_lists"), brands: extractBrands()},
		{name: "docs table", file: "serpapi-google-ai-overview-docs-examples.json", pick: docs("table"), brands: extractBrands()},
		{name: "docs feature list", file: "serpapi-google-ai-overview-docs-examples.json", pick: docs("list_with_snippet_links"), brands: extractBrands()},
		{
			name: "docs suppliers", file: "serpapi-google-ai-overview-docs-examples.json", pick: docs("expandable_sections"), brands: extractBrands(),
			mentions: []mention{{"Spocket", unt}, {"AliExpress", unt}, {"Modalyst", unt}, {"SaleHoo", unt}, {"Doba", unt},
				{"Wholesale2B", unt}, {"Worldwide Brands", unt}},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			a := extractSampleAnswer(t, tc.file, tc.pick)
			e := ExtractAnswer(tc.brands, a)
			var got []mention
			for i, m := range e.Mentions {
				got = append(got, mention{m.BrandName, m.Relation})
				if m.Position != i+1 || m.Sentence == "" || strings.Contains(m.Sentence, "**") || strings.Contains(m.Sentence, "](") ||
					strings.Contains(m.Sentence, "\n") || strings.Contains(m.Sentence, "utm_source") {
					t.Errorf("mention %+v: position or sentence", m)
				}
				if m.Relation == unt && (strings.Contains(m.BrandName, ".com") || strings.Contains(m.BrandName, "http")) {
					t.Errorf("bogus brand %q from a link", m.BrandName)
				}
			}
			if !slices.Equal(got, tc.mentions) {
				t.Errorf("mentions\n got %v\nwant %v", got, tc.mentions)
			}
			if tc.citations != nil {
				if len(e.Citations) != len(tc.citations) {
					t.Fatalf("%d citations, want %d", len(e.Citations), len(tc.citations))
				}
				for i, w := range tc.citations {
					c := e.Citations[i]
					if c.Domain != w.domain || c.Unresolved != w.unresolved || c.Relation != w.rel || c.Position != i+1 || c.URL != a.Citations[i].URL {
						t.Errorf("citation %d = %+v, want %+v", i+1, c, w)
					}
				}
			}
		})
	}
}

func TestExtractSearch(t *testing.T) {
	t.Parallel()
	body := extractSampleJSON(t, "serpapi-google.json")
	var page SearchPage
	for _, o := range body["organic_results"].([]any) {
		r := o.(map[string]any)
		// The tracking link, as a scraper without destination links gives.
		page.Results = append(page.Results, SearchResult{Rank: int(r["position"].(float64)), URL: r["redirect_link"].(string), Title: extractStr(r["title"])})
	}
	slices.Reverse(page.Results) // rank order is restored
	page.Results = append(page.Results, SearchResult{Rank: 10, URL: "https://vertexaisearch.cloud.google.com/grounding-api-redirect/x"})
	paragon := uuid.MustParse("0193a7e4-0000-7000-8000-0000000000c1")
	b := Brands{Own: Brand{Names: []string{"DAVIDsTEA"}, Domains: []string{"davidstea.com"}},
		Competitors: []Competitor{
			{ID: paragon, Name: "Paragon Tea Room", Brand: Brand{Domains: []string{"https://paragontearoom.com/"}}},
			{ID: extractZendeskID, Name: "Matcha.com", Brand: Brand{Domains: []string{"matcha.com"}}},
			{ID: extractHubSpotID, Name: "Vertex", Brand: Brand{Domains: []string{"google.com"}}},
		}}
	got := ExtractSearch(b, page)
	want := []RankMatch{
		{Rank: 2, URL: "https://davidstea.com/collections/matcha?srsltid=AfmBOoq_GPe5QrS2OxS2jWreTtl2YcbqqGTC6UYrm6a5wNfHaYm-5Qe0", Domain: "davidstea.com", Relation: sightline.RelationOwn},
		{Rank: 3, URL: "https://paragontearoom.com/collections/matcha", Domain: "paragontearoom.com", Relation: sightline.RelationTrackedCompetitor, CompetitorID: &paragon},
		{Rank: 8, URL: "https://matcha.com/en-ca", Domain: "matcha.com", Relation: sightline.RelationTrackedCompetitor, CompetitorID: &extractZendeskID},
	}
	if len(got) != len(want) {
		t.Fatalf("got %+v", got)
	}
	for i := range want {
		g, w := got[i], want[i]
		if g.Rank != w.Rank || g.URL != w.URL || g.Domain != w.Domain || g.Relation != w.Relation || g.Unresolved ||
			(g.CompetitorID == nil) != (w.CompetitorID == nil) || w.CompetitorID != nil && *g.CompetitorID != *w.CompetitorID {
			t.Errorf("match %d = %+v, want %+v", i, g, w)
		}
	}
}

func TestExtractShopping(t *testing.T) {
	t.Parallel()
	body := extractSampleJSON(t, "serpapi-google-shopping-light.json")
	var page ShoppingPage
	for _, o := range body["shopping_results"].([]any) {
		r := o.(map[string]any)
		page.Offers = append(page.Offers, Offer{Rank: len(page.Offers) + 1, Title: extractStr(r["title"]), Merchant: extractStr(r["source"]), URL: extractStr(r["product_link"])})
	}
	for _, o := range body["inline_shopping_results"].([]any) {
		r := o.(map[string]any)
		page.Offers = append(page.Offers, Offer{Rank: len(page.Offers) + 1, Title: extractStr(r["title"]), Merchant: extractStr(r["source"]), URL: extractStr(r["tracking_link"])})
	}
	page.Offers = append(page.Offers, Offer{Rank: 7, Merchant: "Marketplace", URL: "https://shop.walmart.com/item/9"})
	bestBuy, walmart := uuid.MustParse("0193a7e4-0000-7000-8000-0000000000d1"), uuid.MustParse("0193a7e4-0000-7000-8000-0000000000d2")
	b := Brands{Own: Brand{Names: []string{"Microless"}, Domains: []string{"microless.com"}},
		Competitors: []Competitor{
			{ID: bestBuy, Name: "Best Buy", Brand: Brand{Domains: []string{"bestbuy.com"}}},
			{ID: walmart, Name: "Walmart", Brand: Brand{Domains: []string{"walmart.com"}}},
		}}
	type row struct {
		rank       int
		domain     string
		rel        sightline.Relation
		id         *uuid.UUID
		unresolved bool
	}
	want := []row{
		{1, "google.com", sightline.RelationOwn, nil, false},                    // merchant "Microless.com" names the own domain
		{3, "google.com", sightline.RelationTrackedCompetitor, &bestBuy, false}, // merchant name
		{4, "google.com", sightline.RelationTrackedCompetitor, &walmart, true},  // aclk without destination: merchant
		{5, "google.com", sightline.RelationTrackedCompetitor, &bestBuy, true},
		{7, "shop.walmart.com", sightline.RelationTrackedCompetitor, &walmart, false}, // by domain
	}
	got := ExtractShopping(b, page)
	if len(got) != len(want) {
		t.Fatalf("got %+v", got)
	}
	for i, w := range want {
		g := got[i]
		if g.Rank != w.rank || g.Domain != w.domain || g.Relation != w.rel || g.Unresolved != w.unresolved ||
			(g.CompetitorID == nil) != (w.id == nil) || w.id != nil && *g.CompetitorID != *w.id {
			t.Errorf("offer %d = %+v, want %+v", i, g, w)
		}
	}
}
