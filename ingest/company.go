package ingest

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Naming recognised brands: which capitalised phrases are names although
// made of ordinary words, and the company a product name belongs to.

// titleName reports whether a lead of ordinary words is a name all the
// same: two words or more, every one capitalised, none a label or an
// attribute ("Help Scout", "Home Chef", not "Customer Support", "Best
// Overall", "Ease of Use").
func (e *extraction) titleName(p phrase) bool {
	if p.label || p.rejected {
		return false
	}
	toks := e.tokens(p.unit)
	if p.to-p.from < 2 {
		return false
	}
	corporate := corporateWords[toks[p.to-1].w]
	for i, t := range toks[p.from:p.to] {
		rs := e.d.text[t.start:t.end]
		// A label word opens a label ("Best Overall"); later it may be a
		// product's word ("Final Cut Pro").
		if t.punct || !capitalised(rs) || labelWords[t.w] && (i == 0 || !productWords[t.w]) || attributeWord(t.w) && !corporate || properNames[t.w] && !corporate || stopNames[t.w] {
			return false
		}
	}
	return true
}

// attributeWord reports whether w names a quality or a part of a product
// rather than a thing: "support", "pricing", "reliability", "design".
func attributeWord(w string) bool {
	if attributeNouns[w] || attributeNouns[strings.TrimSuffix(w, "s")] {
		return true
	}
	w = strings.TrimSuffix(w, "s")
	for _, suf := range []string{"tion", "sion", "ity", "ment", "ness", "ance", "ence", "ing", "ics", "ship"} {
		if strings.HasSuffix(w, suf) && len(w) > len(suf)+2 {
			return true
		}
	}
	return false
}

// capitalisedAfterFirst reports whether a phrase of ordinary words in a
// paragraph has capitals past its first word ("State Farm is"), which a
// sentence start does not explain, and names no place.
func (e *extraction) capitalisedAfterFirst(ui int, p phrase) bool {
	toks := e.tokens(ui)
	if p.to-p.from < 2 || e.d.lines[e.d.units[ui].line].kind != lineParagraph || e.inBold(toks[p.from].start) {
		return false
	}
	for i, t := range toks[p.from:p.to] {
		rs := e.d.text[t.start:t.end]
		if i == 0 && t.w == "the" && !p.initial && capitalised(rs) {
			continue // "…, The League is": a capital the sentence does not explain
		}
		if properNames[t.w] || stopNames[t.w] || !capitalised(rs) || i > 0 && acronyms[string(rs)] {
			return false // an acronym is written in capitals anywhere: "One UI has"
		}
	}
	return true
}

// companyName is the brand a phrase names, at company level. A product
// name gives its maker: model numbers and product words go ("Moz Pro",
// "Gel-Kayano 31"), and the first word stays when the rest names a product
// ("Zoho CRM", "Bissell SpinWave", "CeraVe Moisturizing Cream") or the first
// word is written alone elsewhere. A firm's word ends the name ("Epic Games
// Store"), and so do the words before a product name written alone
// elsewhere ("Estée Lauder Double Wear" beside "Double Wear is"). Names ending in a company word ("O'Connell
// Analytics", "Speakeasy Labs"), joined by "&" or "of", or made of ordinary
// words ("Kicking Horse", "Capital One") stay whole.
func (e *extraction) companyName(p phrase) string {
	d := e.d
	toks := e.tokens(p.unit)
	if p.to-p.from > 1 && toks[p.to-1].w == "!" {
		// "Hello bank!": the name with its mark.
		q := p
		q.to--
		return e.companyName(q) + "!"
	}
	// "RED by SFR", "Filmora by Wondershare": a product by its maker is
	// the maker's; a work by a person ("Waking Up by Sam Harris") keeps its
	// own name.
	for j := p.from + 1; j+1 < p.to; j++ {
		if toks[j].w == "by" && e.isNameToken(toks[j+1], true) && !firstNames[toks[j+1].w] {
			return e.companyName(e.classifyPhrase(p.unit, toks, j+1, p.to))
		}
	}
	if word(toks, p.to) == "by" {
		for _, q := range e.phrases(p.unit) {
			if q.from == p.to+1 && !q.rejected && !q.ordinary && !q.tracked && !e.placeOrPerson(q) {
				return e.companyName(q)
			}
		}
	}
	if p.knownTo == p.to || p.knownTo > p.from && (!corporateWords[toks[p.to-1].w] || lineWords[toks[p.to-1].w]) && !(p.knownTo-p.from == 1 && (ordinaryWords(toks[p.from:p.knownTo]) || p.knownPossessive)) &&
		word(toks, p.from-1) != "from" {
		// A well-known brand keeps its whole name ("Pottery Barn") and
		// sheds a product's words ("Anker SOLIX F2000"), not a company's
		// ("Ally Bank" beside a listed "Ally", "Brightside Health", "the
		// JuiceBox from Enel X Way", where a product comes from its maker
		// named whole) but sheds a line's ("ClickHouse Cloud"); a listed
		// ordinary word or possessive opening a longer name is no maker
		// ("Power BI", "Carter's Desk"), a listed name of words more is
		// ("Capital One MONEY", "Minor Figures Oat M*lk", "Trader Joe's
		// Pale Ale").
		return e.nameOf(p, toks[p.from:p.knownTo], p.knownPossessive)
	}
	ts := toks[p.from:p.to]
	text := func(t token) []rune { return d.text[t.start:t.end] }
	n := len(ts)
	model := false
	for j := 1; j < n-1; j++ {
		if rs := text(ts[j]); modelNumber(rs) && !(corporateWords[ts[n-1].w] && !isCommonWord(ts[n-1].w)) {
			n, model = j, true // "Verizon 5G Home": the model and what follows it
			break
		}
	}
	for n > 1 {
		rs := text(ts[n-1])
		if productWords[ts[n-1].w] && (n == 2 || n == 3 && !nameConnectors[ts[1].w]) && ordinaryWords(ts[:n-1]) && !categoryNouns[ts[n-1].w] &&
			!(e.inBold(ts[0].start) && !e.inBold(ts[n-1].start)) {
			break // "Capital One", "Final Cut Pro", but "Framework Laptop 13" is a laptop by Framework, and "**Stream** Pro" Stream's
		}
		if corporateWords[ts[n-1].w] {
			break // "O'Neill HQ"
		}
		if hasDigit(rs) || productWords[ts[n-1].w] || camelCase(rs) || len(rs) <= 4 && strings.ToUpper(string(rs)) == string(rs) && !unicode.IsDigit(rs[0]) {
			n--
			model = true
			continue
		}
		if n > 2 && !isCommonWord(ts[n-1].w) && !corporateWords[ts[n-1].w] && unicode.IsUpper(rs[0]) && e.writtenLower(ts[n-1].start, ts[n-1].end) {
			n-- // "Magnesium Glycinate" beside "magnesium glycinate is": the product's kind; two words stay a name ("Green Chef")
			continue
		}
		if n > 2 && attributeWord(ts[n-1].w) && !corporateWords[ts[n-1].w] && !nameConnectors[ts[n-2].w] {
			// "Doctor's Best High Absorption": a quality the product
			// offers, with the ordinary words that qualify it.
			n--
			for n > 2 && isCommonWord(ts[n-1].w) && !corporateWords[ts[n-1].w] && !nameConnectors[ts[n-1].w] {
				n--
			}
			continue
		}
		if model && ts[n-1].w == "+" {
			n-- // "Hulu + Live TV": the plus joins the product's words
			continue
		}
		break
	}
	ts = ts[:n]
	if len(ts) > 2 && nameArticles[ts[0].w] && p.initial && !strings.Contains(ts[1].w, "-") && e.articleBeforeNames(ts[0].w) {
		ts = ts[1:] // "La Toyota Aygo X" where the answer writes "la Hyundai i10": the article of a make and model
	}
	first := 1
	if len(ts) > 1 && nameArticles[ts[0].w] {
		first = 2 // "La Roche-Posay", "Das Keyboard"
	}
	if len(ts) > first {
		head, second := ts[first-1], ts[first]
		rest := ts[first:]
		connected := false
		for _, t := range ts[first-1:] {
			connected = connected || nameConnectors[t.w] || strings.Contains(t.w, "&")
		}
		firm := slices.IndexFunc(ts[first:len(ts)-1], func(t token) bool { return firmWords[t.w] })
		plus := slices.IndexFunc(ts, func(t token) bool { return t.w == "+" })
		product := 0 // the first word of a product name written alone elsewhere
		if len(ts) > first+1 {
			product = e.tailWrittenAlone(ts, first)
		}
		switch {
		case firmAct(toks, p.to):
			// "Herman Miller, which acquired Fully": only a company buys
			// one, so no maker and product.
		case first == 1 && e.citedSites[head.w+" "+second.w]:
			ts = ts[:2] // "Cash App Taxes" beside cash.app: the site's whole name and its product
		case first == 1 && e.citedSites[head.w] && !corporateWords[ts[len(ts)-1].w]:
			ts = ts[:1] // "Level Lock" beside level.co: the site's owner and its product
		case first == 1 && makers[head.w]:
			ts = ts[:1] // "Google Analytics", "Microsoft Defender": the maker's product
		case word(toks, p.from-1) == "from" && !sourceNouns[word(toks, p.from-2)] && !p.initial:
			// "the JuiceBox from Enel X Way": what a product comes from is
			// its maker, named whole.
		case len(ts) == first+1 && head.w == second.w:
			// "Nom Nom": a name that repeats its word
		case e.collaboration(toks, p.to):
			// "Herman Miller x Logitech G Embody": the first brand whole,
			// the product's name follows the second
		case firm >= 0:
			ts = ts[:first+firm+1] // "Fenty Beauty Pro Filt'r", "Epic Games Store": the firm and its product
		case product > 0:
			// "Estée Lauder Double Wear" beside "Double Wear is": the
			// words before the product's are the company's.
			e.productTails[strings.ToLower(string(d.text[ts[product].start:ts[len(ts)-1].end]))] = string(d.text[ts[0].start:ts[product-1].end])
			ts = ts[:product]
		case len(ts) == first+1 && corporateWords[second.w] && !firmWords[second.w] && !head.poss && e.writtenAlone(text(head), second.w):
			ts = ts[:first] // "Grafana Cloud" beside "Grafana dashboards": the maker's product line
		case first == 1 && len(text(head)) >= 3 && allCapitals(text(head)) && !corporateWords[ts[len(ts)-1].w] && titleWords(d.text, ts[1:]):
			ts = ts[:1] // "SAP Concur", "BILL Spend & Expense": a name in capitals, then its product
		case plus > 0 && ordinaryWords(ts[plus+1:]):
			ts = ts[:plus] // "Hulu + Live TV": the service and its package
		case connected:
			// "The Dental Clinic & GT Concept", "Bank of America", "Kuehne + Nagel"
		case camelCase(text(second)) && !head.poss && !isCommonWord(head.w):
			ts = ts[:first] // "Apple MacBook", "Bissell SpinWave", not "Sausage McMuffin"
		case model && !isCommonWord(head.w) && !head.poss && !nameConnectors[second.w] && !(corporateWords[ts[len(ts)-1].w] && !isCommonWord(ts[len(ts)-1].w)):
			ts = ts[:first] // "Honeywell Home T9"
		case nameConnectors[second.w] || corporateWords[ts[len(ts)-1].w] || nameEndings[ts[len(ts)-1].w] || foreignCommonNouns[ts[0].w] || head.poss:
		case model && len(ts) == 2 && !strings.HasSuffix(second.w, "s") && slices.ContainsFunc(toks[p.from+2:p.to], func(t token) bool { return hasDigit(text(t)) }) && e.siblingsNameModels(p):
			ts = ts[:first] // "Brooks Ghost 16" beside "Nike Pegasus 41": a maker and its model
		case isCommonWord(head.w) && e.possessiveInProse(text(head)):
			ts = ts[:first] // "Square Appointments" beside "Square's card readers": the owner's product
		case isCommonWord(head.w), strings.HasSuffix(head.w, "ing") && len(head.w) > 5 && !head.poss:
			// "Capital One", "Screaming Frog": a name of a word or a participle, no maker
		case len(ts) == 2 && !model && e.label(p) && !e.writtenAlone(text(head), second.w) && !e.siblingsNameModels(p):
			// "**Topo Chico:**", "**Hello Bello** –": a label of two words
			// and no model is the brand's whole name, unless its first word
			// is written alone ("Zoho Sign" beside "Zoho's other apps").
		case len(ts) == 2 && second.poss && !model && !productWords[second.w]:
			// "Kirkland Signature's tour ball": what owns is the company
		case len(ts) == 2 && isCommonWord(second.w) && strings.HasSuffix(second.w, "s") && !productWords[second.w]:
			// "Vivid Seats", "Healthy Paws": a plural noun names the company.
		case productWords[second.w], len(rest) >= 2, !isCommonWord(second.w), ordinaryWords(rest) && (!e.leadPhrase(p) || e.siblingsNameModels(p)):
			// "Amazon Fire" and "Apple Notes" are products of their maker
			// "Kia Ceed Sportswagon", "CeraVe Moisturizing Cream", "Nike Pegasus"
			ts = ts[:first]
		case e.writtenAlone(text(head), second.w):
			ts = ts[:first]
		}
	}
	return e.nameOf(p, ts, p.from+len(ts) == p.to && ts[len(ts)-1].poss && ownsNothing(toks, p.to))
}

// nameOf is the name written by the tokens ts of phrase p, with the
// possessive after them when it is the name's ("Schmidt's:", "Kiehl's is",
// "Trader Joe's"), or the maker of a product line known better than it.
func (e *extraction) nameOf(p phrase, ts []token, possessive bool) string {
	d := e.d
	end := ts[len(ts)-1].end
	if possessive {
		end = possessiveEnd(d.text, end)
	}
	start := ts[0].start
	if w := ts[0].w; unelided(w) != w && unicode.IsLower(d.text[start]) {
		start += len([]rune(w)) - len([]rune(unelided(w))) // "d'Orange": the name after its elided article
	}
	name := string(d.text[start:end])
	maker, ok := productMakers[strings.ToLower(name)]
	if m := e.makerWrittenBefore(name); m != "" {
		maker, ok = m, true // "Teams Phone" beside "Microsoft Teams": that maker's product
	}
	if ok {
		// "Chrome and Edge": the browsers of Google and Microsoft.
		if !slices.Contains(e.writtenAs[maker], name) {
			e.writtenAs[maker] = append(e.writtenAs[maker], name)
		}
		return maker
	}
	return name
}

// makerWrittenBefore returns the maker the answer writes right before name
// ("Microsoft Teams" for "Teams"), "" when it writes none there.
func (e *extraction) makerWrittenBefore(name string) string {
	maker, ok := e.makerBefore[name]
	if !ok {
		maker = e.findMakerBefore(name)
		e.makerBefore[name] = maker
	}
	return maker
}

func (e *extraction) findMakerBefore(name string) string {
	text := e.text
	for i := 0; ; {
		j := strings.Index(text[i:], " "+name)
		if j < 0 {
			return ""
		}
		j += i
		i = j + 1
		after, _ := utf8.DecodeRuneInString(text[j+1+len(name):])
		if j+1+len(name) < len(text) && isWordRune(after) {
			continue
		}
		k := strings.LastIndexFunc(text[:j], func(r rune) bool { return !isWordRune(r) })
		if k >= 0 {
			_, size := utf8.DecodeRuneInString(text[k:])
			k += size
		} else {
			k = 0
		}
		if maker := text[k:j]; makers[strings.ToLower(maker)] && capitalised([]rune(maker)) {
			return maker
		}
	}
}

// firmAct reports whether the words from token k say what a company does
// to another, directly or in a relative clause: "… acquired", "…, which
// merged with".
func firmAct(toks []token, k int) bool {
	if k < len(toks) && toks[k].w == "," && relativePronouns[word(toks, k+1)] {
		k += 2
	}
	return firmVerbs[word(toks, k)]
}

// allCapitals reports whether a word of two letters or more is written in
// capital letters only ("SAP", "BILL"; not "V&C").
func allCapitals(rs []rune) bool {
	for _, r := range rs {
		if !unicode.IsUpper(r) {
			return false
		}
	}
	return len(rs) >= 2
}

// titleWords reports whether every word of ts is capitalised but not in
// capitals, connectors aside: a product's name ("Spend & Expense").
func titleWords(text []rune, ts []token) bool {
	for _, t := range ts {
		if nameConnectors[t.w] {
			continue
		}
		if rs := text[t.start:t.end]; t.punct || !capitalised(rs) || allCapitals(rs) {
			return false
		}
	}
	return true
}

// collaboration reports whether the phrase ending before token i is the
// first brand of a collaboration: "x" and a capitalised name follow.
func (e *extraction) collaboration(toks []token, i int) bool {
	return i+1 < len(toks) && (toks[i].w == "x" || toks[i].w == "×") && !toks[i+1].punct && e.capitalisedAt(toks, i+1)
}

// articleBeforeNames reports whether the answer writes the article w in
// lower case before a capitalised word: "la Hyundai i10", "la Toleriane".
func (e *extraction) articleBeforeNames(w string) bool {
	toks := tokenize(e.d.text, 0, len(e.d.text))
	for i := 0; i+1 < len(toks); i++ {
		if toks[i].w == w && !e.capitalisedAt(toks, i) && !toks[i+1].punct && e.capitalisedAt(toks, i+1) {
			return true
		}
	}
	return false
}

// label reports whether a lead phrase is all of a bold label or list lead:
// the line's first words, set off by a separator or the end.
func (e *extraction) label(p phrase) bool {
	toks := e.tokens(p.unit)
	if !e.leadPhrase(p) || !e.inBold(toks[p.from].start) {
		return false
	}
	if p.to == len(toks) {
		return true
	}
	switch toks[p.to].w {
	case ":", "–", "—", "-", "(", "|":
		return true
	}
	return false
}

// siblingsNameModels reports whether most leads of the phrase's list or
// table that start with a configured name go on with a model ("Seiko 5 Sports",
// "Casio G-Shock"): then a lead of two words is a brand and its model too
// ("Orient Bambino").
func (e *extraction) siblingsNameModels(p phrase) bool {
	d := e.d
	l := d.lines[d.units[p.unit].line]
	tracked, models := 0, 0
	// A list of one item takes the other lists of the answer as its
	// siblings ("Top options for rain: - **Brooks Ghost 16 GTX**").
	lone := l.kind == lineItem && !slices.ContainsFunc(d.lines, func(o line) bool {
		return o.kind == lineItem && o.list == l.list && o.first && o.start != l.start
	})
	for _, o := range d.lines {
		sibling := l.kind == lineItem && o.kind == lineItem && (o.list == l.list || lone) && o.first ||
			l.kind == lineRow && o.kind == lineRow && o.list == l.list ||
			l.kind == lineParagraph && o.kind == lineParagraph && o.boldLead && o.heading == l.heading
		if !sibling || o.start == l.start {
			continue
		}
		start := o.start
		if o.kind == lineRow && len(o.cells) > 0 {
			start = o.cells[0].start
		}
		for _, m := range e.tracked {
			if m.start < start || m.start > start+2 || m.end >= o.end {
				continue
			}
			tracked++
			rest := tokenize(d.text, m.end, min(o.end, m.end+20))
			if len(rest) > 0 && !rest[0].punct && (capitalised(d.text[rest[0].start:rest[0].end]) || hasDigit(d.text[rest[0].start:rest[0].end])) {
				models++
			}
			break
		}
	}
	return tracked > 0 && models*2 > tracked
}

// ownsNothing reports whether what follows a possessive is no noun it
// owns: punctuation, the end, a verb or a conjunction.
func ownsNothing(toks []token, i int) bool {
	if i >= len(toks) || toks[i].punct {
		return true
	}
	w := toks[i].w
	return predicateVerbs[w] && !productWords[w] || w == "and" || w == "or"
}

// possessiveEnd extends a name ending at end over the possessive after it.
func possessiveEnd(text []rune, end int) int {
	if end < len(text) && (text[end] == '\'' || text[end] == '’') {
		end++
		if end < len(text) && (text[end] == 's' || text[end] == 'S') {
			end++
		}
	}
	return end
}

// leadPhrase reports whether a phrase leads an option line: there a name
// of ordinary words is the company's own ("Monarch Money"), in prose more
// often a product line ("Amazon Fire tablets").
func (e *extraction) leadPhrase(p phrase) bool {
	l := e.d.lines[e.d.units[p.unit].line]
	if l.kind == lineRow || l.kind == lineHeader {
		start := e.tokens(p.unit)[p.from].start
		for _, c := range l.cells {
			if c.start == start {
				return true // a cell's first words: "| SE Ranking |"
			}
		}
	}
	return p.from <= firstWord(e.tokens(p.unit))+1 && (l.kind != lineParagraph || l.boldLead)
}

// ordinaryWords reports whether every token is an ordinary word and none a
// company word ("Fire", not "Labs").
func ordinaryWords(ts []token) bool {
	for _, t := range ts {
		if !isCommonWord(t.w) || corporateWords[t.w] {
			return false
		}
	}
	return true
}

// tailWrittenAlone returns the index of the first word of a product name
// that ends the phrase ts after two words or more of the company's and is
// written elsewhere in the answer by itself ("Double Wear is" beside
// "Estée Lauder Double Wear"), 0 when there is none.
func (e *extraction) tailWrittenAlone(ts []token, first int) int {
	text := e.d.text
	for m := first + 1; m < len(ts); m++ {
		if nameConnectors[ts[m-1].w] || ts[m-1].punct || m == len(ts)-1 && (corporateWords[ts[m].w] || productWords[ts[m].w]) {
			continue // "D'Arcy & Co" is one name; "Pro" alone ("with paid Pro") names no product
		}
		tail := text[ts[m].start:ts[len(ts)-1].end]
		for i := 0; i+len(tail) <= len(text); i++ {
			if i == ts[m].start || string(text[i:i+len(tail)]) != string(tail) ||
				i > 0 && isWordRune(text[i-1]) || i+len(tail) < len(text) && isWordRune(text[i+len(tail)]) {
				continue
			}
			if before := tokenize(text, max(0, i-40), i); len(before) > 0 {
				b := before[len(before)-1]
				if b.w == ts[m-1].w || !b.punct && (capitalised(text[b.start:b.end]) || !isCommonWord(b.w) && !allDigits(b.w)) {
					continue // the whole name again, or part of another: "Wyze Cam" beside "Eufy Indoor Cam", "eufy Video Doorbell"
				}
			}
			return m
		}
	}
	return 0
}

// writtenAlone reports whether a word is written as a name elsewhere in the
// answer without the word that follows it here ("Zoho" or "Zoho Desk"
// beside "Zoho CRM").
func (e *extraction) writtenAlone(w []rune, next string) bool {
	text := e.d.text
	for i := 0; i+len(w) <= len(text); i++ {
		if string(text[i:i+len(w)]) != string(w) || i > 0 && isWordRune(text[i-1]) || i+len(w) < len(text) && isWordRune(text[i+len(w)]) {
			continue
		}
		toks := tokenize(text, i+len(w), min(len(text), i+len(w)+30))
		if len(toks) == 0 || toks[0].w != next {
			return true
		}
	}
	return false
}

// isTrackedName reports whether a recognised name is or holds a configured
// name, or is a piece of one ("Cloud" of "Acme Cloud").
func (e *extraction) isTrackedName(name string) bool {
	rs := []rune(name)
	f := foldRunes(rs)
	if len(e.m.find(rs, f)) > 0 {
		return true
	}
	for _, p := range e.m.patterns {
		if !p.domain && len(p.folded) > len(f) && containsWord(p.folded, f) {
			return true
		}
	}
	return false
}

// containsWord reports whether needle occurs in hay at word boundaries.
func containsWord(hay, needle []rune) bool {
	for i := 0; i+len(needle) <= len(hay); i++ {
		if string(hay[i:i+len(needle)]) == string(needle) &&
			(i == 0 || !isWordRune(hay[i-1])) && (i+len(needle) == len(hay) || !isWordRune(hay[i+len(needle)])) {
			return true
		}
	}
	return false
}
