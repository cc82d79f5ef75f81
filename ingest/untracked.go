package ingest

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Untracked brands.
//
// recogniseUntracked finds the competing brands an answer names that the
// project does not track. A candidate is a phrase
// of capitalised or mixed-case words ("Zoho CRM", "iPhone 16 Pro",
// "Kicking Horse", "La Roche-Posay"), taken only where answers put brands:
//
//   - leading an item of a list, a table row (the first column) or a table
//     header (cells after the first), an option heading ("### 2. Beehiiv",
//     "## A vs B") or a paragraph that opens in bold;
//   - after "such as", "like", "including", "include", "e.g.", "vs",
//     "than", "compared to", "alternative to", "unlike";
//   - enumerated with a brand ("A, B and C" with a tracked B);
//   - as the subject of a sentence about it ("Epson EcoTank is a good
//     choice", "Exxon has followed suit") when a word of it is not an
//     ordinary word;
//   - anywhere in a sentence when it is a well-known brand (known.go) and
//     not a platform the subject works with ("sold at Home Depot", not
//     "integrates with Zapier").
//
// Refused: ordinary words where capitals prove nothing (a sentence or line
// start, bold, headings) unless the list is one of brands, bold labels and
// section words ("Price:", "Verdict"), publishers, public bodies,
// programming languages, people (a given name, or after "Dr.",
// "researcher"), places, and the features of a product ("extras like
// Watchtower"). A phrase holding a tracked name is that brand's.
//
// The brand is named at company level: a product name gives its maker
// ("Nike Pegasus" → "Nike", "Sony WH-1000XM5" → "Sony", "Zoho CRM" →
// "Zoho"), see companyName.
func (e *extraction) recogniseUntracked() []string {
	var names []string
	seen := map[string]bool{}
	accept := func(name string) {
		if name != "" && !seen[strings.ToLower(name)] && !e.isTrackedName(name) {
			seen[strings.ToLower(name)] = true
			names = append(names, name)
		}
	}
	d := e.d
	// Lists and tables of brands: most leads are brands.
	leads := map[int][]phrase{} // list -> lead phrases
	var headings []phrase
	namedAtLevel := map[int]int{}    // heading level -> headings led by a name
	lowerLeads := map[int][]string{} // list -> bold lower-case leads ("**comdirect** –")
	// Bold lines standing as titles, and the headings under which one is
	// written in sentence case: there the others title sections too
	// ("**Budget options**" beside "**Moisturizers**").
	titles, sectioned := map[int]bool{}, map[int]bool{}
	for ui, u := range d.units {
		l := d.lines[u.line]
		if u.start != l.start {
			continue
		}
		if name, ok := e.lowerCaseLabel(ui); ok && l.kind == lineItem {
			lowerLeads[l.list] = append(lowerLeads[l.list], name)
		}
		if (l.kind == lineParagraph || l.kind == lineHeading && l.level == boldHeadingLevel) && e.boldLine(l) {
			titles[ui] = true
			if toks := e.tokens(ui); firstWord(toks) >= 0 && e.sentenceCase(toks, phrase{from: firstWord(toks)}) {
				sectioned[l.heading] = true
			}
		}
		if p, ok := e.lead(ui); ok {
			switch {
			case l.kind == lineItem || l.kind == lineRow:
				leads[l.list] = append(leads[l.list], p)
			case l.kind == lineHeading:
				headings = append(headings, p)
				namedAtLevel[l.level]++
			case l.boldLead && !e.gerund(p):
				// Paragraphs opening in bold under one heading are options
				// like a list's items ("**US Mobile** – Lets you …").
				leads[-2-l.heading] = append(leads[-2-l.heading], p)
			case (!p.ordinary || e.titleName(p)) && !p.rejected && !e.gerund(p):
				accept(e.companyName(p))
			}
		}
	}
	// A heading names an option when numbered ("### 2. Beehiiv"), set
	// against another ("## A vs B") or one of several sibling headings that
	// each lead with a name; a lone title ("Dropshipping Suppliers") does not.
	numbered := func(p phrase) bool {
		toks := e.tokens(p.unit)
		return p.from > 0 && allDigits(toks[p.from-1].w) || p.from > 1 && toks[p.from-1].w == "." && allDigits(toks[p.from-2].w)
	}
	// Numbered headings most of which name brands are a ranking of
	// options: there a plain word is a name too ("### 4. Close").
	brandsAtLevel, numberedAtLevel := map[int]int{}, map[int]int{}
	for _, p := range headings {
		if l := d.lines[d.units[p.unit].line]; numbered(p) {
			numberedAtLevel[l.level]++
			if p.tracked || !p.ordinary || e.titleName(p) {
				brandsAtLevel[l.level]++
			}
		}
	}
	optionHeadings := map[int]bool{} // heading lines that name one option
	for _, p := range headings {
		l := d.lines[d.units[p.unit].line]
		toks := e.tokens(p.unit)
		num := numbered(p)
		ranked := num && brandsAtLevel[l.level] >= 2 && brandsAtLevel[l.level]*2 > numberedAtLevel[l.level] && !p.label
		vs := p.to < len(toks) && (toks[p.to].w == "vs" || toks[p.to].w == "versus")
		if !(num || vs || namedAtLevel[l.level] >= 2) || p.rejected || e.gerund(p) ||
			titles[p.unit] && sectioned[l.heading] && p.to-p.from == 1 {
			continue
		}
		// "## Best one-time purchase: Things 3": a version after a label
		// names a product, its word ordinary or not.
		versioned := p.from > 0 && toks[p.from-1].w == ":" && slices.ContainsFunc(toks[p.from:p.to], func(t token) bool { return hasDigit(e.d.text[t.start:t.end]) })
		named := !p.ordinary || e.titleName(p) || ranked || versioned
		if p.tracked || named {
			optionHeadings[d.units[p.unit].line] = true
		}
		if named && !p.tracked {
			accept(e.companyName(p))
		}
	}
	described := map[int]bool{} // lists that describe one option
	for _, l := range d.lines {
		if l.kind == lineItem && l.list >= 0 {
			if _, ok := described[l.list]; !ok {
				described[l.list] = e.describesOption(l.list, optionHeadings)
			}
		}
	}
	for list, ps := range leads {
		if !e.rowsAreOptions(list, ps) || list >= 0 && described[list] {
			continue
		}
		brands := 0
		for _, p := range ps {
			if !p.ordinary || p.tracked || e.titleName(p) {
				brands++
			}
		}
		lenient := brands >= 2 && brands*2 >= len(ps)
		for _, p := range ps {
			if titles[p.unit] && sectioned[d.lines[d.units[p.unit].line].heading] && p.to-p.from == 1 {
				continue
			}
			if !p.tracked && !p.rejected && (!p.ordinary || e.titleName(p) || lenient && !p.label) {
				accept(e.companyName(p))
			}
		}
	}
	for _, h := range d.lines {
		if h.kind == lineHeader {
			e.headerCells(h, accept)
			e.nameColumns(h, accept)
		}
	}
	// A lower-case bold lead names a brand ("**comdirect** –") in a list
	// whose other leads are brands.
	for list, ns := range lowerLeads {
		if described[list] {
			continue
		}
		brands := 0
		for _, p := range leads[list] {
			if p.tracked || !p.ordinary {
				brands++
			}
		}
		if brands >= 2 {
			for _, n := range ns {
				accept(n)
			}
		}
	}
	for _, l := range d.links {
		if name, ok := e.linkName(l); ok {
			if !seen[strings.ToLower(name)] {
				e.weak[strings.ToLower(name)] = true
			}
			accept(name)
		}
	}
	for pass := 0; pass < 2; pass++ {
		for ui := range d.units {
			for _, p := range e.phrases(ui) {
				if p.rejected && e.placeNamedAsFirm(ui, p) {
					p.rejected = false // "luxury lines such as Viking and Oceania"
				}
				if p.tracked || p.rejected {
					continue
				}
				toks := e.tokens(ui)
				switch {
				case e.possessor(ui, p), e.ownerAfterOf(ui, p), e.makerAfterBy(ui, p), e.ampersandName(ui, p):
				case !p.ordinary && (!p.initial && (articles[word(toks, p.from-1)] || word(toks, p.from-1) == "a" || word(toks, p.from-1) == "an") || afterColon(d.text, toks[p.from].start)) && suppliedAfter(toks, p.to):
					// "a Bosch motor", "the SoftBank and KDDI networks", "**OnePlus 13:** Hasselblad
					// tuning": a maker before what it supplies.
				case tierEnd(toks, p.to) == p.to+1 && e.tierName(ui, &p):
					// "Bundles Disney+ and ESPN+": a paid tier's "+" marks a service.
				case p.to-p.from >= 2 && !p.initial && firmWords[toks[p.to-1].w] && !(p.from > 0 && toks[p.from-1].poss) && !e.placeOrPerson(p) &&
					!(strings.HasSuffix(toks[p.from].w, "ly") && isCommonWord(toks[p.from].w)):
					// "the merger with Hawaiian Airlines": a firm's word ends a
					// name inside a sentence; not a possessive's ("America's Test
					// Kitchen") nor after an adverb ("Formerly Anytype Labs").
				case e.cueBefore(ui, p) && (!p.ordinary || !p.initial) && !e.besideCommonNoun(ui, p):
				case e.coordinated(ui, p, seen) && (!p.ordinary || !p.initial || e.pairedSubject(ui, p, seen)) && !e.featureWith(ui, p):
				case e.knownInProse(toks, p):
					// "sold at Home Depot", "if you pay for Datadog"
				case pass == 0 && e.subject(ui, p) && !(described[d.lines[d.units[ui].line].list] && d.lines[d.units[ui].line].kind == lineItem && p.initial) &&
					!e.partUnderOption(ui, p, optionHeadings):
					// A feature opening a line that describes an option is
					// no subject name: "Torque sensor gives a natural feel".
					if name := e.companyName(p); !seen[strings.ToLower(name)] {
						e.weak[strings.ToLower(name)] = true
					}
				default:
					continue
				}
				// "**My pick:** Artifact Uprising if …" beside the lead
				// "**Artifact Uprising** –": a name already read whole.
				if full := string(d.text[toks[p.from].start:toks[p.to-1].end]); seen[strings.ToLower(full)] {
					continue
				}
				accept(e.companyName(p))
			}
		}
	}
	// A product written alone is its company's, once that is named:
	// "Double Wear is" beside "Estée Lauder Double Wear", "| Turbo Vado |"
	// beside "Specialized Turbo Vado". A possessive written once is the
	// name written bare elsewhere: "than Robinhood's" beside "Robinhood".
	text := string(d.text)
	return slices.DeleteFunc(names, func(n string) bool {
		company, ok := e.productTails[strings.ToLower(n)]
		if ok && seen[strings.ToLower(company)] && !strings.EqualFold(company, n) {
			return true
		}
		for _, o := range names {
			if o != n && (wordAt(text, o+" "+n) || strings.TrimSuffix(strings.TrimSuffix(n, "'s"), "’s") == o ||
				strings.HasSuffix(n, " of "+o)) { // "World of Hyatt" beside "Hyatt points"
				return true
			}
		}
		return false
	})
}

// partUnderOption reports whether a phrase opening a sentence under an
// option's heading names a numbered model ("Tensor G3 runs warm" under
// "### Google Pixel 8a"): the option's part, not another maker.
func (e *extraction) partUnderOption(ui int, p phrase, optionHeadings map[int]bool) bool {
	l := e.d.lines[e.d.units[ui].line]
	toks := e.tokens(ui)
	return l.kind == lineParagraph && l.heading >= 0 && optionHeadings[l.heading] && p.from == firstWord(toks) &&
		p.to-p.from == 2 && modelNumber(e.d.text[toks[p.to-1].start:toks[p.to-1].end])
}

// wordAt reports whether s occurs in text at word boundaries.
func wordAt(text, s string) bool {
	for i := 0; ; {
		j := strings.Index(text[i:], s)
		if j < 0 {
			return false
		}
		j += i
		before, _ := utf8.DecodeLastRuneInString(text[:j])
		after, _ := utf8.DecodeRuneInString(text[j+len(s):])
		if (j == 0 || !isWordRune(before)) && (j+len(s) == len(text) || !isWordRune(after)) {
			return true
		}
		i = j + 1
	}
}

// phrase is a candidate name: tokens [from, to) of a sentence.
type phrase struct {
	unit, from, to int
	ordinary       bool // only ordinary words, stop names or acronyms
	initial        bool // starts its sentence or line
	tracked        bool // holds or is inside a tracked match
	rejected       bool // a publisher, person, body, language or label
	label          bool // a label word
	// knownTo ends the well-known brand the phrase opens (knownbrands.txt),
	// from when none; knownPossessive: its name takes the "'s" after it.
	knownTo         int
	knownPossessive bool
}

// isNameToken reports whether a token can be part of a brand name.
func (e *extraction) isNameToken(t token, first bool) bool {
	if t.punct {
		return false
	}
	if contraction(t.w) {
		return false // "Don't", "I'd"
	}
	rs := e.d.text[t.start:t.end]
	if capitalised(rs) || unicode.IsLower(rs[0]) && mixedCase(rs) {
		return true
	}
	if unicode.IsDigit(rs[0]) && mixedCase(rs) && strings.IndexFunc(string(rs), unicode.IsLower) >= 0 {
		return true // "1Zpresso", "23andMe", not "4K"
	}
	return !first && (unicode.IsDigit(rs[0]) || hasDigit(rs))
}

// phrases returns the candidate phrases of sentence ui.
func (e *extraction) phrases(ui int) []phrase {
	if ps, ok := e.phraseCache[ui]; ok {
		return ps
	}
	toks := e.tokens(ui)
	var out []phrase
	for k := 0; k < len(toks); {
		if !e.isNameToken(toks[k], true) && !e.boldNumberName(toks, k) && !e.itemLeadCoinage(ui, toks, k) || e.inChip(toks[k].start) {
			k++
			continue
		}
		j := k + 1
		for j < len(toks) && j-k < 7 && (!toks[j-1].poss || possessiveNameNouns[toks[j].w] && e.isNameToken(toks[j], false)) {
			gap := e.d.text[toks[j-1].end:toks[j].start]
			if toks[j-1].poss {
				gap = []rune(strings.TrimLeft(string(gap), "'’s"))
			}
			if string(gap) == " " && e.isNameToken(toks[j], false) {
				if e.trackedAt(toks[j].start) && !e.trackedAt(toks[k].start) && !ordinaryWords(toks[k:j]) &&
					(e.writtenAlone(e.d.text[toks[k].start:toks[j-1].end], toks[j].w) || e.namesRunInto(toks[j].start)) {
					// "Ray-Ban Meta" beside "the Ray-Ban model", "Oakley Meta"
					// beside "Ray-Ban Meta": a name written alone, or one of
					// several names run on into the same tracked one, is a
					// collaboration of two brands, where "Norton LifeLock" is a
					// parent and its product.
					break
				}
				j++
				continue
			}
			if (string(gap) == " " || gap == nil) && nameConnectors[toks[j].w] && !andWords[toks[j].w] && toks[j].w != "et" && toks[j].w != "und" &&
				j+1 < len(toks) && e.isNameToken(toks[j+1], false) &&
				(toks[j].w == "&" || toks[j].w == "+" || !capitalised(e.d.text[toks[j].start:toks[j].end])) {
				j += 2
				continue
			}
			break
		}
		// "Hello bank! est …": an exclamation mark glued to a lower-case
		// word inside a sentence ends the name it belongs to.
		if j+1 < len(toks) && !toks[j].punct && !stopNames[toks[j].w] && !functionWords[toks[j].w] && unicode.IsLower(e.d.text[toks[j].start]) &&
			toks[j+1].w == "!" && toks[j+1].start == toks[j].end && j+2 < len(toks) && (toks[j+2].punct || unicode.IsLower(e.d.text[toks[j+2].start])) {
			j += 2
		}
		// Leading function words are not part of the name: "The", "Try".
		// A capitalised "The" inside a sentence, the subject of a verb,
		// is: "…, The League is a good choice".
		from := k
		for from < j && leadingFunctionWords[toks[from].w] && !e.nameArticle(toks, from, j) {
			from++
		}
		if from > k && from < j && stopNames[toks[from].w] && j-from == 1 {
			from = k // "About You": a name of function words keeps them all
		}
		if from < j && (e.isNameToken(toks[from], true) || e.boldNumberName(toks, from) || e.itemLeadCoinage(ui, toks, from)) {
			out = append(out, e.classifyPhrase(ui, toks, from, j))
		}
		k = j
	}
	e.phraseCache[ui] = out
	return out
}

// namesRunInto reports whether the answer runs two different names on into
// the tracked name starting at pos ("Ray-Ban Meta", "Oakley Meta"): a
// tracked brand has one parent, so they are its partners.
func (e *extraction) namesRunInto(pos int) bool {
	var name string
	for _, m := range e.tracked {
		if m.start == pos {
			name = string(e.d.text[m.start:m.end])
		}
	}
	var before string
	for _, m := range e.tracked {
		if string(e.d.text[m.start:m.end]) != name || m.start < 2 || e.d.text[m.start-1] != ' ' {
			continue
		}
		toks := tokenize(e.d.text, max(0, m.start-40), m.start-1)
		if len(toks) == 0 || toks[len(toks)-1].end != m.start-1 {
			continue
		}
		t := toks[len(toks)-1]
		if w := e.d.text[t.start:t.end]; !t.punct && capitalised(w) && !isCommonWord(t.w) {
			if before != "" && before != t.w {
				return true
			}
			before = t.w
		}
	}
	return false
}

// tierName reports whether the phrase before a paid tier's "+" names a
// service inside a sentence, narrowing it past an ordinary word that
// opens a sentence or a lead's text ("Bundles Disney+": "Disney").
func (e *extraction) tierName(ui int, p *phrase) bool {
	toks := e.tokens(ui)
	if p.from == firstWord(toks) || word(toks, p.to+1) == "+" || len(e.d.text[toks[p.to-1].start:toks[p.to-1].end]) < 2 || p.from > 0 && toks[p.from-1].poss {
		return false // "Level Lock+ hides": a subject, read as one; "C++": a language; "Trek's Allant+": Trek's product
	}
	from := p.from
	for from+1 < p.to && (isCommonWord(toks[from].w) || predicateVerbs[toks[from].w] || subjectVerbs[toks[from].w]) &&
		(toks[from-1].w == ":" || toks[from-1].w == "–" || toks[from-1].w == "—") {
		from++
	}
	if from != p.from {
		*p = e.classifyPhrase(ui, toks, from, p.to)
	}
	return !p.ordinary && !p.rejected && !p.tracked
}

// afterColon reports whether the text before pos ends in a colon, bold
// marks and spaces aside: a lead's text follows it.
func afterColon(text []rune, pos int) bool {
	return strings.HasSuffix(strings.TrimRight(string(text[:pos]), " *"), ":")
}

// suppliedAfter reports whether a part or a network a maker supplies
// follows token to, after the names enumerated with it: "a Bosch motor",
// "the SoftBank and KDDI networks".
func suppliedAfter(toks []token, to int) bool {
	for i := to; i < len(toks) && i-to <= 5; i++ {
		w := toks[i].w
		switch {
		case supplyNouns[w]:
			return true
		case andWords[w], w == ",":
		case toks[i].punct || isCommonWord(w):
			return false // an ordinary word other than the part ends the names
		}
	}
	return false
}

// nameArticle reports whether token k is a capitalised "The" inside a
// sentence opening a name that is the subject of the verb after token to,
// or opening a sentence and a firm's name of two words or more.
func (e *extraction) nameArticle(toks []token, k, to int) bool {
	if toks[k].w != "the" || to-k < 2 || !e.capitalisedAt(toks, k) {
		return false
	}
	if k == firstWord(toks) {
		return to-k > 2 && firmWords[toks[to-1].w] // "The Fine Bedding Company's range": a firm's name
	}
	next := word(toks, to)
	return toks[k-1].w != ":" && (predicateVerbs[next] || subjectVerbs[next])
}

func (e *extraction) classifyPhrase(ui int, toks []token, from, to int) phrase {
	p := phrase{unit: ui, from: from, to: to, ordinary: true}
	d := e.d
	start, end := toks[from].start, toks[to-1].end
	p.initial = from == firstWord(toks) || toks[from].start == d.lines[d.units[ui].line].start
	var words []string
	for _, t := range toks[from:to] {
		if t.punct {
			continue
		}
		words = append(words, t.w)
		rs := d.text[t.start:t.end]
		if !isCommonWord(t.w) && !acronyms[string(rs)] && !acronyms[strings.TrimSuffix(string(rs), "s")] && !nameConnectors[t.w] && !labelWords[t.w] {
			p.ordinary = false
		}
	}
	if toks[to-1].w == "!" {
		p.ordinary = false // "Hello bank!": the mark sets the name apart
	}
	p.knownTo, p.knownPossessive = e.knownEnd(toks, from, to)
	if p.knownTo > from {
		// Two ordinary words that name a known brand are a name
		// ("Home Depot", "Pottery Barn"); one may be just the word.
		p.ordinary = p.ordinary && p.knownTo-from < 2
	}
	joined := strings.Join(words, "_")
	// "**My tip:**", "**Mein Tipp:**": a possessive before a label word.
	if labelWords[strings.Join(words, " ")] || len(words) == 1 && labelWords[words[0]] || len(words) == 2 && stopNames[words[0]] && labelWords[words[1]] {
		p.label, p.rejected = true, true
	}
	given := firstNames[words[0]] && !allCapitals(d.text[toks[from].start:toks[from].end]) // "BILL Spend & Expense" is no Bill
	// "Forbes Health", "CNET Labs": a publisher's section is the publisher,
	// unless a product word makes it a product ("YouTube TV").
	section := len(words) > 1 && publishers[words[0]] && !productWords[words[len(words)-1]]
	if publishers[joined] || publishers[strings.TrimPrefix(joined, "the_")] || section || publicBodies[joined] || publicBodies[unelided(words[0])] ||
		programmingLanguages[joined] || technologies[words[0]] || ingredients[words[0]] || given && len(words) > 1 && !corporateWords[words[len(words)-1]] || weekdays[joined] {
		p.rejected = true
	}
	if personRoles[word(toks, from-1)] || from > 1 && toks[from-1].w == "." && personRoles[word(toks, from-2)] {
		p.rejected = true
	}
	if stopOnly(words) || acronymsOnly(d.text, toks[from:to]) {
		p.rejected = true
	}
	if len(words) == 1 && institutionCompound(words[0]) {
		p.rejected = true // "Lohnsteuerhilfeverein": a kind of association
	}
	if from > 1 && formerlyWords[word(toks, from-1)] && toks[from-2].w == "(" {
		p.rejected = true // "Lofty (formerly Chime)": the brand's old name, no other brand
	}
	if p.initial && len(words) == 1 && foreignLike[word(toks, to)] && p.knownTo == from {
		p.rejected = true // "Geldverstrekkers zoals Obvion": the kind of what the line names
	}
	if inflectedJudgement(words[0]) != 0 {
		p.rejected = true // "Empfehlenswerte Modelle sind": an adjective opens a description
	}
	if rs := d.text[toks[from].start:toks[from].end]; strings.Contains(toks[from].w, "-") {
		// "British-style fell running": an ordinary word after the hyphen
		// makes an adjective anywhere.
		if i := strings.LastIndexByte(string(rs), '-'); i > 0 && i+1 < len(string(rs)) && unicode.IsLower([]rune(string(rs)[i+1:])[0]) &&
			(p.initial || isCommonWord(string(rs)[i+1:]) || acronyms[string(rs)[:i]]) {
			p.rejected = true // "Well-reviewed OTC options", "At-home brands", "HSA-eligible plans"
		}
		// "Non-Wi-Fi monitors", "Anti-glare screens": a prefix that makes
		// an adjective.
		if pre, _, ok := strings.Cut(toks[from].w, "-"); ok && adjectivePrefixes[pre] {
			p.rejected = true
		}
	}
	// "the Kayano", "the XPS 13": a product; "Post-it® Super Sticky": the
	// product of the brand right before it; "BPme": a tracked brand's.
	if word(toks, from-1) == "the" {
		names := 0
		for _, t := range toks[from:to] {
			if !hasDigit(d.text[t.start:t.end]) {
				names++
			}
		}
		// "the Soundcore Space Q45" names its maker; "the Pumpkin Spice
		// Latte", all ordinary words, a product; "the SoftBank and KDDI
		// networks", the makers of what they supply.
		p.rejected = p.rejected || (names < 2 || p.ordinary && !corporateWords[toks[to-1].w]) && !(suppliedAfter(toks, to) && !p.ordinary) &&
			!(p.knownTo == to && !p.ordinary && to < len(toks) && unicode.IsLower(d.text[toks[to].start])) // "the Peloton app": a known brand's product
	}
	if e.ownedByPossessive(toks, from) || productsOfPossessive(d.text, toks, from, to) {
		p.rejected = true // "Wendy's fries and Sausage Biscuit deal", "IKEA's Kivik and Söderhamn sofas"
	}
	if from > 0 {
		gap := strings.TrimSpace(string(d.text[toks[from-1].end:start]))
		if (gap == "" || gap == "®" || gap == "™" || gap == "'s" || gap == "’s" || gap == "'" || gap == "’") && (e.trackedEndsAt(toks[from-1].end) || toks[from-1].punct && (toks[from-1].w == "®" || toks[from-1].w == "™") && from > 1 && e.trackedEndsAt(toks[from-2].end)) {
			p.rejected = true
		}
	}
	// A tracked name run on into a word at a change of case ("BPme") is
	// that brand's product; run on in the same case ("Squarespace" after
	// Square) it is another word, and may be another brand.
	f := foldRunes(d.text[start:end])
	for _, tp := range e.m.patterns {
		if n := len(tp.folded); !tp.domain && n < len(f) && string(f[:n]) == string(tp.folded) && isWordRune(f[n]) &&
			unicode.IsUpper(d.text[start+n-1]) != unicode.IsUpper(d.text[start+n]) {
			p.rejected = true
		}
	}
	for _, m := range e.tracked {
		if m.start < end && m.end > start {
			p.tracked = true
		}
		// "the Copper Spur" after "Big Agnes Copper Spur": that brand's product.
		if after := m.end + 1; after+end-start <= len(d.text) && after > m.end && d.text[m.end] == ' ' && after != start &&
			string(d.text[after:after+end-start]) == string(d.text[start:end]) {
			p.rejected = true
		}
	}
	return p
}

// acronymsOnly reports whether a phrase is written only in common acronyms
// ("SMS", "CRM and ERP"): the name of a kind of thing, never of its maker.
func acronymsOnly(text []rune, ts []token) bool {
	n := 0
	for _, t := range ts {
		if t.punct {
			continue
		}
		if rs := string(text[t.start:t.end]); !acronyms[rs] && !acronyms[strings.TrimSuffix(rs, "s")] && !nameConnectors[t.w] {
			return false
		}
		n++
	}
	return n > 0
}

// productsOfPossessive reports whether the name at toks[from:to] is one
// of the names a capitalised possessive owns and a noun in lower case
// after them says the kind of ("IKEA's Kivik and Söderhamn sofas"): that
// brand's products.
func productsOfPossessive(text []rune, toks []token, from, to int) bool {
	if corporateWords[toks[to-1].w] {
		return false // "Porter's Toolkit and Little Meadow Software tools": firms
	}
	k := from - 1
	if andWords[word(toks, k)] {
		// "and Söderhamn": the name before it must be owned too.
		k--
		if k < 0 || corporateWords[toks[k].w] {
			return false
		}
		for k > 0 && !toks[k].punct && !toks[k-1].poss && capitalised(text[toks[k].start:toks[k].end]) {
			k--
		}
		if k <= 0 || toks[k].punct || !capitalised(text[toks[k].start:toks[k].end]) {
			return false
		}
		k--
	}
	if k < 0 || !toks[k].poss || !capitalised(text[toks[k].start:toks[k].end]) {
		return false
	}
	after := to
	for andWords[word(toks, after)] || after < len(toks) && !toks[after].punct && capitalised(text[toks[after].start:toks[after].end]) {
		after++
	}
	next := word(toks, after)
	return next != "" && unicode.IsLower(text[toks[after].start]) && !predicateVerbs[next] && !subjectVerbs[next] && !functionWords[next] && !stopNames[next]
}

// ownedByPossessive reports whether the phrase at token from, opening with
// an ordinary word, goes on a noun phrase a tracked brand's possessive owns:
// only lower-case words, numbers and "and" or "or" stand between
// ("McDonald's $1 coffee and Sausage McMuffin deal").
func (e *extraction) ownedByPossessive(toks []token, from int) bool {
	if !isCommonWord(toks[from].w) {
		return false
	}
	for k := from - 1; k >= 0 && from-k <= 6; k-- {
		t := toks[k]
		if t.poss && e.trackedEndsAt(t.end) || k > 0 && t.punct && (t.w == "'" || t.w == "’") && e.trackedEndsAt(toks[k-1].end) {
			return k < from-1
		}
		rs := e.d.text[t.start:t.end]
		switch {
		case t.w == "$" || allDigits(t.w) || t.w == "and" || t.w == "or":
		case t.punct || capitalised(rs) || functionWords[t.w] || predicateVerbs[t.w] || articles[t.w]:
			return false
		}
	}
	return false
}

func (e *extraction) trackedEndsAt(pos int) bool {
	for _, m := range e.tracked {
		if m.end == pos || m.end > pos && m.end <= pos+2 && strings.Trim(string(e.d.text[pos:m.end]), "'’s") == "" {
			return true // "Hill's" matched with its possessive
		}
	}
	return false
}

// stopOnly reports whether a phrase is only stop names, places, months and
// days: not a brand by itself.
func stopOnly(words []string) bool {
	for _, w := range words {
		if !stopNames[w] && !properNames[w] && !nameConnectors[w] && !allDigits(w) && !nameArticles[w] {
			return false
		}
	}
	return true
}

// lead returns the phrase leading sentence ui when its line is a list item,
// a table row, an option heading or opens in bold.
func (e *extraction) lead(ui int) (phrase, bool) {
	d := e.d
	u := d.units[ui]
	l := d.lines[u.line]
	switch {
	case l.kind == lineItem && l.first, l.kind == lineRow, l.kind == lineHeading, l.boldLead:
	default:
		return phrase{}, false
	}
	ps := e.phrases(ui)
	if len(ps) == 0 {
		return phrase{}, false
	}
	toks := e.tokens(ui)
	lead := firstWord(toks)
	if lead < 0 || lead > 0 && (toks[lead-1].w == "¿" || toks[lead-1].w == "¡") || toks[len(toks)-1].w == "?" {
		return phrase{}, false // a question is no option
	}
	p := ps[0]
	if l.kind == lineItem {
		p = e.boldLead(ui, p)
	}
	// "Opción adicional: V&C Odontólogos", "Best overall: Gorgias": a short
	// label before a colon gives way to what follows it. What follows must
	// itself read as a lead: after "**Follow Up Boss:** Built for agents"
	// the bold words are the name.
	// Bold running on past the colon ("**Tweens: Samsung Galaxy Tab**")
	// marks the words before it as the label.
	// A name no dictionary holds after the colon makes the words before it
	// a label too ("**Bakuchiol:** Dermalia Night Cream is"); an adverb or
	// a comparative opening a description does not ("Sturdier build",
	// "Formerly AngelList").
	if colon := labelColon(toks, lead); colon > 0 && colon+1 < len(toks) {
		marked := p.to != colon || p.ordinary || p.label || e.inBold(toks[colon].start) && e.inBold(toks[colon+1].start)
		for _, q := range ps {
			if q.from != colon+1 || !e.endsLead(toks, q) || !marked && (q.ordinary && !q.tracked || q.rejected || modifierLike(toks[q.from].w)) {
				continue
			}
			if q.to < len(toks) && toks[q.to].w == "," && !e.namesFollow(toks, q) {
				return phrase{}, false // "Life stage: Puppy, adult and senior formulas differ"
			}
			p, lead = q, colon+1
		}
	}
	if colon := labelColon(toks, lead); colon > 0 && p.to == colon && colon+1 < len(toks) && e.trackedAt(toks[colon+1].start) {
		return phrase{}, false // "**Loyalty:** Alaska's Mileage Plan is …": a label before a brand
	}
	if p.from > lead+1 || p.from == lead+1 && e.lowerCaseName(toks, lead) || e.sentenceCase(toks, p) {
		return phrase{}, false // "**eufy Video Doorbell E340:**": a lower-case name's product
	}
	if !e.endsLead(toks, p) && !(l.kind == lineHeading && e.optionHeading(ui, p)) {
		return phrase{}, false
	}
	if e.labelLike(p) {
		return phrase{}, false
	}
	if l.kind == lineRow && len(l.cells) > 0 && toks[p.to-1].end > l.cells[0].end {
		return phrase{}, false
	}
	if l.kind == lineHeading && !e.optionHeading(ui, p) {
		return phrase{}, false
	}
	// "iPhone 16 Pro (Apple)": the maker in parentheses names the brand.
	if p.to+1 < len(toks) && toks[p.to].w == "(" && e.trackedAt(toks[p.to+1].start) {
		return phrase{}, false
	}
	if l.boldLead && l.kind == lineParagraph && !e.inBold(toks[p.from].start) {
		return phrase{}, false
	}
	// "**Porter's Desk**": a bold name runs on past a possessive.
	for _, b := range e.d.bold {
		if b.start == toks[p.from].start {
			for p.to < len(toks) && toks[p.to-1].poss && toks[p.to].end <= b.end && e.isNameToken(toks[p.to], false) {
				p.to++
			}
		}
	}
	return p, true
}

// sentenceCase reports whether the bold span holding phrase p runs on from
// its first word in lower-case words: a title or label written in sentence
// case ("**Voor gezinnen**", "**Punti forti:**", "**Lactic acid (AHA):**"),
// where a name capitalises its words ("**Plan to Eat:**").
func (e *extraction) sentenceCase(toks []token, p phrase) bool {
	for _, b := range e.d.bold {
		if b.start > toks[p.from].start || toks[p.from].end > b.end {
			continue
		}
		lower := 0
		for i := p.from + 1; i < len(toks) && toks[i].end <= b.end && !toks[i].punct && !toks[i-1].poss; i++ {
			if !unicode.IsLower(e.d.text[toks[i].start]) {
				return false
			}
			lower++
		}
		return lower > 0
	}
	return false
}

// boldLine reports whether line l is one bold span, a title like a
// heading ("**5. Backups**").
func (e *extraction) boldLine(l line) bool {
	for _, b := range e.d.bold {
		if b.start == l.start && b.end == l.end {
			return true
		}
	}
	return false
}

// endsLead reports whether phrase p can lead its line: it is in bold or
// followed by a separator, a parenthesis, the end or a verb; "Inflation
// projections have eased" is prose.
func (e *extraction) endsLead(toks []token, p phrase) bool {
	return p.to == len(toks) || toks[p.to].punct || e.inBold(toks[p.from].start) || predicateVerbs[toks[p.to].w] || e.namesFollow(toks, p)
}

// namesFollow reports whether another name follows p after "and", "or" or a
// comma: "Blue Buffalo and Wellness cost more".
func (e *extraction) namesFollow(toks []token, p phrase) bool {
	return p.to+1 < len(toks) && (toks[p.to].w == "and" || toks[p.to].w == "or" || toks[p.to].w == ",") &&
		e.isNameToken(toks[p.to+1], true)
}

// boldLead widens a list item's lead phrase p to the whole bold span it
// opens when that span is a short label of words set off by a colon or a
// dash ("**Plan to Eat:**", "**Follow Up Boss** –"): there the writer
// marked the name, lower-case words and all.
func (e *extraction) boldLead(ui int, p phrase) phrase {
	toks := e.tokens(ui)
	for _, b := range e.d.bold {
		if b.start != toks[p.from].start {
			continue
		}
		end := p.from
		for end < len(toks) && toks[end].end <= b.end && !toks[end].punct {
			end++
		}
		if end == p.to || end-p.from > 5 || end == len(toks) || toks[end-1].end < b.end && toks[end].w != ":" || e.trackedAt(toks[p.to].start) {
			return p // "**Ray-Ban Meta Gen 2:**": a tracked name after p is a brand of its own
		}
		switch toks[end].w {
		case ":", "–", "—", "-":
			return e.classifyPhrase(ui, toks, p.from, end)
		}
		return p
	}
	return p
}

// describesOption reports whether a list describes one option rather
// than naming options: it hangs from a heading that names an option
// ("### 1. Aventon Level.2", "**2. Octopus Energy**"), from a label item
// ("- **Pros:**") or from an item of a list that describes one.
func (e *extraction) describesOption(list int, optionHeadings map[int]bool) bool {
	d := e.d
	for _, l := range d.lines {
		if l.list != list || l.kind != lineItem {
			continue
		}
		if l.intro < 0 {
			return false
		}
		in := d.lines[l.intro]
		switch {
		case optionHeadings[l.intro]:
			return true
		case in.kind != lineItem:
			return false
		case e.labelItem(d.unitAt(in.start)):
			return true
		}
		return e.describesOption(in.list, optionHeadings)
	}
	return false
}

// labelItem reports whether sentence ui is a label of label words before a
// colon ("Pros:", "Best for:").
func (e *extraction) labelItem(ui int) bool {
	if ui < 0 {
		return false
	}
	toks := e.tokens(ui)
	lead := firstWord(toks)
	colon := labelColon(toks, lead)
	if lead < 0 || colon <= 0 {
		return false
	}
	for _, t := range toks[lead:colon] {
		if !labelWords[t.w] {
			return false
		}
	}
	return true
}

// rowsAreOptions reports whether the leads of a list or table name
// options: always for a list; for a table when its header's first cell
// names what rows are ("Tool", "Brand", empty) or a row leads with a
// tracked brand.
func (e *extraction) rowsAreOptions(list int, ps []phrase) bool {
	d := e.d
	for _, l := range d.lines {
		if l.list != list || l.kind != lineHeader {
			continue
		}
		if len(l.cells) == 0 || l.cells[0].start > l.start {
			return true
		}
		if entityHeaders[strings.ToLower(strings.TrimSpace(string(d.text[l.cells[0].start:l.cells[0].end])))] {
			return true
		}
		for _, p := range ps {
			if p.tracked {
				return true
			}
		}
		return false
	}
	return true
}

// linkName returns a link label that is a name ("[Dr. Aldo
// Implants](https://…)"): capitalised words, connectors and initials only,
// no publisher, label or site address.
func (e *extraction) linkName(l span) (string, bool) {
	text := e.d.text[l.start:l.end]
	toks := tokenize(text, 0, len(text))
	if len(toks) == 0 || len(toks) > 8 || strings.Contains(string(text), ".com") || strings.Contains(string(text), "://") {
		return "", false
	}
	var words []string
	ordinary := true
	for _, t := range toks {
		rs := text[t.start:t.end]
		switch {
		case t.punct && t.w == ".":
		case t.punct, !capitalised(rs) && !nameConnectors[t.w]:
			return "", false
		default:
			words = append(words, t.w)
			ordinary = ordinary && (isCommonWord(t.w) || nameConnectors[t.w] || personRoles[t.w])
		}
	}
	joined := strings.Join(words, "_")
	if ordinary || publishers[joined] || labelWords[joined] || stopOnly(words) || e.isTrackedName(string(text)) {
		return "", false
	}
	return cleanName(string(text)), true
}

// lowerCaseLabel returns the bold word that opens sentence ui when it is
// one lower-case word no dictionary holds, set off by a separator
// ("**comdirect** – …").
func (e *extraction) lowerCaseLabel(ui int) (string, bool) {
	toks := e.tokens(ui)
	lead := firstWord(toks)
	if lead < 0 || lead+1 >= len(toks) {
		return "", false
	}
	t := toks[lead]
	rs := e.d.text[t.start:t.end]
	if !e.lowerCaseName(toks, lead) {
		return "", false
	}
	// "**eufy Video Doorbell E340:**": the product's capitalised words
	// may follow the name inside the bold.
	s := lead + 1
	for s < len(toks) && !toks[s].punct && e.inBold(toks[s].start) && (e.capitalisedAt(toks, s) || hasDigit(e.d.text[toks[s].start:toks[s].end])) {
		s++
	}
	if s >= len(toks) {
		return "", false
	}
	sep := toks[s]
	if e.inBold(sep.start) && !(sep.w == ":" && !e.inBold(sep.end)) { // "**comdirect:**" ends its bold at the colon
		return "", false
	}
	switch sep.w {
	case ":", "–", "—", "-":
		return string(rs), true
	}
	return "", false
}

// lowerCaseName reports whether token i is a lower-case word no
// dictionary holds, set in bold: a name written in lower case ("comdirect",
// "eufy").
func (e *extraction) lowerCaseName(toks []token, i int) bool {
	t := toks[i]
	rs := e.d.text[t.start:t.end]
	return unicode.IsLower(rs[0]) && !isCommonWord(t.w) && !(hasDigit(rs) && !unicode.IsLetter(rs[len(rs)-1])) && e.inBold(t.start)
}

// gerund reports whether a phrase is one word ending in "-ing"
// ("Dropshipping", "Onboarding"): an activity, not a brand.
func (e *extraction) gerund(p phrase) bool {
	return p.to-p.from == 1 && strings.HasSuffix(e.tokens(p.unit)[p.from].w, "ing")
}

// labelColon returns the colon ending a short label at the start of a
// sentence ("Opción adicional:", "Budget pick:", "Ages 3–7:"), 0 when none.
func labelColon(toks []token, lead int) int {
	dashes := 0
	for i := lead; i < len(toks) && i-lead-dashes <= 3; i++ {
		if toks[i].punct {
			if toks[i].w == ":" && i > lead {
				return i
			}
			// "Salicylic acid (BHA):": an aside in parentheses ends the label.
			if toks[i].w == "(" && i > lead {
				for j := i + 1; j < len(toks) && j <= i+3; j++ {
					if toks[j].w == ")" {
						if j+1 < len(toks) && toks[j+1].w == ":" {
							return j + 1
						}
						break
					}
				}
				return 0
			}
			if i > lead && numberRange(toks, i) {
				dashes++
				continue
			}
			return 0
		}
	}
	return 0
}

// labelLike reports whether a lead of two words or a hyphenated one names
// a quality rather than a thing ("Dynamic Typing", "Object-Oriented",
// "Political Developments"): a feature list's label.
func (e *extraction) labelLike(p phrase) bool {
	toks := e.tokens(p.unit)
	last, head := toks[p.to-1], e.d.text[toks[p.from].start:toks[p.from].end]
	if p.to-p.from < 2 && !strings.Contains(last.w, "-") || corporateWords[last.w] || camelCase(head) || hasDigit(head) {
		return false // "AliExpress Dropshipping" is a name
	}
	if e.possessiveInProse(head) {
		return false // "Square Appointments" beside "Square's card readers"
	}
	if first := toks[p.from].w; p.to-p.from >= 2 && (!isCommonWord(first) && !adjectiveLike(first) || allDigits(first)) {
		return false // "Trifecta Nutrition": a coined word leads a name, not "Dynamic Typing"
	}
	w := last.w
	if i := strings.LastIndexByte(w, '-'); i >= 0 {
		w = w[i+1:]
	}
	return attributeWord(w) || strings.HasSuffix(w, "ed") && len(w) > 4
}

// possessiveInProse reports whether the answer writes the capitalised word
// w with a possessive inside a sentence ("works with Square's card
// readers"): something that owns, a name.
func (e *extraction) possessiveInProse(w []rune) bool {
	text := string(e.d.text)
	for _, poss := range []string{"'s ", "’s "} {
		if strings.Contains(text, " "+string(w)+poss) {
			return true
		}
	}
	return false
}

// modifierLike reports whether a word ends like an English adverb or
// comparative: "Formerly", "Sturdier", "Cheaper".
func modifierLike(w string) bool {
	return strings.HasSuffix(w, "ly") || strings.HasSuffix(w, "er")
}

// adjectiveLike reports whether a word ends like an English adjective
// ("dynamic", "political", "reactive").
func adjectiveLike(w string) bool {
	for _, suf := range []string{"ic", "al", "ive", "ous", "ful", "able", "ible", "ent", "ant", "ed", "ing", "ary", "less"} {
		if strings.HasSuffix(w, suf) {
			return true
		}
	}
	return false
}

// optionHeading reports whether a heading names one option: the name alone,
// after an ordinal, before a parenthesis or a separator, or "A vs B".
func (e *extraction) optionHeading(ui int, p phrase) bool {
	toks := e.tokens(ui)
	rest := toks[p.to:]
	if len(rest) == 0 {
		return true
	}
	switch rest[0].w {
	case "(", ":", "–", "—", "-", "|":
		return true
	case "vs", "versus":
		return len(rest) > 1 && e.isNameToken(rest[1], true)
	}
	// "### 3. NYX Can't Stop Won't Stop": the brand, then its product's
	// name in capitalised words.
	for _, t := range rest {
		if t.punct || !capitalised(e.d.text[t.start:t.end]) {
			return false
		}
	}
	return true
}

// headerCells takes the cells after the first of a table header as brands
// when the first names what rows are ("Feature", empty).
func (e *extraction) headerCells(h line, accept func(string)) {
	d := e.d
	cells := h.cells
	if len(cells) > 0 && cells[0].start > h.start {
		cells = append([]span{{}}, cells...) // the first header cell was empty
	} else {
		if len(cells) < 2 {
			return
		}
		if first := strings.ToLower(strings.TrimSpace(string(d.text[cells[0].start:cells[0].end]))); !featureHeaders[first] {
			if !e.headerLacksFirstCell(h) {
				return
			}
			cells = append([]span{{}}, cells...) // "| | Semrush | Ahrefs |": the first header cell was empty
		}
	}
	if len(cells) < 2 {
		return
	}
	ui := d.unitAt(cells[1].start)
	for _, p := range e.phrases(ui) {
		toks := e.tokens(ui)
		for _, c := range cells[1:] {
			if toks[p.from].start == c.start && !p.tracked && !p.rejected && !p.ordinary {
				accept(e.companyName(p))
			}
		}
	}
}

// headerLacksFirstCell reports whether a table header has one cell fewer
// than its rows: its first cell, over the rows' labels, was empty.
func (e *extraction) headerLacksFirstCell(h line) bool {
	for _, l := range e.d.lines {
		if l.list == h.list && l.kind == lineRow && len(l.cells) == len(h.cells)+1 {
			return true
		}
	}
	return false
}

// nameColumns accepts the names that open the cells of a table column
// after the first which holds options: its header names them ("Best
// choice", "Brand") or a tracked brand opens one of its cells. "| Budget |
// Wyze Cam v4 |" names Wyze under "Best choice"; a "Best for" column holds
// uses. When the first column names the options ("| Brand | Model |"), the
// others describe them. Rows with an empty cell are skipped: their columns
// do not line up.
func (e *extraction) nameColumns(h line, accept func(string)) {
	d := e.d
	n := len(h.cells)
	if n < 2 || h.cells[0].start > h.start ||
		entityHeaders[strings.ToLower(strings.TrimSpace(string(d.text[h.cells[0].start:h.cells[0].end])))] {
		return
	}
	var rows []line
	for _, l := range d.lines {
		if l.list == h.list && l.kind == lineRow && len(l.cells) == n {
			if e.trackedAt(l.cells[0].start) {
				return
			}
			rows = append(rows, l)
		}
	}
	for c := 1; c < n; c++ {
		names := false
		for _, t := range tokenize(d.text, h.cells[c].start, h.cells[c].end) {
			if t.w == "for" {
				names = false
				break
			}
			names = names || entityHeaders[t.w] || choiceHeaders[t.w]
		}
		for _, r := range rows {
			names = names || e.trackedAt(r.cells[c].start)
		}
		if !names {
			continue
		}
		for _, r := range rows {
			ui := d.unitAt(r.cells[c].start)
			if ui < 0 {
				continue
			}
			toks := e.tokens(ui)
			for _, p := range e.phrases(ui) {
				if toks[p.from].start == r.cells[c].start && !p.tracked && !p.rejected && (!p.ordinary || e.titleName(p)) {
					accept(e.companyName(p))
				}
			}
		}
	}
}

// cueBefore reports whether a cue that names brands next stands right
// before the phrase, or before the enumeration it is part of.
func (e *extraction) cueBefore(ui int, p phrase) bool {
	toks := e.tokens(ui)
	k := p.from
	if germanForExample(toks, p.from) {
		return true
	}
	// Walk back over an enumeration: "such as A, B and C".
	for {
		w := word(toks, k-1)
		if w == "the" || w == "a" || w == "an" {
			k--
			w = word(toks, k-1)
		}
		if lookCue(toks, k) {
			return !p.ordinary
		}
		// "e.g., Backblaze B2": the abbreviation's period, a comma after it.
		if j := k - 1; w == "" && j >= 2 && (toks[j].w == "." && word(toks, j-1) == "e.g" || toks[j].w == "," && toks[j-1].w == "." && word(toks, j-2) == "e.g") {
			return true
		}
		// "Backblaze B2 with Object Lock or Acronis": what an item of the
		// enumeration comes with is part of that item.
		if w == "with" && k != p.from {
			if j := slices.IndexFunc(e.phrases(ui), func(q phrase) bool { return q.to == k-1 }); j >= 0 {
				k = e.phrases(ui)[j].from
				continue
			}
		}
		switch w {
		case "like":
			prev := word(toks, k-2)
			return !feelsLike[prev] && !featureNouns[prev]
		case "including", "include", "includes", "e.g", "vs", "versus", "than", "unlike", "namely", "recommend",
			"consider", "choose", "compare", "comparing", "between":
			if (word(toks, p.from-1) == "a" || word(toks, p.from-1) == "an") && p.to < len(toks) && !toks[p.to].punct && !e.capitalisedAt(toks, p.to) &&
				(word(toks, k-1) == "include" || word(toks, k-1) == "includes" || word(toks, k-1) == "including") {
				return false // "Includes a Pomodoro timer": a feature of a kind
			}
			return !featureNouns[word(toks, k-2)]
		case "replaced", "replace", "replaces", "replacing", "ditched", "ditch":
			return !p.ordinary // "an app that replaced Mint": what it replaced was a product too
		case "brand", "sub-brand", "subsidiary", "marque", "marca", "marke", "merk":
			// "its sister brand Spaces": a brand, ordinary word or not.
			return !p.ordinary || word(toks, k-2) == "sister" || ownerWords[word(toks, k-2)]
		case "acquired", "acquire", "acquires", "bought", "buys", "purchased", "absorbed":
			return !p.ordinary // "Squarespace acquired Google Domains": what a company buys is a business
		case "over":
			switch word(toks, k-2) {
			case "took", "take", "takes", "taking":
				return !p.ordinary // "took over Google Domains customers"
			}
		case "avoid", "skip", "try", "evita", "evite", "prueba", "prova", "elige", "scegli", "kies", "probeer", "vermijd",
			"essayez", "évitez", "vermeide":
			return !p.ordinary // "Avoid Goldcar", not "skip Wi-Fi"
		case "come", "como", "comme", "zoals", "wie":
			// "like" of other languages: "come Martelli o Faella".
			return k-2 >= 0 && !toks[k-2].punct && !capitalised(e.d.text[toks[k-1].start:toks[k-1].end])
		case "is":
			switch word(toks, k-2) {
			case "pick", "choice", "bet", "option", "default", "recommendation", "favorite", "favourite", "winner":
				return true
			case "as":
				return k >= 3 && toks[k-3].w == "," // "…, as is Tinder": one more of what the clause said
			}
		case "as":
			return word(toks, k-2) == "such" && !featureNouns[word(toks, k-3)] || k-1 == firstWord(toks) && word(toks, p.to) == "notes"
		case "example", "instance":
			return word(toks, k-2) == "for"
		case "of":
			// "from the makers of NordVPN": a product's company.
			return makerNouns[word(toks, k-2)] && !p.ordinary
		case "from":
			// "a camera from Wyze or Eufy": a maker, unless a place or person
			if !p.ordinary && !p.initial && !e.placeOrPerson(p) && !sourceNouns[word(toks, k-2)] {
				return true // not "lab tests from AV-Test"
			}
			switch word(toks, k-2) {
			case "alternatives", "options", "brands", "models", "picks", "choices", "those":
				return true
			}
		case "on":
			// "If you traded on Coinbase", "sold on Etsy": where one trades
			// is a platform, unless a place or a day; the answer's opening
			// sentence names the platform the question is about ("If you
			// sell on Amazon, research tools save hours"), no brand.
			if platformVerbs[word(toks, k-2)] {
				return !p.ordinary && !e.placeOrPerson(p) && ui > 0
			}
		case "by":
			switch word(toks, k-2) {
			case "survey", "study", "report", "published", "research", "analysis", "guide", "data", "benchmark",
				"owned", "acquired", "made", "developed", "built", "manufactured", "backed", "operated", "outclassed", "powered",
				"beaten", "outperformed", "surpassed", "overtaken", "bought":
				return true
			}
		case "to", "with":
			switch word(toks, k-2) {
			case "go", "starting", "compared", "alternative", "alternatives", "similar", "comparable", "relative":
				return true
			}
			// "pair any of them with Screaming Frog": a product to use beside the others.
			for j := k - 2; j >= 0 && k-j <= 6 && !toks[j].punct; j-- {
				if pairVerbs[toks[j].w] && toks[k-1].w == "with" {
					return !p.ordinary
				}
			}
		case "are":
			switch word(toks, k-2) {
			case "options", "alternatives", "choices", "contenders", "picks", "brands", "recommendations", "favorites", "favourites":
				return true
			case "as":
				return k >= 3 && toks[k-3].w == "," // "owned by Match Group, as are Match and OkCupid"
			}
		}
		if k-1 >= 0 && toks[k-1].punct && toks[k-1].w == ":" && k-2 >= 0 {
			switch word(toks, k-2) {
			case "include", "options", "alternatives", "contenders", "picks":
				return true
			case "pick", "choice", "bet", "winner":
				// "**Budget pick:** the Cuisinart 3-in-1": a label opening the
				// sentence, not "the better pick: OverDrive is built in"; an
				// ordinary word after it opens a sentence ("Start with").
				return labelColon(toks, firstWord(toks)) == k-1 && !p.ordinary
			}
		}
		// Step back over the previous item of an enumeration.
		j := e.prevItem(ui, k)
		if j < 0 {
			return false
		}
		k = j
	}
}

// lookCue reports whether advice to look at what follows ends right before
// token k, an article and "also" allowed between: "check out", "look at",
// "regardez aussi MOO", "der Blick auf den Bosch Indego".
func lookCue(toks []token, k int) bool {
	i := k - 1
	if w := word(toks, i); nameArticles[w] || w == "den" || w == "dem" {
		i--
	}
	if alsoWords[word(toks, i)] {
		i--
	}
	switch word(toks, i) {
	case "regardez", "regarde", "mira", "mire", "guarda", "guardate", "bekijk", "confira", "veja":
		return true
	case "out":
		return word(toks, i-1) == "check"
	case "at":
		return word(toks, i-1) == "look"
	case "auf":
		return word(toks, i-1) == "blick"
	case "naar":
		return word(toks, i-1) == "kijk"
	}
	return false
}

// prevItem returns the first token of the enumeration item before token k
// ("A, B and C": from C to B), -1 when k follows no item.
func (e *extraction) prevItem(ui, k int) int {
	toks := e.tokens(ui)
	i := k - 1
	if articles[word(toks, i)] && i > 0 && andWords[word(toks, i-1)] {
		i-- // "C6 Bank e o PicPay"
	}
	if andWords[word(toks, i)] {
		i--
	}
	if i >= 0 && toks[i].punct && (toks[i].w == "," || toks[i].w == "/" && !e.acronymPair(toks, i)) {
		i--
	}
	if i == k-1 || i < 0 {
		return -1
	}
	if tierEnd(toks, i) == i+1 {
		i-- // "Disney+ and Max": the item before ends in its paid tier
	}
	if i > 0 && toks[i].w == ")" && i < k-1 {
		// "Filmora by Wondershare (simple and cheap) and Shotcut": an
		// aside closes the item before.
		j := i - 1
		for j >= 0 && toks[j].w != "(" && toks[j].w != ")" {
			j--
		}
		if j > 0 && toks[j].w == "(" {
			i = j - 1
		}
	}
	if i < 0 || toks[i].punct {
		return -1
	}
	for _, p := range e.phrases(ui) {
		if p.to != i+1 {
			continue
		}
		// "Uniqlo's Smart Ankle Pants": the owner's name opens the item,
		// and "Filmora by Wondershare" the product made by it.
		for _, q := range e.phrases(ui) {
			if p.from > 0 && toks[p.from-1].poss && q.to == p.from || p.from > 1 && word(toks, p.from-1) == "by" && q.to == p.from-1 {
				return q.from
			}
		}
		return p.from
	}
	for _, m := range e.tracked {
		if m.end == toks[i].end || m.end+1 == toks[i].end {
			if j := tokenAt(toks, m.start); j >= 0 {
				return j
			}
		}
	}
	return -1
}

// coordinated reports whether the phrase is enumerated with a tracked or
// already recognised brand.
func (e *extraction) coordinated(ui int, p phrase, seen map[string]bool) bool {
	toks := e.tokens(ui)
	known := func(from, to int) bool {
		for _, m := range e.tracked {
			if m.start >= toks[from].start && m.start < toks[to-1].end {
				return true
			}
		}
		for _, q := range e.phrases(ui) {
			if q.from == from && seen[strings.ToLower(e.companyName(q))] {
				return true
			}
		}
		return false
	}
	// Backwards.
	for k := p.from; ; {
		j := e.prevItem(ui, k)
		if j < 0 {
			break
		}
		if known(j, k) {
			return true
		}
		k = j
	}
	// Forwards: the item after the phrase.
	i := tierEnd(toks, p.to)
	if i < len(toks) && toks[i].punct && toks[i].w == "," {
		i++
	}
	if w := word(toks, i); andWords[w] && !articles[w] && i > p.to-1 {
		i++ // "and", "or" and theirs in other languages: "d'Orange et Sosh"; not the article "o"
	}
	if i == tierEnd(toks, p.to) || i >= len(toks) {
		return false
	}
	for _, m := range e.tracked {
		if m.start == toks[i].start {
			return true
		}
	}
	for _, q := range e.phrases(ui) {
		if q.from == i && seen[strings.ToLower(e.companyName(q))] {
			return true
		}
	}
	return false
}

// placeNamedAsFirm reports whether a phrase of place names is an example
// of a kind of firm: "lines such as Viking and Oceania", "airlines like
// Alaska". There a place's name is a company's.
func (e *extraction) placeNamedAsFirm(ui int, p phrase) bool {
	toks := e.tokens(ui)
	for _, t := range toks[p.from:p.to] {
		if !properNames[t.w] || weekdays[t.w] || months[t.w] {
			return false
		}
	}
	for k := p.from; k >= 0; {
		switch word(toks, k-1) {
		case "as":
			return word(toks, k-2) == "such" && firmKinds[word(toks, k-3)]
		case "like", "including":
			return firmKinds[word(toks, k-2)]
		}
		k = e.prevItem(ui, k)
	}
	return false
}

// featureWith reports whether a phrase follows "with" right after a
// name: a feature the product comes with ("Backblaze B2 with Object
// Lock"), not an item enumerated beside the names after it.
func (e *extraction) featureWith(ui int, p phrase) bool {
	toks := e.tokens(ui)
	return p.from >= 2 && word(toks, p.from-1) == "with" && e.isNameToken(toks[p.from-2], false)
}

// besideCommonNoun reports whether the phrase is enumerated with a common
// noun in lower case: then the enumeration is of things, not brands
// ("systems like HVAC and plumbing").
func (e *extraction) besideCommonNoun(ui int, p phrase) bool {
	toks := e.tokens(ui)
	common := func(i int) bool {
		if i < 0 || i >= len(toks) || toks[i].punct || functionWords[toks[i].w] || articles[toks[i].w] || stopNames[toks[i].w] {
			return false
		}
		rs := e.d.text[toks[i].start:toks[i].end]
		return !capitalised(rs) && !mixedCase(rs) && (isCommonWord(toks[i].w) || attributeWord(toks[i].w))
	}
	joins := func(i int) bool { return i >= 0 && i < len(toks) && andWords[word(toks, i)] }
	// The noun is an item of its own: the enumeration ends after it, or
	// it follows the cue ("like plumbing and HVAC"); not "starting with
	// Optima and checking its plans".
	ends := func(i int) bool { return i >= len(toks) || toks[i].punct }
	opens := func(i int) bool {
		return i < 0 || toks[i].punct || toks[i].w == "like" || toks[i].w == "as" || toks[i].w == "including"
	}
	after := tierEnd(toks, p.to)
	return joins(after) && common(after+1) && ends(after+2) || joins(p.from-1) && common(p.from-2) && opens(p.from-3)
}

// acronymPair reports whether the slash at i joins two acronyms with no
// space, one term ("CI/CD", "UI/UX") rather than two items.
func (e *extraction) acronymPair(toks []token, i int) bool {
	if i < 1 || i+1 >= len(toks) || toks[i-1].end != toks[i].start || toks[i+1].start != toks[i].end {
		return false
	}
	short := func(t token) bool {
		rs := e.d.text[t.start:t.end]
		return !t.punct && len(rs) <= 4 && strings.ToUpper(string(rs)) == string(rs) && !hasDigit(rs)
	}
	return short(toks[i-1]) && short(toks[i+1])
}

// subject reports whether the phrase is the subject of its sentence or
// clause, followed by a verb or a possessive, and has a word no dictionary
// holds ("Epson EcoTank is", "Exxon has").
func (e *extraction) subject(ui int, p phrase) bool {
	toks := e.tokens(ui)
	if p.ordinary && !e.capitalisedAfterFirst(ui, p) && !e.englishNameAbroad(toks, p) && !e.boldTitle(toks, p) {
		return false
	}
	// "the built-in Microsoft Defender is": the subject starts at "the".
	lead := describedFrom(e.d.text, toks, p.from)
	// "mentre la Hyundai i10 offre", ", la Fiat Panda è": an article of
	// a Romance language before a make and model opens the subject (German
	// capitalises every noun after its article).
	if a := word(toks, lead-1); lead == p.from && lead >= 2 && romanceArticles[a] && !e.capitalisedAt(toks, lead-1) &&
		(toks[lead-2].w == "," || andWords[word(toks, lead-2)] || butWords[word(toks, lead-2)] || whileWords[word(toks, lead-2)]) {
		lead--
	}
	prev := word(toks, lead-1)
	// A full stop before a name in lower case ("… Orly. easyJet propose")
	// ends a sentence the rules join to the next.
	// A dash between clauses opens one as a semicolon does ("read reviews
	// carefully — Allied Van Lines and … are"), and so does a section
	// label's colon: "**Budget:** Southwest no longer offers", not an
	// option's ("**Frontier:** Fiber plans are").
	clauseStart := lead > 0 && (toks[lead-1].w == "," || toks[lead-1].w == ";" || toks[lead-1].w == "—" ||
		toks[lead-1].w == "." && unicode.IsLower(e.d.text[toks[lead].start]) && mixedCase(e.d.text[toks[lead].start:toks[lead].end]) ||
		toks[lead-1].w == ":" && e.sectionLabel(toks, lead-1))
	// "If you want espresso, a Breville Bambino is": an article opening
	// the clause.
	article := articles[prev] && lead-1 == firstWord(toks) || (prev == "a" || prev == "an") && lead >= 2 && toks[lead-2].w == ","
	if !(lead == firstWord(toks) || andWords[prev] || whileWords[prev] || butWords[prev] || prev == "that" ||
		prev == "then" || clauseStart || article) {
		return false
	}
	if lead > 0 && toks[lead-1].punct && !clauseStart {
		return false
	}
	// "built into Photoshop, Illustrator and Express, which saves time":
	// an item after a comma with more joined after it is no subject unless
	// the enumeration opens the clause.
	if lead > 0 && toks[lead-1].w == "," && e.enumerationEnd(ui, p.to) != p.to && !e.enumerationOpensClause(ui, lead) {
		return false
	}
	for _, t := range toks[p.from:p.to] {
		if properNames[t.w] || geographicWords[t.w] {
			return false // "San Francisco's", "the Reykjanes Peninsula"
		}
	}
	if firstNames[toks[p.from].w] && !corporateWords[toks[p.to-1].w] || e.gerund(p) && !e.citedSites[toks[p.from].w] {
		return false // a person, not "Frank Energie"; "Dropshipping is …", but not "Rippling is" beside rippling.com
	}
	if p.to-p.from == 1 && p.from == firstWord(toks) {
		w, rs := toks[p.from].w, e.d.text[toks[p.from].start:toks[p.from].end]
		if strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && (pluralVerbs[word(toks, p.to)] || bareVerb(word(toks, p.to))) && !mixedCase(rs) {
			return false // "Portions are generous", "Dealerships charge more": a plural noun
		}
		if i := strings.IndexByte(w, '-'); i > 0 && !hasUpper(rs[i+1:]) {
			return false // "Mid-handicappers may": a compound word
		}
	}
	if toks[p.to-1].poss {
		return true
	}
	if p.to-p.from == 1 && letterCompound(toks[p.from].w) && commonWords[word(toks, p.to)] {
		return false // "K-Cup coffee tastes": a kind of product before its noun
	}
	to := afterAside(toks, e.enumerationEnd(ui, p.to))
	if w := word(toks, to); w == "with" || w == "from" || w == "by" {
		// "Chromecast with Google TV is": a name the subject comes with.
		for _, q := range e.phrases(ui) {
			if q.from == to+1 && predicateVerbs[word(toks, q.to)] {
				to = q.to
			}
		}
		// "a Breville Bambino with fresh beans is": what it comes with,
		// in a few lower-case words.
		for j := to + 1; w == "with" && j < len(toks) && j-to <= 4 && !toks[j].punct && !e.capitalisedAt(toks, j); j++ {
			if copulas[toks[j].w] {
				to = j
				break
			}
		}
	}
	if to+1 < len(toks) && toks[to].w == "," && relativePronouns[word(toks, to+1)] {
		return !p.ordinary // "Herman Miller, which acquired Fully"
	}
	if j := commaAsideEnd(toks, to); j > 0 && !p.ordinary && predicateVerbs[word(toks, j)] {
		return true // "Trulia, owned by Zillow, is"
	}
	next := word(toks, to)
	// "Southwest no longer offers", "Kraken still charges": an adverb
	// stands between the subject and its verb.
	verb := to
	for verb-to < 2 && (verbAdverbs[next] || next == "no" && word(toks, verb+1) == "longer") {
		if next == "no" {
			verb++
		}
		verb++
		next = word(toks, verb)
	}
	if verb == to && !predicateVerbs[next] && !functionWords[next] && !geographicWords[next] && !stopNames[next] && next != "" && predicateVerbs[word(toks, to+1)] {
		if p.to-p.from == 1 && p.from == firstWord(toks) && (optionNouns[next] || strings.HasSuffix(toks[p.from].w, "less") && len(toks[p.from].w) > 6) && strings.HasSuffix(next, "s") {
			return false // "Telehealth apps let", "Screenless trackers focus": a kind of product, not its maker
		}
		next = word(toks, to+1) // "Avery labels are", not "Whichever you use"
	}
	if next == "se" && !p.ordinary && !readerIf(toks, to) && to+1 < len(toks) && !toks[to+1].punct && !e.capitalisedAt(toks, to+1) {
		return true // "Bien'ici se distingue": a reflexive verb of French, Spanish or Portuguese
	}
	if e.citedSites[toks[p.from].w] && next != "" && !e.capitalisedAt(toks, to) && !functionWords[next] {
		return true // "Level Lock+ hides …" beside level.co: the site's owner
	}
	// "SmileDirectClub shut down", "Exxon settled": a past tense after a
	// name no dictionary holds.
	adverb := p.to-p.from == 1 && strings.HasSuffix(toks[p.from].w, "ly") // "Frequently recommended providers"
	return predicateVerbs[next] || !adverb && subjectVerbs[next] || !p.ordinary && !adverb && (pastVerbs[next] || strings.HasSuffix(next, "ed") && len(next) > 4 && !e.capitalisedAt(toks, verb))
}

// enumerationOpensClause reports whether the enumeration of names that
// token k ends ("Nextdoor and Care.com") opens its sentence or clause, or
// k follows no name.
func (e *extraction) enumerationOpensClause(ui, k int) bool {
	toks := e.tokens(ui)
	start := k
	for j := e.prevItem(ui, start); j >= 0 && j < start; j = e.prevItem(ui, start) {
		start = j
	}
	if start == k || start == firstWord(toks) {
		return true
	}
	prev := word(toks, start-1)
	return toks[start-1].punct || andWords[prev] || butWords[prev] || whileWords[prev] || prev == "that" || prev == "then"
}

// sectionLabel reports whether the colon at token colon ends a short label
// of ordinary words opening the sentence and naming no tracked brand
// ("Budget:", "Comfort:").
func (e *extraction) sectionLabel(toks []token, colon int) bool {
	first := firstWord(toks)
	if first < 0 || labelColon(toks, first) != colon {
		return false
	}
	for _, t := range toks[first:colon] {
		if !isCommonWord(t.w) && !labelWords[t.w] || e.trackedAt(t.start) {
			return false
		}
	}
	return true
}

// bareVerb reports whether w is a verb of predicateVerbs or subjectVerbs
// in the form a plural subject takes: "charge" beside "charges".
func bareVerb(w string) bool {
	if w == "" || strings.HasSuffix(w, "s") {
		return false
	}
	return predicateVerbs[w+"s"] || predicateVerbs[w+"es"] || subjectVerbs[w+"s"] || subjectVerbs[w+"es"]
}

// pairedSubject reports whether a single capitalised word opening its
// sentence is joined by "and" to a name no dictionary holds that is
// already recognised, the two the subject of a verb: "Factor and
// CookUnity deliver prepared meals".
func (e *extraction) pairedSubject(ui int, p phrase, seen map[string]bool) bool {
	toks := e.tokens(ui)
	if p.to-p.from != 1 || p.from != firstWord(toks) || word(toks, p.to) != "and" {
		return false
	}
	for _, q := range e.phrases(ui) {
		if q.from == p.to+1 {
			return !q.ordinary && seen[strings.ToLower(e.companyName(q))] && predicateVerbs[word(toks, q.to)]
		}
	}
	return false
}

// letterCompound reports whether a word is one letter joined by a hyphen
// to a common word ("k-cup", "x-ray", "e-bike").
func letterCompound(w string) bool {
	letter, rest, ok := strings.Cut(w, "-")
	return ok && len(letter) == 1 && commonWords[rest]
}

// boldTitle reports whether a phrase of two or more words is set in bold
// by itself, every word capitalised but its connectors: the writer marked
// a name ("**Garden of Life Sport** tastes better").
func (e *extraction) boldTitle(toks []token, p phrase) bool {
	if p.to-p.from < 2 || !e.inBold(toks[p.from].start) || !e.inBold(toks[p.to-1].start) ||
		p.to < len(toks) && e.inBold(toks[p.to].start) {
		return false
	}
	for _, t := range toks[p.from:p.to] {
		if !nameConnectors[t.w] && !capitalised(e.d.text[t.start:t.end]) || properNames[t.w] || stopNames[t.w] {
			return false
		}
	}
	return true
}

// englishNameAbroad reports whether a phrase of two or more capitalised
// English words is the subject of a verb of another language: there the
// words are a name ("About You ist eine gute Wahl").
func (e *extraction) englishNameAbroad(toks []token, p phrase) bool {
	if p.to-p.from < 2 || !foreignPredicates[word(toks, p.to)] {
		return false
	}
	for _, t := range toks[p.from:p.to] {
		if t.punct || !capitalised(e.d.text[t.start:t.end]) {
			return false
		}
	}
	return true
}

// capitalisedAt reports whether token i is written with a capital.
func (e *extraction) capitalisedAt(toks []token, i int) bool {
	return i < len(toks) && capitalised(e.d.text[toks[i].start:toks[i].end])
}

// possessor reports whether a phrase of a word no dictionary holds owns
// the common noun after it, inside a sentence: "runs on T-Mobile's
// network", "avoid Echelon's rowers". A person is a given name's phrase,
// and places are known; what is left owning products and networks is a
// company. A word opening what follows a lead's separator opens a
// sentence: "**Nextdoor** – Neighbors' recommendations".
func (e *extraction) possessor(ui int, p phrase) bool {
	toks := e.tokens(ui)
	if p.ordinary || p.initial || !toks[p.to-1].poss || p.to >= len(toks) || toks[p.to].punct {
		return false
	}
	if p.from > 0 && (toks[p.from-1].w == ":" || toks[p.from-1].w == "–" || toks[p.from-1].w == "—") {
		return false
	}
	next := e.d.text[toks[p.to].start:toks[p.to].end]
	if capitalised(next) || !isCommonWord(toks[p.to].w) {
		return false
	}
	for _, t := range toks[p.from:p.to] {
		if properNames[t.w] || geographicWords[t.w] || firstNames[t.w] {
			return false
		}
	}
	return true
}

// ownerAfterOf reports whether a phrase of a word no dictionary holds owns
// the noun before the Romance "of" ahead of it: "la app de Sanitas" (the
// app of Sanitas), or the noun left out after an article in an
// enumeration, "o la de Quirónsalud".
func (e *extraction) ownerAfterOf(ui int, p phrase) bool {
	toks := e.tokens(ui)
	if p.ordinary || p.initial || p.from < 2 || !romanceOf[word(toks, p.from-1)] || e.placeOrPerson(p) {
		return false
	}
	prev := word(toks, p.from-2)
	return companyNoun(prev) || romanceCompanyNouns[prev] || romanceArticles[prev] && p.from >= 3 && andWords[word(toks, p.from-3)]
}

// ampersandName reports whether a phrase inside a sentence joins
// capitalised words with "&" ("at a Crate & Barrel or Room & Board
// showroom"): a firm's name, ordinary words and all.
func (e *extraction) ampersandName(ui int, p phrase) bool {
	if p.initial {
		return false
	}
	toks := e.tokens(ui)
	for i := p.from + 1; i < p.to-1; i++ {
		if toks[i].w == "&" && e.capitalisedAt(toks, i-1) && e.capitalisedAt(toks, i+1) {
			return true
		}
	}
	return false
}

// germanForExample reports whether "z. B." (for example) stands before
// token k, a preposition and an article allowed between: "z. B. bei der
// VLH".
func germanForExample(toks []token, k int) bool {
	j := k - 1
	if nameArticles[word(toks, j)] || word(toks, j) == "dem" || word(toks, j) == "den" {
		j--
	}
	if prepositions[word(toks, j)] || word(toks, j) == "bei" || word(toks, j) == "von" || word(toks, j) == "mit" {
		j--
	}
	if j < 1 || toks[j].w != "." {
		return false
	}
	return toks[j-1].w == "z.b" || j >= 3 && toks[j-1].w == "b" && toks[j-2].w == "." && toks[j-3].w == "z"
}

// makerAfterBy reports whether a phrase of a word no dictionary holds
// follows "by" after a product's name: "the Soundcore Space One by Anker".
func (e *extraction) makerAfterBy(ui int, p phrase) bool {
	toks := e.tokens(ui)
	if p.ordinary || p.initial || p.from < 3 || word(toks, p.from-1) != "by" || e.placeOrPerson(p) {
		return false
	}
	before := p.from - 2
	return before > firstWord(toks) && e.isNameToken(toks[before], false) && (e.isNameToken(toks[before-1], false) || !isCommonWord(toks[before].w))
}

// enumerationEnd returns the token after the names enumerated from token
// k on ("Uniqlo or Old Navy are", "C6 Bank e o PicPay são"): k when none
// follows.
func (e *extraction) enumerationEnd(ui, k int) int {
	toks := e.tokens(ui)
	for {
		k = tierEnd(toks, k)
		i := k
		if word(toks, i) == "" && i < len(toks) && toks[i].w == "," {
			i++
		}
		if !andWords[word(toks, i)] {
			return k
		}
		i++
		if articles[word(toks, i)] {
			i++
		}
		next := -1
		for _, q := range e.phrases(ui) {
			if q.from == i {
				next = q.to
			}
		}
		for _, m := range e.tracked {
			if i < len(toks) && m.start == toks[i].start {
				if j := tokenAt(toks, m.end-1); j >= 0 {
					next = j + 1
				}
			}
		}
		if next < 0 {
			return k
		}
		k = next
	}
}

// tierEnd returns the token after a "+" at k written right after a name,
// its paid tier ("Grubhub+", "Disney+"), k when there is none.
func tierEnd(toks []token, k int) int {
	if k > 0 && k < len(toks) && toks[k].w == "+" && toks[k].start == toks[k-1].end {
		return k + 1
	}
	return k
}

// afterAside returns the token after a parenthesis opening at k ("Wellfound
// (formerly AngelList Talent) focuses on"), k when none opens there or it
// does not close within the sentence.
func afterAside(toks []token, k int) int {
	if k >= len(toks) || toks[k].w != "(" {
		return k
	}
	for j := k + 1; j < len(toks); j++ {
		switch toks[j].w {
		case "(":
			return k
		case ")":
			return j + 1
		}
	}
	return k
}

// commaAsideEnd returns the token after an aside of a few words that
// opens with a comma at k and a word in lower case, and closes with the
// next comma ("Trulia, owned by Zillow, is"), 0 when none does.
func commaAsideEnd(toks []token, k int) int {
	if k+1 >= len(toks) || toks[k].w != "," || toks[k+1].punct || !unicode.IsLower([]rune(toks[k+1].w)[0]) {
		return 0 // "Veil, Nord Harbor and Shieldly, have": an enumeration
	}
	for j := k + 1; j < len(toks) && j-k <= 8; j++ {
		if toks[j].punct {
			if toks[j].w == "," && j > k+1 {
				return j + 1
			}
			if toks[j].w != "." && toks[j].w != "-" {
				return 0
			}
		}
	}
	return 0
}

// describedFrom returns the "the" opening lower-case words right before
// token k ("the built-in"), k when there is none: "the Sven in Charme Tan"
// describes nothing, a name stands between.
func describedFrom(text []rune, toks []token, k int) int {
	for j := k - 1; j >= 0 && k-j <= 3 && !toks[j].punct; j-- {
		if toks[j].w == "the" {
			if j == k-1 {
				return k // a plain "the X" is read by the caller
			}
			return j
		}
		if !unicode.IsLower(text[toks[j].start]) {
			return k
		}
	}
	return k
}

// itemLeadCoinage reports whether token k is a coinage that opens a list
// item and is set off from what follows: a lower-case one with a digit
// between letters ("3. n8n, open source and self-hostable"), or a number
// run into letters by a hyphen or a letter between digits ("**8x8:**",
// "**1-800-PACK-RAT** –"), not a measure ("4K", "5-year"). No word, so a
// name.
func (e *extraction) itemLeadCoinage(ui int, toks []token, k int) bool {
	l := e.d.lines[e.d.units[ui].line]
	if l.kind != lineItem || !l.first || k != firstWord(toks) || k+1 >= len(toks) || !toks[k+1].punct {
		return false
	}
	rs := e.d.text[toks[k].start:toks[k].end]
	if isCommonWord(toks[k].w) {
		return false
	}
	if unicode.IsDigit(rs[0]) {
		letters := strings.IndexFunc(string(rs), unicode.IsLetter)
		return letters > 0 && (strings.ContainsRune(string(rs), '-') || strings.IndexFunc(string(rs[letters:]), unicode.IsDigit) > 0)
	}
	if !unicode.IsLower(rs[0]) {
		return false
	}
	for i := 1; i+1 < len(rs); i++ {
		if unicode.IsDigit(rs[i]) && unicode.IsLetter(rs[i-1]) && unicode.IsLetter(rs[i+1]) {
			return true // "n8n", not "mp3" or "h264"
		}
	}
	return false
}

// boldNumberName reports whether token k is a number opening a bold name
// ("**24 Hour Fitness**").
func (e *extraction) boldNumberName(toks []token, k int) bool {
	if !allDigits(toks[k].w) || k+1 >= len(toks) || !e.isNameToken(toks[k+1], false) || e.d.text[toks[k].end] != ' ' {
		return false
	}
	for _, b := range e.d.bold {
		if b.start == toks[k].start {
			return true
		}
	}
	return false
}

// placeOrPerson reports whether a phrase names a place or a person.
func (e *extraction) placeOrPerson(p phrase) bool {
	for _, t := range e.tokens(p.unit)[p.from:p.to] {
		if properNames[t.w] || geographicWords[t.w] || firstNames[t.w] {
			return true
		}
	}
	return false
}

// contraction reports whether a word is a contraction ("don't", "i'd"),
// never part of a name.
func contraction(w string) bool {
	for _, suf := range []string{"n't", "'d", "'re", "'ll", "'ve", "'m"} {
		if strings.HasSuffix(w, suf) {
			return true
		}
	}
	return false
}

// inflectedJudgement is the stance of w when it is an evaluative adjective
// with an inflection's ending ("empfehlenswerte", "günstigen", "cheaper"):
// +1 praise, -1 criticism, 0 for any other word. Such a word opens a
// description, never a name.
func inflectedJudgement(w string) int {
	for _, suf := range []string{"e", "en", "er", "es", "em"} {
		stem, ok := strings.CutSuffix(w, suf)
		switch {
		case !ok || len(stem) < 5:
		case positiveWords[stem]:
			return 1
		case negativeWords[stem]:
			return -1
		}
	}
	return 0
}

// institutionCompound reports whether w is a German compound ending in a
// kind of institution ("Lohnsteuerhilfeverein", "Verbraucherzentrale"):
// what such a body is, not its name.
func institutionCompound(w string) bool {
	for suf := range institutionEndings {
		if strings.HasSuffix(w, suf) && len(w) > len(suf)+3 {
			return true
		}
	}
	return false
}

// knownInProse reports whether a well-known brand named in a sentence
// without a cue is a mention of it. Its name must be distinctive: no
// ordinary word ("Smart", "Public"), nothing under four letters ("HP" is
// also horsepower), no name run on into other capitalised words ("Dave
// Ramsey") unless an article makes them its product ("the IKEA Markus").
// A platform the answer's subject works with or runs on is no competing
// brand: "integrates deeply with Zapier", "sell on Amazon", "built for
// Shopify stores", "reviews on Google".
func (e *extraction) knownInProse(toks []token, p phrase) bool {
	// A longer phrase is the brand's product after an article ("the IKEA
	// Markus", "a BenQ ScreenBar light").
	product := p.knownTo < p.to && (articles[word(toks, p.from-1)] || word(toks, p.from-1) == "a" || word(toks, p.from-1) == "an")
	known := p
	known.to = p.knownTo
	if p.knownTo == p.from || p.knownTo != p.to && !product || p.ordinary || p.knownTo-p.from == 1 && e.placeOrPerson(known) {
		return false
	}
	name := e.d.text[toks[p.from].start:toks[p.knownTo-1].end]
	if p.knownTo-p.from == 1 && (isCommonWord(toks[p.from].w) || len(name) < 4) {
		return false
	}
	// The words around an enumeration speak for each of its names: "post
	// to Facebook and Instagram", "an Instagram and TikTok planner".
	before, after := p.from-1, p.to
	for before >= 1 && (andWords[toks[before].w] || toks[before].w == ",") && e.isNameToken(toks[before-1], false) {
		before -= 2
	}
	for after+1 < len(toks) && (andWords[toks[after].w] || toks[after].w == ",") && e.isNameToken(toks[after+1], false) {
		after += 2
	}
	if before >= 1 && toks[before].w == "(" && e.isNameToken(toks[before-1], false) {
		return false // "West Elm (Haven, Harmony)": the lines of the name before
	}
	if before >= 0 && ecosystemPrepositions[toks[before].w] {
		before--
		if before >= 0 && strings.HasSuffix(toks[before].w, "ly") {
			before-- // "integrates deeply with"
		}
	}
	if ecosystemVerbs[word(toks, before)] {
		return false
	}
	if after < len(toks) && !product {
		next := toks[after]
		w := next.w
		if platformNouns[w] || !next.punct && unicode.IsLower(e.d.text[next.start]) && (isCommonWord(w) || isCommonWord(strings.TrimSuffix(w, "s"))) &&
			!functionWords[w] && !predicateVerbs[w] && !subjectVerbs[w] && !pastVerbs[w] && !verbAdverbs[w] && !modalWords[w] &&
			!strings.HasSuffix(w, "ly") {
			return false // "a Shopify store", "Netflix libraries": what runs on it
		}
	}
	return true
}
