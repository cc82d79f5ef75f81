package proposal

import (
	"reflect"
	"testing"
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
	}
	for _, c := range cases {
		got := names(SuggestBrandNames(c.name, c.domains, c.entered, c.country))
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s %v: got %q, want %q", c.name, c.domains, got, c.want)
		}
	}
}
