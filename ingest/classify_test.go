package ingest

import (
	"slices"
	"testing"

	"github.com/sightline/sightline"
)

// extractMention returns the mention of the brand named name (as first
// written) in the extraction of text, failing the test when there is none.
func extractMention(t *testing.T, text, name string) Mention {
	t.Helper()
	e := ExtractAnswer(extractBrands(), Answer{Text: text})
	for _, m := range e.Mentions {
		if m.BrandName == name {
			return m
		}
	}
	t.Fatalf("%q: no mention of %q in %q", text, name, extractNamed(e.Mentions))
	return Mention{}
}

func TestExtractMentionType(t *testing.T) {
	t.Parallel()
	const (
		rec  = sightline.MentionRecommendation
		cmp  = sightline.MentionComparison
		list = sightline.MentionListing
		ex   = sightline.MentionExample
		ref  = sightline.MentionReference
	)
	cases := []struct {
		text, brand string
		want        sightline.MentionType
	}{
		{"I recommend Acme for most support teams.", "Acme", rec},
		{"Our top pick is Acme.", "Acme", rec},
		{"Acme is the best help desk for startups.", "Acme", rec},
		{"If you want automation, go with Acme.", "Acme", rec},
		{"Acme is worth considering.", "Acme", rec},
		{"For larger teams, Zendesk or Acme are both solid choices.", "Acme", rec},
		{"Acme is not the best choice for enterprises.", "Acme", ref},
		{"Acme is best for small teams.", "Acme", ref},
		{"Acme is cheaper than Zendesk.", "Acme", cmp},
		{"Acme is cheaper than Zendesk.", "Zendesk", cmp},
		{"Zendesk vs Acme: which one wins?", "Zendesk", cmp},
		{"Compared with Zendesk, Acme has fewer integrations.", "Zendesk", cmp},
		{"Unlike Zendesk, Acme is free for small teams.", "Acme", cmp},
		{"I'd recommend Acme over Zendesk.", "Acme", rec},
		{"I'd recommend Acme over Zendesk.", "Zendesk", cmp},
		{"- Acme: a help desk\n- Zendesk: another help desk", "Acme", list},
		{"| Tool | Price |\n|---|---|\n| Acme | $10 |", "Acme", list},
		{"Popular tools include Acme, Zendesk and HubSpot.", "Acme", list},
		{"Acme, Zendesk and HubSpot all offer chat.", "HubSpot", list},
		{"Tools such as Acme can automate replies.", "Acme", ex},
		{"Platforms like Zendesk, Acme and HubSpot use AI.", "HubSpot", ex},
		{"For example, Acme routes tickets by skill.", "Acme", ex},
		{"Some vendors (e.g. Acme) bill yearly.", "Acme", ex},
		{"Acme was founded in 2010 in Berlin.", "Acme", ref},
		{"According to Acme, tickets rose 20% last year.", "Acme", ref},
		{"- **Acme** — our top pick for support teams.\n- **Zendesk** — enterprise.", "Acme", rec},
		{"- **Acme** — fast setup. We recommend it for startups.\n- **Zendesk** — enterprise.", "Acme", rec},
		{"I recommend these tools:\n\n- Acme\n- Zendesk", "Zendesk", rec},
		{"Here are popular tools:\n\n- Acme\n- Zendesk", "Zendesk", list},
		{"Acme is a help desk. Later, I recommend Acme for startups.", "Acme", rec},
	}
	for _, tc := range cases {
		t.Run(tc.text+"/"+tc.brand, func(t *testing.T) {
			t.Parallel()
			if got := extractMention(t, tc.text, tc.brand).Type; got != tc.want {
				t.Errorf("%q: %s is %s, want %s", tc.text, tc.brand, got, tc.want)
			}
		})
	}
}

func TestExtractTone(t *testing.T) {
	t.Parallel()
	const (
		pos = sightline.TonePositive
		neu = sightline.ToneNeutral
		neg = sightline.ToneNegative
	)
	cases := []struct {
		text, brand string
		want        sightline.Tone
	}{
		{"Acme is reliable and intuitive.", "Acme", pos},
		{"Acme is expensive and clunky.", "Acme", neg},
		{"Acme is a help desk founded in 2010.", "Acme", neu},
		{"Acme is not cheap.", "Acme", neg},
		{"Acme isn't reliable.", "Acme", neg},
		{"Acme is never slow.", "Acme", pos},
		{"Acme is not bad at all.", "Acme", pos},
		{"Acme works without issues.", "Acme", pos},
		{"Acme lacks robust reporting.", "Acme", neg},
		{"Acme has a steep learning curve.", "Acme", neg},
		{"Acme is not only fast but also reliable.", "Acme", pos},
		{"Acme is powerful but expensive.", "Acme", neu},
		{"Acme is great, but Zendesk is expensive.", "Acme", pos},
		{"Acme is great, but Zendesk is expensive.", "Zendesk", neg},
		{"Zendesk is popular, but it is clunky and slow.", "Zendesk", neg},
		{"Acme is cheaper than Zendesk.", "Acme", pos},
		{"Acme is cheaper than Zendesk.", "Zendesk", neg},
		{"Unlike Zendesk, Acme is affordable.", "Acme", pos},
		{"Unlike Zendesk, Acme is affordable.", "Zendesk", neu},
		{"Acme is a help desk. It is slow and buggy.", "Acme", neg},
		{"- **Acme** — solid ticketing. It is slow and buggy, though.\n- **Zendesk** — popular.", "Acme", neg},
		{"- **Acme** — solid ticketing. It is slow and buggy, though.\n- **Zendesk** — popular.", "Zendesk", pos},
		{"Acme stands out for its support.", "Acme", pos},
		{"Acme is highly rated by agents.", "Acme", pos},
	}
	for _, tc := range cases {
		t.Run(tc.text+"/"+tc.brand, func(t *testing.T) {
			t.Parallel()
			if got := extractMention(t, tc.text, tc.brand).Tone; got != tc.want {
				t.Errorf("%q: %s is %s, want %s", tc.text, tc.brand, got, tc.want)
			}
		})
	}
}

func TestExtractQualifier(t *testing.T) {
	t.Parallel()
	const (
		dir  = sightline.QualifierDirect
		cond = sightline.QualifierConditional
	)
	cases := []struct {
		text, brand string
		want        sightline.Qualifier
	}{
		{"If you need SLAs, Acme is the best choice.", "Acme", cond},
		{"Acme is a great option if your team is small.", "Acme", cond},
		{"Depending on your budget, Acme or Zendesk may suit you.", "Zendesk", cond},
		{"For teams that live in Slack, Acme is ideal.", "Acme", cond},
		{"Acme is great for anyone looking to automate triage.", "Acme", cond},
		{"Unless you need telephony, Acme is enough.", "Acme", cond},
		{"When you need omnichannel, choose Zendesk.", "Zendesk", cond},
		{"Acme could work for small teams.", "Acme", cond},
		{"Acme is ideal for small teams.", "Acme", dir},
		{"Acme is the best help desk.", "Acme", dir},
		{"Acme and Zendesk are popular.", "Zendesk", dir},
		{"If budget matters, consider:\n\n- Acme\n- Zendesk", "Acme", cond},
		{"Consider these:\n\n- Acme\n- Zendesk", "Acme", dir},
		// The sentence that decided the type decides the qualifier.
		{"Acme is a help desk. If you need SLAs, I recommend Acme.", "Acme", cond},
		{"If you need SLAs, Acme is a help desk. I recommend Acme.", "Acme", dir},
	}
	for _, tc := range cases {
		t.Run(tc.text+"/"+tc.brand, func(t *testing.T) {
			t.Parallel()
			if got := extractMention(t, tc.text, tc.brand).Qualifier; got != tc.want {
				t.Errorf("%q: %s is %s, want %s", tc.text, tc.brand, got, tc.want)
			}
		})
	}
}

func TestExtractSentence(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, text, brand, want string
	}{
		{"middle sentence", "Intro here. Acme is great! Zendesk too.", "Acme", "Acme is great!"},
		{"question", "Which is best? Acme? Zendesk.", "Acme", "Acme?"},
		{"abbreviation e.g.", "Tools, e.g. Acme, work well. Next one.", "Acme", "Tools, e.g. Acme, work well."},
		{"abbreviation vs.", "Zendesk vs. Acme is close. Next.", "Acme", "Zendesk vs. Acme is close."},
		{"title", "Dr. Smith uses Acme daily. Done.", "Acme", "Dr. Smith uses Acme daily."},
		{"initial", "J. Doe at Acme agrees. Done.", "Acme", "J. Doe at Acme agrees."},
		{"decimal", "It costs 3.5 dollars with Acme. Ok then.", "Acme", "It costs 3.5 dollars with Acme."},
		{"lower-case after period", "Visit us. then Acme. Done.", "Acme", "Visit us. then Acme."},
		{"quotes", "He said \"Acme rocks.\" Then left.", "Acme", "He said \"Acme rocks.\""},
		{"first mention only", "Acme is one. Acme is two.", "Acme", "Acme is one."},
		{"list item", "Intro:\n\n1. **Acme** — fast\n2. Zendesk", "Acme", "Acme — fast"},
		{"list item with sentences", "- **Acme** — Fast. Reliable.\n- Zendesk", "Acme", "Acme — Fast."},
		{"list continuation line", "- Acme is a help desk\n  for small teams.\n- Zendesk", "Acme", "Acme is a help desk for small teams."},
		{"markdown stripped", "**Acme** is [_great_](https://x.org) for `ops` work.", "Acme", "Acme is great for ops work."},
		{"citation chip", "Acme is popular ([acme.com](https://acme.com/?utm_source=openai)). Next.", "Acme", "Acme is popular."},
		{"citation markers", "Acme leads the market[1][3]. Next.", "Acme", "Acme leads the market."},
		{"numbered link marker", "Acme leads [2](https://x.org/a). Next.", "Acme", "Acme leads."},
		{"heading", "## Acme vs Zendesk\nText follows.", "Acme", "Acme vs Zendesk"},
		{"table row", "| Tool | Price |\n|---|---|\n| Acme | $10 |", "Acme", "Acme | $10"},
		{"joined lines", "Acme is\ngreat.", "Acme", "Acme is great."},
		{"escapes", "Acme \\(beta\\) rocks.", "Acme", "Acme (beta) rocks."},
		{"html", "Acme<br>is <b>fast</b>.", "Acme", "Acme is fast."},
		{"blockquote", "> Acme is quoted here.", "Acme", "Acme is quoted here."},
		{"bare URL", "Go to https://www.acme.com/start now.", "acme.com", "Go to www.acme.com now."},
		{"CRLF", "First line.\r\n\r\nAcme second.", "Acme", "Acme second."},
		{"snake_case kept", "Set acme_id in Acme.", "Acme", "Set acme_id in Acme."},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := extractMention(t, tc.text, tc.brand).Sentence; got != tc.want {
				t.Errorf("%q: sentence %q, want %q", tc.text, got, tc.want)
			}
		})
	}
}

func TestExtractBlocks(t *testing.T) {
	t.Parallel()
	d := parseAnswer("# Title\n\nIntro:\n\n- one\n  - nested\n- two\n\n| A | B |\n|---|---|\n| 1 | 2 |\n\n---\n\nText *and* more.")
	var got []string
	for _, b := range d.blocks {
		got = append(got, []string{"p", "h", "li", "tr"}[b.kind]+":"+string(d.text[b.start:b.end]))
	}
	want := []string{"h:Title", "p:Intro:", "li:one", "li:nested", "li:two", "tr:A | B", "tr:1 | 2", "p:Text and more."}
	if !slices.Equal(got, want) {
		t.Errorf("blocks %q, want %q", got, want)
	}
	if d.blocks[2].list == d.blocks[3].list || d.blocks[2].list != d.blocks[4].list {
		t.Errorf("list ids %d %d %d: nested items form their own list", d.blocks[2].list, d.blocks[3].list, d.blocks[4].list)
	}
	if d.blocks[2].intro != 1 || d.blocks[3].intro != 2 {
		t.Errorf("intros %d %d", d.blocks[2].intro, d.blocks[3].intro)
	}
}
