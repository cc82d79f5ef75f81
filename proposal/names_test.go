package proposal

import (
	"reflect"
	"strings"
	"testing"
	"unicode"
)

func TestSuggestBrandNames(t *testing.T) {
	t.Parallel()
	names := func(s []NameSuggestion) []string {
		out := []string{}
		for _, n := range s {
			out = append(out, n.Name)
		}
		return out
	}
	cases := []struct {
		name    string
		domains []string
		entered []string
		country string
		want    []string
	}{
		{"HubSpot", []string{"hubspot.com"}, nil, "",
			[]string{"HubSpot", "Hub Spot", "hubspot.com"}},
		{"Acme CRM", []string{"www.acmecrm.com", "app.acme.io"}, []string{"acme crm"}, "US",
			[]string{"AcmeCRM", "Acme-CRM", "Acme", "Acme Inc.", "acmecrm.com", "app.acme.io", "acme.io"}},
		{"Globex", []string{"getglobex.co.uk"}, []string{"Globex"}, "GB",
			[]string{"Globex Ltd", "getglobex.co.uk"}},
		{"Blue-Fox Labs", []string{"bluefoxlabs.com"}, nil, "DE",
			[]string{"Blue-Fox Labs", "Blue Fox Labs", "BlueFoxLabs", "Blue-Fox", "Blue-Fox GmbH", "bluefoxlabs.com"}},
		{"Initech", []string{"initech-software.de"}, nil, "",
			[]string{"Initech", "initech-software.de", "Initech Software", "InitechSoftware"}},
		{"The Coca-Cola Company", []string{"coca-cola.com"}, nil, "US",
			[]string{"The Coca-Cola Company", "Coca-Cola Company", "Coca Cola Company", "CocaColaCompany", "Coca-Cola",
				"Coca-Cola Inc.", "coca-cola.com", "CocaCola"}},
		{"monday.com WorkOS", []string{"monday.com"}, nil, "",
			[]string{"monday.com WorkOS", "monday.com Work OS", "monday.com", "Monday"}},
	}
	for _, c := range cases {
		got := names(SuggestBrandNames(c.name, c.domains, c.entered, c.country))
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s %v: got %q, want %q", c.name, c.domains, got, c.want)
		}
	}
}

// TestSuggestBrandNamesShapes checks properties every suggestion has,
// whatever the name: no leading article once the name has one, and no
// word glued to a domain.
func TestSuggestBrandNamesShapes(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"The Coca-Cola Company", "The Home Depot", "monday.com WorkOS", "A Cloud Guru Ltd"} {
		for _, s := range SuggestBrandNames(name, []string{"example.com"}, nil, "US") {
			if s.Reason != "name" && articles[strings.ToLower(strings.Fields(s.Name)[0])] {
				t.Errorf("%q: %q keeps the article", name, s.Name)
			}
			if s.Reason != "name" && s.Reason != "domain" && strings.Contains(s.Name, ".") && !strings.Contains(s.Name, " ") &&
				strings.ContainsFunc(s.Name, unicode.IsUpper) {
				t.Errorf("%q: %q glues a domain to a word", name, s.Name)
			}
		}
	}
}
