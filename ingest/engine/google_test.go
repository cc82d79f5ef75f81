package engine

import "testing"

func TestOfferCurrency(t *testing.T) {
	t.Parallel()
	cases := []struct{ display, country, want string }{
		{"$829.00", "US", "USD"},
		{"$32.89", "CA", "CAD"},
		{"$1,299", "AU", "AUD"},
		{"$12", "DE", "USD"},
		{"CA$12.00", "US", "CAD"},
		{"US$30.00 to US$899.99", "PE", "USD"},
		{"R$ 1.299,00", "BR", "BRL"},
		{"12,99 €", "FR", "EUR"},
		{"€12", "US", "EUR"},
		{"£9.99", "GB", "GBP"},
		{"₹1,499", "IN", "INR"},
		{"12,00 EUR", "US", "EUR"},
		{"CHF 89.–", "CH", "CHF"},
		{"¥1,200", "JP", "JPY"},
		{"¥1,200", "CN", "CNY"},
		{"¥98", "US", "JPY"},
		{"1.299 kr", "DK", "DKK"},
		{"1 299 kr", "SE", "SEK"},
		{"S/ 120.00", "PE", "PEN"},
		{"129,90 zł", "PL", "PLN"},
		{"", "MX", "MXN"},
		{"12.00", "ZZ", ""},
	}
	for _, tc := range cases {
		if got := offerCurrency(tc.display, tc.country); got != tc.want {
			t.Errorf("offerCurrency(%q, %q) = %q, want %q", tc.display, tc.country, got, tc.want)
		}
	}
}

func TestGoogleCodes(t *testing.T) {
	t.Parallel()
	countries := map[string]string{"US": "us", "GB": "uk", "PE": "pe", "": ""}
	for in, want := range countries {
		if got := googleCountry(in); got != want {
			t.Errorf("googleCountry(%q) = %q, want %q", in, got, want)
		}
	}
	languages := []struct{ locale, country, hl, dfs string }{
		{"es", "PE", "es", "es"},
		{"", "FR", "", "en"},
		{"zh", "CN", "zh-CN", "zh-CN"},
		{"zh", "HK", "zh-TW", "zh-TW"},
		{"he", "IL", "iw", "he"},
		{"nb", "NO", "no", "nb"},
		{"EN", "US", "en", "en"},
		{"jv", "ID", "jw", "jv"},
	}
	for _, tc := range languages {
		if got := googleLanguage(tc.locale, tc.country); got != tc.hl {
			t.Errorf("googleLanguage(%q, %q) = %q, want %q", tc.locale, tc.country, got, tc.hl)
		}
		if got := dataForSEOLanguage(tc.locale, tc.country); got != tc.dfs {
			t.Errorf("dataForSEOLanguage(%q, %q) = %q, want %q", tc.locale, tc.country, got, tc.dfs)
		}
	}
	locations := map[string]int{"US": 2840, "GB": 2826, "PE": 2604, "DE": 2276, "CA": 2124, "IN": 2356}
	for country, want := range locations {
		if got, ok := dataForSEOLocation(country); !ok || got != want {
			t.Errorf("dataForSEOLocation(%q) = %d, %v; want %d", country, got, ok, want)
		}
	}
}

func TestIsGoogleSearchLink(t *testing.T) {
	t.Parallel()
	cases := map[string]bool{
		"https://www.google.com/search?q=Ruby+on+Rails":      true,
		"https://www.google.co.uk/search?q=x":                true,
		"https://google.de/search?q=x":                       true,
		"https://www.google.com/searchviewer/10?svid=x":      false,
		"https://www.google.com/url?url=https://example.com": false,
		"https://www.reuters.com/search?q=x":                 false,
		"https://googleblog.example/search":                  false,
		"://not a url":                                       false,
	}
	for u, want := range cases {
		if got := isGoogleSearchLink(u); got != want {
			t.Errorf("isGoogleSearchLink(%q) = %v, want %v", u, got, want)
		}
	}
}
