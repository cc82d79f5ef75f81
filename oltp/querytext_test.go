package oltp_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/sightline/sightline/oltp"
)

func TestNormalizeQueryText(t *testing.T) {
	t.Parallel()
	cases := []struct{ name, in, want string }{
		{"lower-cased", "Best CRM Software", "best crm software"},
		{"white space collapsed", "  best \t crm\n\nsoftware  ", "best crm software"},
		{"unicode white space", "best\u00a0crm\u3000software\u2003tools", "best crm software tools"},
		{"control characters are separators", "best\x00crm\x1fsoftware", "best crm software"},
		{"zero-width characters removed", "be\u200bst c\ufeffrm", "best crm"},
		{"numbered marker", "1. best crm", "best crm"},
		{"numbered marker with parenthesis", "12) best crm", "best crm"},
		{"three-digit marker", "100. best crm", "best crm"},
		{"four digits are a word", "2024. best crm", "2024. best crm"},
		{"dash marker", "- best crm", "best crm"},
		{"star marker", "* best crm", "best crm"},
		{"plus marker", "+ best crm", "best crm"},
		{"bullet marker", "• best crm", "best crm"},
		{"bullet glued to the word", "•best crm", "best crm"},
		{"en and em dashes", "– best — crm", "best — crm"},
		{"markers stripped repeatedly", "1. - • best crm", "best crm"},
		{"decimal number kept", "1.5 litre bottles", "1.5 litre bottles"},
		{"leading minus kept", "-20% off shoes", "-20% off shoes"},
		{"inner markers kept", "crm - best 1. pick", "crm - best 1. pick"},
		{"arabic-indic digits", "١. أفضل برنامج", "أفضل برنامج"},
		{"only markers", " 1. - ", ""},
		{"empty", "", ""},
		{"decomposed accent composes", "Cafe\u0301", "caf\u00e9"},
		{"precomposed accent", "CAF\u00c9", "caf\u00e9"},
		{"greek", "ΚΑΛΎΤΕΡΟ CRM", "καλύτερο crm"},
		{"cyrillic", "Лучшая CRM", "лучшая crm"},
		{"dotted capital I", "\u0130stanbul", "i\u0307stanbul"},
		{"dotted capital I decomposed", "I\u0307stanbul", "i\u0307stanbul"},
		{"invalid utf-8", "crm\xffsoft", "crm\ufffdsoft"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			if got := oltp.NormalizeQueryText(c.in); got != c.want {
				t.Fatalf("NormalizeQueryText(%q) = %q, want %q", c.in, got, c.want)
			}
		})
	}
}

func TestNormalizeSearchTextKeepsMarkers(t *testing.T) {
	t.Parallel()
	if got := oltp.NormalizeSearchText("  1. Best\tCRM "); got != "1. best crm" {
		t.Fatalf("got %q", got)
	}
}

// FuzzNormalizeQueryText checks that normalising twice changes nothing,
// that the result is clean, and that texts differing only in what the
// normalisation removes (case of ASCII letters, white space, list markers)
// normalise equal, that is collide as one tracked query.
func FuzzNormalizeQueryText(f *testing.F) {
	for _, seed := range []string{
		"Best CRM", "1. best crm", "•best", " - * 12) x", "Cafe\u0301", "\u0130I\u0307", "ǅemal",
		"ﬃ ligature", "ß STRASSE", "\u00a0\u3000", "crm\xff", "a\u200b\u0301", "Σίσυφος ΣΑΣ", "-",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n := oltp.NormalizeQueryText(s)
		if again := oltp.NormalizeQueryText(n); again != n {
			t.Fatalf("not idempotent: %q -> %q -> %q", s, n, again)
		}
		if !utf8.ValidString(n) || n != strings.TrimSpace(n) || strings.Contains(n, "  ") {
			t.Fatalf("unclean result %q from %q", n, s)
		}
		variant := "1. \t" + strings.ReplaceAll(asciiUpper(s), " ", " \n\u00a0") + "  "
		if got := oltp.NormalizeQueryText(variant); got != n {
			t.Fatalf("%q and %q normalise apart: %q vs %q", s, variant, n, got)
		}
	})
}

func asciiUpper(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' {
			return r - 'a' + 'A'
		}
		return r
	}, s)
}
