package simulator

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/sightline/sightline/ingest"
)

// searchPage is a page of organic results: sites of the project and its
// competitors at ranks that drift, sites of untracked brands, review and
// media sites. A few links go through Google's /url redirector.
func searchPage(r *rand.Rand, m *market, p profile, day int64) (*ingest.SearchPage, []TruthRank) {
	n := 10
	if r.Float64() < 0.2 {
		n = 6 + r.IntN(4)
	}
	var own []page
	if m.own != nil && len(m.own.domains) > 0 && r.Float64() < clamp(p.serpPresence+0.3*p.serpWave.at(day), 0.03, 0.97) {
		own = append(own, brandPage(r, m.own, m.topic))
	}
	var other []page
	for _, b := range m.tracked {
		if len(b.domains) > 0 && r.Float64() < 0.3+0.5*b.rate {
			other = append(other, brandPage(r, b, m.topic))
		}
	}
	for _, b := range m.pool[:min(4, len(m.pool))] {
		if r.Float64() < 0.4 {
			other = append(other, brandPage(r, b, m.topic))
		}
	}
	for _, i := range r.Perm(len(thirdParties)) {
		other = append(other, thirdPartyPage(r, thirdParties[i], m.topic))
	}
	// Brand sites first, then third parties, each group shuffled, so brand
	// sites are not crowded out by the page size.
	brands := len(other) - len(thirdParties)
	r.Shuffle(brands, func(i, j int) { other[i], other[j] = other[j], other[i] })
	other = other[:n-len(own)]
	r.Shuffle(len(other), func(i, j int) { other[i], other[j] = other[j], other[i] })
	pages := other
	if len(own) > 0 {
		rank := int(math.Round(p.serpRank-3*p.serpWave.at(day))) + r.IntN(3) - 1
		pages = slices.Insert(other, max(0, min(rank-1, len(other))), own...)
	}
	sp := &ingest.SearchPage{Results: make([]ingest.SearchResult, len(pages))}
	truth := make([]TruthRank, len(pages))
	for i, pg := range pages {
		link := pg.url()
		if r.Float64() < 0.04 {
			link = googleRedirect(r, link)
		}
		res := ingest.SearchResult{Rank: i + 1, URL: link, Title: pg.title, Snippet: snippet(r, pg, m.topic)}
		if r.Float64() < 0.25 {
			rating := 3.2 + float64(r.IntN(18))/10
			votes := 3 + int(math.Exp(r.Float64()*10))
			res.Rating, res.RatingVotes = &rating, &votes
		}
		sp.Results[i] = res
		rel, id := pg.relation()
		truth[i] = TruthRank{Rank: i + 1, Domain: pg.domain(), Relation: rel, CompetitorID: id}
	}
	return sp, truth
}

func snippet(r *rand.Rand, pg page, topic string) string {
	if pg.ref != nil {
		name := pg.domain()
		if len(pg.ref.names) > 0 {
			name = pg.ref.names[0]
		}
		return name + " helps teams with " + feats[r.IntN(len(feats))] + " and " + feats[r.IntN(len(feats))] +
			". Plans for every budget; start a free trial today."
	}
	return [3]string{
		"Compare the top " + topic + " options by price, features and verified user reviews. Updated for 2025.",
		"We tested the leading " + topic + " options for months. Here are our picks, with pros and cons.",
		"Looking for " + topic + "? Real users share what worked for them and what did not.",
	}[r.IntN(3)]
}

// seller is who sells an offer: a brand's own store or a marketplace.
type seller struct {
	name, host string
	ref        *brandRef
}

// marketplaces are the big general merchants of a country.
var marketplaces = map[string][]seller{
	"US": {{"Amazon.com", "www.amazon.com", nil}, {"Walmart", "www.walmart.com", nil}, {"eBay", "www.ebay.com", nil},
		{"Best Buy", "www.bestbuy.com", nil}, {"Target", "www.target.com", nil}},
	"GB": {{"Amazon.co.uk", "www.amazon.co.uk", nil}, {"Argos", "www.argos.co.uk", nil}, {"Currys", "www.currys.co.uk", nil},
		{"eBay", "www.ebay.co.uk", nil}, {"John Lewis", "www.johnlewis.com", nil}},
	"DE": {{"Amazon.de", "www.amazon.de", nil}, {"Otto", "www.otto.de", nil}, {"MediaMarkt", "www.mediamarkt.de", nil},
		{"eBay", "www.ebay.de", nil}},
	"FR": {{"Amazon.fr", "www.amazon.fr", nil}, {"Fnac", "www.fnac.com", nil}, {"Cdiscount", "www.cdiscount.com", nil},
		{"Darty", "www.darty.com", nil}},
}

// currencies is the local currency per country and its rate to the US dollar.
var (
	localCurrency = map[string]string{
		"US": "USD", "GB": "GBP", "CA": "CAD", "AU": "AUD", "JP": "JPY", "CH": "CHF", "IN": "INR",
		"DE": "EUR", "FR": "EUR", "ES": "EUR", "IT": "EUR", "NL": "EUR", "IE": "EUR", "AT": "EUR", "BE": "EUR", "PT": "EUR", "FI": "EUR",
	}
	currencies   = []string{"USD", "EUR", "GBP", "CAD", "AUD", "JPY", "CHF", "INR"}
	perDollar    = map[string]float64{"USD": 1, "EUR": 0.92, "GBP": 0.79, "CAD": 1.37, "AUD": 1.53, "JPY": 150, "CHF": 0.88, "INR": 83}
	wholeUnits   = map[string]bool{"JPY": true, "INR": true}
	variantNames = []string{"2025 Edition", "Pro", "Lite", "Starter Pack", "Black", "Bundle", "Plus", "Family Plan", "XL"}
)

// shoppingPage is a page of offers from brand stores and marketplaces, in
// the country's currency with some cross-border offers in others. base is
// the product's typical price in US dollars.
func shoppingPage(r *rand.Rand, country string, m *market, p profile, day int64, product string, base float64) (*ingest.ShoppingPage, []TruthRank) {
	n := 5 + r.IntN(16)
	local, ok := localCurrency[country]
	if !ok {
		local = "USD"
	}
	stores, ok := marketplaces[country]
	if !ok {
		stores = marketplaces["US"]
	}
	store := func(b *brandRef) seller {
		name := b.domains[0]
		if len(b.names) > 0 {
			name = b.names[0]
		}
		return seller{name, "www." + b.domains[r.IntN(len(b.domains))], b}
	}
	var own, other []seller
	if m.own != nil && len(m.own.domains) > 0 && r.Float64() < clamp(p.shopPresence+0.3*p.shopWave.at(day), 0.03, 0.97) {
		own = append(own, store(m.own))
		if r.Float64() < 0.3 {
			own = append(own, store(m.own))
		}
	}
	for _, b := range m.tracked {
		for k := 0; k < 2 && len(b.domains) > 0 && r.Float64() < 0.25+0.5*b.rate; k++ {
			other = append(other, store(b))
		}
	}
	for _, b := range m.pool[:min(4, len(m.pool))] {
		if r.Float64() < 0.3 {
			other = append(other, store(b))
		}
	}
	for len(other) < n {
		other = append(other, stores[r.IntN(len(stores))])
	}
	r.Shuffle(len(other), func(i, j int) { other[i], other[j] = other[j], other[i] })
	own = own[:min(len(own), n)]
	sellers := other[:n-len(own)]
	if len(own) > 0 {
		at := int(math.Round((1-p.shopWave.at(day))/2*float64(len(sellers)))) + r.IntN(3) - 1
		sellers = slices.Insert(sellers, max(0, min(at, len(sellers))), own...)
	}
	// Marketplaces sell every brand of the market, the project's included.
	var makers []string
	for _, b := range append(append([]*brandRef{m.own}, m.tracked...), m.pool...) {
		if b != nil && len(b.names) > 0 {
			makers = append(makers, b.names[0])
		}
	}
	sp := &ingest.ShoppingPage{Offers: make([]ingest.Offer, len(sellers))}
	truth := make([]TruthRank, len(sellers))
	for i, s := range sellers {
		maker := s.name
		if s.ref == nil && len(makers) > 0 {
			maker = makers[r.IntN(len(makers))]
		}
		cur := local
		if r.Float64() < 0.25 {
			cur = currencies[r.IntN(len(currencies))]
		}
		price := base * (0.7 + 0.7*r.Float64()) * perDollar[cur]
		if wholeUnits[cur] {
			price = math.Round(price)
		} else {
			price = math.Floor(price) + [3]float64{0.99, 0.49, 0}[r.IntN(3)]
		}
		pg := page{host: s.host, path: offerPath(r, s.host, product)}
		sp.Offers[i] = ingest.Offer{
			Rank: i + 1, Title: maker + " " + product + " " + variantNames[r.IntN(len(variantNames))],
			Price: price, Currency: cur, ProductID: digits(r, 19), Merchant: s.name, URL: pg.url(),
		}
		pg.ref = s.ref
		rel, id := pg.relation()
		truth[i] = TruthRank{Rank: i + 1, Domain: pg.domain(), Relation: rel, CompetitorID: id}
	}
	return sp, truth
}

// offerPath is a product page path in the style of the merchant.
func offerPath(r *rand.Rand, host, product string) string {
	s := slug(product, "-")
	switch {
	case strings.Contains(host, "amazon."):
		b := make([]byte, 8)
		for i := range b {
			b[i] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"[r.IntN(36)]
		}
		return "/dp/B0" + string(b)
	case strings.Contains(host, "walmart."):
		return "/ip/" + s + "/" + digits(r, 9)
	case strings.Contains(host, "ebay."):
		return "/itm/" + digits(r, 12)
	}
	return "/products/" + s + "-" + digits(r, 6)
}
