package ingest

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// token is a word or a punctuation rune of the answer's plain text: one
// tokeniser serves brand recognition and classification.
//
// A word is a run of letters, digits and marks joined by inner ".", "-",
// "'", "’", "&", "+", "*" or "_" ("monday.com", "Tuft", "De’Longhi", "AT&T",
// "Wi-Fi", "E*TRADE"); a trailing possessive ("'s", "’s", "'") is cut off and
// remembered. Anything else that is not a space is a punctuation token of
// one rune.
type token struct {
	start, end int    // runes of the text
	w          string // lower case, ’ written as '
	punct      bool
	poss       bool // a possessive followed the word
}

// tokenize returns the tokens of text[start:end].
func tokenize(text []rune, start, end int) []token {
	out := make([]token, 0, (end-start)/5+1)
	for i := start; i < end; {
		r := text[i]
		switch {
		case unicode.IsSpace(r):
			i++
		case isWordRune(r):
			j := i + 1
			for j < end {
				if isWordRune(text[j]) {
					j++
					continue
				}
				if strings.ContainsRune(".-'’&+*_", text[j]) && j+1 < end && isWordRune(text[j+1]) {
					j += 2
					continue
				}
				if text[j] == ',' && j+1 < end && unicode.IsDigit(text[j-1]) && unicode.IsDigit(text[j+1]) {
					j += 2 // "3,000"
					continue
				}
				break
			}
			if j < end && text[j] == '.' && initials(text[i:j]) {
				j++ // "U.S. Bank": initials keep their last period
			}
			t := token{start: i, end: j}
			if j-i > 2 && (text[j-2] == '\'' || text[j-2] == '’') && (text[j-1] == 's' || text[j-1] == 'S') {
				t.end, t.poss = j-2, true
			} else if j < end && (text[j] == '\'' || text[j] == '’') && (j+1 == end || !isWordRune(text[j+1])) {
				t.poss = true // "Adidas' Ultraboost"
				j++
			}
			t.w = lowerWord(text[t.start:t.end])
			out = append(out, t)
			i = j
		default:
			out = append(out, token{start: i, end: i + 1, w: string(r), punct: true})
			i++
		}
	}
	return out
}

func lowerWord(rs []rune) string {
	var b strings.Builder
	b.Grow(len(rs))
	for _, r := range rs {
		if r == '’' {
			r = '\''
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}

// isWordRune reports whether r belongs inside a word: a letter, a digit, a
// combining mark (so "Cafe" does not match inside a decomposed "Café") or an
// underscore (identifiers such as acme_id are one word).
func isWordRune(r rune) bool {
	if r < utf8.RuneSelf {
		return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_'
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r)
}

// capitalised reports whether a word starts with an upper-case letter.
func capitalised(rs []rune) bool {
	return len(rs) > 0 && (unicode.IsUpper(rs[0]) || unicode.IsTitle(rs[0]))
}

// mixedCase reports whether a word has an upper-case letter after its first
// rune ("iPhone", "HubSpot", "eBay").
func mixedCase(rs []rune) bool {
	for _, r := range rs[1:] {
		if unicode.IsUpper(r) {
			return true
		}
	}
	return false
}

// camelCase reports whether a word mixes cases past its first rune
// ("SpinWave", "MacBook"), unlike an acronym ("HQ").
func camelCase(rs []rune) bool {
	lower, upper := false, false
	for i := 1; i < len(rs); i++ {
		r := rs[i]
		lower = lower || unicode.IsLower(r)
		upper = upper || unicode.IsUpper(r) && rs[i-1] != '-' // "Object-Oriented" is two words
	}
	return lower && upper
}

func hasDigit(rs []rune) bool {
	for _, r := range rs {
		if unicode.IsDigit(r) {
			return true
		}
	}
	return false
}

// modelNumber reports whether a word numbers a model: it holds a digit or
// is a Roman numeral of two letters or more ("Cloud III", "Xperia 1 VI").
func modelNumber(rs []rune) bool {
	if hasDigit(rs) {
		return true
	}
	if len(rs) < 2 {
		return false
	}
	for _, r := range rs {
		if r != 'I' && r != 'V' && r != 'X' {
			return false
		}
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

// isCommonWord reports whether w (lower case) is a common English word,
// also in plural, -ing, -ed or -ly form, or a hyphenated compound of such.
func isCommonWord(w string) bool {
	if commonWords[w] || stopNames[w] || properNames[w] || foreignOrdinaryWords[w] {
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
