package simulator

import (
	"math/rand/v2"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/google/uuid"

	"github.com/sightline/sightline"
	"github.com/sightline/sightline/ingest"
)

// brandRef is a brand a capture may show: the own brand, a tracked
// competitor or a brand the project does not track.
type brandRef struct {
	relation     sightline.Relation
	competitorID *uuid.UUID
	names        []string // how it may be written; names[0] is its usual name
	domains      []string
	rate         float64    // probability that an answer names it (competitors)
	tones        [3]float64 // positive, neutral, negative
}

// market is every brand one request's capture may show.
type market struct {
	own     *brandRef // nil when the project has neither names nor domains
	tracked []*brandRef
	pool    []*brandRef // untracked brands for the query text, most popular first
	// words are the lower-cased names and domains of every brand above: the
	// text around brand names must not contain them, or the truth would miss
	// a mention.
	words []string
	topic string // what the query asks about, lower case, safe to write
}

func (s *Simulator) market(req ingest.Request, day int64) *market {
	m := &market{}
	if names, domains := clean(req.Brands.Own.Names), clean(req.Brands.Own.Domains); len(names)+len(domains) > 0 {
		m.own = &brandRef{relation: sightline.RelationOwn, names: names, domains: domains}
	}
	for _, c := range req.Brands.Competitors {
		names := clean(append([]string{c.Name}, c.Names...))
		domains := clean(c.Domains)
		if len(names)+len(domains) == 0 {
			continue
		}
		r := s.key("competitor").query(req).str(c.ID.String()).rand()
		level, swing, w := 0.15+0.5*r.Float64(), 0.05+0.2*r.Float64(), newWave(r)
		neg := 0.06 + 0.24*r.Float64()
		pos := 0.2 + 0.3*r.Float64()
		m.tracked = append(m.tracked, &brandRef{
			relation: sightline.RelationTrackedCompetitor, competitorID: &c.ID,
			names: names, domains: domains,
			rate:  clamp(level+swing*w.at(day), 0.03, 0.9),
			tones: [3]float64{pos, 1 - pos - neg, neg},
		})
	}
	for _, b := range append([]*brandRef{m.own}, m.tracked...) {
		if b == nil {
			continue
		}
		for _, n := range append(slices.Clone(b.names), b.domains...) {
			m.words = append(m.words, strings.ToLower(n))
		}
	}
	for _, name := range untrackedNames(s.key("pool").str(req.QueryText).rand()) {
		low := strings.ToLower(name)
		if slices.ContainsFunc(m.words, func(w string) bool { return containsWord(low, w) || containsWord(w, low) }) {
			continue
		}
		m.pool = append(m.pool, &brandRef{
			relation: sightline.RelationUntrackedCompetitor,
			names:    []string{name},
			domains:  []string{slug(name, "") + ".com"},
			tones:    [3]float64{0.35, 0.5, 0.15},
		})
	}
	for _, b := range m.pool {
		m.words = append(m.words, strings.ToLower(b.names[0]))
	}
	m.topic = topicOf(req.QueryText)
	if m.topic == "" || slices.ContainsFunc(m.words, func(w string) bool { return containsWord(m.topic, w) }) {
		m.topic = "your needs"
	}
	return m
}

// clean drops empty entries and case-insensitive repeats.
func clean(in []string) []string {
	var out []string
	for _, s := range in {
		s = strings.TrimSpace(s)
		if s != "" && !slices.ContainsFunc(out, func(o string) bool { return strings.EqualFold(o, s) }) {
			out = append(out, s)
		}
	}
	return out
}

// topicOf is what a query asks about: its text without leading superlatives
// and question words, lower case.
func topicOf(q string) string {
	t := strings.Join(strings.Fields(strings.ToLower(q)), " ")
	t = strings.TrimRight(t, "?!. ")
	for _, p := range []string{"what is the best ", "what are the best ", "what's the best ", "which is the best ",
		"which ", "best ", "top ", "cheapest ", "good ", "recommended "} {
		t = strings.TrimPrefix(t, p)
	}
	return t
}

// Parts of the invented brand names. Some are prefixes of words the
// answers use (flexible, integrations, streamlined, optimal), so that
// matching by substring rather than by word shows.
var (
	nameHeads    = []string{"Zen", "Lum", "Quor", "Vel", "Brio", "Nex", "Orb", "Tal", "Kin", "Mer", "Sol", "Vant", "Cor", "Hal", "Pim", "Ruv", "Tess", "Yon", "Dax", "Fen", "Cal", "Ari", "Jun", "Ost"}
	nameTails    = []string{"ora", "ix", "ly", "io", "ify", "ent", "ara", "eo", "iq", "wise", "stack", "desk", "base", "hub", "loop", "grid", "nest", "ware", "ster", "ova"}
	adjectives   = []string{"Blue", "North", "Silver", "Bright", "Granite", "Maple", "Summit", "Open", "Red", "Little", "True", "Golden", "Harbor", "Clear"}
	nouns        = []string{"Pine", "Fox", "Ridge", "Lantern", "Anchor", "Field", "River", "Peak", "Oak", "Meadow", "Beacon", "Otter", "Cedar", "Falcon"}
	suffixes     = []string{"Labs", "Software", "Systems", "Analytics", "Cloud", "Studio", "Works", "HQ", "Group", "& Co"}
	surnames     = []string{"Miller's", "Baker's", "Carter's", "Hughes'", "Fletcher's", "Walsh's", "Porter's", "Dawson's"}
	irish        = []string{"O'Hara", "O'Neill", "O'Brien", "D'Arcy", "O'Connell"}
	possessions  = []string{"Ledger", "Toolkit", "Workshop", "Supply", "Desk", "Bench"}
	accentHeads  = []string{"Él", "Zü", "Bré", "Sø", "Lú", "Ré", "Nø", "Mé", "Ça"}
	accentTails  = []string{"anta", "rio", "vik", "lune", "ssa", "mia", "dal", "ro"}
	accentPhrase = []string{"Café Lumière", "Maison Éclat", "Atelier Noé", "Crème Digital", "Señal Studio", "Grün & Weiss"}
	wordPrefixes = []string{"Flex", "Integra", "Stream", "Optima"}
)

// untrackedNames invents the brands of a query's market that no project
// tracks: single invented words, multi-word names, names with apostrophes or
// accents and names that are prefixes of common words. No two share a first
// word.
func untrackedNames(r *rand.Rand) []string {
	pick := func(l []string) string { return l[r.IntN(len(l))] }
	kinds := []func() string{
		func() string { return pick(nameHeads) + pick(nameTails) },
		func() string {
			h, t := pick(nameHeads), pick(nameTails)
			return h + strings.ToUpper(t[:1]) + t[1:]
		},
		func() string { return pick(adjectives) + " " + pick(nouns) + " " + pick(suffixes) },
		func() string { return pick(adjectives) + " " + pick(nouns) },
		func() string { return pick(surnames) + " " + pick(possessions) },
		func() string { return pick(irish) + " " + pick(suffixes) },
		func() string { return pick(accentHeads) + pick(accentTails) },
		func() string { return pick(accentPhrase) },
		func() string { return pick(wordPrefixes) },
	}
	plan := []int{0, 0, 1, 1, 2, 3, 2, 4, 5, 6, 7, 8}
	r.Shuffle(len(plan), func(i, j int) { plan[i], plan[j] = plan[j], plan[i] })
	var names []string
	firsts := map[string]bool{}
	for _, k := range plan {
		for range 8 {
			n := kinds[k]()
			first := strings.ToLower(strings.Fields(n)[0])
			if !firsts[first] {
				firsts[first] = true
				names = append(names, n)
				break
			}
		}
	}
	return names
}

var accentFold = strings.NewReplacer("é", "e", "É", "e", "ü", "u", "Ü", "u", "ø", "o", "Ø", "o", "ú", "u",
	"è", "e", "ç", "c", "Ç", "c", "ñ", "n", "ö", "o", "ä", "a", "å", "a", "Å", "a", "&", "and")

// slug is s folded to ASCII lower case, with every run of other characters
// replaced by sep.
func slug(s, sep string) string {
	if strings.ContainsFunc(s, func(r rune) bool { return r == '&' || r >= utf8.RuneSelf }) {
		s = accentFold.Replace(s)
	}
	s = strings.ToLower(s)
	var b strings.Builder
	gap := false
	for _, c := range s {
		if c >= 'a' && c <= 'z' || c >= '0' && c <= '9' {
			if gap && b.Len() > 0 {
				b.WriteString(sep)
			}
			gap = false
			b.WriteRune(c)
		} else if c != '\'' {
			gap = true
		}
	}
	return b.String()
}

// titleCase upper-cases the first letter of every word.
func titleCase(s string) string {
	words := strings.Fields(s)
	for i, w := range words {
		r, n := utf8.DecodeRuneInString(w)
		if len(w) > 3 || i == 0 {
			words[i] = string(unicode.ToUpper(r)) + w[n:]
		}
	}
	return strings.Join(words, " ")
}

// indexWord is the byte offset of the first occurrence of word in s at or
// after from that is neither preceded nor followed by a letter or digit, or
// -1. Both are expected in the same case.
func indexWord(s, word string, from int) int {
	if word == "" {
		return -1
	}
	for from <= len(s)-len(word) {
		i := strings.Index(s[from:], word)
		if i < 0 {
			return -1
		}
		i += from
		if boundary(s, i, i+len(word)) {
			return i
		}
		_, n := utf8.DecodeRuneInString(s[i:])
		from = i + n
	}
	return -1
}

func containsWord(s, word string) bool { return indexWord(s, word, 0) >= 0 }

func boundary(s string, i, j int) bool {
	if i > 0 {
		if r, _ := utf8.DecodeLastRuneInString(s[:i]); isWordRune(r) {
			return false
		}
	}
	if j < len(s) {
		if r, _ := utf8.DecodeRuneInString(s[j:]); isWordRune(r) {
			return false
		}
	}
	return true
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }
