package api

import (
	"strings"

	"github.com/sightline/sightline/oltp"
)

// Countries are ISO 3166-1 alpha-2 codes. Tracked queries store the code;
// country filters (spec 4.0) also take English names: the short name
// below, or a common alternative, matched case-insensitively with white
// space folded and a leading "the" ignored. Names never contain commas, as
// filter values are comma-separated.

// trackedCountryNames maps every officially assigned alpha-2 code to its
// English short name.
var trackedCountryNames = map[string]string{
	"AD": "Andorra", "AE": "United Arab Emirates", "AF": "Afghanistan", "AG": "Antigua and Barbuda",
	"AI": "Anguilla", "AL": "Albania", "AM": "Armenia", "AO": "Angola", "AQ": "Antarctica",
	"AR": "Argentina", "AS": "American Samoa", "AT": "Austria", "AU": "Australia", "AW": "Aruba",
	"AX": "Åland Islands", "AZ": "Azerbaijan", "BA": "Bosnia and Herzegovina", "BB": "Barbados",
	"BD": "Bangladesh", "BE": "Belgium", "BF": "Burkina Faso", "BG": "Bulgaria", "BH": "Bahrain",
	"BI": "Burundi", "BJ": "Benin", "BL": "Saint Barthélemy", "BM": "Bermuda", "BN": "Brunei",
	"BO": "Bolivia", "BQ": "Caribbean Netherlands", "BR": "Brazil", "BS": "Bahamas", "BT": "Bhutan",
	"BV": "Bouvet Island", "BW": "Botswana", "BY": "Belarus", "BZ": "Belize", "CA": "Canada",
	"CC": "Cocos (Keeling) Islands", "CD": "Democratic Republic of the Congo",
	"CF": "Central African Republic", "CG": "Republic of the Congo", "CH": "Switzerland",
	"CI": "Côte d'Ivoire", "CK": "Cook Islands", "CL": "Chile", "CM": "Cameroon", "CN": "China",
	"CO": "Colombia", "CR": "Costa Rica", "CU": "Cuba", "CV": "Cabo Verde", "CW": "Curaçao",
	"CX": "Christmas Island", "CY": "Cyprus", "CZ": "Czechia", "DE": "Germany", "DJ": "Djibouti",
	"DK": "Denmark", "DM": "Dominica", "DO": "Dominican Republic", "DZ": "Algeria", "EC": "Ecuador",
	"EE": "Estonia", "EG": "Egypt", "EH": "Western Sahara", "ER": "Eritrea", "ES": "Spain",
	"ET": "Ethiopia", "FI": "Finland", "FJ": "Fiji", "FK": "Falkland Islands", "FM": "Micronesia",
	"FO": "Faroe Islands", "FR": "France", "GA": "Gabon", "GB": "United Kingdom", "GD": "Grenada",
	"GE": "Georgia", "GF": "French Guiana", "GG": "Guernsey", "GH": "Ghana", "GI": "Gibraltar",
	"GL": "Greenland", "GM": "Gambia", "GN": "Guinea", "GP": "Guadeloupe", "GQ": "Equatorial Guinea",
	"GR": "Greece", "GS": "South Georgia and the South Sandwich Islands", "GT": "Guatemala",
	"GU": "Guam", "GW": "Guinea-Bissau", "GY": "Guyana", "HK": "Hong Kong",
	"HM": "Heard Island and McDonald Islands", "HN": "Honduras", "HR": "Croatia", "HT": "Haiti",
	"HU": "Hungary", "ID": "Indonesia", "IE": "Ireland", "IL": "Israel", "IM": "Isle of Man",
	"IN": "India", "IO": "British Indian Ocean Territory", "IQ": "Iraq", "IR": "Iran",
	"IS": "Iceland", "IT": "Italy", "JE": "Jersey", "JM": "Jamaica", "JO": "Jordan", "JP": "Japan",
	"KE": "Kenya", "KG": "Kyrgyzstan", "KH": "Cambodia", "KI": "Kiribati", "KM": "Comoros",
	"KN": "Saint Kitts and Nevis", "KP": "North Korea", "KR": "South Korea", "KW": "Kuwait",
	"KY": "Cayman Islands", "KZ": "Kazakhstan", "LA": "Laos", "LB": "Lebanon", "LC": "Saint Lucia",
	"LI": "Liechtenstein", "LK": "Sri Lanka", "LR": "Liberia", "LS": "Lesotho", "LT": "Lithuania",
	"LU": "Luxembourg", "LV": "Latvia", "LY": "Libya", "MA": "Morocco", "MC": "Monaco",
	"MD": "Moldova", "ME": "Montenegro", "MF": "Saint Martin", "MG": "Madagascar",
	"MH": "Marshall Islands", "MK": "North Macedonia", "ML": "Mali", "MM": "Myanmar",
	"MN": "Mongolia", "MO": "Macao", "MP": "Northern Mariana Islands", "MQ": "Martinique",
	"MR": "Mauritania", "MS": "Montserrat", "MT": "Malta", "MU": "Mauritius", "MV": "Maldives",
	"MW": "Malawi", "MX": "Mexico", "MY": "Malaysia", "MZ": "Mozambique", "NA": "Namibia",
	"NC": "New Caledonia", "NE": "Niger", "NF": "Norfolk Island", "NG": "Nigeria", "NI": "Nicaragua",
	"NL": "Netherlands", "NO": "Norway", "NP": "Nepal", "NR": "Nauru", "NU": "Niue",
	"NZ": "New Zealand", "OM": "Oman", "PA": "Panama", "PE": "Peru", "PF": "French Polynesia",
	"PG": "Papua New Guinea", "PH": "Philippines", "PK": "Pakistan", "PL": "Poland",
	"PM": "Saint Pierre and Miquelon", "PN": "Pitcairn", "PR": "Puerto Rico", "PS": "Palestine",
	"PT": "Portugal", "PW": "Palau", "PY": "Paraguay", "QA": "Qatar", "RE": "Réunion",
	"RO": "Romania", "RS": "Serbia", "RU": "Russia", "RW": "Rwanda", "SA": "Saudi Arabia",
	"SB": "Solomon Islands", "SC": "Seychelles", "SD": "Sudan", "SE": "Sweden", "SG": "Singapore",
	"SH": "Saint Helena", "SI": "Slovenia", "SJ": "Svalbard and Jan Mayen", "SK": "Slovakia",
	"SL": "Sierra Leone", "SM": "San Marino", "SN": "Senegal", "SO": "Somalia", "SR": "Suriname",
	"SS": "South Sudan", "ST": "Sao Tome and Principe", "SV": "El Salvador", "SX": "Sint Maarten",
	"SY": "Syria", "SZ": "Eswatini", "TC": "Turks and Caicos Islands", "TD": "Chad",
	"TF": "French Southern Territories", "TG": "Togo", "TH": "Thailand", "TJ": "Tajikistan",
	"TK": "Tokelau", "TL": "Timor-Leste", "TM": "Turkmenistan", "TN": "Tunisia", "TO": "Tonga",
	"TR": "Türkiye", "TT": "Trinidad and Tobago", "TV": "Tuvalu", "TW": "Taiwan", "TZ": "Tanzania",
	"UA": "Ukraine", "UG": "Uganda", "UM": "United States Minor Outlying Islands",
	"US": "United States", "UY": "Uruguay", "UZ": "Uzbekistan", "VA": "Vatican City",
	"VC": "Saint Vincent and the Grenadines", "VE": "Venezuela", "VG": "British Virgin Islands",
	"VI": "U.S. Virgin Islands", "VN": "Vietnam", "VU": "Vanuatu", "WF": "Wallis and Futuna",
	"WS": "Samoa", "YE": "Yemen", "YT": "Mayotte", "ZA": "South Africa", "ZM": "Zambia",
	"ZW": "Zimbabwe",
}

// trackedCountryAliases are other English names in common use.
var trackedCountryAliases = map[string]string{
	"United States of America": "US", "America": "US", "Great Britain": "GB", "Britain": "GB",
	"United Kingdom of Great Britain and Northern Ireland": "GB", "Republic of Korea": "KR",
	"Korea": "KR", "Democratic People's Republic of Korea": "KP", "Russian Federation": "RU",
	"Czech Republic": "CZ", "Turkey": "TR", "Turkiye": "TR", "Ivory Coast": "CI", "Cote d'Ivoire": "CI",
	"Cape Verde": "CV", "Macedonia": "MK", "Swaziland": "SZ", "Viet Nam": "VN",
	"Lao People's Democratic Republic": "LA", "Islamic Republic of Iran": "IR",
	"Syrian Arab Republic": "SY", "Republic of Moldova": "MD", "United Republic of Tanzania": "TZ",
	"Plurinational State of Bolivia": "BO", "Bolivarian Republic of Venezuela": "VE",
	"Brunei Darussalam": "BN", "Burma": "MM", "DR Congo": "CD", "Congo-Kinshasa": "CD",
	"Congo": "CG", "Congo-Brazzaville": "CG", "Federated States of Micronesia": "FM",
	"State of Palestine": "PS", "Holy See": "VA", "East Timor": "TL", "Macau": "MO",
	"Aland Islands": "AX", "Reunion": "RE", "Curacao": "CW", "Saint Barthelemy": "BL",
	"São Tomé and Príncipe": "ST", "Falkland Islands (Malvinas)": "FK", "Pitcairn Islands": "PN",
	"Bonaire, Sint Eustatius and Saba": "BQ", "US Virgin Islands": "VI", "Holland": "NL",
	"Republic of Ireland": "IE", "UAE": "AE", "UK": "GB", "USA": "US",
}

// trackedCountryByName maps folded names and aliases to codes.
var trackedCountryByName = func() map[string]string {
	m := make(map[string]string, len(trackedCountryNames)+len(trackedCountryAliases))
	for code, name := range trackedCountryNames {
		m[trackedFoldCountryName(name)] = code
	}
	for name, code := range trackedCountryAliases {
		m[trackedFoldCountryName(name)] = code
	}
	return m
}()

func trackedFoldCountryName(s string) string {
	s = strings.ToLower(strings.Join(strings.Fields(s), " "))
	return strings.TrimPrefix(s, "the ")
}

// trackedCountryCode returns the alpha-2 code of an ISO 3166-1 code in any
// case, or nothing.
func trackedCountryCode(s string) (string, bool) {
	code := strings.ToUpper(s)
	_, ok := trackedCountryNames[code]
	return code, ok
}

// trackedResolveCountry returns the code of a country given by code or by
// English name.
func trackedResolveCountry(s string) (string, bool) {
	if code, ok := trackedCountryCode(s); ok {
		return code, true
	}
	code, ok := trackedCountryByName[trackedFoldCountryName(s)]
	return code, ok
}

// trackedLanguages are the ISO 639-1 codes a tracked query's locale may take.
var trackedLanguages = func() map[string]bool {
	m := map[string]bool{}
	for _, code := range strings.Fields(`aa ab ae af ak am an ar as av ay az ba be bg bi bm bn bo br bs
		ca ce ch co cr cs cu cv cy da de dv dz ee el en eo es et eu fa ff fi fj fo fr fy ga gd gl gn gu gv
		ha he hi ho hr ht hu hy hz ia id ie ig ii ik io is it iu ja jv ka kg ki kj kk kl km kn ko kr ks ku
		kv kw ky la lb lg li ln lo lt lu lv mg mh mi mk ml mn mr ms mt my na nb nd ne ng nl nn no nr nv ny
		oc oj om or os pa pi pl ps pt qu rm rn ro ru rw sa sc sd se sg si sk sl sm sn so sq sr ss st su sv
		sw ta te tg th ti tk tl tn to tr ts tt tw ty ug uk ur uz ve vi vo wa wo xh yi yo za zh zu`) {
		m[code] = true
	}
	return m
}()

// trackedAIModeNote documents where google_ai_mode is not offered.
func trackedAIModeNote() string {
	names := make([]string, len(oltp.GoogleAIModeUnavailableCountries))
	for i, code := range oltp.GoogleAIModeUnavailableCountries {
		names[i] = code + " (" + trackedCountryNames[code] + ")"
	}
	return strings.Join(names, ", ")
}
