// Package domain is Sightline's one rule for the domain of a website: what
// a project's or competitor's configured domains are stored as, and what
// the URLs of captured answers, search results and shopping offers are
// compared by.
//
// A domain is the host of a URL or of a bare host, lower-cased, without
// scheme, user information, port, path, query, fragment or trailing dot,
// and without leading "www." labels (spec 2.6; extraction-rules.md:
// subdomains are kept, "www." stays where removing it would leave a single
// label, as in "www.com").
package domain

import (
	"net/url"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Normalize returns the domain of a URL or a bare host ("acme.com",
// "https://www.Acme.com:8443/pricing", "//acme.com/x", "acme.com/x").
// ok is false when s names no usable host: empty, an IPv6 literal, or
// characters no host name has. Normalize of a result is that result.
// Callers that store configuration validate further (oltp refuses IP
// addresses, single labels and non-ASCII names).
func Normalize(s string) (string, bool) {
	s = Host(strings.TrimSpace(s))
	if strings.Contains(s, "%") {
		if u, err := url.PathUnescape(s); err == nil {
			s = u
		}
	}
	s = strings.Trim(strings.ToLower(s), ".")
	if s == "" || !utf8.ValidString(s) || strings.Contains(s, "..") {
		return "", false
	}
	for strings.HasPrefix(s, "www.") && strings.Contains(s[len("www."):], ".") {
		s = s[len("www."):]
	}
	for _, r := range s {
		if r != '.' && r != '-' && r != '_' && !unicode.IsLetter(r) && !unicode.IsDigit(r) && !unicode.IsMark(r) {
			return "", false
		}
	}
	return s, true
}

// Host returns the host of a URL or a bare host as written, without
// scheme, user information, port, path, query or fragment:
// "https://user@Acme.com:8443/pricing" gives "Acme.com".
func Host(s string) string {
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
	return s
}

// Matches reports whether host is domain or one of its subdomains:
// blog.acme.com matches acme.com; notacme.com and acme.com.au do not.
// Both are normalised domains.
func Matches(host, domain string) bool {
	return host == domain || len(host) > len(domain) && strings.HasSuffix(host, domain) && host[len(host)-len(domain)-1] == '.'
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
