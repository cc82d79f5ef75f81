package proposal

import (
	"cmp"
	"math"
	"slices"
	"strings"
)

// Keyword discovery (spec 4.8): queries a customer would track, from the
// text they give and the project's captured pages.
//
// Candidates are the phrases of the input (each line or list item that
// reads like a query, and the runs of content words between stop words,
// with "X for Y" kept whole) and the phrases of the pages the project's
// checks captured (search result titles and snippets, shopping offer
// titles, cited page titles). A phrase of running text needs backing:
// the input repeats it, a page has it too, or it reads as a query ("X
// for Y"). Each scores
//
//	(2 x its count in the input, +3 for a whole input line, +1.5 for "X for Y",
//	  + 2 log2(1 + pages it is on))
//	  x (0.25 + the share of its words that are the input's or the tracked queries' topic words)
//	  x a length prior (two to three words are what people track; one word is broad)
//
// A page phrase must share a topic word and appear on two pages. For
// English, the best topics also give the queries people ask answer
// engines ("best X", "X pricing", "X alternatives"), and the project's
// brands give "alternatives to a competitor" and "own vs competitor".
// Already tracked queries and excludeQueries are always left out, also
// in another inflection ("crm tools" when "crm tool" is tracked), and so
// are near repeats of a proposal already made.

// KeywordRequest is what keyword discovery works on.
type KeywordRequest struct {
	Input    string
	Language string // tag such as "en" or "de-AT"; empty: unknown
	// Pages are texts of the project's captured pages.
	Pages []string
	// Tracked are the project's tracked query texts; Exclude the texts
	// the request excludes.
	Tracked, Exclude []string
	// OwnNames and CompetitorNames are the project's brands.
	OwnNames, CompetitorNames []string
	// NormalizeFunc writes a proposal as a tracked query text is stored.
	NormalizeFunc func(string) string
}

// Keyword is one proposed query.
type Keyword struct {
	QueryText string  `json:"queryText"`
	Source    string  `json:"source"` // input, captures or suggested
	Score     float64 `json:"score"`
}

// MaxKeywords bounds one keyword discovery's proposals.
const MaxKeywords = 50

// maxPhraseWords bounds a candidate phrase.
const maxPhraseWords = 6

type keywordCandidate struct {
	text      string
	words     []token
	inInput   int
	wholeLine bool
	// forPattern: the input has it as "X for Y", which reads as a query.
	forPattern bool
	pages      int
	lastPage   int
	ranked     bool // among the scored proposals already
}

// DiscoverKeywords proposes queries to track, best first.
func DiscoverKeywords(req KeywordRequest) []Keyword {
	normalize := req.NormalizeFunc
	if normalize == nil {
		normalize = func(s string) string { return strings.ToLower(strings.Join(strings.Fields(s), " ")) }
	}
	lang := req.Language
	candidates := map[string]*keywordCandidate{}
	var order []string
	candidate := func(phrase []string) *keywordCandidate {
		text := normalize(strings.Join(phrase, " "))
		c, ok := candidates[text]
		if !ok {
			c = &keywordCandidate{text: text, words: tokenize(text, lang), lastPage: -1}
			candidates[text] = c
			order = append(order, text)
		}
		return c
	}

	// Topic words: the input's, and the tracked queries' at half weight.
	topic := map[string]float64{}
	for _, segment := range segments(req.Input) {
		for _, t := range tokenize(segment, lang) {
			if t.weight == 1 {
				topic[t.stem] = 1
			}
		}
	}
	for _, q := range req.Tracked {
		for _, t := range tokenize(q, lang) {
			if t.weight == 1 && topic[t.stem] == 0 {
				topic[t.stem] = 0.5
			}
		}
	}

	for _, item := range listItems(req.Input) {
		if ws := words(item); hasContent(ws, lang) && !pronouns[ws[0]] {
			candidate(ws).wholeLine = true
		}
	}
	for _, segment := range segments(req.Input) {
		for _, p := range phrases(words(segment), lang) {
			c := candidate(p)
			c.inInput++
			if slices.Contains(p, "for") {
				c.forPattern = true
			}
		}
	}
	for i, page := range req.Pages {
		for _, segment := range segments(cleanTitle(page)) {
			for _, p := range phrases(words(segment), lang) {
				c := candidate(p)
				if c.lastPage != i {
					c.pages++
					c.lastPage = i
				}
			}
		}
	}

	// Scores.
	type scored struct {
		c      *keywordCandidate
		score  float64
		source string
	}
	var ranked []scored
	for _, text := range order {
		c := candidates[text]
		content := 0
		var rel float64
		for _, t := range c.words {
			if t.weight == 1 || t.weight == qualifierWeight {
				content++
			}
			rel += topic[t.stem]
		}
		if content == 0 || len(c.words) == 0 {
			continue
		}
		// One word alone is a keyword only when it names a topic.
		if len(strings.Fields(c.text)) == 1 && (c.words[0].weight != 1 || topic[c.words[0].stem] == 0) {
			continue
		}
		rel /= float64(len(c.words))
		// A phrase of running text is kept when something backs it: the
		// input repeats it, a captured page has it too, or it reads as a
		// query ("X for Y"). One the pages alone have must be on the topic
		// and on two pages.
		fromInput := c.inInput > 0 || c.wholeLine
		switch {
		case c.wholeLine, c.forPattern, c.inInput >= 2, c.inInput == 1 && c.pages >= 1:
		case !fromInput && rel > 0 && c.pages >= 2:
		default:
			continue
		}
		base := 2*float64(c.inInput) + 2*math.Log2(1+float64(c.pages))
		if c.wholeLine {
			base += 3
		}
		if c.forPattern {
			base += 1.5
		}
		source := "captures"
		if fromInput {
			source = "input"
		}
		c.ranked = true
		ranked = append(ranked, scored{c: c, score: base * (0.25 + rel) * lengthPrior(len(strings.Fields(c.text))), source: source})
	}
	slices.SortStableFunc(ranked, func(a, b scored) int {
		if a.score != b.score {
			return cmp.Compare(b.score, a.score)
		}
		return cmp.Compare(a.c.text, b.c.text)
	})

	// Suggestions from the best topics and the brands, English only.
	if isEnglish(lang) {
		top := 0.0
		if len(ranked) > 0 {
			top = ranked[0].score
		}
		// Topics: the best input phrases of topic words only, none inside
		// another ("sales" after "sales pipeline").
		var topics []string
		for _, r := range ranked {
			if r.score < top/3 || len(topics) == 3 {
				break
			}
			n := len(r.c.words)
			if r.source != "input" || n < 1 || n > 3 || len(strings.Fields(r.c.text)) != n || !allTopic(r.c.words) ||
				slices.ContainsFunc(topics, func(t string) bool {
					return strings.Contains(" "+t+" ", " "+r.c.text+" ") || strings.Contains(" "+r.c.text+" ", " "+t+" ")
				}) {
				continue
			}
			topics = append(topics, r.c.text)
		}
		add := func(text string, score float64) {
			c := candidate(strings.Fields(text))
			if !c.ranked {
				c.ranked = true
				ranked = append(ranked, scored{c: c, score: score, source: "suggested"})
			}
		}
		for i, t := range topics {
			w := top * 0.6 / float64(i+1)
			add("best "+t, w)
			add(t+" pricing", w*0.8)
			add(t+" alternatives", w*0.7)
		}
		own := firstName(req.OwnNames)
		for i, comp := range req.CompetitorNames {
			if i == 5 {
				break
			}
			w := top * 0.5 / float64(i+1)
			add(comp+" alternatives", w)
			if own != "" && i < 3 {
				add(own+" vs "+comp, w*0.9)
			}
		}
		if own != "" {
			add(own+" alternatives", top*0.4)
			add(own+" reviews", top*0.3)
		}
		slices.SortStableFunc(ranked, func(a, b scored) int {
			if a.score != b.score {
				return cmp.Compare(b.score, a.score)
			}
			return cmp.Compare(a.c.text, b.c.text)
		})
	}

	// Exclusions and near repeats.
	excluded := map[string]bool{}
	excludedStems := map[string]bool{}
	for _, q := range append(slices.Clone(req.Tracked), req.Exclude...) {
		excluded[normalize(q)] = true
		excludedStems[stemKey(q, lang)] = true
	}
	out := []Keyword{}
	seen := map[string]bool{}
	for _, r := range ranked {
		key := stemKey(r.c.text, lang)
		if r.c.text == "" || excluded[r.c.text] || excludedStems[key] || seen[key] || len([]rune(r.c.text)) > 500 {
			continue
		}
		seen[key] = true
		out = append(out, Keyword{QueryText: r.c.text, Source: r.source, Score: round2(r.score)})
		if len(out) == MaxKeywords {
			break
		}
	}
	return out
}

// listItems are the parts of the input that read as a list of queries:
// each line of up to maxPhraseWords words, and the items of a line
// separated by commas or semicolons when every item is that short.
// Sentences are not list items.
func listItems(input string) []string {
	var out []string
	short := func(s string) bool {
		n := len(words(s))
		return n >= 1 && n <= maxPhraseWords && !strings.ContainsAny(s, ".!?:")
	}
	for _, line := range strings.Split(input, "\n") {
		items := strings.FieldsFunc(line, func(r rune) bool { return r == ',' || r == ';' })
		if len(items) == 0 {
			continue
		}
		if !slices.ContainsFunc(items, func(s string) bool { return !short(s) }) {
			out = append(out, items...)
		}
	}
	return out
}

// segments splits text at line breaks and punctuation that ends a phrase.
func segments(text string) []string {
	return strings.FieldsFunc(text, func(r rune) bool {
		return strings.ContainsRune("\n\r.,;:!?()[]{}|•·–—\"“”", r)
	})
}

// cleanTitle drops the site name a page title ends with ("... | G2").
func cleanTitle(title string) string {
	for _, sep := range []string{" | ", " - ", " – ", " — "} {
		if i := strings.LastIndex(title, sep); i > 0 && len(strings.Fields(title[i:])) <= 4 {
			title = title[:i]
		}
	}
	return title
}

// phrases are the candidate phrases of one segment's words: every run of
// up to four consecutive words that starts and ends on a content word and
// holds no stop word, and "X for Y" with X and Y such runs of up to three
// words.
func phrases(ws []string, lang string) [][]string {
	stop := stopWords(lang)
	isContent := func(w string) bool { return !stop[w] && !isYear(w) && !isNumber(w) }
	var out [][]string
	for i := range ws {
		if !isContent(ws[i]) {
			continue
		}
		for j := i; j < len(ws) && j < i+4 && isContent(ws[j]); j++ {
			out = append(out, ws[i:j+1])
		}
	}
	if !isEnglish(lang) {
		return out
	}
	for k, w := range ws {
		if w != "for" || k == 0 || k+1 >= len(ws) || !isContent(ws[k+1]) {
			continue
		}
		// Who or what it is for, whole: "crm for small businesses", never
		// "crm for small".
		b := k + 1
		for b+1 < len(ws) && b+1 <= k+3 && isContent(ws[b+1]) {
			b++
		}
		for a := k - 1; a >= 0 && a >= k-3 && isContent(ws[a]); a-- {
			out = append(out, ws[a:b+1])
		}
	}
	return out
}

// pronouns start sentences about the business, not queries about it.
var pronouns = setOf(`we our ours us i my me you your they their it its this that these those he she`)

func isNumber(w string) bool {
	return strings.IndexFunc(w, func(r rune) bool { return r < '0' || r > '9' }) < 0
}

// hasContent reports whether some word of ws is a content word.
func hasContent(ws []string, lang string) bool {
	for _, t := range tokenize(strings.Join(ws, " "), lang) {
		if t.weight == 1 {
			return true
		}
	}
	return false
}

// allTopic reports whether every word is a topic word (no modifier or
// qualifier): such phrases can take "best" or "pricing".
func allTopic(ts []token) bool {
	for _, t := range ts {
		if t.weight != 1 {
			return false
		}
	}
	return len(ts) > 0
}

// lengthPrior favours the two- and three-word phrases people track.
func lengthPrior(words int) float64 {
	switch {
	case words <= 1:
		return 0.3
	case words <= 3:
		return 1
	case words == 4:
		return 0.85
	}
	return 0.6
}

// stemKey identifies a text up to inflection and stop words: its stems,
// sorted.
func stemKey(text, lang string) string {
	var stems []string
	for _, w := range words(text) {
		stems = append(stems, stem(w, lang))
	}
	slices.Sort(stems)
	return strings.Join(stems, " ")
}

func firstName(names []string) string {
	for _, n := range names {
		if n = strings.TrimSpace(n); n != "" {
			return n
		}
	}
	return ""
}
