package ingest

import (
	"slices"
	"testing"

	"github.com/sightline/sightline"
)

// TestExtractToneCues checks the stance of one brand in sentences whose
// cue is a phrase rather than a word of the lexicon.
func TestExtractToneCues(t *testing.T) {
	t.Parallel()
	cases := []struct {
		text, brand string
		want        sightline.Tone
	}{
		{"Echelon is similar to Peloton but cheaper.", "Echelon", sightline.TonePositive},
		// Advice against a brand in another language, articles and all.
		{"Evite a Cielo e a Rede se você é MEI.", "Cielo", sightline.ToneNegative},
		{"Evite a Cielo e a Rede se você é MEI.", "Rede", sightline.ToneNegative},
		{"Évitez Fooble si vous voyagez souvent.", "Fooble", sightline.ToneNegative},
		{"**Avoid:** the JuiceBox from Fooble. The company pulled out.", "Fooble", sightline.ToneNegative},
		// A bold line alone heads the list after it as a lead-in does.
		{"Intro.\n\n**Also worth considering**\n- **Sennheiser Momentum 4**: 60-hour battery life.\n- **Fooble Px7**: premium build.\n", "Sennheiser", sightline.TonePositive},
		{"Intro.\n\n**Online lenders**\n- **Sennheiser Momentum 4**: 60-hour battery life.\n- **Fooble Px7**: premium build.\n", "Sennheiser", sightline.ToneNeutral},
		// A low cost per unit praises, in the clause after "but" too.
		{"* An under-sink system from **Fooble** has a high upfront price but a low cost per gallon.\n* **Zoho**: sold online.\n", "Fooble", sightline.TonePositive},
		// Support rated highly praises.
		{"* **Fooble:** Built for small businesses; its customer support is consistently rated highly.\n* **Zoho:** Sold online.\n", "Fooble", sightline.TonePositive},
		// Options that come out on top are endorsed; "on top of" only adds.
		{"Here are the ones that consistently come out on top in long-term tests:\n\n### 1. Fooble Leap\n- Easy to find refurbished.\n", "Fooble", sightline.TonePositive},
		{"On top of that, check these:\n\n- **Fooble**: refurbished units.\n- **Zoho**: sold online.\n", "Fooble", sightline.ToneNeutral},
		// French "mais" opening a clause with no comma before it is "but".
		{"Regardez aussi Fooble, plus cher mais avec un papier épais remarquable.", "Fooble", sightline.TonePositive},
		// The widest coverage praises as the widest selection does.
		{"* **Fooble:** The widest suburban coverage.\n* **Zoho:** Cheap.\n", "Fooble", sightline.TonePositive},
		// Evaluative words: a bankruptcy, an uncertain future and an
		// expensive choice criticise; a market leader, practical options,
		// design freedom, fast delivery, competitive prices and the lowest
		// price praise, in the languages answers come in.
		{"Fooble filed for bankruptcy in 2024, so warranty support is uncertain.", "Fooble", sightline.ToneNegative},
		{"Voor huishoudens met veel zonnepanelen is Fooble een dure keuze.", "Fooble", sightline.ToneNegative},
		{"Fooble is the market leader for phishing simulations.", "Fooble", sightline.TonePositive},
		{"Fooble and Zoho are still the most practical options for getting around.", "Fooble", sightline.TonePositive},
		{"Fooble gives you more design freedom.", "Fooble", sightline.TonePositive},
		{"### 4. Fooble – livraison rapide\n- Commande simple\n", "Fooble", sightline.TonePositive},
		{"Provedores como Fooble oferecem preços competitivos.", "Fooble", sightline.TonePositive},
		{"Fooble scoort in vergelijkingen vaak het laagst op de jaarprijs.", "Fooble", sightline.TonePositive},
		// Others beating the brands, named again by a pronoun, criticises
		// them; a brand beating them is praised.
		{"National installers include Fooble and Zoho, but local installers often beat them on price.", "Fooble", sightline.ToneNegative},
		{"Fooble beats them on price.", "Fooble", sightline.TonePositive},
		// What a brand has none of is a lack, unless it is a burden or a
		// term the reader is spared.
		{"**Fooble Falcon Go** — top-rated detection, but the cheapest tier has no 24/7 managed response.", "Fooble", sightline.ToneNegative},
		{"Fooble has no free tier.", "Fooble", sightline.ToneNegative},
		{"Fooble has no contract and no setup fee.", "Fooble", sightline.TonePositive},
		// More of what is better the longer it is praises.
		{"* **Fooble Meta HSTN:** Same platform in a sportier frame, with longer battery life than the Zoho model.\n* **Zoho:** ok.\n", "Fooble", sightline.TonePositive},
		// Lowering the price praises, as raising it criticises.
		{"A marketplace like Fooble typically lowers the price by 10–20%.", "Fooble", sightline.TonePositive},
		// A paragraph leads in with its last sentence.
		{"De beste fiets hangt af van je budget. Veel gekozen merken zijn:\n\n* **Fooble:** Degelijke fietsen.\n* **Zoho:** Licht.\n", "Fooble", sightline.TonePositive},
		{"Glycinate is well absorbed and gentle. The brands that show up most in reviews are:\n\n- **Fooble Magnesium:** Sold at most pharmacies.\n- **Zoho Mag:** Sold online.\n", "Fooble", sightline.ToneNeutral},
		// Option headings with no heading above them take the stance of
		// the paragraph that leads into them.
		{"These are the CDNs worth shortlisting:\n\n### 1. Zoho\n- Free plan\n\n### 2. Fooble\n- Pay as you go\n", "Fooble", sightline.TonePositive},
		{"These are the main CDNs:\n\n### 1. Zoho\n- Free plan\n\n### 2. Fooble\n- Pay as you go\n", "Fooble", sightline.ToneNeutral},
		// "mixed" criticises reviews and results, not a blend of ground.
		{"For mixed terrain and longer runs, the picture is more nuanced:\n\n1. **Hoka Speedgoat 6**\n2. **Brooks Cascadia 18**\n", "Hoka", sightline.ToneNeutral},
		{"Hoka gets mixed reviews for durability.", "Hoka", sightline.ToneNegative},
		// A list takes the stance of an endorsing lead-in in another language.
		{"Die besten Laufschuhe für Anfänger:\n\n- **Asics Novablast 5:** viel Dämpfung.\n- **Brooks Ghost 16:** stabil.\n", "Asics", sightline.TonePositive},
		{"Empfehlenswerte Modelle sind:\n\n- **Mammotion Luba 2:** Allradantrieb für steile Hänge.\n- **Worx Vision:** mit Kamera.\n", "Mammotion", sightline.TonePositive},
		// "hard to beat" praises; "hard to justify" criticises.
		{"Wyze is hard to beat on price.", "Wyze", sightline.TonePositive},
		{"Wyze's cloud plan is tough to fault.", "Wyze", sightline.TonePositive},
		{"Wyze's cloud plan is hard to justify.", "Wyze", sightline.ToneNegative},
		// "well" with the condition it holds under still praises.
		{"Wyze works well as long as you stay on Wi-Fi.", "Wyze", sightline.TonePositive},
		{"Wyze works well as soon as it is paired.", "Wyze", sightline.TonePositive},
		// Ranked behind another criticises, ahead of it praises; the brand
		// after the verb takes the opposite stance.
		{"Wyze lags behind Ring on video quality.", "Wyze", sightline.ToneNegative},
		{"Ring lags behind Wyze on video quality.", "Wyze", sightline.TonePositive},
		{"Wyze trails Ring in battery life.", "Wyze", sightline.ToneNegative},
		{"Ring trails Wyze in battery life.", "Wyze", sightline.TonePositive},
		{"Wyze is ahead of Ring on price.", "Wyze", sightline.TonePositive},
		{"Ring is ahead of Wyze on price.", "Wyze", sightline.ToneNegative},
		{"Wyze edges out Ring for night vision.", "Wyze", sightline.TonePositive},
		// Advice against it criticises.
		{"I would not recommend Wyze for large homes.", "Wyze", sightline.ToneNegative},
		{"Most installers don't suggest Wyze for outdoor use.", "Wyze", sightline.ToneNegative},
		{"Wyze is similar but costs a fraction of the price.", "Wyze", sightline.TonePositive},
		{"At-home brands like Byte and Candid cost less.", "Byte", sightline.TonePositive},
		{"In blind taste tests, Haagen-Dazs and Talenti usually rank highest for richness.", "Talenti", sightline.TonePositive},
		{"Google Drive and OneDrive are handy, but offer less privacy.", "OneDrive", sightline.ToneNegative},
		{"Chrome and Edge remain less private by default.", "Edge", sightline.ToneNegative},
		{"SmileDirectClub shut down in 2023, leaving many customers mid-treatment.", "SmileDirectClub", sightline.ToneNegative},
		{"Adobe XD is no longer actively developed.", "Adobe", sightline.ToneNegative},
		{"Le Creuset's skillets are prettier but cost five times as much.", "Le Creuset", sightline.ToneNegative},
		{"Budget mats from Gaiam are fine for beginners but compress quickly.", "Gaiam", sightline.ToneNegative},
		{"Zoho is less expensive than most.", "Zoho", sightline.TonePositive},
		{"IFTTT is limited to simple consumer automations.", "IFTTT", sightline.ToneNegative},
		{"Paprika is a recipe app, but it pushes its own appliances.", "Paprika", sightline.ToneNegative},
		{"Paprika is a recipe app, but it also plans meals.", "Paprika", sightline.ToneNeutral},
		{"Nespresso's Vertuo makes better coffee than Keurig, whose K-Cups taste weaker.", "Nespresso", sightline.TonePositive},
		{"Shortcut is a middle ground that many startups like.", "Shortcut", sightline.TonePositive},
		{"Timemore C3 – A hand grinder that punches way above its $70 price.", "Timemore", sightline.TonePositive},
		{"Orient Bambino – A dressy automatic that looks far more expensive than its $180 price.", "Orient", sightline.TonePositive},
		{"Orient watches look more expensive than Seiko's.", "Orient", sightline.ToneNegative},
		{"Tynker – Guided lessons and Minecraft modding, but the best content is behind a subscription.", "Tynker", sightline.ToneNegative},
		{"Be careful with tools such as Zoho, which users criticise for opaque pricing.", "Zoho", sightline.ToneNegative},
		{"Reviewers criticize Zoho's support.", "Zoho", sightline.ToneNegative},
		{"Little Falcon: users love its reporting.", "Little Falcon", sightline.TonePositive},
		{"Best Buy sells the TV for $499.", "Best Buy", sightline.ToneNeutral},
		{"Zevia: zero calories but a subtle, sometimes faint taste.", "Zevia", sightline.ToneNegative},
		{"Garmin watches are pricey, but the maps, in our tests, were excellent.", "Garmin", sightline.TonePositive},
		{"Ninja blenders pack the most power in this price range.", "Ninja", sightline.TonePositive},
		{"Spirit draws the most complaints of any US airline.", "Spirit", sightline.ToneNegative},
		{"Make the most of Zoho's free plan.", "Zoho", sightline.ToneNeutral},
		{"Liquid Death has a loyal fan base among festival-goers.", "Liquid Death", sightline.TonePositive},
		{"Godot is open source, with a large community writing plugins.", "Godot", sightline.TonePositive},
		{"Godot has a community forum.", "Godot", sightline.ToneNeutral},
		{"Zappos is known for its free returns.", "Zappos", sightline.TonePositive},
		{"Subaru has a reputation for longevity.", "Subaru", sightline.TonePositive},
		{"Ryanair is known for its hidden fees.", "Ryanair", sightline.ToneNegative},
		{"Figma is widely used by product teams.", "Figma", sightline.TonePositive},
		{"Valrhona : très utilisée par les pâtissiers.", "Valrhona", sightline.TonePositive},
		{"Shipping times with Temu vary widely.", "Temu", sightline.ToneNeutral},
		{"Picard : un bon rapport qualité-prix.", "Picard", sightline.TonePositive},
		{"Picard : une bonne sélection de surgelés.", "Picard", sightline.TonePositive},
		{"Kindle Unlimited is a flat monthly fee, so you can read as much as you want.", "Kindle", sightline.TonePositive},
		{"The Eufy doorbell stores clips locally, so owners don't pay a monthly fee.", "Eufy", sightline.TonePositive},
		{"The Aqara camera needs a hub, so you'll need to buy one separately.", "Aqara", sightline.ToneNegative},
		{"The Pegasus is a neutral shoe, so it suits most runners.", "Pegasus", sightline.ToneNeutral},
		{"Bitdefender outperforms Norton in malware detection.", "Bitdefender", sightline.TonePositive},
		{"Bitdefender outperforms Norton on detection rates.", "Norton", sightline.ToneNegative},
		{"Older Kobo readers are outclassed by the Kindle Paperwhite.", "Kindle", sightline.TonePositive},
		{"The Fitbit Charge is easily beaten by newer bands.", "Fitbit", sightline.ToneNegative},
		{"Notion and Coda are both flexible, but they serve different teams.", "Coda", sightline.ToneNeutral},
		{"Coda is flexible, but its offline mode is different and buggy.", "Coda", sightline.ToneNegative},
		{"The largest US banks by assets are JPMorgan Chase, Bank of America and Citi.", "Citi", sightline.ToneNeutral},
		{"Booking.com has the largest inventory in Europe.", "Booking.com", sightline.TonePositive},
		{"The Nanit monitor works without Wi-Fi, which some parents prefer.", "Nanit", sightline.TonePositive},
		{"Zoom is generally preferred for large webinars.", "Zoom", sightline.TonePositive},
		{"State Farm suits people who prefer a local agent.", "State Farm", sightline.ToneNeutral},
		{"The Sonos Era 100 has clearer vocals and richer bass.", "Sonos", sightline.TonePositive},
		{"The LG C4 is brighter than the Sony A80L.", "Sony", sightline.ToneNegative},
		{"For a spare room, the Blink Mini is enough.", "Blink", sightline.TonePositive},
		{"The free tier of Dropbox is not enough for photos.", "Dropbox", sightline.ToneNegative},
		{"Slumber & Co, Cloudrest and Nook are comfortable.", "Slumber & Co", sightline.TonePositive},
		// "the most … option" praises the one option; "the most popular
		// options" leads a list.
		{"Acme hides the electronics, which makes it the most discreet option.", "Acme", sightline.TonePositive},
		// A "but" clause opening on what the reader gains decides for praise.
		{"Geico costs a little more, but you get a local agent.", "Geico", sightline.TonePositive},
		{"Dashlane costs $4.99 a month but adds a built-in VPN.", "Dashlane", sightline.TonePositive},
		{"Trek's Domane is pricier but comes with a lifetime warranty.", "Trek", sightline.TonePositive},
		{"Dashlane is free but includes ads.", "Dashlane", sightline.ToneNegative},
		// "breach alerts" is a feature; a breach the brand suffered is not.
		{"Dashlane adds dark-web breach alerts.", "Dashlane", sightline.ToneNeutral},
		{"Dashlane suffered a breach in 2022.", "Dashlane", sightline.ToneNegative},
		// A wide assortment praises what is offered.
		{"Expedia usually has the widest selection of rooms.", "Expedia", sightline.TonePositive},
		{"Gousto offers a broad menu with 60 recipes a week.", "Gousto", sightline.TonePositive},
		{"Expedia covers a wide area.", "Expedia", sightline.ToneNeutral},
		// Surprise charges and a margin added on the rate are price complaints.
		{"Some travelers report surprise fees with Agoda.", "Agoda", sightline.ToneNegative},
		{"Banks such as Barclays typically add a 3% margin on the rate.", "Barclays", sightline.ToneNegative},
		{"Barclays keeps a healthy profit margin.", "Barclays", sightline.ToneNeutral},
		// A number range is no clause break: the "though" clause runs on
		// past it and the main clause decides.
		{"Honda CR-V – Roomy cabin, though some 2017–2018 models had oil issues.", "Honda", sightline.TonePositive},
		{"Honda CR-V – Roomy cabin, though 3–5 day waits for parts are common.", "Honda", sightline.TonePositive},
		{"Honda CR-V – Noisy cabin – roomy trunk.", "Honda", sightline.ToneNeutral},
		// Praise in the languages answers come in, after an elided article
		// too ("un'ottima").
		{"Trulia is useful for neighborhood reviews.", "Trulia", sightline.TonePositive},
		{"Midas can bundle an oil change with a tire rotation, which saves a second trip.", "Midas", sightline.TonePositive},
		{"CeraVe est une alternative économique.", "CeraVe", sightline.TonePositive},
		{"Prima: spesso la più economica, con un'app semplice.", "Prima", sightline.TonePositive},
		{"Toyota ha il cambio automatico e un'ottima affidabilità.", "Toyota", sightline.TonePositive},
		{"La Fiat Panda è più piccola ma è perfetta per parcheggiare in centro.", "Fiat", sightline.TonePositive},
		{"Doctoralia es la opción más completa.", "Doctoralia", sightline.TonePositive},
		{"SeLoger reste le site des agences, avec des filtres très précis.", "SeLoger", sightline.TonePositive},
		{"Hellmann: Familiengeführt und flexibel bei Sonderwünschen.", "Hellmann", sightline.TonePositive},
		{"Avène convient mieux aux peaux très sèches.", "Avène", sightline.TonePositive},
		// An aside between a subject and its verb leaves the verb's clause
		// to the subject.
		{"Trulia, owned by Zillow, is useful for neighborhood reviews.", "Trulia", sightline.TonePositive},
		{"Trulia, owned by Zillow, is useful for neighborhood reviews.", "Zillow", sightline.ToneNeutral},
		{"Some tools, for example Veil, Nord Harbor and Shieldly, have been criticised for hidden fees.", "Shieldly", sightline.ToneNegative},
		// Costing or using little praises in any language; little else does not.
		{"La Dacia Sandero costa poco, consuma poco e ha un bagagliaio ampio.", "Dacia", sightline.TonePositive},
		{"Dacia offre poco spazio.", "Dacia", sightline.ToneNegative},
		// What worries people criticises.
		{"ExpressVPN was acquired by Kape Technologies in 2021, which worries some privacy advocates.", "ExpressVPN", sightline.ToneNegative},
		// Offering plenty praises, unless what it offers is a burden.
		{"Hyundai offre tanta tecnologia a bordo.", "Hyundai", sightline.TonePositive},
		{"Acme offers plenty of storage.", "Acme", sightline.TonePositive},
		{"Xiaomi ofrece mucha publicidad.", "Xiaomi", sightline.ToneNeutral},
		// Standing out praises in the languages answers come in.
		{"Bien'ici se distingue par sa carte interactive.", "Bien'ici", sightline.TonePositive},
		{"Rappi se destaca por su rapidez.", "Rappi", sightline.TonePositive},
		// No extra cost praises, in any language.
		{"Apple Music also streams lossless at no extra cost.", "Apple", sightline.TonePositive},
		{"Con seguro, Sanitas te permite reservar sin coste adicional.", "Sanitas", sightline.TonePositive},
		{"Zoho charges no setup fee.", "Zoho", sightline.TonePositive},
		// "though" of two words in other languages leaves the main clause
		// to decide.
		{"- **Allianz Direct**: copertura solida, anche se più cara delle altre.\n- **Zoho**: ok.\n", "Allianz Direct", sightline.TonePositive},
		{"Hellmann ist flexibel, auch wenn die Preise teuer sind.", "Hellmann", sightline.TonePositive},
		{"Boursorama est pratique, même si les frais sont chers.", "Boursorama", sightline.TonePositive},
		// A larger network praises, as a wide one does.
		{"Rover has the larger network of sitters.", "Rover", sightline.TonePositive},
		{"Rover has a larger logo.", "Rover", sightline.ToneNeutral},
		// Low prices and no contract praise; so do the simplest and what
		// may be all the reader needs.
		{"* **Cove:** Low monitoring prices and no contract.\n* **Abode:** Local automations.\n", "Cove", sightline.TonePositive},
		{"**Les marques low cost**\n* **B&You** : la marque en ligne, avec des forfaits à partir de 9,99 €.\n* **Sosh** : ok.\n", "B&You", sightline.ToneNeutral},
		{"* **Buffer:** The simplest scheduler, with a free plan.\n* **Later:** Visual planner.\n", "Buffer", sightline.TonePositive},
		{"If you only post to two networks, Meta Business Suite is free and may be all you need.", "Meta", sightline.TonePositive},
		// Appreciated praises in the languages answers come in.
		{"* **Sosh** : la marque en ligne, avec un service client apprécié.\n* **Zoho** : ok.\n", "Sosh", sightline.TonePositive},
		// A brand named as an object in a list item's text leaves the
		// item's clauses to its lead.
		{"* **Orange** : cher.\n* **Sosh** : la marque d'Orange, avec un service client apprécié.\n* **Zoho** : ok.\n", "Sosh", sightline.TonePositive},
		{"* **Hulu + Live TV:** Bundles Disney+ and ESPN+ at no extra cost, which makes it good value for families.\n* **Philo:** Cheap.\n", "Hulu", sightline.TonePositive},
		{"* **Kraken:** Lower fees than Coinbase, but Coinbase is easier to use.\n* **Zoho:** ok.\n", "Coinbase", sightline.TonePositive},
		// What pays for itself, and what led a ranking, is praised.
		{"pCloud sells a lifetime plan, which pays for itself in about three years.", "pCloud", sightline.TonePositive},
		{"Delta led the J.D. Power 2024 economy rankings, though its basic fares come with restrictions.", "Delta", sightline.TonePositive},
		{"Delta topped the latest customer satisfaction survey.", "Delta", sightline.TonePositive},
		{"Delta led the way to stricter seat rules.", "Delta", sightline.ToneNeutral},
		// Fewer features "than before" is a fault after "but".
		{"Brex has multi-currency cards, but its free plan now has fewer features than before.", "Brex", sightline.ToneNegative},
		// The "but" clause ends where a sentence opening with a lower-case
		// name begins.
		{"Air France est plus confortable, mais ses tarifs sont deux fois plus élevés. easyJet propose aussi des vols depuis Orly.", "Air France", sightline.ToneNegative},
	}
	for _, c := range cases {
		t.Run(c.text, func(t *testing.T) {
			t.Parallel()
			got := ExtractAnswer(Brands{Own: Brand{Names: []string{c.brand}}}, Answer{Text: c.text})
			i := slices.IndexFunc(got.Mentions, func(m Mention) bool { return m.BrandName == c.brand })
			if i < 0 {
				t.Fatalf("%s not found in %+v", c.brand, got.Mentions)
			}
			if got.Mentions[i].Tone != c.want {
				t.Errorf("tone of %s = %s, want %s", c.brand, got.Mentions[i].Tone, c.want)
			}
		})
	}
}

// TestExtractBoldLeadNames checks that a list item's bold lead set off by a
// colon is the brand's whole name, lower-case words included, while a
// feature label before prose is not a brand.
func TestExtractBoldLeadNames(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, text string
		want       []string
	}{
		{"lower-case words", "## Meal planning apps\n\n- **Mealime:** Free plans.\n- **Paprika:** Saves recipes.\n" +
			"- **Plan to Eat:** Great for families that cook.\n", []string{"Mealime", "Paprika", "Plan to Eat"}},
		{"ordinary words before prose", "- **HubSpot:** Free CRM tier.\n- **Paprika:** Visual pipeline.\n" +
			"- **Follow Up Boss:** Built specifically for real estate teams.\n- **LionDesk:** Lower-cost option.\n",
			[]string{"HubSpot", "Paprika", "Follow Up Boss", "LionDesk"}},
		{"label before a name", "- **Best overall:** Gorgias\n- **Budget pick:** Paprika\n", []string{"Gorgias", "Paprika"}},
		// A label, an aside in parentheses and all, gives way to the name
		// after its colon; a name before its colon stays the lead.
		{"ingredient label before a product", "**Key products**\n- **Glycolic acid (AHA):** Lumora Glow Tonic is a gentle exfoliant.\n" +
			"- **Bakuchiol:** Dermalia Night Cream is potent.\n- **Azelaic acid:** Paprika Calm Gel is the gentlest.\n",
			[]string{"Lumora", "Dermalia", "Paprika"}},
		{"name before a description", "- **Notion:** An all-in-one workspace for notes.\n- **Paprika:** Saves recipes.\n" +
			"- **Coda:** Docs that work like apps.\n- **Fibery:** Sturdier permissions than Coda.\n- **Anytype:** Formerly Anytype Labs, local-first.\n",
			[]string{"Notion", "Paprika", "Coda", "Fibery", "Anytype"}},
		// Bold words in sentence case are a title or a label, in any
		// language; a name capitalises its words.
		{"sentence-case bold titles", "**Budget options**\nPaprika is the cheapest.\n\n**Voor gezinnen**\nPaprika has family plans.\n\n" +
			"**Se preferisci la qualità**\nScegli Paprika.\n", []string{"Paprika"}},
		{"sentence-case labels in a list", "### 1. Paprika – the simplest\n- **Punti forti:** molto semplice\n- **Pensé pour :** les indépendants\n" +
			"- **Lactic acid (AHA):** gentle on dry skin\n", []string{"Paprika"}},
		{"one-word titles beside sentence-case ones", "**Budget options**\nPaprika is the cheapest.\n\n**Exfoliants**\nLumora Glow Tonic is gentle.\n\n" +
			"**5. Sunscreens**\nUse one daily.\n", []string{"Paprika", "Lumora"}},
		{"one-word titles naming options", "**Paprika**\nSaves recipes.\n\n**Mealime**\nPlans meals.\n", []string{"Paprika", "Mealime"}},
		// Words the answer writes in lower case elsewhere name the product's
		// kind, not its maker.
		{"product kind after a maker", "Magnesium glycinate is gentle; magnesium citrate can upset the stomach.\n\n" +
			"- **Golden Encapsulations Magnesium Glycinate:** Hypoallergenic capsules.\n- **Paprika Magnesium Citrate:** Cheap.\n" +
			"- **Corvan Magnesium:** Widely sold.\n", []string{"Golden Encapsulations", "Paprika", "Corvan"}},
		{"quality after a maker", "Take magnesium with food.\n\n- **Paprika Magnesium:** Cheap.\n- **Doctor's Best High Absorption Magnesium:** Affordable.\n" +
			"- **Corvan Magnesium:** Widely sold.\n", []string{"Paprika", "Doctor's Best", "Corvan"}},
		{"numbered bold names", "**1. Lumora Glow Tonic**\n- Gentle.\n\n**2. Dermalia Night Cream**\n- Good for nights.\n\n**3. Paprika Balm**\n- Cheap.\n",
			[]string{"Lumora", "Dermalia", "Paprika"}},
		{"bold name opening with a number", "**Paprika** starts at $15 a month.\n\n**Equinox** is a luxury option.\n\n" +
			"**24 Hour Fitness** is convenient for night owls.\n", []string{"Paprika", "Equinox", "24 Hour Fitness"}},
		{"number run into letters leading an item", "- **Paprika:** Complete.\n- **8x8:** Unlimited calling.\n- **1-800-PACK-RAT** – Steel containers.\n" +
			"- 4K: sharper video.\n- 5-year warranty: standard.\n", []string{"Paprika", "8x8", "1-800-PACK-RAT"}},
		{"lower-case coinage leading an item", "Platforms:\n\n1. Paprika, with integrations.\n2. n8n, open source.\n" +
			"3. mp3, a format.\n", []string{"Paprika", "n8n"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			got := ExtractAnswer(Brands{Own: Brand{Names: []string{"Paprika"}}}, Answer{Text: c.text})
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

// TestExtractSubjectBeforeAside checks that a name no dictionary holds is
// read as a sentence's subject across a parenthetical aside.
func TestExtractSubjectBeforeAside(t *testing.T) {
	t.Parallel()
	text := "Paprika is the most effective platform. Wellfound (formerly AngelList Talent) focuses on startup roles."
	got := ExtractAnswer(Brands{Own: Brand{Names: []string{"Paprika"}}}, Answer{Text: text})
	var names []string
	for _, m := range got.Mentions {
		names = append(names, m.BrandName)
	}
	if want := []string{"Paprika", "Wellfound"}; !slices.Equal(names, want) {
		t.Errorf("brands %q, want %q", names, want)
	}
}

// TestExtractToneAgainstForeignThan checks that a brand after the "than"
// of another language ("mejor que Doctoralia") is what the comparison
// measures against, so the clause speaks of its subject.
func TestExtractToneAgainstForeignThan(t *testing.T) {
	t.Parallel()
	text := "Top Doctors selecciona a menos especialistas, pero todos pasan un proceso de validación, así que es mejor que Doctoralia si buscas un médico."
	if got := firstMention(t, text, []string{"Top Doctors", "Doctoralia"}, "Top Doctors"); got.Tone != sightline.TonePositive {
		t.Errorf("tone of Top Doctors = %s, want positive", got.Tone)
	}
}
