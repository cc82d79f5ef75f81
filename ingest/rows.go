package ingest

import (
	"github.com/google/uuid"

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
			rows.Mentions = append(rows.Mentions, m.Mention)
		}
		rows.Citations = ext.Citations
	case c.Search != nil:
		owners := byRank(ExtractSearch(b, *c.Search))
		for _, r := range c.Search.Results {
			res := followRedirects(r.URL)
			relation, competitor := owners.of(r.Rank)
			rows.SearchResults = append(rows.SearchResults, olap.SearchResult{
				Rank: r.Rank, URL: res.URL, Domain: res.Domain, Title: r.Title, Snippet: r.Snippet, Rating: r.Rating,
				RatingVotes: r.RatingVotes, Unresolved: res.Unresolved, Relation: relation, CompetitorID: competitor,
			})
		}
	case c.Shopping != nil:
		owners := byRank(ExtractShopping(b, *c.Shopping))
		for _, o := range c.Shopping.Offers {
			relation, competitor := owners.of(o.Rank)
			res := followRedirects(o.URL)
			rows.ShoppingOffers = append(rows.ShoppingOffers, olap.ShoppingOffer{
				Rank: o.Rank, Title: o.Title, Price: o.Price, Currency: o.Currency, ProductID: o.ProductID, Merchant: o.Merchant,
				Domain: res.Domain, URL: res.URL, Relation: relation, CompetitorID: competitor,
			})
		}
	}
	return rows
}

// rankOwners are a page's own and tracked-competitor matches by rank; a
// page ranks each result once.
type rankOwners map[int]RankMatch

func byRank(ms []RankMatch) rankOwners {
	out := make(rankOwners, len(ms))
	for _, m := range ms {
		out[m.Rank] = m
	}
	return out
}

// of is whose the result at rank is: RelationNone and no competitor when
// it is nobody's.
func (o rankOwners) of(rank int) (sightline.Relation, *uuid.UUID) {
	if m, ok := o[rank]; ok {
		return m.Relation, m.CompetitorID
	}
	return sightline.RelationNone, nil
}
