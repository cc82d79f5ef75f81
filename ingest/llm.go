package ingest

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/sightline/sightline"
	"github.com/sightline/sightline/ingest/openai"
)

// LLM is the optional second extraction pass: an OpenAI chat completions
// model reads the answer by the same rules and returns the same record shape
// as structured JSON, and settles the mentions the local rules mark
// Uncertain. The local extraction stays the default and decides everything
// else: which brands are named (the model may only drop an uncertain
// untracked brand), their positions, sentences and citations.
type LLM struct {
	// BaseURL is the API root, "https://api.openai.com" (a trailing /v1 is
	// accepted, as OPENAI_BASE_URL has it).
	BaseURL string
	APIKey  string
	Model   string // default gpt-4o-mini
	Client  *http.Client
}

// llmRules is the extraction rules as the model is told them.
const llmRules = `You read an AI assistant's answer about products and list the competing brands it names, by these rules.
- A brand is a competing company named in the answer text; publishers and review sites quoted as sources, the platform the question is about, public bodies, people and programming languages are not brands. Product names count as their company (write "Nike" for "Nike Pegasus").
- A configured name used as an ordinary word ("the target audience", "by Friday") is not a mention.
- Judge each brand by its FIRST mention only.
- mentionType, first that fits: recommendation (the sentence advises choosing it: best, top pick, I'd recommend, go with, a good choice, worth a look, best for X), comparison (weighed against another brand: than, vs, compared to, similar), example (such as, like), listing (a list item, table row, option heading, bold-led option paragraph, or "options include A, B and C"), reference (anything else).
- sentiment: the stance toward that brand in that sentence. In "A, but B" the clause after "but" decides; in "A, though B" the main clause decides. A list item without evaluative words takes the stance of an endorsing lead-in ("Highly rated options:"); neutral lead-ins ("Top options") pass nothing on. Table rows are neutral. A recommendation is positive unless it says otherwise.
- qualifier: conditional when the claim is restricted to a reader situation (if, unless, when you, depending on, "for teams that...", "best for X"); a bare audience ("for most people") is direct.
Return every brand you find with relation own, tracked-competitor or untracked-competitor as configured.`

// llmSchema is the JSON schema of the model's answer.
var llmSchema = map[string]any{
	"type": "object", "additionalProperties": false, "required": []string{"mentions"},
	"properties": map[string]any{
		"mentions": map[string]any{"type": "array", "items": map[string]any{
			"type": "object", "additionalProperties": false,
			"required": []string{"brandName", "mentionRelation", "mentionType", "sentiment", "qualifier"},
			"properties": map[string]any{
				"brandName":       map[string]any{"type": "string"},
				"mentionRelation": map[string]any{"type": "string", "enum": []string{"own", "tracked-competitor", "untracked-competitor"}},
				"mentionType":     map[string]any{"type": "string", "enum": sightline.MentionTypes},
				"sentiment":       map[string]any{"type": "string", "enum": sightline.Tones},
				"qualifier":       map[string]any{"type": "string", "enum": sightline.Qualifiers},
			},
		}},
	},
}

// llmMention is one mention as the model returns it.
type llmMention struct {
	BrandName string                `json:"brandName"`
	Relation  sightline.Relation    `json:"mentionRelation"`
	Type      sightline.MentionType `json:"mentionType"`
	Tone      sightline.Tone        `json:"sentiment"`
	Qualifier sightline.Qualifier   `json:"qualifier"`
}

// ExtractAnswer extracts the answer locally and, when the local rules
// marked a mention uncertain, asks the model and takes its reading of those
// mentions. On an error the local extraction is returned with the error.
func (l *LLM) ExtractAnswer(ctx context.Context, b Brands, a Answer) (Extraction, error) {
	local := ExtractAnswer(b, a)
	uncertain := false
	for _, m := range local.Mentions {
		uncertain = uncertain || m.Uncertain
	}
	if !uncertain {
		return local, nil
	}
	read, err := l.read(ctx, b, a, local)
	if err != nil {
		return local, err
	}
	return settle(local, read), nil
}

// settle takes the model's reading of the uncertain mentions: an uncertain
// untracked brand the model does not list is dropped, the others take the
// model's type, tone and qualifier. Positions are renumbered.
func settle(local Extraction, read []llmMention) Extraction {
	find := func(m Mention) (llmMention, bool) {
		for _, r := range read {
			if r.Relation == m.Relation && (strings.EqualFold(strings.TrimSpace(r.BrandName), m.BrandName) ||
				m.Relation != sightline.RelationUntrackedCompetitor && len(read) > 0 && sameTracked(r, m)) {
				return r, true
			}
		}
		return llmMention{}, false
	}
	out := Extraction{Citations: local.Citations}
	for _, m := range local.Mentions {
		if m.Uncertain {
			r, ok := find(m)
			switch {
			case !ok && m.Relation == sightline.RelationUntrackedCompetitor:
				continue
			case ok:
				if slices.Contains(sightline.MentionTypes, r.Type) {
					m.Type = r.Type
				}
				if slices.Contains(sightline.Tones, r.Tone) {
					m.Tone = r.Tone
				}
				if slices.Contains(sightline.Qualifiers, r.Qualifier) {
					m.Qualifier = r.Qualifier
				}
			}
			m.Uncertain = false
		}
		m.Position = len(out.Mentions) + 1
		out.Mentions = append(out.Mentions, m)
	}
	return out
}

// sameTracked matches an own or tracked mention the model names differently
// ("HubSpot CRM" for "HubSpot"): one name holds the other.
func sameTracked(r llmMention, m Mention) bool {
	a, b := strings.ToLower(strings.TrimSpace(r.BrandName)), strings.ToLower(m.BrandName)
	return a != "" && (strings.Contains(a, b) || strings.Contains(b, a))
}

// read asks the model for its reading of the answer.
func (l *LLM) read(ctx context.Context, b Brands, a Answer, local Extraction) ([]llmMention, error) {
	type brand struct {
		Name    string   `json:"name,omitempty"`
		Names   []string `json:"names"`
		Domains []string `json:"domains"`
	}
	input := struct {
		Answer      string    `json:"answer"`
		Own         brand     `json:"ownBrand"`
		Competitors []brand   `json:"trackedCompetitors"`
		Local       []Mention `json:"localReading"`
	}{Answer: a.Text, Own: brand{Names: b.Own.Names, Domains: b.Own.Domains}, Local: local.Mentions}
	for _, c := range b.Competitors {
		input.Competitors = append(input.Competitors, brand{Name: c.Name, Names: c.Names, Domains: c.Domains})
	}
	user, err := json.Marshal(input)
	if err != nil {
		return nil, err
	}
	req := map[string]any{
		"model": cmp.Or(l.Model, "gpt-4o-mini"),
		"messages": []map[string]string{
			{"role": "system", "content": llmRules},
			{"role": "user", "content": string(user)},
		},
		"response_format": map[string]any{"type": "json_schema",
			"json_schema": map[string]any{"name": "extraction", "strict": true, "schema": llmSchema}},
	}
	var completion struct {
		Choices []struct {
			Message struct {
				Content *string `json:"content"`
				Refusal *string `json:"refusal"`
			} `json:"message"`
		} `json:"choices"`
	}
	client := openai.Client{BaseURL: l.BaseURL, APIKey: l.APIKey, HTTP: l.Client}
	if err := client.Post(ctx, "/v1/chat/completions", req, &completion); err != nil {
		return nil, fmt.Errorf("llm extraction: %w", err)
	}
	if len(completion.Choices) == 0 {
		return nil, fmt.Errorf("llm extraction: no content in the response")
	}
	message := completion.Choices[0].Message
	if message.Refusal != nil {
		return nil, fmt.Errorf("llm extraction: %w: %.300s", openai.ErrRefused, *message.Refusal)
	}
	if message.Content == nil {
		return nil, fmt.Errorf("llm extraction: no content in the response")
	}
	var out struct {
		Mentions []llmMention `json:"mentions"`
	}
	if err := json.Unmarshal([]byte(*message.Content), &out); err != nil {
		return nil, fmt.Errorf("llm extraction: the model's JSON: %w", err)
	}
	return out.Mentions, nil
}
