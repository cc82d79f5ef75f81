// Command extraction scores ingest.ExtractAnswer on the hand-labelled
// development set (ingest/testdata/devset) and on the simulator's truth, and
// prints Sightline's extraction measures side by side with their targets: brand
// precision and recall, untracked competitors, position, type, tone and
// qualifier accuracy, citation domain and unresolved accuracy, and the
// answers that are fully right. -detail adds the confusion matrices; the
// throughput line is the simulator's answers per second and the median time
// of one development-set answer. -llm scores the development set with the
// optional LLM pass instead of the local extraction alone.
//
//	go run ./benchmarks/extraction -n 5000 -seed 1
//
// A detected brand matches a true one when both have the same relation and
// the same brand: the own brand, the same tracked competitor, or for
// untracked brands a case-insensitively equal name. Each true brand matches
// at most one detection; further detections of it count against precision.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/sightline/sightline"
	"github.com/sightline/sightline/ingest"
	"github.com/sightline/sightline/ingest/simulator"
)

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "extraction:", err)
		os.Exit(1)
	}
}

func run(args []string, out io.Writer) error {
	fs := flag.NewFlagSet("extraction", flag.ContinueOnError)
	n := fs.Int("n", 5000, "simulated answers to generate and score")
	seed := fs.Uint64("seed", 1, "simulator seed")
	devDir := fs.String("devset", "ingest/testdata/devset", "directory of the hand-labelled development set")
	detail := fs.Bool("detail", false, "print the confusion matrices and the development set's misses")
	llm := fs.Bool("llm", false, "score the development set with the LLM pass (OPENAI_API_KEY, OPENAI_BASE_URL, OPENAI_EXTRACTION_MODEL)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *n < 1 || *n > 200_000 {
		return fmt.Errorf("-n must be within [1, 200000]")
	}
	dev, err := loadDevSet(*devDir)
	if err != nil {
		return fmt.Errorf("loading the development set: %w", err)
	}

	start := time.Now()
	sim := generate(*n, *seed)
	generation := time.Since(start)
	start = time.Now()
	simScores := score(sim, nil, ingest.ExtractAnswer)
	extraction := time.Since(start)
	var misses strings.Builder
	devExtract := ingest.ExtractAnswer
	if *llm {
		key := os.Getenv("OPENAI_API_KEY")
		if key == "" {
			return fmt.Errorf("-llm needs OPENAI_API_KEY")
		}
		l := &ingest.LLM{BaseURL: os.Getenv("OPENAI_BASE_URL"), APIKey: key, Model: os.Getenv("OPENAI_EXTRACTION_MODEL")}
		failed := 0
		devExtract = func(b ingest.Brands, a ingest.Answer) ingest.Extraction {
			e, err := l.ExtractAnswer(context.Background(), b, a)
			if err != nil {
				failed++
			}
			return e
		}
		defer func() {
			fmt.Fprintf(out, "\nLLM pass on the development set: %d calls failed (their local extraction was scored)\n", failed)
		}()
	}
	devScores := score(dev, &misses, devExtract)

	fmt.Fprintf(out, "extraction version %d: development set %d answers, simulator %d answers (seed %d)\n\n",
		ingest.ExtractionVersion, len(dev), len(sim), *seed)
	printTable(out, devScores, simScores)
	if *detail {
		fmt.Fprintf(out, "\n== development set\n")
		devScores.print(out)
		fmt.Fprintf(out, "\n== simulator\n")
		simScores.print(out)
		fmt.Fprintf(out, "\n== development set misses\n%s", misses.String())
	}
	fmt.Fprintf(out, "\nthroughput\n  extraction   %8.0f answers/s (%d simulated in %v, scoring included)\n",
		float64(len(sim))/extraction.Seconds(), len(sim), extraction.Round(time.Millisecond))
	fmt.Fprintf(out, "  median       %8.1f µs per development-set answer\n  generation   %8.0f answers/s\n",
		medianMicros(dev), float64(len(sim))/generation.Seconds())
	return nil
}

// score extracts every case and scores it against its truth; misses, when
// not nil, receives a line per answer that is not fully right.
func score(cases []benchCase, misses io.Writer, extract func(ingest.Brands, ingest.Answer) ingest.Extraction) *scores {
	var s scores
	for _, c := range cases {
		e := extract(c.brands, c.answer)
		if !s.add(c.truth, e) && misses != nil {
			fmt.Fprintf(misses, "%s\n  want %s\n  got  %s\n", c.id, describeTruth(c.truth), describeExtraction(e))
		}
	}
	return &s
}

// medianMicros is the median time, in microseconds, of one extraction of
// a development-set answer, each timed over several runs.
func medianMicros(cases []benchCase) float64 {
	if len(cases) == 0 {
		return 0
	}
	const runs = 20
	times := make([]float64, len(cases))
	for i, c := range cases {
		start := time.Now()
		for range runs {
			ingest.ExtractAnswer(c.brands, c.answer)
		}
		times[i] = float64(time.Since(start).Microseconds()) / runs
	}
	sort.Float64s(times)
	return times[len(times)/2]
}

func describeTruth(t simulator.Truth) string {
	var parts []string
	for _, m := range t.Mentions {
		parts = append(parts, fmt.Sprintf("%d %s/%s/%s/%s/%s", m.Position, m.BrandName, m.Relation, m.Type, m.Tone, m.Qualifier))
	}
	return strings.Join(parts, "; ")
}

func describeExtraction(e ingest.Extraction) string {
	var parts []string
	for _, m := range e.Mentions {
		parts = append(parts, fmt.Sprintf("%d %s/%s/%s/%s/%s", m.Position, m.BrandName, m.Relation, m.Type, m.Tone, m.Qualifier))
	}
	for _, c := range e.Citations {
		parts = append(parts, fmt.Sprintf("[%d %s unresolved=%v %s]", c.Position, c.Domain, c.Unresolved, c.Relation))
	}
	return strings.Join(parts, "; ")
}

// benchCase is one generated answer with the project it was written for.
type benchCase struct {
	id     string // development-set answers only
	brands ingest.Brands
	answer ingest.Answer
	truth  simulator.Truth
}

// project is a market: the own brand, tracked competitors and queries.
// Names include everyday words, ampersands, apostrophes, accents and aliases.
type project struct {
	own         ingest.Brand
	competitors []ingest.Competitor
	queries     []string
}

func competitor(market, name string, names, domains []string) ingest.Competitor {
	return ingest.Competitor{ID: uuid.NewSHA1(uuid.NameSpaceOID, []byte(market+"/"+name)), Name: name,
		Brand: ingest.Brand{Names: names, Domains: domains}}
}

var projects = []project{
	{
		own: ingest.Brand{Names: []string{"Brightdesk", "Bright Desk"}, Domains: []string{"brightdesk.com"}},
		competitors: []ingest.Competitor{
			competitor("crm", "Close", []string{"Close", "Close CRM"}, []string{"close.com"}),
			competitor("crm", "Pipeworks", nil, []string{"pipeworks.io"}),
			competitor("crm", "Hale & Moss", []string{"HaleMoss"}, []string{"halemoss.com"}),
			competitor("crm", "Nimble", nil, []string{"nimble.com"}),
		},
		queries: []string{"best crm for small business", "crm with email automation", "close crm alternatives",
			"brightdesk vs pipeworks", "what is the best sales pipeline tool?"},
	},
	{
		own: ingest.Brand{Names: []string{"Stridewell"}, Domains: []string{"stridewell.com", "stridewell.co.uk"}},
		competitors: []ingest.Competitor{
			competitor("shoes", "Asphalt Athletics", nil, []string{"asphaltathletics.com"}),
			competitor("shoes", "Kōa Running", []string{"Koa Running"}, []string{"koarunning.com"}),
			competitor("shoes", "Trail & Tarmac", nil, []string{"trailandtarmac.co.uk"}),
			competitor("shoes", "Peak", []string{"Peak Footwear"}, []string{"peakfootwear.com"}),
		},
		queries: []string{"best running shoes for flat feet", "trail running shoes for beginners",
			"cushioned running shoes for a marathon"},
	},
	{
		own: ingest.Brand{Names: []string{"Tunnelfox", "TunnelFox VPN"}, Domains: []string{"tunnelfox.net", "tunnelfox.com"}},
		competitors: []ingest.Competitor{
			competitor("vpn", "Shieldly", nil, []string{"shieldly.io"}),
			competitor("vpn", "Nord Harbor", nil, []string{"nordharbor.com"}),
			competitor("vpn", "Veil", []string{"Veil VPN"}, []string{"veil.app"}),
			competitor("vpn", "PrivateLine", nil, []string{"privateline.com"}),
		},
		queries: []string{"best vpn for streaming", "fastest vpn for gaming", "cheap vpn with no logs"},
	},
	{
		own: ingest.Brand{Names: []string{"Ledgerline", "Ledgerline Books"}, Domains: []string{"ledgerline.com"}},
		competitors: []ingest.Competitor{
			competitor("books", "Sumwise", nil, []string{"sumwise.com"}),
			competitor("books", "Tally & Co", nil, []string{"tallyandco.com"}),
			competitor("books", "Brixton Accounts", nil, []string{"brixtonaccounts.co.uk"}),
		},
		queries: []string{"accounting software for freelancers", "best invoicing app for small business",
			"bookkeeping software with bank feeds"},
	},
	{
		own: ingest.Brand{Names: []string{"Forkful"}, Domains: []string{"forkful.com"}},
		competitors: []ingest.Competitor{
			competitor("meals", "Greenbasket", nil, []string{"greenbasket.com"}),
			competitor("meals", "Chef's Crate", []string{"Chefs Crate"}, []string{"chefscrate.com"}),
			competitor("meals", "Mélange Meals", nil, []string{"melangemeals.com"}),
		},
		queries: []string{"best meal kit for families", "cheapest meal kit delivery", "vegetarian meal kit subscription"},
	},
	{
		own: ingest.Brand{Names: []string{"Taskgrid"}, Domains: []string{"taskgrid.io"}},
		competitors: []ingest.Competitor{
			competitor("pm", "Flowboard", nil, []string{"flowboard.com"}),
			competitor("pm", "Orbit", []string{"Orbit PM"}, []string{"orbit.so"}),
			competitor("pm", "Planwise", nil, []string{"planwise.app"}),
			competitor("pm", "Kanbanly", nil, []string{"kanbanly.com"}),
		},
		queries: []string{"project management app for agencies", "best kanban tool for remote teams",
			"simple project planning tool instead of spreadsheets"},
	},
	{
		own: ingest.Brand{Names: []string{"Lingobee"}, Domains: []string{"lingobee.com"}},
		competitors: []ingest.Competitor{
			competitor("lang", "Parlo", nil, []string{"parlo.app"}),
			competitor("lang", "Speakeasy Labs", nil, []string{"speakeasylabs.com"}),
			competitor("lang", "Hablo Hub", nil, []string{"hablohub.com"}),
		},
		queries: []string{"best app to learn spanish", "language learning app for kids", "learn french fast online"},
	},
	{
		own: ingest.Brand{Names: []string{"Dreamloft"}, Domains: []string{"dreamloft.com"}},
		competitors: []ingest.Competitor{
			competitor("sleep", "Slumber & Co", nil, []string{"slumberandco.com"}),
			competitor("sleep", "Nook", []string{"Nook Sleep"}, []string{"nooksleep.com"}),
			competitor("sleep", "Cloudrest", nil, []string{"cloudrest.com"}),
		},
		queries: []string{"best mattress for back pain", "cooling mattress for hot sleepers", "mattress in a box under 1000"},
	},
}

var (
	aiEngines = []sightline.Engine{sightline.EngineChatGPT, sightline.EnginePerplexity,
		sightline.EngineGoogleAIOverview, sightline.EngineGoogleAIMode}
	countries = []string{"US", "GB", "DE", "AU"}
	day0      = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
)

// generate writes n answers, cycling through projects, engines, queries,
// countries, passes and 120 days.
func generate(n int, seed uint64) []benchCase {
	sim := simulator.New(seed)
	cases := make([]benchCase, 0, n)
	for i := range n {
		p := projects[i%len(projects)]
		e := aiEngines[i/len(projects)%len(aiEngines)]
		q := p.queries[i/(len(projects)*len(aiEngines))%len(p.queries)]
		req := ingest.Request{
			TrackedQueryID: uuid.NewSHA1(uuid.NameSpaceURL, []byte(q+"/"+string(e))),
			QueryText:      q, Engine: e, Country: countries[i/7%len(countries)],
			PassIndex: i % 3, PassCount: 3, Day: day0.AddDate(0, 0, i*13%120),
			Brands: ingest.Brands{Own: p.own, Competitors: p.competitors},
		}
		c, t := sim.Generate(req)
		cases = append(cases, benchCase{brands: req.Brands, answer: *c.Answer, truth: t})
	}
	return cases
}

// tally counts hits out of a total.
type tally struct{ hit, total int }

func (t *tally) count(ok bool) {
	t.total++
	if ok {
		t.hit++
	}
}

func (t tally) String() string {
	if t.total == 0 {
		return "     -"
	}
	return fmt.Sprintf("%5.1f%%", 100*float64(t.hit)/float64(t.total))
}

var relations = []sightline.Relation{sightline.RelationOwn, sightline.RelationTrackedCompetitor, sightline.RelationUntrackedCompetitor}

// scores accumulates how extractions compare with the truth.
type scores struct {
	answers    int
	precision  map[sightline.Relation]*tally // by extracted relation
	recall     map[sightline.Relation]*tally // by true relation
	position   tally
	types      map[sightline.MentionType]map[sightline.MentionType]int // true -> extracted -> count
	tones      map[sightline.Tone]map[sightline.Tone]int
	qualifier  map[sightline.Qualifier]map[sightline.Qualifier]int
	citations  struct{ domain, unresolved, relation, count tally }
	fullyRight tally // answers with every brand, relation and position right
}

// brandKey identifies a brand for matching: the own brand, a tracked
// competitor by id, or an untracked brand by its name in lower case.
func brandKey(rel sightline.Relation, id *uuid.UUID, name string) string {
	switch {
	case rel == sightline.RelationOwn:
		return "own"
	case rel == sightline.RelationTrackedCompetitor && id != nil:
		return "tracked " + id.String()
	}
	return string(rel) + " " + strings.ToLower(strings.TrimSpace(name))
}

// add scores one extraction against its truth and reports whether the
// answer is fully right: every brand with its relation and position, and no
// other brand.
func (s *scores) add(t simulator.Truth, e ingest.Extraction) bool {
	if s.answers == 0 {
		s.precision = map[sightline.Relation]*tally{}
		s.recall = map[sightline.Relation]*tally{}
		s.types = map[sightline.MentionType]map[sightline.MentionType]int{}
		s.tones = map[sightline.Tone]map[sightline.Tone]int{}
		s.qualifier = map[sightline.Qualifier]map[sightline.Qualifier]int{}
	}
	s.answers++
	truth := map[string]simulator.TruthMention{}
	for _, m := range t.Mentions {
		truth[brandKey(m.Relation, m.CompetitorID, m.BrandName)] = m
	}
	matched := map[string]bool{}
	right := len(e.Mentions) == len(t.Mentions)
	for _, m := range e.Mentions {
		k := brandKey(m.Relation, m.CompetitorID, m.BrandName)
		want, ok := truth[k]
		ok = ok && !matched[k]
		tallyOf(s.precision, m.Relation).count(ok)
		if !ok {
			right = false
			continue
		}
		matched[k] = true
		right = right && m.Position == want.Position
		s.position.count(m.Position == want.Position)
		confuse(s.types, want.Type, m.Type)
		confuse(s.tones, want.Tone, m.Tone)
		confuse(s.qualifier, want.Qualifier, m.Qualifier)
	}
	for k, m := range truth {
		tallyOf(s.recall, m.Relation).count(matched[k])
	}
	got := map[int]ingest.CitedSource{}
	for _, c := range e.Citations {
		got[c.Position] = c
	}
	for _, want := range t.Citations {
		c, ok := got[want.Position]
		s.citations.count.count(ok)
		s.citations.domain.count(ok && strings.EqualFold(c.Domain, want.Domain))
		s.citations.unresolved.count(ok && c.Unresolved == want.Unresolved)
		s.citations.relation.count(ok && c.Relation == want.Relation &&
			(c.CompetitorID == nil) == (want.CompetitorID == nil) &&
			(c.CompetitorID == nil || *c.CompetitorID == *want.CompetitorID))
	}
	s.fullyRight.count(right)
	return right
}

func tallyOf(m map[sightline.Relation]*tally, r sightline.Relation) *tally {
	if m[r] == nil {
		m[r] = &tally{}
	}
	return m[r]
}

func confuse[T comparable](m map[T]map[T]int, want, got T) {
	if m[want] == nil {
		m[want] = map[T]int{}
	}
	m[want][got]++
}

// total merges tallies, or a confusion matrix's rows, into one.
func total(ts ...tally) tally {
	var all tally
	for _, t := range ts {
		all.hit += t.hit
		all.total += t.total
	}
	return all
}

func row[T comparable](m map[T]map[T]int, want T) tally {
	t := tally{hit: m[want][want]}
	for _, n := range m[want] {
		t.total += n
	}
	return t
}

func (s *scores) print(out io.Writer) {
	var truthN, extN int
	for _, t := range s.recall {
		truthN += t.total
	}
	for _, t := range s.precision {
		extN += t.total
	}
	fmt.Fprintf(out, "answers %d; brands in truth %d, extracted %d\n", s.answers, truthN, extN)
	fmt.Fprintf(out, "\nbrand detection          precision  recall   (truth / extracted)\n")
	all := func(m map[sightline.Relation]*tally) tally {
		var ts []tally
		for _, t := range m {
			ts = append(ts, *t)
		}
		return total(ts...)
	}
	fmt.Fprintf(out, "  %-22s %s     %s   (%d / %d)\n", "overall", all(s.precision), all(s.recall), truthN, extN)
	for _, r := range relations {
		fmt.Fprintf(out, "  %-22s %s     %s   (%d / %d)\n", r, *tallyOf(s.precision, r), *tallyOf(s.recall, r),
			tallyOf(s.recall, r).total, tallyOf(s.precision, r).total)
	}
	for _, r := range slices.Sorted(maps.Keys(s.precision)) {
		if !slices.Contains(relations, r) {
			fmt.Fprintf(out, "  %-22q %s     (extracted %d with an unknown relation)\n", r, *s.precision[r], s.precision[r].total)
		}
	}
	fmt.Fprintf(out, "\nposition accuracy        %s   (of %d matched brands)\n", s.position, s.position.total)
	printMatrix(out, "mention type", s.types, sightline.MentionTypes)
	printMatrix(out, "tone", s.tones, sightline.Tones)
	printMatrix(out, "qualifier", s.qualifier, sightline.Qualifiers)
	fmt.Fprintf(out, "\ncitations                %d in truth, %d extracted at a true position\n",
		s.citations.count.total, s.citations.count.hit)
	fmt.Fprintf(out, "  domain                 %s\n  unresolved             %s\n  relation               %s\n",
		s.citations.domain, s.citations.unresolved, s.citations.relation)
}

// printMatrix prints the accuracy per true value and where the misses went.
func printMatrix[T ~string](out io.Writer, title string, m map[T]map[T]int, values []T) {
	var rows []tally
	for _, v := range values {
		rows = append(rows, row(m, v))
	}
	fmt.Fprintf(out, "\n%-24s accuracy  (n)      extracted as:", title)
	for _, v := range values {
		fmt.Fprintf(out, " %14s", v)
	}
	fmt.Fprintln(out)
	for i, v := range values {
		fmt.Fprintf(out, "  %-22s %s  %-8d              ", v, rows[i], rows[i].total)
		for _, got := range values {
			fmt.Fprintf(out, " %14d", m[v][got])
		}
		other := rows[i].total
		for _, got := range values {
			other -= m[v][got]
		}
		if other > 0 {
			fmt.Fprintf(out, "  (other %d)", other)
		}
		fmt.Fprintln(out)
	}
	fmt.Fprintf(out, "  %-22s %s\n", "overall", total(rows...))
}
