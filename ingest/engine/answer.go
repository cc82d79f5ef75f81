package engine

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"
	"strings"

	"github.com/sightline/sightline/ingest"
)

// citations collects an answer's sources in order of first citation, one
// entry per URL. URLs are kept exactly as the engine gave them (tracking
// parameters and redirectors included): extraction normalises and resolves.
type citations struct {
	list  []ingest.Citation
	index map[string]int
}

func (c *citations) add(rawURL, title string) {
	rawURL = strings.TrimSpace(rawURL)
	title = strings.TrimSpace(title)
	if rawURL == "" {
		return
	}
	if i, ok := c.index[rawURL]; ok {
		if c.list[i].Title == "" {
			c.list[i].Title = title
		}
		return
	}
	if c.index == nil {
		c.index = make(map[string]int)
	}
	c.index[rawURL] = len(c.list)
	c.list = append(c.list, ingest.Citation{Position: len(c.list) + 1, URL: rawURL, Title: title})
}

// text builds an answer's plain text from blocks, separated by a blank
// line.
type text struct {
	b strings.Builder
}

// paragraph starts a new block with s (nothing for blank s).
func (t *text) paragraph(s string) {
	s = strings.TrimSpace(s)
	if s == "" {
		return
	}
	if t.b.Len() > 0 {
		t.b.WriteString("\n\n")
	}
	t.b.WriteString(s)
}

func (t *text) String() string { return t.b.String() }

// join joins the non-blank parts with a space.
func join(parts ...string) string {
	out := make([]string, 0, len(parts))
	for _, p := range parts {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return strings.Join(out, " ")
}

// number is a JSON number that providers sometimes send as a string
// ("4.7", "10K") or null. Decoding never fails: anything unreadable is
// simply absent.
type number struct {
	v  float64
	ok bool
}

func (n *number) UnmarshalJSON(b []byte) error {
	*n = number{}
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '"' {
		var s string
		if json.Unmarshal(b, &s) != nil {
			return nil
		}
		b = []byte(strings.ReplaceAll(strings.TrimSpace(s), ",", ""))
	}
	if f, err := strconv.ParseFloat(string(b), 64); err == nil && !math.IsNaN(f) && !math.IsInf(f, 0) {
		*n = number{v: f, ok: true}
	}
	return nil
}

func (n number) float() *float64 {
	if !n.ok {
		return nil
	}
	v := n.v
	return &v
}

func (n number) int() *int {
	if !n.ok || n.v < 0 || n.v > 1e15 {
		return nil
	}
	v := int(n.v)
	return &v
}
