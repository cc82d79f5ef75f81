// Package proposal computes what Sightline's setup jobs propose: keyword
// clusters, the names a brand is written as, competitor brands and
// keywords to track. Every method here is local and deterministic (the
// same input gives the same proposal, on any machine, without any API
// key): term statistics (TF-IDF over words and character n-grams),
// agglomerative clustering, and counts over the project's own captures.
// Nothing here reads or writes a store; the jobs package feeds it.
package proposal

import (
	"math"
	"slices"
	"strings"
	"unicode"
)

// token is one word of a text: its surface form (lower case) and the stem
// that texts are compared by.
type token struct {
	surface string
	stem    string
	// weight is how much the word says about a text's topic: 1 for content
	// words, less for words that qualify any topic ("best", "software").
	weight float64
}

// tokenize splits lower-cased text into words (letters and digits; an
// apostrophe inside a word is dropped, so "what's" is "whats") and drops
// stop words. Numbers are kept: "2fa", "401k" are topics.
func tokenize(text string, lang string) []token {
	stop := stopWords(lang)
	english := isEnglish(lang)
	var out []token
	qualifying := false
	for _, w := range words(text) {
		if english && qualifierStarts[w] {
			// "crm for startups": what follows "for" says who or what the
			// query is for; the topic comes before it.
			qualifying = true
		}
		if stop[w] || isYear(w) {
			continue
		}
		weight := 1.0
		switch {
		case english && modifierWords[w]:
			weight = modifierWeight
		case english && (qualifying || audienceWords[w]):
			weight = qualifierWeight
		}
		out = append(out, token{surface: w, stem: stem(w, lang), weight: weight})
	}
	return out
}

// qualifierWeight is the weight of a word that says who a query is for or
// what it comes with, rather than what it is about.
const qualifierWeight = 0.5

// qualifierStarts open the part of an English query that qualifies its
// topic: "for small teams", "with email automation".
var qualifierStarts = setOf(`for with without near in`)

// audienceWords name who a query is for wherever they stand ("startup
// crm", "small business accounting").
var audienceWords = setOf(`small business businesses startup startups team teams freelancer freelancers agency
	agencies enterprise enterprises beginner beginners company companies smb smbs nonprofit nonprofits personal`)

// words returns the lower-cased words of text, in order. Hyphens inside a
// word stay; other punctuation separates words.
func words(text string) []string {
	var out []string
	var b strings.Builder
	flush := func() {
		if b.Len() > 0 {
			out = append(out, b.String())
			b.Reset()
		}
	}
	runes := []rune(text)
	for i, r := range runes {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r):
			b.WriteRune(unicode.ToLower(r))
		case (r == '\'' || r == '’') && b.Len() > 0 && i+1 < len(runes) && unicode.IsLetter(runes[i+1]):
			// inside a word: "what's", "o'neill"
		case r == '-' && b.Len() > 0 && i+1 < len(runes) && (unicode.IsLetter(runes[i+1]) || unicode.IsDigit(runes[i+1])):
			b.WriteRune(r) // "follow-up", "e-mail", "all-in-one"
		default:
			flush()
		}
	}
	flush()
	return out
}

func isYear(w string) bool {
	if len(w) != 4 || (w[:2] != "19" && w[:2] != "20") {
		return false
	}
	return strings.IndexFunc(w, func(r rune) bool { return r < '0' || r > '9' }) < 0
}

// isEnglish reports whether lang (a language tag, possibly empty) is
// English or unknown, for which the English word lists apply.
func isEnglish(lang string) bool {
	return lang == "" || strings.HasPrefix(strings.ToLower(lang), "en")
}

// stem reduces an English word to a crude stem, enough for plurals and
// gerunds to meet their base ("tools" and "tool", "tracking" and "track").
// Other languages keep the word as it is.
func stem(w string, lang string) string {
	if !isEnglish(lang) || len(w) <= 3 {
		return w
	}
	switch {
	case strings.HasSuffix(w, "ies") && len(w) > 4:
		return w[:len(w)-3] + "y"
	case strings.HasSuffix(w, "sses"):
		return w[:len(w)-2]
	case strings.HasSuffix(w, "ches"), strings.HasSuffix(w, "shes"), strings.HasSuffix(w, "xes"), strings.HasSuffix(w, "zes"):
		return w[:len(w)-2]
	case strings.HasSuffix(w, "ing") && len(w) > 5:
		base := w[:len(w)-3]
		if n := len(base); n > 2 && base[n-1] == base[n-2] && !strings.ContainsRune("lsz", rune(base[n-1])) {
			base = base[:n-1] // "running" -> "run"
		}
		return base
	case strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us") &&
		!strings.HasSuffix(w, "is") && !strings.HasSuffix(w, "os"):
		return w[:len(w)-1]
	}
	return w
}

// modifierWeight is the weight of a word that qualifies any topic.
const modifierWeight = 0.25

// modifierWords say what kind of answer a query wants (the best, the
// cheapest, a tool) rather than what it is about, so they count for little
// when texts are compared and named.
var modifierWords = setOf(`best top good great cheap cheapest affordable free popular leading recommended
	software tool tools app apps application applications platform platforms solution solutions service services
	system systems program programs online review reviews rated compare comparison alternative alternatives
	option options list guide vs versus near new easy simple price prices pricing cost costs plan plans trial
	demo download login signup tutorial tutorials course examples template templates coupon discount deal deals
	feature features setup install tips ideas vendor vendors provider providers`)

// englishStopWords carry no topic at all.
var englishStopWords = setOf(`a an the and or but nor of for to in on at by with without from into onto about
	over under than then so as is are was were be been being am do does did doing have has had having can could
	should would will shall may might must i me my we our you your he she it its they them their this that these
	those there here what whats which who whom whose when where why how all any both each few more most other some
	such no not only own same too very just also s t don now get got make use using used need needs want wants
	like vs versus per via etc way ways one ones thing things much many lot lots really actually`)

// otherStopWords are the commonest function words of a few more
// languages, enough that their phrases are not cut around "de" or "für".
var otherStopWords = map[string]map[string]bool{
	"de": setOf(`der die das den dem des ein eine einen einem einer und oder für mit von zu im in am auf ist sind
		wie was welche welcher beste besten bester gut günstig für bei aus nach als auch nicht`),
	"fr": setOf(`le la les un une des du de d l et ou pour avec sur dans en au aux est sont quel quelle quels
		quelles meilleur meilleure meilleurs comment pas par plus ce cette ces qui que`),
	"es": setOf(`el la los las un una unos unas de del y o para con en por es son cual cuales mejor mejores
		como que al lo se su sus más`),
	"it": setOf(`il lo la i gli le un una di del della e o per con in su è sono quale quali migliore migliori
		come che al da`),
	"pt": setOf(`o a os as um uma de do da dos das e ou para com em no na por é são qual quais melhor melhores
		como que ao`),
	"nl": setOf(`de het een en of voor met van in op is zijn welke beste hoe wat bij naar`),
}

// stopWords are the words of lang dropped from every text. English ones
// are always dropped: brand and product vocabulary is English everywhere.
func stopWords(lang string) map[string]bool {
	code := strings.ToLower(lang)
	if len(code) > 2 {
		code = code[:2]
	}
	other, ok := otherStopWords[code]
	if !ok {
		return englishStopWords
	}
	merged := make(map[string]bool, len(englishStopWords)+len(other))
	for w := range englishStopWords {
		merged[w] = true
	}
	for w := range other {
		merged[w] = true
	}
	return merged
}

func setOf(words string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(words) {
		m[w] = true
	}
	return m
}

// vector is a sparse term vector.
type vector map[string]float64

func (v vector) norm() float64 {
	var s float64
	for _, x := range v {
		s += x * x
	}
	return math.Sqrt(s)
}

// cosine is the cosine similarity of a and b; 0 when either is empty.
func cosine(a, b vector) float64 {
	if len(a) > len(b) {
		a, b = b, a
	}
	var dot float64
	for k, x := range a {
		dot += x * b[k]
	}
	if dot == 0 {
		return 0
	}
	return dot / (a.norm() * b.norm())
}

// add adds w times b to v.
func (v vector) add(b vector, w float64) {
	for k, x := range b {
		v[k] += w * x
	}
}

// normalized returns v scaled to unit length (v itself when empty).
func (v vector) normalized() vector {
	n := v.norm()
	if n == 0 {
		return v
	}
	out := make(vector, len(v))
	for k, x := range v {
		out[k] = x / n
	}
	return out
}

// document is a text prepared for comparison: its words, and the raw
// counts of its features (word stems, and character trigrams of its
// words) before IDF weighting.
type document struct {
	tokens []token
	words  vector // stem -> weighted count
	grams  vector // character trigram -> weighted count
}

func newDocument(text, lang string) document {
	d := document{tokens: tokenize(text, lang), words: vector{}, grams: vector{}}
	for _, t := range d.tokens {
		d.words[t.stem] += t.weight
		padded := []rune(" " + t.stem + " ")
		for i := 0; i+3 <= len(padded); i++ {
			d.grams[string(padded[i:i+3])] += t.weight
		}
	}
	return d
}

// corpus holds the document frequencies of a set of documents, from which
// features get their IDF weights: a word every text shares tells little.
type corpus struct {
	n            int
	wordDF, gram map[string]int
}

func newCorpus(docs []document) *corpus {
	c := &corpus{n: len(docs), wordDF: map[string]int{}, gram: map[string]int{}}
	for _, d := range docs {
		for k := range d.words {
			c.wordDF[k]++
		}
		for k := range d.grams {
			c.gram[k]++
		}
	}
	return c
}

// idf is the smoothed inverse document frequency of a feature seen in df
// of the corpus' documents.
func (c *corpus) idf(df int) float64 {
	return math.Log(float64(1+c.n)/float64(1+df)) + 1
}

// embedding is a document's TF-IDF vectors, each of unit length.
type embedding struct {
	words, grams vector
}

func (c *corpus) embed(d document) embedding {
	w, g := vector{}, vector{}
	for k, x := range d.words {
		w[k] = x * c.idf(c.wordDF[k])
	}
	for k, x := range d.grams {
		g[k] = x * c.idf(c.gram[k])
	}
	return embedding{words: w.normalized(), grams: g.normalized()}
}

// wordShare is how much whole words decide similarity; character trigrams
// decide the rest, catching inflections and compounds the stemmer misses
// ("automate" and "automation", "e-mail" and "email").
const wordShare = 0.65

// similarity compares two embeddings, 0 (nothing shared) to 1.
func similarity(a, b embedding) float64 {
	return wordShare*cosine(a.words, b.words) + (1-wordShare)*cosine(a.grams, b.grams)
}

// centroid is the mean of embeddings, renormalised: the vector a group of
// texts is compared by.
func centroid(es []embedding) embedding {
	w, g := vector{}, vector{}
	for _, e := range es {
		w.add(e.words, 1)
		g.add(e.grams, 1)
	}
	return embedding{words: w.normalized(), grams: g.normalized()}
}

// sortedKeys returns the keys of m in order, for deterministic iteration.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
