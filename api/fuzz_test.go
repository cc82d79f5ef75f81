package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/sightline/sightline"
)

// checkRefusal fails unless err is a client error in the envelope's terms.
func checkRefusal(t *testing.T, err error) {
	t.Helper()
	var e *sightline.Error
	if !errors.As(err, &e) || (e.Code != sightline.CodeBadRequest && e.Code != sightline.CodeValidation) {
		t.Fatalf("refusal is not bad_request or validation_error: %v", err)
	}
	if e.Code == sightline.CodeValidation && len(e.Details) == 0 {
		t.Fatal("validation_error without details")
	}
	for field, problems := range e.Details {
		for _, p := range problems {
			if !slices.Contains(detailCodes, string(p.Code)) || p.Message == "" {
				t.Fatalf("details[%s] has %+v", field, p)
			}
		}
	}
}

func FuzzDecodeBody(f *testing.F) {
	for _, seed := range []string{
		`{"text":"hi"}`, `{"text":"hi","tags":["a","b"],"nested":{"a":1},"size":3,"email":"a@b.co","ref":"0193a7e4-0000-7000-8000-000000000001"}`,
		`{"text":null}`, `{"text":1}`, `[]`, `"x"`, `{"text":"x","extra":{"deep":[1,2]}}`, `{`, ``, `{"nested":{"a":"1","b":null}}`,
		`{"text":"x","tags":[null]}`, `{"text":"\u0000"}`, `{"text":"x","size":1e400}`,
		`{"text":"00","tags":[]}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		got, err := decodeBody[noteBody](body)
		if err != nil {
			checkRefusal(t, err)
			return
		}
		if !json.Valid(body) {
			t.Fatalf("accepted invalid JSON %q", body)
		}
		// What was accepted survives a round trip unchanged, as JSON: the
		// encoding is what a client sees, and it does not tell an empty
		// list that omitempty drops from an absent one.
		again, err := json.Marshal(got)
		if err != nil {
			t.Fatal(err)
		}
		second, err := decodeBody[noteBody](again)
		if err != nil {
			t.Fatalf("re-decoding %s: %v", again, err)
		}
		if third, _ := json.Marshal(second); !bytes.Equal(again, third) {
			t.Fatalf("round trip changed %s into %s", again, third)
		}
	})
}

func FuzzCheckQuery(f *testing.F) {
	for _, seed := range []string{
		"", "limit=5&offset=10", "limit=0", "limit=101", "limit=x", "limit=1&limit=2", "status=archived&sortBy=name",
		"search=%00%ff", "unknown=1", "offset=99999999999999999999", "sortOrder=asc,desc",
	} {
		f.Add(seed)
	}
	params := organizationListParams()
	f.Fuzz(func(t *testing.T, raw string) {
		values, err := url.ParseQuery(raw)
		if err != nil {
			return
		}
		q, err := checkQuery(values, params)
		if err != nil {
			checkRefusal(t, err)
			return
		}
		limit, offset := q.page()
		if limit < 1 || limit > 100 || offset < 0 {
			t.Fatalf("accepted limit %d offset %d from %q", limit, offset, raw)
		}
		if s := q.string("sortBy"); s != "createdAt" && s != "name" {
			t.Fatalf("accepted sortBy %q", s)
		}
	})
}

func FuzzEscapeFormula(f *testing.F) {
	for _, seed := range []string{"", "=1+1", "+x", "-3", "@SUM", "plain", "'=quoted", "\t=1", "\r=1"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, cell string) {
		out := escapeFormula(cell)
		if out != "" && strings.ContainsRune("=+-@\t\r", rune(out[0])) {
			t.Fatalf("escapeFormula(%q) = %q still starts a formula", cell, out)
		}
		if out != cell && out != "'"+cell {
			t.Fatalf("escapeFormula(%q) = %q changed more than a prefix", cell, out)
		}
	})
}
