package ingest

import (
	"cmp"
	"slices"
	"strings"

	"github.com/google/uuid"

	"github.com/sightline/sightline"
	"github.com/sightline/sightline/olap"
)

// brandTable is the project's brands in matching order: the own brand at
// index 0, tracked competitors from 1, untracked brands after them.
type brandTable struct {
	relations   []sightline.Relation
	competitors []*uuid.UUID // competitor id of each tracked competitor
	domains     []domainOwner
}

// domainOwner is a website domain of a tracked brand.
type domainOwner struct {
	domain string
	brand  int
}

// newBrandTable builds the tracked brands and a matcher over their names and
// domains.
func newBrandTable(b Brands) (*brandTable, *matcher) {
	t := &brandTable{}
	m := &matcher{}
	add := func(rel sightline.Relation, id *uuid.UUID, br Brand, names ...string) {
		idx := len(t.relations)
		t.relations = append(t.relations, rel)
		t.competitors = append(t.competitors, id)
		for _, n := range append(names, br.Names...) {
			m.add(cleanName(n), idx, false)
		}
		for _, dn := range br.Domains {
			if d, ok := NormalizeDomain(dn); ok {
				t.domains = append(t.domains, domainOwner{domain: d, brand: idx})
				m.add(d, idx, true)
			}
		}
	}
	add(sightline.RelationOwn, nil, b.Own)
	for i := range b.Competitors {
		c := &b.Competitors[i]
		id := c.ID
		add(sightline.RelationTrackedCompetitor, &id, c.Brand, c.Name)
	}
	return t, m
}

// owner returns the tracked brand whose domain host is or is under; the
// longest matching domain wins (a competitor on shop.acme.com against an own
// acme.com). Own domains are tried first at equal length. -1 when none.
func (t *brandTable) owner(host string) int {
	best, bestLen := -1, 0
	for _, d := range t.domains {
		if host != "" && domainMatches(host, d.domain) && len(d.domain) > bestLen {
			best, bestLen = d.brand, len(d.domain)
		}
	}
	return best
}

// extraction is one answer being read.
type extraction struct {
	d           *doc
	text        string // d.text, to search in
	m           *matcher
	tracked     []match // own and tracked competitors, ordinary uses dropped
	all         []match // every brand, in text order
	toks        map[int][]token
	phraseCache map[int][]phrase
	views       map[int]*sentenceView
	weak        map[string]bool     // untracked names (lower case) recognised on weak evidence only
	writtenAs   map[string][]string // a maker's name -> the product names the answer writes for it
	citedSites  map[string]bool     // the names of the sites the answer cites ("rippling" for rippling.com)
	// productTails maps a product name (lower case) written after its
	// company's words to that company's name: "double wear" -> "Estée Lauder".
	productTails map[string]string
	makerBefore  map[string]string // a name -> the maker written right before it, "" for none
}

func (e *extraction) tokens(ui int) []token {
	t, ok := e.toks[ui]
	if !ok {
		u := e.d.units[ui]
		t = tokenize(e.d.text, u.start, u.end)
		dutchConjunctions(t)
		e.toks[ui] = t
	}
	return t
}

// dutchConjunctions reads "en" and "of" of a Dutch sentence as "and" and
// "or" ("Budget Energie en Vandebron", "zoals Independer of Pricewise"),
// where French "en" is "in" and English "of" joins a name ("Bank of
// America"). A sentence is Dutch when two of its words are Dutch function
// words no other language answers come in writes.
func dutchConjunctions(toks []token) {
	n := 0
	for _, t := range toks {
		if dutchWords[t.w] {
			n++
		}
	}
	if n < 2 {
		return
	}
	for i := range toks {
		switch toks[i].w {
		case "en":
			toks[i].w = "and"
		case "of":
			toks[i].w = "or"
		}
	}
}

func (e *extraction) inChip(pos int) bool {
	for _, c := range e.d.chips {
		if pos >= c.start && pos < c.end {
			return true
		}
	}
	return false
}

func (e *extraction) inBold(pos int) bool {
	for _, b := range e.d.bold {
		if pos >= b.start && pos < b.end {
			return true
		}
	}
	return false
}

func (e *extraction) trackedAt(pos int) bool {
	for _, m := range e.tracked {
		if m.start == pos {
			return true
		}
	}
	return false
}

// ExtractAnswer reads an answer against the project's brands by the rules
// of extraction-rules.md (ExtractionVersion): which brands it names (own,
// tracked competitors, and competing brands the project does not track),
// in which order, how (type, tone, qualifier) and in which sentence; and
// whose sites its citations are.
//
// Mentions: one per distinct brand, ordered by first appearance in the
// answer's plain text, a citation chip showing a configured domain
// included; Position is that order, 1-based, counting every brand named.
// BrandName is the name as the answer first writes it, at company level for
// untracked brands. Type, tone, qualifier and sentence come from the first
// mention. The files of this package follow those steps: markdown.go and
// sentences.go read the answer (one tokeniser in tokens.go, every word list
// in words.go), match.go and ordinary.go find configured names,
// untracked.go, company.go and known.go the other brands, classify.go, tone.go and
// qualifier.go classify, urls.go and domain/ resolve citations, llm.go is
// the optional LLM pass.
//
// Citations: one CitedSource per Citation, positions and titles as given,
// see citedSource.
func ExtractAnswer(b Brands, a Answer) Extraction {
	table, m := newBrandTable(b)
	d := parseAnswer(a.Text)
	e := &extraction{d: d, text: string(d.text), m: m, toks: map[int][]token{}, phraseCache: map[int][]phrase{}, views: map[int]*sentenceView{}, weak: map[string]bool{}, writtenAs: map[string][]string{}, productTails: map[string]string{}, makerBefore: map[string]string{}}
	for _, mt := range m.find(d.text, foldRunes(d.text)) {
		mt.chip = e.inChip(mt.start)
		if mt.chip && !m.patterns[mt.pattern].domain {
			continue
		}
		e.tracked = append(e.tracked, mt)
	}
	e.tracked = slices.DeleteFunc(e.tracked, e.ordinaryUse)
	var out Extraction
	for _, c := range a.Citations {
		out.Citations = append(out.Citations, table.citedSource(c))
	}
	e.citedSites = citedSites(out.Citations)
	e.all = slices.Clone(e.tracked)
	names := map[int]string{} // untracked brand -> its name at company level
	for _, name := range e.recogniseUntracked() {
		brand := len(table.relations)
		table.relations = append(table.relations, sightline.RelationUntrackedCompetitor)
		table.competitors = append(table.competitors, nil)
		names[brand] = name
		for _, written := range append([]string{name}, e.writtenAs[name]...) {
			e.all = append(e.all, e.occurrences(written, brand)...)
		}
	}
	slices.SortStableFunc(e.all, func(x, y match) int { return cmp.Compare(x.start, y.start) })
	clear(e.views)

	seen := map[int]bool{}
	for _, mt := range e.all {
		if seen[mt.brand] {
			continue
		}
		seen[mt.brand] = true
		c := e.classify(mt)
		mention := Mention{Mention: olap.Mention{
			BrandName: string(d.text[mt.start:mt.end]), Relation: table.relations[mt.brand],
			CompetitorID: table.competitors[mt.brand], Position: len(out.Mentions) + 1,
			Type: c.typ, Tone: c.tone, Qualifier: c.qualifier,
		}, Uncertain: c.uncertain}
		if name, ok := names[mt.brand]; ok {
			mention.BrandName = name
		}
		if mention.Relation == sightline.RelationUntrackedCompetitor && e.weak[strings.ToLower(mention.BrandName)] {
			mention.Uncertain = true
		}
		if ui := d.unitAt(mt.start); ui >= 0 {
			mention.Sentence = d.sentence(ui)
		}
		out.Mentions = append(out.Mentions, mention)
	}
	return out
}

// citedSites returns the names of the sites an answer cites: the label
// before the public suffix of each resolved citation's domain, and that
// label with the suffix as a second word.
func citedSites(cs []CitedSource) map[string]bool {
	out := map[string]bool{}
	for _, c := range cs {
		if c.Unresolved || c.Domain == "" {
			continue
		}
		labels := strings.Split(c.Domain, ".")
		if len(labels) >= 2 {
			out[labels[len(labels)-2]] = true
			// "cash app" for cash.app: a name the domain spells whole
			out[labels[len(labels)-2]+" "+labels[len(labels)-1]] = true
		}
	}
	return out
}

// occurrences finds a recognised name where it is written exactly so, as a
// whole word outside citation chips and configured names.
func (e *extraction) occurrences(name string, brand int) []match {
	text, n := e.d.text, []rune(name)
	var out []match
	for i := 0; i+len(n) <= len(text); i++ {
		if text[i] != n[0] || string(text[i:i+len(n)]) != name {
			continue
		}
		j := i + len(n)
		if i > 0 && isWordRune(text[i-1]) || j < len(text) && isWordRune(text[j]) || e.inChip(i) {
			continue
		}
		if slices.ContainsFunc(e.tracked, func(m match) bool { return m.start < j && m.end > i }) {
			continue
		}
		out = append(out, match{start: i, end: j, brand: brand, pattern: -1})
		i = j - 1
	}
	return out
}

// citedSource resolves one citation: Domain and Unresolved come from
// ResolveURL (a redirector keeps its own domain, spec 4.4); Relation is own
// or tracked-competitor when the domain is or is under a configured domain,
// else none, and always none for a redirector.
func (t *brandTable) citedSource(c Citation) CitedSource {
	r := ResolveURL(c.URL)
	cs := CitedSource{Position: c.Position, URL: r.URL, Domain: r.Domain, Title: c.Title, Unresolved: r.Unresolved, Relation: sightline.RelationNone}
	if r.Unresolved {
		return cs
	}
	if o := t.owner(r.Domain); o >= 0 {
		cs.Relation = t.relations[o]
		cs.CompetitorID = t.competitors[o]
	}
	return cs
}
