package proposal

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Brand-name suggestions (spec 4.8): the ways a brand is written, derived
// from its name and website domains alone. Nothing is looked up.
//
// Brand names match case-insensitively, and a profile keeps one spelling
// of names equal but for case, so a suggestion never differs from another,
// from the name or from an entered name by case alone. Suggestions come in
// this order, each once:
//   - name: the name itself, unless entered;
//   - spacing: words joined ("Acme Cloud" -> "AcmeCloud"), hyphens as
//     spaces and joined ("Acme-Cloud" -> "Acme Cloud", "AcmeCloud");
//   - casing: a name written in camel case split at its humps ("HubSpot"
//     -> "Hub Spot");
//   - suffix: the name without a trailing product or legal-form word ("Acme
//     CRM", "Acme Inc." -> "Acme"), which is how answers usually shorten it,
//     and the name with the legal form of the country ("Acme Inc." in US,
//     "Acme Ltd" in GB, "Acme GmbH" in DE ...);
//   - domain: each bare domain ("acme.com") and its name part, cased like
//     the brand name where they spell the same ("acmecloud.com" -> "Acme
//     Cloud"), with prefixes such as get/try stripped ("getacme.com" ->
//     "Acme") and product suffixes split off ("acmecrm.com" -> "Acme CRM").

// NameSuggestion is one proposed brand name and the rule that gave it.
type NameSuggestion struct {
	Name   string `json:"name"`
	Reason string `json:"reason"` // name, spacing, casing, suffix or domain (model: see proposal/refine)
}

// MaxNameSuggestions bounds the suggestions of one job.
const MaxNameSuggestions = 25

// SuggestBrandNames proposes the names a brand is written as.
func SuggestBrandNames(name string, domains, entered []string, country string) []NameSuggestion {
	name = strings.Join(strings.Fields(name), " ")
	out := []NameSuggestion{}
	seen := map[string]bool{}
	for _, e := range entered {
		seen[foldName(e)] = true
	}
	add := func(candidate, reason string) {
		candidate = strings.Join(strings.Fields(candidate), " ")
		key := foldName(candidate)
		if candidate == "" || seen[key] || utf8.RuneCountInString(candidate) > 255 || len(out) >= MaxNameSuggestions {
			return
		}
		seen[key] = true
		out = append(out, NameSuggestion{Name: candidate, Reason: reason})
	}
	add(name, "name")
	seen[foldName(name)] = true // also when entered: no variant of it by case
	// Every variant is of the name without a leading article: answers
	// write "Coca-Cola", never "TheCocaCola" or "The Coca-Cola Inc.".
	if bare := stripArticle(name); bare != name {
		name = bare
		add(name, "suffix")
	}

	// Spacing, never gluing a domain to a word ("monday.com WorkOS").
	switch {
	case strings.Contains(name, "."):
	case strings.ContainsAny(name, "-_"):
		spaced := strings.Join(strings.FieldsFunc(name, func(r rune) bool { return r == '-' || r == '_' || r == ' ' }), " ")
		add(spaced, "spacing")
		add(strings.ReplaceAll(spaced, " ", ""), "spacing")
	case strings.Contains(name, " "):
		add(strings.ReplaceAll(name, " ", ""), "spacing")
		if len(strings.Fields(name)) == 2 {
			add(strings.ReplaceAll(name, " ", "-"), "spacing")
		}
	}
	// Casing.
	if humps := splitCamel(name); humps != name {
		add(humps, "casing")
	}
	// Suffixes.
	base := stripSuffixes(name)
	if base != name {
		add(base, "suffix")
	}
	if form := legalForms[strings.ToUpper(country)]; form != "" && base != "" {
		add(base+" "+form, "suffix")
	}
	// Domains.
	for _, d := range domains {
		d = strings.ToLower(strings.TrimPrefix(strings.TrimSpace(d), "www."))
		if d == "" {
			continue
		}
		add(d, "domain")
		if registrable := registrableDomain(d); registrable != d {
			add(registrable, "domain")
		}
		for _, label := range domainNames(d, name) {
			add(label, "domain")
		}
	}
	return out
}

// articles are the leading words a brand's name drops in running text.
var articles = setOf(`the a an die der das le la les el los las il lo`)

// stripArticle removes a leading article ("The Coca-Cola Company" ->
// "Coca-Cola Company"), keeping at least one word.
func stripArticle(name string) string {
	words := strings.Fields(name)
	if len(words) > 1 && articles[strings.ToLower(words[0])] {
		return strings.Join(words[1:], " ")
	}
	return name
}

// foldName is the key names are compared by: case folded, spaces collapsed.
func foldName(s string) string {
	return strings.ToLower(strings.Join(strings.Fields(s), " "))
}

// splitCamel puts a space at each hump of a camel-cased word ("HubSpot" ->
// "Hub Spot"); runs of capitals stay together ("ACMECloud" -> "ACME
// Cloud"). Words without humps are unchanged.
func splitCamel(name string) string {
	var words []string
	for _, w := range strings.Fields(name) {
		rs := []rune(w)
		var b strings.Builder
		for i, r := range rs {
			if i > 0 && unicode.IsUpper(r) {
				prevLower := unicode.IsLower(rs[i-1])
				nextLower := i+1 < len(rs) && unicode.IsLower(rs[i+1])
				if prevLower || (unicode.IsUpper(rs[i-1]) && nextLower) {
					b.WriteByte(' ')
				}
			}
			b.WriteRune(r)
		}
		words = append(words, b.String())
	}
	return strings.Join(words, " ")
}

// brandSuffixes are trailing words a brand is often written without:
// product categories and legal forms, lower case.
var brandSuffixes = setOf(`crm erp app apps ai hq io software labs lab technologies technology tech inc inc. incorporated
	llc l.l.c. ltd ltd. limited gmbh ag sa s.a. sas sarl bv b.v. nv plc co co. corp corp. corporation company group
	holdings pty oy ab as aps srl s.r.l. spa s.p.a. kk online cloud platform`)

// stripSuffixes removes trailing suffix words ("Acme Software Inc." ->
// "Acme"), keeping at least one word.
func stripSuffixes(name string) string {
	words := strings.Fields(strings.NewReplacer(",", " ").Replace(name))
	for len(words) > 1 && brandSuffixes[strings.ToLower(words[len(words)-1])] {
		words = words[:len(words)-1]
	}
	return strings.Join(words, " ")
}

// legalForms is the usual legal-form suffix of a company by country.
var legalForms = map[string]string{
	"US": "Inc.", "CA": "Inc.", "GB": "Ltd", "IE": "Ltd", "AU": "Pty Ltd", "NZ": "Ltd", "IN": "Pvt Ltd",
	"DE": "GmbH", "AT": "GmbH", "CH": "AG", "FR": "SAS", "ES": "S.L.", "IT": "S.r.l.", "NL": "B.V.", "BE": "BV",
	"SE": "AB", "NO": "AS", "DK": "ApS", "FI": "Oy", "PL": "sp. z o.o.", "BR": "Ltda.", "JP": "K.K.",
}

// multiPartSuffixes are public suffixes of two labels: the registrable
// domain of "shop.acme.co.uk" is "acme.co.uk".
var multiPartSuffixes = setOf(`co.uk org.uk me.uk ltd.uk plc.uk ac.uk gov.uk com.au net.au org.au co.nz org.nz
	co.jp ne.jp or.jp co.kr com.br com.mx com.ar com.co com.tr com.cn com.hk com.sg com.my co.in net.in org.in
	co.za co.il com.pl com.ua co.id com.ph com.vn com.tw`)

// registrableDomain is host without its subdomains: the label before the
// public suffix, and the suffix.
func registrableDomain(host string) string {
	labels := strings.Split(host, ".")
	if len(labels) <= 2 {
		return host
	}
	n := 2
	if multiPartSuffixes[strings.Join(labels[len(labels)-2:], ".")] {
		n = 3
	}
	if len(labels) <= n {
		return host
	}
	return strings.Join(labels[len(labels)-n:], ".")
}

// DomainLabel is the name part of a host: its registrable domain without
// the public suffix ("app.acme.co.uk" -> "acme").
func DomainLabel(host string) string {
	r := registrableDomain(strings.ToLower(strings.TrimPrefix(host, "www.")))
	label, _, _ := strings.Cut(r, ".")
	return label
}

// domainPrefixes are words put before a brand to get a free domain.
var domainPrefixes = []string{"get", "try", "use", "join", "go", "my", "hello", "with"}

// domainSuffixes are words put after a brand in its domain, with how the
// brand writes them.
var domainSuffixes = []struct{ label, written string }{
	{"software", "Software"}, {"crm", "CRM"}, {"app", "App"}, {"apps", "Apps"}, {"labs", "Labs"}, {"hq", "HQ"},
	{"ai", "AI"}, {"io", "IO"}, {"cloud", "Cloud"}, {"online", "Online"}, {"inc", "Inc"}, {"group", "Group"},
	{"shop", "Shop"}, {"store", "Store"}, {"tech", "Tech"},
}

// domainNames are the brand names a domain spells: its label, cased like
// the brand name when they spell the same, without a get/try prefix, and
// split from a product suffix.
func domainNames(host, name string) []string {
	label := DomainLabel(host)
	if label == "" {
		return nil
	}
	var out []string
	add := func(s string) { out = append(out, s) }
	bare := label
	for _, p := range domainPrefixes {
		if rest, ok := strings.CutPrefix(label, p); ok && len(rest) >= 3 {
			bare = strings.TrimPrefix(rest, "-")
			break
		}
	}
	// "getacme" is nobody's name when the brand is Acme.
	if bare == label || !spells(bare, name) {
		if parts := strings.Split(label, "-"); len(parts) > 1 {
			for i, p := range parts {
				parts[i] = writeLike(p, name)
			}
			add(writeLike(strings.Join(parts, " "), name))
			add(strings.Join(parts, ""))
		} else {
			add(writeLike(label, name))
		}
	}
	if bare != label {
		add(writeLike(bare, name))
	}
	for _, s := range domainSuffixes {
		if rest, ok := strings.CutSuffix(bare, s.label); ok && len(rest) >= 3 {
			rest = strings.TrimSuffix(rest, "-")
			add(writeLike(rest, name) + " " + s.written)
			add(writeLike(rest, name))
			break
		}
	}
	return out
}

// compact is s lower-cased with only its letters and digits.
func compact(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// spells reports whether word spells name or its name without suffixes.
func spells(word, name string) bool {
	w := compact(word)
	return w == compact(name) || w == compact(stripSuffixes(name))
}

// writeLike writes a lower-case domain word the way the brand name
// writes it: "hubspot" with name "HubSpot" is "HubSpot", "acmecloud" with
// "Acme Cloud" is "Acme Cloud"; otherwise title-cased ("globex" ->
// "Globex").
func writeLike(word, name string) string {
	target := compact(word)
	words := strings.Fields(name)
	// The longest run of the name's words that spells the word.
	for i := range words {
		for j := len(words); j > i; j-- {
			if compact(strings.Join(words[i:j], "")) == target {
				return strings.Join(words[i:j], " ")
			}
		}
	}
	if target == compact(name) {
		return name
	}
	parts := strings.Fields(word)
	for i, p := range parts {
		r, size := utf8.DecodeRuneInString(p)
		parts[i] = string(unicode.ToUpper(r)) + p[size:]
	}
	return strings.Join(parts, " ")
}
