package oltp

import (
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// NormalizeQueryText is the stored form of a tracked query's text (spec
// 2.3): two texts with the same stored form are one query. It is
// Unicode-aware and idempotent:
//   - each invalid UTF-8 byte becomes U+FFFD and invisible zero-width characters
//     (U+200B, U+2060, U+FEFF) are removed;
//   - the text is decomposed (NFD), lower-cased rune by rune and recomposed
//     (NFC), so canonically equivalent spellings ("é" as one rune or as
//     e + U+0301, "İ" precomposed or not) store alike;
//   - any run of Unicode white space or control characters becomes one
//     space, and leading and trailing ones go;
//   - leading list markers are stripped, repeatedly: a number of 1 to 3
//     digits followed by "." or ")" ("1.", "12)"), or one of - * + • ◦ ▪ ●
//     ‣ · – — standing alone before the text ("- ", "* "). Bullets that are
//     pure list typography (• ◦ ▪ ● ‣) are stripped even when glued to the
//     word. "1.5 litres" and "-20% off" keep their text.
//
// A text made only of markers and white space normalises to "".
func NormalizeQueryText(s string) string {
	fields := queryTextFields(s)
	for len(fields) > 0 {
		first := fields[0]
		if isListMarker(first) {
			fields = fields[1:]
			continue
		}
		if trimmed := strings.TrimLeftFunc(first, isBullet); trimmed != first {
			if trimmed == "" {
				fields = fields[1:]
			} else {
				fields[0] = trimmed
			}
			continue
		}
		break
	}
	return strings.Join(fields, " ")
}

// NormalizeSearchText prepares free search text for a substring match
// against stored query texts: the same case and white-space folding as
// NormalizeQueryText, without stripping list markers.
func NormalizeSearchText(s string) string {
	return strings.Join(queryTextFields(s), " ")
}

// queryTextFields folds s and splits it on white space and control characters.
func queryTextFields(s string) []string {
	// strings.Map also turns each invalid UTF-8 byte into U+FFFD, as JSON
	// decoding does.
	s = strings.Map(func(r rune) rune {
		switch r {
		case '\u200b', '\u2060', '\ufeff':
			return -1
		}
		return r
	}, s)
	s = norm.NFC.String(strings.ToLower(norm.NFD.String(s)))
	return strings.FieldsFunc(s, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) })
}

// isListMarker reports whether a whole field is an enumeration or bullet
// marker: "1." "12)" "-" "*" "+" "•" "·" "–" "—".
func isListMarker(field string) bool {
	switch field {
	case "-", "*", "+", "·", "–", "—":
		return true
	}
	if len(field) < 2 {
		return false
	}
	last := field[len(field)-1]
	if last != '.' && last != ')' {
		return false
	}
	digits := 0
	for _, r := range field[:len(field)-1] {
		if !unicode.IsDigit(r) {
			return false
		}
		digits++
	}
	return digits >= 1 && digits <= 3
}

// isBullet reports whether r is a bullet that never belongs to a keyword.
func isBullet(r rune) bool {
	switch r {
	case '•', '◦', '▪', '●', '‣':
		return true
	}
	return false
}
