package ingest

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
	if !p.common || m.chip {
		return false
	}
	d := e.d
	written := d.text[m.start:m.end]
	if !hasUpper(written) {
		return true
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
		case capitalised(rs) && !isCommonWord(nt.w) && !productWords[nt.w] && !hasDigit(rs) && !acronyms[string(rs)]:
			return true // "Square Enix": part of a longer name
		case weak && !capitalised(rs) && isCommonWord(nt.w) && !functionWords[nt.w] && !predicateVerbs[nt.w]:
			return true // "Target audience", "On balance"
		}
	}
	return false
}

var weekdays = wordSet(`monday tuesday wednesday thursday friday saturday sunday`)

// functionWords join or relate words; after a name they show it is used as
// one ("Square for Restaurants").
var functionWords = wordSet(`for and or of in on with to at by from vs versus than as but nor so if
	which who that while where when`)

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
