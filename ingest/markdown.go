package ingest

import (
	"regexp"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"
	"golang.org/x/text/unicode/norm"

	"github.com/sightline/sightline/ingest/domain"
)

// Reading an answer: Markdown to plain text in lines and sentences.
//
// The answer is parsed as CommonMark with GitHub tables by goldmark; the
// plain text keeps what a reader sees. Emphasis markers go (bold spans are
// remembered: they often hold names), links keep their label (a citation
// chip "([acme.com](https://…))" keeps its label in parentheses and is
// remembered as a chip), a bare URL shows as its host, images, code blocks
// and HTML go, and citation markers ("[1]", "[2][3]", "[^4]", "【4†source】",
// "[1](https://…)") are dropped. A trailing "Sources" or "References"
// section is not part of the answer.
//
// Lines are the units the rules never join: a paragraph's lines, a
// heading, a list item's lines, a table row (its non-empty cells joined by
// " | "). A paragraph line set wholly in bold above other lines is a
// heading below the Markdown ones: answers title their sections so. Each line knows its list or table and its lead-in: the paragraph
// ending with a colon right before its list, else the item a nested list
// hangs from, else the nearest heading above.

type lineKind uint8

const (
	lineParagraph lineKind = iota
	lineHeading
	lineItem   // a line of a list item
	lineRow    // a table body row
	lineHeader // a table header row
)

type line struct {
	kind       lineKind
	start, end int // runes of doc.text
	list       int // list or table of an item or row; -1 otherwise
	first      bool
	level      int  // heading level
	intro      int  // lead-in line; -1 when none
	heading    int  // nearest heading line above; -1 when none
	boldLead   bool // the line starts with a bold span
	cells      []span
}

type span struct{ start, end int }

// unit is a sentence of a line.
type unit struct {
	start, end int
	line       int
}

// doc is an answer read into plain text.
type doc struct {
	text  []rune // lines separated by "\n"
	lines []line
	units []unit
	bold  []span
	chips []span // labels of citation chips
	links []span // labels of other links
}

var markdown = goldmark.New(goldmark.WithExtensions(extension.Table, extension.Strikethrough, extension.Linkify))

// citationMarkers are Perplexity's "[1]", footnote "[^2]" and ChatGPT's
// "【4†source】" markers, with the space before them.
var citationMarkers = regexp.MustCompile(`[ \t]?(\[\^?\d{1,3}\])+([ \t]?(\[\^?\d{1,3}\])+)*|[ \t]?【[^】\n]{0,40}】`)

// stripMarkers drops citation markers, but not the label of a link
// ("[2](https://…)", which the parse drops as a marker link).
func stripMarkers(s string) string {
	var b strings.Builder
	last := 0
	for _, m := range citationMarkers.FindAllStringIndex(s, -1) {
		if m[1] < len(s) && s[m[1]] == '(' {
			continue
		}
		b.WriteString(s[last:m[0]])
		last = m[1]
	}
	b.WriteString(s[last:])
	return b.String()
}

// parseAnswer reads a Markdown answer into a doc.
func parseAnswer(s string) *doc {
	s = norm.NFC.String(s)
	s = stripMarkers(s)
	src := []byte(s)
	b := &builder{d: &doc{text: make([]rune, 0, len(s))}, src: src, cur: -1, heading: -1}
	for i := range b.levels {
		b.levels[i] = -1
	}
	b.blocks(markdown.Parser().Parse(text.NewReader(src)), lineParagraph, -1, -1)
	b.endLine()
	for li := range b.d.lines {
		b.d.splitSentences(li)
	}
	return b.d
}

// builder walks the Markdown tree and writes the doc.
type builder struct {
	d       *doc
	src     []byte
	cur     int // line being written; -1 when none
	stop    bool
	heading int    // last heading line
	levels  [8]int // last heading line of each level, -1 before one
	lists   int
	lineCtx line // what the next line of the current block is
}

func (b *builder) startLine(l line) {
	b.endLine()
	if len(b.d.text) > 0 {
		b.d.text = append(b.d.text, '\n')
	}
	l.start, l.end = len(b.d.text), len(b.d.text)
	l.heading = b.heading
	b.d.lines = append(b.d.lines, l)
	b.cur = len(b.d.lines) - 1
	b.lineCtx = l
}

// endLine closes the current line; an empty line is dropped.
func (b *builder) endLine() {
	if b.cur < 0 {
		return
	}
	l := &b.d.lines[b.cur]
	for len(b.d.text) > l.start && b.d.text[len(b.d.text)-1] == ' ' {
		b.d.text = b.d.text[:len(b.d.text)-1]
	}
	l.end = len(b.d.text)
	if l.end == l.start {
		b.d.lines = b.d.lines[:b.cur]
		if len(b.d.text) > 0 {
			b.d.text = b.d.text[:len(b.d.text)-1]
		}
	}
	b.cur = -1
}

// nextLine continues the current block on a new line (a soft break).
func (b *builder) nextLine() {
	if b.cur < 0 {
		return
	}
	l := b.lineCtx
	l.first, l.boldLead, l.cells = false, false, nil
	b.endLine()
	b.boldHeading()
	b.startLine(l)
}

// boldHeadingLevel is the level of a paragraph line set wholly in bold
// that other lines follow, below every Markdown heading.
const boldHeadingLevel = 7

// boldHeading makes the last line a heading when it is a paragraph line set
// wholly in bold, a colon aside ("**Other options**", "**Top picks:**"),
// and is no sentence ("**Skip LastPass.**"). The caller knows lines follow.
func (b *builder) boldHeading() {
	li := b.lastLine()
	if li < 0 {
		return
	}
	l := &b.d.lines[li]
	if l.kind != lineParagraph || !l.boldLead {
		return
	}
	text := b.d.text
	whole := false
	for _, s := range b.d.bold {
		if s.start == l.start {
			rest := strings.TrimSpace(string(text[s.end:l.end]))
			inner := strings.TrimRight(string(text[s.start:s.end]), ": ")
			whole = (rest == "" || rest == ":") && inner != "" && !strings.ContainsAny(inner[len(inner)-1:], ".!?")
		}
	}
	if !whole {
		return
	}
	l.kind, l.level, l.first, l.list, l.intro = lineHeading, boldHeadingLevel, true, -1, -1
	l.heading = -1
	for lv := boldHeadingLevel - 1; lv >= 1; lv-- {
		if h := b.levels[lv]; h >= 0 && h < li && h > l.heading {
			l.heading = h
		}
	}
	b.heading = li
	b.levels[boldHeadingLevel] = li
}

func (b *builder) lastLine() int { return len(b.d.lines) - 1 }

// blocks writes the block children of n; kind is the kind of their lines.
func (b *builder) blocks(n ast.Node, kind lineKind, list, intro int) {
	for c := n.FirstChild(); c != nil && !b.stop; c = c.NextSibling() {
		switch c := c.(type) {
		case *ast.Heading:
			h := string(c.Lines().Value(b.src))
			if isReferencesTitle(h) {
				b.stop = true
				return
			}
			b.startLine(line{kind: lineHeading, list: -1, level: c.Level, intro: -1, first: true})
			if li := b.lastLine(); li >= 0 && b.d.lines[li].kind == lineHeading {
				// A heading's lead-in is the nearest heading above it of a
				// higher level ("## Best tools" over "### 2. Wrike").
				b.d.lines[li].heading = -1
				for lv := c.Level - 1; lv >= 1; lv-- {
					if h := b.levels[lv]; h >= 0 && (b.d.lines[li].heading < 0 || h > b.d.lines[li].heading) {
						b.d.lines[li].heading = h
					}
				}
				// With none above it, a heading's lead-in is the paragraph
				// before it that ends in a colon ("these are the CDNs worth
				// shortlisting:" over "### 1. Cloudflare"), or its sibling's.
				if b.d.lines[li].heading < 0 {
					if p := li - 1; p >= 0 && b.d.lines[p].kind == lineParagraph && strings.HasSuffix(strings.TrimRight(string(b.d.text[b.d.lines[p].start:b.d.lines[p].end]), " "), ":") {
						b.d.lines[li].intro = p
					} else if sib := b.levels[c.Level]; sib >= 0 {
						b.d.lines[li].intro = b.d.lines[sib].intro
					}
				}
			}
			b.inlines(c)
			b.endLine()
			if li := b.lastLine(); li >= 0 && b.d.lines[li].kind == lineHeading {
				b.heading = li
				b.levels[c.Level] = li
				for lv := c.Level + 1; lv < len(b.levels); lv++ {
					b.levels[lv] = -1
				}
			}
		case *ast.Paragraph, *ast.TextBlock:
			if kind == lineParagraph && isReferencesTitle(string(c.Lines().Value(b.src))) {
				b.stop = true
				return
			}
			first := kind == lineItem && c.PreviousSibling() == nil
			b.startLine(line{kind: kind, list: list, intro: intro, first: first || kind == lineParagraph})
			b.inlines(c)
			b.endLine()
			if c.NextSibling() != nil {
				b.boldHeading()
			}
		case *ast.List:
			id := b.lists
			b.lists++
			in := b.listIntro(kind, intro)
			for item := c.FirstChild(); item != nil && !b.stop; item = item.NextSibling() {
				b.blocks(item, lineItem, id, in)
			}
		case *ast.Blockquote:
			b.blocks(c, kind, list, intro)
		case *east.Table:
			b.table(c)
		}
	}
}

// listIntro is the lead-in of a list starting now.
func (b *builder) listIntro(kind lineKind, parentIntro int) int {
	last := b.lastLine()
	if last < 0 {
		return -1
	}
	l := b.d.lines[last]
	switch {
	case kind == lineItem && l.kind == lineItem:
		return last // a nested list hangs from its item
	case l.kind == lineParagraph && l.end > l.start && strings.HasSuffix(strings.TrimRight(string(b.d.text[l.start:l.end]), " "), ":"):
		return last
	case l.kind == lineHeading:
		return last
	case l.kind == lineParagraph && l.boldLead && len(b.d.bold) > 0 && b.d.bold[len(b.d.bold)-1].start == l.start && b.d.bold[len(b.d.bold)-1].end == l.end:
		return last // "**Also worth considering**": a bold line heads the list like a heading
	}
	if kind == lineItem {
		return parentIntro
	}
	return b.heading
}

func (b *builder) table(t *east.Table) {
	id := b.lists
	b.lists++
	for r := t.FirstChild(); r != nil; r = r.NextSibling() {
		kind := lineRow
		if _, ok := r.(*east.TableHeader); ok {
			kind = lineHeader
		}
		b.startLine(line{kind: kind, list: id, intro: b.heading, first: true})
		var cells []span
		for c := r.FirstChild(); c != nil; c = c.NextSibling() {
			at := len(b.d.text)
			if len(cells) > 0 {
				b.d.text = append(b.d.text, []rune(" | ")...)
				at = len(b.d.text)
			}
			b.inlines(c)
			for len(b.d.text) > at && b.d.text[len(b.d.text)-1] == ' ' {
				b.d.text = b.d.text[:len(b.d.text)-1]
			}
			if len(b.d.text) == at { // an empty cell is not joined
				if len(cells) > 0 {
					b.d.text = b.d.text[:at-3]
				}
				continue
			}
			cells = append(cells, span{at, len(b.d.text)})
		}
		b.d.lines[b.cur].cells = cells
		b.endLine()
	}
}

func (b *builder) write(s string) {
	rs := []rune(s)
	for i, r := range rs {
		if r == '\\' && i+1 < len(rs) && rs[i+1] < 128 && strings.ContainsRune("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~", rs[i+1]) {
			continue // a backslash escape
		}
		if r == '\n' || r == '\t' {
			r = ' '
		}
		if r == ' ' && (len(b.d.text) == b.d.lines[b.cur].start || b.d.text[len(b.d.text)-1] == ' ') {
			continue
		}
		b.d.text = append(b.d.text, r)
	}
}

// inlines writes the inline children of n.
func (b *builder) inlines(n ast.Node) {
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		switch c := c.(type) {
		case *ast.Text:
			b.write(string(c.Segment.Value(b.src)))
			if c.SoftLineBreak() || c.HardLineBreak() {
				if c.NextSibling() != nil {
					b.nextLine()
				}
			}
		case *ast.String:
			b.write(string(c.Value))
		case *ast.Emphasis:
			at := len(b.d.text)
			lead := at == b.d.lines[b.cur].start
			b.inlines(c)
			if c.Level >= 2 && len(b.d.text) > at {
				b.d.bold = append(b.d.bold, trimSpan(b.d.text, at, len(b.d.text)))
				if lead {
					b.d.lines[b.cur].boldLead = true
				}
			}
		case *ast.Link:
			label := string(nodeText(c, b.src))
			if isMarkerLabel(label) {
				b.trimSpaceBefore(c)
				continue
			}
			at := len(b.d.text)
			b.inlines(c)
			if isChipLink(c, b.src) {
				b.d.chips = append(b.d.chips, trimSpan(b.d.text, at, len(b.d.text)))
			} else if len(b.d.text) > at {
				b.d.links = append(b.d.links, trimSpan(b.d.text, at, len(b.d.text)))
			}
		case *ast.AutoLink:
			if c.AutoLinkType == ast.AutoLinkURL {
				b.write(domain.Host(string(c.URL(b.src)))) // the site a reader sees named
			} else {
				b.write(string(c.Label(b.src)))
			}
		case *ast.CodeSpan:
			b.inlines(c)
		case *ast.Image:
		case *ast.RawHTML:
			if raw := strings.ToLower(string(c.Segments.Value(b.src))); strings.HasPrefix(raw, "<br") {
				b.nextLine()
			}
		default:
			b.inlines(c)
		}
	}
}

// trimSpaceBefore drops the space before a dropped marker link that is
// followed by punctuation ("claim [1](…).").
func (b *builder) trimSpaceBefore(n ast.Node) {
	next, ok := n.NextSibling().(*ast.Text)
	if !ok {
		return
	}
	v := next.Segment.Value(b.src)
	if len(v) > 0 && strings.ContainsRune(".,;:!?)", rune(v[0])) {
		for len(b.d.text) > b.d.lines[b.cur].start && b.d.text[len(b.d.text)-1] == ' ' {
			b.d.text = b.d.text[:len(b.d.text)-1]
		}
	}
}

// nodeText is the raw text of n's Text descendants.
func nodeText(n ast.Node, src []byte) []byte {
	var out []byte
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if t, ok := c.(*ast.Text); ok && entering {
			out = append(out, t.Segment.Value(src)...)
		}
		return ast.WalkContinue, nil
	})
	return out
}

// isMarkerLabel reports whether a link label is a citation number ("1",
// "[2]", "^3") or empty.
func isMarkerLabel(l string) bool {
	l = strings.Trim(strings.TrimSpace(l), "[]^ ")
	return l == "" || allDigits(l)
}

// isChipLink reports whether a link is a citation chip: wrapped in
// parentheses, as ChatGPT appends "([acme.com](https://…))".
func isChipLink(l *ast.Link, src []byte) bool {
	prev, ok1 := l.PreviousSibling().(*ast.Text)
	next, ok2 := l.NextSibling().(*ast.Text)
	if !ok1 || !ok2 {
		return false
	}
	pv := strings.TrimRight(string(prev.Segment.Value(src)), " ")
	nv := string(next.Segment.Value(src))
	return strings.HasSuffix(pv, "(") && strings.HasPrefix(nv, ")")
}

// isReferencesTitle reports whether a heading or line opens the list of
// sources some engines append after the answer.
func isReferencesTitle(s string) bool {
	switch strings.ToLower(strings.Trim(s, " *_:#")) {
	case "references", "sources", "citations", "bibliography", "referencias", "fuentes", "quellen", "références", "sources cited":
		return true
	}
	return false
}

func trimSpan(text []rune, s, e int) span {
	for s < e && text[s] == ' ' {
		s++
	}
	for e > s && text[e-1] == ' ' {
		e--
	}
	return span{s, e}
}
