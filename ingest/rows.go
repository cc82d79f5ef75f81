package ingest

import (
	"github.com/sightline/sightline"
	"github.com/sightline/sightline/olap"
)

// PassRows extracts a pass's capture against the project's brands and
// returns what it stores in ClickHouse: for an answer its mentions and
// cited sources, for a search or shopping page every result or offer with
// the brand it belongs to, if any. p identifies the pass and carries what
// its rows share.
func PassRows(p olap.Pass, c Capture, b Brands) olap.PassRows {
	rows := olap.PassRows{Pass: p}
	switch {
	case c.Answer != nil:
		rows.ResponseText = c.Answer.Text
		rows.ExtractionVersion = ExtractionVersion
		ext := ExtractAnswer(b, *c.Answer)
		for _, m := range ext.Mentions {
			rows.Mentions = append(rows.Mentions, olap.Mention{
				BrandName: m.BrandName, Relation: m.Relation, CompetitorID: m.CompetitorID, Position: m.Position,
				Type: m.Type, Tone: m.Tone, Qualifier: m.Qualifier, Sentence: m.Sentence,
			})
		}
		for _, cs := range ext.Citations {
			rows.Citations = append(rows.Citations, olap.Citation{
				Position: cs.Position, URL: cs.URL, Domain: cs.Domain, Title: cs.Title, Unresolved: cs.Unresolved,
				Relation: cs.Relation, CompetitorID: cs.CompetitorID,
			})
		}
	case c.Search != nil:
		owners := byRank(ExtractSearch(b, *c.Search))
		for _, r := range c.Search.Results {
			res := followRedirects(r.URL)
			row := olap.SearchResult{
				Rank: r.Rank, URL: r.URL, Domain: res.Domain, Title: r.Title, Snippet: r.Snippet,
				Rating: r.Rating, RatingVotes: r.RatingVotes, Unresolved: res.Unresolved, Relation: sightline.RelationNone,
			}
			if m, ok := owners[r.Rank]; ok {
				row.Relation, row.CompetitorID = m.Relation, m.CompetitorID
			}
			rows.SearchResults = append(rows.SearchResults, row)
		}
	case c.Shopping != nil:
		owners := byRank(ExtractShopping(b, *c.Shopping))
		for _, o := range c.Shopping.Offers {
			res := followRedirects(o.URL)
			row := olap.ShoppingOffer{
				Rank: o.Rank, Title: o.Title, Price: o.Price, Currency: o.Currency, ProductID: o.ProductID,
				Merchant: o.Merchant, Domain: res.Domain, URL: o.URL, Relation: sightline.RelationNone,
			}
			if m, ok := owners[o.Rank]; ok {
				row.Relation, row.CompetitorID = m.Relation, m.CompetitorID
			}
			rows.ShoppingOffers = append(rows.ShoppingOffers, row)
		}
	}
	return rows
}

// byRank indexes matches by their rank; a page ranks each result once.
func byRank(ms []RankMatch) map[int]RankMatch {
	out := make(map[int]RankMatch, len(ms))
	for _, m := range ms {
		out[m.Rank] = m
	}
	return out
}
