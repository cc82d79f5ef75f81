package ingest

import (
	"slices"
	"testing"

	"github.com/google/uuid"

	"github.com/sightline/sightline"
)

// TestExtractMentionType checks the type of one brand's first mention. The
// first name of brands is the own brand, the others are tracked
// competitors, so no sentence depends on recognising untracked names.
func TestExtractMentionType(t *testing.T) {
	t.Parallel()
	cases := []struct {
		text   string
		brands []string
		brand  string
		want   sightline.MentionType
	}{
		// "The right choice" in other languages, the adjective after or
		// before its noun, is a recommendation.
		{"- A **Stone** é a escolha certa quando o faturamento passa de R$ 50 mil.\n- A **Cielo** é cara.\n", []string{"Stone", "Cielo"}, "Stone", sightline.MentionRecommendation},
		{"Fooble ist die richtige Wahl für Familien. Stone ist teurer.", []string{"Fooble", "Stone"}, "Fooble", sightline.MentionRecommendation},
		// A French comparison runs past "chez"; one against "the
		// competition" names no brand.
		// "than" and "similar" in Swedish, Polish, German and Spanish.
		{"* **Oatly Barista:** Krämig.\n* **Alpro Barista Havre:** Något mildare smak och lite billigare än Oatly, men skummet sjunker ihop snabbare.\n", []string{"Oatly", "Alpro"}, "Alpro", sightline.MentionComparison},
		{"- **Ceneo** – porównywarka.\n- **Allegro** – często tańszy niż Ceneo, ale wolniejsza dostawa.\n", []string{"Ceneo", "Allegro"}, "Allegro", sightline.MentionComparison},
		{"* **Wüsthof Classic:** Der Klassiker.\n* **Zwilling Pro Kochmesser 20 cm:** Ähnlich hochwertig wie das Wüsthof, mit einer geschwungenen Klinge.\n", []string{"Wüsthof", "Zwilling"}, "Zwilling", sightline.MentionComparison},
		{"**1. La Roche-Posay Effaclar Gel** — el clásico de farmacia.\n\n**4. Bioderma Sébium Gel Moussant** — muy parecido a Effaclar y algo más barato.\n", []string{"La Roche-Posay", "Bioderma"}, "Bioderma", sightline.MentionComparison},
		{"- **Carrefour** livre le jour même.\n- **Monoprix** livre via son propre site, avec des prix plus élevés que chez Carrefour.\n", []string{"Monoprix", "Carrefour"}, "Monoprix", sightline.MentionComparison},
		{"1. **Taxfix** – per App.\n2. **WISO Steuer** – Der Klassiker; etwas teurer als die Konkurrenz, dafür sehr gründlich.\n", []string{"WISO Steuer", "Taxfix"}, "WISO Steuer", sightline.MentionListing},
		// Italian measures "più care di" against a brand.
		{"- **Sicily by Car:** la flotta più grande.\n- **Hertz** ed **Europcar:** più care di Sicily by Car, ma con auto più nuove.\n", []string{"Hertz", "Europcar", "Sicily by Car"}, "Hertz", sightline.MentionComparison},
		// "as are" names more of what the sentence said, no options.
		{"Both Hinge and Tinder are owned by Match Group, as are Match and OkCupid.", []string{"OkCupid", "Hinge", "Tinder", "Match Group", "Match"}, "OkCupid", sightline.MentionReference},
		// Advice given where the sentence names the brand again, not where
		// it names what the reader already uses.
		{"If you drive a Fooble, or plan to, the Fooble Universal Wall Connector is the one to get.", []string{"Fooble"}, "Fooble", sightline.MentionRecommendation},
		{"For a small studio, Fooble Terminal works well if you already use Fooble online.", []string{"Fooble"}, "Fooble", sightline.MentionReference},
		// "the best choice of papers" is the widest selection, no advice.
		{"### 1. Zoho – le plus simple\n### 2. Fooble – le meilleur choix de papiers\n- Grands tirages\n", []string{"Fooble", "Zoho"}, "Fooble", sightline.MentionListing},
		// "a great choice" in Italian after a semicolon; "più … della"
		// measures against a brand as "più … di" does.
		{"- **Fooble CS10s:** leggera, con 40 punti; ottima scelta per chi vuole imparare.\n- **Zoho 4423:** potente.\n", []string{"Fooble", "Zoho"}, "Fooble", sightline.MentionRecommendation},
		{"- **Zoho 4423:** potente.\n- **Fooble K132A:** semplice, a un prezzo più basso della Zoho.\n", []string{"Fooble", "Zoho"}, "Fooble", sightline.MentionComparison},
		// "three or more" is a number, no comparison.
		{"Zoho is big. Getting three or more quotes through a marketplace like Fooble typically lowers the price.", []string{"Fooble", "Zoho"}, "Fooble", sightline.MentionExample},
		// Advice to look at a brand, and "it is worth it" in German.
		{"Si vous voulez un petit tirage, regardez aussi Fooble.", []string{"Fooble"}, "Fooble", sightline.MentionRecommendation},
		{"Wenn dein Garten groß ist, lohnt sich der Blick auf den Fooble Indego.", []string{"Fooble"}, "Fooble", sightline.MentionRecommendation},
		// "the best-rated" in Spanish.
		{"- **Mutua Madrileña:** la mejor valorada por sus clientes, aunque sus primas no son las más baratas.\n- **AXA:** descuentos.\n", []string{"Mutua Madrileña", "AXA"}, "Mutua Madrileña", sightline.MentionRecommendation},
		// "a good choice" in Italian after a label's colon.
		{"- **Locauto:** una buona scelta se vuoi la copertura completa.\n- **Goldcar:** tariffe basse.\n", []string{"Locauto", "Goldcar"}, "Locauto", sightline.MentionRecommendation},
		// A label with a range of ages before the colon still leads the
		// item with the option after it.
		{"- **Ages 6–12: Apple iPad (10th generation).** Faster than the Fire tablets.\n- **Tweens: Fooble Tab.** Cheap.\n", []string{"Apple", "Fooble"}, "Apple", sightline.MentionListing},
		// A comparative before the noun it qualifies ("a newer option")
		// describes the brand; it weighs it against no other.
		{"GitBook is the most popular hosted tool, and Zenith is a newer open-source option.", []string{"Zenith", "GitBook"}, "Zenith", sightline.MentionReference},
		{"Oura leads the category. Samsung is a newer option with no subscription.", []string{"Samsung", "Oura"}, "Samsung", sightline.MentionReference},
		{"Chase leads. Citi is a newer rival with a lower annual fee.", []string{"Citi", "Chase"}, "Citi", sightline.MentionComparison},
		{"Proton is private. Fastmail has a faster interface.", []string{"Fastmail", "Proton"}, "Fastmail", sightline.MentionComparison},
		{"- Vitamix 5200 — Powerful.\n- Blendtec 575 — Preset programs and a shorter jar that fits under cabinets.\n", []string{"Blendtec", "Vitamix"}, "Blendtec", sightline.MentionListing},
		{"Vitamix is loud. Blendtec is a much cheaper option than Vitamix.", []string{"Blendtec", "Vitamix"}, "Blendtec", sightline.MentionComparison},
		{"Vitamix is loud. Blendtec is a cheaper option.", []string{"Blendtec", "Vitamix"}, "Blendtec", sightline.MentionComparison},
		{"Vitamix is loud. Blendtec is a more affordable option.", []string{"Blendtec", "Vitamix"}, "Blendtec", sightline.MentionComparison},
		{"Vitamix is loud. Blendtec is a bit cheaper.", []string{"Blendtec", "Vitamix"}, "Blendtec", sightline.MentionComparison},
		{"Vitamix is loud. Blendtec is cheaper.", []string{"Blendtec", "Vitamix"}, "Blendtec", sightline.MentionComparison},
		// The owner named after an enumeration is no item of it.
		{"Note that Hinge, Tinder and OkCupid are all owned by Match Group, so features work alike.", []string{"Match Group", "Hinge", "Tinder", "OkCupid"}, "Match Group", sightline.MentionReference},
		{"Note that Hinge, Tinder and OkCupid are all owned by Match Group, so features work alike.", []string{"Tinder", "Hinge", "OkCupid", "Match Group"}, "Tinder", sightline.MentionListing},
		// "than the 800 Series": a model of a brand named before.
		{"**Bosch 800 Series** is quiet. **Miele G 7000** machines are quieter than the 800 Series and last longer.", []string{"Miele", "Bosch"}, "Miele", sightline.MentionComparison},
		// "than those of" another brand: its offers are what the brand is
		// measured against, in the languages answers come in.
		{"* **Free** : pas cher.\n* **Bouygues** : réseau fiable, mais ses forfaits sont plus chers que ceux de Free.\n", []string{"Bouygues", "Free"}, "Bouygues", sightline.MentionComparison},
		{"Movistar es caro. Vodafone tiene tarifas más baratas que las de Movistar.", []string{"Vodafone", "Movistar"}, "Vodafone", sightline.MentionComparison},
		{"Zendesk is fine. Freshdesk's plans are cheaper than those of Zendesk.", []string{"Freshdesk", "Zendesk"}, "Freshdesk", sightline.MentionComparison},
		// A German or Dutch comparative after the brands named before it,
		// as "Blendtec is cheaper".
		{"Tibber ist flexibel. Vattenfall ist dagegen meist deutlich teurer.", []string{"Vattenfall", "Tibber"}, "Vattenfall", sightline.MentionComparison},
		// A "than" further on measures the comparative against something
		// other than a brand.
		{"Garmin is accurate. Strava is better for logging runs and following friends than for structured coaching.", []string{"Strava", "Garmin"}, "Strava", sightline.MentionReference},
		{"- Seiko 5 – Tough.\n- Orient Bambino – A dressy automatic that looks far more expensive than its $180 price.\n", []string{"Orient", "Seiko"}, "Orient", sightline.MentionListing},
		{"Garmin is accurate. Strava is better for logging runs than Garmin.", []string{"Strava", "Garmin"}, "Strava", sightline.MentionComparison},
		{"Garmin is accurate. Strava is better for logging runs than on Garmin.", []string{"Strava", "Garmin"}, "Strava", sightline.MentionComparison},
		// "than any" with a noun measures against a kind of product, "than
		// any other" against the brands named.
		{"Secretlab is loud. An office chair like the Steelcase Gesture is a better investment than any racing-style seat.", []string{"Steelcase", "Secretlab"}, "Steelcase", sightline.MentionExample},
		{"Secretlab is loud. Steelcase is quieter than any other chair here.", []string{"Steelcase", "Secretlab"}, "Steelcase", sightline.MentionComparison},
		{"Keen and Merrell are light. For heavy loads, Lowa and Salomon are more supportive than either.", []string{"Lowa", "Keen", "Merrell", "Salomon"}, "Lowa", sightline.MentionComparison},
		// "remain" and "stay" say the comparative of their subject.
		{"Brave blocks trackers. Chrome and Edge remain less private by default.", []string{"Edge", "Brave", "Chrome"}, "Edge", sightline.MentionComparison},
		{"Brave blocks trackers. Firefox stays faster on old laptops.", []string{"Firefox", "Brave"}, "Firefox", sightline.MentionComparison},
		// The sentence's first brand is what a later "half the price of" or
		// "alternative to" weighs, across the dash of an option line.
		{"- Shark Stratos – anti-hair-wrap brushroll at about half the price of a Dyson.\n", []string{"Shark", "Dyson"}, "Shark", sightline.MentionComparison},
		{"- Shark Stratos – Great at pet hair, and about half the price of the Dyson.\n", []string{"Shark", "Dyson"}, "Shark", sightline.MentionComparison},
		{"Shark costs about half the price of Dyson, and is light.", []string{"Shark", "Dyson"}, "Shark", sightline.MentionComparison},
		{"- ASICS Gel-Kayano 31 – Plush.\n- Saucony Guide 17 – A lighter alternative to the Kayano.\n", []string{"Saucony", "ASICS"}, "Saucony", sightline.MentionComparison},
		{"- Zoho CRM – An affordable, simpler alternative to Salesforce for small teams.\n", []string{"Zoho", "Salesforce"}, "Zoho", sightline.MentionComparison},
		{"- Zoho CRM – An affordable, simpler alternative to Salesforce for small teams.\n", []string{"Zoho", "Salesforce"}, "Salesforce", sightline.MentionComparison},
		{"- Zoho CRM – Cheap, and Freshsales is a good alternative to it.\n", []string{"Zoho", "Freshsales"}, "Zoho", sightline.MentionListing},
		{"Sketch is still popular with solo Mac designers, and Penpot is a free alternative to Figma.", []string{"Sketch", "Penpot", "Figma"}, "Sketch", sightline.MentionReference},
		{"Shark is light on stairs; Bissell costs half the price of a Dyson.", []string{"Shark", "Bissell", "Dyson"}, "Shark", sightline.MentionReference},
		// "Alternatives such as X" names X as an instance of the kind.
		{"Sony is the best. Budget alternatives such as the Soundcore Q45 deliver good ANC.", []string{"Soundcore", "Sony"}, "Soundcore", sightline.MentionExample},
		{"Sony is the best. Cheaper rivals like Soundcore and Anker cut corners.", []string{"Anker", "Sony", "Soundcore"}, "Anker", sightline.MentionExample},
		{"Sony is the best. Soundcore is a budget alternative.", []string{"Soundcore", "Sony"}, "Soundcore", sightline.MentionComparison},
		// Advice said of one brand does not pass to the next clause's.
		{"IKEA's FÄRGRIK line is the budget choice, and Le Creuset makes the most chip-resistant stoneware.", []string{"Le Creuset", "IKEA"}, "Le Creuset", sightline.MentionReference},
		{"I'd recommend Fidelity if you want research, and Schwab if you want branches.", []string{"Schwab", "Fidelity"}, "Schwab", sightline.MentionRecommendation},
		// "is the pick" advises it as plainly as "is the best pick".
		{"For those who want simplicity, Casper is the pick.", []string{"Casper"}, "Casper", sightline.MentionRecommendation},
		{"Casper is the choice for hot sleepers.", []string{"Casper"}, "Casper", sightline.MentionRecommendation},
		{"Casper is not the pick for stomach sleepers.", []string{"Casper"}, "Casper", sightline.MentionReference},
		{"Casper sells a pick of three foams.", []string{"Casper"}, "Casper", sightline.MentionReference},
		// Ranking one brand ahead of or behind another weighs them.
		{"Nikon lags behind Canon on lens choice.", []string{"Nikon", "Canon"}, "Nikon", sightline.MentionComparison},
		{"Nikon trails Canon in burst speed.", []string{"Nikon", "Canon"}, "Nikon", sightline.MentionComparison},
		{"Canon is good. Nikon falls behind on video.", []string{"Nikon", "Canon"}, "Nikon", sightline.MentionComparison},
		{"Nikon is ahead of Canon on autofocus.", []string{"Nikon", "Canon"}, "Nikon", sightline.MentionComparison},
		{"Nikon edges out Canon for low-light shots.", []string{"Nikon", "Canon"}, "Nikon", sightline.MentionComparison},
		{"Nikon leads the trail camera market.", []string{"Nikon", "Canon"}, "Nikon", sightline.MentionReference},
		// Recommendations a product makes to its users advise nothing; the
		// answer's own or a reported recommendation does.
		{"Roku is simple. Chromecast is excellent for recommendations.", []string{"Chromecast", "Roku"}, "Chromecast", sightline.MentionReference},
		{"Netflix's recommendations are weak.", []string{"Netflix"}, "Netflix", sightline.MentionReference},
		{"Hulu has its recommendations on the home screen.", []string{"Hulu"}, "Hulu", sightline.MentionReference},
		{"Spotify offers personalized recommendations.", []string{"Spotify"}, "Spotify", sightline.MentionReference},
		{"Signal is the most common recommendation because messages are encrypted.", []string{"Signal"}, "Signal", sightline.MentionRecommendation},
		{"My top recommendation is Deezer.", []string{"Deezer"}, "Deezer", sightline.MentionRecommendation},
		// An advising word before the nouns that say what kind of pick.
		{"Tuft & Needle's Original is a solid budget foam pick, and Casper adds zoned support.", []string{"Tuft & Needle", "Casper"}, "Tuft & Needle", sightline.MentionRecommendation},
		{"Tuft & Needle's Original is a solid budget foam pick, and Casper adds zoned support.", []string{"Tuft & Needle", "Casper"}, "Casper", sightline.MentionReference},
		{"Purple is a great hybrid mattress choice for hot sleepers.", []string{"Purple"}, "Purple", sightline.MentionRecommendation},
		{"Purple is not a great hybrid choice for stomach sleepers.", []string{"Purple"}, "Purple", sightline.MentionReference},
		{"Purple is the worst budget choice here.", []string{"Purple"}, "Purple", sightline.MentionReference},
		// "which makes it a better choice than B" advises A.
		{"Apple Music offers lossless audio, which makes it a better choice than Spotify for audiophiles.", []string{"Apple Music", "Spotify"}, "Apple Music", sightline.MentionRecommendation},
		{"Apple Music offers lossless audio, which makes Spotify a weaker choice.", []string{"Apple Music", "Spotify"}, "Apple Music", sightline.MentionReference},
		// An aside between a brand and its verb keeps the advice the brand's.
		{"Friday Apparel, a smaller label, is worth a look for organic cotton tees.", []string{"Friday Apparel"}, "Friday Apparel", sightline.MentionRecommendation},
		{"Pact, the organic basics brand, is the best pick for tees.", []string{"Pact"}, "Pact", sightline.MentionRecommendation},
		{"Pact makes tees, a category where Quince is the best pick.", []string{"Pact", "Quince"}, "Pact", sightline.MentionReference},
		// A brand named again later in its sentence may be weighed there.
		{"Gap and Old Navy share a parent company; Old Navy is cheaper, while Gap offers better fabrics.", []string{"Gap", "Old Navy"}, "Gap", sightline.MentionComparison},
		{"Gap and Old Navy share a parent company; Old Navy is cheaper, while Gap offers better fabrics.", []string{"Gap", "Old Navy"}, "Old Navy", sightline.MentionComparison},
		// Two brands opening a sentence that tells them apart.
		{"SimpliSafe and ADT are two of the most popular systems, but they suit different buyers.", []string{"SimpliSafe", "ADT"}, "ADT", sightline.MentionComparison},
		{"Notion and Coda differ mainly in pricing.", []string{"Notion", "Coda"}, "Notion", sightline.MentionComparison},
		{"Other options include Gorgias, Intercom and Front, each with a different focus.", []string{"Gorgias", "Intercom", "Front"}, "Gorgias", sightline.MentionListing},
		{"Notion and Coda are popular in different teams.", []string{"Notion", "Coda"}, "Coda", sightline.MentionComparison},
		// After a colon, an enumeration of brands is a listing; a brand in the
		// description of the name before the colon is not.
		{"- **Jabra Enhance:** Remote support.\n- **Lexie B2 Plus:** Powered by Bose technology, with self-fitting in the app.\n", []string{"Bose", "Jabra", "Lexie"}, "Bose", sightline.MentionReference},
		{"Shopify is the default. Other platforms: BigCommerce and Wix.", []string{"Wix", "Shopify", "BigCommerce"}, "Wix", sightline.MentionListing},
		// A list item may open with a short label before the option.
		{"Key differences:\n\n- **Cost:** Ring is cheap.\n- **Smart home:** Vivint has the deepest integration but is also the most expensive.\n", []string{"Vivint", "Ring"}, "Vivint", sightline.MentionListing},
		{"Key differences:\n\n- **Cost:** Ring is cheap.\n- **Smart home:** the deepest integration is in Vivint.\n", []string{"Vivint", "Ring"}, "Vivint", sightline.MentionReference},
		// A multiple of another's measure weighs the brand against it.
		{"Lodge skillets last forever. Le Creuset's skillets look nice but cost five times as much.", []string{"Le Creuset", "Lodge"}, "Le Creuset", sightline.MentionComparison},
		{"Lodge skillets last forever. Staub pans cost twice as much.", []string{"Staub", "Lodge"}, "Staub", sightline.MentionComparison},
		{"Lodge skillets last forever. Staub pans cost 3 times more.", []string{"Staub", "Lodge"}, "Staub", sightline.MentionComparison},
		{"Lodge skillets last forever. Staub pans hold heat for five times as long as steel.", []string{"Staub", "Lodge"}, "Staub", sightline.MentionReference},
		// "Best avoided" advises against.
		{"Zendesk is pricey. Acme is best avoided if you need phone support.", []string{"Acme", "Zendesk"}, "Acme", sightline.MentionReference},
		{"Zendesk is pricey. Acme's hardware is best left to professionals.", []string{"Acme", "Zendesk"}, "Acme", sightline.MentionReference},
		// Verbs of one brand outdoing another.
		{"Zendesk is pricey. Acme outshines Zendesk in reporting.", []string{"Acme", "Zendesk"}, "Acme", sightline.MentionComparison},
		{"Zendesk is pricey. Acme surpasses it in reporting.", []string{"Acme", "Zendesk"}, "Acme", sightline.MentionComparison},
		{"Zendesk is pricey. Acme edges out Zendesk on price.", []string{"Acme", "Zendesk"}, "Acme", sightline.MentionComparison},
		{"Zendesk is pricey. Older tools are outclassed by Acme.", []string{"Acme", "Zendesk"}, "Acme", sightline.MentionComparison},
		{"Zendesk is pricey. If you only need chat, Acme is hard to beat.", []string{"Acme", "Zendesk"}, "Acme", sightline.MentionReference},
		// "X, for example, …" names X as an instance.
		{"Some tools offer free plans. Acme, for example, has one for three agents.", []string{"Acme"}, "Acme", sightline.MentionExample},
		{"Some tools offer free plans. Acme Cloud, for instance, has one.", []string{"Acme Cloud"}, "Acme Cloud", sightline.MentionExample},
		{"Acme is cheap, for example on annual plans.", []string{"Acme"}, "Acme", sightline.MentionReference},
		// "On the other hand" sets the brand against the one before, as "by
		// contrast" does.
		{"Zendesk is big. Acme, on the other hand, is small.", []string{"Acme", "Zendesk"}, "Acme", sightline.MentionComparison},
		{"Zendesk is big. On the other hand, Acme is small.", []string{"Acme", "Zendesk"}, "Acme", sightline.MentionComparison},
		{"Zendesk is big. Acme, by contrast, is small.", []string{"Acme", "Zendesk"}, "Acme", sightline.MentionComparison},
		{"Acme keeps a tool on the other hand of the desk.", []string{"Acme"}, "Acme", sightline.MentionReference},
		// A comma between two adjectives of the advising phrase.
		{"Brother laser printers are the reliable, low-cost choice for home offices.", []string{"Brother"}, "Brother", sightline.MentionRecommendation},
		{"HP is fine. Brother is the quiet, compact pick.", []string{"Brother", "HP"}, "Brother", sightline.MentionRecommendation},
		{"In the end, Brother is cheaper than HP.", []string{"Brother", "HP"}, "Brother", sightline.MentionComparison},
		// "Than" in the other languages answers come in.
		{"Zendesk es caro. Acme es más barato que Zendesk.", []string{"Acme", "Zendesk"}, "Acme", sightline.MentionComparison},
		{"Zendesk est cher. Acme est moins cher que Zendesk.", []string{"Acme", "Zendesk"}, "Acme", sightline.MentionComparison},
		{"Zendesk ist teuer. Acme ist günstiger als Zendesk.", []string{"Acme", "Zendesk"}, "Acme", sightline.MentionComparison},
		{"Zendesk é caro. Acme é mais barato que o Zendesk.", []string{"Acme", "Zendesk"}, "Acme", sightline.MentionComparison},
		{"Zendesk is duur. Acme is goedkoper dan Zendesk.", []string{"Acme", "Zendesk"}, "Acme", sightline.MentionComparison},
		{"Acme dice que Zendesk es caro.", []string{"Acme", "Zendesk"}, "Acme", sightline.MentionReference},
		{"Acme gilt als Zendesk-Alternative für Teams.", []string{"Acme", "Zendesk"}, "Acme", sightline.MentionReference},
		// An example cue reaches across names with an ampersand.
		{"Smaller players such as Tally & Co and Ledgerline also exist.", []string{"Ledgerline", "Tally & Co"}, "Ledgerline", sightline.MentionExample},
		{"Cheaper tools such as Slumber & Co, Cloudrest and Golden Meadow Labs draw complaints.", []string{"Cloudrest", "Slumber & Co", "Golden Meadow Labs"}, "Golden Meadow Labs", sightline.MentionExample},
		{"Well-liked options such as Nook, Slumber & Co and Café Lumière do it well.", []string{"Café Lumière", "Nook", "Slumber & Co"}, "Café Lumière", sightline.MentionExample},
		{"Smaller players such as Tally & Co exist; Ledgerline is another.", []string{"Ledgerline", "Tally & Co"}, "Ledgerline", sightline.MentionReference},
		// An enumeration goes on after a name with an ampersand.
		{"If you need security, the main options are Trail & Tarmac, PimGrid, Bright Falcon and Zenova.", []string{"Zenova", "Trail & Tarmac", "PimGrid", "Bright Falcon"}, "PimGrid", sightline.MentionListing},
		{"Commonly used options include Grün & Weiss, Shieldly and Tunnelfox.", []string{"Tunnelfox", "Grün & Weiss", "Shieldly"}, "Tunnelfox", sightline.MentionListing},
		{"Trail & Tarmac, PimGrid and Zenova are all worth a look.", []string{"Zenova", "Trail & Tarmac", "PimGrid"}, "Trail & Tarmac", sightline.MentionRecommendation},
		// "Compare" weighs brands only when they are what it compares.
		{"When comparing costs, Quorhub publishes a pricing breakdown, as Hablo does.", []string{"Quorhub", "Hablo"}, "Quorhub", sightline.MentionReference},
		{"If you are comparing costs, Quorhub publishes a pricing breakdown, as Hablo does.", []string{"Quorhub", "Hablo"}, "Quorhub", sightline.MentionReference},
		{"Hablo is popular. Comparing Quorhub and Hablo, Quorhub is simpler.", []string{"Quorhub", "Hablo"}, "Quorhub", sightline.MentionComparison},
		{"Hablo is popular. The choice between Quorhub and Hablo comes down to price.", []string{"Quorhub", "Hablo"}, "Quorhub", sightline.MentionComparison},
		// "vs" beside the brand and a name sets it against that name.
		{"Optima vs Granite Fox: Optima is praised for support, while Granite Fox stands out for security.", []string{"Granite Fox"}, "Granite Fox", sightline.MentionComparison},
		{"Granite Fox vs Optima: both have free plans.", []string{"Granite Fox"}, "Granite Fox", sightline.MentionComparison},
		{"Granite Fox versus the rest of the market is a fair fight.", []string{"Granite Fox"}, "Granite Fox", sightline.MentionReference},
		// "Looks like" and "feels like" a brand weigh the two.
		{"Zendesk is big. Acme looks like Zendesk.", []string{"Acme", "Zendesk"}, "Acme", sightline.MentionComparison},
		{"Zendesk is big. In places it feels like Acme.", []string{"Acme", "Zendesk"}, "Acme", sightline.MentionComparison},
		{"Zendesk is big. It feels like a bargain, and Acme agrees.", []string{"Acme", "Zendesk"}, "Acme", sightline.MentionReference},
		// "Alternatives include A, B and C" lists its options.
		{"Alternatives include Acme, Gorgias and Front.", []string{"Acme", "Gorgias", "Front"}, "Acme", sightline.MentionListing},
		{"Zendesk is pricey. Alternatives: Acme and Gorgias.", []string{"Acme", "Zendesk", "Gorgias"}, "Acme", sightline.MentionListing},
		// A comparative after the brand's verb weighs it with no "than":
		// "scales better", "has a sharper screen", "est plus confortable";
		// not a comparative that qualifies the work a brand does.
		{"Gusto is popular. ADP scales better for companies with multi-state payroll.", []string{"Gusto", "ADP"}, "ADP", sightline.MentionComparison},
		{"Lenovo is quiet. Dell's XPS 14 has a sharper OLED screen.", []string{"Dell", "Lenovo"}, "Dell", sightline.MentionComparison},
		{"Transavia est moins cher. Air France est plus confortable.", []string{"Air France", "Transavia"}, "Air France", sightline.MentionComparison},
		{"Orgain is easy to find. Sunwarrior tastes better but has a gritty texture.", []string{"Sunwarrior", "Orgain"}, "Sunwarrior", sightline.MentionComparison},
		{"Google Flights is fast. Skyscanner covers more budget airlines.", []string{"Skyscanner", "Google Flights"}, "Skyscanner", sightline.MentionComparison},
		// A model's "+" does not end the enumeration the advice names.
		{"Mesh systems worth considering include eero 6+, TP-Link Deco X55 and Google Nest Wifi Pro.", []string{"eero", "TP-Link", "Google"}, "TP-Link", sightline.MentionRecommendation},
		{"Canva is free, and editors such as GIMP handle more detailed work.", []string{"Canva", "GIMP"}, "GIMP", sightline.MentionExample},
		// Advice: every name the picks are, a positive adjective before
		// "choice", "the best choice" in another language.
		{"If you want an app that replaced Mint, the two most common picks are YNAB and Monarch Money.", []string{"Monarch Money", "YNAB"}, "Monarch Money", sightline.MentionRecommendation},
		{"Copilot is a polished choice if you mostly budget on your phone.", []string{"Copilot"}, "Copilot", sightline.MentionRecommendation},
		{"Pour un vol pas cher, Transavia est souvent le meilleur choix.", []string{"Air France", "Transavia"}, "Transavia", sightline.MentionRecommendation},
		// A sentence joined to the next because that opens with a
		// lower-case name says nothing of that name.
		{"Air France est plus confortable, mais ses tarifs sont deux fois plus élevés. easyJet propose aussi des vols depuis Orly.", []string{"Air France", "easyJet"}, "easyJet", sightline.MentionReference},
		{"The picks are not YNAB or Monarch Money.", []string{"Monarch Money", "YNAB"}, "Monarch Money", sightline.MentionListing},
		{"Alternatives to Zendesk include Acme and Gorgias.", []string{"Acme", "Zendesk", "Gorgias"}, "Acme", sightline.MentionComparison},
		// A comparative of another language against another brand's
		// product, as "than the Octavia"; not against a place.
		{"Für Studierende empfehle ich das Lenovo ThinkPad E14. Das Dell XPS 13 ist leichter als das ThinkPad, aber deutlich teurer.", []string{"Dell", "Lenovo"}, "Dell", sightline.MentionComparison},
		{"Los mejores móviles:\n\n* **Samsung Galaxy A55:** buena pantalla.\n* **Xiaomi Redmi Note 13 Pro:** más barato que el Galaxy, pero trae publicidad.\n", []string{"Xiaomi", "Samsung"}, "Xiaomi", sightline.MentionComparison},
		// Advice to choose it in the languages answers come in.
		{"Zalando liefert schnell. About You ist eine gute Wahl für junge Mode.", []string{"About You", "Zalando"}, "About You", sightline.MentionRecommendation},
		{"Pour une banque en ligne, Fortuneo est un bon choix.", []string{"Fortuneo"}, "Fortuneo", sightline.MentionRecommendation},
		{"Para viajes, Revolut es una buena opción.", []string{"Revolut"}, "Revolut", sightline.MentionRecommendation},
		{"Pour débuter, je vous conseille les chaussures de Decathlon.", []string{"Decathlon"}, "Decathlon", sightline.MentionRecommendation},
		{"Pour un vélo électrique, Decathlon propose le meilleur rapport qualité-prix.", []string{"Decathlon"}, "Decathlon", sightline.MentionRecommendation},
		{"Un conseiller de Decathlon vous aide en magasin.", []string{"Decathlon"}, "Decathlon", sightline.MentionReference},
		{"Pour les longues sorties, je vous déconseille Decathlon.", []string{"Decathlon"}, "Decathlon", sightline.MentionReference},
		{"Fortuneo n'est pas un bon choix pour les cadres.", []string{"Fortuneo"}, "Fortuneo", sightline.MentionReference},
		{"Pour la pâtisserie, Valrhona offre un bon rapport qualité-prix.", []string{"Valrhona"}, "Valrhona", sightline.MentionReference},
		{"Zalando liefert schnell. Otto ist in Hamburg bekannter als in Berlin.", []string{"Otto", "Zalando"}, "Otto", sightline.MentionReference},
		// "worth considering", "one of the best choices", a bare "great
		// choice" and "a good alternative" in the languages answers come in.
		{"Si priorizas la batería, el Motorola Edge 50 es una opción a considerar.", []string{"Motorola"}, "Motorola", sightline.MentionRecommendation},
		{"Se cerchi una city car, la Dacia Sandero è una delle scelte migliori.", []string{"Dacia"}, "Dacia", sightline.MentionRecommendation},
		{"Para viajar, Revolut es una de las mejores opciones.", []string{"Revolut"}, "Revolut", sightline.MentionRecommendation},
		{"- **Zoho**: prezzi bassi.\n- **ConTe.it**: ottima scelta se vuoi la tutela legale.\n", []string{"ConTe.it", "Zoho"}, "ConTe.it", sightline.MentionRecommendation},
		{"Para consultas rápidas, Mediquo es una buena alternativa.", []string{"Mediquo"}, "Mediquo", sightline.MentionRecommendation},
		{"Hello bank! est une bonne alternative si vous voulez garder une agence.", []string{"Hello bank!"}, "Hello bank!", sightline.MentionRecommendation},
		{"- **Zoho**: cara.\n- **Tassimo**: buena opción si quieres bebidas con leche.\n", []string{"Tassimo", "Zoho"}, "Tassimo", sightline.MentionListing},
	}
	for _, c := range cases {
		t.Run(c.text, func(t *testing.T) {
			t.Parallel()
			if got := firstMention(t, c.text, c.brands, c.brand); got.Type != c.want {
				t.Errorf("type of %s = %s, want %s", c.brand, got.Type, c.want)
			}
		})
	}
}

// firstMention extracts text with brands (the first the own brand, the
// others tracked competitors) and returns brand's mention.
func firstMention(t *testing.T, text string, brands []string, brand string) Mention {
	t.Helper()
	b := Brands{Own: Brand{Names: []string{brands[0]}}}
	for _, name := range brands[1:] {
		b.Competitors = append(b.Competitors, Competitor{ID: uuid.NewSHA1(uuid.NameSpaceOID, []byte(name)), Name: name})
	}
	got := ExtractAnswer(b, Answer{Text: text})
	i := slices.IndexFunc(got.Mentions, func(m Mention) bool { return m.BrandName == brand })
	if i < 0 {
		t.Fatalf("%s not found in %+v", brand, got.Mentions)
	}
	return got.Mentions[i]
}
