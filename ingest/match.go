package ingest

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Matching the project's configured names and domains.
//
// Text and names are compared in a folded form with one rune per rune, so
// offsets carry over: case folded, diacritics dropped (Nestlé = Nestle),
// curly apostrophes straight. "&" and "and" match each other between
// words ("Ben & Jerry's" = "Ben and Jerry's"). A match never starts or ends
// inside a word ("Ford" not in "affordable", "BP" not in "BPme"), but may
// be followed by a plural "s" or a possessive ("Fords", "Salesforce's",
// "Adidas'"). Where names overlap, the longest match at the leftmost
// position wins. A domain matches as written, also inside a longer host
// ("blog.acme.com"), never in "notacme.com" or "acme.com.au".
//
// A name that is also an ordinary word or a weekday (Target, Gap, Close,
// Friday, On) needs its use to show the brand: see ordinaryUse.

// foldRune maps r to its matching form: lower case, without diacritics,
// ’ and ‘ as '.
func foldRune(r rune) rune {
	if r < utf8.RuneSelf {
		if r >= 'A' && r <= 'Z' {
			return r + 'a' - 'A'
		}
		return r
	}
	switch r {
	case '’', '‘', 'ʼ':
		return '\''
	case 'ß':
		return 's'
	}
	r = unicode.ToLower(r)
	if d := norm.NFD.String(string(r)); len(d) > 1 {
		base, size := utf8.DecodeRuneInString(d)
		if base < utf8.RuneSelf && isMarks(d[size:]) {
			return base
		}
	}
	return r
}

func isMarks(s string) bool {
	for _, r := range s {
		if !unicode.Is(unicode.Mn, r) {
			return false
		}
	}
	return true
}

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
	domain bool
	brand  int
	common bool // made of ordinary words: its use must show the brand
	upper  bool // written with a capital: an all-lower-case use is the word
}

type match struct {
	start, end int // runes
	brand      int
	pattern    int
	chip       bool // inside a citation chip
}

// matcher finds the leftmost-longest, non-overlapping occurrences of its
// patterns.
type matcher struct {
	patterns []pattern
	byFirst  map[rune][]int // pattern indices by first folded rune, longest first
	keys     map[string]bool
}

// cleanName normalises a configured name: NFC, trimmed, inner white space
// collapsed, trademark signs dropped. "" for names without a letter or digit.
func cleanName(s string) string {
	s = strings.NewReplacer("™", "", "®", "", "℠", "").Replace(s)
	s = strings.Join(strings.Fields(norm.NFC.String(s)), " ")
	if strings.IndexFunc(s, isWordRune) < 0 {
		return ""
	}
	return s
}

// add adds a configured name (or a domain) of brand, with its "&"/"and"
// spelling.
func (m *matcher) add(name string, brand int, domain bool) {
	if name == "" {
		return
	}
	m.addPattern(name, brand, domain)
	if !domain && strings.ContainsAny(name, "'’") {
		// "De'Longhi" is also written "DeLonghi".
		m.addPattern(strings.NewReplacer("'", "", "’", "").Replace(name), brand, false)
	}
	if !domain {
		switch {
		case strings.Contains(name, " & "):
			m.addPattern(strings.ReplaceAll(name, " & ", " and "), brand, false)
		case strings.Contains(strings.ToLower(name), " and "):
			m.addPattern(replaceFold(name, " and ", " & "), brand, false)
		}
	}
}

func replaceFold(s, old, repl string) string {
	i := strings.Index(strings.ToLower(s), old)
	if i < 0 {
		return s
	}
	return s[:i] + repl + s[i+len(old):]
}

func (m *matcher) addPattern(name string, brand int, domain bool) {
	rs := []rune(name)
	p := pattern{folded: foldRunes(rs), domain: domain, brand: brand}
	if !domain {
		p.common, p.upper = isOrdinaryName(rs), hasUpper(rs)
	}
	key := string(p.folded)
	if domain {
		key += "\x00domain"
	}
	if m.keys[key] {
		return // the first brand to claim a name keeps it
	}
	if m.keys == nil {
		m.keys, m.byFirst = map[string]bool{}, map[rune][]int{}
	}
	m.keys[key] = true
	m.patterns = append(m.patterns, p)
	first := p.folded[0]
	l := append(m.byFirst[first], len(m.patterns)-1)
	slices.SortStableFunc(l, func(a, b int) int { return len(m.patterns[b].folded) - len(m.patterns[a].folded) })
	m.byFirst[first] = l
}

// isOrdinaryName reports whether every word of a name is an ordinary word,
// a weekday or an acronym ("Close", "Less Annoying CRM", "Friday", "On").
func isOrdinaryName(rs []rune) bool {
	words := 0
	for _, t := range tokenize(rs, 0, len(rs)) {
		if t.punct {
			continue
		}
		words++
		if !dictionaryWord(t.w) && !acronyms[string(rs[t.start:t.end])] {
			return false
		}
	}
	return words > 0
}

// dictionaryWord reports whether a configured name's word is an ordinary
// word or its plural; looser derivations ("Weber" from "web") would make
// surnames and coined names ordinary.
func dictionaryWord(w string) bool {
	if plainWordNames[w] {
		return true
	}
	if !isCommonWord(w) {
		return false
	}
	if commonWords[w] || stopNames[w] || properNames[w] || allDigits(w) || strings.Contains(w, "-") {
		return true
	}
	for _, suf := range [...]struct{ cut, add string }{{"ies", "y"}, {"es", ""}, {"s", ""}} {
		if base, ok := strings.CutSuffix(w, suf.cut); ok && commonWords[base+suf.add] {
			return true
		}
	}
	return false
}

// find returns the matches in text (fold is foldRunes(text)), in order.
func (m *matcher) find(text, fold []rune) []match {
	var out []match
	for i := 0; i < len(fold); {
		best := -1
		for _, pi := range m.byFirst[fold[i]] {
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
	wordish := func(k int) bool { return k >= 0 && k < len(text) && (isWordRune(text[k]) || text[k] == '-') }
	if p.domain {
		return !wordish(i-1) && !wordish(j) && !(j+1 < len(text) && text[j] == '.' && isWordRune(text[j+1]))
	}
	if isWordRune(p.folded[0]) && i > 0 && isWordRune(text[i-1]) {
		return false
	}
	if last := p.folded[len(p.folded)-1]; isWordRune(last) && j < len(text) && isWordRune(text[j]) {
		// A plural: "Fords", "Gaps"; not "gapped".
		if !(unicode.IsLetter(last) && (fold[j] == 's' && !wordish(j+1) || fold[j] == 'e' && j+1 < len(fold) && fold[j+1] == 's' && !wordish(j+2))) {
			return false
		}
	}
	return true
}
