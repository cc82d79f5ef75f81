package ingest

import (
	"slices"
	"strings"
)

// Tone: the answer's stance toward a brand in the sentence of its first
// mention (see classify.go for where it is decided from).

// tone is the stance toward the brand at k: the clauses that name it and
// the clauses after them up to one naming another brand; the clause after
// "but" decides, clauses after "though" are left out. A list item's lead
// brand also owns the clauses before it ("Powerful, but …").
func (e *extraction) tone(v *sentenceView, k int, lead bool) int {
	toks := v.toks
	brand := v.brandAt[k]
	owner := make([]int, len(v.kind)) // brand a clause is about, -1 none, -2 several
	for ci := range owner {
		owner[ci] = -1
	}
	for i, b := range v.brandAt {
		if b < 0 || i != k && measuredAgainst(toks, i) {
			continue // "quieter than the Concept2": the clause is about its subject
		}
		if lead && b != brand && !v.opensClause(i) {
			continue // "**Sosh** : la marque d'Orange, …": named in the lead's description
		}
		switch c := v.clause[i]; owner[c] {
		case -1, b:
			owner[c] = b
		default:
			owner[c] = -2
		}
	}
	named := make([]bool, len(v.kind)) // clauses naming the brand
	for i, b := range v.brandAt {
		if b == brand {
			named[v.clause[i]] = true
		}
	}
	// A clause is the brand's when it names it, or names no brand and
	// follows one that does: "Drive and OneDrive are handy, but offer less
	// privacy" speaks of both in its "but" clause.
	mine := make([]bool, len(v.kind))
	cur := false
	for ci := range owner {
		if owner[ci] != -1 {
			cur = owner[ci] == brand || owner[ci] == -2 && named[ci]
		}
		mine[ci] = cur
		if owner[ci] == -1 {
			if b, ok := relativeTo(v, ci); ok && b != brand {
				mine[ci] = false // "than Keurig, whose K-Cups taste weaker": Keurig's
			}
		}
	}
	if lead {
		for ci := 0; ci < len(owner) && owner[ci] == -1; ci++ {
			mine[ci] = true
		}
	}
	// "**Avoid:** the JuiceBox from Enel X Way": a label's advice against
	// is about what follows its colon.
	if f := firstWord(toks); f >= 0 && avoidVerbs[toks[f].w] {
		if colon := labelColon(toks, f); colon > 0 && v.clause[k] == v.clause[colon] && owner[v.clause[f]] == -1 {
			mine[v.clause[f]] = true
		}
	}
	v.subjectAsides(brand, k, owner, mine)
	c := v.clause[k]
	main, but := 0, 0
	butNegated := false // a "but" clause of the brand's that negates: "but it can't grind fine enough"
	butClause := false  // the brand has a clause after "but"
	butAdds := false    // that clause adds rather than objects: "but also", "but still"
	butDiffers := false // that clause sets the brands apart, not against: "but they suit different buyers"
	butGains := false   // that clause opens on what the reader gains: "but adds travel mode", "but you get a local agent"
	cond := -1          // clause of a running "if" clause: the reader's need, not the brand
	for i := range toks {
		ci := v.clause[i]
		switch toks[i].w {
		case "if", "unless", "when", "whenever":
			cond = ci
		}
		if !mine[ci] || ci == cond {
			continue
		}
		if v.kind[ci] == 'b' && (ci > c || ci == c && ci > 0 && mine[ci-1]) && !toks[i].punct {
			butClause = true
			// "but it can't grind fine enough", "but the hardware costs $349"
			if negators[toks[i].w] || strings.HasSuffix(toks[i].w, "n't") || toks[i].w == "costs" && (word(toks, i+1) == "" || allDigits(word(toks, i+1))) {
				butNegated = true
			}
			if toks[i].w == "also" || toks[i].w == "still" {
				butAdds = true // "but it also handles invoicing"
			}
			if differWords[toks[i].w] {
				butDiffers = true
			}
			if gainOpens(toks, i) {
				butGains = true
			}
		}
		if avoidVerbs[toks[i].w] && !(k > i && k-i-articlesBetween(toks, i, k) <= 4) {
			continue // "skip the Ode and look at the Breville": aimed at another
		}
		if v.inName[i] {
			continue // "Little Meadow Software", "Best Buy": a name, not a judgement
		}
		if i > 0 && !toks[i-1].punct && capitalised(e.d.text[toks[i].start:toks[i].end]) && capitalised(e.d.text[toks[i-1].start:toks[i-1].end]) {
			continue // "Huggies Little Snugglers": a word of a name
		}
		p := polarity(toks, i)
		if p == 0 {
			continue
		}
		if afterThan(toks, i, k) || (outdoes[toks[i].w] || ranksAgainst(toks, i)) && (k > i || objectPronouns[word(toks, i+1)] && !v.subjectBefore(i)) {
			p = -p // "outclassed by EyeBuyDirect": the one after the verb wins; "local installers beat them": they lose
		}
		if objectOfComparison(toks, i, k) {
			continue // "the most complete alternative to Google Analytics"
		}
		switch {
		case v.kind[ci] == 'b' && (ci > c || ci == c && ci > 0 && mine[ci-1]):
			but += p
		case v.kind[ci] == 't' && ci != c:
		default:
			main += p
		}
	}
	if but != 0 {
		return sign(but)
	}
	if butNegated {
		return -1
	}
	if butDiffers {
		return 0 // the "but" clause decides, and tells a difference, not a fault
	}
	if butGains {
		return 1 // the "but" clause decides, and sets a gain against what came before
	}
	if butClause && main != 0 {
		// "A, but B" with nothing evaluative in B: B sets itself against
		// A ("Excellent grip, but it shows its age quickly").
		return -sign(main)
	}
	if butClause && !butAdds {
		// "Free and AI-powered, but it pushes Samsung appliances": with
		// nothing evaluative on either side, the "but" clause is a caveat.
		return -1
	}
	return sign(main)
}

// subjectAsides gives the clause after an aside set off by commas between
// a subject and its verb to that subject ("Trulia, owned by Zillow, is
// useful" praises Trulia): the aside is no clause of the subject's, and a
// brand inside it has no part in what follows.
func (v *sentenceView) subjectAsides(brand, k int, owner []int, mine []bool) {
	toks := v.toks
	for i, b := range v.brandAt {
		if b < 0 {
			continue
		}
		if i != firstInClause(v, v.clause[i]) {
			continue // not the subject opening its clause
		}
		end := v.nameEnd(i)
		j := commaAsideEnd(toks, end+1)
		if j == 0 || !predicateVerbs[word(toks, j)] {
			continue
		}
		inAside := k > end && k < j
		if b != brand && !inAside {
			continue
		}
		if b == brand {
			for ci := v.clause[end+1]; ci < v.clause[j-1]; ci++ {
				mine[ci] = owner[ci] == brand
			}
		}
		for ci := v.clause[j-1]; ci < len(owner) && owner[ci] == -1; ci++ {
			mine[ci] = b == brand
		}
	}
}

// gainOpens reports whether token i opens a "but" clause on what the
// reader gains: "but adds", "but it includes", "but you get", "but comes
// with".
func gainOpens(toks []token, i int) bool {
	j := i - 1
	for j >= 0 && (toks[j].w == "it" || toks[j].w == "you" || toks[j].w == "they" || toks[j].w == "also") {
		j--
	}
	if word(toks, j) != "but" {
		return false
	}
	for j := i + 1; j < len(toks) && j-i <= 4 && !toks[j].punct; j++ {
		if burdens[toks[j].w] {
			return false // "but includes ads": what it adds is a burden
		}
	}
	switch toks[i].w {
	case "adds", "add", "includes", "include", "gives", "give":
		return true
	case "get", "gets":
		return word(toks, i-1) == "you"
	case "comes", "come":
		return word(toks, i+1) == "with"
	}
	return false
}

// relativeTo returns the brand a relative clause ci speaks of when that
// brand is what a comparison measures against: the clause opens with
// "whose", "which" or "who" right after a comma that closes the name
// after "than" ("than Keurig, whose K-Cups taste weaker").
func relativeTo(v *sentenceView, ci int) (int, bool) {
	toks := v.toks
	f := slices.Index(v.clause, ci) // a boundary's comma opens its clause
	if f < 1 || f+1 >= len(toks) || toks[f].w != "," || !(toks[f+1].w == "whose" || toks[f+1].w == "which" || toks[f+1].w == "who") {
		return 0, false
	}
	for j := f - 1; j >= 0 && j >= f-3 && !toks[j].punct; j-- {
		if v.brandAt[j] >= 0 {
			return v.brandAt[j], measuredAgainst(toks, j)
		}
	}
	return 0, false
}

// measuredAgainst reports whether the brand at i is what a comparison
// measures against ("than the Concept2", "as much as Optimum Nutrition").
func measuredAgainst(toks []token, i int) bool {
	j := i - 1
	if word(toks, j) == "the" {
		j--
	}
	if prepositions[word(toks, j)] {
		j-- // "easier than on StubHub"
	}
	if (word(toks, j) == "to" || word(toks, j) == "with") && likenessWords[word(toks, j-1)] {
		return true // "similar to the LG C4"
	}
	return word(toks, j) == "than" || word(toks, j) == "as" && asBefore(toks, j) ||
		foreignThan[word(toks, j)] && foreignComparative(toks, j) // "mejor que Doctoralia"
}

// afterThan reports whether the brand at k stands after "than" following
// the cue at i: the comparative counts the other way for it.
func afterThan(toks []token, i, k int) bool {
	if k <= i {
		return false
	}
	for j := i + 1; j < k; j++ {
		if toks[j].w == "than" {
			return true
		}
	}
	return false
}

// objectOfComparison reports whether the brand at k is what the cue at i
// is measured against ("alternative to X", "compared with X"): the cue
// describes the other side.
func objectOfComparison(toks []token, i, k int) bool {
	if k <= i {
		return false
	}
	for j := i + 1; j < k; j++ {
		if toks[j].w == "to" || toks[j].w == "with" {
			switch word(toks, j-1) {
			case "alternative", "alternatives", "compared", "similar", "comparable", "relative":
				return true
			}
		}
	}
	return false
}

func sign(x int) int {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}

// limitedTo reports whether token i is in what "limited to" or
// "restricted to" confines something to, one or two words after "to".
func limitedTo(toks []token, i int) bool {
	for k := i - 1; k >= i-2 && k > 0; k-- {
		if word(toks, k) == "to" && (word(toks, k-1) == "limited" || word(toks, k-1) == "restricted") {
			return true
		}
	}
	return false
}

// readerConsequence is the stance of what "so you" goes on to say with
// the words v and next: +1 for what the reader can do or is spared ("can",
// "never", "don't have to", "know"), -1 for what they must do or cannot.
func readerConsequence(v, next string) int {
	switch v {
	case "can", "could", "never", "know", "always":
		return 1
	case "can't", "cannot", "couldn't", "must":
		return -1
	case "don't", "won't", "needn't":
		if next == "have" || next == "need" || next == "pay" || next == "lose" || next == "waste" || next == "risk" {
			return 1
		}
	case "have", "need", "will", "may":
		if next == "to" || next == "need" || next == "have" {
			return -1 // "so you have to", "so you will need"
		}
	}
	return 0
}

// ranksAgainst reports whether token i sets what precedes it ahead of or
// behind what follows: "trails Canon", "lags behind", "falls behind",
// "is ahead of", "edges out"; the brand after it takes the opposite stance.
func ranksAgainst(toks []token, i int) bool {
	prev := word(toks, i-1)
	switch toks[i].w {
	case "trails", "trailed":
		return true
	case "lags", "lag", "lagged", "falls", "fell":
		return word(toks, i+1) == "behind"
	case "behind":
		return prev == "falls" || prev == "fall" || prev == "fell" || prev == "lags" || prev == "lag" || prev == "lagged"
	case "ahead":
		return word(toks, i+1) == "of"
	case "out":
		return prev == "edges" || prev == "edge" || prev == "edged"
	}
	return false
}

// polarity of token i: +1 praise, -1 criticism, 0 none; a negator flips it.
func polarity(toks []token, i int) int {
	w := unelided(word(toks, i))
	if w == "" {
		return 0
	}
	if costNouns[w] {
		// "at no extra cost", "no setup fee", "sin coste adicional": what
		// the reader does not pay.
		for j := i - 1; j >= 0 && i-j <= 3 && !toks[j].punct; j-- {
			if noneWords[toks[j].w] {
				return 1
			}
		}
	}
	p := 0
	switch {
	case avoidVerbs[w]:
		p = -1
	case positiveWords[w] && limitedTo(toks, i):
		// "limited to simple automations": what it is confined to, not praise
	case positiveWords[w]:
		p = 1
	case negativeWords[w]:
		p = -1
	case strings.HasPrefix(w, "better-") || strings.HasPrefix(w, "best-") || strings.HasPrefix(w, "highly-") || strings.HasPrefix(w, "well-") || strings.HasPrefix(w, "top-"):
		p = 1 // "better-reviewed", "highly-rated"
	case strings.HasPrefix(w, "lower-") || strings.HasPrefix(w, "low-"):
		// "lower-cost" praises, "lower-rated" criticises
		switch w[strings.IndexByte(w, '-')+1:] {
		case "cost", "priced", "price", "fee", "fees", "maintenance":
			p = 1
		case "rated", "quality", "end", "grade":
			p = -1
		}
	case strings.HasPrefix(w, "poorly-") || strings.HasPrefix(w, "badly-") || strings.HasPrefix(w, "worst-"):
		p = -1
	case inflectedJudgement(w) != 0:
		p = inflectedJudgement(w) // "Empfehlenswerte Modelle", "zuverlässige Geräte": the stem judges
	}
	if w == "mixed" && i+1 < len(toks) && !toks[i+1].punct && !judgmentNouns[toks[i+1].w] {
		p = 0 // "mixed terrain" is a kind of ground; "mixed reviews" a verdict
	}
	prev := word(toks, i-1)
	if outdoes[w] {
		// "A outperforms B" praises A; "A is outclassed by B" criticises A.
		p = 1
		if word(toks, i+1) == "by" || passiveAux[prev] || strings.HasSuffix(prev, "ly") && passiveAux[word(toks, i-2)] {
			p = -1 // "is easily beaten"
		}
	}
	switch w {
	case "short", "behind":
		if prev == "falls" || prev == "fall" || prev == "fell" || prev == "lags" {
			p = -1
		}
		if next := word(toks, i+2); w == "behind" && (word(toks, i+1) == "a" || word(toks, i+1) == "the") && (next == "paywall" || next == "subscription") {
			p = -1 // "the best content is behind a subscription"
		}
	case "fees", "costs", "charges":
		if prev == "hidden" || prev == "extra" || prev == "high" || prev == "surprise" || prev == "unexpected" {
			p = -1
		}
		if w == "charges" && (priceNouns[word(toks, i+1)] || priceNouns[word(toks, i+2)]) {
			p = -1 // "charges monthly fees"
		}
	case "out":
		if prev == "stands" || prev == "stand" || prev == "edges" || prev == "edge" || prev == "edged" {
			p = 1 // "stands out", "edges out Nikon"
		}
	case "distingue", "distinguent", "destaca", "destacan", "destacam":
		if prev == "se" || prev == "si" {
			p = 1 // "se distingue", "se destaca": stands out
		}
	case "pays", "pay":
		if word(toks, i+1) == "for" && (word(toks, i+2) == "itself" || word(toks, i+2) == "themselves") {
			p = 1 // "pays for itself in three years"
		}
	case "led", "leads", "lead", "topped", "tops":
		// "led the J.D. Power rankings", "topped the survey": first in a ranking.
		for j := i + 1; j < len(toks) && j-i <= 7 && (!toks[j].punct || toks[j].w == "."); j++ {
			if rankingNouns[toks[j].w] { // past the initials of "J.D. Power"
				p = 1
			}
		}
	case "need", "needs":
		if prev == "you" && (word(toks, i-2) == "all" || word(toks, i-2) == "everything") {
			p = 1 // "may be all you need"
		}
	case "ahead":
		if word(toks, i+1) == "of" {
			p = 1 // "ahead of Nikon on autofocus"
		}
	case "highly":
		if prev == "rated" || prev == "regarded" || prev == "rates" || prev == "ranked" {
			p = 1 // "support is consistently rated highly"
		}
	case "trails", "trailed":
		p = -1
	case "climbs", "climb", "rises", "rise", "jumps", "jump", "increase", "increases", "extra", "doubles":
		if priceNouns[prev] || w == "increases" || w == "increase" {
			p = -1
		}
	case "high", "higher":
		// "pricing is on the high side", "premiums are higher"
		for j := i - 1; j >= 0 && i-j <= 4 && !toks[j].punct; j-- {
			if priceNouns[toks[j].w] {
				p = -1
			}
		}
	case "well":
		// "handle everyday calls well", not "as well" or "well over"
		// "works well as long as you …": the praise with its condition
		asLong := word(toks, i+1) == "as" && (word(toks, i+2) == "long" || word(toks, i+2) == "soon")
		if prev != "" && prev != "as" && (word(toks, i+1) != "as" || asLong) && !allDigits(word(toks, i+2)) && i != firstWord(toks) {
			p = 1
		}
	case "recommend", "recommends", "suggest", "suggests":
		// "I would not recommend it": advice against; the negator below flips it.
		if negated(toks, i) {
			p = 1
		}
	case "sense":
		if prev == "make" || prev == "makes" {
			p = 1
		}
	case "like":
		if prev == "nothing" {
			p = -1 // "look nothing like the photos"
		}
		if word(toks, i+1) == "" && (word(toks, i-2) == "many" || word(toks, i-2) == "most") {
			p = 1 // "a middle ground that many startups like"
		}
	case "varies", "vary":
		if prev == "quality" || prev == "service" || prev == "support" || prev == "sizing" || prev == "reliability" {
			p = -1 // "quality varies by instructor"
		}
	case "hard", "difficult", "tough":
		if word(toks, i+1) == "to" {
			p = -1 // "hard to justify", "difficult to find"
			if unbeaten[word(toks, i+2)] {
				p = 1 // "hard to beat", "tough to fault"
			}
		}
	case "twice", "double":
		if word(toks, i+1) == "the" || word(toks, i+1) == "as" {
			p = -1 // "twice the price", "twice as much"
		}
	case "less":
		if prev == "for" || prev == "much" && word(toks, i-2) == "for" {
			return 1 // "sell similar bikes for less"
		}
		if prev == "cost" || prev == "costs" || prev == "charge" || prev == "charges" {
			return 1 // "cost less", as "costs more" criticises
		}
		if next := word(toks, i+1); lessLeads[prev] && next != "" && !negativeWords[next] && !priceNouns[next] {
			p = -1 // "offer less privacy", "remain less private"
		}
	case "above":
		if prev == "punches" || prev == "punch" || prev == "way" && strings.HasPrefix(word(toks, i-2), "punch") {
			p = 1 // "punches way above its $70 price"
		}
	case "expensive":
		looks := lookVerbs[word(toks, i-2)] || lookVerbs[word(toks, i-3)] && word(toks, i-2) == "far"
		if looks && prev == "more" && word(toks, i+1) == "than" && (word(toks, i+2) == "its" || word(toks, i+2) == "it") {
			p = 1 // "looks far more expensive than its $180 price"
		}
	case "down":
		if prev == "shut" || prev == "shuts" {
			p = -1 // "shut down in 2023"
		}
	case "most":
		// "the most detailed app tracking of any brush", "offer the most
		// greenside spin": a superlative of what it has, unless that is a
		// fault ("the most complaints") or a mere frequency.
		if next := word(toks, i+1); prev == "the" && next != "" && !allDigits(next) && !plainMost[next] {
			p = 1
			for j := i + 1; j < len(toks) && j-i <= 3 && !toks[j].punct; j++ {
				if negativeWords[toks[j].w] {
					p = 0
				}
			}
		}
	case "following", "community", "communities", "fanbase", "base", "fans":
		// "a cult following", "a huge community of shared projects", "a
		// loyal fan base": people who choose it.
		size := prev
		if w == "base" {
			size = ""
			if prev == "fan" || prev == "user" || prev == "customer" {
				size = word(toks, i-2)
			}
		}
		if followingSizes[size] {
			p = 1
		}
	case "known", "famous", "noted", "prized", "celebrated", "reputation":
		// "Known for its on-time guarantee", "a reputation for reliability":
		// praise unless what it is known for is a fault.
		if word(toks, i+1) == "for" {
			p = 1
			for j := i + 2; j < len(toks) && j-i <= 6 && !toks[j].punct; j++ {
				if polarity(toks, j) < 0 {
					p = 0
				}
			}
		}
	case "widely", "très", "largement", "veel":
		// "widely used", "widely available", "très utilisé", "veel
		// gekozen": many choose it.
		if widelyDone[word(toks, i+1)] {
			p = 1
		}
	case "prefer", "prefers", "preferred":
		// "which some parents prefer for privacy", "preferred by many
		// teams": people who choose it; "for people who prefer a local
		// agent" and "if you prefer Android" are the reader's need.
		choosers := crowdWords[prev] || crowdWords[word(toks, i-2)] && !toks[i-1].punct || readerNouns[prev]
		if w == "preferred" {
			choosers = word(toks, i+1) == "by" || prev == "generally" || prev == "widely" || prev == "often" || prev == "usually"
		}
		if choosers {
			p = 1
		}
	case "enough":
		// "is enough if you only want to check in"; "isn't enough" and "is
		// not enough" criticise.
		if copulas[prev] || prev == "not" && copulas[word(toks, i-2)] {
			p = 1
		}
	case "largest", "biggest":
		// "the largest companies by revenue", "the largest lender by
		// volume": a ranking by size, not praise.
		for j := i + 1; j < len(toks) && j-i <= 6 && !toks[j].punct; j++ {
			if toks[j].w == "by" && sizeMeasures[word(toks, j+1)] {
				p = 0
			}
		}
	case "so":
		// "Solar-powered, so you never change a battery", "so renters can
		// install it": what it spares or lets the reader do; "so you'll
		// need a hub" is a burden.
		switch subject := word(toks, i+1); {
		case subject == "you" || readerNouns[subject]:
			p = readerConsequence(word(toks, i+2), word(toks, i+3))
		case subject == "you'll":
			p = readerConsequence("will", word(toks, i+2))
		}
	case "plenty", "lots", "tanta", "tanto", "tante", "tanti", "mucha", "mucho", "muchas", "muchos", "muita", "muito",
		"muitas", "muitos", "beaucoup", "viel", "viele":
		// "offre tanta tecnologia", "offers plenty of storage": much to
		// have, unless it is a burden ("mucha publicidad").
		if offerVerbs[prev] {
			p = 1
			for j := i + 1; j < len(toks) && j-i <= 3 && !toks[j].punct; j++ {
				if burdens[toks[j].w] {
					p = 0
				}
			}
		}
	case "poco", "pouco", "peu", "wenig":
		if littleCosts[prev] {
			p = 1 // "costa poco, consuma poco": costs and uses little
		}
	case "much":
		if prev == "as" && word(toks, i-2) == "times" {
			p = -1 // "cost five times as much"
		}
	case "fraction":
		if word(toks, i+1) == "of" && (word(toks, i+2) == "the" && priceNouns[word(toks, i+3)] || priceNouns[word(toks, i+2)]) {
			p = 1 // "costs a fraction of the price"
		}
	case "highest":
		if rankVerbs[prev] {
			p = 1 // "usually rank highest for richness"
		}
	case "fast", "quickly", "faster", "quicker":
		if negativeWords[prev] {
			p = 0 // "get expensive fast"
		}
		if wearVerbs[prev] {
			p = -1 // "wears faster", "drains quickly"
		}
	case "low", "lower", "lowest":
		// "a lower annual fee", "Low monitoring prices", "a low cost per
		// gallon"; "low cost" after a noun names a kind of brand ("Les
		// marques low cost").
		next := word(toks, i+1)
		kind := w == "low" && (next == "cost" || next == "price") && prev != "a" && !articles[prev] && word(toks, i+2) != "per"
		if (priceNouns[next] || priceNouns[word(toks, i+2)]) && !kind {
			p = 1
		}
	case "charge", "cobra", "cobran", "facture", "berechnet":
		if priceNouns[word(toks, i+1)] || priceNouns[word(toks, i+2)] {
			p = -1 // "cobra tarifas mensais": charges monthly fees
		}
	case "no":
		// "the cheapest tier has no 24/7 managed response": what it lacks;
		// not "has no ads", "has no contract", "has no issues".
		if offerVerbs[prev] {
			p = -1
			for j := i + 1; j < len(toks) && j-i <= 4 && !toks[j].punct; j++ {
				if w := toks[j].w; burdens[w] || costNouns[w] || impositions[w] || negativeWords[w] {
					p = 0
				}
			}
		}
	case "lowers", "lowered", "reduces", "reduce", "reduced", "cuts":
		if priceNouns[word(toks, i+1)] || priceNouns[word(toks, i+2)] {
			p = 1 // "typically lowers the price by 10–20%"
		}
	case "raises", "raise", "raised", "hikes", "sube", "suben", "subió", "aumenta", "aumentan", "augmente", "erhöht", "verhoogt":
		if priceNouns[word(toks, i+1)] || priceNouns[word(toks, i+2)] {
			p = -1 // "raises prices every year", "sube los precios"
		}
	case "ordered", "forced":
		if word(toks, i+2) == "to" && (word(toks, i+3) == "pay" || word(toks, i+3) == "stop") || word(toks, i+1) == "to" && (word(toks, i+2) == "pay" || word(toks, i+2) == "stop") {
			p = -1 // "the FTC ordered it to pay"
		}
	case "half":
		if word(toks, i+1) == "the" && priceNouns[word(toks, i+2)] {
			p = 1 // "for about half the price"
		}
	case "more":
		if prev == "costs" || prev == "cost" || prev == "charges" || prev == "charge" {
			p = -1
		}
	case "rated", "regarded", "reviewed":
		if prev == "highly" || prev == "well" || prev == "top" {
			p = 1
		}
	case "little":
		if prev != "a" {
			p = -1
		}
	case "longer":
		if prev == "no" {
			p = -1 // "no longer actively developed"
		} else if prev == "lasts" || prev == "last" || prev == "lasting" {
			p = 1 // "lasts far longer on a charge"
		} else if word(toks, i-2) == "lasts" || word(toks, i-2) == "last" {
			p = 1
		} else if lastingGoods[word(toks, i+1)] {
			p = 1 // "longer battery life", "a longer warranty"
		}
	case "marks":
		if prev == "high" {
			p = 1
		}
	case "breach", "breaches":
		if breachFeatures[word(toks, i+1)] {
			p = 0 // "breach alerts": a feature that watches for them
		}
	case "wide", "wider", "widest", "broad", "broader", "broadest", "vast", "huge", "extensive", "large", "larger", "big", "bigger":
		// "the widest selection", "a broad menu", "a wide range of scents":
		// much to choose from.
		if assortmentNouns[word(toks, i+1)] || assortmentNouns[word(toks, i+2)] && !toks[i+1].punct {
			p = 1
		}
	case "margin", "margins":
		// "add a 3% margin on the rate": a charge on top of the price.
		for j := i - 1; j >= 0 && i-j <= 5 && (!toks[j].punct || toks[j].w == "%"); j-- {
			if surchargeVerbs[toks[j].w] {
				p = -1
			}
		}
	case "hot":
		if prev == "sleep" || prev == "sleeps" || prev == "run" || prev == "runs" {
			p = -1
		}
	}
	// "Top options", "Popular organic cotton sheet brands include": no
	// praise of an option.
	if neutralLeadWords[w] && prev != "most" && prev != "more" {
		for j := i + 1; j < len(toks) && j-i <= 4 && !toks[j].punct && !predicateVerbs[toks[j].w]; j++ {
			// "the most discreet option" still praises the one option.
			if optionNouns[toks[j].w] && !(w == "most" && prev == "the" && !strings.HasSuffix(toks[j].w, "s")) {
				p = 0
			}
		}
	}
	// The negator of "look nothing like" and "no longer" is the cue's own.
	if p != 0 && negated(toks, i) && !(w == "like" && prev == "nothing") && !(w == "longer" && prev == "no") {
		p = -p
	}
	return p
}

// opensClause reports whether the brand at token i is the first word of
// its clause, past conjunctions and articles: its subject.
func (v *sentenceView) opensClause(i int) bool {
	for j := firstInClause(v, v.clause[i]); j >= 0 && j < i; j++ {
		if w := v.toks[j].w; !v.toks[j].punct && !andWords[w] && !butWords[w] && !whileWords[w] && !thoughWords[w] && !articles[w] && w != "a" && w != "an" {
			return false
		}
	}
	return true
}

// unelided returns w without an elided article or preposition of French
// or Italian glued to its front: "ottima" for "un'ottima", "app" for
// "l'app".
func unelided(w string) string {
	if i := strings.IndexByte(w, '\''); i > 0 && i+1 < len(w) && elisions[w[:i+1]] {
		return w[i+1:]
	}
	return w
}

// leadInTone is the stance an option line takes from its lead-in or
// heading: endorsing ("Good low-cost picks", "worth a look"), critical
// ("to avoid"), or none ("Top options", "Popular options include").
func (e *extraction) leadInTone(l line) int {
	intro := l.intro
	if l.kind != lineItem && l.kind != lineHeading || intro < 0 {
		intro = l.heading
	}
	if intro < 0 {
		return 0
	}
	il := e.d.lines[intro]
	if score := e.lineTone(il); score != 0 {
		return score
	}
	if il.kind == lineItem && il.intro >= 0 {
		return e.leadInTone(il)
	}
	// "## Best browsers for privacy" over a plain "These block trackers:".
	if intro != l.heading && l.heading >= 0 {
		return e.lineTone(e.d.lines[l.heading])
	}
	return 0
}

// lineTone is the stance of a lead-in or heading's evaluative words; of a
// paragraph, its last sentence leads in ("Glycinate is well absorbed. The
// brands that show up most in reviews are:").
func (e *extraction) lineTone(il line) int {
	start := il.start
	if il.kind == lineParagraph {
		for _, u := range e.d.units {
			if u.start >= il.start && u.end <= il.end {
				start = u.start
			}
		}
	}
	toks := tokenize(e.d.text, start, il.end)
	score := 0
	for i, t := range toks {
		if t.punct || neutralLeadWords[t.w] && !onTop(toks, i) {
			continue
		}
		score += polarity(toks, i)
	}
	return sign(score)
}

// onTop reports whether token i is the "top" of "come out on top": a
// verdict, where "Top options" only ranks and "on top of that" adds.
func onTop(toks []token, i int) bool {
	return toks[i].w == "top" && word(toks, i-1) == "on" && word(toks, i+1) != "of"
}

// articlesBetween counts the articles between tokens i and k: "Evite a
// Cielo e a Rede" names Rede as near as "Avoid Cielo and Rede".
func articlesBetween(toks []token, i, k int) int {
	n := 0
	for j := i + 1; j < k && j < len(toks); j++ {
		if articles[toks[j].w] || romanceArticles[toks[j].w] || toks[j].w == "a" || toks[j].w == "an" {
			n++
		}
	}
	return n
}
