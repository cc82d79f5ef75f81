package ingest

import (
	"testing"

	"github.com/sightline/sightline"
)

// TestExtractQualifier checks the qualifier of one brand's first mention.
// The first name of brands is the own brand, the others are tracked
// competitors.
func TestExtractQualifier(t *testing.T) {
	t.Parallel()
	cases := []struct {
		text   string
		brands []string
		brand  string
		want   sightline.Qualifier
	}{
		// A condition opening the sentence restricts the claim after it,
		// even when it names a brand itself.
		{"If you want an app that replaced Mint, the two most common picks are YNAB and Monarch Money.", []string{"Monarch Money", "YNAB", "Mint"}, "YNAB", sightline.QualifierConditional},
		{"If you want an app that replaced Mint, the two most common picks are YNAB and Monarch Money.", []string{"Monarch Money", "YNAB", "Mint"}, "Monarch Money", sightline.QualifierConditional},
		{"If you need a cheap plan, Gusto is fine.", []string{"Gusto"}, "Gusto", sightline.QualifierConditional},
		{"Gusto is fine for most people.", []string{"Gusto"}, "Gusto", sightline.QualifierDirect},
		// "for those who" in Italian, German, Polish and Swedish.
		{"Gusto ha un gusto più delicato, adatto a chi non ama l'amaro.", []string{"Gusto"}, "Gusto", sightline.QualifierConditional},
		{"* **Gusto Chef XL:** Eine Küchenmaschine mit Induktion, ideal für alle, die viel backen.\n", []string{"Gusto"}, "Gusto", sightline.QualifierConditional},
		{"* **Gusto:** duży wybór; najlepszy sklep dla osób, które wiedzą, czego szukają.\n", []string{"Gusto"}, "Gusto", sightline.QualifierConditional},
		{"Gusto ist ideal für alle, die viel backen.", []string{"Gusto"}, "Gusto", sightline.QualifierConditional},
		{"Gusto passar bäst för den som läser mycket.", []string{"Gusto"}, "Gusto", sightline.QualifierConditional},
		// People with something are a reader situation, in Dutch too; a use
		// with something is none.
		{"Gusto is great for runners with wide feet.", []string{"Gusto"}, "Gusto", sightline.QualifierConditional},
		{"Gusto rekent hoge kosten, dus voor huishoudens met veel zonnepanelen is het een dure keuze.", []string{"Gusto"}, "Gusto", sightline.QualifierConditional},
		{"For large-scale web scraping with residential proxies, the providers most often compared are Gusto and Zoho.", []string{"Gusto", "Zoho"}, "Gusto", sightline.QualifierDirect},
		// Italian and Portuguese "se" is "if" before the reader's verb;
		// Spanish and French "se" before a verb of the brand's is none.
		{"Se cerchi una city car economica, la Dacia Sandero è una delle scelte migliori.", []string{"Dacia"}, "Dacia", sightline.QualifierConditional},
		{"O Babbel é melhor, e recomendo começar por ele se você tem um objetivo profissional.", []string{"Babbel"}, "Babbel", sightline.QualifierConditional},
		{"Se quiser praticar com professores, experimente o Preply.", []string{"Preply"}, "Preply", sightline.QualifierConditional},
		// "if you do not buy" in Italian: a negator between "se" and the verb.
		{"Goldcar ha tariffe basse, ma chiede un deposito alto se non acquisti la sua assicurazione.", []string{"Goldcar"}, "Goldcar", sightline.QualifierConditional},
		{"Bien'ici se distingue par sa carte interactive.", []string{"Bien'ici"}, "Bien'ici", sightline.QualifierDirect},
		{"Hellmann ist flexibel, auch wenn die Preise teuer sind.", []string{"Hellmann"}, "Hellmann", sightline.QualifierDirect},
		// A brand a comparison measures against does not own the clause.
		{"Top Doctors selecciona a menos especialistas, así que es mejor que Doctoralia si buscas un médico.", []string{"Top Doctors", "Doctoralia"}, "Top Doctors", sightline.QualifierConditional},
		{"Zendesk is pricey, so it is better than Freshdesk only if you have a big team.", []string{"Zendesk", "Freshdesk"}, "Zendesk", sightline.QualifierConditional},
		{"Boursorama est pratique, même si les frais sont élevés.", []string{"Boursorama"}, "Boursorama", sightline.QualifierDirect},
		// "Best overall for X" is "best for X".
		{"**Fidelity** — *Best all-around for long-term investors*\n- Strong research\n", []string{"Fidelity"}, "Fidelity", sightline.QualifierConditional},
		{"Schwab is the best overall for active traders.", []string{"Schwab"}, "Schwab", sightline.QualifierConditional},
		{"Schwab is the best overall.", []string{"Schwab"}, "Schwab", sightline.QualifierDirect},
	}
	for _, c := range cases {
		t.Run(c.brand+": "+c.text, func(t *testing.T) {
			t.Parallel()
			if got := firstMention(t, c.text, c.brands, c.brand); got.Qualifier != c.want {
				t.Errorf("qualifier of %s = %s, want %s", c.brand, got.Qualifier, c.want)
			}
		})
	}
}
