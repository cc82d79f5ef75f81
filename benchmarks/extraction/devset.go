package main

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/google/uuid"

	"github.com/sightline/sightline"
	"github.com/sightline/sightline/ingest"
	"github.com/sightline/sightline/ingest/simulator"
)

// loadDevSet reads the hand-labelled answers of every *.txt file in dir (see
// ingest/testdata/devset/README.md for the format) as cases to score.
func loadDevSet(dir string) ([]benchCase, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.txt"))
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("no *.txt files in %s", dir)
	}
	slices.Sort(files)
	var out []benchCase
	seen := map[string]bool{}
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		cases, err := parseDevSet(string(raw))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", filepath.Base(f), err)
		}
		for _, c := range cases {
			if seen[c.id] {
				return nil, fmt.Errorf("%s: answer %q repeats", filepath.Base(f), c.id)
			}
			seen[c.id] = true
		}
		out = append(out, cases...)
	}
	return out, nil
}

// parseDevSet parses the answers of one dev-set file.
func parseDevSet(s string) ([]benchCase, error) {
	var out []benchCase
	var cur *benchCase
	section := ""
	var answer []string
	finish := func() error {
		if cur == nil {
			return nil
		}
		cur.answer.Text = strings.TrimRight(strings.Join(answer, "\n"), "\n")
		if cur.answer.Text == "" {
			return fmt.Errorf("answer %q has no text", cur.id)
		}
		if len(cur.truth.Citations) != len(cur.answer.Citations) {
			return fmt.Errorf("answer %q: %d citations but %d labelled sources", cur.id, len(cur.answer.Citations), len(cur.truth.Citations))
		}
		out = append(out, *cur)
		return nil
	}
	sc := bufio.NewScanner(strings.NewReader(s))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		fail := func(format string, a ...any) error {
			return fmt.Errorf("line %d: %s", n, fmt.Sprintf(format, a...))
		}
		if id, ok := strings.CutPrefix(line, "=== "); ok {
			if err := finish(); err != nil {
				return nil, err
			}
			cur = &benchCase{id: strings.TrimSpace(id)}
			section, answer = "header", nil
			continue
		}
		if cur == nil {
			if strings.TrimSpace(line) != "" {
				return nil, fail("text before the first answer")
			}
			continue
		}
		if name, ok := strings.CutPrefix(line, "--- "); ok {
			section = strings.TrimSpace(name)
			if !slices.Contains([]string{"answer", "citations", "mentions", "sources"}, section) {
				return nil, fail("unknown section %q", section)
			}
			continue
		}
		if section == "answer" {
			answer = append(answer, line)
			continue
		}
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		var err error
		switch section {
		case "header":
			err = cur.header(line)
		case "citations":
			url, title, _ := strings.Cut(line, " ")
			cur.answer.Citations = append(cur.answer.Citations, ingest.Citation{Position: len(cur.answer.Citations) + 1, URL: url, Title: title})
		case "mentions":
			err = cur.mention(line)
		case "sources":
			err = cur.source(line)
		}
		if err != nil {
			return nil, fail("%v", err)
		}
	}
	if err := finish(); err != nil {
		return nil, err
	}
	return out, nil
}

// header reads "engine: x", "own: names @ domains" or "competitor: names @ domains".
func (c *benchCase) header(line string) error {
	key, val, ok := strings.Cut(line, ":")
	if !ok {
		return fmt.Errorf("expected key: value, got %q", line)
	}
	val = strings.TrimSpace(val)
	brand := func() ingest.Brand {
		names, domains, _ := strings.Cut(val, "@")
		return ingest.Brand{Names: list(names), Domains: list(domains)}
	}
	switch key {
	case "engine":
		if !sightline.Engine(val).AI() {
			return fmt.Errorf("engine %q is not an AI engine", val)
		}
	case "own":
		c.brands.Own = brand()
	case "competitor":
		b := brand()
		if len(b.Names) == 0 {
			return fmt.Errorf("a competitor needs a name")
		}
		c.brands.Competitors = append(c.brands.Competitors, ingest.Competitor{
			ID: uuid.NewSHA1(uuid.NameSpaceOID, []byte(c.id+"/"+b.Names[0])), Name: b.Names[0], Brand: b})
	default:
		return fmt.Errorf("unknown header %q", key)
	}
	return nil
}

func list(s string) []string {
	var out []string
	for p := range strings.SplitSeq(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// competitorNamed returns the id of the competitor one of whose names or
// domains is name.
func (c *benchCase) competitorNamed(name string) (*uuid.UUID, error) {
	for i := range c.brands.Competitors {
		comp := &c.brands.Competitors[i]
		for _, n := range slices.Concat([]string{comp.Name}, comp.Names, comp.Domains) {
			if strings.EqualFold(n, name) {
				return &comp.ID, nil
			}
		}
	}
	return nil, fmt.Errorf("no competitor is named %q", name)
}

// mention reads "Name | relation | type | tone | qualifier".
func (c *benchCase) mention(line string) error {
	f := strings.Split(line, "|")
	if len(f) != 5 {
		return fmt.Errorf("a mention has 5 fields: %q", line)
	}
	for i := range f {
		f[i] = strings.TrimSpace(f[i])
	}
	m := simulator.TruthMention{BrandName: f[0], Position: len(c.truth.Mentions) + 1,
		Type: sightline.MentionType(f[2]), Tone: sightline.Tone(f[3]), Qualifier: sightline.Qualifier(f[4])}
	switch f[1] {
	case "own":
		m.Relation = sightline.RelationOwn
	case "tracked":
		m.Relation = sightline.RelationTrackedCompetitor
		id, err := c.competitorNamed(f[0])
		if err != nil {
			return err
		}
		m.CompetitorID = id
	case "untracked":
		m.Relation = sightline.RelationUntrackedCompetitor
	default:
		return fmt.Errorf("unknown relation %q", f[1])
	}
	if !slices.Contains(sightline.MentionTypes, m.Type) || !slices.Contains(sightline.Tones, m.Tone) ||
		!slices.Contains(sightline.Qualifiers, m.Qualifier) {
		return fmt.Errorf("unknown type, tone or qualifier in %q", line)
	}
	c.truth.Mentions = append(c.truth.Mentions, m)
	return nil
}

// source reads "domain | unresolved", "domain | own", "domain | tracked=Name"
// or "domain".
func (c *benchCase) source(line string) error {
	f := strings.Split(line, "|")
	t := simulator.TruthCitation{Position: len(c.truth.Citations) + 1, Domain: strings.TrimSpace(f[0]), Relation: sightline.RelationNone}
	for _, flag := range f[1:] {
		flag = strings.TrimSpace(flag)
		switch {
		case flag == "unresolved":
			t.Unresolved = true
		case flag == "own":
			t.Relation = sightline.RelationOwn
		case strings.HasPrefix(flag, "tracked="):
			id, err := c.competitorNamed(strings.TrimPrefix(flag, "tracked="))
			if err != nil {
				return err
			}
			t.Relation, t.CompetitorID = sightline.RelationTrackedCompetitor, id
		default:
			return fmt.Errorf("unknown source flag %q", flag)
		}
	}
	c.truth.Citations = append(c.truth.Citations, t)
	return nil
}
