package simulator

import (
	"math"
	"math/rand/v2"
	"net/url"
	"slices"
	"strings"

	"github.com/google/uuid"

	"github.com/sightline/sightline"
	"github.com/sightline/sightline/ingest"
)

// vertexRedirect is where Google's grounded answers send cited links: the
// destination is opaque, so extraction cannot resolve it.
const vertexRedirect = "vertexaisearch.cloud.google.com"

// page is a web page a capture may link to.
type page struct {
	host, path, title string
	ref               *brandRef // whose site; nil for third parties
}

func (p page) url() string { return "https://" + p.host + p.path }

// domain is the page's host without "www.".
func (p page) domain() string { return strings.TrimPrefix(p.host, "www.") }

// relation is whose site the page is on, from the project's point of view.
func (p page) relation() (sightline.Relation, *uuid.UUID) {
	if p.ref == nil || p.ref.relation == sightline.RelationUntrackedCompetitor {
		return sightline.RelationNone, nil
	}
	return p.ref.relation, p.ref.competitorID
}

// citeCount is how many sources an engine cites for one answer.
func citeCount(r *rand.Rand, e sightline.Engine) int {
	switch e {
	case sightline.EngineChatGPT:
		if r.Float64() < 0.25 {
			return 0
		}
		return 1 + r.IntN(6)
	case sightline.EnginePerplexity:
		return 2 + r.IntN(7)
	case sightline.EngineGoogleAIOverview:
		if r.Float64() < 0.1 {
			return 0
		}
		return 2 + r.IntN(7)
	}
	return 1 + r.IntN(8)
}

// citations picks n cited sources: the own site (more likely when the
// answer names the own brand, and placed earlier or later as visibility
// drifts), sites of brands the answer names, and third parties; then links
// them the way the engine does, through redirectors for Google's.
func citations(r *rand.Rand, e sightline.Engine, m *market, p profile, day int64, c []named, n int) ([]ingest.Citation, []TruthCitation) {
	if n == 0 {
		return nil, nil
	}
	var own, other []page
	if m.own != nil && len(m.own.domains) > 0 {
		rate := 0.08 + 0.06*p.citeWave.at(day)
		if slices.ContainsFunc(c, func(x named) bool { return x.relation == sightline.RelationOwn }) {
			rate = 0.45 + 0.2*p.citeWave.at(day)
		}
		if r.Float64() < rate {
			own = append(own, brandPage(r, m.own, m.topic))
			if r.Float64() < 0.2 {
				own = append(own, brandPage(r, m.own, m.topic))
			}
		}
	}
	for _, x := range c {
		if x.relation != sightline.RelationOwn && r.Float64() < 0.3 {
			other = append(other, brandPage(r, x.brandRef, m.topic))
		}
	}
	sites := r.Perm(len(thirdParties))
	for i := 0; len(other) < n && i < len(sites); i++ {
		other = append(other, thirdPartyPage(r, thirdParties[sites[i]], m.topic))
	}
	r.Shuffle(len(other), func(i, j int) { other[i], other[j] = other[j], other[i] })
	own = own[:min(len(own), n)]
	pages := other[:min(len(other), n-len(own))]
	if len(own) > 0 {
		at := int(math.Round((1-p.ownRankWave.at(day))/2*float64(len(pages)))) + r.IntN(3) - 1
		pages = slices.Insert(slices.Clone(pages), max(0, min(at, len(pages))), own...)
	}
	cites := make([]ingest.Citation, len(pages))
	truth := make([]TruthCitation, len(pages))
	for i, pg := range pages {
		rel, id := pg.relation()
		t := TruthCitation{Position: i + 1, Domain: pg.domain(), Relation: rel, CompetitorID: id}
		link := pg.url()
		switch u := r.Float64(); {
		case e == sightline.EngineChatGPT && u < 0.7:
			link = withQuery(link, "utm_source=openai")
		case e == sightline.EngineChatGPT && u < 0.78 && pg.ref == nil:
			// Shopping answers link through affiliate networks.
			link = affiliateRedirect(r, link)
			t.Domain, t.Unresolved, t.Relation, t.CompetitorID = "click.linksynergy.com", true, sightline.RelationNone, nil
		case e == sightline.EngineGoogleAIOverview || e == sightline.EngineGoogleAIMode:
			switch {
			case u < 0.35:
				link = "https://" + vertexRedirect + "/grounding-api-redirect/AUZIYQ" + opaque(r, 120+r.IntN(80))
				t.Domain, t.Unresolved, t.Relation, t.CompetitorID = vertexRedirect, true, sightline.RelationNone, nil
			case u < 0.5:
				// Spec 4.4: a redirector stays unresolved and keeps its own
				// domain, even though this one carries its destination.
				link = googleRedirect(r, link)
				t.Domain, t.Unresolved, t.Relation, t.CompetitorID = "google.com", true, sightline.RelationNone, nil
			case u < 0.65 && e == sightline.EngineGoogleAIOverview:
				link += "#:~:text=" + url.PathEscape(m.topic)
			}
		}
		cites[i] = ingest.Citation{Position: i + 1, URL: link, Title: pg.title}
		truth[i] = t
	}
	return cites, truth
}

// brandPage is a page on a brand's own site, sometimes on a subdomain.
func brandPage(r *rand.Rand, b *brandRef, topic string) page {
	d := b.domains[r.IntN(len(b.domains))]
	name := d
	if len(b.names) > 0 {
		name = b.names[0]
	}
	s := slug(topic, "-")
	switch r.IntN(6) {
	case 0:
		return page{"www." + d, "/", name + " | Official Site", b}
	case 1:
		return page{"www." + d, "/pricing", "Pricing | " + name, b}
	case 2:
		return page{"blog." + d, "/" + s + "-guide", titleCase(topic) + ": The Complete Guide - " + name + " Blog", b}
	case 3:
		return page{d, "/features", "Features - " + name, b}
	case 4:
		return page{[2]string{"docs.", "help."}[r.IntN(2)] + d, "/getting-started", "Getting started | " + name, b}
	}
	return page{"www." + d, "/customers", "Customer Stories | " + name, b}
}

// thirdParties are review, media and community sites, with a path and title
// pattern each ({s} topic slug, {u} underscore slug, {T} title-cased topic,
// {t} topic, {id} an identifier).
var thirdParties = []page{
	{"www.g2.com", "/categories/{s}", "Best {T} in 2025: Compare Reviews | G2", nil},
	{"www.capterra.com", "/{s}/", "Best {T} 2025 - Reviews & Pricing | Capterra", nil},
	{"www.trustradius.com", "/{s}", "Best {T} - 2025 Reviews & Comparison | TrustRadius", nil},
	{"www.reddit.com", "/r/smallbusiness/comments/{id}/whats_the_best_{u}/", "What's the best {t}? : r/smallbusiness", nil},
	{"www.forbes.com", "/advisor/business/{s}/", "Best {T} Of 2025 – Forbes Advisor", nil},
	{"www.techradar.com", "/best/{s}", "Best {t} of 2025: tested and rated | TechRadar", nil},
	{"www.pcmag.com", "/picks/the-best-{s}", "The Best {T} for 2025 | PCMag", nil},
	{"www.nerdwallet.com", "/article/{s}", "{T}: How to Choose - NerdWallet", nil},
	{"en.wikipedia.org", "/wiki/{u}", "{T} - Wikipedia", nil},
	{"www.youtube.com", "/watch?v={id}", "{T} - Honest Review (2025)", nil},
	{"medium.com", "/@reviewsbyann/{s}-{id}", "I Tried 7 {T} Options. Here's What Happened", nil},
	{"www.quora.com", "/What-is-the-best-{s}", "What is the best {t}? - Quora", nil},
	{"uk.trustpilot.com", "/categories/{s}", "Best {T} | Trustpilot", nil},
}

func thirdPartyPage(r *rand.Rand, tp page, topic string) page {
	fill := func(pattern string) string {
		var b strings.Builder
		for pattern != "" {
			i := strings.IndexByte(pattern, '{')
			if i < 0 {
				b.WriteString(pattern)
				break
			}
			j := i + strings.IndexByte(pattern[i:], '}')
			b.WriteString(pattern[:i])
			switch pattern[i+1 : j] {
			case "s":
				b.WriteString(slug(topic, "-"))
			case "u":
				b.WriteString(slug(topic, "_"))
			case "T":
				b.WriteString(titleCase(topic))
			case "t":
				b.WriteString(topic)
			case "id":
				b.WriteString(opaque(r, 11))
			}
			pattern = pattern[j+1:]
		}
		return b.String()
	}
	return page{tp.host, fill(tp.path), fill(tp.title), nil}
}

// googleRedirect wraps a link in Google's /url redirector, which carries the
// destination in q=.
func googleRedirect(r *rand.Rand, link string) string {
	return "https://www.google.com/url?q=" + url.QueryEscape(link) + "&sa=U&ved=2ahUKEwi" + opaque(r, 22) + "&usg=AOvVaw" + opaque(r, 22)
}

// affiliateRedirect wraps a link in an affiliate network's click tracker.
func affiliateRedirect(r *rand.Rand, link string) string {
	return "https://click.linksynergy.com/deeplink?id=" + opaque(r, 11) + "&mid=" + digits(r, 5) + "&murl=" + url.QueryEscape(link)
}

func withQuery(link, q string) string {
	if strings.Contains(link, "?") {
		return link + "&" + q
	}
	return link + "?" + q
}

const opaqueAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"

// opaque is n characters of URL-safe base64 noise.
func opaque(r *rand.Rand, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = opaqueAlphabet[r.IntN(len(opaqueAlphabet))]
	}
	return string(b)
}

// digits is n random decimal digits, the first non-zero.
func digits(r *rand.Rand, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte('0' + r.IntN(10))
	}
	if b[0] == '0' {
		b[0] = '1' + byte(r.IntN(9))
	}
	return string(b)
}
