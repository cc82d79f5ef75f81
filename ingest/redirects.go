package ingest

import (
	"encoding/base64"
	"net/url"
	"strings"
)

// Search and shopping pages rank destinations: their redirectors (SerpApi's
// Google /url redirect_link, paid /aclk clicks, Bing's ck/a, ...) are
// followed to the destination they carry, which is stored as the result's
// URL, so a stored URL is a redirector exactly when it is unresolved; one
// that carries none stays unresolved with the redirector's URL and domain.
// Answer citations do not do this: see ResolveURL.

// followRedirects reports the destination of a ranked URL, seeing through
// redirectors that carry it (chains of up to four).
func followRedirects(raw string) ResolvedURL {
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
	return ResolvedURL{URL: cur, Domain: d, Unresolved: redirector || isRedirector(cur)}
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
