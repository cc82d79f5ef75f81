package simulator

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"github.com/sightline/sightline"
	"github.com/sightline/sightline/ingest"
)

var (
	toneOf      = [3]sightline.Tone{sightline.TonePositive, sightline.ToneNeutral, sightline.ToneNegative}
	qualifierOf = [2]sightline.Qualifier{sightline.QualifierDirect, sightline.QualifierConditional}
)

const (
	positive = 0
	negative = 2
	direct   = 0
	hedged   = 1
)

// named is a brand an answer names, and how this answer writes it.
type named struct {
	*brandRef
	written string
	tones   [3]float64
	order   float64 // lower is named earlier
}

// class is how one mention names its brand.
type class struct {
	typ  sightline.MentionType
	tone int // index into toneOf
	qual int // index into qualifierOf
}

// slot is a brand of the cast in a template, with the class of that mention.
type slot struct {
	who int
	cls class
}

// answer writes an AI engine's answer. The plan comes first (which brands,
// in which order, each mention's class); the text is written from it while
// recording where every name lands, so the truth is read off the text.
func answer(r *rand.Rand, e sightline.Engine, m *market, p profile, day int64) (*ingest.Answer, []TruthMention, []TruthCitation) {
	c := cast(r, m, p, day)
	n := citeCount(r, e)
	var w *writer
	// A brand name that is also an everyday word ("Close", "Trial") could
	// turn up in the wording around other names. Phrases are picked to avoid
	// that; should one slip through, rewrite. Only a brand named like a word
	// every template needs ("If", "is") can defeat four attempts, and then
	// the truth misses those accidental mentions.
	for range 4 {
		w = &writer{r: r, m: m, cast: c}
		if e == sightline.EnginePerplexity {
			w.marks = n
		}
		w.write(e)
		if w.consistent() {
			break
		}
	}
	cites, citeTruth := citations(r, e, m, p, day, c, n)
	return &ingest.Answer{Text: w.sb.String(), Citations: cites}, w.truth(), citeTruth
}

// cast picks the brands an answer names and the order it names them in.
func cast(r *rand.Rand, m *market, p profile, day int64) []named {
	u := r.Float64()
	if u < 0.012 { // a general answer that names no brand at all
		return nil
	}
	var c []named
	add := func(b *brandRef, order float64, tones [3]float64) {
		c = append(c, named{brandRef: b, written: writtenName(r, b), tones: tones, order: order})
	}
	if u >= p.noTracked {
		if m.own != nil && r.Float64() < p.ownMentionRate(day) {
			add(m.own, 0.1+0.8*r.Float64()-0.35*p.ownRankWave.at(day), p.ownTones(day))
		}
		for _, b := range m.tracked {
			if r.Float64() < b.rate {
				add(b, r.Float64(), b.tones)
			}
		}
	}
	want := r.IntN(5)
	if len(c) == 0 && want == 0 {
		want = 1 + r.IntN(3)
	}
	// Popular untracked brands come up more often: weight 1/(rank+1).
	pool := slices.Clone(m.pool)
	for ; want > 0 && len(pool) > 0; want-- {
		total := 0.0
		for i := range pool {
			total += 1 / float64(i+1)
		}
		x, i := r.Float64()*total, 0
		for ; i < len(pool)-1; i++ {
			if x -= 1 / float64(i+1); x < 0 {
				break
			}
		}
		add(pool[i], r.Float64(), pool[i].tones)
		pool = slices.Delete(pool, i, i+1)
	}
	slices.SortStableFunc(c, func(a, b named) int { return cmp.Compare(a.order, b.order) })
	return c[:min(len(c), 9)]
}

// writtenName is how an answer writes a brand: usually its main name,
// sometimes another of its names or, for tracked brands, its domain.
func writtenName(r *rand.Rand, b *brandRef) string {
	tracked := b.relation != sightline.RelationUntrackedCompetitor
	switch {
	case len(b.names) == 0:
		return b.domains[r.IntN(len(b.domains))]
	case tracked && len(b.domains) > 0 && r.Float64() < 0.08:
		return b.domains[r.IntN(len(b.domains))]
	case len(b.names) > 1 && r.Float64() < 0.2:
		return respell(r, b.names[1+r.IntN(len(b.names)-1)], tracked)
	}
	return respell(r, b.names[0], tracked)
}

// respell writes a configured name as answers often do: with a curly
// apostrophe ("Chef’s Crate"), "and" for "&" ("Hale and Moss"), or without
// its accents ("Melange Meals"). Matching reads them as the same name.
func respell(r *rand.Rand, name string, tracked bool) string {
	if !tracked {
		return name
	}
	switch u := r.Float64(); {
	case u < 0.2 && strings.Contains(name, "'"):
		return strings.ReplaceAll(name, "'", "’")
	case u < 0.35 && strings.Contains(name, " & "):
		return strings.ReplaceAll(name, " & ", " and ")
	case u < 0.3 && strings.ContainsFunc(name, func(r rune) bool { return r >= 0x80 }):
		return accentFold.Replace(name)
	}
	return name
}

// writer writes one answer and records where every brand name lands.
type writer struct {
	r       *rand.Rand
	m       *market
	cast    []named
	queue   []int    // cast members not named yet, in order
	first   []int    // offset of each cast member's first mention; -1 before
	firstAs []string // how each cast member is first written: its name, or a chip's domain
	cls     []class
	spans   [][2]int // every name written
	sb      strings.Builder
	bold    bool     // markdown bold around names in lists and key sentences
	marks   int      // citations to mark inline as [n] (perplexity)
	next    int      // next citation number to mark
	endorse bool     // the list being written follows an endorsing lead-in
	recent  []string // the phrases picked last, not to repeat them soon
}

func (w *writer) write(e sightline.Engine) {
	w.queue = make([]int, len(w.cast))
	w.first = make([]int, len(w.cast))
	w.firstAs = make([]string, len(w.cast))
	w.cls = make([]class, len(w.cast))
	for i := range w.cast {
		w.queue[i], w.first[i] = i, -1
	}
	w.next = 1
	if len(w.cast) == 0 {
		w.sentence(w.pick(intros))
		w.sentence(w.pick(generalAdvice))
		w.sentence(w.pick(closings))
	} else {
		switch e {
		case sightline.EngineChatGPT:
			w.chatgpt()
		case sightline.EnginePerplexity:
			w.perplexity()
		case sightline.EngineGoogleAIOverview:
			w.overview()
		default:
			w.aiMode()
		}
	}
	text := strings.TrimRight(w.sb.String(), " \n")
	w.sb.Reset()
	w.sb.WriteString(text)
	for ; w.next <= w.marks; w.next++ {
		w.sb.WriteString("[" + strconv.Itoa(w.next) + "]")
	}
}

// chatgpt writes markdown: an intro, a numbered list with bold names,
// a comparison, other options and a hedged closing.
func (w *writer) chatgpt() {
	w.bold = true
	w.sentence(w.pick(intros))
	if w.r.Float64() < 0.5 {
		w.sentence(w.pick(generalAdvice))
	}
	if len(w.queue) > 0 && w.r.Float64() < 0.15 {
		w.reference(w.pop())
	}
	if w.r.Float64() < 0.3 {
		w.chip()
	}
	if k := w.take(2 + w.r.IntN(5)); len(k) > 0 {
		w.maybeHeading(chatgptHeadings[0], 0.4)
		switch u := w.r.Float64(); {
		case u < 0.15:
			w.table(k)
		case u < 0.3:
			w.boldParagraphs(k)
		case u < 0.4:
			w.optionHeadings(k)
		default:
			if w.r.Float64() < 0.4 {
				w.leadIn()
			}
			w.list(k, true)
		}
	}
	if len(w.queue) > 0 && w.r.Float64() < 0.6 {
		w.maybeHeading(chatgptHeadings[1], 0.5)
		w.compare(w.pop())
	}
	if len(w.queue) > 0 && w.r.Float64() < 0.6 {
		w.maybeHeading(chatgptHeadings[2], 0.4)
		w.group(w.take(1+w.r.IntN(3)), sightline.MentionExample)
	}
	w.paragraph()
	w.rest()
	if w.r.Float64() < 0.5 {
		w.considerations(considerHeadings[0])
	}
	w.paragraph()
	if w.r.Float64() < 0.6 {
		w.advice()
	}
	w.sentence(w.pick(closings))
}

// perplexity writes prose paragraphs with [n] citation markers.
func (w *writer) perplexity() {
	w.bold = w.r.Float64() < 0.3
	w.sentence(w.pick(intros))
	if len(w.queue) >= 2 && w.r.Float64() < 0.6 {
		w.group(w.take(2+w.r.IntN(3)), sightline.MentionListing)
	}
	if w.r.Float64() < 0.5 {
		w.sentence(w.pick(generalAdvice))
	}
	w.paragraph()
	for n := 0; len(w.queue) > 0 && n < 4; n++ {
		switch u := w.r.Float64(); {
		case u < 0.35:
			w.recommend(w.pop())
		case u < 0.6:
			w.compare(w.pop())
		case u < 0.8:
			w.group(w.take(1+w.r.IntN(3)), sightline.MentionExample)
		default:
			w.reference(w.pop())
		}
	}
	w.paragraph()
	w.rest()
	w.paragraph()
	if w.r.Float64() < 0.5 {
		w.advice()
	}
	w.sentence(w.pick(closings))
}

// overview writes a short AI Overview: a summary, bullets, a remark.
func (w *writer) overview() {
	w.bold = true
	if len(w.queue) > 0 && w.r.Float64() < 0.5 {
		w.recommend(w.pop())
	} else {
		w.sentence(w.pick(intros))
	}
	if k := w.take(2 + w.r.IntN(4)); len(k) > 0 {
		w.paragraph()
		w.list(k, false)
	}
	if len(w.queue) > 0 && w.r.Float64() < 0.5 {
		w.paragraph()
		w.group(w.take(1+w.r.IntN(2)), sightline.MentionExample)
	}
	w.paragraph()
	w.rest()
	if w.r.Float64() < 0.5 {
		w.paragraph()
		w.sentence(w.pick(closings))
	}
}

// aiMode writes sections under headings: options, a head-to-head, advice.
func (w *writer) aiMode() {
	w.bold = true
	w.sentence(w.pick(intros))
	if k := w.take(2 + w.r.IntN(4)); len(k) > 0 {
		w.heading(aiModeHeadings[0])
		if w.r.Float64() < 0.3 {
			w.table(k)
		} else {
			w.list(k, false)
		}
	}
	if len(w.queue) > 0 && w.r.Float64() < 0.6 {
		a, b, ok := w.pair(w.pop())
		if !ok {
			w.recommend(a.who)
		} else {
			if w.r.Float64() < 0.5 {
				w.paragraph()
				w.sb.WriteString("## ")
				w.name(a, false)
				w.sb.WriteString(" vs ")
				w.name(b, false)
				w.sb.WriteString("\n\n")
			} else {
				w.heading(aiModeHeadings[1])
			}
			w.sentence(w.pick(comparisons[a.cls.qual]), a, b)
		}
	}
	if w.r.Float64() < 0.3 {
		w.considerations(considerHeadings[1])
	}
	w.heading(aiModeHeadings[2])
	for range 1 + w.r.IntN(3) {
		w.advice()
	}
	w.paragraph()
	w.rest()
	w.paragraph()
	w.sentence(w.pick(closings))
}

// considerations is a bulleted "what to consider" section naming no brand.
func (w *writer) considerations(h string) {
	w.heading(h)
	for _, i := range w.r.Perm(len(factors))[:2+w.r.IntN(3)] {
		if f := factors[i]; w.safe(f) {
			w.sb.WriteString("- " + f + "\n")
		}
	}
}

// rest names every cast member not named yet.
func (w *writer) rest() {
	for len(w.queue) > 0 {
		switch u := w.r.Float64(); {
		case u < 0.4:
			w.recommend(w.pop())
		case u < 0.7:
			w.reference(w.pop())
		case u < 0.85:
			w.group(w.take(1), sightline.MentionExample)
		default:
			w.compare(w.pop())
		}
	}
}

// recommend recommends one brand; a brand the answer is negative about
// gets a critical remark instead.
func (w *writer) recommend(i int) {
	tone := w.tone(i)
	if tone == negative {
		w.remark(i, tone)
		return
	}
	w.say(slot{i, class{sightline.MentionRecommendation, tone, w.qual()}})
}

// reference cites or reports on one brand.
func (w *writer) reference(i int) { w.remark(i, w.tone(i)) }

func (w *writer) remark(i, tone int) {
	w.say(slot{i, class{sightline.MentionReference, tone, w.qual()}})
}

// advice is a hedged recommendation ("if you need X, then Brand"), of a
// brand not named yet when there is one, else of one named already.
func (w *writer) advice() {
	i := -1
	if len(w.queue) > 0 {
		i = w.pop()
	} else if named := w.named(); len(named) > 0 {
		i = named[w.r.IntN(len(named))]
	}
	if i < 0 {
		return
	}
	tone := w.tone(i)
	if tone == negative {
		if w.first[i] < 0 {
			w.remark(i, tone)
			return
		}
		tone = 1
	}
	w.say(slot{i, class{sightline.MentionRecommendation, tone, hedged}})
}

// list writes one line per brand, numbered or bulleted, with bold names.
// The first item is sometimes the answer's top pick.
func (w *writer) list(is []int, numbered bool) {
	sep := [3]string{" – ", ": ", " - "}[w.r.IntN(3)]
	for n, i := range is {
		w.lineStart()
		if numbered {
			w.sb.WriteString(strconv.Itoa(n+1) + ". ")
		} else {
			w.sb.WriteString("- ")
		}
		tone, qual := w.tone(i), w.qual()
		s, bank := slot{i, class{sightline.MentionListing, tone, qual}}, listItems
		if n == 0 && tone != negative && w.r.Float64() < 0.35 {
			s.cls.typ, bank = sightline.MentionRecommendation, topPicks
		}
		if w.endorse && tone == 1 && s.cls.typ == sightline.MentionListing {
			s.cls.tone = positive // a plain item takes the endorsing lead-in's stance
		}
		w.name(s, w.bold)
		w.model(i)
		w.sb.WriteString(sep)
		w.render(w.pick(bank[tone][qual]), []slot{s})
		if w.r.Float64() < 0.6 {
			w.sentence(w.pick(itemExtras))
		}
		w.mark()
		w.sb.WriteByte('\n')
	}
	w.endorse = false
}

// leadIn writes the paragraph introducing a list, sometimes endorsing its
// options ("Highly rated options:"), which plain items then take on.
func (w *writer) leadIn() {
	w.paragraph()
	if w.r.Float64() < 0.5 {
		w.sb.WriteString(w.pick(endorsingLeads) + "\n\n")
		w.endorse = true
	} else {
		w.sb.WriteString(w.pick(neutralLeads) + "\n\n")
	}
}

// table writes options as table rows: listings, neutral whatever the row
// says (rows weigh pros and cons).
func (w *writer) table(is []int) {
	w.paragraph()
	w.sb.WriteString("| " + w.pick(tableHeads) + " | Best for | Starting price |\n|---|---|---|\n")
	for _, i := range is {
		s := slot{i, class{sightline.MentionListing, 1, direct}}
		w.sb.WriteString("| ")
		w.name(s, false)
		w.model(i)
		w.sb.WriteString(" | " + w.pick(audiences) + " | $" + strconv.Itoa(5+w.r.IntN(60)) + "/mo |\n")
	}
	w.sb.WriteByte('\n')
}

// boldParagraphs writes one paragraph per option, each opening with the
// brand in bold: listings.
func (w *writer) boldParagraphs(is []int) {
	for _, i := range is {
		w.paragraph()
		tone, qual := w.tone(i), w.qual()
		w.render(w.pick(boldLeads[tone][qual]), []slot{{i, class{sightline.MentionListing, tone, qual}}})
		if w.r.Float64() < 0.5 {
			w.sentence(w.pick(itemExtras))
		}
		w.mark()
	}
	w.paragraph()
}

// optionHeadings writes one heading per option under a neutral section
// heading, each followed by a sentence that does not name it again.
func (w *writer) optionHeadings(is []int) {
	w.heading("## Options to consider")
	for n, i := range is {
		w.sb.WriteString("### " + strconv.Itoa(n+1) + ". ")
		w.name(slot{i, class{sightline.MentionListing, 1, direct}}, false)
		w.sb.WriteString("\n\n")
		w.sentence(w.pick(itemExtras))
		w.paragraph()
	}
}

// group names several brands in one sentence, in the first one's tone.
func (w *writer) group(is []int, typ sightline.MentionType) {
	if len(is) == 0 {
		return
	}
	cls := class{typ, w.tone(is[0]), w.qual()}
	slots := make([]slot, len(is))
	for n, i := range is {
		slots[n] = slot{i, cls}
	}
	w.say(slots...)
}

// say writes a sentence naming the slots, all of one class, picked from
// the sentences of that class.
func (w *writer) say(slots ...slot) {
	c := slots[0].cls
	w.sentence(w.pick(sentences[c.typ][c.tone][c.qual]), slots...)
}

// compare sets brand i against the next brand or, failing that, one
// already named.
func (w *writer) compare(i int) {
	a, b, ok := w.pair(i)
	if !ok {
		w.recommend(i)
		return
	}
	w.sentence(w.pick(comparisons[a.cls.qual]), a, b)
}

func (w *writer) pair(i int) (a, b slot, ok bool) {
	j := -1
	if len(w.queue) > 0 && w.r.Float64() < 0.7 {
		j = w.pop()
	} else if named := w.named(); len(named) > 0 {
		j = named[w.r.IntN(len(named))]
	} else if len(w.queue) > 0 {
		j = w.pop()
	}
	a = slot{i, class{sightline.MentionComparison, w.tone(i), w.qual()}}
	if j < 0 {
		return a, b, false
	}
	b = slot{j, class{sightline.MentionComparison, w.tone(j), a.cls.qual}}
	return a, b, true
}

// named lists the cast members named so far.
func (w *writer) named() []int {
	var out []int
	for i, f := range w.first {
		if f >= 0 {
			out = append(out, i)
		}
	}
	return out
}

func (w *writer) pop() int {
	i := w.queue[0]
	w.queue = w.queue[1:]
	return i
}

func (w *writer) take(n int) []int {
	n = min(n, len(w.queue))
	out := w.queue[:n:n]
	w.queue = w.queue[n:]
	return out
}

func (w *writer) tone(i int) int {
	t, u := w.cast[i].tones, w.r.Float64()
	switch {
	case u < t[0]:
		return positive
	case u < t[0]+t[1]:
		return 1
	}
	return negative
}

func (w *writer) qual() int {
	if w.r.Float64() < 0.22 {
		return hedged
	}
	return direct
}

// pick chooses a phrase that names none of the market's brands and, where
// the bank allows, none of the last few picked.
func (w *writer) pick(l []string) string {
	start := w.r.IntN(len(l))
	fallback := ""
	for k := range l {
		s := l[(start+k)%len(l)]
		if !w.safe(s) {
			continue
		}
		if !slices.Contains(w.recent, s) {
			fallback = s
			break
		}
		if fallback == "" {
			fallback = s
		}
	}
	if fallback == "" {
		fallback = l[start]
	}
	if w.recent = append(w.recent, fallback); len(w.recent) > 8 {
		w.recent = w.recent[1:]
	}
	return fallback
}

func (w *writer) safe(s string) bool {
	low := strings.ToLower(s)
	return !slices.ContainsFunc(w.m.words, func(word string) bool { return containsWord(low, word) })
}

// sentence writes a template as a sentence of the current paragraph.
func (w *writer) sentence(t string, slots ...slot) {
	if s := w.sb.String(); s != "" && s[len(s)-1] != '\n' && s[len(s)-1] != ' ' {
		w.sb.WriteByte(' ')
	}
	w.render(t, slots)
	w.mark()
}

func (w *writer) render(t string, slots []slot) {
	for t != "" {
		i := strings.IndexByte(t, '{')
		if i < 0 {
			w.sb.WriteString(t)
			return
		}
		w.sb.WriteString(t[:i])
		j := i + strings.IndexByte(t[i:], '}')
		w.token(t[i+1:j], slots)
		t = t[j+1:]
	}
}

func (w *writer) token(tok string, slots []slot) {
	switch tok {
	case "need":
		w.sb.WriteString(w.pick(needs))
	case "feat":
		w.sb.WriteString(w.pick(feats))
	case "weak":
		w.sb.WriteString(w.pick(weaks))
	case "fact":
		w.sb.WriteString(w.pick(facts))
	case "topic":
		w.sb.WriteString(w.m.topic)
	case "list", "olist":
		for n, s := range slots {
			switch {
			case n == 0:
			case n < len(slots)-1:
				w.sb.WriteString(", ")
			case tok == "olist":
				w.sb.WriteString(" or ")
			default:
				w.sb.WriteString(" and ")
			}
			w.name(s, false)
		}
	default:
		s := slots[tok[len(tok)-1]-'0']
		switch tok[0] {
		case 'b':
			w.name(s, w.bold)
		case 'p':
			w.name(s, false)
			if strings.HasSuffix(strings.ToLower(w.cast[s.who].written), "s") {
				w.sb.WriteString("'")
			} else {
				w.sb.WriteString("'s")
			}
		case 'c':
			w.render(w.pick(clauses[s.cls.tone]), slots)
		default:
			w.name(s, false)
		}
	}
}

// name writes a brand's name and records it; the first time, with the
// class of this mention.
func (w *writer) name(s slot, bold bool) {
	if bold {
		w.sb.WriteString("**")
	}
	start := w.sb.Len()
	w.sb.WriteString(w.cast[s.who].written)
	w.spans = append(w.spans, [2]int{start, w.sb.Len()})
	if w.first[s.who] < 0 {
		w.first[s.who], w.cls[s.who], w.firstAs[s.who] = start, s.cls, w.cast[s.who].written
	}
	if bold {
		w.sb.WriteString("**")
	}
}

// model sometimes writes a model after an untracked brand's one-word name
// ("Zenora Pro 2"): the product names its maker, which the truth names.
func (w *writer) model(i int) {
	c := w.cast[i]
	if c.relation != sightline.RelationUntrackedCompetitor || strings.ContainsAny(c.written, " '’&") || w.r.Float64() >= 0.25 {
		return
	}
	w.sb.WriteString(" " + w.pick(models))
}

// chip appends a ChatGPT citation chip, "([acme.com](https://acme.com/…))",
// showing the site of an own or tracked brand: a mention of that brand
// (a reference) when the answer has not named it yet.
func (w *writer) chip() {
	var cands []int
	for i, c := range w.cast {
		if c.relation != sightline.RelationUntrackedCompetitor && len(c.domains) > 0 {
			cands = append(cands, i)
		}
	}
	if len(cands) == 0 {
		return
	}
	i := cands[w.r.IntN(len(cands))]
	d := w.cast[i].domains[w.r.IntN(len(w.cast[i].domains))]
	w.sb.WriteString(" ([")
	start := w.sb.Len()
	w.sb.WriteString(d + "](https://" + d + w.pick(chipPaths) + "?utm_source=openai)")
	w.spans = append(w.spans, [2]int{start, w.sb.Len()})
	w.sb.WriteString(")")
	if w.first[i] < 0 {
		w.first[i], w.cls[i], w.firstAs[i] = start, class{sightline.MentionReference, 1, direct}, d
	}
}

// mark cites sources inline after a sentence, numbering them by first
// citation.
func (w *writer) mark() {
	if w.marks == 0 {
		return
	}
	switch u := w.r.Float64(); {
	case w.next <= w.marks && u < 0.7:
		w.sb.WriteString("[" + strconv.Itoa(w.next) + "]")
		w.next++
	case w.next > 1 && u < 0.7:
		w.sb.WriteString("[" + strconv.Itoa(1+w.r.IntN(w.next-1)) + "]")
	}
}

func (w *writer) lineStart() {
	if s := w.sb.String(); s != "" && s[len(s)-1] != '\n' {
		w.sb.WriteByte('\n')
	}
}

func (w *writer) paragraph() {
	switch s := w.sb.String(); {
	case s == "" || strings.HasSuffix(s, "\n\n"):
	case strings.HasSuffix(s, "\n"):
		w.sb.WriteByte('\n')
	default:
		w.sb.WriteString("\n\n")
	}
}

func (w *writer) heading(h string) {
	w.paragraph()
	w.sb.WriteString(h + "\n\n")
}

func (w *writer) maybeHeading(h string, p float64) {
	if w.r.Float64() < p {
		w.heading(h)
	} else {
		w.paragraph()
	}
}

// consistent reports whether every occurrence of a brand's name or domain
// in the text lies inside a name the writer placed: nothing else in the
// text names a brand.
func (w *writer) consistent() bool {
	low := strings.ToLower(w.sb.String())
	for _, word := range w.m.words {
		for i := indexWord(low, word, 0); i >= 0; i = indexWord(low, word, i+1) {
			if !slices.ContainsFunc(w.spans, func(s [2]int) bool { return s[0] <= i && i+len(word) <= s[1] }) {
				return false
			}
		}
	}
	return true
}

// truth lists the named brands by first appearance.
func (w *writer) truth() []TruthMention {
	var order []int
	for i, f := range w.first {
		if f >= 0 {
			order = append(order, i)
		}
	}
	slices.SortFunc(order, func(a, b int) int { return cmp.Compare(w.first[a], w.first[b]) })
	out := make([]TruthMention, len(order))
	for pos, i := range order {
		c, cls := w.cast[i], w.cls[i]
		tone := toneOf[cls.tone]
		if cls.typ == sightline.MentionRecommendation && tone == sightline.ToneNeutral {
			tone = sightline.TonePositive // a recommendation is positive unless it says otherwise
		}
		out[pos] = TruthMention{
			BrandName: w.firstAs[i], Relation: c.relation, CompetitorID: c.competitorID, Position: pos + 1,
			Type: cls.typ, Tone: tone, Qualifier: qualifierOf[cls.qual],
		}
	}
	return out
}
