package ingest

import (
	"net/url"
	"strings"

	"github.com/sightline/sightline/ingest/domain"
)

// NormalizeDomain returns the domain of a URL or a bare host by
// Sightline's one rule (see package domain): the host, lower-cased, without
// port or leading "www.", subdomains kept. ok is false when s names no
// usable host.
func NormalizeDomain(s string) (string, bool) { return domain.Normalize(s) }

// domainMatches reports whether host is domain or one of its subdomains:
// blog.acme.com matches acme.com, notacme.com does not.
func domainMatches(host, d string) bool { return domain.Matches(host, d) }

// ResolvedURL is what resolution learned about a cited or ranked URL.
type ResolvedURL struct {
	URL        string // the URL as given
	Domain     string // NormalizeDomain of URL: the redirector's when Unresolved; empty when it has no usable host
	Unresolved bool   // URL is a redirector: an engine's, an affiliate network's or a shortener's
}

// ResolveURL reports the domain of a cited or ranked URL and whether the URL
// is still a redirector. Per spec 4.4 an unresolved URL keeps the
// redirector's domain, even when the destination could be read from it: a
// Google /url link to the own site is not the own site's citation.
// Redirectors recognised:
//
//   - Google: /url (SerpApi's redirect_link), /aclk and /pagead/aclk (paid
//     clicks), /imgres, /searchviewer on google.com and its country domains;
//     vertexaisearch.cloud.google.com/grounding-api-redirect (Gemini and
//     Vertex AI grounding); news.google.com articles.
//   - bing.com/ck/a, duckduckgo.com/l/, l.facebook.com/l.php,
//     l.instagram.com, out.reddit.com, linkedin.com/redir/,
//     *.safelinks.protection.outlook.com, r.search.yahoo.com, href.li.
//   - Affiliate networks: Rakuten (linksynergy), Awin, Skimlinks
//     (skimresources, redirectingat), CJ (anrdoezrs, tkqlhce, jdoqocy,
//     dpbolvw, kqzyfj), ShareASale, Partnerize (prf.hn), Impact (sjv.io,
//     pxf.io, evyy.net), AvantLink, FlexOffers, Sovrn (viglink), and the like.
//   - Link shorteners (t.co, bit.ly, lnkd.in, amzn.to, ...).
//
// Tracking parameters (utm_source=openai, ...) are kept: the URL is as given.
func ResolveURL(raw string) ResolvedURL {
	d, _ := NormalizeDomain(raw)
	return ResolvedURL{URL: raw, Domain: d, Unresolved: isRedirector(raw)}
}

// affiliateHosts are affiliate networks' click trackers.
var affiliateHosts = map[string]bool{
	"click.linksynergy.com": true, "linksynergy.com": true, "awin1.com": true, "awin.com": true,
	"go.skimresources.com": true, "go.redirectingat.com": true, "anrdoezrs.net": true, "tkqlhce.com": true,
	"jdoqocy.com": true, "dpbolvw.net": true, "kqzyfj.com": true, "shareasale.com": true, "prf.hn": true,
	"sjv.io": true, "pxf.io": true, "evyy.net": true, "avantlink.com": true, "track.flexlinkspro.com": true,
	"redirect.viglink.com": true, "click.cptrack.com": true, "howl.me": true, "fave.co": true,
	"shop-links.co": true, "go.shopmy.us": true, "rstyle.me": true, "bit.ly": true,
}

// affiliateSuffixes match affiliate trackers on customer subdomains
// ("xyz.sjv.io", "linksynergy.walmart.com").
var affiliateSuffixes = []string{".sjv.io", ".pxf.io", ".evyy.net", ".linksynergy.com", ".awin1.com", ".skimresources.com",
	".redirectingat.com", ".anrdoezrs.net", ".avantlink.com"}

// shorteners are link shorteners: redirectors whose destination is not in
// the link.
var shorteners = map[string]bool{
	"t.co": true, "bit.ly": true, "ow.ly": true, "buff.ly": true, "tinyurl.com": true, "goo.gl": true,
	"lnkd.in": true, "rb.gy": true, "is.gd": true, "shorturl.at": true, "t.ly": true, "cutt.ly": true,
	"rebrand.ly": true, "tiny.cc": true, "bl.ink": true, "s.id": true, "dlvr.it": true, "trib.al": true,
	"fb.me": true, "amzn.to": true, "search.app": true,
}

// isRedirector reports whether raw is a redirector URL.
func isRedirector(raw string) bool {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || u.Host == "" {
		return false
	}
	host, ok := NormalizeDomain(u.Host)
	if !ok {
		return false
	}
	path := strings.ToLower(u.EscapedPath())
	switch {
	case shorteners[host], affiliateHosts[host]:
		return true
	case strings.HasPrefix(host, "linksynergy.") || strings.HasPrefix(host, "click.linksynergy."):
		return true
	case host == "vertexaisearch.cloud.google.com":
		return strings.HasPrefix(path, "/grounding-api-redirect")
	case host == "news.google.com":
		return strings.HasPrefix(path, "/rss/articles/") || strings.HasPrefix(path, "/articles/")
	case isGoogleHost(host):
		return path == "/url" || path == "/aclk" || strings.HasPrefix(path, "/pagead/aclk") || path == "/imgres" ||
			strings.HasPrefix(path, "/searchviewer")
	case host == "bing.com" || strings.HasSuffix(host, ".bing.com"):
		return path == "/ck/a"
	case host == "duckduckgo.com":
		return strings.HasPrefix(path, "/l/")
	case host == "l.facebook.com" || host == "lm.facebook.com", host == "l.instagram.com", host == "out.reddit.com",
		host == "linkedin.com" && strings.HasPrefix(path, "/redir/"), strings.HasSuffix(host, ".safelinks.protection.outlook.com"),
		host == "r.search.yahoo.com", host == "href.li":
		return true
	}
	for _, suf := range affiliateSuffixes {
		if strings.HasSuffix(host, suf) {
			return true
		}
	}
	return false
}

// isGoogleHost reports whether host is google.com or a country Google
// (google.de, google.co.uk, google.com.au).
func isGoogleHost(host string) bool {
	rest, ok := strings.CutPrefix(host, "google.")
	if !ok {
		return false
	}
	if rest == "com" {
		return true
	}
	if r, ok := strings.CutPrefix(rest, "co."); ok {
		rest = r
	} else if r, ok := strings.CutPrefix(rest, "com."); ok {
		rest = r
	}
	if len(rest) != 2 {
		return false
	}
	for _, r := range rest {
		if r < 'a' || r > 'z' {
			return false
		}
	}
	return true
}
