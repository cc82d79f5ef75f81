package oltp_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/sightline/sightline"
	"github.com/sightline/sightline/oltp"
)

func TestNormalizeDomain(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in, want string // want "" means refused
	}{
		{"example.com", "example.com"},
		{"  Example.COM  ", "example.com"},
		{"www.example.com", "example.com"},
		{"WWW.Example.com.", "example.com"},
		{"www.www.example.com", "example.com"},
		{"www.com", "www.com"},
		{"www.www.com", "www.com"},
		{"shop.www.example.com", "shop.www.example.com"},
		{"https://www.example.com/path?q=1#top", "example.com"},
		{"http://example.com:8080", "example.com"},
		{"HTTPS://Sub.Example.co.uk/", "sub.example.co.uk"},
		{"example.com:443/pricing", "example.com"},
		{"https://user:pw@example.com/", ""},
		{"someone@example.com", ""},
		{"xn--mnchen-3ya.de", "xn--mnchen-3ya.de"},
		{"a-b.example", "a-b.example"},
		{"", ""},
		{"   ", ""},
		{"localhost", ""},
		{"http://localhost:8080", ""},
		{"192.168.0.1", ""},
		{"http://[::1]/", ""},
		{"ftp://example.com", ""},
		{"mailto:someone@example.com", ""},
		{"exa mple.com", ""},
		{"under_score.example.com", ""},
		{"-lead.example.com", ""},
		{"trail-.example.com", ""},
		{"a..b.com", ""},
		{"münchen.de", ""},
		{"example.com:port", ""},
		{"https://", ""},
		{strings.Repeat("a", 64) + ".com", ""},
		{strings.Repeat("abcdefghi.", 26) + "com", ""},
	}
	for _, tt := range tests {
		got, err := oltp.NormalizeDomain(tt.in)
		if tt.want == "" {
			if err == nil {
				t.Errorf("NormalizeDomain(%q) = %q, want a refusal", tt.in, got)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("NormalizeDomain(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
}

func TestNormalizeDomainsCollapsesAndReportsIndexes(t *testing.T) {
	t.Parallel()
	errs := sightline.ValidationErrors{}
	got := oltp.NormalizeDomains("websiteDomains",
		[]string{"https://www.Acme.com/", "shop.acme.com", "bad host", "acme.com", "ACME.COM:80", "localhost"}, errs)
	if want := []string{"acme.com", "shop.acme.com"}; !slices.Equal(got, want) {
		t.Errorf("domains = %q, want %q", got, want)
	}
	if len(errs) != 2 || errs["websiteDomains[2]"][0].Code != sightline.DetailInvalidValue ||
		errs["websiteDomains[5]"][0].Code != sightline.DetailInvalidValue {
		t.Errorf("errors = %v, want invalid_value at [2] and [5]", errs)
	}
}

func TestNormalizeBrandNames(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		in, want []string
		errs     map[string]sightline.DetailCode
	}{
		{"trimmed", []string{"  Acme ", "Acme Corp"}, []string{"Acme", "Acme Corp"}, nil},
		{"case-insensitive duplicates keep the first spelling", []string{"ACME", "acme", " Acme", "Beta"}, []string{"ACME", "Beta"}, nil},
		{"unicode folding", []string{"Straße", "STRASSE", "straße", "ǅemal", "ǆemal"}, []string{"Straße", "STRASSE", "ǅemal"}, nil},
		{"blank", []string{"Acme", " \t"}, []string{"Acme"}, map[string]sightline.DetailCode{"brandNames[1]": sightline.DetailOutOfRange}},
		{"too long", []string{strings.Repeat("é", 256), strings.Repeat("é", 255)}, []string{strings.Repeat("é", 255)},
			map[string]sightline.DetailCode{"brandNames[0]": sightline.DetailOutOfRange}},
		{"control characters", []string{"Ac\x00me", "Ac\nme"}, []string{},
			map[string]sightline.DetailCode{"brandNames[0]": sightline.DetailInvalidValue, "brandNames[1]": sightline.DetailInvalidValue}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			errs := sightline.ValidationErrors{}
			got := oltp.NormalizeBrandNames("brandNames", tt.in, errs)
			if !slices.Equal(got, tt.want) {
				t.Errorf("names = %q, want %q", got, tt.want)
			}
			if len(errs) != len(tt.errs) {
				t.Fatalf("errors = %v, want %v", errs, tt.errs)
			}
			for field, code := range tt.errs {
				if d := errs[field]; len(d) != 1 || d[0].Code != code {
					t.Errorf("%s: %v, want %s", field, d, code)
				}
			}
		})
	}
}

func FuzzNormalizeDomain(f *testing.F) {
	for _, seed := range []string{"example.com", "https://WWW.Example.com:8080/a?b#c", "www.www.com", "www.com",
		"localhost", "1.2.3.4", "xn--bcher-kva.ch", "http://[::1]", "a.b.c.d.e", "WWW.", "http://www.x.io/"} {
		f.Add(seed, "www."+seed)
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		na, errA := oltp.NormalizeDomain(a)
		if errA == nil {
			again, err := oltp.NormalizeDomain(na)
			if err != nil || again != na {
				t.Fatalf("not idempotent: %q -> %q -> %q, %v", a, na, again, err)
			}
			if na != strings.ToLower(na) || strings.ContainsAny(na, ":/?#@ ") {
				t.Fatalf("%q -> %q is not a bare lower-case host", a, na)
			}
		}
		nb, errB := oltp.NormalizeDomain(b)
		errs := sightline.ValidationErrors{}
		list := oltp.NormalizeDomains("d", []string{a, b}, errs)
		if (errA != nil) != (errs["d[0]"] != nil) || (errB != nil) != (errs["d[1]"] != nil) {
			t.Fatalf("list errors %v disagree with single errors %v, %v", errs, errA, errB)
		}
		if errA == nil && errB == nil {
			// Equal normalised values collide into one entry, the first.
			if collide := na == nb; collide != (len(list) == 1) || list[0] != na {
				t.Fatalf("%q, %q -> %q, %q collapsed to %q", a, b, na, nb, list)
			}
		}
		again := oltp.NormalizeDomains("d", list, sightline.ValidationErrors{})
		if !slices.Equal(again, list) {
			t.Fatalf("list not idempotent: %q -> %q", list, again)
		}
	})
}

func FuzzNormalizeBrandNames(f *testing.F) {
	for _, seed := range []string{"Acme", " acme ", "ACME", "Straße", "STRASSE", "ǅ", "\t", "K", "\u212a"} {
		f.Add(seed, strings.ToUpper(seed))
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		errs := sightline.ValidationErrors{}
		list := oltp.NormalizeBrandNames("n", []string{a, b}, errs)
		na, errA := oltp.NormalizeBrandName(a)
		nb, errB := oltp.NormalizeBrandName(b)
		if (errA != nil) != (errs["n[0]"] != nil) || (errB != nil) != (errs["n[1]"] != nil) {
			t.Fatalf("list errors %v disagree with single errors %v, %v", errs, errA, errB)
		}
		if errA == nil {
			if again, err := oltp.NormalizeBrandName(na); err != nil || again != na {
				t.Fatalf("not idempotent: %q -> %q -> %q, %v", a, na, again, err)
			}
		}
		if errA == nil && errB == nil {
			same := strings.EqualFold(na, nb)
			if same != (oltp.FoldKey(na) == oltp.FoldKey(nb)) {
				t.Fatalf("FoldKey disagrees with EqualFold on %q, %q", na, nb)
			}
			if same != (len(list) == 1) || list[0] != na {
				t.Fatalf("%q, %q -> %q collapsed to %q", a, b, []string{na, nb}, list)
			}
		}
		again := oltp.NormalizeBrandNames("n", list, sightline.ValidationErrors{})
		if !slices.Equal(again, list) {
			t.Fatalf("list not idempotent: %q -> %q", list, again)
		}
	})
}
