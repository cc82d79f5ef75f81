package oltp

import (
	"fmt"
	"net/url"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/sightline/sightline"
	"github.com/sightline/sightline/ingest/domain"
)

// The brand configuration's lists (a project's or a competitor's website
// domains and brand names) are stored in one normal form, so that what a
// caller sends in any spelling matches what captured answers are compared
// with, and so that a duplicate is recognised however it was typed.

// MaxBrandNameLength bounds one brand name, like every other name of a
// brand in the API (brand-name suggestions, missed brand names).
const MaxBrandNameLength = 255

// maxHostLength is the longest host name DNS allows.
const maxHostLength = 253

// valueProblem says why one value is refused, as a detail of a validation error.
type valueProblem struct {
	code    sightline.DetailCode
	message string
}

func (p *valueProblem) Error() string { return p.message }

func invalidValue(format string, args ...any) *valueProblem {
	return &valueProblem{code: sightline.DetailInvalidValue, message: fmt.Sprintf(format, args...)}
}

// NormalizeDomain turns a full URL or a bare host into the stored form of a
// website domain: the host alone (no scheme, port, path, query or trailing
// dot), lower-cased, without leading "www." labels. A value with user
// information (user@host, which is also how an e-mail address reads) is
// refused. A "www." is kept when
// removing it would leave a single label ("www.com" stays). The host must be
// a DNS name of at least two labels of letters, digits and inner hyphens
// whose last label is not numeric: IP addresses, "localhost" and
// underscores are refused, and an internationalised name is accepted in its
// ASCII (xn--) form only. NormalizeDomain is idempotent.
func NormalizeDomain(raw string) (string, error) {
	s := strings.TrimSpace(raw)
	if s == "" {
		return "", invalidValue("must be a host name such as example.com or a URL; it is empty")
	}
	if !strings.Contains(s, "://") {
		s = "http://" + s
	}
	u, err := url.Parse(s)
	if err != nil {
		return "", invalidValue("must be a host name such as example.com or an http(s) URL")
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return "", invalidValue("must be a host name such as example.com or an http(s) URL; the scheme %q is not supported", u.Scheme)
	}
	if u.User != nil {
		// An e-mail address or a mailto: value reads as user@host here.
		return "", invalidValue("must be a host name such as example.com or an http(s) URL, without user@")
	}
	// The host rule is the one captures are compared by (package domain);
	// what is stored is also validated as a DNS name below.
	host, _ := domain.Normalize(u.Host)
	if err := checkHost(host); err != nil {
		return "", err
	}
	return host, nil
}

// checkHost accepts a lower-case DNS host name of two labels or more.
func checkHost(host string) error {
	if host == "" {
		return invalidValue("must be a host name such as example.com; no host was found")
	}
	if len(host) > maxHostLength {
		return invalidValue("must be a host name of at most %d characters", maxHostLength)
	}
	labels := strings.Split(host, ".")
	if len(labels) < 2 {
		return invalidValue("must be a host name with a domain suffix, such as example.com")
	}
	for _, label := range labels {
		if label == "" || len(label) > 63 {
			return invalidValue("must be a host name whose dot-separated labels have 1 to 63 characters")
		}
		if label[0] == '-' || label[len(label)-1] == '-' {
			return invalidValue("must be a host name whose labels do not start or end with a hyphen")
		}
		for i := 0; i < len(label); i++ {
			c := label[i]
			if (c < 'a' || c > 'z') && (c < '0' || c > '9') && c != '-' {
				return invalidValue("must be a host name of letters, digits, hyphens and dots " +
					"(an internationalised name in its xn-- form)")
			}
		}
	}
	if strings.Trim(labels[len(labels)-1], "0123456789") == "" {
		return invalidValue("must be a host name, not an IP address")
	}
	return nil
}

// NormalizeDomains normalises each domain of a list and collapses duplicates,
// keeping the first occurrence's position. A value that is not a host is
// reported as field[index] in errs.
func NormalizeDomains(field string, raw []string, errs sightline.ValidationErrors) []string {
	return normalizeList(field, raw, errs, NormalizeDomain, func(d string) string { return d })
}

// normalizeList normalises each value of raw and keeps the first of those
// whose key is the same, in its position. A refused value is reported as
// field[index] in errs.
func normalizeList(field string, raw []string, errs sightline.ValidationErrors,
	normalize func(string) (string, error), key func(string) string) []string {
	out := make([]string, 0, len(raw))
	seen := make(map[string]bool, len(raw))
	for i, r := range raw {
		v, err := normalize(r)
		if err != nil {
			addProblem(errs, fmt.Sprintf("%s[%d]", field, i), err)
			continue
		}
		if k := key(v); !seen[k] {
			seen[k] = true
			out = append(out, v)
		}
	}
	return out
}

// NormalizeBrandName trims a brand name. It must keep at least one
// character, at most MaxBrandNameLength, and no control characters.
func NormalizeBrandName(raw string) (string, error) {
	return normalizeName(raw, MaxBrandNameLength)
}

// NormalizeBrandNames trims each brand name of a list and collapses the ones
// equal under Unicode case folding ("Acme", "ACME"), keeping the first
// spelling in its position. A refused value is reported as field[index].
func NormalizeBrandNames(field string, raw []string, errs sightline.ValidationErrors) []string {
	return normalizeList(field, raw, errs, NormalizeBrandName, FoldKey)
}

// NormalizeName trims a display name (of a project, a competitor or a
// cluster), which must then have 1 to max characters and no control
// characters; a refused name is reported under field in errs.
func NormalizeName(field, raw string, max int, errs sightline.ValidationErrors) string {
	s, err := normalizeName(raw, max)
	if err != nil {
		addProblem(errs, field, err)
	}
	return s
}

func normalizeName(raw string, max int) (string, error) {
	s := strings.TrimSpace(raw)
	if s == "" {
		return "", &valueProblem{code: sightline.DetailOutOfRange, message: "must have at least 1 character once trimmed; it has 0"}
	}
	if n := utf8.RuneCountInString(s); n > max {
		return "", &valueProblem{code: sightline.DetailOutOfRange,
			message: fmt.Sprintf("must have at most %d characters once trimmed; it has %d", max, n)}
	}
	if strings.IndexFunc(s, unicode.IsControl) >= 0 {
		return "", invalidValue("must not contain control characters")
	}
	return s, nil
}

// FoldKey maps a string to one representative of its Unicode case-folding
// class: FoldKey(a) == FoldKey(b) exactly when strings.EqualFold(a, b).
func FoldKey(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		least := r
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			least = min(least, f)
		}
		b.WriteRune(least)
	}
	return b.String()
}

func addProblem(errs sightline.ValidationErrors, field string, err error) {
	p := err.(*valueProblem)
	errs.Add(field, p.code, "%s", p.message)
}
