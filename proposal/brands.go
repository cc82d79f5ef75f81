package proposal

import (
	"cmp"
	"math"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Brand discovery (spec 4.8): competitors proposed from what the
// project's own captures show. Candidates are
//   - brands its AI answers name that it does not track, and
//   - domains ranking on its search pages (and, when asked, selling on its
//     shopping pages) that belong to no tracked brand.
//
// A name and a domain are one brand when the domain's name part spells the
// name, with or without its suffix words, accents or a get/try prefix
// ("Blue Fox" and bluefox.com, "Globex Corp" and globex.io, "Crème
// Digital" and cremedigital.com, "D'Arcy & Co" and darcyandco.com). The
// domains come from search results, shopping offers and the answers'
// citations. Each brand scores how often and how prominently it appears:
// every answer naming it as a brand (a recommendation, comparison, list
// item, table row or example) adds 1/sqrt(its position among the brands
// named), every answer naming it only in passing (a reference: "X's
// benchmark report found", "according to X") a quarter of that, every
// search result 0.6/sqrt(rank), every shopping offer 0.4/sqrt(rank). A name
// that answers only refer to, and that no search result or offer shows, is
// a publisher or an author rather than a competitor and is left out. A
// brand whose domain none of the captures shows is still proposed, with
// websiteDomains empty: a competitor needs at least one domain, so the
// caller adds it before creating one.
// Review sites, marketplaces, social networks and media are not brands and
// are left out, as is anything the project already tracks: the own brand
// and the tracked competitors, by name or by domain (subdomains included).

// MentionSignal is an untracked brand as the project's AI answers name it.
type MentionSignal struct {
	Name string
	// Answers naming it, and the sum over them of 1/sqrt(position).
	Answers int
	Weight  float64
	// BrandAnswers and BrandWeight count the answers naming it as a brand:
	// every mention type but reference.
	BrandAnswers int
	BrandWeight  float64
	// PositionSum is the sum of its positions, for the average.
	PositionSum float64
}

// DomainSignal is a domain as the project's search or shopping pages, or
// its answers' citations, show it.
type DomainSignal struct {
	Domain string
	// Items: results, offers or citations on the domain; Weight the sum of
	// 1/sqrt(rank) over them.
	Items  int
	Weight float64
	// BestRank is the best rank seen (search and shopping).
	BestRank int
	// Label is a name seen with it: the merchant of an offer, or the start
	// of a result's title.
	Label string
}

// BrandSignals are the captures' evidence about brands the project does
// not track.
type BrandSignals struct {
	Mentions []MentionSignal
	Search   []DomainSignal
	Shopping []DomainSignal
	// Cited domains only link a name to its site; they add nothing to a
	// score.
	Cited []DomainSignal
}

// TrackedBrands are the brands a project already tracks: its own and its
// competitors'.
type TrackedBrands struct {
	Names   []string
	Domains []string
}

// DiscoveredBrand is one proposed competitor, shaped to be created as one.
type DiscoveredBrand struct {
	Name           string   `json:"name"`
	WebsiteDomains []string `json:"websiteDomains"`
	BrandNames     []string `json:"brandNames"`
	// Evidence.
	MentionCount       int      `json:"mentionCount"`
	AvgMentionPosition *float64 `json:"avgMentionPosition"`
	SearchResultCount  int      `json:"searchResultCount"`
	BestSearchRank     *int     `json:"bestSearchRank"`
	ShoppingOfferCount int      `json:"shoppingOfferCount"`
	BestShoppingRank   *int     `json:"bestShoppingRank"`
	Score              float64  `json:"score"`
}

// MaxDiscoveredBrands bounds one brand discovery's proposals.
const MaxDiscoveredBrands = 25

// Weights of search results, shopping offers and mentions in passing
// against an answer's mention as a brand.
const (
	searchWeight    = 0.6
	shoppingWeight  = 0.4
	referenceWeight = 0.25
)

// DiscoverBrands ranks the brands the signals show, best first.
func DiscoverBrands(s BrandSignals, tracked TrackedBrands) []DiscoveredBrand {
	isTracked := trackedMatcher(tracked)
	type candidate struct {
		DiscoveredBrand
		names       map[string]string // folded -> spelling
		nameHits    int
		asBrand     int // answers naming it as a brand
		label       string
		domains     map[string]int // domain -> weight rank
		positionSum float64
	}
	byKey := map[string]*candidate{}
	var keys []string
	// alias leads each spelling a domain label may have to the key of
	// the name it spells.
	alias := map[string]string{}
	get := func(key string) *candidate {
		c, ok := byKey[key]
		if !ok {
			c = &candidate{names: map[string]string{}, domains: map[string]int{}}
			byKey[key] = c
			keys = append(keys, key)
		}
		return c
	}
	for _, m := range s.Mentions {
		name := strings.Join(strings.Fields(m.Name), " ")
		key := brandKey(name)
		if key == "" || isTracked(name, "") {
			continue
		}
		c := get(key)
		for _, a := range nameKeys(name) {
			if _, ok := alias[a]; !ok {
				alias[a] = key
			}
		}
		c.MentionCount += m.Answers
		c.asBrand += m.BrandAnswers
		c.positionSum += m.PositionSum
		c.Score += m.BrandWeight + referenceWeight*(m.Weight-m.BrandWeight)
		if _, ok := c.names[foldName(name)]; !ok {
			c.names[foldName(name)] = name
		}
		if m.Answers > c.nameHits || (m.Answers == c.nameHits && name < c.Name) {
			c.Name, c.nameHits = name, m.Answers
		}
	}
	addDomain := func(d DomainSignal, kind string) {
		domain := strings.ToLower(strings.TrimPrefix(d.Domain, "www."))
		if domain == "" || notBrandHost(domain) || isTracked("", domain) {
			return
		}
		key := domainKey(domain, alias)
		if key == "" {
			return
		}
		if kind == "cited" {
			// Citations only give a named brand its site.
			if c, ok := byKey[key]; ok {
				c.domains[registrableDomain(domain)] += d.Items
			}
			return
		}
		c := get(key)
		c.domains[registrableDomain(domain)] += d.Items
		switch kind {
		case "search":
			c.SearchResultCount += d.Items
			c.Score += searchWeight * d.Weight
			c.BestSearchRank = bestRank(c.BestSearchRank, d.BestRank)
		case "shopping":
			c.ShoppingOfferCount += d.Items
			c.Score += shoppingWeight * d.Weight
			c.BestShoppingRank = bestRank(c.BestShoppingRank, d.BestRank)
		}
		if c.label == "" && d.Label != "" && brandKey(d.Label) == key {
			c.label = strings.Join(strings.Fields(d.Label), " ")
		}
	}
	for _, d := range s.Search {
		addDomain(d, "search")
	}
	for _, d := range s.Shopping {
		addDomain(d, "shopping")
	}
	for _, d := range s.Cited {
		addDomain(d, "cited")
	}

	out := []DiscoveredBrand{}
	for _, key := range keys {
		c := byKey[key]
		if c.Score <= 0 || (c.asBrand == 0 && c.SearchResultCount == 0 && c.ShoppingOfferCount == 0) {
			continue
		}
		if c.Name == "" {
			c.Name = c.label
		}
		if c.Name == "" {
			c.Name = writeLike(key, "")
		}
		if isTracked(c.Name, "") {
			continue
		}
		c.Name = clip(c.Name, 200)
		c.BrandNames = []string{c.Name}
		for _, f := range sortedKeys(c.names) {
			if f != foldName(c.Name) {
				c.BrandNames = append(c.BrandNames, clip(c.names[f], 255))
			}
		}
		domains := sortedKeys(c.domains)
		slices.SortStableFunc(domains, func(a, b string) int { return cmp.Compare(c.domains[b], c.domains[a]) })
		c.WebsiteDomains = domains[:min(3, len(domains))]
		if c.WebsiteDomains == nil {
			c.WebsiteDomains = []string{}
		}
		if c.MentionCount > 0 {
			avg := round2(c.positionSum / float64(c.MentionCount))
			c.AvgMentionPosition = &avg
		}
		c.Score = round2(c.Score)
		out = append(out, c.DiscoveredBrand)
	}
	slices.SortStableFunc(out, func(a, b DiscoveredBrand) int {
		if a.Score != b.Score {
			return cmp.Compare(b.Score, a.Score)
		}
		return cmp.Compare(a.Name, b.Name)
	})
	return out[:min(len(out), MaxDiscoveredBrands)]
}

func bestRank(cur *int, rank int) *int {
	if rank <= 0 || (cur != nil && *cur <= rank) {
		return cur
	}
	return &rank
}

func round2(x float64) float64 { return math.Round(x*100) / 100 }

func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return strings.TrimSpace(string([]rune(s)[:n]))
}

// brandKey is what a name and a domain label are matched by: the name
// without legal-form or product suffix words, in lower-case letters and
// digits only ("Globex Corp." -> "globex", "Blue Fox" -> "bluefox").
func brandKey(name string) string {
	return compact(stripSuffixes(name))
}

// trackedMatcher reports whether a name or a domain belongs to a tracked
// brand: the name equal to one of theirs but for case, spacing and
// suffixes, or the domain one of theirs or under it, or spelling the same
// name.
func trackedMatcher(t TrackedBrands) func(name, domain string) bool {
	names := map[string]bool{}
	for _, n := range t.Names {
		if k := brandKey(n); k != "" {
			names[k] = true
		}
	}
	var domains []string
	for _, d := range t.Domains {
		d = strings.ToLower(strings.TrimPrefix(strings.TrimSpace(d), "www."))
		if d == "" {
			continue
		}
		domains = append(domains, d)
		if l := DomainLabel(d); len(l) >= 3 {
			names[l] = true
		}
	}
	return func(name, domain string) bool {
		if name != "" && names[brandKey(name)] {
			return true
		}
		if domain == "" {
			return false
		}
		for _, d := range domains {
			if domain == d || strings.HasSuffix(domain, "."+d) {
				return true
			}
		}
		return names[DomainLabel(domain)]
	}
}

// nonBrandHosts are sites that rank and get cited for every topic without
// being anyone's competitor: reviews, marketplaces, social networks,
// reference and media. Their subdomains are covered too.
var nonBrandHosts = setOf(`g2.com capterra.com trustradius.com getapp.com softwareadvice.com trustpilot.com
	gartner.com forrester.com producthunt.com sourceforge.net alternativeto.net saasworthy.com crozdesk.com
	reddit.com quora.com youtube.com facebook.com instagram.com linkedin.com twitter.com x.com tiktok.com
	pinterest.com medium.com substack.com wikipedia.org wikihow.com github.com stackoverflow.com
	forbes.com techradar.com pcmag.com zdnet.com cnet.com techcrunch.com theverge.com wired.com nytimes.com
	businessinsider.com entrepreneur.com inc.com investopedia.com nerdwallet.com bbc.co.uk bbc.com theguardian.com
	amazon.com amazon.co.uk amazon.de amazon.fr amazon.ca ebay.com ebay.co.uk walmart.com target.com etsy.com
	aliexpress.com alibaba.com bestbuy.com google.com apple.com microsoft.com yelp.com tripadvisor.com`)

// notBrandHost reports whether host is one of nonBrandHosts or under one.
func notBrandHost(host string) bool {
	for h := host; h != ""; {
		if nonBrandHosts[h] {
			return true
		}
		_, rest, ok := strings.Cut(h, ".")
		if !ok || !strings.Contains(rest, ".") {
			return false
		}
		h = rest
	}
	return false
}

// TitleLabel is the part of a page title that names its site: the text
// before the first separator ("Globex - CRM for teams" -> "Globex"), or
// nothing when it is more than a few words.
func TitleLabel(title string) string {
	cut := len(title)
	for _, sep := range []string{" - ", " | ", " – ", " — ", ": "} {
		if i := strings.Index(title, sep); i >= 0 && i < cut {
			cut = i
		}
	}
	label := strings.TrimSpace(title[:cut])
	if n := len(strings.Fields(label)); n == 0 || n > 4 || !strings.ContainsFunc(label, unicode.IsLetter) {
		return ""
	}
	return label
}

// nameKeys are the spellings a domain label may give a brand name: its
// letters and digits, with and without suffix words, accents and "&"
// ("and" or nothing).
func nameKeys(name string) []string {
	var out []string
	for _, n := range []string{name, stripSuffixes(name)} {
		folded := foldAccents(n)
		for _, v := range []string{n, folded, strings.ReplaceAll(folded, "&", " and ")} {
			if k := compact(v); k != "" && !slices.Contains(out, k) {
				out = append(out, k)
			}
		}
	}
	return out
}

// domainKey is the key of the brand a domain belongs to: the name its
// label spells, also without a get/try prefix or a product suffix
// ("getacme.com", "acmecrm.com"), else the label itself.
func domainKey(domain string, alias map[string]string) string {
	label := compact(DomainLabel(domain))
	if label == "" {
		return ""
	}
	variants := []string{label}
	for _, p := range domainPrefixes {
		if rest, ok := strings.CutPrefix(label, p); ok && len(rest) >= 3 {
			variants = append(variants, rest)
		}
	}
	for _, sfx := range domainSuffixes {
		if rest, ok := strings.CutSuffix(label, sfx.label); ok && len(rest) >= 3 {
			variants = append(variants, rest)
		}
	}
	for _, v := range variants {
		if key, ok := alias[v]; ok {
			return key
		}
	}
	return label
}

// letterFolds are the letters that decomposition leaves as they are.
var letterFolds = strings.NewReplacer("ø", "o", "Ø", "O", "æ", "ae", "Æ", "AE", "œ", "oe", "Œ", "OE", "ß", "ss",
	"ł", "l", "Ł", "L", "đ", "d", "Đ", "D", "þ", "th")

// foldAccents writes s without diacritics, as domains spell names
// ("Crème" -> "Creme", "Sølune" -> "Solune").
func foldAccents(s string) string {
	var b strings.Builder
	for _, r := range norm.NFD.String(letterFolds.Replace(s)) {
		if !unicode.Is(unicode.Mn, r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}
