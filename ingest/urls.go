package ingest

import (
	"encoding/base64"
	"net/url"
	"strings"
	"unicode"
	"unicode/utf8"
)

// NormalizeDomain returns the host of a URL or of a bare host ("acme.com",
// "https://www.Acme.com:8443/pricing", "//acme.com/x", "acme.com/x"),
// lower-cased, without "www." prefixes, port, user information or trailing
// dot. ok is false when s names no usable host (empty, IP-v6 literals, hosts
// with characters no domain has). The result is a fixed point:
// NormalizeDomain of a result is that result.
func NormalizeDomain(s string) (domain string, ok bool) {
	s = strings.TrimSpace(s)
	if i := strings.Index(s, "://"); i >= 0 && isScheme(s[:i]) {
		s = s[i+3:]
	} else if strings.HasPrefix(s, "//") {
		s = s[2:]
	}
	if i := strings.IndexAny(s, "/?#\\"); i >= 0 {
		s = s[:i]
	}
	if i := strings.LastIndexByte(s, '@'); i >= 0 {
		s = s[i+1:]
	}
	if i := strings.LastIndexByte(s, ':'); i >= 0 {
		s = s[:i]
	}
	if strings.Contains(s, "%") {
		if u, err := url.PathUnescape(s); err == nil {
			s = u
		}
	}
	s = strings.Trim(strings.ToLower(s), ".")
	for strings.HasPrefix(s, "www.") {
		s = strings.TrimLeft(s[4:], ".")
	}
	if s == "" || !utf8.ValidString(s) {
		return "", false
	}
	for _, r := range s {
		if r != '.' && r != '-' && r != '_' && !isWordRune(r) {
			return "", false
		}
	}
	if strings.Contains(s, "..") {
		return "", false
	}
	return s, true
}

// isScheme reports whether s is a URL scheme (RFC 3986: a letter, then
// letters, digits, "+", "-" or ".").
func isScheme(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z':
		case i > 0 && (r >= '0' && r <= '9' || r == '+' || r == '-' || r == '.'):
		default:
			return false
		}
	}
	return true
}

// domainMatches reports whether host is domain or one of its subdomains:
// blog.acme.com matches acme.com, notacme.com does not.
func domainMatches(host, domain string) bool {
	return host == domain || len(host) > len(domain) && strings.HasSuffix(host, domain) && host[len(host)-len(domain)-1] == '.'
}

// ResolvedURL is what resolution learned about a cited or ranked URL.
type ResolvedURL struct {
	URL        string // the destination when a redirector was resolved, else the URL as given
	Domain     string // NormalizeDomain of URL; empty when it has no usable host
	Unresolved bool   // URL is a redirector whose destination is unknown
}

// ResolveURL reports the domain of a cited or ranked URL, seeing through
// redirectors. Redirectors recognised:
//
//   - Google: /url?url= or ?q= (SerpApi's redirect_link), /aclk?adurl= (paid
//     clicks), /imgres?imgrefurl=, on google.com and its country domains;
//     /searchviewer/... (AI Mode references) carries no destination.
//   - vertexaisearch.cloud.google.com/grounding-api-redirect/... (Gemini and
//     Vertex AI grounding) and news.google.com articles: opaque.
//   - bing.com/ck/a?u=a1<base64url>, duckduckgo.com/l/?uddg=,
//     l.facebook.com/l.php?u=, l.instagram.com?u=, out.reddit.com?url=,
//     linkedin.com/redir/redirect?url=, *.safelinks.protection.outlook.com?url=,
//     r.search.yahoo.com/.../RU=<escaped>/, href.li/?<url>.
//   - Link shorteners (t.co, bit.ly, lnkd.in, tinyurl.com, ...): opaque.
//
// When a redirector carries its destination (an absolute http or https URL
// with a host) in a parameter, the destination is used: URL becomes the
// destination, Domain its domain and Unresolved is false (chains of up to
// four redirectors are followed). Otherwise Unresolved is true and Domain
// is the redirector's. Tracking parameters (utm_source=openai, ...) are kept:
// the URL is as given.
func ResolveURL(raw string) ResolvedURL {
	cur := raw
	for range 4 {
		dest, redirector := redirectTarget(cur)
		if !redirector {
			break
		}
		if dest == "" {
			d, _ := NormalizeDomain(cur)
			return ResolvedURL{URL: cur, Domain: d, Unresolved: true}
		}
		cur = dest
	}
	d, _ := NormalizeDomain(cur)
	_, redirector := redirectTarget(cur)
	return ResolvedURL{URL: cur, Domain: d, Unresolved: redirector}
}

// shorteners are link shorteners: redirectors whose destination is not in
// the link.
var shorteners = map[string]bool{
	"t.co": true, "bit.ly": true, "ow.ly": true, "buff.ly": true, "tinyurl.com": true, "goo.gl": true,
	"lnkd.in": true, "rb.gy": true, "is.gd": true, "shorturl.at": true, "t.ly": true, "cutt.ly": true,
	"rebrand.ly": true, "tiny.cc": true, "bl.ink": true, "s.id": true, "dlvr.it": true, "trib.al": true,
	"fb.me": true, "amzn.to": true, "search.app": true,
}

// redirectTarget reports whether raw is a redirector URL and, when the
// destination is in the URL, the destination.
func redirectTarget(raw string) (dest string, redirector bool) {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return "", false
	}
	host, ok := NormalizeDomain(u.Host)
	if !ok {
		return "", false
	}
	path := strings.ToLower(u.EscapedPath())
	q := u.Query()
	param := func(names ...string) (string, bool) {
		for _, n := range names {
			if v := q.Get(n); v != "" {
				if d, ok := absoluteHTTP(v); ok {
					return d, true
				}
			}
		}
		return "", true
	}
	switch {
	case shorteners[host]:
		return "", true
	case host == "vertexaisearch.cloud.google.com" && strings.HasPrefix(path, "/grounding-api-redirect"):
		return "", true
	case host == "news.google.com" && (strings.HasPrefix(path, "/rss/articles/") || strings.HasPrefix(path, "/articles/")):
		return "", true
	case isGoogleHost(host):
		switch {
		case path == "/url":
			return param("url", "q")
		case path == "/aclk" || strings.HasPrefix(path, "/pagead/aclk"):
			return param("adurl")
		case path == "/imgres":
			return param("imgrefurl")
		case strings.HasPrefix(path, "/searchviewer"):
			return "", true
		}
	case (host == "bing.com" || strings.HasSuffix(host, ".bing.com")) && path == "/ck/a":
		v := q.Get("u")
		if strings.HasPrefix(v, "a1") {
			if b, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(v[2:], "=")); err == nil {
				if d, ok := absoluteHTTP(string(b)); ok {
					return d, true
				}
			}
		}
		return "", true
	case host == "duckduckgo.com" && strings.HasPrefix(path, "/l/"):
		return param("uddg")
	case (host == "l.facebook.com" || host == "lm.facebook.com") && path == "/l.php",
		host == "l.instagram.com":
		return param("u")
	case host == "out.reddit.com", host == "linkedin.com" && strings.HasPrefix(path, "/redir/"),
		strings.HasSuffix(host, ".safelinks.protection.outlook.com"):
		return param("url")
	case host == "r.search.yahoo.com":
		p := u.EscapedPath()
		if i := strings.Index(p, "/RU="); i >= 0 {
			v := p[i+4:]
			if j := strings.Index(v, "/"); j >= 0 {
				v = v[:j]
			}
			if un, err := url.PathUnescape(v); err == nil {
				if d, ok := absoluteHTTP(un); ok {
					return d, true
				}
			}
		}
		return "", true
	case host == "href.li":
		if d, ok := absoluteHTTP(u.RawQuery); ok {
			return d, true
		}
		return "", true
	}
	return "", false
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

// absoluteHTTP returns s when it is an absolute http or https URL with a
// usable host.
func absoluteHTTP(s string) (string, bool) {
	s = strings.TrimSpace(s)
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", false
	}
	if _, ok := NormalizeDomain(u.Host); !ok {
		return "", false
	}
	return s, true
}

// isWordRune reports whether r belongs inside a word: a letter, a digit, a
// combining mark (so "Cafe" does not match inside a decomposed "Café") or an
// underscore (identifiers such as acme_id are one word).
func isWordRune(r rune) bool {
	if r < utf8.RuneSelf {
		return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_'
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r)
}
