package ingest

import (
	"strings"
	"unicode"

	"github.com/sightline/sightline"
)

// Classification: type, tone and qualifier of a brand from its first
// mention only: the sentence holding it (a list item, heading or table row
// is never joined to the next line). Cue words are English; a few of other
// languages carry tone. See extraction-rules.md for the rules; in short:
//
//   - type, the first that fits: recommendation (the sentence advises
//     choosing it: "best", "top pick", "I'd recommend", "go with", "a great
//     choice", "worth a look", reported ones too), comparison (weighed
//     against another brand: "than", "vs", "compared to", "similar", a
//     comparative when another brand is named), example ("such as",
//     "like", "including"), listing (a list item, table row or header,
//     option heading, bold-led paragraph or an enumeration of options),
//     else reference;
//   - tone: the stance of the brand's clauses; in "A, but B" the clause
//     after "but" decides, in "A, though B" the main clause; a list item or
//     option line without evaluative words takes the stance of an endorsing
//     lead-in; table rows are neutral; a recommendation is positive unless
//     it says otherwise;
//   - qualifier: conditional when the claim is restricted to a reader
//     situation ("if", "unless", "when you", "depending on", "for teams
//     that…", "best for X").

type classification struct {
	typ       sightline.MentionType
	tone      sightline.Tone
	qualifier sightline.Qualifier
	uncertain bool // the tone came from the lead-in
}

// sentenceView is a sentence with its clauses and brand tokens.
type sentenceView struct {
	unit    int
	toks    []token
	clause  []int  // clause of each token
	kind    []byte // per clause: 'b' after but/yet/however, 't' after though/although, 'w' after while/whereas, 0 otherwise
	brandAt []int  // brand whose match starts at a token, -1 otherwise
	inName  []bool // the token is a word of a brand's name
}

func (e *extraction) view(ui int) *sentenceView {
	if v, ok := e.views[ui]; ok {
		return v
	}
	toks := e.tokens(ui)
	v := &sentenceView{unit: ui, toks: toks, clause: make([]int, len(toks)), brandAt: make([]int, len(toks)),
		inName: make([]bool, len(toks)), kind: []byte{0}}
	for i := range v.brandAt {
		v.brandAt[i] = -1
	}
	u := e.d.units[ui]
	for _, m := range e.all {
		if m.start >= u.start && m.start < u.end {
			if k := tokenAt(toks, m.start); k >= 0 {
				v.brandAt[k] = m.brand
				for j := k; j < len(toks) && toks[j].start < m.end; j++ {
					v.inName[j] = true
				}
			}
		}
	}
	c := 0
	for i, t := range toks {
		kind := byte(0)
		boundary := false
		switch {
		case t.punct && strings.Contains(",;:()—–", t.w):
			boundary = t.w != "," || !v.enumerationComma(i) && !adjectiveComma(toks, i)
			if (t.w == "–" || t.w == "—") && numberRange(toks, i) {
				boundary = false // "2017–2018 models": a range, not a break
			}
		case t.punct && t.w == "-" && i > 0 && toks[i-1].end < t.start:
			boundary = true
		case t.punct && t.w == "." && i+1 < len(toks) && unicode.IsLower(e.d.text[toks[i+1].start]) && mixedCase(e.d.text[toks[i+1].start:toks[i+1].end]):
			// "… plus élevés. easyJet propose …": a sentence the rules join
			// to the next as it opens with a lower-case name still says
			// nothing of the one before.
			boundary = true
		case !t.punct && i > 0:
			kind = clauseKind(t.w)
			if thoughPairs[t.w+" "+word(toks, i+1)] {
				kind = 't' // "anche se", "auch wenn", "même si": though
			}
			if t.w == "mais" && toks[i-1].w != "," && !frenchClauseOpeners[word(toks, i+1)] {
				kind = 0 // Portuguese "mais" is "more"; French "mais" follows a comma or opens a clause ("mais avec")
			}
			boundary = kind != 0
		}
		if boundary {
			if kind == 0 && i+1 < len(toks) {
				kind = clauseKind(toks[i+1].w)
			}
			if kind == 0 && t.w == "," && v.kind[c] == 'b' {
				kind = 'b' // "but a subtle, sometimes faint taste": the comma goes on with the "but" clause
			}
			c++
			v.kind = append(v.kind, kind)
		}
		v.clause[i] = c
	}
	e.views[ui] = v
	return v
}

// numberRange reports whether the dash at i joins two numbers with no
// space: "2017–2018", "3–5 days".
func numberRange(toks []token, i int) bool {
	return i > 0 && i+1 < len(toks) && toks[i-1].end == toks[i].start && toks[i+1].start == toks[i].end &&
		allDigits(toks[i-1].w) && allDigits(toks[i+1].w)
}

// adjectiveComma reports whether the comma at i separates two adjectives
// of one noun phrase: "the reliable, low-cost choice".
func adjectiveComma(toks []token, i int) bool {
	switch word(toks, i-2) {
	case "a", "an", "the":
	default:
		return false
	}
	prev, next := word(toks, i-1), word(toks, i+1)
	if prev == "" || next == "" || functionWords[next] || articles[next] || clauseKind(next) != 0 {
		return false
	}
	// The phrase ends in a noun after the second adjective, before any
	// other punctuation: "the reliable, low-cost choice for …".
	return optionNouns[word(toks, i+2)] || optionNouns[word(toks, i+3)]
}

// clauseKind is the kind of clause a word opens: 'b' after but, 't' after
// though, 'w' after while, 0 for any other word.
func clauseKind(w string) byte {
	switch {
	case butWords[w]:
		return 'b'
	case thoughWords[w]:
		return 't'
	case w == "while" || w == "whereas":
		return 'w'
	}
	return 0
}

// enumerationComma reports whether the comma at i separates brands of an
// enumeration ("A, B and C"): a brand on each side.
func (v *sentenceView) enumerationComma(i int) bool {
	before := false
	// The words of a name do not count, and its "&" goes on with it:
	// "Trail & Tarmac, PimGrid and Zenova".
	// A model's "+" goes on with its name too: "eero 6+, TP-Link Deco".
	for k, n := i-1, 0; k >= 0 && (v.inName[k] || n < 4 && (!v.toks[k].punct || v.toks[k].w == "+")); k-- {
		if v.brandAt[k] >= 0 {
			before = true
			break
		}
		if !v.inName[k] {
			n++
		}
	}
	j := i + 1
	joined := false
	if andWords[word(v.toks, j)] {
		j++
		joined = true
	}
	if !before || j >= len(v.toks) || v.brandAt[j] < 0 {
		return false
	}
	if joined {
		return true // "A, and B"
	}
	// "A, B and C", "A, B, C": the enumeration goes on after B.
	for k := j + 1; k < len(v.toks) && k-j <= 5; k++ {
		switch v.toks[k].w {
		case ",", "&":
			return true
		}
		if andWords[v.toks[k].w] {
			return true
		}
		if v.toks[k].punct {
			return false
		}
	}
	return false
}

// classify decides a brand's type, tone and qualifier from its first match.
func (e *extraction) classify(m match) classification {
	out := classification{typ: sightline.MentionReference, tone: sightline.ToneNeutral, qualifier: sightline.QualifierDirect}
	ui := e.d.unitAt(m.start)
	if ui < 0 || m.chip {
		return out
	}
	v := e.view(ui)
	k := tokenAt(v.toks, m.start)
	if k < 0 {
		return out
	}
	l := e.d.lines[e.d.units[ui].line]
	out.typ = e.mentionType(ui, v, k, m.brand)
	if e.conditional(v, k) {
		out.qualifier = sightline.QualifierConditional
	}
	tone := 0
	if l.kind != lineRow && l.kind != lineHeader {
		lead := e.optionLine(ui, k)
		tone = e.tone(v, k, lead)
		if tone == 0 && lead {
			tone = e.leadInTone(l)
			out.uncertain = tone != 0
		}
		if tone == 0 && out.typ == sightline.MentionRecommendation {
			tone = 1
		}
	}
	switch {
	case tone > 0:
		out.tone = sightline.TonePositive
	case tone < 0:
		out.tone = sightline.ToneNegative
	}
	return out
}

func (e *extraction) mentionType(ui int, v *sentenceView, k, brand int) sightline.MentionType {
	// The sentence may advise the brand where it names it again: "If you
	// drive a Tesla, the Tesla Universal Wall Connector is the one to get";
	// not where it names what the reader uses ("if you use Stripe online").
	for i := k; i < len(v.toks); i++ {
		if (i == k || v.brandAt[i] == brand && !v.afterCondition(i)) && e.recommends(v, i) {
			return sightline.MentionRecommendation
		}
	}
	// The sentence may weigh the brand where it names it again: "Gap and
	// Old Navy share a parent; Old Navy is cheaper, while Gap …".
	for i := k; i < len(v.toks); i++ {
		if (i == k || v.brandAt[i] == brand) && e.compares(ui, v, i, brand) {
			return sightline.MentionComparison
		}
	}
	if e.exampleCue(v, k) || v.exampleAside(k) {
		return sightline.MentionExample
	}
	if e.optionLine(ui, k) || e.enumerated(v, k) {
		return sightline.MentionListing
	}
	return sightline.MentionReference
}

// afterCondition reports whether an "if" or "unless" opens the part of
// token i's clause before it: "the cheapest option if you use Zoho's apps".
func (v *sentenceView) afterCondition(i int) bool {
	for j := i - 1; j >= 0 && v.clause[j] == v.clause[i]; j-- {
		if conditionWords[v.toks[j].w] {
			return true
		}
	}
	return false
}

// optionLine reports whether the brand at token k leads a list item, a
// table row or header, a heading or a paragraph opening in bold.
func (e *extraction) optionLine(ui, k int) bool {
	d := e.d
	u := d.units[ui]
	l := d.lines[u.line]
	switch {
	case l.kind == lineRow || l.kind == lineHeader:
		return true
	case u.start != l.start:
		return false
	case l.kind == lineHeading:
		return true
	case l.kind == lineItem && l.first, l.boldLead:
		toks := e.tokens(ui)
		lead := firstWord(toks)
		if k <= lead+1 {
			return true
		}
		// "iPhone 16 Pro (Apple):", "Galaxy S25 Ultra (Samsung):"
		for i := lead; i < k; i++ {
			if toks[i].punct && (toks[i].w == ":" || toks[i].w == "–" || toks[i].w == "—" || toks[i].w == ".") && !numberRange(toks, i) {
				// "Smart home: Vivint has …": a short label, then the option.
				return toks[i].w == ":" && k == i+1 && i-lead <= 4 && l.kind == lineItem
			}
		}
		return k-lead <= 6
	}
	return false
}

// recommends reports whether a recommendation cue applies to the brand at k.
func (e *extraction) recommends(v *sentenceView, k int) bool {
	toks := v.toks
	c := v.clause[k]
	brand := v.brandAt[k]
	opener := word(toks, firstInClause(v, c))
	andClause := v.kind[c] == 0 && (opener == "and" || opener == "or") // the brand's clause opens with "and" or "or"
	applies := func(i int) bool {
		ci := v.clause[i]
		switch {
		case ci == c:
			return true
		case ci < c && andClause:
			// "I'd recommend A if …, and B only if …", but not "A is the
			// budget choice, and B …": there the advice is A's alone.
			return v.clauseHasBrand(ci) && !v.subjectBefore(i)
		case ci < c && !v.clauseHasBrand(ci):
			// "For a budget pick, the TCL QM7 is ..."
			for j := ci + 1; j < c; j++ {
				if v.clauseHasBrand(j) {
					return false
				}
			}
			return v.kind[c] == 0
		case ci == c+2 && v.appositive(k, c+1):
			return true // "Friday Apparel, a smaller label, is worth a look"
		case ci > c && c == v.clause[firstBrandOf(v, brand)] && describesSubject(toks, firstInClause(v, ci)):
			// "A is similar in price, …, which makes it a good choice", "…,
			// which makes it a better choice than B": a brand after the cue
			// is what A is weighed against.
			for j := c + 1; j < ci; j++ {
				if v.clauseHasBrandOtherThan(j, brand, k) {
					return false
				}
			}
			return !v.brandBetween(firstInClause(v, ci)-1, i, brand)
		}
		return false
	}
	lead := e.optionLine(v.unit, k)
	for i := range toks {
		if !v.inName[i] && recommendationCue(toks, i) && (applies(i) || lead && !v.clauseHasBrandOtherThan(v.clause[i], brand, k)) {
			return true
		}
	}
	// "the most common picks are A and B": every brand the picks name.
	if j := v.enumerationStart(k); j > 1 && copulas[word(toks, j-1)] && pickNouns[word(toks, j-2)] && !negated(toks, j-1) {
		return true
	}
	// A verb of choice right before the brand: "pick Uniqlo", "Use Wise",
	// "go with On", "consider Gusto", "regardez aussi MOO".
	for i := k - 1; i >= 0 && k-i <= 2; i-- {
		switch word(toks, i) {
		case "pick", "picks", "choose", "chooses", "use", "consider", "try", "get", "opt", "prefer",
			"regardez", "mira", "guarda", "bekijk", "confira":
			return !negated(toks, i) && (i == firstWord(toks) || word(toks, i-1) != "to" || word(toks, i-2) == "want")
		case "with":
			return word(toks, i-1) == "go"
		case "for":
			return word(toks, i-1) == "opt"
		case "at":
			return word(toks, i-1) == "look" && !negated(toks, i-1) // "look at the Breville instead"
		}
	}
	return false
}

// enumerationStart returns the first token of the enumeration of brands
// the brand at k ends or is part of ("A, B and C"): k when none comes
// before it.
func (v *sentenceView) enumerationStart(k int) int {
	start := k
	for i := k - 1; i >= 0; i-- {
		w := v.toks[i].w
		switch {
		case v.inName[i]:
			if v.brandAt[i] >= 0 {
				start = i
			}
		case w == "," || w == "&" || andWords[w]:
		default:
			return start
		}
	}
	return start
}

// appositive reports whether clause a is an aside on the brand at k, set
// off by commas between it and its verb: "Friday Apparel, a smaller label,
// is …".
func (v *sentenceView) appositive(k, a int) bool {
	first := firstInClause(v, a)
	next := firstInClause(v, a+1)
	if first < 0 || next < 0 || v.kind[a] != 0 || v.kind[a+1] != 0 || !predicateVerbs[word(v.toks, next)] {
		return false
	}
	switch word(v.toks, first) {
	case "a", "an", "the":
	default:
		return false
	}
	// The brand ends its clause, and the aside names no brand.
	for j := k + 1; j < first-1; j++ {
		if !v.inName[j] {
			return false
		}
	}
	return !v.clauseHasBrand(a) && v.toks[first-1].w == "," && v.toks[next-1].w == ","
}

// subjectBefore reports whether a brand opens the clause of token i before
// it: the subject the cue at i is said of.
func (v *sentenceView) subjectBefore(i int) bool {
	for j := i - 1; j >= 0 && v.clause[j] == v.clause[i]; j-- {
		if v.brandAt[j] >= 0 {
			return true
		}
	}
	return false
}

// firstBrandOf is the token of the sentence's first mention of brand.
func firstBrandOf(v *sentenceView, brand int) int {
	for i, b := range v.brandAt {
		if b == brand {
			return i
		}
	}
	return -1
}

// describesSubject reports whether the clause opening at token i says more
// of the sentence's subject: "which makes it", "making it".
func describesSubject(toks []token, i int) bool {
	switch word(toks, i) {
	case "which":
		next := word(toks, i+1)
		return next == "makes" || next == "make" || next == "is" && word(toks, i+2) == "why"
	case "making":
		return word(toks, i+1) == "it" || word(toks, i+1) == "them"
	}
	return false
}

func firstInClause(v *sentenceView, c int) int {
	for i, x := range v.clause {
		if x == c && !v.toks[i].punct {
			return i
		}
	}
	return -1
}

func (v *sentenceView) clauseHasBrand(c int) bool { return v.clauseHasBrandOtherThan(c, -1, -1) }

func (v *sentenceView) clauseHasBrandOtherThan(c, brand, k int) bool {
	for i, b := range v.brandAt {
		if b >= 0 && v.clause[i] == c && b != brand && i != k {
			return true
		}
	}
	return false
}

// recommendationCue reports whether token i advises choosing.
func recommendationCue(toks []token, i int) bool {
	w := word(toks, i)
	switch {
	case w == "":
		return false
	case strings.HasPrefix(w, "recommend"), strings.HasPrefix(w, "suggest"), strings.HasPrefix(w, "recommand"),
		strings.HasPrefix(w, "recomiend"), strings.HasPrefix(w, "recomend"), strings.HasPrefix(w, "raccomand"),
		strings.HasPrefix(w, "consiglia"), strings.HasPrefix(w, "empfehl"), strings.HasPrefix(w, "empfiehlt"), strings.HasPrefix(w, "aanbev"),
		strings.HasPrefix(w, "conseill") && !strings.HasPrefix(w, "conseiller"): // "je vous conseille", not "un conseiller"

		next := word(toks, i+1)
		if strings.HasPrefix(w, "recommendation") && i > 0 && recommendationsOffered(toks, i) {
			return false
		}
		return !negated(toks, i) && next != "against" && next != "that" && next != "avoiding" && next != "skipping"
	}
	switch w {
	case "choose", "chooses", "pick", "picks", "prefer", "prefers":
		// "which is why many beginners choose it": a reported choice.
		if next := word(toks, i+1); (next == "it" || next == "them") && !negated(toks, i) && word(toks, i-1) != "to" {
			return true
		}
	}
	if imperatives[w] && (i == firstWord(toks) || i > 0 && toks[i-1].w == ",") {
		return !negated(toks, i) // "If you want the best, try …"
	}
	switch w {
	case "best":
		if word(toks, i-1) == "at" || negated(toks, i) {
			return false
		}
		switch word(toks, i+1) {
		case "time", "way", "practices", "practice", "thing", "part", "known", "avoided", "skipped", "left":
			return false // "is best avoided" advises against it
		}
		return true
	case "pick", "picks", "choice", "choices", "bet", "bets", "default":
		if (w == "pick" || w == "choice") && word(toks, i-1) == "the" && copulas[word(toks, i-2)] {
			return !negated(toks, i-2) // "Acme is the pick"
		}
		if advisingWords[word(toks, i-1)] && !notAdvice[word(toks, i-2)] {
			return !negated(toks, i-1) // not "the worst budget choice"
		}
		// "the practical pick", "the obvious choice", "the quiet, compact
		// pick": the + adjectives.
		the := i - 2
		if i >= 3 && toks[i-2].w == "," && word(toks, i-3) != "" && !notAdvice[word(toks, i-3)] {
			the = i - 4
		}
		if word(toks, the) == "the" && word(toks, i-1) != "" && !toks[i-1].punct && !notAdvice[word(toks, i-1)] {
			return !negated(toks, the)
		}
		// "a solid budget foam pick": an advising word before nouns that
		// say what kind of pick.
		for j := i - 2; j >= 0 && i-j <= 4; j-- {
			w := word(toks, j)
			if w == "" || toks[j].punct || functionWords[w] || notAdvice[w] {
				break
			}
			if advisingWords[w] && (word(toks, j-1) == "a" || word(toks, j-1) == "an" || word(toks, j-1) == "the") {
				return !negated(toks, j-1)
			}
		}
	case "fit":
		return word(toks, i-1) == "natural" || word(toks, i-1) == "perfect"
	case "option", "options":
		switch word(toks, i-1) {
		case "best", "better", "strongest", "safest", "ideal", "obvious":
			return word(toks, i-2) == "the" && !negated(toks, i-2)
		}
	case "worth":
		switch word(toks, i+1) {
		case "considering", "trying", "a", "checking", "it", "exploring", "evaluating", "buying":
			return !negated(toks, i)
		}
	case "one":
		return word(toks, i+1) == "to" && word(toks, i+2) == "get"
	case "consider":
		prev := word(toks, i-1)
		return prev == "should" || prev == "might" || prev == "could" || i == firstWord(toks) || i > 0 && toks[i-1].w == ","
	case "top-rated", "highest-rated", "best-rated", "best-reviewed":
		// "is the top-rated all-weather tire", not "the best-reviewed options include"
		return word(toks, i-1) == "the" && !optionNouns[word(toks, i+1)] && !optionNouns[word(toks, i+2)] && word(toks, i+1) != "ones"
	case "winner", "go-to", "must-have":
		return true
	case "lohnt", "lohnen":
		// "lohnt sich der Blick auf den Bosch Indego": it is worth it.
		return word(toks, i+1) == "sich" && !negated(toks, i)
	case "meilleur", "meilleure", "mejor", "melhor", "beste", "miglior", "migliore":
		// "le meilleur choix", "la mejor opción", "die beste Wahl": "the
		// best choice" in the languages answers come in; "la mejor
		// valorada": the best-rated; not "le meilleur choix de papiers": the
		// widest selection of papers.
		return (foreignChoices[word(toks, i+1)] && !selectionOf(toks, i+1) || foreignRated[word(toks, i+1)] && nameArticles[word(toks, i-1)]) && !negated(toks, i)
	case "meilleurs", "meilleures", "mejores", "melhores", "besten", "migliori":
		// "una de las mejores opciones", "una delle scelte migliori": one
		// of the best choices, the adjective before or after its noun.
		return (foreignChoices[word(toks, i+1)] || foreignChoices[word(toks, i-1)]) && !negated(toks, i)
	case "considerar", "considérer", "considerare":
		// "una opción a considerar", "une option à considérer": worth
		// considering.
		switch word(toks, i-1) {
		case "a", "à", "da":
			return foreignChoices[word(toks, i-2)] && !negated(toks, i-2)
		}
	}
	// "ist eine gute Wahl", "est un bon choix", "es una buena opción":
	// "is a good choice" in the languages answers come in; after a lead's
	// colon or a semicolon a choice goes without the article ("ConTe.it:
	// ottima scelta", "40 punti; ottima scelta"), not an option ("Tassimo:
	// buena opción").
	if goodChoices[w] && foreignGood[word(toks, i-1)] && (foreignA[word(toks, i-2)] || i >= 2 && (toks[i-2].w == ":" || toks[i-2].w == ";") && !optionWords[w]) {
		return !negated(toks, i-2)
	}
	// "é a escolha certa", "la scelta giusta", "die richtige Wahl": "the
	// right choice", the adjective after or before its noun.
	if goodChoices[w] && (foreignRight[word(toks, i+1)] && (romanceArticles[word(toks, i-1)] || word(toks, i-1) == "a") || foreignRight[word(toks, i-1)] && nameArticles[word(toks, i-2)]) {
		return !negated(toks, i-2)
	}
	return false
}

// selectionOf reports whether the choice noun at i is followed by "of" and
// a bare noun, a selection of things: "le meilleur choix de papiers".
func selectionOf(toks []token, i int) bool {
	switch word(toks, i+1) {
	case "of", "de", "di", "van", "von", "do", "da":
		next := word(toks, i+2)
		return next != "" && !articles[next] && !romanceArticles[next] && !nameArticles[next] && !allDigits(next)
	}
	return false
}

// recommendationsOffered reports whether the noun "recommendation(s)" at
// i is something a product gives its users ("excellent for
// recommendations", "its personalized recommendations", "Netflix's
// recommendations"), not advice the answer reports.
func recommendationsOffered(toks []token, i int) bool {
	prev := word(toks, i-1)
	return functionWords[prev] || ownerWords[prev] || toks[i-1].poss ||
		strings.HasSuffix(prev, "ized") || strings.HasSuffix(prev, "ised") || featureNouns[prev]
}

// negated reports whether a negator stands within the three words before i.
func negated(toks []token, i int) bool {
	for k := i - 1; k >= 0 && i-k <= 3 && !toks[k].punct; k-- {
		w := toks[k].w
		if negators[w] || strings.HasSuffix(w, "n't") {
			next := word(toks, k+1)
			return !(w == "not" && (next == "only" || next == "just"))
		}
	}
	return false
}

// compares reports whether the brand at k is weighed against another brand.
func (e *extraction) compares(ui int, v *sentenceView, k, brand int) bool {
	toks := v.toks
	c := v.clause[k]
	others := false
	for i, b := range v.brandAt {
		if b >= 0 && b != brand && i != k {
			others = true
		}
	}
	earlier := others || e.brandBefore(e.d.units[ui].start, brand)
	l := e.d.lines[e.d.units[ui].line]
	for i, t := range toks {
		// "outshines Zendesk", "both are outclassed by A and B"; not "hard
		// to beat": praise.
		if (outdoes[t.w] || ranksAgainst(toks, i)) && earlier && word(toks, i-1) != "to" && !capitalised(e.d.text[t.start:t.end]) &&
			(v.clause[i] == c || word(toks, i+1) == "by" && k > i && k-i <= 5) {
			return true
		}
		switch t.w {
		case "vs", "versus":
			if others && (l.kind == lineHeading || abs(i-k) <= 4) {
				return true
			}
			// "Optima vs Granite Fox": a name the brand is set against, even
			// one not recognised as a brand.
			if i == k-1 && i > 0 && !toks[i-1].punct && capitalised(e.d.text[toks[i-1].start:toks[i-1].end]) {
				return true
			}
			if end := v.nameEnd(k); i == end+1 && i+1 < len(toks) && !toks[i+1].punct && capitalised(e.d.text[toks[i+1].start:toks[i+1].end]) {
				return true
			}
		case "than":
			if prepositions[word(toks, i+1)] {
				i++ // "easier than on StubHub"
			}
			if j := i + 1; others && j < len(toks) && (v.brandAt[j] >= 0 || word(toks, j) == "the" && j+1 < len(toks) && v.brandAt[j+1] >= 0) {
				if v.clause[i] == c || v.brandAt[j] == brand || j+1 < len(toks) && v.brandAt[j+1] == brand || v.firstBrand() == k {
					return true
				}
			}
			if next := word(toks, i+1); (next == "both" || next == "all" || next == "these" || next == "any" && !anyOfAKind(toks, i+1) || next == "the" && word(toks, i+2) == "others") && (v.clause[i] == c || v.firstBrand() == k) {
				return true // "than both", "than all of these": the brands named
			}
			// "costs more than the Octavia", "quieter than the 800 Series":
			// a product of another brand.
			j := i + 1
			the := word(toks, j) == "the"
			if the {
				j++
			}
			model := the && j+1 < len(toks) && allDigits(toks[j].w) && !toks[j+1].punct && capitalised(e.d.text[toks[j+1].start:toks[j+1].end])
			if j < len(toks) && !toks[j].punct && (capitalised(e.d.text[toks[j].start:toks[j].end]) || model) && (v.clause[i] == c || v.firstBrand() == k) && earlier {
				return true
			}
		case "of":
			// "about half the price of the Dyson", "Shark Stratos – … at
			// about half the price of a Dyson"
			if j := i + 1; others && j < len(toks) && priceNouns[word(toks, i-1)] && (v.brandAt[j] >= 0 || (articles[word(toks, j)] || word(toks, j) == "a" || word(toks, j) == "an") && j+1 < len(toks) && v.brandAt[j+1] >= 0) &&
				(word(toks, i-3) == "half" || word(toks, i-3) == "twice" || word(toks, i-3) == "fraction") && (v.clause[i] == c || v.firstBrand() == k && !v.brandBetween(k, i, brand)) {
				return true
			}
		case "as":
			// "twice as much per serving as Optimum Nutrition"
			if j := i + 1; others && j < len(toks) && (v.brandAt[j] >= 0 || word(toks, j) == "the" && j+1 < len(toks) && v.brandAt[j+1] >= 0) &&
				asBefore(toks, i) && (v.clause[i] == c || v.firstBrand() == k) {
				return true
			}
		case "que", "als", "dan", "che", "än", "niż", "di", "della", "del", "dello", "dei", "degli", "delle":
			// "más barato que Zendesk", "günstiger als Zendesk", "plus
			// chers que ceux de Free", "più care di Sicily by Car", "più
			// basso della Singer"
			if !foreignThan[t.w] && word(toks, i-2) != "più" && word(toks, i-2) != "meno" {
				break // "di" is mostly "of"
			}
			j := thoseOf(toks, i+1)
			if articles[word(toks, j)] || nameArticles[word(toks, j)] {
				j++
			}
			if word(toks, j) == "chez" {
				j++
			}
			if rivalNouns[word(toks, j)] {
				break // "teurer als die Konkurrenz": the rivals, no brand
			}
			if others && j < len(toks) && v.brandAt[j] >= 0 && foreignComparative(toks, i) &&
				(v.clause[i] == c || v.brandAt[j] == brand || v.firstBrand() == k) {
				return true
			}
			// "leichter als das ThinkPad", "más barato que el Galaxy": a
			// product of another brand, as "than the Octavia".
			if earlier && j < len(toks) && v.brandAt[j] < 0 && !toks[j].punct && capitalised(e.d.text[toks[j].start:toks[j].end]) &&
				foreignComparative(toks, i) && (v.clause[i] == c || v.firstBrand() == k) {
				return true
			}
		case "like":
			// "Acme looks like Zendesk", "feels like the Pegasus": a likeness
			j := i + 1
			if word(toks, j) == "the" || word(toks, j) == "a" {
				j++
			}
			if earlier && lookVerbs[word(toks, i-1)] && j < len(toks) && v.brandAt[j] >= 0 && (v.clause[i] == c || v.brandAt[j] == brand) {
				return true
			}
		case "hand":
			// "Acme, on the other hand, is …": as "by contrast"
			if on := i - 3; word(toks, on) == "on" && word(toks, i-1) == "other" && (v.clause[i] == c || abs(on-k) <= 3 || on == firstWord(toks)) && earlier {
				return true
			}
		case "compare", "comparing", "between":
			if !v.brandSoonAfter(i, 4) {
				break // "if you are comparing costs": no brand is weighed
			}
			if others && i < k {
				return true
			}
			if others && i == firstWord(toks) {
				return true // "Comparing A and B, A …"
			}
		case "trails", "outsells", "rivals", "undercuts", "edges":
			// "now trails both", "edges out Zendesk"; not "rivals like A": a
			// noun
			if earlier && !examplesAfter(toks, i) && (t.w != "edges" || word(toks, i+1) == "out") && !capitalised(e.d.text[t.start:t.end]) && v.clause[i] == c {
				return true
			}
		case "compared", "unlike", "alternative", "alternatives", "rival", "contrast", "similar", "comparable",
			"alternativas", "alternativa", "alternativen", "alternatieven",
			"ähnlich", "parecido", "parecida", "simile", "simili", "similaire", "similaires", "vergelijkbaar", "liknande", "semelhante", "podobny":
			if i < k && examplesAfter(toks, i) && e.exampleCue(v, k) {
				continue // "budget alternatives such as the Soundcore": an instance of the kind
			}
			if i < k && enumerationAfter(toks, i) && e.enumerated(v, k) {
				continue // "alternatives include A, B and C": the options listed
			}
			if (v.clause[i] == c || abs(i-k) <= 3) && earlier {
				return true
			}
			if v.firstBrand() == k && k < i && !v.brandBetween(k, i, brand) && e.namedAfterTo(v, i, brand) {
				return true // "Saucony Guide – A lighter alternative to the Kayano"
			}
			if similarWords[t.w] && others && v.firstBrand() == k {
				return true // "A builds B's machines, so quality is similar"
			}
			if others && i == firstWord(toks) && (t.w == "compared" || t.w == "unlike") {
				return true // "Compared with A, B …": both
			}
		}
	}
	// "A and B are both popular, but they suit different buyers": a pair
	// told apart.
	if others && v.pairedWith(k) {
		for i := k + 1; i < len(toks); i++ {
			if differWords[toks[i].w] {
				return true
			}
		}
	}
	// "A, while B …": two brands set against each other.
	if others && (v.kind[c] == 'w' || c+1 < len(v.kind) && v.kind[c+1] == 'w') && v.leadsSide(k) {
		return true
	}
	if !earlier {
		return false
	}
	for i := range toks {
		if (v.clause[i] == c || v.clause[i] > c && !v.clauseHasBrand(v.clause[i]) && v.kind[v.clause[i]] != 'w') && predicateComparative(toks, i) &&
			!v.thanOther(i) {
			return true
		}
	}
	return false
}

// anyOfAKind reports whether "any" at i opens a kind of product rather
// than the brands named: "than any racing-style seat", not "than any
// other" or "than any of them".
func anyOfAKind(toks []token, i int) bool {
	switch next := word(toks, i+1); {
	case word(toks, i) != "any", next == "", next == "other", next == "others", next == "of", next == "one":
		return false
	}
	return true
}

// nameEnd is the last token of the brand name starting at k.
func (v *sentenceView) nameEnd(k int) int {
	j := k
	for j+1 < len(v.toks) && v.inName[j+1] && v.brandAt[j+1] < 0 {
		j++
	}
	return j
}

// brandSoonAfter reports whether a brand is named within n words after
// token i, before any punctuation: "comparing Zendesk and …", "compare it
// with Zendesk", not "comparing costs, Zendesk …".
func (v *sentenceView) brandSoonAfter(i, n int) bool {
	for j := i + 1; j < len(v.toks) && j-i <= n; j++ {
		if v.brandAt[j] >= 0 {
			return true
		}
		if v.toks[j].punct {
			return false
		}
	}
	return false
}

// brandBetween reports whether a brand other than brand is named between
// tokens k and i.
func (v *sentenceView) brandBetween(k, i, brand int) bool {
	for j := k + 1; j < i; j++ {
		if b := v.brandAt[j]; b >= 0 && b != brand {
			return true
		}
	}
	return false
}

// namedAfterTo reports whether the likeness word at i goes on with "to",
// in any language answers come in, and a name other than brand: a brand,
// or a capitalised product of one named earlier ("alternative to the
// Kayano", "muy parecido a Effaclar").
func (e *extraction) namedAfterTo(v *sentenceView, i, brand int) bool {
	j := i + 1
	if !likenessTo[word(v.toks, j)] {
		return false
	}
	j++
	if word(v.toks, j) == "the" || articles[word(v.toks, j)] {
		j++
	}
	if j >= len(v.toks) || v.toks[j].punct {
		return false
	}
	if b := v.brandAt[j]; b >= 0 {
		return b != brand
	}
	t := v.toks[j]
	return capitalised(e.d.text[t.start:t.end]) && e.brandBefore(e.d.units[v.unit].start, brand)
}

// pairedWith reports whether the brand at k is one of two brands joined by
// "and" or "or" that open the sentence: "SimpliSafe and ADT are …".
func (v *sentenceView) pairedWith(k int) bool {
	first := v.firstBrand()
	if first < 0 || first > firstWord(v.toks)+1 {
		return false
	}
	j := v.nameEnd(first) + 1
	if !andWords[word(v.toks, j)] && word(v.toks, j) != "&" {
		return false
	}
	second := j + 1
	if second >= len(v.toks) || v.brandAt[second] < 0 || v.brandAt[second] == v.brandAt[first] {
		return false
	}
	return k == first || k == second
}

// leadsSide reports whether the brand at k is the first brand of its side
// of an "A, while B" sentence: the sentence's first, or the first after
// "while" ("including Sigma primes" is neither).
func (v *sentenceView) leadsSide(k int) bool {
	for i := k - 1; i >= 0; i-- {
		if v.kind[v.clause[i]] == 'w' && v.clause[i] != v.clause[k] {
			break
		}
		if v.brandAt[i] >= 0 && v.brandAt[i] != v.brandAt[k] {
			return false
		}
		if v.kind[v.clause[i]] == 'w' && (i == 0 || v.clause[i-1] != v.clause[i]) {
			break
		}
	}
	return true
}

// thanOther reports whether the comparative at i is measured against
// something other than a brand: "pricier than a hotel", "more expensive
// than its price", "better for logging runs than for coaching".
func (v *sentenceView) thanOther(i int) bool {
	t := i + 1
	for t < len(v.toks) && t-i <= 8 && !v.toks[t].punct && v.toks[t].w != "than" {
		t++
	}
	if word(v.toks, t) != "than" || namedOthers[word(v.toks, t+1)] && !anyOfAKind(v.toks, t+1) {
		return false // "more supportive than either"
	}
	for j := t + 1; j < len(v.toks) && j <= t+3; j++ {
		if v.brandAt[j] >= 0 {
			return false
		}
	}
	return true
}

// asBefore reports whether an "as" opens the comparison the "as" at i
// closes ("as much … as").
func asBefore(toks []token, i int) bool {
	for j := i - 1; j >= 0 && i-j <= 8 && !toks[j].punct; j-- {
		if toks[j].w == "as" {
			return true
		}
	}
	return false
}

// firstBrand is the token of the sentence's first brand, -1 when none.
func (v *sentenceView) firstBrand() int {
	for i, b := range v.brandAt {
		if b >= 0 {
			return i
		}
	}
	return -1
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// brandBefore reports whether another brand is named before offset pos.
func (e *extraction) brandBefore(pos, brand int) bool {
	for _, m := range e.all {
		if m.start >= pos {
			break
		}
		if m.brand != brand {
			return true
		}
	}
	return false
}

// predicateComparative reports whether token i is a comparative said of the
// subject ("is cheaper", "Far cheaper", "offers slightly stronger", "the
// more popular"), not one qualifying a noun ("for stricter compliance").
func predicateComparative(toks []token, i int) bool {
	w := word(toks, i)
	if w == "" {
		return false
	}
	if word(toks, i+1) == "known" {
		return false // "better known for its health reports"
	}
	from := i // where the comparative phrase starts
	if multiplied(toks, i) {
		w = "more" // "cost five times as much", "twice as expensive"
		if toks[i].w == "times" {
			from = i - 1
		}
	}
	if foreignMore[w] && foreignCopulas[word(toks, i-1)] {
		// "est plus confortable", "es más caro": a comparative with the
		// other brand unsaid, as "is more comfortable".
		next := word(toks, i+1)
		return next != "" && !toks[i+1].punct && !foreignThan[next] && next != "de" && next != "di"
	}
	if w == "more" || w == "less" {
		if nw := word(toks, i+1); (nw == "" || nw == "than" || allDigits(nw)) && !costVerbs[word(toks, i-1)] {
			return false // but "cost less, though …"
		}
		if n := word(toks, i-2); andWords[word(toks, i-1)] && (allDigits(n) || numberWords[n]) {
			return false // "three or more quotes": a number
		}
	} else if !comparatives[w] && !foreignComparatives[w] {
		return false
	}
	j := from - 1
	for j >= 0 && !toks[j].punct && comparativeFillers[toks[j].w] {
		if (toks[j].w == "a" || toks[j].w == "an") && !degreeNouns[word(toks, j+1)] && !thanAhead(toks, i) &&
			!priceComparatives[w] && !priceComparatives[w+" "+word(toks, i+1)] &&
			(j == 0 || toks[j-1].punct || copulas[toks[j-1].w] || toks[j-1].w == "and") {
			// "is a newer option", "and a shorter jar": it qualifies the
			// noun; but "a cheaper option" is cheaper than the others.
			return false
		}
		j--
	}
	if j < 0 || toks[j].punct {
		// At the start of a line or clause: "Far cheaper, but …", "Easier
		// for beginners", not "Smaller players such as …".
		next := word(toks, i+1)
		return i+1 >= len(toks) || toks[i+1].punct || functionWords[next] || next == "than"
	}
	return comparativeLeads[toks[j].w]
}

// multiplied reports whether token i opens a multiple of another's
// measure: "five times as much", "3x more", "twice as loud".
func multiplied(toks []token, i int) bool {
	w := word(toks, i)
	next := word(toks, i+1)
	if next != "as" && next != "more" && next != "less" {
		return false
	}
	switch w {
	case "twice", "thrice":
		return true
	case "times":
		prev := word(toks, i-1)
		return allDigits(prev) || numberWords[prev] || prev == "several" || prev == "many"
	}
	return false
}

// foreignComparative reports whether a comparative of another language
// comes shortly before the "than" word at i: "más barato que", "moins cher
// que", "günstiger als", "goedkoper dan".
func foreignComparative(toks []token, i int) bool {
	for j := i - 1; j >= 0 && i-j <= 4 && !toks[j].punct; j-- {
		w := toks[j].w
		if foreignMore[w] {
			return true
		}
		// German and Dutch comparatives end in -er right before "als" or
		// "dan".
		if j == i-1 && (toks[i].w == "als" || toks[i].w == "dan") && len(w) > 4 && strings.HasSuffix(w, "er") {
			return true
		}
		// Swedish ones in -are before "än" ("billigare än"), Polish ones
		// in -szy, -sza, -sze or -ej before "niż" ("tańszy niż").
		if j == i-1 && toks[i].w == "än" && len(w) > 5 && strings.HasSuffix(w, "are") {
			return true
		}
		if j == i-1 && toks[i].w == "niż" && (strings.HasSuffix(w, "szy") || strings.HasSuffix(w, "sza") || strings.HasSuffix(w, "sze") || strings.HasSuffix(w, "ej")) {
			return true
		}
	}
	return false
}

// thoseOf returns the token after a pronoun standing for another brand's
// offers and its "of" ("ceux de", "las de", "die von") opening at j, j when
// none does.
func thoseOf(toks []token, j int) int {
	if thoseWords[word(toks, j)] && (romanceOf[word(toks, j+1)] || word(toks, j+1) == "von" || word(toks, j+1) == "van") {
		return j + 2
	}
	return j
}

// thanAhead reports whether a "than" follows token i in its clause.
func thanAhead(toks []token, i int) bool {
	for j := i + 1; j < len(toks) && !toks[j].punct; j++ {
		if toks[j].w == "than" {
			return true
		}
	}
	return false
}

// exampleAside reports whether "for example" or "for instance" follows
// the brand at k as an aside: "Acme, for example, has a free plan".
func (v *sentenceView) exampleAside(k int) bool {
	j := v.nameEnd(k) + 1
	if j >= len(v.toks) || v.toks[j].w != "," && v.toks[j].w != "(" {
		return false
	}
	next := word(v.toks, j+2)
	return word(v.toks, j+1) == "e.g" || word(v.toks, j+1) == "for" && (next == "example" || next == "instance")
}

// enumerationAfter reports whether a list of options follows token i:
// "include", "are", a colon.
func enumerationAfter(toks []token, i int) bool {
	if i+1 < len(toks) && toks[i+1].w == ":" {
		return true
	}
	switch word(toks, i+1) {
	case "include", "includes", "are":
		return true
	}
	return false
}

// examplesAfter reports whether instances follow token i: "such as",
// "like", "including", "e.g.".
func examplesAfter(toks []token, i int) bool {
	switch word(toks, i+1) {
	case "like", "including", "e.g":
		return true
	case "such":
		return word(toks, i+2) == "as"
	}
	return false
}

// exampleCue reports whether the brand at k follows "such as", "like",
// "including", "e.g." or "for example", across an enumeration.
func (e *extraction) exampleCue(v *sentenceView, k int) bool {
	toks := v.toks
	n := 0 // words passed outside brand names
	for i := k - 1; i >= 0 && n < 12; i-- {
		if v.inName[i] {
			continue // "such as Slumber & Co, Cloudrest and …"
		}
		n++
		w := word(toks, i)
		switch {
		case w == "like" && !feelsLike[word(toks, i-1)], w == "including", w == "e.g", foreignLike[w] && i > 0 && !toks[i-1].punct:
			return true
		case w == "as" && word(toks, i-1) == "such":
			return true
		case (w == "example" || w == "instance") && word(toks, i-1) == "for":
			return true
		}
		if toks[i].punct && toks[i].w != "," && toks[i].w != "." {
			return false
		}
		if w != "" && predicateVerbs[w] {
			return false
		}
	}
	return false
}

// enumerated reports whether the brand at k is one of options enumerated
// inline: after "include", "options are", "are:", or among three brands or
// more.
func (e *extraction) enumerated(v *sentenceView, k int) bool {
	toks := v.toks
	n := v.brandsAfter(-1)
	for i := k - 1; i >= 0 && k-i <= 14; i-- {
		switch word(toks, i) {
		case "include", "includes", "are", "namely", "son", "sont", "são", "sind", "zijn", "sono", "incluyen", "incluem":
			// Not "if you are comparing costs, A …": the verb's clause ended
			// before the brand; not "A, B and C are all owned by D": the
			// brands follow the verb; not "…, as are Match and OkCupid": more
			// of what the sentence said.
			return n >= 2 && v.clause[i] == v.clause[k] && v.itemsBetween(e.d.text, i+1, k) && word(toks, i-1) != "as"
		}
		if toks[i].punct && toks[i].w == ":" {
			// "Options: A, B and C", not "Lexie B2 Plus: Powered by Bose
			// technology": a description of the name before the colon.
			return v.brandsAfter(i) >= 2
		}
	}
	return n >= 3 && v.enumerationAround(k) && v.enumerationItem(k)
}

// itemsBetween reports whether tokens [from, to) hold only names, a
// product's capitalised words among them ("Grafana Cloud"), and what joins
// them: commas, "and", "either", "not", articles.
func (v *sentenceView) itemsBetween(text []rune, from, to int) bool {
	for j := from; j < to; j++ {
		t := v.toks[j]
		switch w := t.w; {
		case v.inName[j], t.punct && (w == "," || w == "+" || w == "&"):
		case !t.punct && (capitalised(text[t.start:t.end]) || andWords[w] || articles[w] || w == "a" || w == "an" ||
			negators[w] || w == "both" || w == "either" || w == "neither"):
		default:
			return false
		}
	}
	return true
}

// enumerationItem reports whether the brand at k is an item of an
// enumeration: a comma or "and" joins it to a brand before or after it.
// Not "A, B and C are owned by Match Group".
func (v *sentenceView) enumerationItem(k int) bool {
	toks := v.toks
	i := k - 1
	if articles[word(toks, i)] {
		i-- // "C6 Bank e o PicPay"
	}
	if i >= 0 && (toks[i].w == "," || andWords[toks[i].w]) {
		return true
	}
	j := tierEnd(toks, v.nameEnd(k)+1)
	if j >= len(toks) || toks[j].w != "," && !andWords[toks[j].w] {
		return false
	}
	j++
	if andWords[word(toks, j)] || articles[word(toks, j)] {
		j++
	}
	return j < len(toks) && v.brandAt[j] >= 0
}

// brandsAfter counts the distinct brands named after token i.
func (v *sentenceView) brandsAfter(i int) int {
	distinct := map[int]bool{}
	for j := i + 1; j < len(v.brandAt); j++ {
		if v.brandAt[j] >= 0 {
			distinct[v.brandAt[j]] = true
		}
	}
	return len(distinct)
}

// enumerationAround reports whether the brand at k sits in "A, B and C".
func (v *sentenceView) enumerationAround(k int) bool {
	for i := max(0, k-8); i < len(v.toks) && i <= k+8; i++ {
		if v.toks[i].w == "," && v.enumerationComma(i) {
			return true
		}
	}
	return false
}
