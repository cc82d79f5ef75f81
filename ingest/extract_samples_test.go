package ingest

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
