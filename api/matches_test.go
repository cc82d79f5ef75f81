package api

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"net/http"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/sightline/sightline"
	"github.com/sightline/sightline/olap"
)

// matchesMention is a mention of the test brands.
func matchesMention(name string, rel sightline.Relation, competitor *uuid.UUID, pos int, typ sightline.MentionType,
	tone sightline.Tone, q sightline.Qualifier) olap.Mention {
	return olap.Mention{BrandName: name, Relation: rel, CompetitorID: competitor, Position: pos, Type: typ, Tone: tone,
		Qualifier: q, Sentence: name + " is named here."}
}

// matchesExpected is the stored mention match at index i of pass p.
func matchesExpected(p olap.PassRows, i int) olap.MentionMatch {
	m := p.Mentions[i]
	return olap.MentionMatch{ID: p.MentionID(i), AIResponseID: p.CaptureID(), DetectedAt: sightline.Timestamp{Time: p.CapturedAt},
		Engine: p.Engine, BrandName: m.BrandName, CompetitorID: m.CompetitorID, MentionRelation: m.Relation,
		MentionPosition: m.Position, MentionType: m.Type, Sentiment: m.Tone, Qualifier: m.Qualifier, MentionText: m.Sentence}
}

// matchesCSV parses a CSV answer.
func matchesCSV(t *testing.T, r response) [][]string {
	t.Helper()
	if r.status != http.StatusOK || !strings.HasPrefix(r.header.Get("Content-Type"), "text/csv") {
		t.Fatalf("status %d, content type %q: %s", r.status, r.header.Get("Content-Type"), r.body)
	}
	records, err := csv.NewReader(bytes.NewReader(r.body)).ReadAll()
	if err != nil {
		t.Fatalf("not CSV: %v\n%s", err, r.body)
	}
	return records
}

func TestMatchesMentionMatches(t *testing.T) {
	t.Parallel()
	cf := capturesSetup(t)
	q := cf.query(cf.project, sightline.EngineChatGPT, "best crm")
	other := cf.query(cf.project, sightline.EnginePerplexity, "best crm")
	serp := cf.query(cf.project, sightline.EngineGoogleSERP, "best crm")
	sibling := cf.fixture.project(cf.org, "Sibling")
	theirs := cf.query(sibling, sightline.EngineChatGPT, "best crm")
	rival := uuid.New()
	own, tracked, untracked := sightline.RelationOwn, sightline.RelationTrackedCompetitor, sightline.RelationUntrackedCompetitor
	rec, cmpr, list := sightline.MentionRecommendation, sightline.MentionComparison, sightline.MentionListing
	pos, neu, neg := sightline.TonePositive, sightline.ToneNeutral, sightline.ToneNegative
	direct, cond := sightline.QualifierDirect, sightline.QualifierConditional

	// Two passes of one run (three mentions, then one: ties on detectedAt),
	// and a later run naming a brand that looks like a formula. Citations
	// are not matches.
	p0 := cf.pass(cf.project, q, uuid.New(), sightline.EngineChatGPT, 0, 2, cf.day.Add(9*time.Hour))
	p0.ResponseText = "Rival, then Acme, then Foo."
	p0.Mentions = []olap.Mention{
		matchesMention("Rival", tracked, &rival, 1, cmpr, neu, direct),
		matchesMention("Acme", own, nil, 2, rec, pos, direct),
		matchesMention("Foo", untracked, nil, 3, list, neg, cond),
	}
	p0.Citations = []olap.Citation{{Position: 1, URL: "https://acme.com/", Domain: "acme.com", Relation: own},
		{Position: 2, URL: "https://news.example/", Domain: "news.example"}}
	p1 := cf.pass(cf.project, q, p0.RunID, sightline.EngineChatGPT, 1, 2, cf.day.Add(9*time.Hour))
	p1.ResponseText = "Acme."
	p1.Mentions = []olap.Mention{matchesMention("Acme", own, nil, 1, rec, neu, direct)}
	p1.Citations = []olap.Citation{{Position: 1, URL: "https://rival.example/", Domain: "rival.example",
		Relation: tracked, CompetitorID: &rival}}
	later := cf.pass(cf.project, q, uuid.New(), sightline.EngineChatGPT, 0, 1, cf.day.Add(33*time.Hour))
	later.ResponseText = "=Evil and Acme."
	later.Mentions = []olap.Mention{
		matchesMention("=Evil", untracked, nil, 1, rec, pos, direct),
		matchesMention("Acme", own, nil, 2, list, neu, cond),
	}
	// Mentions of other queries never show.
	elsewhere := cf.pass(cf.project, other, uuid.New(), sightline.EnginePerplexity, 0, 1, cf.day.Add(10*time.Hour))
	elsewhere.Mentions = []olap.Mention{matchesMention("Acme", own, nil, 1, rec, pos, direct)}
	cf.insert(p0, p1, later, elsewhere)

	var all []olap.MentionMatch
	for _, p := range []olap.PassRows{p0, p1, later} {
		for i := range p.Mentions {
			all = append(all, matchesExpected(p, i))
		}
	}
	at := func(m olap.MentionMatch) time.Time { return m.DetectedAt.Time }
	id := func(m olap.MentionMatch) uuid.UUID { return m.ID }
	desc := capturesSorted(all, at, id, false)
	asc := capturesSorted(all, at, id, true)
	base := cf.path("/tracked-queries/" + q.String() + "/mention-matches")
	dayText := cf.day.Format(time.DateOnly)

	for _, tt := range []struct {
		name  string
		query string
		want  []olap.MentionMatch
		total int
	}{
		{"newest first, ties by id", "", desc, 6},
		{"oldest first", capturesQuery("sortOrder", "asc"), asc, 6},
		{"paging", capturesQuery("limit", "2", "offset", "3"), desc[3:5], 6},
		{"paging oldest first", capturesQuery("sortOrder", "asc", "limit", "4", "offset", "4"), asc[4:], 6},
		{"one day", capturesQuery("dateFrom", dayText, "dateTo", dayText), capturesSorted(all[:4], at, id, false), 4},
		{"from the floor explicitly", capturesQuery("dateFrom", captureRetentionFloor(time.Now()).Format(time.DateOnly)), desc, 6},
	} {
		t.Run(tt.name, func(t *testing.T) {
			l := capturesPage[olap.MentionMatch](t, cf.get(base+tt.query))
			if l.Total != tt.total {
				t.Fatalf("total %d, want %d", l.Total, tt.total)
			}
			if got, want := capturesJSON(t, l.Page), capturesJSON(t, tt.want); !reflect.DeepEqual(got, want) {
				t.Fatalf("page\n%v\nwant\n%v", got, want)
			}
		})
	}

	t.Run("record shape", func(t *testing.T) {
		l := capturesPage[map[string]any](t, cf.get(base+capturesQuery("sortOrder", "asc")))
		var rivalRow map[string]any
		for _, row := range l.Page {
			if row["brandName"] == "Rival" {
				rivalRow = row
			}
		}
		want := map[string]any{
			"id": p0.MentionID(0).String(), "aiResponseId": p0.CaptureID().String(),
			"detectedAt": p0.CapturedAt.Format(sightline.TimestampLayout), "engine": "chatgpt", "brandName": "Rival",
			"competitorId": rival.String(), "mentionRelation": "tracked-competitor", "mentionPosition": 1.0,
			"mentionType": "comparison", "sentiment": "neutral", "qualifier": "direct", "mentionText": "Rival is named here.",
		}
		if !reflect.DeepEqual(rivalRow, want) {
			t.Fatalf("record\n%v\nwant\n%v", rivalRow, want)
		}
	})

	t.Run("csv", func(t *testing.T) {
		r := cf.do(call{method: http.MethodGet, path: base + capturesQuery("limit", "2"), key: cf.owner.key,
			header: map[string]string{"Accept": "text/csv"}})
		records := matchesCSV(t, r)
		header := []string{"id", "aiResponseId", "detectedAt", "engine", "brandName", "competitorId", "mentionRelation",
			"mentionPosition", "mentionType", "sentiment", "qualifier", "mentionText"}
		if len(records) != 3 || !slices.Equal(records[0], header) {
			t.Fatalf("csv %q", records)
		}
		for i, row := range records[1:] {
			m := desc[i]
			competitor := ""
			if m.CompetitorID != nil {
				competitor = m.CompetitorID.String()
			}
			want := []string{m.ID.String(), m.AIResponseID.String(), m.DetectedAt.String(), string(m.Engine),
				escapeFormula(m.BrandName), competitor, string(m.MentionRelation), strconv.Itoa(m.MentionPosition),
				string(m.MentionType), string(m.Sentiment), string(m.Qualifier), escapeFormula(m.MentionText)}
			if !slices.Equal(row, want) {
				t.Errorf("csv row %d = %q, want %q", i, row, want)
			}
		}
		if !slices.Contains(records[1], "'=Evil") && !slices.Contains(records[2], "'=Evil") {
			t.Errorf("the formula-like brand is not escaped: %q", records)
		}
	})

	t.Run("empty", func(t *testing.T) {
		for _, path := range []string{
			cf.path("/tracked-queries/" + serp.String() + "/mention-matches"),
			base + capturesQuery("dateFrom", "2999-01-01", "dateTo", "2999-12-31"),
		} {
			l := capturesPage[olap.MentionMatch](t, cf.get(path))
			if l.Total != 0 || len(l.Page) != 0 {
				t.Errorf("%s: %+v", path, l)
			}
		}
	})

	t.Run("refusals", func(t *testing.T) {
		for _, query := range []string{theirs.String(), uuid.NewString(), "not-a-uuid"} {
			assertError(t, cf.get(cf.path("/tracked-queries/"+query+"/mention-matches")), http.StatusNotFound,
				sightline.CodeOrganizationNotFound)
		}
		floor := captureRetentionFloor(time.Now())
		capturesExpectDetail(t, cf.get(base+capturesQuery("dateFrom", floor.AddDate(0, 0, -1).Format(time.DateOnly))),
			"dateFrom", "out_of_range")
		capturesExpectDetail(t, cf.get(base+capturesQuery("dateFrom", dayText, "dateTo", cf.day.AddDate(0, 0, -1).Format(time.DateOnly))),
			"dateTo", "out_of_range")
		capturesExpectDetail(t, cf.get(base+capturesQuery("trackedQueryId", q.String())), "trackedQueryId", "unknown_field")
		capturesExpectDetail(t, cf.get(base+capturesQuery("sortBy", "detectedAt")), "sortBy", "unknown_field")
		capturesExpectDetail(t, cf.get(base+capturesQuery("limit", "0")), "limit", "out_of_range")
	})
}

func TestMatchesSerpMatches(t *testing.T) {
	t.Parallel()
	cf := capturesSetup(t)
	s := cf.snapshotData()
	later := cf.pass(cf.project, s.serp1, uuid.New(), sightline.EngineGoogleSERP, 0, 1, cf.day.Add(40*time.Hour))
	later.SearchResults = []olap.SearchResult{
		{Rank: 1, URL: "https://acme.com/", Domain: "acme.com", Title: "Acme", Relation: sightline.RelationOwn},
		{Rank: 2, URL: "https://-rival.example/", Domain: "-rival.example", Title: "Rival",
			Relation: sightline.RelationTrackedCompetitor, CompetitorID: &s.competitor},
		{Rank: 3, URL: "https://news.example/", Domain: "news.example", Title: "News"},
	}
	cf.insert(later)

	type match = olap.SerpMatch
	expected := func(p olap.PassRows, i int) match {
		r := p.SearchResults[i]
		return match{ID: p.SearchResultID(i), SnapshotID: p.CaptureID(), DetectedAt: sightline.Timestamp{Time: p.CapturedAt},
			Rank: r.Rank, URL: r.URL, Domain: r.Domain, CompetitorID: r.CompetitorID}
	}
	// Own and tracked-competitor results only: rank 2 (nobody's) and 4
	// (unresolved) of the early page are not matches.
	all := []match{expected(s.early, 0), expected(s.early, 2), expected(later, 0), expected(later, 1)}
	at := func(m match) time.Time { return m.DetectedAt.Time }
	id := func(m match) uuid.UUID { return m.ID }
	desc := capturesSorted(all, at, id, false)
	base := cf.path("/tracked-queries/" + s.serp1.String() + "/serp-matches")

	for _, tt := range []struct {
		name  string
		query string
		want  []match
		total int
	}{
		{"newest first", "", desc, 4},
		{"oldest first", capturesQuery("sortOrder", "asc"), capturesSorted(all, at, id, true), 4},
		{"paging", capturesQuery("limit", "1", "offset", "2"), desc[2:3], 4},
		{"window", capturesQuery("dateTo", cf.day.Format(time.DateOnly)), capturesSorted(all[:2], at, id, false), 2},
	} {
		t.Run(tt.name, func(t *testing.T) {
			l := capturesPage[match](t, cf.get(base+tt.query))
			if l.Total != tt.total {
				t.Fatalf("total %d, want %d", l.Total, tt.total)
			}
			if got, want := capturesJSON(t, l.Page), capturesJSON(t, tt.want); !reflect.DeepEqual(got, want) {
				t.Fatalf("page\n%v\nwant\n%v", got, want)
			}
		})
	}

	t.Run("record shape", func(t *testing.T) {
		l := capturesPage[json.RawMessage](t, cf.get(base+capturesQuery("dateTo", cf.day.Format(time.DateOnly), "sortOrder", "asc")))
		var got []map[string]any
		for _, raw := range l.Page {
			var m map[string]any
			if err := json.Unmarshal(raw, &m); err != nil {
				t.Fatal(err)
			}
			got = append(got, m)
		}
		detected := s.early.CapturedAt.Format(sightline.TimestampLayout)
		snapshot := s.early.CaptureID().String()
		want := []map[string]any{
			{"id": s.early.SearchResultID(0).String(), "snapshotId": snapshot, "detectedAt": detected, "rank": 1.0,
				"url": "https://rival.example/", "domain": "rival.example", "competitorId": s.competitor.String()},
			{"id": s.early.SearchResultID(2).String(), "snapshotId": snapshot, "detectedAt": detected, "rank": 3.0,
				"url": "https://acme.com/", "domain": "acme.com", "competitorId": nil},
		}
		if s.early.SearchResultID(2).String() < s.early.SearchResultID(0).String() {
			want[0], want[1] = want[1], want[0]
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("records\n%v\nwant\n%v", got, want)
		}
	})

	t.Run("csv", func(t *testing.T) {
		records := matchesCSV(t, cf.do(call{method: http.MethodGet, path: base, key: cf.owner.key,
			header: map[string]string{"Accept": "text/csv, application/json;q=0.5"}}))
		header := []string{"id", "snapshotId", "detectedAt", "rank", "url", "domain", "competitorId"}
		if len(records) != 5 || !slices.Equal(records[0], header) {
			t.Fatalf("csv %q", records)
		}
		for i, row := range records[1:] {
			m := desc[i]
			competitor := ""
			if m.CompetitorID != nil {
				competitor = m.CompetitorID.String()
			}
			want := []string{m.ID.String(), m.SnapshotID.String(), m.DetectedAt.String(), strconv.Itoa(m.Rank), m.URL,
				escapeFormula(m.Domain), competitor}
			if !slices.Equal(row, want) {
				t.Errorf("csv row %d = %q, want %q", i, row, want)
			}
		}
		if !slices.ContainsFunc(records, func(row []string) bool { return slices.Contains(row, "'-rival.example") }) {
			t.Errorf("the formula-like domain is not escaped: %q", records)
		}
	})

	t.Run("other queries and refusals", func(t *testing.T) {
		ai := cf.query(cf.project, sightline.EngineChatGPT, "best crm")
		if l := capturesPage[match](t, cf.get(cf.path("/tracked-queries/"+ai.String()+"/serp-matches"))); l.Total != 0 {
			t.Errorf("serp matches of an AI query: %+v", l)
		}
		if l := capturesPage[match](t, cf.get(cf.path("/tracked-queries/"+s.serp2.String()+"/serp-matches"))); l.Total != 1 ||
			l.Page[0].ID != s.other.SearchResultID(0) || l.Page[0].CompetitorID != nil {
			t.Errorf("serp matches of the second query: %+v", l)
		}
		for _, query := range []string{s.siblingSerp.String(), uuid.NewString(), "not-a-uuid"} {
			assertError(t, cf.get(cf.path("/tracked-queries/"+query+"/serp-matches")), http.StatusNotFound,
				sightline.CodeOrganizationNotFound)
		}
		floor := captureRetentionFloor(time.Now())
		capturesExpectDetail(t, cf.get(base+capturesQuery("dateFrom", floor.AddDate(0, 0, -1).Format(time.DateOnly))),
			"dateFrom", "out_of_range")
		capturesExpectDetail(t, cf.get(base+capturesQuery("dateTo", "2025-02-30")), "dateTo", "invalid_value")
	})
}
