package ingest

import (
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"

	"github.com/sightline/sightline"
)

// Reading an answer: markdown to plain text in blocks and sentences.
//
// Answers arrive as markdown of varying dialects. parseAnswer keeps the
// words a reader sees and drops the rest: emphasis markers (bold spans are
// remembered, they often hold names), link targets (labels stay, labels are
// remembered), images, inline code ticks, HTML tags, backslash escapes, code
// blocks, citation markers ("[1]", "[2][3]", "[3](https://...)",
// "【4†source】") and citation chips: links wrapped in parentheses as
// ChatGPT appends them after a claim
// ("([acme.com](https://acme.com/x?utm_source=openai))"), whose label names
// a source, not a brand the answer talks about. A bare URL in the
// prose is kept as its host, which is how a reader sees a site named. A
// trailing "References" or "Sources" section is not part of the answer.
//
// Blocks are paragraphs, headings, list items and table rows; blocks split
// into sentences at ".", "!", "?" and "…" followed by a space and an upper
// case letter, digit or opening quote, except after abbreviations ("e.g.",
// "vs.", "Dr.", "Inc.", initials).

type blockKind uint8

const (
	blockParagraph blockKind = iota
	blockHeading
	blockListItem
	blockTableRow
)

type block struct {
	kind       blockKind
	start, end int // runes of doc.text
	list       int // the list (or table) of a list item or row; -1 otherwise
	intro      int // the block introducing the list of a list item; -1 when none
}

type span struct{ start, end int }

// unit is a sentence of a block.
type unit struct {
	start, end int
	block      int
}

// doc is an answer read into plain text.
type doc struct {
	text   []rune // blocks separated by "\n"
	fold   []rune // foldRunes(text)
	blocks []block
	units  []unit
	bold   []span
	links  []span // labels of links that are not citation chips
}

type rawBlock struct {
	kind  blockKind
	lines []string
	list  int
}

// parseAnswer reads markdown answer text into a doc.
func parseAnswer(s string) *doc {
	raws := splitBlocks(norm.NFC.String(s))
	d := &doc{text: make([]rune, 0, len(s))}
	listIntro := map[int]int{}
	for i, rb := range raws {
		if i > 0 && len(d.text) > 0 {
			d.text = append(d.text, '\n')
		}
		start := len(d.text)
		d.render([]rune(strings.Join(rb.lines, " ")))
		if len(d.text) == start {
			if start > 0 {
				d.text = d.text[:start-1]
			}
			continue
		}
		b := block{kind: rb.kind, start: start, end: len(d.text), list: rb.list, intro: -1}
		if rb.kind == blockListItem {
			// A list's intro is the heading, the paragraph ending with a
			// colon or the item right before its first item.
			intro, ok := listIntro[rb.list]
			if !ok {
				intro = -1
				if n := len(d.blocks); n > 0 {
					prev := d.blocks[n-1]
					if prev.kind == blockHeading || prev.kind == blockListItem && prev.list != rb.list ||
						prev.kind == blockParagraph && d.text[prev.end-1] == ':' {
						intro = n - 1
					}
				}
				listIntro[rb.list] = intro
			}
			b.intro = intro
		}
		d.blocks = append(d.blocks, b)
	}
	d.fold = foldRunes(d.text)
	for bi := range d.blocks {
		d.splitSentences(bi)
	}
	return d
}

// splitBlocks splits markdown into raw blocks by lines.
func splitBlocks(s string) []rawBlock {
	s = strings.NewReplacer("\r\n", "\n", "\r", "\n").Replace(s)
	var out []rawBlock
	var cur *rawBlock
	flush := func() {
		if cur != nil {
			out = append(out, *cur)
			cur = nil
		}
	}
	nextList := 0
	listAt := map[int]int{} // indent -> list id, while a list runs
	tableList := -1
	inFence, blank := false, false
	for line := range strings.SplitSeq(s, "\n") {
		trimmed := strings.TrimSpace(line)
		if strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~") {
			flush()
			inFence = !inFence
			continue
		}
		if inFence {
			continue
		}
		for strings.HasPrefix(trimmed, ">") {
			trimmed = strings.TrimSpace(trimmed[1:])
			line = trimmed
		}
		if trimmed == "" {
			flush()
			blank = true
			continue
		}
		wasBlank := blank
		blank = false
		if isRule(trimmed) {
			flush()
			continue
		}
		if level, text := heading(trimmed); level > 0 {
			flush()
			if isReferencesTitle(text) {
				return out
			}
			clear(listAt)
			tableList = -1
			out = append(out, rawBlock{kind: blockHeading, lines: []string{text}, list: -1})
			continue
		}
		if strings.HasPrefix(trimmed, "|") {
			flush()
			clear(listAt)
			if isTableSeparator(trimmed) {
				continue
			}
			if tableList < 0 {
				tableList = nextList
				nextList++
			}
			out = append(out, rawBlock{kind: blockTableRow, lines: []string{tableCells(trimmed)}, list: tableList})
			continue
		}
		tableList = -1
		if indent, text, ok := listItem(line); ok {
			flush()
			id, known := listAt[indent]
			if !known {
				id = nextList
				nextList++
				listAt[indent] = id
			}
			for in := range listAt {
				if in > indent {
					delete(listAt, in)
				}
			}
			cur = &rawBlock{kind: blockListItem, lines: []string{text}, list: id}
			continue
		}
		indented := len(line)-len(strings.TrimLeft(line, " \t")) >= 2
		switch {
		case cur != nil && cur.kind == blockListItem && (indented || !wasBlank), cur != nil && cur.kind == blockParagraph:
			cur.lines = append(cur.lines, trimmed)
			continue
		}
		flush()
		if isReferencesTitle(trimmed) {
			return out
		}
		if !indented || len(listAt) == 0 {
			clear(listAt)
		}
		cur = &rawBlock{kind: blockParagraph, lines: []string{trimmed}, list: -1}
	}
	flush()
	return out
}

// heading returns the level and text of an ATX heading line.
func heading(line string) (int, string) {
	level := 0
	for level < len(line) && line[level] == '#' {
		level++
	}
	if level == 0 || level > 6 || level < len(line) && line[level] != ' ' {
		return 0, ""
	}
	return level, strings.TrimSpace(strings.TrimRight(strings.TrimSpace(line[level:]), "#"))
}

// isReferencesTitle reports whether a heading or line opens the list of
// sources some engines append after the answer.
func isReferencesTitle(s string) bool {
	s = strings.ToLower(strings.Trim(s, " *_:#"))
	switch s {
	case "references", "sources", "citations", "bibliography", "referencias", "fuentes", "quellen", "références":
		return true
	}
	return false
}

func isRule(line string) bool {
	c := line[0]
	if c != '-' && c != '*' && c != '_' && c != '=' {
		return false
	}
	n := 0
	for i := 0; i < len(line); i++ {
		switch line[i] {
		case c:
			n++
		case ' ':
		default:
			return false
		}
	}
	return n >= 3
}

func isTableSeparator(line string) bool {
	return strings.Trim(line, "|-: ") == "" && strings.Contains(line, "-")
}

// tableCells renders a table row as its cells joined by " | ".
func tableCells(line string) string {
	line = strings.TrimSpace(line)
	line = strings.TrimPrefix(line, "|")
	line = strings.TrimSuffix(line, "|")
	var cells []string
	var b strings.Builder
	for i := 0; i < len(line); i++ {
		switch {
		case line[i] == '\\' && i+1 < len(line) && line[i+1] == '|':
			b.WriteByte('|')
			i++
		case line[i] == '|':
			cells = append(cells, strings.TrimSpace(b.String()))
			b.Reset()
		default:
			b.WriteByte(line[i])
		}
	}
	cells = append(cells, strings.TrimSpace(b.String()))
	return strings.Join(cells, " | ")
}

// listItem recognises "- x", "* x", "+ x", "• x", "1. x", "1) x".
func listItem(line string) (indent int, text string, ok bool) {
	trimmed := strings.TrimLeft(line, " \t")
	indent = len(line) - len(trimmed)
	for _, m := range []string{"- ", "* ", "+ ", "• ", "▪ ", "◦ ", "‣ ", "● ", "– "} {
		if rest, found := strings.CutPrefix(trimmed, m); found {
			return indent, strings.TrimSpace(rest), true
		}
	}
	i := 0
	for i < len(trimmed) && i < 3 && trimmed[i] >= '0' && trimmed[i] <= '9' {
		i++
	}
	if i > 0 && i+1 < len(trimmed) && (trimmed[i] == '.' || trimmed[i] == ')') && trimmed[i+1] == ' ' {
		return indent, strings.TrimSpace(trimmed[i+2:]), true
	}
	return 0, "", false
}

// render appends the plain text of one block's inline markdown to d.text.
func (d *doc) render(raw []rune) {
	start := len(d.text)
	boldAt := -1
	d.renderInline(raw, start, &boldAt)
	for len(d.text) > start && d.text[len(d.text)-1] == ' ' {
		d.text = d.text[:len(d.text)-1]
	}
}

func (d *doc) space(start int) {
	if len(d.text) > start && d.text[len(d.text)-1] != ' ' {
		d.text = append(d.text, ' ')
	}
}

func (d *doc) renderInline(raw []rune, start int, boldAt *int) {
	for i := 0; i < len(raw); {
		r := raw[i]
		switch {
		case unicode.IsSpace(r):
			d.space(start)
			i++
		case r == '\\' && i+1 < len(raw) && raw[i+1] < unicode.MaxASCII && unicode.IsPunct(raw[i+1]) || r == '\\' && i+1 < len(raw) && strings.ContainsRune("`*_{}[]()#+-.!|<>~$=^", raw[i+1]):
			d.text = append(d.text, raw[i+1])
			i += 2
		case r == '!' && i+1 < len(raw) && raw[i+1] == '[':
			if _, end, ok := parseLink(raw, i+1); ok {
				i = end // images carry no answer text
				continue
			}
			d.text = append(d.text, r)
			i++
		case r == '[':
			if label, end, ok := parseLink(raw, i); ok {
				wrapped := len(d.text) > start && d.text[len(d.text)-1] == '(' && end < len(raw) && raw[end] == ')'
				if wrapped || isChip(label) {
					if wrapped {
						d.text = d.text[:len(d.text)-1]
						end++
					}
					for len(d.text) > start && d.text[len(d.text)-1] == ' ' {
						d.text = d.text[:len(d.text)-1]
					}
					i = end
					continue
				}
				ls := len(d.text)
				d.renderInline(label, start, boldAt)
				if le := len(d.text); le > ls {
					d.links = append(d.links, trimSpan(d.text, ls, le))
				}
				i = end
				continue
			}
			if end, ok := citationMarker(raw, i); ok {
				for len(d.text) > start && d.text[len(d.text)-1] == ' ' && end < len(raw) && unicode.IsPunct(raw[end]) {
					d.text = d.text[:len(d.text)-1]
				}
				i = end
				continue
			}
			d.text = append(d.text, r)
			i++
		case r == '【':
			if j := indexRune(raw[:min(len(raw), i+40)], i, '】'); j > 0 {
				i = j + 1
				continue
			}
			d.text = append(d.text, r)
			i++
		case r == '*' || r == '_':
			j := i
			for j < len(raw) && raw[j] == r {
				j++
			}
			n := j - i
			prevSpace := i == 0 || unicode.IsSpace(raw[i-1])
			nextSpace := j == len(raw) || unicode.IsSpace(raw[j])
			if r == '_' && i > 0 && j < len(raw) && isWordRune(raw[i-1]) && isWordRune(raw[j]) || prevSpace && nextSpace {
				d.text = append(d.text, raw[i:j]...) // snake_case, "2 * 3"
				i = j
				continue
			}
			if n >= 2 {
				switch {
				case *boldAt >= 0 && !prevSpace:
					if s := trimSpan(d.text, *boldAt, len(d.text)); s.end > s.start {
						d.bold = append(d.bold, s)
					}
					*boldAt = -1
				case *boldAt < 0 && !nextSpace:
					*boldAt = len(d.text)
				}
			}
			i = j
		case r == '`':
			i++
		case r == '<':
			if j := indexRune(raw[:min(len(raw), i+2048)], i, '>'); j > 0 {
				inner := string(raw[i+1 : j])
				if strings.HasPrefix(inner, "http://") || strings.HasPrefix(inner, "https://") {
					d.writeHost(inner)
					i = j + 1
					continue
				}
				if len(inner) > 0 && (isASCIILetter(rune(inner[0])) || inner[0] == '/' || inner[0] == '!') && !strings.ContainsAny(inner, "<") {
					// An HTML tag: a line or block tag separates words.
					name := strings.ToLower(strings.TrimLeft(strings.FieldsFunc(inner, func(r rune) bool { return r == ' ' || r == '>' })[0], "/"))
					name = strings.TrimSuffix(name, "/")
					switch name {
					case "br", "p", "div", "li", "ul", "ol", "tr", "td", "th", "table", "hr", "h1", "h2", "h3", "h4", "h5", "h6":
						d.space(start)
					}
					i = j + 1
					continue
				}
			}
			d.text = append(d.text, r)
			i++
		case (r == 'h' || r == 'H') && (i == 0 || !isWordRune(raw[i-1])) && hasURLPrefix(raw[i:]):
			j := i
			depth := 0
			for j < len(raw) && !unicode.IsSpace(raw[j]) && raw[j] != '<' && raw[j] != '>' && raw[j] != '"' && raw[j] != ']' {
				if raw[j] == '(' {
					depth++
				} else if raw[j] == ')' {
					if depth == 0 {
						break
					}
					depth--
				}
				j++
			}
			for j > i && strings.ContainsRune(".,;:!?'\"*", raw[j-1]) {
				j--
			}
			d.writeHost(string(raw[i:j]))
			i = j
		default:
			d.text = append(d.text, r)
			i++
		}
	}
}

// writeHost writes the host of a bare URL as written (a reader sees the site
// named, not its path).
func (d *doc) writeHost(u string) {
	if k := strings.Index(u, "://"); k >= 0 {
		u = u[k+3:]
	}
	if k := strings.IndexAny(u, "/?#"); k >= 0 {
		u = u[:k]
	}
	if k := strings.LastIndexByte(u, '@'); k >= 0 {
		u = u[k+1:]
	}
	if k := strings.LastIndexByte(u, ':'); k >= 0 {
		u = u[:k]
	}
	d.text = append(d.text, []rune(u)...)
}

func hasURLPrefix(rs []rune) bool {
	for _, p := range []string{"http://", "https://"} {
		if len(rs) > len(p) && strings.EqualFold(string(rs[:len(p)]), p) {
			return true
		}
	}
	return false
}

func isASCIILetter(r rune) bool { return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' }

func indexRune(rs []rune, from int, r rune) int {
	for i := from; i < len(rs); i++ {
		if rs[i] == r {
			return i
		}
	}
	return -1
}

// parseLink parses "[label](target)" at raw[i] == '['. Labels of more than
// 500 runes and targets of more than 4,000 are not links (and bound the
// work on text full of brackets).
func parseLink(raw []rune, i int) (label []rune, end int, ok bool) {
	depth := 0
	j := i
	for ; j < len(raw) && j-i <= 500; j++ {
		if raw[j] == '\\' {
			j++
			continue
		}
		if raw[j] == '[' {
			depth++
		} else if raw[j] == ']' {
			depth--
			if depth == 0 {
				break
			}
		} else if raw[j] == '\n' {
			return nil, 0, false
		}
	}
	if j >= len(raw)-1 || raw[j] != ']' || raw[j+1] != '(' {
		return nil, 0, false
	}
	k := j + 2
	depth = 0
	for ; k < len(raw) && k-j <= 4000; k++ {
		if raw[k] == '(' {
			depth++
		} else if raw[k] == ')' {
			if depth == 0 {
				break
			}
			depth--
		} else if raw[k] == ' ' && depth == 0 && !(k+1 < len(raw) && raw[k+1] == '"') {
			return nil, 0, false
		}
	}
	if k >= len(raw) || raw[k] != ')' {
		return nil, 0, false
	}
	return raw[i+1 : j], k + 1, true
}

// isChip reports whether a link not wrapped in parentheses is still a
// citation marker: its label is empty or a number ("[1](https://...)").
func isChip(label []rune) bool {
	l := strings.TrimSpace(string(label))
	return l == "" || allDigits(strings.Trim(l, "[]^ "))
}

// citationMarker recognises "[1]", "[12]", "[^3]" at raw[i] == '['.
func citationMarker(raw []rune, i int) (int, bool) {
	j := i + 1
	if j < len(raw) && raw[j] == '^' {
		j++
	}
	k := j
	for k < len(raw) && k-j < 4 && raw[k] >= '0' && raw[k] <= '9' {
		k++
	}
	if k == j || k >= len(raw) || raw[k] != ']' {
		return 0, false
	}
	return k + 1, true
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

// splitSentences appends the sentences of block bi to d.units.
func (d *doc) splitSentences(bi int) {
	b := d.blocks[bi]
	text := d.text
	from := b.start
	add := func(s, e int) {
		sp := trimSpan(text, s, e)
		if sp.end > sp.start {
			d.units = append(d.units, unit{start: sp.start, end: sp.end, block: bi})
		}
	}
	for i := b.start; i < b.end; i++ {
		r := text[i]
		if r != '.' && r != '!' && r != '?' && r != '…' && r != '。' && r != '！' && r != '？' {
			continue
		}
		j := i + 1
		for j < b.end && strings.ContainsRune(".!?…\"'”’)]»", text[j]) {
			j++
		}
		if j >= b.end || text[j] != ' ' || j+1 >= b.end {
			continue
		}
		next := text[j+1]
		if !(unicode.IsUpper(next) || unicode.IsTitle(next) || unicode.IsDigit(next) || strings.ContainsRune("\"'“‘(¿¡[", next)) {
			continue
		}
		if r == '.' && j == i+1 && isAbbreviation(text, b.start, i) {
			continue
		}
		add(from, j)
		from = j + 1
		i = j
	}
	add(from, b.end)
}

// isAbbreviation reports whether the word before the period at i is an
// abbreviation or an initial.
func isAbbreviation(text []rune, start, i int) bool {
	k := i
	for k > start && (isWordRune(text[k-1]) || text[k-1] == '.') {
		k--
	}
	w := strings.ToLower(string(text[k:i]))
	if len([]rune(w)) == 1 && unicode.IsUpper(text[k]) {
		return true // "J. Smith"
	}
	return abbreviations[w]
}

var abbreviations = wordSet(`e.g i.e vs v mr mrs ms dr prof sr jr st inc ltd co corp no nos approx fig ca cf al
	u.s u.k e.u a.m p.m dept est ft mt vol pp jan feb mar apr jun jul aug sep sept oct nov dec`)

// Classification of mentions.
//
// Each brand is classified from its context: the sentences that name it,
// the sentences of a list item it leads, and a following sentence that
// refers back to it ("It ...", "Its ...", "They ..."). Cue words are
// English. A sentence is split into clauses at commas, semicolons, colons,
// dashes, parentheses and contrast words ("but", "although", "while",
// "whereas", "however"); a cue applies to the brands of its clause, else to
// those of the nearest clause before it that names a brand (a clause that
// opens with "unlike", "like", "such as", "compared to" is an aside and is
// skipped), else to those after it.
//
// Type, strongest first (the order of the share-of-voice weights):
//   - recommendation: "recommend", "suggest", "go with", "opt for", "best"
//     (not "best for"), "top pick", "our pick", "a great option",
//     "worth considering", "consider", "winner", "go-to"; or an item of a
//     list introduced by "I recommend", "suggestions", "top picks";
//   - comparison: the brand stands after "than", "unlike", "vs", "compared
//     to", "instead of", "rather than", "alternative to", or the sentence
//     compares ("versus", "compared", "comparison", "than", "whereas",
//     "similar to", "differ", "both");
//   - example: the brand follows "such as", "like", "e.g.", "for example",
//     "for instance", "including" in its clause;
//   - listing: the brand leads a list item or table row, or the sentence
//     names three brands or more, or enumerates two with "include",
//     "options", "alternatives";
//   - reference: anything else.
//
// Tone: positive and negative cue words ("reliable", "intuitive",
// "expensive", "clunky", "steep learning curve") summed over the context; a
// negator ("not", "no", "never", "n't", "without", "hardly", "lacks") within
// the three words before a cue flips it ("not cheap" is negative, "not bad"
// positive); after "than", a comparative cue counts the other way for the
// brand compared against ("Acme is cheaper than Zendesk": Zendesk negative).
// A positive sum is positive, a negative one negative, zero neutral.
//
// Qualifier: conditional when the sentence that decided the type (or the
// intro of the list the brand leads) hedges: "if", "unless", "depending on",
// "depends", "provided that", "assuming", "in case", "as long as",
// "otherwise", "should you", "when you need", "for teams that/who/with...",
// "for anyone looking...", "may/might/could suit/fit/work"; else direct.

// ctok is a lower-cased word or punctuation rune of a unit.
type ctok struct {
	start, end int
	w          string
	punct      bool
}

func ctokens(text []rune, start, end int) []ctok {
	// The words are pieces of one lower-cased copy of the text: one
	// allocation per unit, not per word.
	var lower strings.Builder
	lower.Grow(end - start + 8)
	off := make([]int, end-start+1) // byte offset in lower of each rune
	for i := start; i < end; i++ {
		off[i-start] = lower.Len()
		r := text[i]
		if r == '’' {
			r = '\''
		}
		lower.WriteRune(unicode.ToLower(r))
	}
	off[end-start] = lower.Len()
	ls := lower.String()
	word := func(i, j int) string { return ls[off[i-start]:off[j-start]] }
	out := make([]ctok, 0, (end-start)/5+1)
	for i := start; i < end; {
		r := text[i]
		switch {
		case r == ' ':
			i++
		case isWordRune(r):
			j := i + 1
			for j < end && (isWordRune(text[j]) || strings.ContainsRune("-'’.", text[j]) && j+1 < end && isWordRune(text[j+1])) {
				j++
			}
			out = append(out, ctok{start: i, end: j, w: word(i, j)})
			i = j
		default:
			out = append(out, ctok{start: i, end: i + 1, w: word(i, i+1), punct: true})
			i++
		}
	}
	return out
}

// unitView is one unit as classification sees it, with everything that
// does not depend on the brand computed once.
type unitView struct {
	toks      []ctok
	clause    []int         // clause of each token
	brandAt   map[int][]int // brand -> tokens where its matches start
	tokBrand  []int         // brand whose match starts at a token, or -1
	clauses   []clauseInfo
	recCues   []int // tokens that recommend
	polar     []int // tokens that carry a tone
	pol       []int // the tone of each token of polar, negation applied
	compares  bool  // a comparison word that needs no second brand ("than")
	comparesN bool  // a comparison word that needs a second brand ("both")
	lists     bool  // "include", "options", ...
	hedge     bool
}

type clauseInfo struct {
	brands    []int // distinct brands with a match in the clause
	aside     bool  // opens with "unlike", "like", "such as", "compared"...
	firstWord int   // first word token, -1 when none
	prev      int   // nearest clause before with brands that is not an aside, -1
	next      int   // nearest clause after with brands, -1
}

func (d *doc) view(ui int, matches []match) *unitView {
	u := d.units[ui]
	v := &unitView{toks: ctokens(d.text, u.start, u.end), brandAt: map[int][]int{}}
	n := len(v.toks)
	ints := make([]int, 3*n)
	v.tokBrand, v.clause = ints[:n:n], ints[n:2*n:2*n]
	lastOf := ints[2*n:] // last token of the match starting at a token
	endsBrand := make([]bool, n)
	for i := range v.tokBrand {
		v.tokBrand[i] = -1
	}
	k := 0
	for _, m := range matches { // matches and tokens are both in text order
		if m.start < u.start || m.start >= u.end {
			continue
		}
		for k < n && v.toks[k].end <= m.start {
			k++
		}
		if k == n {
			break
		}
		v.tokBrand[k] = m.brand
		v.brandAt[m.brand] = append(v.brandAt[m.brand], k)
		e := k
		for e+1 < n && v.toks[e+1].start < m.end {
			e++
		}
		lastOf[k] = e
		endsBrand[e] = true
	}
	c := 0
	v.clauses = []clauseInfo{{firstWord: -1}}
	for i, t := range v.toks {
		boundary := t.punct && strings.Contains(",;:()—–[]", t.w) || t.w == "-" && i > 0 && v.toks[i-1].end < t.start ||
			!t.punct && clauseWords[t.w] && i > 0
		if t.w == "," && i > 0 && endsBrand[i-1] {
			// "A, B and C", "A, B, C", "A, or B": an enumeration of brands
			// is one clause.
			next := i + 1
			joined := false
			if w := v.word(next); w == "and" || w == "or" {
				next++
				joined = true
			}
			if next < n && v.tokBrand[next] >= 0 {
				if w := v.word(lastOf[next] + 1); joined || w == "," || w == "and" || w == "or" {
					boundary = false
				}
			}
		}
		if boundary {
			c++
			v.clauses = append(v.clauses, clauseInfo{firstWord: -1})
		}
		v.clause[i] = c
		ci := &v.clauses[c]
		if ci.firstWord < 0 && !t.punct && t.w != "and" && t.w != "or" {
			ci.firstWord = i
			ci.aside = asideStarts[t.w] || t.w == "such" && v.word(i+1) == "as"
		}
		if b := v.tokBrand[i]; b >= 0 && !contains(ci.brands, b) {
			ci.brands = append(ci.brands, b)
		}
	}
	prev := -1
	for ci := range v.clauses {
		v.clauses[ci].prev = prev
		if len(v.clauses[ci].brands) > 0 && !v.clauses[ci].aside {
			prev = ci
		}
	}
	next := -1
	for ci := len(v.clauses) - 1; ci >= 0; ci-- {
		v.clauses[ci].next = next
		if len(v.clauses[ci].brands) > 0 {
			next = ci
		}
	}
	for i, t := range v.toks {
		if t.punct {
			continue
		}
		if v.recommendationCue(i) {
			v.recCues = append(v.recCues, i)
		}
		if p := polarity(v, i); p != 0 {
			if v.negated(i) {
				p = -p
			}
			v.polar = append(v.polar, i)
			v.pol = append(v.pol, p)
		}
		if comparisonWords[t.w] {
			switch t.w {
			case "than", "versus", "vs", "compared", "unlike":
				v.compares = true
			default:
				v.comparesN = true
			}
		}
		switch t.w {
		case "include", "includes", "including", "options", "alternatives", "choices", "contenders", "players", "picks", "tools", "providers", "platforms":
			v.lists = true
		}
	}
	v.hedge = v.hedged()
	return v
}

var clauseWords = wordSet(`but however although though whereas while yet except otherwise`)

var asideStarts = wordSet(`unlike like than compared versus vs including besides except instead rather alongside e.g i.e`)

// attributed returns the brands a cue at token i applies to: those of its
// clause, else of the nearest clause before it that is not an aside, else
// of the nearest clause after it.
func (v *unitView) attributed(i int) []int {
	ci := v.clauses[v.clause[i]]
	switch {
	case len(ci.brands) > 0:
		return ci.brands
	case ci.prev >= 0:
		return v.clauses[ci.prev].brands
	case ci.next >= 0:
		return v.clauses[ci.next].brands
	}
	return nil
}

func (v *unitView) word(i int) string {
	if i < 0 || i >= len(v.toks) {
		return ""
	}
	return v.toks[i].w
}

// contrastSide reports whether brand b stands on the compared side: after
// "than", "unlike", "vs", "compared to", "instead of", "alternative to", or
// "over" after "recommend"/"prefer"/"choose"; or before "vs".
func (v *unitView) contrastSide(b int) bool {
	for _, at := range v.brandAt[b] {
		c := v.clause[at]
		if ci := v.clauses[c]; ci.aside {
			switch v.word(ci.firstWord) {
			case "unlike", "than", "compared", "versus", "vs", "instead", "rather":
				return true
			}
		}
		for i := at - 1; i >= 0 && v.clause[i] == c && at-i <= 6; i-- {
			switch v.word(i) {
			case "than", "unlike", "versus", "vs", "against":
				return true
			case "over":
				for k := i - 1; k >= 0 && i-k <= 12; k-- {
					if w := v.word(k); strings.HasPrefix(w, "recommend") || strings.HasPrefix(w, "prefer") || strings.HasPrefix(w, "choos") || w == "pick" {
						return true
					}
				}
			case "to", "with":
				switch v.word(i - 1) {
				case "compared", "alternative", "alternatives", "relative", "similar", "comparable":
					return true
				}
			case "of":
				if v.word(i-1) == "instead" {
					return true
				}
			}
			if v.tokBrand[i] >= 0 {
				break
			}
		}
		// "Zendesk vs Freshdesk": the left side compares too.
		for i := at + 1; i < len(v.toks) && i-at <= 6 && v.clause[i] == c; i++ {
			if w := v.word(i); w == "vs" || w == "versus" {
				return true
			}
		}
	}
	return false
}

// recommendationCue reports whether token i recommends.
func (v *unitView) recommendationCue(i int) bool {
	w := v.word(i)
	switch {
	case strings.HasPrefix(w, "recommend"), strings.HasPrefix(w, "suggest"):
		return !v.negated(i)
	}
	switch w {
	case "best":
		switch v.word(i + 1) {
		case "for", "suited", "known", "practices", "practice", "if", "when":
			return false
		}
		return v.word(i-1) != "at" && !v.negated(i)
	case "pick", "picks", "choice", "choices", "option", "options", "bet", "bets":
		switch v.word(i - 1) {
		case "top", "our", "my", "best", "great", "excellent", "solid", "ideal", "smart", "first", "safest", "strong", "good":
			return !v.negated(i - 1)
		}
	case "with":
		return v.word(i-1) == "go"
	case "for":
		return v.word(i-1) == "opt"
	case "worth":
		switch v.word(i + 1) {
		case "considering", "trying", "a", "checking", "it", "exploring", "evaluating":
			return !v.negated(i)
		}
	case "consider", "try", "choose":
		// An imperative or a suggestion ("you should consider"), not
		// "how to choose".
		prev := v.word(i - 1)
		switch prev {
		case "should", "might", "could", "also", "definitely", "strongly", "seriously", "then", "would":
			return true
		case "to":
			return false
		}
		return v.clauses[v.clause[i]].firstWord == i
	case "winner", "go-to", "must-have", "standout":
		return true
	}
	return false
}

var comparisonWords = wordSet(`vs versus compared comparing compare comparison comparisons than unlike whereas similar
	differ differs difference differences contrast outperforms outperform rival rivals competes compete head-to-head
	both`)

// exampleCue reports whether the brand at token at follows an example cue
// in its clause: "such as", "like", "e.g.", "for example", "including".
func (v *unitView) exampleCue(at int) bool {
	c := v.clause[at]
	for i := at - 1; i >= 0 && at-i <= 12; i-- {
		w := v.word(i)
		switch {
		case w == "like" && !feelsLike[v.word(i-1)], w == "including", w == "e.g":
			return true
		case w == "as" && v.word(i-1) == "such":
			return true
		case (w == "example" || w == "instance") && v.word(i-1) == "for":
			return true
		}
		if v.clause[i] != c && !(v.toks[i].punct && v.toks[i].w == ",") {
			break // enumerations ("such as A, B, and C") cross commas
		}
	}
	return false
}

var feelsLike = wordSet(`feel feels felt look looks looked would i you we they`)

// hedged reports whether the unit makes its statement conditional.
func (v *unitView) hedged() bool {
	for i, t := range v.toks {
		switch t.w {
		case "if":
			if w := v.word(i - 1); w != "as" && w != "what" {
				return true
			}
		case "unless", "depending", "depends", "assuming", "otherwise":
			return true
		case "provided", "providing":
			if w := v.word(i + 1); w == "that" || w == "you" || w == "your" {
				return true
			}
		case "case":
			if v.word(i-1) == "in" {
				return true
			}
		case "long":
			if v.word(i-1) == "as" && v.word(i+1) == "as" {
				return true
			}
		case "should", "when", "whenever":
			if w := v.word(i + 1); w == "you" || w == "your" {
				return true
			}
		case "for":
			for k := i + 1; k < len(v.toks) && k-i <= 4 && !v.toks[k].punct; k++ {
				switch v.word(k) {
				case "that", "who", "whose", "which", "looking", "needing", "wanting", "seeking", "requiring", "prioritizing", "prioritising", "focused":
					return true
				}
			}
		case "might", "may", "could":
			for k := i + 1; k < len(v.toks) && k-i <= 4 && !v.toks[k].punct; k++ {
				switch v.word(k) {
				case "suit", "fit", "work", "better", "suffice", "prefer", "preferable":
					return true
				}
			}
		}
	}
	return false
}

// negated reports whether a negator stands within the three words before
// token i in its clause.
func (v *unitView) negated(i int) bool {
	c := v.clause[i]
	for k := i - 1; k >= 0 && i-k <= 3 && v.clause[k] == c; k-- {
		w := v.word(k)
		if negators[w] || strings.HasSuffix(w, "n't") {
			next := v.word(k + 1)
			if w == "not" && (next == "only" || next == "just") || w == "no" && (next == "doubt" || next == "wonder") {
				return false
			}
			return true
		}
	}
	return false
}

var negators = wordSet(`not no never without hardly barely nor neither cannot lacks lack lacking nothing`)

// polarity of a cue word: +1 positive, -1 negative, 0 none.
func polarity(v *unitView, i int) int {
	w := v.word(i)
	if positiveWords[w] {
		return 1
	}
	if negativeWords[w] {
		return -1
	}
	switch w {
	case "curve":
		if v.word(i-1) == "learning" && v.word(i-2) == "steep" {
			return -1
		}
	case "out":
		if v.word(i-1) == "stands" || v.word(i-1) == "stand" {
			return 1
		}
	case "short":
		if v.word(i-1) == "falls" || v.word(i-1) == "fall" {
			return -1
		}
	case "fees", "costs", "charges":
		if v.word(i-1) == "hidden" {
			return -1
		}
	case "rated", "regarded":
		if v.word(i-1) == "highly" || v.word(i-1) == "well" || v.word(i-1) == "top" {
			return 1
		}
	}
	return 0
}

var positiveWords = wordSet(`great excellent best top leading powerful intuitive easy easiest user-friendly reliable
	robust affordable popular strong strongest recommended favorite favourite love loved loves impressive seamless
	seamlessly flexible fast faster efficient standout trusted comprehensive good better excels excel ideal perfect
	solid outstanding innovative praised superior polished smooth simple simpler valuable versatile scalable
	feature-rich top-rated highly-rated well-rated acclaimed award-winning shines wins winner cheaper inexpensive
	budget-friendly cost-effective cheap generous fantastic amazing exceptional remarkable stellar terrific
	wonderful best-in-class industry-leading market-leading renowned reputable dependable accessible responsive
	helpful friendly convenient elegant clean beloved favored favoured advantage advantages benefit benefits
	strength strengths easier well-designed well-suited modern secure lightweight sleek`)

var negativeWords = wordSet(`expensive pricey costly overpriced clunky slow slower buggy limited lacking poor bad worse
	worst weak weaker difficult complicated confusing outdated dated unreliable frustrating disappointing
	steep drawback drawbacks downside downsides issue issues problem problems complaint complaints criticism
	criticized criticised cumbersome restrictive inferior mediocre underwhelming avoid fails failed fail failing
	broken glitchy bloated overkill lags lag laggy unintuitive clumsy rigid unstable insecure unresponsive
	pricier costlier harder awkward annoying subpar sluggish inconsistent unhelpful tedious overwhelming messy
	risky controversial concern concerns lacks lack struggles struggle problematic`)

// classification is what classify decides for one brand.
type classification struct {
	typ       sightline.MentionType
	tone      sightline.Tone
	qualifier sightline.Qualifier
}

var typeRank = map[sightline.MentionType]int{
	sightline.MentionRecommendation: 5, sightline.MentionComparison: 4, sightline.MentionListing: 3,
	sightline.MentionExample: 2, sightline.MentionReference: 1,
}

// classifier classifies the brands of one answer.
type classifier struct {
	d       *doc
	matches []match
	views   map[int]*unitView
	context map[int][]int        // brand -> units it is classified from, in order
	leads   map[int]map[int]bool // brand -> list items and rows it leads
	introH  map[int]bool         // intro block -> hedged
}

func newClassifier(d *doc, matches []match) *classifier {
	c := &classifier{d: d, matches: matches, views: map[int]*unitView{}, context: map[int][]int{},
		leads: map[int]map[int]bool{}, introH: map[int]bool{}}
	unitOf := c.unitIndex()
	unitBrands := map[int][]int{}
	blockLeads := map[int][]int{} // block -> brands leading it
	seenBlock := map[int]bool{}
	for _, m := range matches {
		ui := unitOf(m.start)
		if ui < 0 {
			continue
		}
		if ctx := c.context[m.brand]; len(ctx) == 0 || ctx[len(ctx)-1] != ui {
			c.context[m.brand] = append(ctx, ui)
			unitBrands[ui] = append(unitBrands[ui], m.brand)
		}
		bi := d.units[ui].block
		if seenBlock[bi] {
			continue
		}
		seenBlock[bi] = true
		// The first brand of a list item or row leads it when at most a
		// few words come before it ("The", "Option 4:").
		b := d.blocks[bi]
		if b.kind != blockListItem && b.kind != blockTableRow {
			continue
		}
		first := skipOrdinal(d.text, b.start, b.end)
		if m.start >= first && m.start-first <= 40 && len(ctokens(d.text, first, m.start)) <= 4 &&
			!strings.ContainsAny(string(d.text[first:m.start]), ".!?") {
			if c.leads[m.brand] == nil {
				c.leads[m.brand] = map[int]bool{}
			}
			c.leads[m.brand][bi] = true
			blockLeads[bi] = append(blockLeads[bi], m.brand)
		}
	}
	// Sentences that refer back to a single brand: the rest of an item it
	// leads, or a sentence opening with "It", "Its", "They" after one that
	// names only it.
	for ui := range d.units {
		if len(unitBrands[ui]) > 0 {
			continue
		}
		u := d.units[ui]
		if leads := blockLeads[u.block]; len(leads) > 0 {
			for _, brand := range leads {
				c.context[brand] = append(c.context[brand], ui)
			}
			continue
		}
		if ui > 0 && d.units[ui-1].block == u.block && len(unitBrands[ui-1]) == 1 && refersBack(d.text, u) {
			brand := unitBrands[ui-1][0]
			c.context[brand] = append(c.context[brand], ui)
			unitBrands[ui] = []int{brand}
		}
	}
	return c
}

func refersBack(text []rune, u unit) bool {
	toks := ctokens(text, u.start, min(u.end, u.start+40))
	if len(toks) == 0 {
		return false
	}
	switch toks[0].w {
	case "it", "its", "it's", "they", "their", "they're":
		return true
	case "this", "the":
		if len(toks) > 1 {
			switch toks[1].w {
			case "platform", "tool", "service", "product", "company", "software", "app", "brand", "vendor", "provider":
				return true
			}
		}
	}
	return false
}

func contains(s []int, x int) bool {
	for _, y := range s {
		if y == x {
			return true
		}
	}
	return false
}

// unitIndex returns a function from a rune offset to its unit, -1 outside
// every unit.
func (c *classifier) unitIndex() func(int) int {
	units := c.d.units
	return func(pos int) int {
		lo, hi := 0, len(units)
		for lo < hi {
			mid := (lo + hi) / 2
			if units[mid].end <= pos {
				lo = mid + 1
			} else {
				hi = mid
			}
		}
		if lo < len(units) && units[lo].start <= pos {
			return lo
		}
		return -1
	}
}

func (c *classifier) viewOf(ui int) *unitView {
	v := c.views[ui]
	if v == nil {
		v = c.d.view(ui, c.matches)
		c.views[ui] = v
	}
	return v
}

// classify decides type, tone and qualifier of one brand.
func (c *classifier) classify(brand int) classification {
	best := sightline.MentionReference
	bestUnit := -1
	score := 0
	for _, ui := range c.context[brand] {
		v := c.viewOf(ui)
		t := c.unitType(brand, ui, v)
		if bestUnit < 0 || typeRank[t] > typeRank[best] {
			best, bestUnit = t, ui
		}
		score += v.tone(brand)
	}
	out := classification{typ: best, tone: sightline.ToneNeutral, qualifier: sightline.QualifierDirect}
	switch {
	case score > 0:
		out.tone = sightline.TonePositive
	case score < 0:
		out.tone = sightline.ToneNegative
	}
	if bestUnit >= 0 {
		hedged := c.viewOf(bestUnit).hedge
		if b := c.d.units[bestUnit].block; !hedged && c.leads[brand][b] && c.d.blocks[b].intro >= 0 {
			hedged = c.introHedged(c.d.blocks[b].intro)
		}
		if hedged {
			out.qualifier = sightline.QualifierConditional
		}
	}
	return out
}

// unitType is the type of the brand's mention in one unit.
func (c *classifier) unitType(brand, ui int, v *unitView) sightline.MentionType {
	carried := len(v.brandAt[brand]) == 0 // in the unit by reference back
	if !carried && v.contrastSide(brand) {
		return sightline.MentionComparison
	}
	for _, i := range v.recCues {
		if carried || contains(v.attributed(i), brand) {
			return sightline.MentionRecommendation
		}
	}
	b := c.d.units[ui].block
	lead := c.leads[brand][b]
	if lead {
		if intro := c.d.blocks[b].intro; intro >= 0 && c.introRecommends(intro) {
			return sightline.MentionRecommendation
		}
	}
	if !carried {
		others := len(v.brandAt) - 1
		if v.compares || v.comparesN && others > 0 {
			return sightline.MentionComparison
		}
		for _, at := range v.brandAt[brand] {
			if v.exampleCue(at) {
				return sightline.MentionExample
			}
		}
		if len(v.toks) > 2 && v.word(0) == "for" && (v.word(1) == "example" || v.word(1) == "instance") {
			return sightline.MentionExample
		}
		if others >= 2 || others >= 1 && v.lists {
			return sightline.MentionListing
		}
	}
	if lead {
		return sightline.MentionListing
	}
	return sightline.MentionReference
}

// tone is the brand's tone score in the unit.
func (v *unitView) tone(brand int) int {
	carried := len(v.brandAt[brand]) == 0
	score := 0
	for k, i := range v.polar {
		p := v.pol[k]
		if !carried {
			if !contains(v.attributed(i), brand) {
				continue
			}
			// After "than", a comparative counts the other way for the
			// brand compared against.
			if v.afterThan(brand, i) {
				p = -p
			}
		}
		score += p
	}
	return score
}

// afterThan reports whether the brand appears after a "than" that follows
// the cue at token i in the same clause.
func (v *unitView) afterThan(brand, i int) bool {
	for _, at := range v.brandAt[brand] {
		if at <= i || v.clause[at] != v.clause[i] {
			continue
		}
		for k := i + 1; k < at; k++ {
			if v.word(k) == "than" {
				return true
			}
		}
	}
	return false
}

func (c *classifier) introRecommends(bi int) bool {
	b := c.d.blocks[bi]
	for _, t := range ctokens(c.d.text, b.start, b.end) {
		if strings.HasPrefix(t.w, "recommend") || strings.HasPrefix(t.w, "suggest") || t.w == "picks" {
			return true
		}
	}
	return false
}

func (c *classifier) introHedged(bi int) bool {
	h, ok := c.introH[bi]
	if !ok {
		for ui, u := range c.d.units {
			if u.block == bi && c.viewOf(ui).hedge {
				h = true
			}
		}
		c.introH[bi] = h
	}
	return h
}

// sentence is the plain text of unit ui.
func (d *doc) sentence(ui int) string {
	u := d.units[ui]
	return string(d.text[u.start:u.end])
}
