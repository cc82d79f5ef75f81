package ingest

import (
	"github.com/google/uuid"

	"github.com/sightline/sightline"
)

// brandTable is the project's brands in matching order: the own brand at
// index 0, tracked competitors from 1, untracked brands after them.
type brandTable struct {
	relations   []sightline.Relation
	competitors []*uuid.UUID // competitor id of each tracked competitor
	domains     []domainOwner
	tracked     int // number of tracked brands (own + competitors)
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
		for _, n := range names {
			m.add(cleanName(n), idx, false, false)
		}
		for _, n := range br.Names {
			m.add(cleanName(n), idx, false, false)
		}
		for _, dn := range br.Domains {
			if d, ok := NormalizeDomain(dn); ok {
				t.domains = append(t.domains, domainOwner{domain: d, brand: idx})
				m.add(d, idx, true, false)
			}
		}
	}
	add(sightline.RelationOwn, nil, b.Own)
	for i := range b.Competitors {
		c := &b.Competitors[i]
		id := c.ID
		add(sightline.RelationTrackedCompetitor, &id, c.Brand, c.Name)
	}
	t.tracked = len(t.relations)
	return t, m
}

// owner returns the tracked brand whose domain host is or is under; the
// longest matching domain wins (a competitor on shop.acme.com against an own
// acme.com). -1 when none.
func (t *brandTable) owner(host string) int {
	best, bestLen := -1, 0
	for _, d := range t.domains {
		if host != "" && domainMatches(host, d.domain) && len(d.domain) > bestLen {
			best, bestLen = d.brand, len(d.domain)
		}
	}
	return best
}

// ExtractAnswer reads an answer against the project's brands: which brands
// it names (own, tracked competitors, and untracked brands it names without
// the project tracking them), in which order, how (type, tone, qualifier)
// and in which sentence; and whose sites its citations are.
//
// Mentions: one per distinct brand, ordered by first appearance in the
// answer's plain text; Position is that order, 1-based, counting every brand
// named. BrandName is the name as the answer first writes it ("HubSpot", or
// "acme.com" when the answer names the site). See match.go for matching and
// the detection of untracked brands, classify.go for reading the markdown,
// the sentences and the classification.
//
// Citations: one CitedSource per Citation, positions and titles as given.
// Domain, Unresolved and the URL of resolved redirectors come from
// ResolveURL; Relation is own or tracked-competitor when the domain is or is
// under a brand's domain (blog.acme.com is acme.com's, notacme.com is not),
// else none.
func ExtractAnswer(b Brands, a Answer) Extraction {
	table, m := newBrandTable(b)
	d := parseAnswer(a.Text)
	trackedMatches := m.find(d.text, d.fold)
	untracked := detectUntracked(d, m, trackedMatches)
	if len(untracked) > 0 {
		// A name that extends an earlier detected name ("Zoho CRM" after
		// "Zoho") is the same brand.
		brandOf := make([]int, len(untracked))
		for i, name := range untracked {
			brandOf[i] = -1
			for j := range i {
				if isWordPrefix(untracked[j], name) || isWordPrefix(name, untracked[j]) {
					brandOf[i] = brandOf[j]
					break
				}
			}
			if brandOf[i] < 0 {
				brandOf[i] = len(table.relations)
				table.relations = append(table.relations, sightline.RelationUntrackedCompetitor)
				table.competitors = append(table.competitors, nil)
			}
			m.add(name, brandOf[i], false, true)
		}
		trackedMatches = m.find(d.text, d.fold)
	}
	matches := trackedMatches

	var out Extraction
	firstAt := map[int]int{} // brand -> index of its first match
	var order []int
	for i, mt := range matches {
		if _, ok := firstAt[mt.brand]; !ok {
			firstAt[mt.brand] = i
			order = append(order, mt.brand)
		}
	}
	if len(order) > 0 {
		cl := newClassifier(d, matches)
		unitOf := cl.unitIndex()
		for pos, brand := range order {
			first := matches[firstAt[brand]]
			c := cl.classify(brand)
			mention := Mention{
				BrandName:    string(d.text[first.start:first.end]),
				Relation:     table.relations[brand],
				CompetitorID: table.competitors[brand],
				Position:     pos + 1,
				Type:         c.typ,
				Tone:         c.tone,
				Qualifier:    c.qualifier,
			}
			if ui := unitOf(first.start); ui >= 0 {
				mention.Sentence = d.sentence(ui)
			}
			out.Mentions = append(out.Mentions, mention)
		}
	}
	for _, c := range a.Citations {
		out.Citations = append(out.Citations, table.citedSource(c))
	}
	return out
}

// citedSource resolves one citation.
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

// isWordPrefix reports whether long starts with short followed by a space.
func isWordPrefix(short, long string) bool {
	return len(long) > len(short) && long[:len(short)] == short && long[len(short)] == ' '
}
