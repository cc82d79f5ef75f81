package ingest

import (
	"strings"
	"unicode/utf8"
)

// ordinaryUse reports whether the match of a configured name made of
// ordinary words is the word, not the brand: written all in lower case
// ("the target audience", "mind the gap"), a weekday as a day ("by Friday",
// "Friday afternoon", "Black Friday"), the first word of a sentence or
// after an article followed by a noun it qualifies ("Target audience",
// "On balance"), or the start of a longer name ("Square Enix").
// Capitalisation alone decides nothing at a sentence start, in a heading or
// in bold; a verb, punctuation or a preposition after the name shows the
// brand ("Close is", "Gap and Old Navy", "Square for Restaurants").
func (e *extraction) ordinaryUse(m match) bool {
	p := e.m.patterns[m.pattern]
	if p.domain || m.chip {
		return false
	}
	d := e.d
	if written := d.text[m.start:m.end]; !hasUpper(written) && p.upper {
		return true // "a loan shark", "the target audience"
	}
	if !p.common {
		return e.imperative(m)
	}
	if written := d.text[m.start:m.end]; len(written) >= 3 && strings.ToUpper(string(written)) == string(written) && !acronyms[string(written)] {
		return false // "KEEN Targhee": a word in capitals is set apart as a name
	}
	if written := d.text[m.start:m.end]; strings.ContainsRune(string(written), ' ') && allCapitalised(written) {
		return false // "Capital One Venture": a name of several capitalised words
	}
	for _, b := range d.bold {
		if b.start == m.start && b.end == m.end {
			return false // "**Ring**": set apart as a name
		}
	}
	ui := d.unitAt(m.start)
	if ui < 0 {
		return false
	}
	toks := e.tokens(ui)
	k := tokenAt(toks, m.start)
	if k < 0 {
		return false
	}
	last := k
	for last+1 < len(toks) && toks[last+1].start < m.end {
		last++
	}
	prev, next := word(toks, k-1), word(toks, last+1)
	if weekdays[string(p.folded)] && (weekdayBefore[prev] || weekdayAfter[next]) {
		return true
	}
	if toks[last].poss {
		return false
	}
	weak := k == firstWord(toks) || prev == "the" || prev == "a" || prev == "an"
	if last+1 < len(toks) {
		nt := toks[last+1]
		rs := d.text[nt.start:nt.end]
		switch {
		case nt.punct:
		case capitalised(rs) && e.writtenLower(m.start, nt.end):
			return true // "## Target Audience" where the answer also writes "target audience"
		case hasDigit(rs) || modelFollows(d.text, toks[last+1:]):
			// "Things 3", "Brooks Adrenaline GTS 24": a product of the brand.
		case capitalised(rs) && !isCommonWord(nt.w) && !productWords[nt.w] && !acronyms[string(rs)] && !e.leadsLine(m.start) && prev != "vs" && prev != "versus" &&
			prev != "the" && !capitalisedRun(d.text, toks[last+1:]) && !e.leadsLineElsewhere(d.text[m.start:nt.end]):
			// "Square Enix": part of a longer name; a list lead, "the" or a
			// run of capitalised words ("the Ring Stick Up Cam") names the
			// brand's product.
			return true
		case weak && !capitalised(rs) && isCommonWord(nt.w) && !functionWords[nt.w] && !predicateVerbs[nt.w] &&
			!(strings.HasSuffix(nt.w, "ed") && len(nt.w) > 4) && // "Ring settled with …"
			!companyNoun(nt.w) && !verbBeforeObject(toks, last+1):
			return true // "Target audience", "On balance"
		}
	}
	return false
}

// companyNoun reports whether w, or its singular, is one of companyNouns.
func companyNoun(w string) bool {
	if companyNouns[w] {
		return true
	}
	for _, suf := range [...]struct{ cut, add string }{{"ies", "y"}, {"es", ""}, {"s", ""}} {
		if base, ok := strings.CutSuffix(w, suf.cut); ok && companyNouns[base+suf.add] {
			return true
		}
	}
	return false
}

// verbBeforeObject reports whether token i is a present-tense verb taking
// an object: a word in -s whose stem is a word, before an article or a
// determiner ("carries a", "stocks more").
func verbBeforeObject(toks []token, i int) bool {
	w := toks[i].w
	if !strings.HasSuffix(w, "s") || strings.HasSuffix(w, "ss") || !objectStarts[word(toks, i+1)] {
		return false
	}
	for _, suf := range [...]struct{ cut, add string }{{"ies", "y"}, {"es", ""}, {"s", ""}} {
		if base, ok := strings.CutSuffix(w, suf.cut); ok && commonWords[base+suf.add] {
			return true
		}
	}
	return false
}

// writtenLower reports whether the answer also writes text[start:end] all
// in lower case, as a phrase of its own: then a title-cased "Square
// Footage" is that phrase, not the brand's product.
func (e *extraction) writtenLower(start, end int) bool {
	return wordAt(string(e.d.text), strings.ToLower(string(e.d.text[start:end])))
}

// allCapitalised reports whether every word of a written name starts with
// a capital.
func allCapitalised(rs []rune) bool {
	for _, t := range tokenize(rs, 0, len(rs)) {
		if !t.punct && !capitalised(rs[t.start:t.end]) {
			return false
		}
	}
	return true
}

// imperative reports whether a configured name opens its sentence as a
// verb on the reader's things: "Embrace your pet's needs", "Fetch your
// order".
func (e *extraction) imperative(m match) bool {
	ui := e.d.unitAt(m.start)
	if ui < 0 || e.inBold(m.start) {
		return false
	}
	toks := e.tokens(ui)
	k := tokenAt(toks, m.start)
	if k < 0 || k != firstWord(toks) || toks[k].end != m.end || toks[k].poss {
		return false
	}
	switch word(toks, k+1) {
	case "your", "my", "our", "their", "yourself":
		return true
	}
	return false
}

// capitalisedRun reports whether toks open with two or more capitalised
// words: a product line's name rather than a second word of a company's.
func capitalisedRun(text []rune, toks []token) bool {
	return len(toks) >= 2 && !toks[0].punct && !toks[1].punct &&
		capitalised(text[toks[0].start:toks[0].end]) && capitalised(text[toks[1].start:toks[1].end])
}

// modelFollows reports whether a model number ends the capitalised words
// at the start of toks ("Adrenaline GTS 24").
func modelFollows(text []rune, toks []token) bool {
	for i, t := range toks {
		if i >= 4 || t.punct {
			return false
		}
		rs := text[t.start:t.end]
		if hasDigit(rs) {
			return true
		}
		if !capitalised(rs) {
			return false
		}
	}
	return false
}

// leadsLineElsewhere reports whether the answer leads a line with the
// words name too: "SimpliSafe and Ring Alarm are" beside "**Ring Alarm:**"
// names the brand's product, not another "Square Enix".
func (e *extraction) leadsLineElsewhere(name []rune) bool {
	text := string(e.d.text)
	n := string(name)
	for i := 0; ; {
		j := strings.Index(text[i:], n)
		if j < 0 {
			return false
		}
		i += j
		if e.leadsLine(utf8.RuneCountInString(text[:i])) {
			return true
		}
		i += len(n)
	}
}

// leadsLine reports whether pos starts a list item, heading, table cell or
// a bold span at the start of a line.
func (e *extraction) leadsLine(pos int) bool {
	li := e.d.lineOf(pos)
	if li < 0 {
		return false
	}
	l := e.d.lines[li]
	toks := tokenize(e.d.text, l.start, min(l.end, pos+1))
	lead := firstWord(toks)
	return lead >= 0 && toks[lead].start == pos && (l.kind != lineParagraph || l.boldLead)
}

// tokenAt returns the token starting at or covering rune offset pos.
func tokenAt(toks []token, pos int) int {
	for i, t := range toks {
		if t.end > pos {
			if t.start <= pos+1 {
				return i
			}
			return -1
		}
	}
	return -1
}

// firstWord is the first word token of a sentence, past list ordinals.
func firstWord(toks []token) int {
	for i, t := range toks {
		if !t.punct && !allDigits(t.w) {
			return i
		}
	}
	return -1
}

func word(toks []token, i int) string {
	if i < 0 || i >= len(toks) || toks[i].punct {
		return ""
	}
	return toks[i].w
}
