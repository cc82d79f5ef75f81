package engine

import (
	"net/url"
	"strings"
	"unicode"

	"golang.org/x/text/currency"
	"golang.org/x/text/language"
)

// googleCountry is Google's gl code for an ISO 3166-1 alpha-2 country:
// lower case, and "uk" for GB (Google's code for the United Kingdom).
func googleCountry(country string) string {
	c := strings.ToLower(country)
	if c == "gb" {
		return "uk"
	}
	return c
}

// googleLanguage is Google's hl code for an ISO 639-1 locale, where Google
// spells it differently: Chinese by script region, and Google's legacy
// codes for Hebrew, Norwegian Bokmål and Javanese. Empty stays empty.
func googleLanguage(locale, country string) string {
	switch l := strings.ToLower(locale); l {
	case "zh":
		return chineseVariant(country)
	case "he":
		return "iw"
	case "nb":
		return "no"
	case "jv":
		return "jw"
	default:
		return l
	}
}

// chineseVariant is traditional Chinese for Taiwan, Hong Kong and Macao,
// simplified elsewhere.
func chineseVariant(country string) string {
	switch strings.ToUpper(country) {
	case "TW", "HK", "MO":
		return "zh-TW"
	}
	return "zh-CN"
}

// countryCurrency is the ISO 4217 code of the currency a country uses now,
// or "" when it has none or is unknown.
func countryCurrency(country string) string {
	r, err := language.ParseRegion(country)
	if err != nil {
		return ""
	}
	u, ok := currency.FromRegion(r)
	if !ok {
		return ""
	}
	return u.String()
}

// currencySymbols are price prefixes and suffixes that name one currency
// whatever the country; longer symbols come first so "US$" wins over "$".
var currencySymbols = []struct{ symbol, code string }{
	{"US$", "USD"}, {"CA$", "CAD"}, {"AU$", "AUD"}, {"A$", "AUD"}, {"NZ$", "NZD"},
	{"HK$", "HKD"}, {"NT$", "TWD"}, {"MX$", "MXN"}, {"S$", "SGD"}, {"R$", "BRL"},
	{"€", "EUR"}, {"£", "GBP"}, {"₹", "INR"}, {"₩", "KRW"}, {"₺", "TRY"},
	{"₽", "RUB"}, {"₴", "UAH"}, {"₱", "PHP"}, {"₫", "VND"}, {"฿", "THB"},
	{"₪", "ILS"}, {"₦", "NGN"}, {"₸", "KZT"}, {"₡", "CRC"}, {"₲", "PYG"},
	{"৳", "BDT"}, {"₾", "GEL"}, {"₼", "AZN"}, {"zł", "PLN"}, {"Kč", "CZK"},
	{"Ft", "HUF"}, {"lei", "RON"},
}

// dollarCurrencies are the currencies Google writes with a bare "$".
var dollarCurrencies = map[string]bool{
	"USD": true, "CAD": true, "AUD": true, "NZD": true, "SGD": true, "HKD": true, "TWD": true,
	"MXN": true, "ARS": true, "CLP": true, "COP": true, "UYU": true, "DOP": true, "JMD": true,
	"TTD": true, "BSD": true, "BBD": true, "BZD": true, "FJD": true, "NAD": true, "LRD": true,
	"SRD": true, "GYD": true, "XCD": true, "BMD": true, "KYD": true, "SBD": true, "CUP": true,
}

// offerCurrency is the ISO 4217 currency of a displayed price. SerpApi gives
// prices as display strings ("$829.00", "12,99 €") plus a number, never a
// currency code, and "$" is CAD on google.ca and USD on google.com. So: an
// ISO code written in the price wins, then an unambiguous symbol; "$", "¥"
// and everything else fall back to the tracked country's currency ("$"
// outside dollar countries is USD, "¥" is CNY in China and JPY elsewhere).
func offerCurrency(display, country string) string {
	local := countryCurrency(country)
	for _, word := range strings.FieldsFunc(display, func(r rune) bool { return !unicode.IsLetter(r) }) {
		if len(word) == 3 && word == strings.ToUpper(word) {
			if u, err := currency.ParseISO(word); err == nil {
				return u.String()
			}
		}
	}
	for _, s := range currencySymbols {
		if strings.Contains(display, s.symbol) {
			return s.code
		}
	}
	switch {
	case strings.Contains(display, "$"):
		if dollarCurrencies[local] {
			return local
		}
		return "USD"
	case strings.Contains(display, "¥") || strings.Contains(display, "￥"):
		if local == "CNY" {
			return "CNY"
		}
		return "JPY"
	}
	return local
}

// isGoogleSearchLink reports whether u is a Google results page
// (google.<tld>/search?...): AI Overviews link entity names to such pages,
// which are navigation, not sources.
func isGoogleSearchLink(u string) bool {
	p, err := url.Parse(u)
	if err != nil {
		return false
	}
	host := strings.TrimPrefix(strings.ToLower(p.Hostname()), "www.")
	return (host == "google.com" || strings.HasPrefix(host, "google.")) && p.Path == "/search"
}
