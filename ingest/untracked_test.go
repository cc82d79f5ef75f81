package ingest

import (
	"slices"
	"testing"
)

// TestExtractUntrackedNames checks which brands the project does not track
// an answer is read to name, against a project tracking Square and BP.
func TestExtractUntrackedNames(t *testing.T) {
	t.Parallel()
	brands := Brands{Own: Brand{Names: []string{"Square"}}, Competitors: []Competitor{{ID: extractZendeskID, Name: "BP"}}}
	cases := []struct {
		name, text string
		want       []string
	}{
		// A tracked name run on into a longer word is not that brand: at a
		// change of case it is its product, in the same case another brand.
		{"tracked name run on in one case", "Squarespace Commerce is easier for a simple storefront. SumUp is the cheapest reader.",
			[]string{"Squarespace", "SumUp"}},
		{"tracked name run on at a change of case", "Square and BPme are the most generous programs.", []string{"Square"}},
		// A name heading its sentence is a company when a verb follows, the
		// nouns among verbs included; an adverb heading it is not.
		{"subject of a verb", "Deezer streams lossless audio. MoneyGram falls short on app reliability. Tidal and Qobuz stream hi-res.",
			[]string{"Deezer", "MoneyGram", "Tidal", "Qobuz"}},
		{"capitalised words as a subject", "Apple Music also streams lossless at no extra cost.", []string{"Apple"}},
		// The answer's pick named after "is" or "are".
		{"named as the recommendation", "My top recommendation is Deezer. Reviewers' favorites are Qobuz and Tidal.",
			[]string{"Deezer", "Qobuz", "Tidal"}},
		// A later table column names options when its header says so or a
		// tracked brand opens one of its cells; not when it holds uses or
		// the first column already names the options.
		{"column of choices", "| Need | Best choice | Why |\n|---|---|---|\n| Budget | Wyze Cam v4 | Cheap |\n| Pets | Eufy Indoor Cam | Pan and tilt |\n",
			[]string{"Wyze", "Eufy"}},
		{"column holding a tracked brand", "| Use case | Pick | Runner-up |\n|---|---|---|\n| Budget | Square | Fooble Pro |\n",
			[]string{"Square", "Fooble"}},
		{"geographic word opening a name", "| Layer | Budget pick | Premium pick |\n|---|---|---|\n| MDR | Square | Arctic Wolf |\n| Training | KnowBe4 | Proofpoint |\n",
			[]string{"Square", "Arctic Wolf", "KnowBe4", "Proofpoint"}},
		{"column of uses", "| Need | Why | Best for |\n|---|---|---|\n| Budget | Cheap | Hot Sleepers |\n", nil},
		{"column of models", "| Brand | Model | Range |\n|---|---|---|\n| Aventon | Level.2 | 60 mi |\n| Lectric | XP 3.0 | 45 mi |\n",
			[]string{"Aventon", "Lectric"}},
		{"adverb heading a sentence", "Consistently tops independent lab tests.", nil},
		// Products named by ordinary words are no company: after "the", or
		// in what a brand's possessive owns.
		{"ordinary words after the", "The Pumpkin Spice Latte is back this week. Dunkin is cheaper.", []string{"Dunkin"}},
		// Names cut or run on: a company word ends the name, a product
		// follows a maker that its siblings' models show, a possessive's
		// product is one item of an enumeration.
		// A well-known brand sheds the product line named after it: a
		// product's words, a line word ("Cloud", "Home"), a name in
		// capitals, even when the brand's own name is ordinary words.
		{"known brand before its product line", "- **ClickHouse Cloud**: fast dashboards.\n- **LifeStraw Home:** a glass pitcher.\n" +
			"- **Capital One MONEY**: a free teen account.\n- **Minor Figures Oat M*lk:** foams well.\n- **Garden of Life mykind Organics:** whole-food.\n",
			[]string{"ClickHouse", "LifeStraw", "Capital One", "Minor Figures", "Garden of Life"}},
		{"company word ends the name", "Avoid Roam Research unless you need block references.", []string{"Roam Research"}},
		{"model beside siblings' models", "| Mattress | Feel |\n|---|---|\n| **Square Classic** | Firm |\n| **BP Plus** | Soft |\n| **Nectar Premier** | Medium |\n",
			[]string{"Square", "BP", "Nectar"}},
		{"item after a possessive's product", "Try Uniqlo's Smart Ankle Pants or the J.Crew 484 Slim.", []string{"Uniqlo", "J.Crew"}},
		// A well-known possessive name leading an item is one brand.
		{"known possessive leading an item", "* **Trader Joe's Non-Alcoholic Pale Ale:** Surprisingly good for under $8 a six-pack.\n* **Busch NA:** cheap.\n",
			[]string{"Trader Joe's", "Busch"}},
		{"known possessive in a bold enumeration", "4. **Fooble** — pricey.\n5. **Trader Joe's or Costco** — If you can pick up a bouquet yourself, their flowers cost a fraction of the price.\n",
			[]string{"Fooble", "Trader Joe's", "Costco"}},
		// The word leading a line before "like" of another language is the
		// kind of what it names.
		{"kind before a foreign like", "* **Geldverstrekkers zoals Obvion, Venn en Tellius:** Vaak de laagste rente.\n* **ASN Bank:** duurzaam.\n",
			[]string{"Obvion", "Venn", "Tellius", "ASN Bank"}},
		// Names after a brand's possessive and before the kind of thing
		// they are are its products.
		{"products after a possessive", "IKEA's Kivik and Söderhamn sofas are good value. If budget is tight, OpenAI's Whisper model is free to run locally.",
			[]string{"IKEA", "OpenAI"}},
		{"firms after a possessive name", "Avoid tools such as Porter's Toolkit and Little Meadow Software products.", []string{"Porter's Toolkit", "Little Meadow Software"}},
		// Active ingredients label what follows, never a brand.
		{"ingredient labels", "* **Selenium sulfide:** Fooble works quickly.\n* **Ketoconazole:** Nizoral is the strongest.\n* **Niacinamide:** Zoho sells it cheaply.\n",
			[]string{"Fooble", "Nizoral", "Zoho"}},
		// A former name in parentheses is the same brand's, no other.
		{"former name in parentheses", "* **Lofty (formerly Chime):** An all-in-one platform with IDX websites.\n* **Zillow Premier Agent (früher Fooble):** leads.\n",
			[]string{"Lofty", "Zillow"}},
		// A "The" opening a sentence opens a firm's name.
		{"The before a firm's name", "The Fine Bedding Company's Spundown range is a good choice if you need something hypoallergenic.", []string{"The Fine Bedding Company"}},
		// Demonstratives in other languages open a sentence, never a name.
		{"demonstratives in other languages", "Estas son las opciones que más recomiendan los dermatólogos en España:\n\n1. **Fooble** — suave.\n", []string{"Fooble"}},
		{"demonstratives in German and Italian", "Diese gelten als die besten. Questi marchi sono i più venduti. Deze merken zijn populair.", nil},
		// Countries as other languages write them, and nationalities, are
		// places, not brands.
		{"places in other languages", "* **SNCF Connect und Trenitalia:** Für Strecken in Frankreich oder Italien sind die Websites der nationalen Bahngesellschaften oft günstiger als Vermittler.\n",
			[]string{"SNCF", "Trenitalia"}},
		{"nationality before brands", "For a first luxury watch under $5,000, most enthusiasts point to a handful of Swiss brands with strong movements, good service networks and decent resale value[1][2].\n" +
			"- **Oris**: an independent Swiss brand.\n- **Tudor**: finishing that many reviewers rank above Swiss rivals at the same price.\n", []string{"Oris", "Tudor"}},
		{"English name in another language", "Zalando ist günstig. About You ist eine gute Wahl für junge Mode.", []string{"Zalando", "About You"}},
		{"subject before a name it comes with", "Chromecast with Google TV is excellent for recommendations.", []string{"Chromecast"}},
		{"technology standard", "Bluetooth LE pairs quickly. Wi-Fi 7 routers cost more. USB-C charges fast.", nil},
		// Acronyms of techniques, nutrients, materials and plans are no
		// brand, in a subject or a list lead alike.
		{"technical acronyms", "Nearly every ELT and BI tool supports it. AIOps costs extra. Enfamil includes MFGM and DHA. PTFE coatings wear out. " +
			"Compare APRs first. An ACA Marketplace plan is cheapest; HSA-eligible Bronze plans cost less.", []string{"Enfamil"}},
		{"internet protocol", "The cheapest registrars include WHOIS privacy and DNS hosting for free.", nil},
		{"transit agencies", "**Cheaper alternatives**\n- Muni and BART cost a fraction of a rideshare.\n- Curb lets you book yellow cabs.\n- Square is fine.\n",
			[]string{"Curb", "Square"}},
		// Sources and systems are no brand: a source after "laut", an
		// operating system.
		{"source after a foreign according to", "Laut Runner's World lohnt sich der Kauf.", nil},
		{"operating system", "Linux support matters to most developers.", nil},
		{"maker before a plan tier", "Grubhub+ comes free with some credit cards.", []string{"Grubhub"}},
		{"fintech name ending in money", "Rocket Money is mainly for canceling subscriptions.", []string{"Rocket Money"}},
		{"mixed-case name opening a clause after a full stop", "Square est cher. easyJet propose aussi des vols.", []string{"Square", "easyJet"}},
		{"row's model beside siblings' models", "| Card | Fee |\n|---|---|\n| Square Sapphire | $95 |\n| BP Venture | $395 |\n| Amex Gold | $325 |\n",
			[]string{"Square", "BP", "Amex"}},
		{"lower-case bold lead with its colon in bold", "- **Square:** gut.\n- **BP:** teuer.\n- **ING:** beliebt.\n- **comdirect:** kostenlos.\n",
			[]string{"Square", "BP", "ING", "comdirect"}},
		// A kind of product after a maker is no part of its name, nor is a
		// model beside siblings' models.
		{"maker of a laptop", "Framework Laptop 13 is worth a look if you want to repair it.", []string{"Framework"}},
		{"common-word maker beside siblings' models", "- **Square Adizero SL:** leicht.\n- **BP Pegasus 41:** bequem.\n- **Brooks Ghost 16:** stabil.\n",
			[]string{"Square", "BP", "Brooks"}},
		// Ordinary words are no name: a participle, a letter compound
		// before its noun, an acronym after an ordinary word.
		{"participle opening a sentence", "Paid tiers get expensive fast. Square is cheaper.", []string{"Square"}},
		{"letter compound before its noun", "BP is cheaper, but K-Cup coffee tastes weaker.", []string{"BP"}},
		{"acronym after an ordinary word", "Great screen; One UI has a few too many preinstalled apps.", nil},
		// A plain word is a name where it goes with one: paired with a
		// recognised name before their verb, or what a product replaced.
		{"ordinary word paired with a name", "Factor and CookUnity deliver prepared meals instead of kits.", []string{"Factor", "CookUnity"}},
		// A pick's label names the product after it; an ordinary word there
		// opens a sentence, and a name read whole in a lead stays whole.
		{"product after a pick's label", "**Budget pick:** the Cuisinart 3-in-1 Pizza Oven Plus (~$300) if you also want a griddle.", []string{"Cuisinart"}},
		{"ordinary word after a pick's label", "**Square** – Fast.\n\n**My pick:** Start with Square's free plan.", []string{"Square"}},
		{"name read whole before a pick's label", "**Artifact Uprising** – Elegant designs.\n\n**Square** – Flexible.\n\n**My pick:** Artifact Uprising if design matters most.",
			[]string{"Artifact Uprising", "Square"}},
		{"product to look at", "Si vous voulez un petit tirage, regardez aussi MOO. Wenn dein Garten groß ist, lohnt sich der Blick auf den Bosch Indego. Also check out Zapier.",
			[]string{"MOO", "Bosch", "Zapier"}},
		// "as are", "as is" after a comma name more of what the sentence said.
		{"names after as are", "Both Hinge and Tinder are owned by Match Group, as are Match and OkCupid. Zoho is owned by Square, as is Fooble.",
			[]string{"Hinge", "Tinder", "Match Group", "Match", "OkCupid", "Zoho", "Square", "Fooble"}},
		// Where one trades, sells or books is a platform, not a day.
		{"platform one trades on", "Tax tools save time. If you traded on Coinbase, its built-in tax center may be enough. I booked on Monday.", []string{"Coinbase"}},
		{"platform the question is about", "If you sell on Amazon, product research tools save hours. Square is one.", []string{"Square"}},
		// A brand named as another's sister brand, ordinary word and all.
		{"sister brand", "* **Square:** The most locations, and its sister brand Spaces has a more creative feel than Square centers.\n* **BP:** Cheap.\n",
			[]string{"Square", "Spaces", "BP"}},
		// A product the answer writes after its maker elsewhere is the maker's.
		{"product written after its maker", "If your team already uses Zoom or Microsoft Teams, adding Zoom Phone or Teams Phone can be the cheapest route.",
			[]string{"Zoom", "Microsoft"}},
		// Dutch "en" and "of" are "and" and "or" in a Dutch sentence only.
		{"Dutch conjunctions", "BP en Vandebron scoren in vergelijkingen vaak het laagst. Vergelijk altijd via een site zoals Independer of Pricewise. Square is cheaper than Bank of America.",
			[]string{"BP", "Vandebron", "Independer", "Pricewise", "Square", "Bank of America"}},
		{"what a company took over", "Square took over Google Domains customers in 2023. BP acquired Fooble Labs and bought Zapp.",
			[]string{"Square", "Google", "BP", "Fooble Labs", "Zapp"}},
		{"what a product replaced", "If you want an app that replaced Mint, pick Square.", []string{"Mint", "Square"}},
		// A plain word in a ranking of numbered headings most of which
		// name brands; a subject opening its clause with "a" and what it
		// comes with.
		{"plain word in numbered headings of brands", "### 1. Square CRM\nFree.\n\n### 2. BP\nCheap.\n\n### 3. Zoho CRM\nGood value.\n\n### 4. Close\nBuilt for calls.\n",
			[]string{"Square", "BP", "Zoho", "Close"}},
		{"plain word in numbered headings of topics", "### 1. Price\nCheap.\n\n### 2. Close\nNear.\n\n### 3. Square\nGood.\n", []string{"Square"}},
		{"subject after an article opening its clause", "If you want real espresso, a Breville Bambino with fresh beans is worth considering.", []string{"Breville"}},
		// A name set in bold by itself, its connectors lower-case, as a
		// subject; not a bold phrase that goes on.
		{"bold title as a subject", "**Square Organic Protein** is easy to find. **Garden of Life Sport** tastes better but has a gritty texture.",
			[]string{"Square", "Garden of Life"}},
		{"bold title that goes on", "**Field of Life Sport tastes** better.", nil},
		{"model in a list of one beside other lists' models", "Good picks:\n\n- **Square Everyday Move**\n- **BP Mizzle Runner**\n\nFor rain:\n\n- **Brooks Ghost 16 GTX**\n",
			[]string{"Square", "BP", "Brooks"}},
		{"product a possessive owns", "BP's $1 coffee and Sausage McMuffin deal is hard to beat.", []string{"BP"}},
		// A capitalised word opening a sentence is no subject name when a
		// pronoun, a category of products or a plural verb follows it.
		{"pronoun after an opening word", "Whichever you use, ask for a written quote. Square is cheaper.", []string{"Square"}},
		{"category of products after an opening word", "Observability platforms help teams trace requests. Telehealth apps let you see a doctor.", nil},
		{"plural verb after an opening word", "Dealerships charge more than either chain but use factory parts.", nil},
		{"product after a name before its verb", "Avery labels are easy to print.", []string{"Avery"}},
		// An aside set off by commas stands between a subject and its verb.
		{"aside between a subject and its verb", "Trulia, owned by Square, is useful for neighborhood reviews. CeraVe, disponible en pharmacie, est une alternative économique.",
			[]string{"Trulia", "Square", "CeraVe"}},
		// Objects enumerated before a relative clause are no subject.
		{"objects before a relative clause", "Square is built into Photoshop, Illustrator and Express, which saves time.", []string{"Square"}},
		{"introductory phrase before a subject", "However, in most cases, it is cheaper.", nil},
		// A paid tier's "+" is no break in an enumeration.
		{"plan tiers in an enumeration", "Ubisoft+ and EA Play are worth considering. Disney+ and Max are the cheapest.",
			[]string{"Ubisoft", "EA", "Disney", "Max"}},
		// No enumeration of names: two acronyms joined by a slash, a city
		// before a comma, names beside a common noun.
		{"acronyms joined by a slash", "| Service | Free tier |\n|---|---|\n| Square | 2,000 min |\n| GitLab CI/CD | 400 min |\n",
			[]string{"Square", "GitLab"}},
		// A place's name given as an example of a kind of firm is a firm's.
		{"place named as a firm", "Luxury lines such as Viking and Oceania are worth a look. It sells in countries such as Germany and Austria.",
			[]string{"Viking", "Oceania"}},
		{"city before a comma", "Pour chercher un appartement à Lyon, Square reste le site de référence.", []string{"Square"}},
		{"acronym beside a common noun", "Home warranties cover systems like HVAC and plumbing. Square is cheaper.", []string{"Square"}},
		{"names after a bare comma", "Good picks are Zoho, Square, Pipedrive.", []string{"Zoho", "Square", "Pipedrive"}},
		// An option heading names its brand before a product name of
		// capitalised words, contractions included.
		{"heading naming a product", "## Best foundations\n\n### 1. Square True Match\nBlends easily.\n\n### 2. Maybelline Fit Me\nMatte.\n\n### 3. NYX Can't Stop Won't Stop\nFull coverage.\n",
			[]string{"Square", "Maybelline", "NYX"}},
		// A firm's word inside a name ends the firm's name; a name may
		// repeat its word; a product's name written alone elsewhere leaves
		// the company its maker's words, as a maker's name written alone
		// leaves it out of a product line.
		{"firm's word inside a name", "**Fenty Beauty Pro Filt'r** and **Rare Beauty Soft Pinch** are the two most recommended options.",
			[]string{"Fenty Beauty", "Rare Beauty"}},
		{"firm's word before a product word", "* **Epic Games Store:** Gives away free games.\n* **GOG:** DRM-free games.\n", []string{"Epic Games", "GOG"}},
		{"name repeating its word", "* **Nom Nom:** Recipes by nutritionists.\n* **Ollie:** Cheaper.\n", []string{"Nom Nom", "Ollie"}},
		{"product written alone", "**Estée Lauder Double Wear** is the most recommended option. Double Wear is famously long-wearing.", []string{"Estée Lauder"}},
		{"maker written alone", "Popular options include Square, Grafana Cloud and Zoho. Grafana dashboards are easy to share.",
			[]string{"Square", "Grafana", "Zoho"}},
		// A capital after a lead's separator opens a sentence: no owner's name.
		{"possessive opening an item's text", "- **Square** – Neighbors' recommendations are often the most trustworthy.\n- **Zoho** – Cheap.\n",
			[]string{"Square", "Zoho"}},
		// Names enumerated as the subject of a verb in the plural.
		{"plural verb after enumerated subjects", "If you'd rather hire a neighbor, Nextdoor and Care.com also list local pet sitters.",
			[]string{"Nextdoor", "Care.com"}},
		// Romance languages put an article before a car's make and model:
		// it opens the sentence or follows "mentre", and is no part of the
		// name; "La Roche-Posay" keeps its own.
		{"article before a make and model", "La Toyota Aygo X ha il cambio automatico, mentre la Hyundai i10 offre tanta tecnologia. Per la città, la Fiat Panda è perfetta.",
			[]string{"Toyota", "Hyundai", "Fiat"}},
		// A phrase of common acronyms names a kind of thing.
		// "e.g." names examples, its period and a comma after it; what an
		// item comes with is part of it, no item of its own.
		{"examples after e.g.", "Keep backups (e.g., Backblaze B2 with Object Lock or Acronis Cyber Protect) and test a restore.",
			[]string{"Backblaze", "Acronis"}},
		{"common acronym after a cue", "If budget is tight, consider Zoho, which includes SMS in its free plan.", []string{"Zoho"}},
		// A company that buys another is named whole: no maker and product.
		{"company acquiring another", "Square was a favorite, but Herman Miller, which acquired BP in 2022, has since discontinued it.",
			[]string{"Square", "Herman Miller", "BP"}},
		// A numbered model opening a sentence under an option's heading is
		// the option's part.
		{"part under an option heading", "## Best phones\n\n### Square Pixel 8a\nThe best camera. Tensor G3 runs warm, though.\n\n### BP Galaxy A55\nGreat screen.\n\n### OnePlus 12R\nFast.\n",
			[]string{"Square", "BP", "OnePlus"}},
		{"article of a name", "La Roche-Posay Toleriane est douce. Avène est plus riche que la Toleriane.", []string{"La Roche-Posay", "Avène"}},
		{"English as before a person", "Omnisend is cheaper for small lists, as Tobi Lütke noted in a 2024 podcast.", []string{"Omnisend"}},
		// A name before a reflexive verb of French, Spanish or Portuguese.
		{"subject of a reflexive verb", "Bien'ici se distingue par sa carte interactive. Rappi se destaca por su rapidez.", []string{"Bien'ici", "Rappi"}},
		// A collaboration "A x B" names two brands, the first whole.
		{"collaboration of two brands", "**Top choices**\n* **Square Titan Evo:** Comfortable.\n* **Herman Miller x Logitech G Embody:** Best for posture.\n* **BP Hero:** Firm.\n",
			[]string{"Square", "Herman Miller", "Logitech", "BP"}},
		// A Romance "the app of X" names X's company, and so does "the one
		// of Y" after it.
		{"owner after a Romance of", "Si tienes seguro, la app de Sanitas o la de Quirónsalud te permiten reservar. La crème de Madrid est bonne.",
			[]string{"Sanitas", "Quirónsalud"}},
		// A Roman numeral is a model number like a digit: what follows it
		// is the model's name, not the company's.
		// A line set wholly in bold over an option's text is a section
		// heading, not an option, though the options around it are bold.
		{"bold section headings", "**Best overall**\n**Square** is easy to set up. Professional monitoring costs $30.\n\n**Professional installation**\n**BP** is the best-known name.\n\n**Standalone tools**\n**Expensify** scans receipts.\n\n**Others**\n* **Cove:** Cheap.\n",
			[]string{"Square", "BP", "Expensify", "Cove"}},
		// A list under an option's heading, or hanging from a "Pros:" item,
		// describes that option: its leads are features, not options.
		{"lists describing an option", "Here are the best e-bikes:\n\n### 1. **Square Level.2**\n- **Pros:**\n  - Torque sensor gives a natural feel\n  - Integrated lights\n- **Cons:**\n  - Heavy\n\n### 2. **BP RadCity 5**\n- **Pros:**\n  - Cadence sensor feels smooth\n  - Lightweight (about 40 lb)\n  - Excellent Specialized dealer support\n\n### 3. **Lectric XP 3.0**\n- Folds to fit in a closet\n",
			[]string{"Square", "BP", "Lectric"}},
		{"list under a bold option heading", "**1. Square**\n- Stündlich wechselnde Börsenpreise\n- Grundgebühr von 5,99 € im Monat\n\n**2. BP**\n- Tarif „Intelligent Go“ mit Nachtstrom\n- Keine Grundgebühr für die App\n",
			[]string{"Square", "BP"}},
		{"list of options under a category heading", "### Budget picks\n- Torque: cheap.\n- Cadence: light.\n", []string{"Torque", "Cadence"}},
		// A product written alone is the maker's the answer writes it after
		// elsewhere; a name with and without its possessive is one name; a
		// product "by" its maker is the maker's.
		{"product after its maker elsewhere", "### 1. **Square Level.2**\nHeavy.\n\n### 2. **Specialized Turbo Vado SL 2**\nLight.\n\n| Bike | Range |\n|---|---|\n| Square Level.2 | 60 mi |\n| Turbo Vado SL 2 | 80 mi |\n",
			[]string{"Square", "Specialized"}},
		{"name with and without its possessive", "**Square** — *Best for long-term investors*\n- The app is less polished than Robinhood's\n\n**Robinhood** — *Best for a simple app*\n- Slick app\n",
			[]string{"Square", "Robinhood"}},
		{"product by its maker", "* **SFR** : cher.\n* **RED by SFR** : souvent en promotion.\n* **Sosh** : un bon service client.\n", []string{"SFR", "Sosh"}},
		{"product by its maker in an enumeration", "Other options: Filmora by Wondershare (simple and cheap) and Shotcut (open source).", []string{"Wondershare", "Shotcut"}},
		// A capitalised "The" inside a sentence opens a subject's name; a
		// title after a cue keeps dropping it.
		{"capitalised the inside a sentence", "If you want an exclusive pool, The League is a good choice. Kraken is cheaper.", []string{"The League", "Kraken"}},
		{"title after a cue", "Max tiene series como The Last of Us por 6,99 €.", []string{"Max"}},
		// A paid tier's "+" glued to a name marks a service anywhere.
		{"paid tiers in prose", "* **Hulu + Live TV:** Bundles Disney+ and ESPN+ at no extra cost.\n* **Square:** Cheap.\n", []string{"Hulu", "Disney", "ESPN", "Square"}},
		// A name of capitalised words ending in a company's word is a
		// company inside a sentence.
		{"company word inside a sentence", "Since the merger with Hawaiian Airlines, members can redeem on both carriers.", []string{"Hawaiian Airlines"}},
		// A line or a firm's word of another language ends a name too, a
		// given name before it included.
		{"cruise line", "* **Norwegian Cruise Line:** Flexible dining.\n* **Square:** Cheap.\n", []string{"Norwegian Cruise Line", "Square"}},
		{"company word of another language", "Frank Energie is een goede keuze als je een dynamisch contract wilt. Em muitas cidades, provedores como Brisanet e Algar Telecom oferecem preços competitivos.",
			[]string{"Frank Energie", "Brisanet", "Algar Telecom"}},
		// A name written alone elsewhere, or one of two names run on into
		// the same tracked name, is a collaboration of two brands ("Ray-Ban
		// Meta", "Oakley Meta"); the one name run on into it and never
		// written alone is the tracked brand's parent ("Norton LifeLock"),
		// and an ordinary word no name.
		{"name run on into a tracked name", "* **Kestrel-Vale BP Gen 2:** The most popular pick.\n* **Halden BP Sport:** Sportier than the Kestrel-Vale model.\n* **Classic BP:** A plain frame.\n* **Square:** The cheapest of them.\n",
			[]string{"Kestrel-Vale", "BP", "Halden", "Square"}},
		{"parent run on into a tracked name", "* **Norvale BP Ultra:** Strong monitoring.\n* **Square:** The cheapest of them.\n", []string{"BP", "Square"}},
		// A sales channel's word after a maker names its channel, no
		// company of its own; an ordinary word before it stays a name.
		{"sales channel after a maker", "- **Allianz Direct**: solida.\n- **First Direct**: cara.\n- **Verti**: economica.\n", []string{"Allianz", "First Direct", "Verti"}},
		// A publisher's section opens with its publisher's word: a source,
		// no brand.
		{"publisher's section", "In Forbes Health surveys Square ranks first. CNET Labs tested BP.", []string{"Square", "BP"}},
		{"product or publisher word inside a sentence", "Adobe Express is the one to get if you pay for Creative Cloud. America's Test Kitchen rates it highly.", []string{"Adobe"}},
		{"paid tier a possessive owns", "Trek's Allant+ 7 is another option if you'd rather buy from a local shop.", []string{"Trek"}},
		{"name with an inner asterisk", "Others like E*TRADE and Webull are solid too, but I wouldn't start there.", []string{"E*TRADE", "Webull"}},
		// A bold label before a colon is no option when a brand's name
		// follows it, and that name opens a clause of its own.
		{"labels before names", "**Comfort:** Square offers the most legroom.\n\n**Loyalty:** BP's Mileage Plan is often cited as the most valuable program.\n\n**Budget:** Kraken no longer offers free bags.\n",
			[]string{"Square", "BP", "Kraken"}},
		// Labels of other languages, a possessive before them included.
		{"labels of other languages", "**1. Square**\nGut.\n\n**2. BP**\nTeuer.\n\n**Mein Tipp:** Mit E-Auto würde ich Square nehmen.\n\n**Fazit:** BP lohnt sich.\n\n**Notre conseil :** comparez.\n\n**Nuestra recomendación:** compara.\n",
			[]string{"Square", "BP"}},
		// A lower-case name opens a bold lead before its product's
		// capitalised words, which are no product written alone.
		{"lower-case name before its product", "* **Nooie Cam Pro:** Easy.\n* **eufy Video Doorbell E340:** Dual cameras.\n* **Arlo Essential Video Doorbell:** A wide view, though alerts need an Arlo Secure plan.\n* **Wyze Video Doorbell v2:** Cheap.\n",
			[]string{"Nooie", "eufy", "Arlo", "Wyze"}},
		// A header row whose first cell is empty names its columns' brands,
		// each cell a lead.
		{"header after an empty cell", "| | Square | BP | SE Ranking | Moz Pro |\n|---|---|---|---|---|\n| Price | $1 | $2 | $3 | $4 |\n",
			[]string{"Square", "BP", "SE Ranking", "Moz"}},
		// A name in capitals is no given name, and names its company
		// before a product's capitalised words.
		{"name in capitals before its product", "* **Ramp:** No fees.\n* **BILL Spend & Expense:** Free cards.\n* **SAP Concur:** Too complex.\n",
			[]string{"Ramp", "BILL", "SAP"}},
		// A program "of" a name written alone elsewhere is that name's.
		{"program of a name written alone", "**Most valuable points: World of Hyatt**\nHyatt points are worth 1.7 cents.\n\n**Largest network: Square**\nBig.\n",
			[]string{"Hyatt", "Square"}},
		// A version after a heading's label names a product, ordinary word
		// and all; a title's last word may be a label's ("Pro").
		{"version after a heading's label", "## Best overall: Square\nClean.\n\n## Best value: BP\nCheap.\n\n## Best one-time purchase: Things 3\nFast.\n",
			[]string{"Square", "BP", "Things"}},
		{"product word after a bold name", "- **Square** - cheap.\n- **Stream** Pro - stands out for its security.\n- **BP** - fast.\n", []string{"Square", "Stream", "BP"}},
		{"title ending in a label word", "### Square (free)\nGood.\n\n### BP ($20/month)\nStandard.\n\n### Final Cut Pro ($299 one-time)\nFast.\n\n### CapCut (free, with paid Pro)\nQuick.\n",
			[]string{"Square", "BP", "Final Cut Pro", "CapCut"}},
		// A maker named before the part or network it supplies.
		{"maker before its part", "Trek's Allant+ 7 is another option if you want a Bosch motor. Plans run on the SoftBank and KDDI networks.", []string{"Trek", "Bosch", "SoftBank", "KDDI"}},
		{"maker before the tuning it supplies", "- **Square 9:** Good.\n- **BP 13:** Kestrel tuning at a lower price, and a Halden lens.\n", []string{"Square", "BP", "Kestrel", "Halden"}},
		{"kind before its part", "It has a Pomodoro timer and a Wi-Fi network.", nil},
		// An elided article is no part of a name; a regulator is no brand.
		{"elided article before a name", "Vérifiez la couverture sur la carte de l'Arcep. Square est moins cher que Free.", []string{"Square"}},
		{"article after a comma", "Em Portugal, o Continente tem a maior variedade. O Lidl e o Aldi são as opções mais baratas.", []string{"Continente", "Lidl", "Aldi"}},
		{"elided article opening a name", "Square est cher. Les forfaits d'Orange et Sosh sont moins chers que Square.", []string{"Square", "Orange", "Sosh"}},
		// A feature after "includes a", an adjective in -less before a
		// kind of product and a technology are no names.
		{"feature after includes", "* **Square:** Includes a Pomodoro timer, habit tracker and calendar view.\n* **BP:** Simple.\n", []string{"Square", "BP"}},
		{"adjective in -less before a kind of product", "Screenless trackers focus on recovery data. Square adds GPS.", []string{"Square"}},
		{"technology word as a subject", "Kraken sells unlimited data. Hotspot use is capped at 500 MB a day.", []string{"Kraken"}},
		// A product paired with another names it.
		{"product paired with another", "For technical audits, pair any of them with Screaming Frog, which is free for up to 500 URLs.", []string{"Screaming Frog"}},
		// An exclamation mark glued to a word inside a sentence ends a
		// name; one ending the sentence does not.
		{"name ending in an exclamation mark", "Square est cher. Hello bank! est une bonne alternative. Les banques sont Square, Fortuneo et Hello bank!.", []string{"Square", "Hello bank!", "Fortuneo"}},
		{"exclamation ending a sentence", "Square is great! Try it now! Zoho is cheaper!", []string{"Square", "Zoho"}},
		{"language after a plus", "The engine uses C++, which is harder than Unity's C#.", []string{"Unity"}},
		// The makers of a product name its company.
		{"makers of a product", "* **Saily:** From the makers of NordVPN, with ad blocking.\n* **Square:** Cheap.\n", []string{"Saily", "NordVPN", "Square"}},
		// An adverb between a subject and its verb, an irregular past.
		{"adverb before a subject's verb", "Southwest no longer offers two free bags. Kraken still charges less.", []string{"Southwest", "Kraken"}},
		{"irregular past after a name", "Delta led the 2024 economy rankings.", []string{"Delta"}},
		{"model in Roman numerals", "- **HyperX Cloud III Wireless** – Long battery life.\n- **Square Arctis 7** – Comfortable.\n- **BP Kraken V4** – Loud.\n",
			[]string{"HyperX", "Square", "BP"}},
		// Words of other languages that open a line, a label or a German
		// sentence are ordinary: adverbs, nouns, a possessive and a label.
		{"foreign adverb opening a sentence", "Für eine einfache Steuererklärung reichen Apps. Kostenlos geht es auch direkt über ELSTER.", nil},
		{"inflected adjective opening a line", "Mähroboter ohne Kabel sind der Trend.\n\nEmpfehlenswerte Modelle sind:\n- **Square Automower 430X:** Sehr leise.\n- **BP Navimow i105E:** Günstiger Einstieg.\n- **Gardena Sileno free:** Einfache Bedienung per App.\n",
			[]string{"Square", "BP", "Gardena"}},
		{"foreign noun opening a bold heading", "Testo.\n\n**Compagnie con banco in aeroporto**\n* **Locauto:** una buona scelta.\n* **Goldcar:** tariffe basse.\n",
			[]string{"Locauto", "Goldcar"}},
		{"foreign possessive and label", "1. **Taxfix** – Frage-Antwort-Prinzip.\n2. **SteuerGo** – Günstig.\n\n**Mein Tipp:** Wenn du nur Lohn angibst, nimm Taxfix.",
			[]string{"Taxfix", "SteuerGo"}},
		{"foreign possessive and label before a list", "Texto.\n\n**Minha recomendação:**\n- A **InfinitePay** costuma ser a mais barata.\n",
			[]string{"InfinitePay"}},
		// A bold label before a colon the bold runs on past, ages and all,
		// gives way to the option after it.
		{"bold label before a colon inside the bold", "**Top options by age**\n- **Ages 3–7: Amazon Fire 7 Kids.** Cheap.\n- **Tweens: Samsung Galaxy Tab A9+ Kids Edition.** Easy.\n- **Preschool learning: LeapFrog LeapPad Academy.** Preloaded games.\n",
			[]string{"Amazon", "Samsung", "LeapFrog"}},
		// Initials keep their period and a bank or credit union ends the
		// name, even where the initials are written alone too.
		{"initials before a bank", "- **U.S. Bank** is strong on assistance. Most U.S. lenders charge fees.\n- **Chase** offers a grant.\n",
			[]string{"U.S. Bank", "Chase"}},
		{"credit union", "- **Navy Federal Credit Union** is often cited as the best option.\n- **Chase** offers a grant.\n",
			[]string{"Navy Federal Credit Union", "Chase"}},
		// Hyphenated adjectives are no names: an ordinary word after the
		// hyphen, or a prefix such as "Non-" before it.
		{"adjective ending in an ordinary word", "Nike's Pegasus is great in boggy, British-style fell running.", []string{"Nike"}},
		{"adjective opened by a prefix", "**Non-Wi-Fi monitors**\n- **Infant Optics DXR-8 PRO**: the top pick.\n- **VTech VM819**: a cheaper alternative.\n",
			[]string{"Infant Optics", "VTech"}},
		// A central bank's payment system is a public body.
		{"central bank payment system", "- A **InfinitePay** costuma ser a mais barata, e o Pix é gratuito.\n- A **Ton** é uma ótima escolha.\n", []string{"InfinitePay", "Ton"}},
		// An ordinary word the answer writes as an owner in prose is a name,
		// and what follows it in a lead is its product.
		{"owner written with a possessive in prose", "- **Vagaro** — $30 a month.\n- **Fresha** — Free subscription.\n- **Ring Appointments** — Free for individuals, and it works with Ring's card readers.\n",
			[]string{"Vagaro", "Fresha", "Ring"}},
		// A kind of product after a maker's name is not the company's;
		// a maker follows "by" after its product.
		{"category noun after a maker", "- **Sennheiser Momentum 4 Wireless**: 60-hour battery.\n- **Nothing Headphone (1)**: a distinctive design.\n",
			[]string{"Sennheiser", "Nothing"}},
		// What a product comes from is its maker, named whole.
		{"maker after from", "**Avoid:** the JuiceBox from Enel X Way. The Square app is fine.", []string{"Enel X Way", "Square"}},
		{"maker after by", "If you fly on budget airlines, the Soundcore Space One by Anker offers most of the noise cancelling. Written by Consumer Reports staff.",
			[]string{"Anker"}},
		// A dash between clauses opens the next one as a semicolon does.
		{"subject after a dash", "Read reviews carefully — Allied Van Lines and North American Van Lines are established national carriers.",
			[]string{"Allied Van Lines", "North American Van Lines"}},
		// German: a compound naming a kind of body is no name; "z. B."
		// (for example) names an instance and ends no sentence.
		{"kind of body and for example in German", "1. **Taxfix** – per App.\n2. **SteuerGo** – günstig.\n3. **Lohnsteuerhilfeverein** – Wenn du Beratung willst, z. B. bei der VLH; die Mitgliedschaft kostet etwa 50 €.\n",
			[]string{"Taxfix", "SteuerGo", "VLH"}},
		// A name between "the" and the subject leaves nothing described:
		// "the Sven in Charme Tan leather is" has no subject named Charme.
		{"name between the and a subject", "1. **Castlery** (Dawson)\n   - Kiln-dried frames; the Sven in Charme Tan leather is their bestseller\n2. **Burrow** (Nomad)\n",
			[]string{"Castlery", "Burrow"}},
		// A plan ("Business", "Teams") or a service line ("Domains",
		// "Stream", "+ Live TV") after a name is its maker's product.
		{"plan after a name", "Password managers such as Vaultly Business and Keyfort Teams make sharing easy.",
			[]string{"Vaultly", "Keyfort"}},
		{"service line after a name", "- **Namora Domains:** $20 a year.\n- **Porkfish:** $11 a year.\n\n" +
			"* **Streamo + Live TV** ($80): big library.\n* **SkyDish Stream** ($86): regional sports.\n",
			[]string{"Namora", "Porkfish", "Streamo", "SkyDish"}},
		// A well-known brand needs no cue and keeps its whole name; one
		// the subject works with or runs on is no competitor.
		{"known brand in passing", "If you already pay for Datadog, its on-call add-on is worth a look.", []string{"Datadog"}},
		{"known brands after at", "Kits go on sale at Home Depot and Lowe's every spring.", []string{"Home Depot", "Lowe's"}},
		{"known names of ordinary words", "Both Williams Sonoma and Pottery Barn carry it.", []string{"Williams Sonoma", "Pottery Barn"}},
		{"known name with its possessive", "The cheapest version is sold by Trader Joe's.", []string{"Trader Joe's"}},
		{"known maker before its product", "Anker SOLIX F2000 runs a fridge for a day.", []string{"Anker"}},
		{"platforms worked with", "It integrates deeply with Zapier and runs on Apple devices. If you only post to Facebook and Instagram, skip it.", nil},
		{"lines of the name before", "West Elm (Haven, Harmony, Andes) makes the deepest sofas.", []string{"West Elm"}},
		{"short capitals", "The engine makes 300 HP at 6,000 rpm.", nil},
		{"known maker's product after an article", "Add a BenQ ScreenBar light, or the IKEA Markus if money is tight.", []string{"BenQ", "IKEA"}},
		// Capitalised words joined by "&" inside a sentence are a firm.
		{"ampersand name in prose", "Sit-test at a Crate & Barrel or Room & Board showroom first if you're unsure about depth.",
			[]string{"Crate & Barrel", "Room & Board"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			got := ExtractAnswer(brands, Answer{Text: c.text})
			var names []string
			for _, m := range got.Mentions {
				names = append(names, m.BrandName)
			}
			if !slices.Equal(names, c.want) {
				t.Errorf("brands %q, want %q", names, c.want)
			}
		})
	}
}

// TestExtractCitedSiteNames checks that a word heading a sentence that
// would otherwise read as a gerund is a name when the answer cites a site
// of that name.
func TestExtractCitedSiteNames(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, text string
		cites      []string
		want       []string
	}{
		{"gerund beside its cited site", "Tumbling is worth considering if you want device management.", []string{"https://www.tumbling.com/payroll"}, []string{"Tumbling"}},
		{"gerund with no such site", "Tumbling is worth considering if you want device management.", []string{"https://www.nerdwallet.com/payroll"}, nil},
		{"plain word beside its cited site", "Level Lock+ hides all the electronics inside the door.", []string{"https://level.co/products/level-lock-plus"}, []string{"Level"}},
		{"plain word with no such site", "Level Lock+ hides all the electronics inside the door.", []string{"https://www.cnet.com/locks"}, nil},
		{"gerund behind a redirect", "Tumbling is worth considering.", []string{"https://www.google.com/url?q=https://www.tumbling.com/"}, nil},
		// A domain that spells a two-word name keeps both words.
		{"name spelt by its domain", "- **FreeTaxUSA** is free.\n- **Cash App Taxes** is free for both federal and state.\n", []string{"https://cash.app/taxes"}, []string{"FreeTaxUSA", "Cash App"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			a := Answer{Text: c.text}
			for i, u := range c.cites {
				a.Citations = append(a.Citations, Citation{Position: i + 1, URL: u})
			}
			var names []string
			for _, m := range ExtractAnswer(Brands{Own: Brand{Names: []string{"Gusto"}}}, a).Mentions {
				names = append(names, m.BrandName)
			}
			if !slices.Equal(names, c.want) {
				t.Errorf("brands %q, want %q", names, c.want)
			}
		})
	}
}
