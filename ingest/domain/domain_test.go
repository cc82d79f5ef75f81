package domain_test

import (
	"testing"

	"github.com/sightline/sightline/ingest/domain"
)

func TestNormalize(t *testing.T) {
	t.Parallel()
	cases := []struct {
		in, want string
		ok       bool
	}{
		{"acme.com", "acme.com", true},
		{"Acme.COM", "acme.com", true},
		{"www.acme.com", "acme.com", true},
		{"https://www.Acme.com:8443/pricing?x=1#top", "acme.com", true},
		{"http://user:pw@www.acme.com/", "acme.com", true},
		{"//cdn.acme.com/x", "cdn.acme.com", true},
		{"acme.com/path", "acme.com", true},
		{"acme.com.", "acme.com", true},
		{"  blog.acme.com  ", "blog.acme.com", true},
		{"www.www.acme.com", "acme.com", true},
		{"shop.www.acme.com", "shop.www.acme.com", true},
		{"www.com", "www.com", true},
		{"www.www.com", "www.com", true},
		{"www.", "www", true},
		{"https://ÉCOLE.fr/", "école.fr", true},
		{"https://sundhn%C3%BAkur.is/", "sundhnúkur.is", true},
		{"", "", false},
		{"https://", "", false},
		{"http://[::1]:8080/", "", false},
		{"acme..com", "", false},
		{"a b.com", "", false},
	}
	for _, tc := range cases {
		got, ok := domain.Normalize(tc.in)
		if got != tc.want || ok != tc.ok {
			t.Errorf("Normalize(%q) = %q, %v; want %q, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

func TestHost(t *testing.T) {
	t.Parallel()
	cases := map[string]string{
		"https://user@Acme.com:8443/pricing?x=1": "Acme.com",
		"//cdn.acme.com/x":                       "cdn.acme.com",
		"acme.com#top":                           "acme.com",
		"http://acme.com\\evil":                  "acme.com",
		"not a scheme://acme.com":                "not a scheme",
	}
	for in, want := range cases {
		if got := domain.Host(in); got != want {
			t.Errorf("Host(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestMatches(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		host, domain string
		want         bool
	}{
		{"acme.com", "acme.com", true},
		{"blog.acme.com", "acme.com", true},
		{"notacme.com", "acme.com", false},
		{"acme.com.au", "acme.com", false},
		{"help.docs.acme.com", "docs.acme.com", true},
		{"blog.acme.com", "docs.acme.com", false},
	} {
		if got := domain.Matches(tc.host, tc.domain); got != tc.want {
			t.Errorf("Matches(%q, %q) = %v", tc.host, tc.domain, got)
		}
	}
}

func FuzzNormalize(f *testing.F) {
	for _, s := range []string{"https://www.Acme.com:8443/x", "www.www.com", "%41cme.com", "//a@b:1/c", "ÉCOLE.fr."} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, ok := domain.Normalize(s)
		if !ok {
			return
		}
		again, ok2 := domain.Normalize(d)
		if !ok2 || again != d {
			t.Errorf("Normalize(%q) = %q, but Normalize(%q) = %q, %v", s, d, d, again, ok2)
		}
	})
}
