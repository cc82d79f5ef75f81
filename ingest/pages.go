package ingest

import (
	"cmp"
	"slices"

	"github.com/google/uuid"

	"github.com/sightline/sightline"
)

// RankMatch is a ranked search result or shopping offer that belongs to the
// own brand or a tracked competitor.
type RankMatch struct {
	Rank         int
	URL          string // the destination when a redirector was resolved, else as given
	Domain       string // the redirector's when Unresolved
	Relation     sightline.Relation
	CompetitorID *uuid.UUID // set for tracked competitors only
	Unresolved   bool
}

// ExtractSearch returns the own and tracked-competitor organic results of a
// search page, in rank order: a result is a brand's when its domain (seen
// through redirectors, see ResolveURL) is or is under one of the brand's
// domains. A result whose URL stays a redirector belongs to nobody.
func ExtractSearch(b Brands, p SearchPage) []RankMatch {
	return rankMatches(b, p.Results, func(r SearchResult) (int, string, string) { return r.Rank, r.URL, "" })
}

// ExtractShopping returns the own and tracked-competitor offers of a
// shopping page, in rank order. An offer is a brand's when its URL's domain
// is or is under one of the brand's domains, or else when its merchant name
// names the brand ("Acme", "Acme Store", "acme.com", matched as in answers:
// case-insensitive, at word boundaries, the longest name winning). Offer URLs
// are often Google's own product pages or redirectors, so the merchant
// decides for them; Unresolved then reports a redirector URL.
func ExtractShopping(b Brands, p ShoppingPage) []RankMatch {
	return rankMatches(b, p.Offers, func(o Offer) (int, string, string) { return o.Rank, o.URL, o.Merchant })
}

// rankMatches returns the ranked links of a page that are a brand's, in rank
// order; link reads an item's rank, URL and merchant name ("" for none).
func rankMatches[T any](b Brands, items []T, link func(T) (rank int, url, merchant string)) []RankMatch {
	t, m := newBrandTable(b)
	var out []RankMatch
	for _, it := range items {
		rank, url, merchant := link(it)
		if x, ok := t.rankMatch(m, rank, url, merchant); ok {
			out = append(out, x)
		}
	}
	slices.SortStableFunc(out, func(a, b RankMatch) int { return cmp.Compare(a.Rank, b.Rank) })
	return out
}

// rankMatch is the match of the link ranked rank when it is a brand's: by
// the domain of url (seen through redirectors) when it resolves, or else by
// the brand a merchant name names, the longest name winning.
func (t *brandTable) rankMatch(m *matcher, rank int, url, merchant string) (RankMatch, bool) {
	res := followRedirects(url)
	owner := -1
	if !res.Unresolved {
		owner = t.owner(res.Domain)
	}
	if owner < 0 && merchant != "" {
		name := []rune(cleanName(merchant))
		if ms := m.find(name, foldRunes(name)); len(ms) > 0 {
			best := ms[0]
			for _, x := range ms[1:] {
				if x.end-x.start > best.end-best.start {
					best = x
				}
			}
			owner = best.brand
		}
	}
	if owner < 0 {
		return RankMatch{}, false
	}
	return RankMatch{Rank: rank, URL: res.URL, Domain: res.Domain, Relation: t.relations[owner],
		CompetitorID: t.competitors[owner], Unresolved: res.Unresolved}, true
}
