package ingest

import (
	_ "embed"
	"strings"
)

// Well-known brands.
//
// The syntactic cues of recogniseUntracked find a brand where answers put
// brands (list leads, "such as", subjects), but prose names many in
// passing: "sold at Home Depot", "if you already pay for Datadog", "bei
// Decathlon". knownbrands.txt lists brands that answers about products and
// services commonly name, written from general knowledge of those markets
// (never from labelled answers), so that such a name counts without a cue
// and keeps its whole form ("Pottery Barn", not "Pottery"; "Trader Joe's").
// The list names companies and brands of their own, never a product line
// known by its maker's name (productMakers gives those their maker). A
// brand that is also an ordinary word ("Target", "Ramp") still needs a cue
// (knownInProse).

//go:embed knownbrands.txt
var knownBrandsText string

// knownBrands maps the folded names of knownbrands.txt to the names as
// the list writes them.
var knownBrands = loadKnownBrands(knownBrandsText)

func loadKnownBrands(text string) map[string]string {
	known := map[string]string{}
	for line := range strings.Lines(text) {
		if name := strings.TrimSpace(line); name != "" && !strings.HasPrefix(name, "#") {
			known[knownKey([]rune(name))] = name
		}
	}
	return known
}

// isKnown reports whether text names a well-known brand: written in
// capitals, only a name the list writes in capitals ("ZIP code" is no Zip).
func isKnown(text []rune) bool {
	name, ok := knownBrands[knownKey(text)]
	return ok && (!allCapitals(text) || allCapitals([]rune(name)))
}

// knownKey folds a name as configured names are matched (case, diacritics,
// apostrophes) with runs of spaces made one.
func knownKey(rs []rune) string {
	return strings.Join(strings.Fields(string(foldRunes(rs))), " ")
}

// knownEnd returns the end of the longest well-known brand name that the
// tokens toks[from:to] open, or from when they open none ("Ally Bank", not
// "Ally"; "Google Workspace" is not listed, so Google's); possessive says
// whether the name takes the "'s" after its last token ("Trader Joe's").
func (e *extraction) knownEnd(toks []token, from, to int) (end int, possessive bool) {
	start := toks[from].start
	for k := to; k > from; k-- {
		if toks[k-1].poss && isKnown(e.d.text[start:possessiveEnd(e.d.text, toks[k-1].end)]) {
			return k, true
		}
		if isKnown(e.d.text[start:toks[k-1].end]) {
			return k, false
		}
	}
	return from, false
}
