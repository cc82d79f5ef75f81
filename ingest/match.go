package ingest

import (
	"cmp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Brand-name matching.
//
// Names are matched case-insensitively by simple Unicode case folding after
// NFC normalisation: "Café" matches "CAFÉ" and a decomposed "Café", but not
// "Cafe" (accents stay distinct). A match never starts or ends inside a word:
// the runes around it must not be letters, digits or combining marks, so
// "Acme" does not match in "Acmeville" and "HubSpot" matches in "HubSpot's".
// Where names overlap, the longest match at the leftmost position wins
// ("Acme Cloud" over "Acme"). Domains ("acme.com") match as written in the
// text, also inside a longer host ("blog.acme.com", "www.acme.com") but not in
// "notacme.com" or "acme.com.au".
//
// One refinement for real answers: a tracked name made only of common English
// words ("Close", "Notion", "Monday") does not match an occurrence written
// entirely in lower case ("close to", "the notion of"); "CLOSE", "Close" and a
// mixed-case spelling still match.

// foldRune maps r to the representative of its case-folding class.
func foldRune(r rune) rune {
	if r < utf8.RuneSelf {
		if r >= 'A' && r <= 'Z' {
			return r + 'a' - 'A'
		}
		return r
	}
	return unicode.ToLower(unicode.ToUpper(r))
}

// foldRunes folds every rune of rs into a new slice of the same length, so
// offsets in the folded text are offsets in the original.
func foldRunes(rs []rune) []rune {
	out := make([]rune, len(rs))
	for i, r := range rs {
		out[i] = foldRune(r)
	}
	return out
}

// pattern is one name or domain of one brand.
type pattern struct {
	folded []rune
	exact  []rune // set for untracked names: occurrences must be written exactly so
	domain bool
	brand  int
	// common: a tracked name of common words only; an all-lower-case
	// occurrence is ordinary prose, not the brand.
	common bool
}

// match is one occurrence of a pattern in a text.
type match struct {
	start, end int // runes
	brand      int
	pattern    int
}

// matcher finds the leftmost-longest, non-overlapping occurrences of its
// patterns.
type matcher struct {
	patterns []pattern
	ascii    [utf8.RuneSelf][]int // pattern indices by first folded rune, longest first
	other    map[rune][]int
	keys     map[string]bool // patterns added
}

// cleanName normalises a configured name or a detected one: NFC, trimmed,
// inner white space collapsed to one space. It returns "" for names without
// a letter or digit.
func cleanName(s string) string {
	s = strings.Join(strings.Fields(norm.NFC.String(s)), " ")
	if strings.IndexFunc(s, isWordRune) < 0 {
		return ""
	}
	return s
}

// add adds name as a pattern of brand. Domains are given normalised.
func (m *matcher) add(name string, brand int, domain, exact bool) {
	if name == "" {
		return
	}
	rs := []rune(name)
	p := pattern{folded: foldRunes(rs), domain: domain, brand: brand}
	if exact {
		p.exact = rs
	} else if !domain && hasUpper(rs) && allCommon(rs) {
		p.common = true
	}
	key := string(p.folded) + "\x00" + string(p.exact)
	if domain {
		key += "\x00domain"
	}
	if m.keys[key] {
		return // the first brand to claim a name keeps it
	}
	if m.keys == nil {
		m.keys = map[string]bool{}
	}
	m.keys[key] = true
	m.patterns = append(m.patterns, p)
	idx := len(m.patterns) - 1
	first := p.folded[0]
	var list *[]int
	if first < utf8.RuneSelf {
		list = &m.ascii[first]
	} else {
		if m.other == nil {
			m.other = map[rune][]int{}
		}
		l := m.other[first]
		list = &l
		defer func() { m.other[first] = *list }()
	}
	*list = append(*list, idx)
	slices.SortStableFunc(*list, func(a, b int) int { return len(m.patterns[b].folded) - len(m.patterns[a].folded) })
}

// find returns the matches in text (fold is foldRunes(text)), in order.
func (m *matcher) find(text, fold []rune) []match {
	var out []match
	n := len(fold)
	for i := 0; i < n; {
		r := fold[i]
		var cands []int
		if r < utf8.RuneSelf {
			cands = m.ascii[r]
		} else {
			cands = m.other[r]
		}
		best := -1
		for _, pi := range cands {
			if m.matchesAt(pi, text, fold, i) {
				best = pi
				break
			}
		}
		if best < 0 {
			i++
			continue
		}
		end := i + len(m.patterns[best].folded)
		out = append(out, match{start: i, end: end, brand: m.patterns[best].brand, pattern: best})
		i = end
	}
	return out
}

func (m *matcher) matchesAt(pi int, text, fold []rune, i int) bool {
	p := &m.patterns[pi]
	j := i + len(p.folded)
	if j > len(fold) || !slices.Equal(fold[i:j], p.folded) {
		return false
	}
	if p.exact != nil && !slices.Equal(text[i:j], p.exact) {
		return false
	}
	if p.domain {
		if i > 0 && (isWordRune(text[i-1]) || text[i-1] == '-' || text[i-1] == '_') {
			return false
		}
		if j < len(text) && (isWordRune(text[j]) || text[j] == '-' || text[j] == '_' ||
			text[j] == '.' && j+1 < len(text) && isWordRune(text[j+1])) {
			return false
		}
		return true
	}
	if isWordRune(p.folded[0]) && i > 0 && isWordRune(text[i-1]) {
		return false
	}
	if isWordRune(p.folded[len(p.folded)-1]) && j < len(text) && isWordRune(text[j]) {
		return false
	}
	if p.common && !hasUpper(text[i:j]) {
		return false
	}
	return true
}

func hasUpper(rs []rune) bool {
	for _, r := range rs {
		if unicode.IsUpper(r) || unicode.IsTitle(r) {
			return true
		}
	}
	return false
}

// allCommon reports whether every word of a name is an ordinary English
// word (see isGenericWord).
func allCommon(rs []rune) bool {
	words := 0
	for w := range strings.FieldsFuncSeq(string(rs), func(r rune) bool { return !isWordRune(r) }) {
		words++
		if !isGenericWord(w, strings.ToLower(w), false) {
			return false
		}
	}
	return words > 0
}

// Untracked brands.
//
// detectUntracked finds the brands an answer names that the project does
// not track, without any list of brands, from where answers put brand names:
//
//   - the lead of a list item or heading: "1. **Zendesk** — ...",
//     "- Freshdesk: ...", "### 2. Zoho Desk"; when a generic label leads
//     ("- Best option: Gorgias ..."), the text after the colon is tried;
//   - tables: the first cell of each row when the header's first cell names
//     what rows are ("Tool", "Platform", "Brand", ...) or a row is a tracked
//     brand ("| Help Scout | $20 |"); the header cells when its first cell
//     names a feature ("Feature", "Criteria") or is empty;
//   - bold spans and link labels that are a name: "**Intercom**",
//     "[Dr. Aldo Implants](https://...)";
//   - enumerations after cue words: "such as A, B and C", "alternatives like
//     A or B", "including A", "e.g. A", "compared to A", "than A", "unlike A";
//   - both sides of "X vs Y" / "X versus Y";
//   - enumerations ("A, B and C", "A or B") one of whose items is a tracked
//     or already detected brand.
//
// A name there is a phrase of up to six capitalised or mixed-case tokens
// ("Zoho CRM", "iPhone 16", "monday.com" only when capitalised as "Monday.com",
// "The Dental Clinic & GT Concept", "Bank of America"), possessives removed,
// leading function words ("The", "Like", "Try") dropped. Phrases made only of
// generic words are refused: the stop-list of capitalised non-brands
// (pronouns, months, days, countries, acronyms such as AI, CRM, SaaS) always,
// and common English words ("Pricing", "Key Features", "No Inventory",
// "Choose a niche"), or title-case words with the endings of abstract nouns
// and adjectives ("Presidential Election", "Volcanic Activity"), where
// capitalisation proves nothing: at the start of a sentence, a list item or a
// heading, and in bold. Within one list, when most
// leads are brands, a lead made of common words ("Slack:", "Notion:") is
// taken too. Names containing or inside a tracked name are the tracked
// brand's, not untracked ones. Detected names then match exactly as written
// (case-sensitively), and a name that extends another detected name ("Zoho
// CRM" after "Zoho") counts as the same brand.
//
// Limits: a brand named only in plain running prose ("We use Zendesk daily.")
// is not detected; people, places and product lines in list leads or bold
// ("Albert Einstein", "Ruby on Rails") are taken for brands; brand names that
// are common words are missed outside lists of brands; English cue words only
// (the structural rules work in any language).
func detectUntracked(d *doc, tracked *matcher, trackedMatches []match) []string {
	det := detector{d: d, tracked: tracked, covered: trackedMatches, seen: map[string]bool{}, phrases: map[int]unitPhrases{}}
	listLeads := map[int][]leadCandidate{}
	tables := map[int][]int{} // table -> its rows
	for bi := range d.blocks {
		b := &d.blocks[bi]
		if b.kind == blockParagraph {
			continue
		}
		if b.kind == blockTableRow {
			tables[b.list] = append(tables[b.list], bi)
			continue
		}
		lc, ok := det.lead(bi)
		if !ok {
			continue
		}
		if b.list >= 0 { // list items and table rows
			listLeads[b.list] = append(listLeads[b.list], lc)
			continue
		}
		if lc.strong && !lc.generic && !lc.tracked { // headings
			det.accept(lc.phrase)
		}
	}
	lenientLists := map[int]bool{}
	for table, rows := range tables {
		det.table(rows, listLeads, lenientLists, table)
	}
	for list, leads := range listLeads {
		// A list whose strong leads are mostly brands is a list of brands:
		// its leads made of common words ("Slack:") and leads followed by
		// prose ("Zendesk offers ...") are brands too.
		strong, brandish := 0, 0
		for _, lc := range leads {
			if lc.strong {
				strong++
				if !lc.generic || lc.tracked {
					brandish++
				}
			}
		}
		lenient := brandish >= 2 && brandish*2 >= strong || lenientLists[list]
		for _, lc := range leads {
			switch {
			case lc.tracked || lc.stop:
			case lc.strong && !lc.generic, lenient && (lc.strong || !lc.generic):
				det.accept(lc.phrase)
			}
		}
	}
	for _, s := range d.bold {
		det.acceptSpan(s, false)
	}
	for _, s := range d.links {
		det.acceptSpan(s, false)
	}
	for ui := range d.units {
		det.cues(ui)
	}
	for pass := 0; pass < 2; pass++ {
		before := len(det.names)
		for ui := range d.units {
			det.coordinated(ui)
		}
		if len(det.names) == before {
			break
		}
	}
	return det.names
}

type detector struct {
	d       *doc
	tracked *matcher
	covered []match // tracked matches in d.text
	names   []string
	seen    map[string]bool
	phrases map[int]unitPhrases // by unit, computed once
}

// unitPhrases are the tokens of a unit and its name phrases (token ranges).
type unitPhrases struct {
	toks  []tok
	spans [][2]int
}

// phrase is a run of name tokens in the document text.
type phrase struct {
	start, end int // runes, possessive and leading function words excluded
}

type leadCandidate struct {
	phrase
	strong  bool // followed by a separator (":", "—", "(", ",", end) rather than prose
	generic bool // made only of common words (or stop-list words)
	stop    bool // made only of stop-list words
	tracked bool // is or contains a tracked brand
}

// tok is a word of the document text: runes of letters, digits and marks,
// joined by inner ".", "-", "'", "’", "&", "+" or "_".
type tok struct {
	start, end int
	poss       bool // followed by a possessive 's
}

func tokens(text []rune, start, end int) []tok {
	out := make([]tok, 0, (end-start)/6+1)
	i := start
	for i < end {
		if !isWordRune(text[i]) {
			i++
			continue
		}
		j := i + 1
		for j < end {
			if isWordRune(text[j]) {
				j++
				continue
			}
			if strings.ContainsRune(".-'’&+_", text[j]) && j+1 < end && isWordRune(text[j+1]) {
				j += 2
				continue
			}
			break
		}
		t := tok{start: i, end: j}
		if j-i > 2 && (text[j-2] == '\'' || text[j-2] == '’') && (text[j-1] == 's' || text[j-1] == 'S') {
			t.end, t.poss = j-2, true
		} else if j < end && (text[j] == '\'' || text[j] == '’') && (j+1 == end || !isWordRune(text[j+1])) {
			t.poss = true // "Acme Cloud’" plural possessive
		}
		out = append(out, t)
		i = j
	}
	return out
}

// isNameToken reports whether a token can be part of a brand name: it is
// capitalised ("Zendesk", "HubSpot", "V&C"), mixed-case ("iPhone", "eBay"),
// or, after a name token, a number or model ("365", "16", "4o").
func isNameToken(rs []rune, first bool) bool {
	r := rs[0]
	if unicode.IsUpper(r) || unicode.IsTitle(r) {
		return true
	}
	if unicode.IsLower(r) {
		for _, q := range rs[1:] {
			if unicode.IsUpper(q) {
				return true
			}
		}
		return false
	}
	return !first && unicode.IsDigit(r)
}

// nameConnectors may join name tokens: "Bank of America", "Centro de
// Implantología".
var nameConnectors = map[string]bool{"of": true, "de": true, "del": true, "la": true, "le": true, "du": true,
	"des": true, "van": true, "von": true, "der": true, "da": true, "di": true}

const maxNameTokens = 6

// phraseAt reads the name phrase starting at token k of toks: name tokens
// separated by single spaces, connectors or " & ". It returns the index
// after the phrase's last token, or k when toks[k] starts no phrase.
func (det *detector) phraseAt(toks []tok, k int) int {
	text := det.d.text
	if k >= len(toks) || !isNameToken(text[toks[k].start:toks[k].end], true) {
		return k
	}
	j := k + 1
	count := 1
	for j < len(toks) && count < maxNameTokens && !toks[j-1].poss {
		gap := string(text[toks[j-1].end:toks[j].start])
		rs := text[toks[j].start:toks[j].end]
		switch {
		case gap == " " && isNameToken(rs, false):
			j++
			count++
			continue
		case gap == ". " && toks[j-1].end-toks[j-1].start <= 3 && isNameToken(text[toks[j-1].start:toks[j-1].end], true) &&
			isNameToken(rs, false):
			j++ // "Dr. Aldo Implants", "St. Louis"
			count++
			continue
		case gap == " & " || gap == " + ":
			if isNameToken(rs, false) {
				j++
				count++
				continue
			}
		case gap == " " && nameConnectors[string(rs)] && j+1 < len(toks) &&
			string(text[toks[j].end:toks[j+1].start]) == " " && isNameToken(text[toks[j+1].start:toks[j+1].end], false):
			j += 2
			count += 2
			continue
		}
		break
	}
	return j
}

// trimPhrase drops leading function words ("The", "Like", "Try") and
// returns the phrase's rune span; ok is false when nothing is left.
func (det *detector) trimPhrase(toks []tok, k, j int) (phrase, bool) {
	text := det.d.text
	for k < j && leadingFunctionWords[strings.ToLower(string(text[toks[k].start:toks[k].end]))] {
		k++
	}
	if k >= j || !isNameToken(text[toks[k].start:toks[k].end], true) {
		return phrase{}, false
	}
	return phrase{start: toks[k].start, end: toks[j-1].end}, true
}

// classifyPhrase reports whether a phrase is made only of stop-list words,
// only of generic (common or stop-list) words, and whether it is or contains
// a tracked brand.
func (det *detector) classifyPhrase(p phrase) (stop, generic, tracked bool) {
	text := det.d.text
	stop, generic = true, true
	places := false // a day, month or place name, not an acronym
	toks := tokens(text, p.start, p.end)
	words := 0
	for _, t := range toks {
		w := string(text[t.start:t.end])
		if !nameConnectors[w] {
			words++
		}
	}
	for _, t := range toks {
		w := string(text[t.start:t.end])
		if nameConnectors[w] {
			continue
		}
		lw := strings.ToLower(w)
		if isStopName(w, lw) {
			places = places || properNames[lw]
			continue
		}
		stop = false
		if !isGenericWord(w, lw, words > 1) {
			generic = false
		}
	}
	// A place or day with other words is a name: "Bank of America",
	// "Monday Sales CRM".
	if places && !stop {
		generic = false
	}
	// covered is in text order: the first match ending after the start.
	i, _ := slices.BinarySearchFunc(det.covered, p.start, func(m match, pos int) int { return cmp.Compare(m.end, pos+1) })
	if i < len(det.covered) && det.covered[i].start < p.end {
		tracked = true
	}
	if !tracked {
		name := text[p.start:p.end]
		if len(det.tracked.find(name, foldRunes(name))) > 0 {
			tracked = true
		}
	}
	return stop, generic, tracked
}

// accept records a phrase as an untracked brand name.
func (det *detector) accept(p phrase) {
	_, _, tracked := det.classifyPhrase(p)
	if tracked {
		return
	}
	name := cleanName(string(det.d.text[p.start:p.end]))
	if name == "" || det.seen[name] {
		return
	}
	// A piece of a tracked name ("Cloud" of "Acme Cloud") is not a brand.
	fname := foldRunes([]rune(name))
	for _, tp := range det.tracked.patterns {
		if len(tp.folded) > len(fname) && containsWord(tp.folded, fname) {
			return
		}
	}
	det.seen[name] = true
	det.names = append(det.names, name)
}

// containsWord reports whether needle occurs in hay at word boundaries.
func containsWord(hay, needle []rune) bool {
	for i := 0; i+len(needle) <= len(hay); i++ {
		if slices.Equal(hay[i:i+len(needle)], needle) &&
			(i == 0 || !isWordRune(hay[i-1])) && (i+len(needle) == len(hay) || !isWordRune(hay[i+len(needle)])) {
			return true
		}
	}
	return false
}

// lead finds the name leading block bi (a list item, table row or heading).
// A generic label before a colon ("Pricing: Zendesk ...", "**Best for small
// teams:** Freshdesk") gives way to what follows the colon.
func (det *detector) lead(bi int) (leadCandidate, bool) {
	d := det.d
	b := &d.blocks[bi]
	start, end := b.start, b.end
	if b.kind == blockTableRow {
		if i := indexRunes(d.text[start:end], []rune(" | ")); i >= 0 {
			end = start + i
		}
	}
	start = skipOrdinal(d.text, start, end) // "### 1. Zendesk", "| 2) Zoho |"
	first, ok, next := det.leadAt(start, end)
	if ok && first.strong && (!first.generic || first.tracked) {
		return first, true
	}
	if next > start && next < end {
		// "Opción adicional: V&C Odontólogos (...)", "Pricing: Zendesk ..."
		second, ok2, _ := det.leadAt(next, end)
		if ok2 && (!second.generic || second.tracked) && (second.strong || !ok || first.generic) || ok2 && !ok {
			return second, true
		}
	}
	return first, ok
}

// leadAt reads a lead phrase at start. next is where a second attempt may
// start: after a bold lead, or after the colon of a label; -1 when none.
func (det *detector) leadAt(start, end int) (lc leadCandidate, ok bool, next int) {
	d := det.d
	next = -1
	if c := indexRunes(d.text[start:min(end, start+80)], []rune(":")); c >= 0 {
		next = skipSpaces(d.text, start+c+1, end)
	}
	if bi, found := slices.BinarySearchFunc(d.bold, start, func(s span, pos int) int { return cmp.Compare(s.start, pos) }); found {
		s := d.bold[bi]
		if s.end > end {
			return lc, false, next
		}
		next = skipSpaces(d.text, skipSeparator(d.text, s.end, end), end)
		inner := trimRight(d.text, s.start, s.end, ":.—–-")
		toks := tokens(d.text, s.start, inner)
		if j := det.phraseAt(toks, 0); j > 0 && j == len(toks) && !toks[j-1].poss {
			if p, okp := det.trimPhrase(toks, 0, j); okp {
				return det.candidate(p, true), true, next
			}
		}
		return lc, false, next
	}
	toks := tokens(d.text, start, end)
	if len(toks) == 0 || toks[0].start != start {
		return lc, false, next
	}
	j := det.phraseAt(toks, 0)
	if j == 0 || toks[j-1].poss {
		return lc, false, next // "Acme's pricing ..." is prose
	}
	after := toks[j-1].end
	strong := after == end || skipSeparator(d.text, after, end) > after
	if !strong && (j >= len(toks) || toks[j].start != after+1 || d.text[after] != ' ' || !unicode.IsLower(d.text[toks[j].start])) {
		return lc, false, next // not followed by prose either ("Zendesk offers ...")
	}
	p, okp := det.trimPhrase(toks, 0, j)
	if !okp {
		return lc, false, next
	}
	return det.candidate(p, strong), true, next
}

// table reads a table: rows lead by brands when the first header cell says
// so ("Tool", "Platform", "Brand") or a row is a tracked brand; brands as
// columns when it names a feature ("Feature", "Criteria") or is empty.
func (det *detector) table(rows []int, listLeads map[int][]leadCandidate, lenient map[int]bool, table int) {
	d := det.d
	header := d.blocks[rows[0]]
	cells := strings.Split(string(d.text[header.start:header.end]), " | ")
	first := strings.ToLower(strings.Trim(cells[0], " *:"))
	var leads []leadCandidate
	tracked := false
	for _, bi := range rows[1:] {
		if lc, ok := det.lead(bi); ok {
			leads = append(leads, lc)
			tracked = tracked || lc.tracked
		}
	}
	if entityHeaders[first] || tracked {
		listLeads[table] = leads
		lenient[table] = entityHeaders[first]
		return
	}
	if first != "" && !featureHeaders[first] || len(rows) < 2 {
		return
	}
	at := header.start + len([]rune(cells[0])) + 3
	for _, c := range cells[1:] {
		n := len([]rune(c))
		det.acceptSpan(span{start: at, end: at + n}, true)
		at += n + 3
	}
}

var entityHeaders = wordSet(`tool tools brand brands platform platforms product products software provider providers
	company companies name option options service services app apps solution solutions vendor vendors crm clinic
	clinics store stores retailer retailers merchant merchants model models plan plans tool/platform`)

var featureHeaders = wordSet(`feature features criteria criterion aspect aspects category categories metric metrics
	attribute attributes factor factors capability capabilities comparison`)

func (det *detector) candidate(p phrase, strong bool) leadCandidate {
	stop, generic, tracked := det.classifyPhrase(p)
	return leadCandidate{phrase: p, strong: strong, generic: generic, stop: stop, tracked: tracked}
}

// acceptSpan takes a bold span, link label or table header cell that is
// entirely a name; generic names only when the place proves a brand.
func (det *detector) acceptSpan(s span, generic bool) {
	text := det.d.text
	end := trimRight(text, s.start, s.end, ":.—–-,;")
	toks := tokens(text, s.start, end)
	if len(toks) == 0 || toks[0].start != s.start || toks[len(toks)-1].end != end {
		return
	}
	j := det.phraseAt(toks, 0)
	if j != len(toks) {
		return
	}
	p, ok := det.trimPhrase(toks, 0, j)
	if !ok {
		return
	}
	if stop, g, _ := det.classifyPhrase(p); stop || g && !generic {
		return
	}
	det.accept(p)
}

// unitPhrases returns the name phrases of unit ui with the text between
// consecutive ones.
func (det *detector) unitPhrases(ui int) ([]tok, [][2]int) {
	if up, ok := det.phrases[ui]; ok {
		return up.toks, up.spans
	}
	u := det.d.units[ui]
	toks := tokens(det.d.text, u.start, u.end)
	var spans [][2]int // token ranges
	for k := 0; k < len(toks); {
		j := det.phraseAt(toks, k)
		if j == k {
			k++
			continue
		}
		spans = append(spans, [2]int{k, j})
		k = j
	}
	det.phrases[ui] = unitPhrases{toks, spans}
	return toks, spans
}

// cueBefore reports whether the words right before token k are a cue that
// names brands next ("such as", "like", "vs").
func (det *detector) cueBefore(toks []tok, k int, u unit) bool {
	text := det.d.text
	prevEnd := u.start
	if k > 0 {
		prevEnd = toks[k-1].end
	}
	gap := strings.TrimSpace(string(text[prevEnd:toks[k].start]))
	if gap != "" && gap != ":" && gap != "," && gap != "(" && gap != "." && gap != ".," {
		return false
	}
	word := func(i int) string {
		if i < 0 || i >= k {
			return ""
		}
		return strings.ToLower(string(text[toks[i].start:toks[i].end]))
	}
	w1, w2 := word(k-1), word(k-2)
	if w1 == "the" || w1 == "a" || w1 == "an" { // "than the iPhone 15"
		if strings.TrimSpace(string(text[toks[k-1].end:toks[k].start])) != "" {
			return false
		}
		w1, w2 = w2, word(k-3)
	}
	switch w1 {
	case "over":
		// "recommend Acme over Zendesk", "choose X over Y"
		for i := max(0, k-12); i < k-1; i++ {
			w := strings.ToLower(string(text[toks[i].start:toks[i].end]))
			if strings.HasPrefix(w, "recommend") || strings.HasPrefix(w, "prefer") || strings.HasPrefix(w, "choos") ||
				strings.HasPrefix(w, "pick") || strings.HasPrefix(w, "favo") || w == "chose" || w == "choice" {
				return true
			}
		}
	case "like", "including", "include", "includes", "included", "namely", "especially", "particularly",
		"notably", "versus", "vs", "than", "unlike", "e.g", "i.e", "alongside", "besides":
		return true
	case "as":
		return w2 == "such"
	case "example", "instance":
		return w2 == "for"
	case "to", "with":
		return w2 == "compared" || w2 == "alternative" || w2 == "alternatives" || w2 == "similar" || w2 == "comparable" ||
			w2 == "relative" || w2 == "switch" || w2 == "switching" || w2 == "migrate" || w2 == "migrating"
	case "are", "is":
		return w2 == "options" || w2 == "alternatives" || w2 == "competitors" || w2 == "choices" || w2 == "picks"
	}
	return false
}

// cues accepts the enumerations that follow cue words, and both sides of
// "X vs Y", in unit ui.
func (det *detector) cues(ui int) {
	u := det.d.units[ui]
	toks, spans := det.unitPhrases(ui)
	for si, sp := range spans {
		if !det.cueBefore(toks, sp[0], u) {
			continue
		}
		for _, e := range det.enumeration(toks, spans, si) {
			det.acceptIn(toks, e, u)
		}
		// "X vs Y": the phrase before the cue too.
		if w := det.wordBefore(toks, sp[0]); (w == "vs" || w == "versus") && si > 0 && spans[si-1][1] == sp[0]-1 {
			det.acceptIn(toks, spans[si-1], u)
		}
	}
}

func (det *detector) wordBefore(toks []tok, k int) string {
	if k == 0 {
		return ""
	}
	return strings.ToLower(string(det.d.text[toks[k-1].start:toks[k-1].end]))
}

// enumeration returns the phrases enumerated from spans[si] on: "A, B, and
// C", "A or B", "A/B".
func (det *detector) enumeration(toks []tok, spans [][2]int, si int) [][2]int {
	text := det.d.text
	out := [][2]int{spans[si]}
	for k := si + 1; k < len(spans); k++ {
		prev, cur := spans[k-1], spans[k]
		if toks[prev[1]-1].poss {
			break
		}
		gap := string(text[toks[prev[1]-1].end:toks[cur[0]].start])
		switch gap {
		case ", ", " and ", ", and ", " or ", ", or ", " / ", "/", " & ", ", as well as ", " as well as ", " y ", ", y ", " o ", " et ", " und ":
			out = append(out, cur)
			continue
		}
		break
	}
	return out
}

// acceptIn takes the phrase of token range r of unit u when it names a
// brand: not stop-list words, and not common words at a sentence start.
func (det *detector) acceptIn(toks []tok, r [2]int, u unit) {
	p, ok := det.trimPhrase(toks, r[0], r[1])
	if !ok {
		return
	}
	initial := toks[r[0]].start == u.start // capitals prove nothing there
	stop, generic, tracked := det.classifyPhrase(p)
	if tracked || stop || initial && generic {
		return
	}
	det.accept(p)
}

// coordinated accepts the other items of enumerations in unit ui that
// enumerate a tracked or detected brand.
func (det *detector) coordinated(ui int) {
	u := det.d.units[ui]
	toks, spans := det.unitPhrases(ui)
	for si := 0; si < len(spans); {
		enum := det.enumeration(toks, spans, si)
		if len(enum) >= 2 {
			known := false
			for _, e := range enum {
				p, ok := det.trimPhrase(toks, e[0], e[1])
				if !ok {
					continue
				}
				_, _, tracked := det.classifyPhrase(p)
				if tracked || det.seen[cleanName(string(det.d.text[p.start:p.end]))] {
					known = true
				}
			}
			if known {
				for _, e := range enum {
					det.acceptIn(toks, e, u)
				}
			}
		}
		si += len(enum)
	}
}

// skipOrdinal skips "1. ", "2) " or "#3 " at start.
func skipOrdinal(text []rune, start, end int) int {
	i := start
	if i < end && text[i] == '#' {
		i++
	}
	j := i
	for j < end && j-i < 3 && text[j] >= '0' && text[j] <= '9' {
		j++
	}
	if j == i {
		return start
	}
	if j < end && (text[j] == '.' || text[j] == ')' || text[j] == ':') {
		j++
	}
	if j < end && text[j] == ' ' {
		return j + 1
	}
	return start
}

// skipSeparator returns the position after a separator that ends a lead at
// i (":", " — ", " – ", " - ", " (", ",", ";", " |"), or i when none.
func skipSeparator(text []rune, i, end int) int {
	j := skipSpaces(text, i, end)
	if j >= end {
		return i
	}
	switch text[j] {
	case ':', ',', ';', '—', '–', '|':
		return skipSpaces(text, j+1, end)
	case '(':
		if j > i {
			return j
		}
	case '-':
		if j > i && j+1 < end && text[j+1] == ' ' {
			return skipSpaces(text, j+1, end)
		}
	case '.':
		if j+1 == end || text[j+1] == ' ' {
			return skipSpaces(text, j+1, end)
		}
	}
	return i
}

func skipSpaces(text []rune, i, end int) int {
	for i < end && text[i] == ' ' {
		i++
	}
	return i
}

// trimRight returns end moved left past spaces and the given runes.
func trimRight(text []rune, start, end int, cut string) int {
	for end > start && (text[end-1] == ' ' || strings.ContainsRune(cut, text[end-1])) {
		end--
	}
	return end
}

func indexRunes(hay, needle []rune) int {
	for i := 0; i+len(needle) <= len(hay); i++ {
		if slices.Equal(hay[i:i+len(needle)], needle) {
			return i
		}
	}
	return -1
}

// isCommonWord reports whether w (lower case) is a common English word,
// also in plural, -ing, -ed or -ly form, or a hyphenated compound of such.
func isCommonWord(w string) bool {
	if commonWords[w] || stopNames[w] || properNames[w] {
		return true
	}
	if strings.Contains(w, "-") {
		for p := range strings.SplitSeq(w, "-") {
			if p != "" && !isCommonWord(p) {
				return false
			}
		}
		return true
	}
	if allDigits(w) {
		return true
	}
	for _, suf := range [...]struct{ cut, add string }{
		{"ies", "y"}, {"es", ""}, {"s", ""}, {"ing", ""}, {"ing", "e"}, {"ed", ""}, {"ed", "e"}, {"ied", "y"},
		{"ly", ""}, {"er", ""}, {"ers", ""}, {"ation", "e"}, {"ations", "e"}, {"ment", ""}, {"ness", ""},
	} {
		if base, ok := strings.CutSuffix(w, suf.cut); ok && len(base) >= 3 && commonWords[base+suf.add] {
			return true
		}
	}
	return false
}

// isGenericWord reports whether a word of a name phrase (lw lower-cased)
// is an ordinary word: common, or derived and written as an ordinary word.
func isGenericWord(w, lw string, inPhrase bool) bool {
	if isCommonWord(lw) {
		return true
	}
	if strings.Contains(w, "-") {
		for p := range strings.SplitSeq(w, "-") {
			if p != "" && !isGenericWord(p, strings.ToLower(p), true) {
				return false
			}
		}
		return true
	}
	return isDerivedWord(lw, inPhrase) && w == capitalised(lw)
}

// isDerivedWord reports whether w has the ending of an English abstract
// noun or adjective ("Recognition", "Scalability", "Volcanic", "Presidential"):
// a label, not a name, in a phrase of such words. Alone, only the noun
// endings count ("Notion" is a brand, and a common word).
func isDerivedWord(w string, inPhrase bool) bool {
	if utf8.RuneCountInString(w) < 6 {
		return false
	}
	for _, suf := range []string{"tion", "sion", "ity", "ment", "ness", "ism", "ology", "ship"} {
		if strings.HasSuffix(w, suf) {
			return true
		}
	}
	if !inPhrase {
		return false
	}
	for _, suf := range []string{"ance", "ence", "al", "ic", "ary", "ory", "ive", "ous", "ing", "ed", "ist", "ure", "ics", "ant", "ent", "ful", "less", "able", "ible"} {
		if strings.HasSuffix(w, suf) || strings.HasSuffix(w, suf+"s") {
			return true
		}
	}
	return false
}

// capitalised returns lw with its first letter upper-cased: the spelling of
// an ordinary word at a title's start ("Election"), not a name's ("eBay",
// "HubSpot").
func capitalised(lw string) string {
	r, n := utf8.DecodeRuneInString(lw)
	return string(unicode.ToUpper(r)) + lw[n:]
}

// isStopName reports whether a capitalised word w (lw lower-cased) is never
// a brand by itself: pronouns, months, days, places, generic acronyms.
func isStopName(w, lw string) bool {
	return stopNames[lw] || properNames[lw] || allDigits(lw) || acronyms[w] || acronyms[strings.TrimSuffix(w, "s")]
}

func allDigits(w string) bool {
	if w == "" {
		return false
	}
	for _, r := range w {
		if !unicode.IsDigit(r) && r != '.' && r != ',' && r != '-' {
			return false
		}
	}
	return true
}

func wordSet(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}

// leadingFunctionWords are dropped from the start of a name phrase.
var leadingFunctionWords = wordSet(`the a an like unlike including include includes for with try use using choose
	consider pick both either neither if while although though when whereas and or but also even only just compared
	versus vs between from to in on at by of as via per than about then so because since our my your their its his
	her this that these those some many most all any each every other another such what which who why how where here
	there get go see check visit explore opt prefer prefers meanwhile plus top best`)

// stopNames are capitalised words that are not brands by themselves.
var stopNames = wordSet(`i we you he she it they me us them my our your his her its their this that these those
	the a an and or but if so yes no not ok okay mr mrs ms dr internet web email online`)

// properNames are days, months and places: not brands by themselves, but
// part of names with other words ("Bank of America", "Monday Sales CRM").
var properNames = wordSet(`monday tuesday wednesday thursday friday saturday sunday january february march april may june july august
	september october november december spring summer autumn fall winter
	america americas europe asia africa australia oceania antarctica canada mexico brazil argentina chile peru
	colombia india china japan korea germany france spain italy portugal netherlands belgium switzerland austria
	sweden norway denmark finland poland ireland scotland wales england britain russia ukraine turkey israel
	egypt nigeria kenya singapore indonesia philippines vietnam thailand malaysia pakistan bangladesh
	london paris berlin madrid rome tokyo beijing sydney toronto vancouver chicago boston seattle dubai lima
	miraflores california texas florida york francisco angeles
	north south east west northern southern eastern western central united states kingdom union european
	latin asian african american european global international national regional local black`)

// acronyms are generic abbreviations written in capitals.
var acronyms = wordSet(`AI API CRM ERP SEO SEM SaaS PaaS IaaS B2B B2C D2C DTC SMB SME KPI ROI UI UX FAQ PDF CSV HTML
	CSS SQL JSON XML USD EUR GBP CAD AUD JPY GDPR HIPAA CCPA SOC ISO IT HR PR CEO CTO CFO COO VP LLM ML NLP IoT VPN
	GPS TV PC OS AR VR HD USB RAM SSD CPU GPU PPC CPC CMS LMS ATS POS VoIP SMS MFA SSO SLA DIY NA TBD Q&A US USA UK
	EU UAE NYC LA SF DC ID OK FYI TL;DR TLDR AM PM EST PST GMT UTC CBCT ETA RFP MVP SKU SKUs PhD MBA NGO LLC Inc Ltd
	GmbH DIY APIs FAQs KPIs CRMs LLMs SMBs SMEs`)

// commonWords are common English words: function words, sentence adverbs,
// and the nouns, verbs and adjectives of headings and labels in answers.
var commonWords = wordSet(`
	a about above across after again against all almost along already also although always am among an and
	another any anyone anything anywhere are around as at away back be because been before being below
	between both but by can cannot could did do does doing done down during each either else enough even ever
	every few for from further get gets getting given go goes going got had has have having he her here hers
	herself him himself his how however i if in into is it its itself just last least less let like likely
	many may me might more most much must my near need needs never new next no none nor not now of off often
	on once one only onto or other others our ours out over own per perhaps please quite rather really same
	several she should since so some something sometimes still such than that the their theirs them then there
	these they thing things this those though through thus to too toward towards under until up upon us very
	via was we well were what whatever when where whether which while who whom whose why will with within
	without would yet you your yours
	additionally actually alternatively anyway basically besides briefly certainly clearly consequently
	currently definitely essentially eventually finally firstly fortunately furthermore generally hence
	historically honestly hopefully ideally importantly indeed initially instead interestingly lastly likewise
	meanwhile moreover naturally nevertheless nonetheless notably obviously otherwise overall personally plus
	practically previously primarily realistically recently secondly similarly simply specifically
	subsequently surprisingly thirdly today together typically ultimately unfortunately usually yes ok okay
	one two three four five six seven eight nine ten first second third fourth fifth sixth seventh eighth
	ninth tenth hundred thousand million billion half double single
	access account accuracy action activity ad ads advanced advantage affordability age agency agent agreement
	alternative analysis analytic analytics answer app application approach area article aspect asset
	assistant attention audience automation availability average award background balance bank base basic
	basics benefit bill billing board body bonus book bottom box brand breakdown budget bug business button
	buyer buying call campaign capability capacity card care case category cause caveat center centre
	challenge change channel chart chat check checklist choice city claim class client clinic cloud code
	collaboration collection color colour combination comment commerce community company comparison
	compatibility competition competitor complexity compliance component con concept conclusion condition
	configuration connection consideration contact content context contract control core corner cost country
	coverage credit criteria criterion culture currency customer customization cycle dashboard data database
	date day deal decision default definition delivery demand demo department deployment deposit description
	design desk detail development device difference direction disadvantage discount display distribution
	document domain door drawback drive ease edge edition editor education effect effort element email end
	engine enterprise entry environment error event evidence example exchange experience expert explanation
	extension extra factor family faq feature fee feedback field file filter final finance fit flexibility
	flow focus form format foundation free frequency front fulfillment fulfilment function functionality fund
	future game gap general goal good group growth guarantee guide guidance hand head health help highlight
	history home hospital host hour house hub idea image impact implant implementation improvement income
	industry info information infrastructure input insight installation instance insurance integration
	intelligence interest interface introduction inventory investment issue item job journey key kind
	knowledge label language launch layer lead leader learning lesson level library license licence life
	limit limitation line link list location login look loss machine maintenance majority management manager
	map margin market marketing match material matter measure media medium member memory message method
	metric middle minute mistake mobile mode model moment money month motion name need network news note
	notice number object objective offer offering office operation opinion opportunity option order
	organization organisation origin outcome output overview owner package page pain pair panel parent part
	partner party pass password path pattern payment peace people percent performance period person phase
	phone photo picture piece pipeline place plan plant platform player point policy portal position
	possibility post potential power practice preference premium presence press price pricing principle
	priority privacy pro problem procedure process product production professional profile profit program
	programme progress project promotion proof property proposal protection provider purchase purpose quality
	quantity question quote range rank rate rating reach reader reason recap recommendation record reference
	region registration relation relationship release reliability replacement report reporting request
	requirement research reservation resource response rest result retail return revenue review reward right
	risk role room rule safety sale sales sample savings scale scalability schedule scheme school scope score
	screen search season section sector security segment selection seller sense series server service
	session set setting setup share shipping shop shopping side sign signal site situation size skill
	software solution sound source space speed spend staff stage standard start state statement status step
	stock storage store story strategy stream strength structure student studio style subject subscription
	success suggestion suite summary supplier supply support surface survey system table takeaway talent
	target task tax team technique technology template term test testing text theme thought ticket tier time
	timeline tip title tool top topic total touch track tracking trade traffic training transaction
	transfer treatment trend trial trust truth type unit update upgrade usability usage use user value
	variety vendor verdict version video view visibility vision visitor volume warning warranty way weakness
	web website week weight window word work workflow workspace world year zone
	add allow analyze analyse apply ask assess avoid book build buy calculate call choose click compare
	configure confirm connect consider contact create decide define determine download enable ensure estimate
	evaluate explore find follow gather identify implement improve install keep learn look make manage
	measure monitor negotiate obtain open optimize optimise pay pick plan prepare protect read register
	request review run save schedule secure select sell send set share sign start stay submit switch test
	track train try understand update upgrade use verify visit watch write forward rely sell hold place
	able accurate active additional affordable available bad basic big broad cheap clear common complete
	complex comprehensive custom daily different digital direct easy effective efficient entire essential
	excellent expensive extra fast flexible free full global good great high important large long low main
	major minimal modern monthly multiple native nice notable online open optimal overall personal popular
	possible powerful practical premium primary private professional public quick ready real recent regular
	relevant reliable right robust safe secure short similar simple small smart social solid special specific
	stable standard strong successful suitable third total true typical unique unlimited useful various
	weekly whole wide yearly best better top key quick bottom line why what how who when where which
	pros cons tl dr step bonus honorable honourable mention mentions runner runners up winner overall
	beginner beginners small medium large teams business businesses enterprise startup startups freelancer
	freelancers agency agencies budget value ease setup learning curve customer service customer support
	ability absence academy acceptance accident achievement acquisition act addition address administration
	adoption adult advice affair agenda aid aim air alert alliance amount animal announcement annual appeal
	appearance appointment approval argument arrangement arrival art assessment assignment association
	assumption atmosphere attack attempt attitude authority auto autumn baby bag ball band bar basis battle
	bed beginning behavior behaviour belief bird birth bit blood blow blue boat border boss bottle brain branch
	bread break breath bridge brother building burden cabinet camera camp candidate capital car career cash
	cell chain chair chairman champion championship chance chapter character charge cheap chemical chief child
	children church circle citizen civil claim climate clock club coach coalition coast coat coffee cold
	column combat comfort command commission commitment committee communication concern conference confidence
	conflict congress consequence constitution construction consumer contribution conversation corporation
	council count county couple courage course court cover crash crime crisis critic crowd cup current
	damage danger daughter dead death debate debt decade defense defence degree delay democracy deputy desire
	detection diet dinner disaster discovery discussion disease distance district division doctor dog
	dollar draft drama dream dress drink driver drug duty earth economy edition effect election electricity
	emergency emotion emphasis employee employer energy engineer entrance episode equipment era escape essay
	estate evening examination executive exercise exhibition existence expansion expectation expense
	explosion export exposure expression face fact failure faith fan farm fashion father fear festival figure
	film finding fire firm fish flight floor food foot force forest fortune frame freedom friend fuel fun
	funding gallery garden gas gate gender generation gift girl glass glacier god gold government governor
	grade grant grass ground guard guest gun hair hall handling heart heat height hero highway hill holiday
	hope horse hotel husband ice identity illness impression incident increase independence index individual
	inflation initiative injury inquiry institute institution intention interview invasion island judge
	justice kid king kitchen lab labor labour lady lake land law lawyer leadership league leave leg legislation
	letter liberty light limit list literature loan lot love lunch magazine mail male man manufacturing
	marriage mass master meal meaning meeting mention mind minister ministry mission mix monitor morning mother
	mountain mouth move movement murder museum music nation nature neighbourhood neighborhood night noise
	north nurse occasion offence offense officer official oil operator opposition organisation outlook
	painting paper parliament participation passage patient pay peak peninsula penalty pension percentage
	permission philosophy physics pilot plane plate pleasure pocket poem poet police politics poll pollution
	pool population port possession pound poverty powers pressure prime prince prison prize producer
	professor proportion prospect protest province pub publication publisher quarter queen race radio rain
	ratio reaction reality recession recognition recovery reduction reform refugee regime regulation
	religion renovation rent representative republic reputation resident resolution restaurant retirement
	revolution ring rise river road rock round route row royal ruling rural salary sand satellite scene
	science sea seat secretary seed selection senate senator sentence session settlement shift ship shirt
	shock shoe shot show sight silence sister skin sky smile snow society soil soldier song son soul south
	speaker speech sport square stadium star station steel stone strike studies study sugar sun surgery
	surprise suspect symbol talk tank tea teacher tear technology teeth telephone television temperature
	tension territory terror theatre theater theory threat tour tourism tourist town toy trace tradition
	transport travel treaty tree trial trip troop trouble truck turn uncle understanding union university
	vacation valley vehicle victim victory village violence visit voice vote voter wage walk wall war water
	wave wealth weapon weather wedding welfare west wife wind wine winner woman women wood worker writer youth
	achieve acquire adapt adopt advise afford agree announce appear approve argue arrange attend attract
	become begin believe belong borrow break bring care carry catch cause celebrate clean close collect come
	complain complete concentrate continue contribute control cook cope count cover cross cut deal decline
	deliver demand depend describe design destroy develop die discover discuss divide draw dress drink drive
	drop earn eat elect employ encourage end enjoy enter establish exist expand expect experience explain
	express face fall feed feel fight fill finish fix fly focus forget form gain generate give grow handle
	happen hate hear help hide hire hit hope imagine include increase indicate inform intend introduce invest
	invite involve join jump kill know lack land last laugh lay lead leave lend lie lift limit link listen
	live lose love maintain mark marry matter mean meet mention mind miss move need note notice occur offer
	operate order organise organize own participate pass perform permit plant play point prefer present
	prevent print produce promise promote propose prove provide publish pull purchase push put raise reach
	realise realize receive recognise recognize record reduce reflect refuse regard relate release remain
	remember remove repeat replace reply report represent require respond rest return reveal ride rise
	rule say see seek seem serve settle shake shape shoot show shut sing sit sleep smile solve speak spend
	stand stop store study succeed suffer suggest supply suppose survive take talk teach tell tend thank
	think throw touch travel treat turn vary vote wait walk want warn wash waste wear win wish wonder work
	worry
	academic accessible actual adequate alive alone ancient angry annual anxious apparent appropriate
	automatic aware beautiful bitter blind bold brave brief bright brilliant brown busy calm capable careful
	casual certain cheap chief civil classic close cold comfortable commercial competitive concerned
	confident conscious conservative considerable constant content convenient cool correct creative critical
	crucial cultural curious dangerous dark dead dear decent deep democratic dense dependent desperate
	detailed dirty distinct domestic dominant dry due eager early eastern economic educational elderly
	electric electronic emotional empty enormous environmental equal even evident exact excited existing
	expert explicit external extreme fair faithful false familiar famous fancy favourite favorite federal
	female financial fine firm fit flat foreign formal former fortunate fresh friendly front funny future
	generous gentle genuine giant glad golden grand grateful green grey gray guilty happy hard healthy heavy
	helpful hidden historic historical holy honest hot huge human hungry ideal identical ill illegal
	immediate impossible impressive independent indirect individual industrial inevitable informal initial
	inner innocent intelligent intense interested interesting internal interior inevitable joint junior
	just keen kind latest legal legitimate liberal light likely limited literary live lively living logical
	lonely loose loud lovely lucky male marine married massive mature maximum meaningful mechanical medical
	mental mere middle mild military minimum minor mixed moderate monetary moral narrow nearby neat necessary
	negative nervous neutral normal northern novel numerous obvious occasional odd official old operational
	opposite ordinary organic original outer outstanding parallel parliamentary partial particular passive
	patient peaceful perfect permanent physical plain pleasant polite political poor portable positive
	potential powerful precious precise pregnant presidential pretty previous principal prior probable
	productive profitable progressive prominent proper proud psychological pure radical random rapid rare
	rational raw reasonable red regional relative religious remarkable remote representative resident
	responsible rich rough round royal rural sacred sad scientific senior sensitive separate serious severe
	sexual sharp silent silly slight slow smooth soft sole sophisticated sorry sound southern spare spatial
	spiritual splendid spontaneous square strange strict structural stupid subsequent substantial subtle
	sudden sufficient super superb supreme sure surprising sweet swift technical temporary terrible thick
	thin tight tiny tired tough traditional tremendous tropical ugly ultimate unable uncertain unfair
	unhappy unknown unlikely unusual upper urban urgent usual valuable vast verbal vertical violent virtual
	visible visual vital vocal voluntary vulnerable warm weak wealthy weird welcome western wet white wild
	willing wise wonderful wooden working worried worth wrong young
	latest news breaking developments development activity activities overview results update updates
	geological volcanic eruption eruptions cultural political social environmental economic`)
