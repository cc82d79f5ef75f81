package ingest

import (
	"strings"
	"unicode"
)

// splitSentences appends the sentences of line li to d.units. A sentence
// ends at ".", "!", "?" or "…" followed by a space and an upper-case letter,
// a digit or an opening quote, not after an abbreviation ("e.g.", "U.S.",
// "Mr.") or an initial. A chip after the full stop, "(acme.com)", starts
// with a parenthesis and so stays with the sentence before it.
func (d *doc) splitSentences(li int) {
	l := d.lines[li]
	text := d.text
	from := l.start
	add := func(s, e int) {
		sp := trimSpan(text, s, e)
		if sp.end > sp.start {
			d.units = append(d.units, unit{start: sp.start, end: sp.end, line: li})
		}
	}
	// A chip after a full stop ends the sentence it belongs to:
	// "… popular. (acme.com) Next …".
	chipEnds := map[int]bool{}
	for _, c := range d.chips {
		if c.start > l.start+1 && c.end+1 < l.end && text[c.end] == ')' && text[c.start-1] == '(' {
			k := c.start - 2
			for k > l.start && text[k] == ' ' {
				k--
			}
			if strings.ContainsRune(".!?", text[k]) {
				chipEnds[c.end] = true
			}
		}
	}
	for i := l.start; i < l.end; i++ {
		r := text[i]
		if r == ')' && chipEnds[i] {
			if i+2 < l.end && text[i+1] == ' ' && (unicode.IsUpper(text[i+2]) || unicode.IsDigit(text[i+2])) {
				add(from, i+1)
				from = i + 2
				i++
			}
			continue
		}
		if r != '.' && r != '!' && r != '?' && r != '…' && r != '。' {
			continue
		}
		j := i + 1
		for j < l.end && strings.ContainsRune(".!?…\"'”’)]»", text[j]) {
			j++
		}
		if j >= l.end || text[j] != ' ' || j+1 >= l.end {
			continue
		}
		next := text[j+1]
		if !(unicode.IsUpper(next) || unicode.IsTitle(next) || unicode.IsDigit(next) || strings.ContainsRune("\"'“‘¿¡", next)) {
			continue
		}
		if r == '.' && j == i+1 && isAbbreviation(text, l.start, i) {
			continue
		}
		if r == '.' && allDigits(string(text[l.start:i])) {
			continue // "### 2. Beehiiv": an ordinal, not a sentence
		}
		add(from, j)
		from = j + 1
		i = j
	}
	add(from, l.end)
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
	return abbreviations[w] || initials(text[k:i])
}

// initials reports whether a word is capital letters joined by periods:
// "J.D" of "J.D. Power", "U.S" of "U.S. Bank".
func initials(w []rune) bool {
	if len(w) < 3 {
		return false
	}
	for n, r := range w {
		if n%2 == 0 && !unicode.IsUpper(r) || n%2 == 1 && r != '.' {
			return false
		}
	}
	return len(w)%2 == 1
}

// unitAt returns the sentence holding rune offset pos, -1 outside every one.
func (d *doc) unitAt(pos int) int {
	lo, hi := 0, len(d.units)
	for lo < hi {
		mid := (lo + hi) / 2
		if d.units[mid].end <= pos {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	if lo < len(d.units) && d.units[lo].start <= pos {
		return lo
	}
	// A chip after the last sentence of a line belongs to it.
	if lo > 0 && lo-1 < len(d.units) && d.lineOf(pos) == d.units[lo-1].line {
		return lo - 1
	}
	return -1
}

// lineOf returns the line holding rune offset pos, -1 when none.
func (d *doc) lineOf(pos int) int {
	lo, hi := 0, len(d.lines)
	for lo < hi {
		mid := (lo + hi) / 2
		if d.lines[mid].end < pos {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	if lo < len(d.lines) && d.lines[lo].start <= pos {
		return lo
	}
	return -1
}

// sentence is the plain text of unit ui.
func (d *doc) sentence(ui int) string {
	u := d.units[ui]
	return string(d.text[u.start:u.end])
}
