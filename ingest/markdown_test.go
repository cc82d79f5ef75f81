package ingest

import (
	"slices"
	"testing"
)

func TestExtractLines(t *testing.T) {
	t.Parallel()
	d := parseAnswer("# Title\n\nIntro:\n\n- one\n  - nested\n- two\n\n| A | B |\n|---|---|\n| 1 | 2 |\n\n---\n\nText *and* more.\nA second line.\n\n## Sources\n[1] x")
	var got []string
	for _, l := range d.lines {
		got = append(got, []string{"p", "h", "li", "tr", "th"}[l.kind]+":"+string(d.text[l.start:l.end]))
	}
	want := []string{"h:Title", "p:Intro:", "li:one", "li:nested", "li:two", "th:A | B", "tr:1 | 2", "p:Text and more.", "p:A second line."}
	if !slices.Equal(got, want) {
		t.Errorf("lines %q, want %q", got, want)
	}
	if d.lines[2].list == d.lines[3].list || d.lines[2].list != d.lines[4].list {
		t.Errorf("list ids %d %d %d: nested items form their own list", d.lines[2].list, d.lines[3].list, d.lines[4].list)
	}
	if d.lines[2].intro != 1 || d.lines[3].intro != 2 {
		t.Errorf("intros %d %d", d.lines[2].intro, d.lines[3].intro)
	}
}

// TestExtractBoldHeadings checks that a paragraph line set wholly in bold
// above other lines reads as a heading, as answers use it; a bold sentence
// or a last line stays a paragraph.
func TestExtractBoldHeadings(t *testing.T) {
	t.Parallel()
	d := parseAnswer("## Picks\n\n**Best overall for DIY**\n**Acme** is easy.\n\n**Other options:**\n* **Cove:** Cheap.\n\n**Skip Zendesk.**\nIts breach hurt.\n\n**Last line in bold**")
	var got []string
	for _, l := range d.lines {
		got = append(got, []string{"p", "h", "li", "tr", "th"}[l.kind]+":"+string(d.text[l.start:l.end]))
	}
	want := []string{"h:Picks", "h:Best overall for DIY", "p:Acme is easy.", "h:Other options:", "li:Cove: Cheap.", "p:Skip Zendesk.", "p:Its breach hurt.", "p:Last line in bold"}
	if !slices.Equal(got, want) {
		t.Fatalf("lines %q, want %q", got, want)
	}
	if d.lines[1].heading != 0 || d.lines[2].heading != 1 || d.lines[4].intro != 3 || d.lines[4].heading != 3 {
		t.Errorf("headings %d %d, item intro %d heading %d", d.lines[1].heading, d.lines[2].heading, d.lines[4].intro, d.lines[4].heading)
	}
}

func TestExtractSentences(t *testing.T) {
	t.Parallel()
	for text, want := range map[string][]string{
		"Acme leads[1][2]. Zendesk follows [3].":                    {"Acme leads.", "Zendesk follows."},
		"Index funds, e.g. ETFs, suit U.S. savers. Mr. Bogle knew.": {"Index funds, e.g. ETFs, suit U.S. savers.", "Mr. Bogle knew."},
		"Delta led the J.D. Power rankings. United trails.":         {"Delta led the J.D. Power rankings.", "United trails."},
		"Acme is popular. ([acme.com](https://acme.com/?utm_source=openai)) Next one.": {
			"Acme is popular. (acme.com)", "Next one."},
		"### 2. Beehiiv":                                    {"2. Beehiiv"},
		"- **Acme** — fast.\n- Zendesk: slow.":              {"Acme — fast.", "Zendesk: slow."},
		"Acme \\(beta\\) leads [2](https://x.org/a). Done.": {"Acme (beta) leads.", "Done."},
	} {
		d := parseAnswer(text)
		var got []string
		for ui := range d.units {
			got = append(got, d.sentence(ui))
		}
		if !slices.Equal(got, want) {
			t.Errorf("%q: sentences %q, want %q", text, got, want)
		}
	}
	d := parseAnswer("Support matters ([zendesk.com](https://www.zendesk.com/blog?utm_source=openai)).")
	if len(d.chips) != 1 || string(d.text[d.chips[0].start:d.chips[0].end]) != "zendesk.com" {
		t.Errorf("chips %v in %q", d.chips, string(d.text))
	}
}
