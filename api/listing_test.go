package api

import (
	"encoding/csv"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/sightline/sightline"
)

func TestOrganizationListing(t *testing.T) {
	t.Parallel()
	f := setup(t)
	u := f.user()
	names := []string{"Beta Corp", "alpha labs", "Gamma_Inc", "=HYPERLINK(\"x\")", "-minus co", "@at home", "+plus ltd"}
	for _, n := range names {
		f.org(u, n)
		time.Sleep(2 * time.Millisecond) // distinct createdAt for the default order
	}
	u = f.keyFor(u, nil)
	list := func(query string) map[string]any {
		r := f.do(call{method: "GET", path: "/api/v1/organizations" + query, key: u.key})
		if r.status != http.StatusOK {
			t.Fatalf("%s: %d %s", query, r.status, r.body)
		}
		return r.json(t)
	}
	pageNames := func(m map[string]any) []string {
		var out []string
		for _, row := range m["page"].([]any) {
			out = append(out, row.(map[string]any)["name"].(string))
		}
		return out
	}

	tests := []struct {
		query string
		names []string
		total float64
	}{
		{"", []string{"+plus ltd", "@at home", "-minus co", "=HYPERLINK(\"x\")", "Gamma_Inc", "alpha labs", "Beta Corp"}, 7},
		{"?limit=2&offset=1", []string{"@at home", "-minus co"}, 7},
		{"?offset=50", nil, 7},
		{"?sortBy=name&sortOrder=asc&limit=3", []string{"+plus ltd", "-minus co", "=HYPERLINK(\"x\")"}, 7},
		{"?search=LABS", []string{"alpha labs"}, 1},
		{"?search=a_i", []string{"Gamma_Inc"}, 1},
		{"?status=archived", nil, 0},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			m := list(tt.query)
			if got := pageNames(m); strings.Join(got, "|") != strings.Join(tt.names, "|") {
				t.Errorf("page = %q, want %q", got, tt.names)
			}
			if m["total"] != tt.total {
				t.Errorf("total = %v, want %v", m["total"], tt.total)
			}
		})
	}

	t.Run("csv", func(t *testing.T) {
		r := f.do(call{method: "GET", path: "/api/v1/organizations?sortBy=name&sortOrder=asc", key: u.key,
			header: map[string]string{"Accept": "text/csv"}})
		if r.status != 200 || !strings.HasPrefix(r.header.Get("Content-Type"), "text/csv") {
			t.Fatalf("%d %s: %s", r.status, r.header.Get("Content-Type"), r.body)
		}
		records, err := csv.NewReader(strings.NewReader(string(r.body))).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		if strings.Join(records[0], ",") != "id,name,description,contactEmail,imageUrl,status,createdAt" {
			t.Fatalf("header = %v", records[0])
		}
		var got []string
		for _, rec := range records[1:] {
			got = append(got, rec[1])
		}
		want := []string{"'+plus ltd", "'-minus co", "'=HYPERLINK(\"x\")", "'@at home", "alpha labs", "Beta Corp", "Gamma_Inc"}
		if strings.Join(got, "|") != strings.Join(want, "|") {
			t.Fatalf("names = %q, want %q", got, want)
		}
		if strings.Contains(string(r.body), "total") {
			t.Fatal("csv carries a total")
		}
	})
	t.Run("json preferred when ranked higher", func(t *testing.T) {
		r := f.do(call{method: "GET", path: "/api/v1/organizations", key: u.key,
			header: map[string]string{"Accept": "application/json, text/csv;q=0.5"}})
		if !strings.HasPrefix(r.header.Get("Content-Type"), "application/json") {
			t.Fatalf("content type %s", r.header.Get("Content-Type"))
		}
	})
}

type csvRow struct {
	ID     uuid.UUID           `json:"id"`
	Names  []string            `json:"names"`
	Note   *string             `json:"note"`
	Rank   *int                `json:"rank"`
	Score  float64             `json:"score"`
	At     sightline.Timestamp `json:"at"`
	hidden string
}

func TestCSVEncoding(t *testing.T) {
	t.Parallel()
	note := "-1+1"
	rank := 3
	id := uuid.MustParse("0193a7e4-0000-7000-8000-000000000001")
	at := sightline.Timestamp{Time: time.Date(2026, 11, 23, 8, 30, 0, 5e6, time.FixedZone("x", 3600))}
	tests := []struct {
		name string
		rows []csvRow
		want string
	}{
		{"header only", nil, "id,names,note,rank,score,at\n"},
		{"values", []csvRow{{ID: id, Names: []string{"a", "b, c"}, Note: &note, Rank: &rank, Score: 1.5, At: at}},
			"id,names,note,rank,score,at\n" + id.String() + `,"a; b, c",'-1+1,3,1.5,2026-11-23T07:30:00.005Z` + "\n"},
		{"nulls and formulas", []csvRow{{Names: []string{"=cmd", "@x"}, Score: -2}},
			"id,names,note,rank,score,at\n00000000-0000-0000-0000-000000000000,'=cmd; @x,,,'-2,0001-01-01T00:00:00.000Z\n"},
		{"tab and carriage return", []csvRow{{Names: []string{"\t=1+1"}, Note: ptr("\r=HYPERLINK(\"x\")")}},
			"id,names,note,rank,score,at\n00000000-0000-0000-0000-000000000000,'\t=1+1,\"'\r=HYPERLINK(\"\"x\"\")\",,0,0001-01-01T00:00:00.000Z\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := encodeCSV(listing[csvRow]{Page: tt.rows})
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Fatalf("got\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

func TestNegotiate(t *testing.T) {
	t.Parallel()
	tests := []struct {
		accept string
		csv    bool
		want   string
	}{
		{"", true, mediaJSON},
		{"text/csv", true, mediaCSV},
		{"application/json", true, mediaJSON},
		{"*/*", true, mediaJSON},
		{"text/csv, application/json", true, mediaCSV},
		{"application/json;q=0.9, text/csv", true, mediaCSV},
		{"text/csv;q=0.1, */*", true, mediaJSON},
		{"text/csv;q=0", true, mediaJSON},
		{"text/csv;q=0, */*", true, mediaJSON},
		{"text/*", true, mediaCSV},
		{"application/*, text/csv;q=0.5", true, mediaJSON},
		{"text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8", true, mediaJSON},
		{"application/xml", true, mediaJSON},
		{"text/csv", false, mediaJSON},
		{"text/*", false, mediaJSON},
		{"application/json;q=0", false, mediaJSON},
		{"application/json;q=0, */*", false, mediaJSON},
		{"*/*", false, mediaJSON},
		{"garbage", false, mediaJSON},
	}
	for _, tt := range tests {
		if got := negotiate(tt.accept, tt.csv); got != tt.want {
			t.Errorf("negotiate(%q, csv %v) = %q; want %q", tt.accept, tt.csv, got, tt.want)
		}
	}
}

// An operation asked only for a representation it does not serve answers
// JSON all the same: the contract has no 406.
func TestUnservedAcceptIsAnsweredJSON(t *testing.T) {
	t.Parallel()
	f := setup(t, setupOptions{mount: mountNotes(t, nil)})
	m, org := f.owner()
	for _, c := range []call{
		{method: "GET", path: "/api/v1/me", key: m.key, header: map[string]string{"Accept": "text/csv"}},
		{method: "GET", path: "/api/v1/organizations", key: m.key, header: map[string]string{"Accept": "application/xml"}},
		{method: "GET", path: "/api/v1/doc/json", header: map[string]string{"Accept": "text/html"}},
	} {
		if r := f.do(c); r.status != http.StatusOK || !strings.HasPrefix(r.header.Get("Content-Type"), "application/json") {
			t.Errorf("%s %s: %d %s", c.method, c.path, r.status, r.header.Get("Content-Type"))
		}
	}
	r := f.do(call{method: "POST", path: "/api/v1/organizations/" + org.String() + "/test-notes", key: m.key,
		body: `{"text":"hi"}`, header: map[string]string{"Idempotency-Key": "accept-key-1", "Accept": "text/csv"}})
	if r.status != http.StatusCreated || r.header.Get("Content-Type") != "application/json" {
		t.Fatalf("%d %s %s", r.status, r.header.Get("Content-Type"), r.body)
	}
}
