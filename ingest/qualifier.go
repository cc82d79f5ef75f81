package ingest

import "strings"

// Qualifier: whether the claim about a brand is restricted to a reader
// situation ("if you need…", "for teams that…", "best for X").

// conditional reports whether the sentence restricts its claim about the
// brand at k to a reader situation: a cue in the brand's clauses or in a
// clause about no brand ("If you need X, …").
func (e *extraction) conditional(v *sentenceView, k int) bool {
	toks := v.toks
	brand := v.brandAt[k]
	about := make([]int, len(v.kind))
	for ci := range about {
		about[ci] = -1
	}
	for i, b := range v.brandAt {
		if b >= 0 && about[v.clause[i]] != brand && (b == brand || !measuredAgainst(toks, i)) {
			about[v.clause[i]] = b // not "better than Freshdesk if …": the clause is still its subject's
		}
	}
	// A clause without a brand continues the one before it.
	for ci := 1; ci < len(about); ci++ {
		if about[ci] < 0 && about[ci-1] >= 0 && v.kind[ci] != 0 {
			about[ci] = about[ci-1]
		}
	}
	for i := range toks {
		if i == firstWord(toks) && (conditionWords[toks[i].w] || readerIf(toks, i)) && v.clause[k] != v.clause[i] {
			// "If you want an app that replaced Mint, the picks are A and
			// B": the condition opening the sentence restricts the claim
			// after it, whatever name the condition itself mentions.
			return true
		}
		if a := about[v.clause[i]]; a >= 0 && a != brand {
			continue
		}
		if conditionalCue(toks, i) {
			return true
		}
	}
	return false
}

// conditionalCue reports whether token i restricts a claim to a reader
// situation.
func conditionalCue(toks []token, i int) bool {
	t := toks[i]
	switch t.w {
	case "if":
		if w := word(toks, i-1); w != "as" && w != "even" && w != "what" {
			return true
		}
	case "unless", "depending", "whenever", "si", "wenn", "sofern":
		return !thoughPairs[word(toks, i-1)+" "+t.w] // and "if" of other languages, not "auch wenn" (though)
	case "se":
		return readerIf(toks, i)
	case "als":
		switch word(toks, i+1) {
		case "je", "u", "jij", "du", "sie", "man":
			return true // "als je …": if you
		}
	case "quem", "quienes", "chi", "ceux":
		switch word(toks, i-1) {
		case "para", "per", "pour", "a", "à": // "para quem quer …", "adatto a chi": for people who
			return true
		}
	case "die", "które", "którzy", "som":
		// "für alle, die", "dla osób, które", "för den som": those who
		j := i - 1
		if j >= 0 && toks[j].w == "," {
			j--
		}
		return thoseWho[word(toks, j)]
	case "when":
		if w := word(toks, i+1); w == "you" || w == "your" {
			return true
		}
	case "long":
		if word(toks, i-1) == "as" && word(toks, i+1) == "as" {
			return true
		}
	case "for", "voor":
		switch word(toks, i-1) {
		case "best", "better", "ideal", "suited":
			return true
		case "overall", "all-around", "all-round":
			if word(toks, i-2) == "best" {
				return true // "Best all-around for long-term investors"
			}
		}
		for k := i + 1; k < len(toks) && k-i <= 4 && !toks[k].punct && !predicateVerbs[word(toks, k)]; k++ {
			switch word(toks, k) {
			case "that", "who", "whose", "looking", "needing", "wanting", "seeking", "requiring", "die":
				return k > i+1
			case "with", "met":
				// "for runners with wide feet", "voor huishoudens met
				// zonnepanelen": people with something; not "for web
				// scraping with residential proxies", a use.
				n := word(toks, k-1)
				return k > i+1 && (readerNouns[n] || strings.HasSuffix(n, "s") && !strings.HasSuffix(n, "ss"))
			}
			// "for companies hiring a few roles": a participle after a plural
			if w, n := word(toks, k), word(toks, k-1); k > i+1 && strings.HasSuffix(w, "ing") && len(w) > 5 && strings.HasSuffix(n, "s") && len(n) > 4 && !stopNames[n] && !ingNouns[w] {
				return true
			}
		}
	case "to":
		if word(toks, i-1) == "suited" {
			return true
		}
	case "who":
		switch word(toks, i-1) {
		case "those", "people", "anyone", "users", "buyers", "teams", "riders", "runners", "drivers", "travelers", "travellers",
			"parents", "owners", "families", "beginners", "players", "gamers", "students", "shoppers", "cooks", "homeowners",
			"renters", "freelancers", "creators", "businesses", "companies":
			return true
		}
	}
	return false
}

// readerIf reports whether "se" at i is the "if" of Italian or Portuguese:
// before the reader ("se você tem", "se tu"), a verb of the reader's in
// Italian ("se cerchi", "se vuoi") or, opening its clause, the Portuguese
// future subjunctive ("Se quiser"). Spanish and French "se" goes with a
// verb of the brand's ("se distingue").
func readerIf(toks []token, i int) bool {
	if toks[i].w != "se" {
		return false
	}
	next := word(toks, i+1)
	if next == "non" || next == "não" || next == "nao" {
		next = word(toks, i+2) // "se non acquisti": if you do not buy
	}
	switch {
	case next == "":
		return false
	case readerPronouns[next]:
		return true
	case strings.HasSuffix(next, "i") && len(next) > 2:
		return true
	case strings.HasSuffix(next, "r") && len(next) > 3:
		return i == firstWord(toks) || i > 0 && toks[i-1].w == ","
	}
	return false
}
