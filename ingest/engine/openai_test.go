package engine

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/sightline/sightline"
	"github.com/sightline/sightline/ingest"
)

func TestOpenAIAsk(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name       string
		sample     string
		country    string
		baseSuffix string
		// wantText is the whole answer, or its start when wantEnd is set.
		wantText  string
		wantEnd   string
		wantRunes int
		wantCites []ingest.Citation
	}{
		{
			name:   "one citation, utm_source kept",
			sample: "openai-responses-web-search.json", country: "CA", baseSuffix: "/v1",
			wantText: "The tallest mountain in Alberta is **Mount Columbia**, which rises to **3,747 m (12,294 ft)** and is Alberta's highest point. ([britannica.com](https://www.britannica.com/place/Mount-Columbia?utm_source=openai))",
			wantCites: cites("https://www.britannica.com/place/Mount-Columbia?utm_source=openai",
				"Mount Columbia | mountain, Alberta, Canada | Britannica"),
		},
		{
			name:   "repeated URL counted once, percent-encoding kept",
			sample: "openai-responses-web-search-preview-multi-citation.json", country: "IS",
			wantText: "As of August 25, 2025, here are the latest developments in Iceland:", wantEnd: "official government communications. ",
			wantRunes: 2339,
			wantCites: cites(
				"https://en.wikipedia.org/wiki/2023%E2%80%932025_Sundhn%C3%BAkur_eruptions?utm_source=openai", "2023–2025 Sundhnúkur eruptions",
				"https://en.wikipedia.org/wiki/2024_Icelandic_presidential_election?utm_source=openai", "2024 Icelandic presidential election",
				"https://en.wikipedia.org/wiki/2024_Icelandic_parliamentary_election?utm_source=openai", "2024 Icelandic parliamentary election",
				"https://icelandmonitor.mbl.is/news/latest//?utm_source=openai", "Latest news - Iceland Monitor"),
		},
		{
			name:   "reasoning items and web_search_calls before the message",
			sample: "openai-responses-web-search-reasoning-model.json", country: "US", baseSuffix: "/",
			wantText: "Here are three of the biggest global stories", wantEnd: "(markets, tech, U.S., etc.)?",
			wantRunes: 1173,
			wantCites: cites(
				"https://www.reuters.com/world/middle-east/un-overwhelmingly-endorses-two-state-solution-declaration-that-condemns-hamas-2025-09-12/?utm_source=openai", "UN overwhelmingly endorses two-state solution declaration that condemns Hamas",
				"https://apnews.com/article/aad7af5ddfb56b7484fa9db591297c9e?utm_source=openai", "Nepal's president appoints former chief justice as interim premier and first woman leader",
				"https://www.reuters.com/world/middle-east/death-toll-rises-46-israeli-raids-yemen-2025-09-11/?utm_source=openai", "Death toll rises to 46 in Israeli raids on Yemen"),
		},
		{
			name:   "searched but no annotations",
			sample: "openai-responses-web-search-open-page-no-annotations.json", country: "JP",
			wantText: "14195730",
		},
		{
			name:   "SDK dump: floats, nulls, Spanish text, duplicated citations",
			sample: "openai-responses-web-search-es-sdk-dump.json", country: "PE",
			wantText: "Perfecto — te doy 3-4 opciones en Miraflores", wantEnd: "(puedo indicarte cómo pedirla).",
			wantRunes: 3051,
			wantCites: cites(
				"https://www.limadentalrating.com/es/?utm_source=openai", "Clasificación de clínicas dentales de Lima — metodología abierta — Lima Dental Rating",
				"https://centrodeimplantologiaodontonova.com/?utm_source=openai", "Odontonova - Centro de Implantología Dental | Miraflores, Lima",
				"https://clinica-miraflores.com/?utm_source=openai", "Implantes Dentales - Clínica Miraflores",
				"https://www.dentalia.com/es/consejos-para-implantes-dentales?utm_source=openai", "Consejos antes de un implante dental: qué preguntar y evitar",
				"https://spch.cl/wp-content/uploads/2023/01/IJOID-edicion-diciembre-2022.pdf?utm_source=openai", "REPORTE CLÍNICO",
				"https://www.consalud.es/dentalia/clinicas/implantes-dentales-tipos-precios-proceso-y-como-elegir-clinica.html?utm_source=openai", "Implantes dentales: tipos, precios, proceso y cómo elegir clínica | Dentalia",
				"https://www.thedentalclinic.pe/blog-implantes-dentales-peru-tipos-proceso-costos/?utm_source=openai", "Implantes dentales en Perú: tipos, proceso y costos | Clínica Dental"),
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			p := newProvider(t, serving(sample(t, tc.sample)))
			a := NewOpenAI(OpenAIConfig{APIKey: "sk-test", Model: "gpt-test", BaseURL: p.srv.URL + tc.baseSuffix}, testOptions(0))
			c := ask(t, a, ingest.Request{Engine: sightline.EngineChatGPT, QueryText: "best dental clinic?", Country: tc.country, Locale: "es"})

			r := p.only(t)
			if r.Method != "POST" || r.Path != "/v1/responses" {
				t.Errorf("request %s %s, want POST /v1/responses", r.Method, r.Path)
			}
			if got := r.Header.Get("Authorization"); got != "Bearer sk-test" {
				t.Errorf("Authorization %q", got)
			}
			if got := r.Header.Get("Content-Type"); got != "application/json" {
				t.Errorf("Content-Type %q", got)
			}
			var body struct {
				Model string `json:"model"`
				Input string `json:"input"`
				Store *bool  `json:"store"`
				Tools []struct {
					Type         string            `json:"type"`
					UserLocation map[string]string `json:"user_location"`
				} `json:"tools"`
			}
			decodeJSON(t, r.Body, &body)
			if body.Model != "gpt-test" || body.Input != "best dental clinic?" || body.Store == nil || *body.Store {
				t.Errorf("body %s", r.Body)
			}
			if len(body.Tools) != 1 || body.Tools[0].Type != "web_search" ||
				body.Tools[0].UserLocation["type"] != "approximate" || body.Tools[0].UserLocation["country"] != tc.country {
				t.Errorf("tools in %s", r.Body)
			}

			if c.Answer == nil || c.Search != nil || c.Shopping != nil {
				t.Fatalf("capture %+v: want an answer only", c)
			}
			got := c.Answer.Text
			if tc.wantEnd == "" && got != tc.wantText {
				t.Errorf("text %q, want %q", got, tc.wantText)
			}
			if tc.wantEnd != "" && (!strings.HasPrefix(got, tc.wantText) || !strings.HasSuffix(got, tc.wantEnd) || utf8.RuneCountInString(got) != tc.wantRunes) {
				t.Errorf("text (%d runes) %q...%q", utf8.RuneCountInString(got), got[:min(80, len(got))], got[max(0, len(got)-80):])
			}
			assertCitations(t, c.Answer.Citations, tc.wantCites)
		})
	}
}

func TestOpenAIRequestWithoutCountry(t *testing.T) {
	t.Parallel()
	p := newProvider(t, serving(sample(t, "openai-responses-web-search.json")))
	a := NewOpenAI(OpenAIConfig{APIKey: "k", BaseURL: p.srv.URL}, testOptions(0))
	ask(t, a, ingest.Request{Engine: sightline.EngineChatGPT, QueryText: "q"})
	var body map[string]any
	decodeJSON(t, p.only(t).Body, &body)
	if body["model"] != DefaultOpenAIModel {
		t.Errorf("model %v, want the default", body["model"])
	}
	tool := body["tools"].([]any)[0].(map[string]any)
	if _, ok := tool["user_location"]; ok {
		t.Errorf("user_location sent without a country: %v", tool)
	}
}

func TestParseOpenAIStates(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name     string
		body     string
		wantKind ErrorKind
		wantText string
	}{
		{"failed", `{"status":"failed","error":{"code":"server_error","message":"boom"},"output":[]}`, Unavailable, ""},
		{"incomplete", `{"status":"incomplete","incomplete_details":{"reason":"max_output_tokens"},"output":[]}`, Unavailable, ""},
		{"no message", `{"status":"completed","output":[{"type":"reasoning"}]}`, Malformed, ""},
		{"streaming event is not a response", string(sample(t, "openai-responses-web-search-stream-completed-event.json")), Malformed, ""},
		{"not json", `<html>`, Malformed, ""},
		{"refusal", `{"status":"completed","output":[{"type":"message","role":"assistant","content":[{"type":"refusal","refusal":"I can't help with that."}]}]}`, "", "I can't help with that."},
		{"last message wins", `{"status":"completed","output":[
			{"type":"message","role":"assistant","content":[{"type":"output_text","text":"Let me search.","annotations":[]}]},
			{"type":"web_search_call","action":{"type":"search","query":"x"}},
			{"type":"message","role":"assistant","content":[{"type":"output_text","text":"Acme is best.","annotations":[
				{"type":"url_citation","url":"https://b.example/?utm_source=openai","title":"B","start_index":9,"end_index":12},
				{"type":"url_citation","url":"https://a.example/?utm_source=openai","title":"A","start_index":0,"end_index":4}]}]}]}`, "", "Acme is best."},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			a, err := parseOpenAI(sightline.EngineChatGPT, []byte(tc.body))
			if tc.wantKind != "" {
				if err == nil || err.Kind != tc.wantKind || err.Engine != sightline.EngineChatGPT {
					t.Fatalf("error %v, want kind %s", err, tc.wantKind)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if a.Text != tc.wantText {
				t.Errorf("text %q, want %q", a.Text, tc.wantText)
			}
			if tc.name == "last message wins" {
				assertCitations(t, a.Citations, cites("https://a.example/?utm_source=openai", "A", "https://b.example/?utm_source=openai", "B"))
			}
		})
	}
}
