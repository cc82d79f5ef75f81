package ingest

import (
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/uuid"

	"github.com/sightline/sightline"
)

var (
	extractZendeskID   = uuid.MustParse("0193a7e4-0000-7000-8000-000000000001")
	extractHubSpotID   = uuid.MustParse("0193a7e4-0000-7000-8000-000000000002")
	extractAcmeCloudID = uuid.MustParse("0193a7e4-0000-7000-8000-000000000003")
	extractCafeID      = uuid.MustParse("0193a7e4-0000-7000-8000-000000000004")
)

// extractBrands is the brand set of most extraction tests: own Acme, and
// competitors whose names overlap it (Acme Cloud), carry a possessive-prone
// capital (HubSpot) or accents (Café Bleu).
func extractBrands() Brands {
	return Brands{
		Own: Brand{Names: []string{"Acme"}, Domains: []string{"acme.com", "acmehq.com"}},
		Competitors: []Competitor{
			{ID: extractZendeskID, Name: "Zendesk", Brand: Brand{Domains: []string{"zendesk.com"}}},
			{ID: extractHubSpotID, Name: "HubSpot", Brand: Brand{Names: []string{"HubSpot CRM"}, Domains: []string{"hubspot.com"}}},
			{ID: extractAcmeCloudID, Name: "Acme Cloud", Brand: Brand{Domains: []string{"cloud.acme.com"}}},
			{ID: extractCafeID, Name: "Café Bleu", Brand: Brand{Domains: []string{"cafebleu.fr"}}},
		},
	}
}

// extractNamed renders mentions as "Name/relation/position" for comparison.
func extractNamed(ms []Mention) []string {
	out := []string{}
	for _, m := range ms {
		out = append(out, m.BrandName+"/"+string(m.Relation)+"/"+strconv.Itoa(m.Position))
	}
	return out
}

func TestExtractMatching(t *testing.T) {
	t.Parallel()
	const own, comp, untracked = "own", "tracked-competitor", "untracked-competitor"
	cases := []struct {
		name, text string
		want       []string
	}{
		{"plain", "Acme is a help desk.", []string{"Acme/own/1"}},
		{"not inside a word", "Acmeville and SuperAcme are towns; acme2 is not a brand.", []string{}},
		{"case-insensitive, first spelling kept", "ACME first, then acme and Acme.", []string{"ACME/own/1"}},
		{"possessive", "HubSpot's free tier is popular.", []string{"HubSpot/" + comp + "/1"}},
		{"longest name wins", "Try Acme Cloud, or Acme itself.", []string{"Acme Cloud/" + comp + "/1", "Acme/" + own + "/2"}},
		{"longest alias wins", "HubSpot CRM beats HubSpot Sales.", []string{"HubSpot CRM/" + comp + "/1"}},
		{"accents folded by case", "CAFÉ BLEU and Café Bleu are one.", []string{"CAFÉ BLEU/" + comp + "/1"}},
		{"accents stay distinct", "Cafe Bleu is another place.", []string{}},
		{"decomposed accents", "Cafe\u0301 Bleu is the same.", []string{"Café Bleu/" + comp + "/1"}},
		{"decomposed accent is part of the word", "Acme\u0301 is not Acme.", []string{"Acme/own/1"}},
		{"domain in text", "See acmehq.com for details.", []string{"acmehq.com/own/1"}},
		{"subdomain in text", "Docs live on docs.acmehq.com.", []string{"acmehq.com/own/1"}},
		{"not a suffix of another domain", "notacmehq.com and acmehq.com.au are someone else.", []string{}},
		{"hyphenated host is another domain", "my-acmehq.com is a clone.", []string{}},
		{"bare URL keeps its host", "Pricing: https://www.acmehq.com/pricing?x=1 today.", []string{"acmehq.com/own/1"}},
		{"positions count every brand", "**Freshdesk** vs Zendesk: both beat Acme.", []string{"Freshdesk/" + untracked + "/1", "Zendesk/" + comp + "/2", "Acme/" + own + "/3"}},
		{"one mention per brand", "Zendesk, Acme, zendesk.com and Zendesk again.", []string{"Zendesk/" + comp + "/1", "Acme/" + own + "/2"}},
		{"citation chip is not a mention", "Support matters ([zendesk.com](https://www.zendesk.com/blog?utm_source=openai)).", []string{}},
		{"link label is text", "Read [Acme's guide](https://example.org/guide).", []string{"Acme/own/1"}},
		{"link target is not text", "Read [the guide](https://www.zendesk.com/guide).", []string{}},
		{"image is not text", "![Zendesk logo](https://x.org/zendesk.png) Acme.", []string{"Acme/own/1"}},
		{"code fence skipped", "```\nZendesk.init()\n```\nAcme.", []string{"Acme/own/1"}},
		{"references section skipped", "Acme is good.\n\n### References\n[0] [Zendesk blog](https://zendesk.com/blog)", []string{"Acme/own/1"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got := extractNamed(ExtractAnswer(extractBrands(), Answer{Text: tc.text}).Mentions)
			if !slices.Equal(got, tc.want) {
				t.Errorf("%q\n got %q\nwant %q", tc.text, got, tc.want)
			}
		})
	}
}

func TestExtractCompetitorIDs(t *testing.T) {
	t.Parallel()
	e := ExtractAnswer(extractBrands(), Answer{Text: "Acme, Zendesk and Kayako compared with HubSpot."})
	want := []struct {
		name string
		rel  sightline.Relation
		id   *uuid.UUID
	}{
		{"Acme", sightline.RelationOwn, nil},
		{"Zendesk", sightline.RelationTrackedCompetitor, &extractZendeskID},
		{"Kayako", sightline.RelationUntrackedCompetitor, nil},
		{"HubSpot", sightline.RelationTrackedCompetitor, &extractHubSpotID},
	}
	if len(e.Mentions) != len(want) {
		t.Fatalf("mentions %q", extractNamed(e.Mentions))
	}
	for i, w := range want {
		m := e.Mentions[i]
		if m.BrandName != w.name || m.Relation != w.rel || (m.CompetitorID == nil) != (w.id == nil) ||
			w.id != nil && *m.CompetitorID != *w.id || m.Position != i+1 {
			t.Errorf("mention %d = %+v, want %s %s %v", i, m, w.name, w.rel, w.id)
		}
	}
}

func TestExtractCommonWordNames(t *testing.T) {
	t.Parallel()
	b := Brands{Own: Brand{Names: []string{"Close"}}, Competitors: []Competitor{{ID: extractZendeskID, Name: "Notion"}}}
	cases := []struct {
		text string
		want []string
	}{
		{"We are close to a decision; the notion is odd.", []string{}},
		{"Close and Notion both work.", []string{"Close/own/1", "Notion/tracked-competitor/2"}},
		{"CLOSE is a sales CRM.", []string{"CLOSE/own/1"}},
	}
	for _, tc := range cases {
		if got := extractNamed(ExtractAnswer(b, Answer{Text: tc.text}).Mentions); !slices.Equal(got, tc.want) {
			t.Errorf("%q: got %q, want %q", tc.text, got, tc.want)
		}
	}
}

func TestExtractUntracked(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		text string
		want []string // untracked brand names, in order
	}{
		{"numbered bold list leads", "Top picks:\n\n1. **Freshdesk** — cheap.\n2. **Help Scout** – simple.\n3. **Gorgias**: for shops.", []string{"Freshdesk", "Help Scout", "Gorgias"}},
		{"plain list leads", "- Kayako: legacy tool\n- Front (shared inbox)\n- Missive, for small teams", []string{"Kayako", "Front", "Missive"}},
		{"list of names only", "Suppliers:\n- Spocket\n- AliExpress Dropshipping\n- Modalyst", []string{"Spocket", "AliExpress Dropshipping", "Modalyst"}},
		{"label before the name", "- **Best for small teams:** Gorgias — simple.\n- Budget pick: Freshdesk (free plan)", []string{"Gorgias", "Freshdesk"}},
		{"leads followed by prose in a list of brands", "1. **Intercom** — chat.\n2. **Drift** — bots.\n3. Kustomer offers a CRM view.", []string{"Intercom", "Drift", "Kustomer"}},
		{"common-word brands in a list of brands", "- Notion: docs\n- Asana: tasks\n- Trello: boards", []string{"Notion", "Asana", "Trello"}},
		{"such as", "Help desks such as Intercom, Help Scout and Kayako compete with Acme.", []string{"Intercom", "Help Scout", "Kayako"}},
		{"alternatives like", "Consider alternatives like Front or Missive.", []string{"Front", "Missive"}},
		{"including and e.g.", "Several vendors, including Gladly, target retail (e.g. Kustomer).", []string{"Gladly", "Kustomer"}},
		{"versus", "Freshdesk vs. Zoho Desk: which is better?", []string{"Freshdesk", "Zoho Desk"}},
		{"than the", "It is cheaper than the iPhone 15.", []string{"iPhone 15"}},
		{"enumerated with a tracked brand", "Acme, Kustomer and Gladly all support chat.", []string{"Kustomer", "Gladly"}},
		{"bold name in prose", "We also like **Kayako** for legacy setups.", []string{"Kayako"}},
		{"link label", "See [Dr. Aldo Implants](https://aldo.example/) for implants.", []string{"Dr. Aldo Implants"}},
		{"heading with ordinal", "### 2. Zoho Desk\nA solid option.", []string{"Zoho Desk"}},
		{"table of tools", "| Tool | Price |\n|---|---|\n| Kayako | $15 |\n| Gladly | $150 |", []string{"Kayako", "Gladly"}},
		{"table of features with brands as columns", "| Feature | Kayako | Gladly |\n|---|---|---|\n| Chat | Yes | Yes |", []string{"Kayako", "Gladly"}},
		{"recommend over", "I'd recommend Acme over Kayako.", []string{"Kayako"}},
		{"extension of a detected name is the same brand", "- **Zoho**: suite\n- **Kayako**: desk\n\nZoho Desk is its help desk.", []string{"Zoho", "Kayako"}},
		{"place in a name", "Options include Bank of America and Chase.", []string{"Bank of America", "Chase"}},

		{"sentence adverbs", "Overall, Acme is solid. However, Acme costs more. Additionally, Acme and HubSpot integrate.", nil},
		{"labels in lists", "- **Pricing:** from $10\n- **Key Features:** automation\n- **Ease of Use:** high\n- **No Inventory:** none", nil},
		{"steps", "Steps:\n- Choose a niche\n- Build an online store\n- Register your business", nil},
		{"news labels", "- **Presidential Election:** a vote.\n- **Geological Recognition:** a list.\n- **Volcanic Activity:** eruptions.", nil},
		{"table of non-brands", "| IrAE | Description |\n|---|---|\n| Hepatic | Hepatitis |", nil},
		{"tracked product names", "- **Acme CRM**: our suite\n- **HubSpot Sales Hub**: theirs", nil},
		{"piece of a tracked name", "- **Cloud**: hosting\n- **Bleu**: colour", nil},
		{"stop-listed names", "Available in markets such as Germany, France and the UK; tools such as AI and CRM.", nil},
		{"months and pronouns", "Launched in March. In May, we reviewed it. It is such as We expected.", nil},
		{"citation chips and markers", "Acme leads ([Zendesk Blog](https://zendesk.com/blog)) the market[1][2].", nil},
		{"prose only", "We use Kayako daily and Gladly sometimes.", nil},
		{"digits", "Prices such as 15 and 20 dollars.", nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var got []string
			for _, m := range ExtractAnswer(extractBrands(), Answer{Text: tc.text}).Mentions {
				if m.Relation == sightline.RelationUntrackedCompetitor {
					got = append(got, m.BrandName)
				}
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("%q\n got %q\nwant %q", tc.text, got, tc.want)
			}
		})
	}
}

func TestExtractMatcherIsLeftmostLongest(t *testing.T) {
	t.Parallel()
	m := &matcher{}
	m.add("Acme", 0, false, false)
	m.add("Acme Nimbus Pro", 1, false, false)
	m.add("Nimbus", 2, false, false)
	text := []rune("Acme Nimbus Pro, Acme Nimbus, nimbus")
	var got []string
	for _, x := range m.find(text, foldRunes(text)) {
		got = append(got, string(text[x.start:x.end]))
	}
	want := []string{"Acme Nimbus Pro", "Acme", "Nimbus", "nimbus"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

// FuzzExtractMatch checks the matcher and the extraction on arbitrary
// texts and names: no panic; every match equals its name up to case and
// sits at word boundaries; mentions are positioned 1..n without gaps, one
// per brand.
func FuzzExtractMatch(f *testing.F) {
	for _, s := range [][2]string{
		{"Acme is great. HubSpot's too.", "Acme"},
		{"1. **Zendesk** — vs Freshdesk, such as Kayako and Gladly", "Zendesk"},
		{"Café Bleu or CAFÉ BLEU or Cafe\u0301 Bleu", "Café Bleu"},
		{"([acme.com](https://acme.com)) [1][2] | a | b |\n- x: y", "acme.com"},
		{"İstanbul ǅemal ß SS ſ K", "ǆemal"},
		{"\x00\xff\n\n###\n- \n|", "\xff"},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, text, name string) {
		if !utf8.ValidString(text) || !utf8.ValidString(name) {
			return
		}
		m := &matcher{}
		clean := cleanName(name)
		m.add(clean, 0, false, false)
		d := parseAnswer(text)
		for _, x := range m.find(d.text, d.fold) {
			p := m.patterns[x.pattern]
			if !slices.Equal(d.fold[x.start:x.end], p.folded) {
				t.Fatalf("match %q is not %q", string(d.text[x.start:x.end]), clean)
			}
			if isWordRune(p.folded[0]) && x.start > 0 && isWordRune(d.text[x.start-1]) ||
				isWordRune(p.folded[len(p.folded)-1]) && x.end < len(d.text) && isWordRune(d.text[x.end]) {
				t.Fatalf("match %q at %d..%d is inside a word of %q", clean, x.start, x.end, string(d.text))
			}
		}
		e := ExtractAnswer(Brands{Own: Brand{Names: []string{name}, Domains: []string{name}},
			Competitors: []Competitor{{ID: extractZendeskID, Name: strings.ToUpper(name)}}}, Answer{Text: text})
		seen := map[string]bool{}
		for i, mt := range e.Mentions {
			if mt.Position != i+1 {
				t.Fatalf("mention %d has position %d", i, mt.Position)
			}
			key := string(mt.Relation) + "/" + mt.BrandName
			if mt.Relation != sightline.RelationUntrackedCompetitor && seen[string(mt.Relation)] {
				t.Fatalf("brand %s mentioned twice", key)
			}
			seen[string(mt.Relation)] = true
			if !slices.Contains(sightline.MentionTypes, mt.Type) || !slices.Contains(sightline.Tones, mt.Tone) ||
				!slices.Contains(sightline.Qualifiers, mt.Qualifier) {
				t.Fatalf("mention %+v has an unknown type, tone or qualifier", mt)
			}
		}
	})
}
