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
// reads like a query, and the runs of content words between stop words
// and verbs, with "X for Y" kept whole) and the phrases of the pages the
// project's checks captured (search result titles and snippets, shopping
// offer titles, cited page titles). Brand names (the project's own, its
// competitors' and those its answers name) are cut out of every text
// first: "Blue Fox CRM" gives no "fox crm", and a brand's queries come
// from the suggestions below. A candidate must have the shape of a query:
// two words or more (a single word only as a whole input line), no word
// twice, no verb, not ending on a word that qualifies what follows ("best",
// "small", "easiest") nor starting on one that qualifies what precedes
// ("pricing", "alternatives"), and no site section ("customer stories").
// A phrase of running text needs backing: the input repeats it, a page
// has it too, or it reads as a query ("X for Y"). Each scores
//
//	(2 x its count in the input, +3 for a whole input line, +1.5 for "X for Y",
//	  + 2 log2(1 + pages it is on))
//	  x (0.25 + the share of its words that are the input's or the tracked queries' topic words,
//	         words such as "best" or "software" left out)
//	  x a length prior (two to three words are what people track)
//
// The topic words are the input's content words, and those of the
// tracked queries that share one with the input (a tracked "how to bake
// sourdough bread" lends nothing to an input about a CRM). A page phrase
// must be on two pages, ends on a topic word (or on a word such as
// "software" after one) and has at least half its words on the topic. For
// English, the best topics also give the queries people ask answer
// engines ("best X", "X for <the input's audience>", and "X pricing" and
// "X alternatives" for software, "cheap X" and "X reviews" for other
// products), and the project's brands give "alternatives to a competitor"
// and "own vs competitor". Already tracked queries and excludeQueries are
// always left out, also in another inflection or word order ("crm tools"
// when "crm tool" is tracked), and so are near repeats of a proposal
// already made.

// KeywordRequest is what keyword discovery works on.
type KeywordRequest struct {
	Input    string
	Language string // tag such as "en" or "de-AT"; empty: unknown
	// Pages are texts of the project's captured pages.
	Pages []string
	// Tracked are the project's tracked query texts; Exclude the texts
	// the request excludes.
	Tracked, Exclude []string
	// OwnNames and CompetitorNames are the project's brands;
	// OtherBrandNames those its answers name that it does not track.
	OwnNames, CompetitorNames, OtherBrandNames []string
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
	names := brandPhrases(req.OwnNames, req.CompetitorNames, req.OtherBrandNames)
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

	// Topic words: the input's, and at half weight those of the tracked
	// queries on the input's topic.
	topic := map[string]float64{}
	// heads counts the input's content words: one it repeats is what it
	// is about ("running shoes" thrice), and a phrase ending on it reads
	// as a query ("lightweight running shoes").
	heads := map[string]int{}
	for _, run := range textRuns(req.Input, names) {
		for _, t := range tokenize(strings.Join(run, " "), lang) {
			switch t.weight {
			case 1:
				topic[t.stem] = 1
				heads[t.stem]++
			case qualifierWeight:
				// "train for your first 5k": what it is for is on the topic too.
				topic[t.stem] = max(topic[t.stem], 0.5)
			}
		}
	}
	for _, q := range req.Tracked {
		ts := tokenize(q, lang)
		if !slices.ContainsFunc(ts, func(t token) bool { return t.weight == 1 && topic[t.stem] == 1 }) {
			continue
		}
		for _, t := range ts {
			if t.weight == 1 && topic[t.stem] == 0 {
				topic[t.stem] = 0.5
			}
		}
	}

	for _, item := range listItems(req.Input) {
		for _, run := range splitAtNames(words(item), names) {
			if hasContent(run, lang) && !pronouns[run[0]] {
				candidate(run).wholeLine = true
			}
		}
	}
	for _, run := range textRuns(req.Input, names) {
		for _, p := range phrases(run, lang) {
			c := candidate(p)
			c.inInput++
			if slices.Contains(p, "for") {
				c.forPattern = true
			}
		}
	}
	for i, page := range req.Pages {
		for _, run := range textRuns(cleanTitle(page), names) {
			for _, p := range phrases(run, lang) {
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
		n := len(strings.Fields(c.text))
		if len(c.words) == 0 || !hasContentToken(c.words, c.wholeLine) || (n == 1 && !c.wholeLine) ||
			(n > 1 && !wellFormed(strings.Fields(c.text), lang)) {
			continue
		}
		// Words saying what kind of answer it wants ("best", "plan") are
		// neutral; words saying whom it is for ("small teams") count at
		// least half: they narrow any topic.
		var rel, counted float64
		for _, t := range c.words {
			switch t.weight {
			case modifierWeight:
				continue
			case qualifierWeight:
				rel += max(topic[t.stem], qualifierWeight)
			default:
				rel += topic[t.stem]
			}
			counted++
		}
		rel /= max(counted, 1)
		// A phrase of running text is kept when something backs it: the
		// input repeats it, a captured page has it too, or it reads as a
		// query ("X for Y"). One the pages alone have must be on the topic,
		// end on it and be on two pages.
		fromInput := c.inInput > 0 || c.wholeLine
		onHead := c.inInput > 0 && heads[c.words[len(c.words)-1].stem] >= 2
		switch {
		case c.wholeLine, c.forPattern, onHead, c.inInput >= 2, c.inInput == 1 && c.pages >= 1:
		case !fromInput && rel >= 0.5 && c.pages >= 2 && endsOnTopic(c.words, topic):
		default:
			continue
		}
		base := 2*float64(c.inInput) + 2*math.Log2(1+float64(c.pages))
		if c.wholeLine {
			base += 3
		}
		if c.forPattern || onHead {
			base += 1.5
		}
		source := "captures"
		if fromInput {
			source = "input"
		}
		c.ranked = true
		ranked = append(ranked, scored{c: c, score: base * (0.25 + rel) * lengthPrior(n), source: source})
	}
	// Tracked and excluded queries, also in another inflection or word order.
	excluded := map[string]bool{}
	excludedStems := map[string]bool{}
	for _, q := range append(slices.Clone(req.Tracked), req.Exclude...) {
		excluded[normalize(q)] = true
		excludedStems[stemKey(q, lang)] = true
	}
	isExcluded := func(c *keywordCandidate) bool {
		return excluded[c.text] || excludedStems[stemKey(c.text, lang)]
	}

	// A phrase that its texts nearly always continue ("best email" of
	// "best email marketing", "lightweight running" of "lightweight
	// running shoes") is a fragment of the longer one.
	fragment := map[*keywordCandidate]bool{}
	for _, r := range ranked {
		fragment[r.c] = !r.c.wholeLine && slices.ContainsFunc(ranked, func(o scored) bool {
			return o.c != r.c && o.c.inInput >= r.c.inInput && o.c.pages*5 >= r.c.pages*4 &&
				strings.Contains(" "+o.c.text+" ", " "+r.c.text+" ")
		})
	}
	ranked = slices.DeleteFunc(ranked, func(r scored) bool { return fragment[r.c] || isExcluded(r.c) })
	byScore := func(a, b scored) int {
		if a.score != b.score {
			return cmp.Compare(b.score, a.score)
		}
		return cmp.Compare(a.c.text, b.c.text)
	}
	slices.SortStableFunc(ranked, byScore)

	// Suggestions from the best topics and the brands, English only.
	if isEnglish(lang) {
		top := 0.0
		if len(ranked) > 0 {
			top = ranked[0].score
		}
		// Topics: the best input phrases of topic words only, none inside
		// another ("sales" after "sales pipeline").
		// A word that grades the topic ("easiest crm") is left to the
		// suggestion ("best crm").
		var topics []string
		for _, r := range ranked {
			if r.score < top/3 || len(topics) == 3 {
				break
			}
			ws := strings.Fields(r.c.text)
			n := len(r.c.words)
			if r.source != "input" || n < 1 || n > 3 || len(ws) != n || !allTopic(r.c.words) {
				continue
			}
			for len(ws) > 1 && danglingEnds[ws[0]] {
				ws = ws[1:]
			}
			text := strings.Join(ws, " ")
			if slices.ContainsFunc(topics, func(t string) bool {
				return strings.Contains(" "+t+" ", " "+text+" ") || strings.Contains(" "+text+" ", " "+t+" ")
			}) {
				continue
			}
			topics = append(topics, text)
		}
		add := func(text string, score float64) {
			c := candidate(strings.Fields(text))
			if !c.ranked {
				c.ranked = true
				ranked = append(ranked, scored{c: c, score: score, source: "suggested"})
			}
		}
		audience := inputAudience(req.Input, names)
		software := slices.ContainsFunc(words(req.Input), func(w string) bool { return softwareWords[w] })
		for i, t := range topics {
			w := top * 0.6 / float64(i+1)
			if isSoftware(t) || !software {
				add("best "+t, w)
			}
			if audience != "" && i == 0 {
				add(t+" for "+audience, w*0.9)
			}
			switch {
			case isSoftware(t):
				add(t+" pricing", w*0.8)
				add(t+" alternatives", w*0.7)
			case !software:
				add("cheap "+t, w*0.8)
				add(t+" reviews", w*0.7)
			}
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
			if software {
				add(own+" pricing", top*0.35)
			}
		}
		slices.SortStableFunc(ranked, byScore)
	}

	// Near repeats.
	out := []Keyword{}
	seen := map[string]bool{}
	for _, r := range ranked {
		key := stemKey(r.c.text, lang)
		if r.c.text == "" || isExcluded(r.c) || seen[key] || len([]rune(r.c.text)) > 500 {
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

// phrases are the candidate phrases of one run of words: every run of up
// to four consecutive words that starts and ends on a content word and
// holds no stop word or verb, and "X for Y" with X and Y such runs of up
// to three words.
func phrases(ws []string, lang string) [][]string {
	stop := stopWords(lang)
	isContent := func(w string) bool { return !stop[w] && !verbs[w] && !isYear(w) && !isNumber(w) }
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
		// Who or what it is for, each extent: "crm for small businesses"
		// stays whole, and the shape check drops "crm for small".
		for b := k + 1; b < len(ws) && b <= k+3 && isContent(ws[b]); b++ {
			if b+1 < len(ws) && coordinators[ws[b+1]] {
				continue // "shoes for road" of "shoes for road and trail runners"
			}
			for a := k - 1; a >= 0 && a >= k-3 && isContent(ws[a]); a-- {
				out = append(out, ws[a:b+1])
			}
		}
	}
	return out
}

// coordinators join words that a phrase must not be cut between.
var coordinators = setOf(`and or & nor`)

// textRuns are the runs of words of text between phrase punctuation and
// brand names.
func textRuns(text string, names map[string][][]string) [][]string {
	var out [][]string
	for _, segment := range segments(text) {
		out = append(out, splitAtNames(words(segment), names)...)
	}
	return out
}

// brandPhrases indexes the words of brand names by their first word,
// longest first, for splitAtNames.
func brandPhrases(lists ...[]string) map[string][][]string {
	out := map[string][][]string{}
	for _, list := range lists {
		for _, name := range list {
			if ws := words(name); len(ws) > 0 {
				out[ws[0]] = append(out[ws[0]], ws)
			}
		}
	}
	for _, ns := range out {
		slices.SortStableFunc(ns, func(a, b []string) int { return cmp.Compare(len(b), len(a)) })
	}
	return out
}

// splitAtNames cuts ws where a brand name stands, returning the non-empty
// runs around the names.
func splitAtNames(ws []string, names map[string][][]string) [][]string {
	var out [][]string
	start := 0
	for i := 0; i < len(ws); {
		n := 0
		for _, name := range names[ws[i]] {
			if len(name) <= len(ws)-i && slices.Equal(ws[i:i+len(name)], name) {
				n = len(name)
				break
			}
		}
		if n == 0 {
			i++
			continue
		}
		if i > start {
			out = append(out, ws[start:i])
		}
		i += n
		start = i
	}
	if start < len(ws) {
		out = append(out, ws[start:])
	}
	return out
}

// verbs are verbs of marketing copy and answers ("helps teams", "set up",
// "covers reporting"): a query holds none, so phrases are cut at them.
// Words that are also nouns of queries ("plan", "review", "track", "help
// desk", "log management", "gift set") are not here.
var verbs = setOf(`helps makes lets gives offers covers wins shows explains notes publishes suggests says finds
	found stands draws provides includes supports allows keeps takes becomes comes goes works tries sends sees
	brings saves creates builds delivers integrates looking see send buy start try learn read discover choose find
	join today up out`)

// danglingEnds qualify the word after them: a query does not end on one
// ("acme crm easiest", "crm for small").
var danglingEnds = setOf(`best top good great cheap affordable free popular leading recommended easy simple new
	small large big local more most easiest simplest cheapest fastest lightest biggest largest smallest newest
	latest highest lowest strongest safest quickest greatest finest`)

// tailWords qualify the words before them: a query does not start on one
// ("pricing crm", "plans for every budget").
var tailWords = setOf(`pricing price prices cost costs alternatives alternative reviews review comparison options
	option list guide examples templates tips ideas features feature plans plan vendors providers deals deal
	discount coupon tutorial tutorials course demo trial login signup`)

// vagueEnds end phrases of page copy rather than queries ("crm options",
// "crm for small teams options").
var vagueEnds = setOf(`for options option choices picks solutions`)

// siteSections name the parts of a website, which its pages' titles
// carry ("Customer Stories | Acme"): nobody searches for them.
var siteSections = setOf(`stories story blog news careers jobs about contact docs documentation faq homepage home
	press testimonials studies center centre`)

// wellFormed reports whether a phrase of two words or more has the shape
// of a query: no word twice, no verb, not ending on a word that qualifies
// what follows or on a site section, not starting on a word that
// qualifies what precedes.
func wellFormed(ws []string, lang string) bool {
	seen := map[string]bool{}
	for _, w := range ws {
		s := stem(w, lang)
		if seen[s] || verbs[w] {
			return false
		}
		seen[s] = true
	}
	for i := 1; i < len(ws); i++ {
		if danglingEnds[ws[i-1]] && danglingEnds[ws[i]] {
			return false // "best cheap running shoes": one grade is a query
		}
	}
	first, last := ws[0], ws[len(ws)-1]
	return !tailWords[first] && !danglingEnds[last] && !siteSections[last] && !vagueEnds[last]
}

// endsOnTopic reports whether a phrase ends on a topic word or one of its
// family (the same first five letters: "management" after "manage"), or
// on a word such as "software" or "tools" right after one.
func endsOnTopic(ts []token, topic map[string]float64) bool {
	onTopic := func(stem string) bool {
		if topic[stem] > 0 {
			return true
		}
		if len(stem) < 5 {
			return false
		}
		for t := range topic {
			if len(t) >= 5 && t[:5] == stem[:5] {
				return true
			}
		}
		return false
	}
	n := len(ts)
	return onTopic(ts[n-1].stem) || n >= 2 && ts[n-1].weight == modifierWeight && onTopic(ts[n-2].stem)
}

// hasContentToken reports whether a phrase holds a word that says what it
// is about, or for a whole input line, whom it is for.
func hasContentToken(ts []token, wholeLine bool) bool {
	return slices.ContainsFunc(ts, func(t token) bool { return t.weight == 1 || wholeLine && t.weight == qualifierWeight })
}

// inputAudience is who the input says the product is for ("for small
// businesses"): the words after "for" up to an audience word.
func inputAudience(input string, names map[string][][]string) string {
	for _, run := range textRuns(input, names) {
		for k, w := range run {
			if w != "for" {
				continue
			}
			for b := k + 1; b < len(run) && b <= k+3; b++ {
				if audienceWords[run[b]] && !danglingEnds[run[b]] && !slices.ContainsFunc(run[k+1:b+1], func(w string) bool { return englishStopWords[w] }) {
					return strings.Join(run[k+1:b+1], " ")
				}
			}
		}
	}
	return ""
}

// softwareWords mark a topic sold as software, whose buyers compare
// pricing and alternatives; other products get "cheap X" and "X reviews".
var softwareWords = setOf(`crm erp software app apps tool tools platform platforms saas cloud hosting api
	analytics automation integration integrations dashboard`)

func isSoftware(topic string) bool {
	return slices.ContainsFunc(strings.Fields(topic), func(w string) bool { return softwareWords[w] })
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
