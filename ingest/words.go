package ingest

import "strings"

// The word lists extraction reads answers with, in one place. Every list
// holds lower-case words unless it says otherwise; wordSet builds a set from
// white-space separated words.

func wordSet(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}

var commonWords = wordSet(`
	silver gold golden bronze copper iron stone
	cider vinegar juice pie orchard rainforest jungle basin footage
	sausage pumpkin spice latte burger fries breakfast chicken egg bacon cheese muffin sandwich espresso
	mocha vanilla caramel cinnamon
	granite maple summit harbor harbour cedar meadow beacon otter falcon lantern anchor ridge pine fox oak peak
	field river café cafe
	little
	moisturize cream serum lotion docs database
	paid made built sold held known bought found
	viral kick pure brook framework sleek cozy snappy plush handy mesh trail tee tees
	a about above across after again against all almost along already also although always am among an and
	another any anyone anything anywhere are around as at away back be because been before being below
	between both but by can cannot could did do does doing done down during each either else enough even ever
	every few for from further get gets getting given go goes going got had has have having he her here hers
	herself him himself his how however i if in into is it its itself just last least less let like likely
	many may me might more most much must my near need needs never new next no none nor not now of off often
	on once one only onto or other others our ours out over own per perhaps please quite rather really same
	several she should since so some something sometimes still such than that the their theirs them then there
	these they thing things this those though through thus to too toward towards under until up upon us very
	via was we well were what whatever when where whether which while who whom whose why will with within
	without would yet you your yours
	additionally actually alternatively anyway basically besides briefly certainly clearly consequently
	currently definitely essentially eventually finally firstly fortunately furthermore generally hence
	historically honestly hopefully ideally importantly indeed initially instead interestingly lastly likewise
	meanwhile moreover naturally nevertheless nonetheless notably obviously otherwise overall personally plus
	practically previously primarily realistically recently secondly similarly simply specifically
	subsequently surprisingly thirdly today together typically ultimately unfortunately usually yes ok okay
	one two three four five six seven eight nine ten first second third fourth fifth sixth seventh eighth
	ninth tenth hundred thousand million billion half double single
	access account accuracy action activity ad ads advanced advantage affordability age agency agent agreement
	alternative analysis analytic analytics answer app application approach area article aspect asset
	assistant attention audience automation availability average award background balance bank base basic
	basics benefit bill billing board body bonus book bottom box brand breakdown budget bug business button
	buyer buying call campaign capability capacity card care case category cause caveat center centre
	challenge change channel chart chat check checklist choice city claim class client clinic cloud code
	collaboration collection color colour combination comment commerce community company comparison
	compatibility competition competitor complexity compliance component con concept conclusion condition
	configuration connection consideration contact content context contract control core corner cost country
	coverage credit criteria criterion culture currency customer customization cycle dashboard data database
	date day deal decision default definition delivery demand demo department deployment deposit description
	design desk detail development device difference direction disadvantage discount display distribution
	document domain door drawback drive ease edge edition editor education effect effort element email end
	engine enterprise entry environment error event evidence example exchange experience expert explanation
	extension extra factor family faq feature fee feedback field file filter final finance fit flexibility
	flow focus form format foundation free frequency front fulfillment fulfilment function functionality fund
	future game gap general goal good group growth guarantee guide guidance hand head health help highlight
	history home hospital host hour house hub idea image impact implant implementation improvement income
	industry info information infrastructure input insight installation instance insurance integration
	intelligence interest interface introduction inventory investment issue item job journey key kind
	knowledge label language launch layer lead leader learning lesson level library license licence life
	limit limitation line link list location login look loss machine maintenance majority management manager
	map margin market marketing match material matter measure media medium member memory message method
	metric middle minute mistake mobile mode model moment money month motion name need network news note
	notice number object objective offer offering office operation opinion opportunity option order
	organization organisation origin outcome output overview owner package page pain pair panel parent part
	partner party pass password path pattern payment peace people percent performance period person phase
	phone photo picture piece pipeline place plan plant platform player point policy portal position
	possibility post potential power practice preference premium presence press price pricing principle
	priority privacy pro problem procedure process product production professional profile profit program
	programme progress project promotion proof property proposal protection provider purchase purpose quality
	quantity question quote range rank rate rating reach reader reason recap recommendation record reference
	region registration relation relationship release reliability replacement report reporting request
	requirement research reservation resource response rest result retail return revenue review reward right
	risk role room rule safety sale sales sample savings scale scalability schedule scheme school scope score
	screen search season section sector security segment selection seller sense series server service
	session set setting setup share shipping shop shopping side sign signal site situation size skill
	software solution sound source space speed spend staff stage standard start state statement status step
	stock storage store story strategy stream strength structure student studio style subject subscription
	success suggestion suite summary supplier supply support surface survey system table takeaway talent
	target task tax team technique technology template term test testing text theme thought ticket tier time
	timeline tip title tool top topic total touch track tracking trade traffic training transaction
	transfer treatment trend trial trust truth type unit update upgrade usability usage use user value
	variety vendor verdict version video view visibility vision visitor volume warning warranty way weakness
	web website week weight window word work workflow workspace world year zone
	add allow analyze analyse apply ask assess avoid book build buy calculate call choose click compare
	configure confirm connect consider contact create decide define determine download enable ensure estimate
	evaluate explore find follow gather identify implement improve install keep learn look make manage
	measure monitor negotiate obtain open optimize optimise pay pick plan prepare protect read register
	request review run save schedule secure select sell send set share sign start stay submit switch test
	track train try understand update upgrade use verify visit watch write forward rely sell hold place
	able accurate active additional affordable available bad basic big broad cheap clear common complete
	complex comprehensive custom daily different digital direct easy effective efficient entire essential
	excellent expensive extra fast flexible free full global good great high important large long low main
	major minimal modern monthly multiple native nice notable online open optimal overall personal popular
	possible powerful practical premium primary private professional public quick ready real recent regular
	relevant reliable right robust safe secure short similar simple small smart social solid special specific
	stable standard strong successful suitable third total true typical unique unlimited useful various
	weekly whole wide yearly best better top key quick bottom line why what how who when where which
	pros cons tl dr step bonus honorable honourable mention mentions runner runners up winner overall
	beginner beginners small medium large teams business businesses enterprise startup startups freelancer
	freelancers agency agencies budget value ease setup learning curve customer service customer support
	ability absence academy acceptance accident achievement acquisition act addition address administration
	adoption adult advice affair agenda aid aim air alert alliance amount animal announcement annual appeal
	appearance appointment approval argument arrangement arrival art assessment assignment association
	assumption atmosphere attack attempt attitude authority auto autumn baby bag ball band bar basis battle
	bed beginning behavior behaviour belief bird birth bit blood blow blue boat border boss bottle brain branch
	bread break breath bridge brother building burden cabinet camera camp candidate capital car career cash
	cell chain chair chairman champion championship chance chapter character charge cheap chemical chief child
	children church circle citizen civil claim climate clock club coach coalition coast coat coffee cold
	column combat comfort command commission commitment committee communication concern conference confidence
	conflict congress consequence constitution construction consumer contribution conversation corporation
	council count county couple courage course court cover crash crime crisis critic crowd cup current
	damage danger daughter dead death debate debt decade defense defence degree delay democracy deputy desire
	detection diet dinner disaster discovery discussion disease distance district division doctor dog
	dollar draft drama dream dress drink driver drug duty earth economy edition effect election electricity
	emergency emotion emphasis employee employer energy engineer entrance episode equipment era escape essay
	estate evening examination executive exercise exhibition existence expansion expectation expense
	explosion export exposure expression face fact failure faith fan farm fashion father fear festival figure
	film finding fire firm fish flight floor food foot force forest fortune frame freedom friend fuel fun
	funding gallery garden gas gate gender generation gift girl glass glacier god gold government governor
	grade grant grass ground guard guest gun hair hall handling heart heat height hero highway hill holiday
	hope horse hotel husband ice identity illness impression incident increase independence index individual
	inflation initiative injury inquiry institute institution intention interview invasion island judge
	justice kid king kitchen lab labor labour lady lake land law lawyer leadership league leave leg legislation
	letter liberty light limit list literature loan lot love lunch magazine mail male man manufacturing
	marriage mass master meal meaning meeting mention mind minister ministry mission mix monitor morning mother
	mountain mouth move movement murder museum music nation nature neighbourhood neighborhood night noise
	north nurse occasion offence offense officer official oil operator opposition organisation outlook
	painting paper parliament participation passage patient pay peak peninsula penalty pension percentage
	permission philosophy physics pilot plane plate pleasure pocket poem poet police politics poll pollution
	pool population port possession pound poverty powers pressure prime prince prison prize producer
	professor proportion prospect protest province pub publication publisher quarter queen race radio rain
	ratio reaction reality recession recognition recovery reduction reform refugee regime regulation
	religion renovation rent representative republic reputation resident resolution restaurant retirement
	revolution ring rise river road rock round route row royal ruling rural salary sand satellite scene
	science sea seat secretary seed selection senate senator sentence session settlement shift ship shirt
	shock shoe shot show sight silence sister skin sky smile snow society soil soldier song son soul south
	speaker speech sport square stadium star station steel stone strike studies study sugar sun surgery
	surprise suspect symbol talk tank tea teacher tear technology teeth telephone television temperature
	tension territory terror theatre theater theory threat tour tourism tourist town toy trace tradition
	transport travel treaty tree trial trip troop trouble truck turn uncle understanding union university
	vacation valley vehicle victim victory village violence visit voice vote voter wage walk wall war water
	wave wealth weapon weather wedding welfare west wife wind wine winner woman women wood worker writer youth
	achieve acquire adapt adopt advise afford agree announce appear approve argue arrange attend attract
	become begin believe belong borrow break bring care carry catch cause celebrate clean close collect come
	complain complete concentrate continue contribute control cook cope count cover cross cut deal decline
	deliver demand depend describe design destroy develop die discover discuss divide draw dress drink drive
	drop earn eat elect employ encourage end enjoy enter establish exist expand expect experience explain
	express face fall feed feel fight fill finish fix fly focus forget form gain generate give grow handle
	happen hate hear help hide hire hit hope imagine include increase indicate inform intend introduce invest
	invite involve join jump kill know lack land last laugh lay lead leave lend lie lift limit link listen
	live lose love maintain mark marry matter mean meet mention mind miss move need note notice occur offer
	operate order organise organize own participate pass perform permit plant play point prefer present
	prevent print produce promise promote propose prove provide publish pull purchase push put raise reach
	realise realize receive recognise recognize record reduce reflect refuse regard relate release remain
	remember remove repeat replace reply report represent require respond rest return reveal ride rise
	rule say see seek seem serve settle shake shape shoot show shut sing sit sleep smile solve speak spend
	stand stop store study succeed suffer suggest supply suppose survive take talk teach tell tend thank
	think throw touch travel treat turn vary vote wait walk want warn wash waste wear win wish wonder work
	worry
	academic accessible actual adequate alive alone ancient angry annual anxious apparent appropriate
	automatic aware beautiful bitter blind bold brave brief bright brilliant brown busy calm capable careful
	casual certain cheap chief civil classic close cold comfortable commercial competitive concerned
	confident conscious conservative considerable constant content convenient cool correct creative critical
	crucial cultural curious dangerous dark dead dear decent deep democratic dense dependent desperate
	detailed dirty distinct domestic dominant dry due eager early eastern economic educational elderly
	electric electronic emotional empty enormous environmental equal even evident exact excited existing
	expert explicit external extreme fair faithful false familiar famous fancy favourite favorite federal
	female financial fine firm fit flat foreign formal former fortunate fresh friendly front funny future
	generous gentle genuine giant glad golden grand grateful green grey gray guilty happy hard healthy heavy
	helpful hidden historic historical holy honest hot huge human hungry ideal identical ill illegal
	immediate impossible impressive independent indirect individual industrial inevitable informal initial
	inner innocent intelligent intense interested interesting internal interior inevitable joint junior
	just keen kind latest legal legitimate liberal light likely limited literary live lively living logical
	lonely loose loud lovely lucky male marine married massive mature maximum meaningful mechanical medical
	mental mere middle mild military minimum minor mixed moderate monetary moral narrow nearby neat necessary
	negative nervous neutral normal northern novel numerous obvious occasional odd official old operational
	opposite ordinary organic original outer outstanding parallel parliamentary partial particular passive
	patient peaceful perfect permanent physical plain pleasant polite political poor portable positive
	potential powerful precious precise pregnant presidential pretty previous principal prior probable
	productive profitable progressive prominent proper proud psychological pure radical random rapid rare
	rational raw reasonable red regional relative religious remarkable remote representative resident
	responsible rich rough round royal rural sacred sad scientific senior sensitive separate serious severe
	sexual sharp silent silly slight slow smooth soft sole sophisticated sorry sound southern spare spatial
	spiritual splendid spontaneous square strange strict structural stupid subsequent substantial subtle
	sudden sufficient super superb supreme sure surprising sweet swift technical temporary terrible thick
	thin tight tiny tired tough traditional tremendous tropical ugly ultimate unable uncertain unfair
	unhappy unknown unlikely unusual upper urban urgent usual valuable vast verbal vertical violent virtual
	visible visual vital vocal voluntary vulnerable warm weak wealthy weird welcome western wet white wild
	willing wise wonderful wooden working worried worth wrong young
	latest news breaking developments development activity activities overview results update updates
	prepaid postpaid unlocked refurbished olympic paralympic wireless cordless gas-powered battery-powered
	wi-fi wifi bluetooth usb usb-c hdmi ethernet
	geological volcanic eruption eruptions cultural political social environmental economic
	arctic antarctic atlantic pacific alpine coastal mediterranean`)

var stopNames = wordSet(`i we you he she it they me us them my our your his her its their this that these those
	the a an and or but if so yes no not ok okay mr mrs ms dr internet web email online
	mein meine meinen unser unsere dein deine mon ma mes notre nos mi mis nuestro nuestra mio mia miei mie nostro
	nostra meu minha meus minhas nosso nossa
	este esta estos estas ese esa esos esas aquel aquella dieser diese dieses diesen jene ces cette cet
	questo questa questi queste quello quella quelli quelle deze dessa denna detta
	esse essa esses essas estes`)

var properNames = wordSet(`monday tuesday wednesday thursday friday saturday sunday january february march april may june july august
	september october november december spring summer autumn fall winter
	america americas europe asia africa australia oceania antarctica canada mexico brazil argentina chile peru
	colombia india china japan korea germany france spain italy portugal netherlands belgium switzerland austria
	sweden norway denmark finland poland ireland scotland wales england britain russia ukraine turkey israel
	egypt nigeria kenya singapore indonesia philippines vietnam thailand malaysia pakistan bangladesh
	london paris berlin madrid rome tokyo beijing sydney toronto vancouver chicago boston seattle dubai lima
	miraflores california texas florida york francisco angeles lyon marseille toulouse bordeaux lille
	nantes strasbourg munich münchen hamburg cologne köln frankfurt stuttgart düsseldorf vienna wien zurich
	zürich geneva genève brussels amsterdam rotterdam barcelona valencia seville sevilla málaga bilbao lisbon
	lisboa porto milan milano turin torino naples napoli florence firenze venice venezia bologna dublin
	edinburgh manchester birmingham glasgow prague warsaw budapest copenhagen stockholm oslo helsinki athens
	istanbul montreal montréal calgary melbourne brisbane auckland atlanta dallas houston denver
	miami orlando portland philadelphia detroit minneapolis bogotá bogota santiago buenos aires
	cdmx monterrey guadalajara quito
	deutschland frankreich italien spanien österreich schweiz niederlande belgien großbritannien england
	allemagne espagne italie suisse belgique autriche pays-bas royaume-uni angleterre
	alemania francia italia españa suiza bélgica inglaterra
	germania spagna svizzera belgio inghilterra
	duitsland frankrijk italië spanje zwitserland oostenrijk belgië nederland engeland
	tyskland frankrike spanien sverige norge danmark schweiz österrike storbritannien
	niemcy francja włochy hiszpania szwajcaria anglia
	alemanha frança itália espanha suíça áustria bélgica holanda inglaterra
	north south east west northern southern eastern western central united states kingdom union european
	latin asian african american european global international national regional local black
	swiss german french italian spanish japanese korean chinese british dutch swedish danish finnish irish
	scottish canadian mexican brazilian australian austrian belgian`)

var acronyms = wordSet(`AI API CRM ERP SEO SEM SaaS PaaS IaaS B2B B2C D2C DTC SMB SME KPI ROI UI UX FAQ PDF CSV HTML
	CSS SQL JSON XML USD EUR GBP CAD AUD JPY GDPR HIPAA CCPA SOC ISO IT HR PR CEO CTO CFO COO VP LLM ML NLP IoT VPN
	GPS TV PC OS AR VR HD USB RAM SSD CPU GPU PPC CPC CMS LMS ATS POS VoIP SMS MFA SSO SLA DIY NA TBD Q&A US USA UK
	EU UAE NYC LA SF DC ID OK FYI TL;DR TLDR AM PM EST PST GMT UTC CBCT ETA RFP MVP SKU SKUs PhD MBA NGO LLC Inc Ltd
	GmbH DIY APIs FAQs KPIs CRMs LLMs SMBs SMEs
	BI ETL ELT AIOps DevOps MLOps APR APY ACA HSA FSA PPO HMO DHA MFGM PTFE PFAS PFOA BPA SPF`)

var positiveWords = wordSet(`handy plush lightweight reliably well-regarded well-reviewed well-liked
	best-selling crowd-pleaser kid-friendly versatile bouncier softer lighter quieter nicer
	buenas buenos mejores recomendadas recomendados gute beste besten zuverlässigsten zuverlässig
	meilleurs meilleures bon bonne bonnes recommandent idéale apaisante douce capable dominate dominates honest
	beautifully gorgeous easiest fastest lowest largest strongest smoothest great excellent best top leading powerful intuitive easy easiest user-friendly reliable
	robust affordable popular strong strongest recommended favorite favourite love loved loves impressive seamless
	seamlessly flexible fast faster efficient standout trusted comprehensive good better excels excel ideal perfect
	solid outstanding innovative praised superior polished smooth simple simpler valuable versatile scalable
	feature-rich top-rated highly-rated well-rated acclaimed award-winning shines wins winner cheaper inexpensive
	budget-friendly cost-effective cheap generous fantastic amazing exceptional remarkable stellar terrific
	wonderful best-in-class industry-leading market-leading renowned reputable dependable accessible responsive
	helpful friendly convenient elegant clean beloved favored favoured advantage advantages benefit benefits
	strength strengths easier well-designed well-suited modern secure lightweight sleek best-reviewed best-rated top-reviewed accurate complete comfortable stronger
	pocketable silent quiet stunning friendliest cheapest roomiest fastest-charging riesige riesig günstig günstige
	günstigen gute großartig excelente excelentes buena bueno buenos fiable rápido meilleur pratique
	worth safer sturdier gentler kinder brighter bolder richer crisper clearer engaging well-made durable sharper roomy tasty saporita ottima
	ottimo ottime migliore migliori consigliate consigliati consigliata consigliato handig geprezen populair
	populaire valoradas valorados valorada mejor melhor melhores recomendado recomendada idéal idéale
	excellente fiables fiable praktisch empfehlenswert beliebt beliebte beliebten beliebtesten supportive effective
	simplest apprécié appréciée appréciés appréciées apreciado apreciada apreciados apreciadas apprezzato apprezzata
	apprezzati geschätzt geschätzte gewaardeerd gewaardeerde
	sturdy helps maior boa bom boas bons barato barata baratos baratas solide gut elogiado elogiada
	useful saves économique économiques económico económica económicos económicas economico economica
	economici economiche econômico econômica perfetta perfetto perfecta perfecto perfeita perfeito parfait
	parfaite remarquable perfekt semplice sencillo sencilla einfach completa completo complète komplett flexibel
	flessibile précis précise précises preciso precisa mieux solida solido sólida sólido
	leader leaders practical freedom competitive competitivo competitivos competitiva competitivas compétitif
	compétitifs compétitive compétitives competitivi rapide rapides réactif réactive réactifs laagst laagste`)

var negativeWords = wordSet(`breach breached stolen flagged warning warnings sagging complain complained
	complaints hikes hike upselling outages outage caps heavy louder icier firmer pricier noisy noisier
	messy fewer weakest skip blocked markup frustrating poor dated steep steeply shrunk mixed lack lacks
	teurer schwachen schwach expensive pricey costly overpriced clunky slow slower buggy limited lacking poor bad worse
	worst weak weaker difficult complicated confusing outdated dated unreliable frustrating disappointing
	steep drawback drawbacks downside downsides issue issues problem problems complaint complaints criticism
	criticized criticised criticize criticise criticizes criticises criticisms opaque cumbersome restrictive inferior mediocre underwhelming avoid fails failed fail failing
	broken glitchy bloated overkill lags lag laggy unintuitive clumsy rigid unstable insecure unresponsive
	pricier costlier harder awkward annoying subpar sluggish inconsistent unhelpful tedious overwhelming messy
	risky controversial concern concerns lacks lack struggles struggle problematic struggled struggling lost loses devalued devaluation devaluations worsened deteriorated
	breaks dents dented discontinued faint flimsy irritation lawsuit lawsuits lawsuits useless wobbly
	gritty upsells unjustifiable overrated slippery brittle irrégulière irrégulier irrégulièrement
	cher chère wisselend duur slecht reclamações reclamação instabilidade reclamaciones caro cara
	scarso scarsa poco deludente teuer schlecht unzuverlässig mandatory priciest probleme problemen problemas investigation investigated
	probe recalled recall recalls fined penalty worries worrying alarming bankruptcy bankrupt uncertain dure`)

var abbreviations = wordSet(`e.g i.e vs v mr mrs ms dr prof sr jr st inc ltd co corp no nos approx fig ca cf al
	u.s u.k e.u a.m p.m dept est ft mt vol pp jan feb mar apr jun jul aug sep sept oct nov dec
	z z.b d.h u.a bzw usw evtl ggf`)

// publishers are review sites, media and communities quoted as sources,
// not brands that compete (lower case, as one phrase).
var publishers = wordSet(`g2 capterra trustradius trustpilot reddit quora youtube wikipedia forbes
	techradar pcmag cnet wirecutter rtings zdnet engadget gizmodo techcrunch wired mashable tom's
	nerdwallet investopedia bankrate valuepenguin consumer_reports the_verge verge new_york_times
	nytimes wall_street_journal wsj bloomberg reuters cnbc bbc guardian runner's_world runrepeat
	serious_eats allure vogue good_housekeeping sleep_foundation mattress_clarity dxomark
	notebookcheck statista gartner forrester software_advice getapp trustpilot product_hunt
	stiftung_warentest which? what_car? zapier_blog bon_appétit bob_vila dc_rainmaker`)

// publicBodies are regulators and public institutions, written as acronyms
// or names, the payment systems central banks run and the public transit
// agencies of large cities.
var publicBodies = wordSet(`aafco mit harvard stanford oxford cambridge rbi ecb boe fed federal_reserve reserve_bank_of_india fda ftc fcc epa nhs cnil sec irs cdc who eu un oecd nist gdpr cfpb ofcom
	bafin nhtsa usda hhs ico cma doj pix upi sepa fednow
	arcep bundesnetzagentur bnetza cnmc agcom anacom
	muni bart mta mbta septa wmata cta tfl ttc ratp bvg mvg`)

// programmingLanguages are languages and runtimes, never brands.
var programmingLanguages = wordSet(`python javascript typescript java go golang rust ruby php kotlin swift
	c# c++ scala perl haskell elixir erlang r matlab sql html css node.js nodejs dart lua julia`)

// ingredients are active ingredients and supplements that label what an
// answer says about them ("**Selenium sulfide:** …"), never brands.
var ingredients = wordSet(`selenium ketoconazole pyrithione niacinamide retinol salicylic glycolic hyaluronic benzoyl
	minoxidil finasteride melatonin magnesium creatine collagen caffeine ceramides peptides`)

// technologies are standards, technologies, internet protocols and open
// systems, never brands ("Bluetooth LE", "USB-C", "Wi-Fi 7", "WHOIS
// privacy", "Linux").
var technologies = wordSet(`bluetooth wi-fi wifi usb usb-c hdmi nfc lte gps thunderbolt ethernet zigbee z-wave
	displayport miracast linux hotspot esim whois dns dnssec ssl tls http https ftp sftp smtp imap rss`)

// firstNames are common given names: a name phrase starting with one is a
// person, not a brand.
var firstNames = wordSet(`james john robert michael william david richard joseph thomas charles mary
	patricia jennifer linda elizabeth barbara susan jessica sarah karen matthew daniel mark paul steven
	andrew joshua kevin brian george edward ronald timothy jason jeffrey ryan jacob gary nicholas eric
	stephen jonathan larry justin scott brandon benjamin samuel frank gregory raymond alexander patrick
	jack dennis jerry tyler aaron henry peter adam nathan zachary kyle walter harold jeremy ethan
	christian keith roger noah gerald carl terry sean austin arthur lawrence jesse dylan bryan joe
	jordan billy bruce albert willie gabriel logan alan juan wayne roy ralph randy eugene vincent russell
	elijah louis bobby philip johnny nancy lisa betty margaret sandra ashley kimberly emily donna michelle
	dorothy carol amanda melissa deborah stephanie rebecca sharon laura cynthia kathleen amy angela
	shirley anna brenda pamela emma nicole helen samantha katherine christine debra rachel carolyn janet
	catherine maria heather diane ruth julie olivia joyce virginia victoria kelly lauren christina joan
	evelyn judith megan andrea cheryl hannah jacqueline martha gloria teresa ann sara madison frances
	kathryn janice jean abigail alice judy sophia grace denise amber doris marilyn danielle beverly
	isabella theresa diana natalie brittany charlotte marie kayla alexis lori guido elon jeff tim satya
	sundar bill steve warren marques linus mkbhd`)

// personRoles are words that put a person's name after them.
var personRoles = wordSet(`mr mrs ms dr prof professor ceo founder cofounder co-founder researcher
	scientist author writer reviewer editor analyst expert president senator judge chef coach doctor
	dermatologist dentist`)

// corporateWords end company names made of a name and an ordinary word
// ("Speakeasy Labs", "Capital One", "Norwegian Cruise Line"), in English or
// another language ("Frank Energie", "Algar Telecom"); a name phrase
// ending so stays whole.
var corporateWords = wordSet(`labs lab inc co corp corporation company group bank running athletics
	technologies technology systems software health foods motors brands studios studio media partners
	insurance energy airlines apparel outdoors footwear kitchen home hub works industries international
	holdings financial mobile wireless games entertainment pharmaceuticals cosmetics beauty analytics cloud
	hq software supply workshop toolkit bench ledger digital hub plumbing roofing heating cooling electric
	electrical landscaping construction cleaning movers realty dental optics union line lines telecom
	telecoms telekom energie énergie energía energia`)

// firmWords end a firm's name and never a product's: inside a name, what
// follows them is the firm's product ("Epic Games Store", "Fenty Beauty
// Pro Filt'r"). The other corporateWords ("cloud", "home") also name
// product lines.
var firmWords = wordSet(`labs lab inc co corp corporation company group games beauty cosmetics studios studio media
	partners motors foods brands industries holdings entertainment pharmaceuticals apparel footwear athletics
	airlines technologies bank union`)

// lineWords are the corporateWords that, after a well-known brand, name
// its product line rather than a company ("ClickHouse Cloud", "LifeStraw
// Home", "HubSpot Marketing Hub").
var lineWords = wordSet(`cloud home hub`)

// productWords are the model, plan, line and sales-channel words of product
// names ("Pro", "Max", "CRM", "Business", "Domains", "Direct"): a name
// followed by them names a product of that company.
var productWords = wordSet(`pro max plus ultra mini air lite one go classic original premium essentials
	edition series gen se neo prime elite sport standard deluxe crm books notes music drive
	suite app apps tv phone pay watch buds pods fit browser laptop laptops notebook tablet headphone headphones
	earbuds speaker business teams enterprise domains stream live direct`)

// categoryNouns are product words that say what kind of product a maker's
// name is on, never part of a company's name ("Framework Laptop 13").
var categoryNouns = wordSet(`laptop laptops notebook tablet phone tv watch browser headphone headphones earbuds speaker`)

// featureNouns head the lists of features, not of brands ("extras like
// Watchtower", "features such as Smart Compose").
var featureNouns = wordSet(`feature features extra extras perk perks function functions functionality mode
	modes setting settings option-set formats protocol protocols metric metrics tool-set touches integrations
	program programs`)

// adjectivePrefixes open hyphenated adjectives ("Non-Wi-Fi", "Anti-glare"),
// never a name.
var adjectivePrefixes = wordSet(`non anti semi multi`)

// institutionEndings end German compounds that name a kind of body
// ("Lohnsteuerhilfeverein", "Verbraucherzentrale").
var institutionEndings = wordSet(`verein verband genossenschaft behörde zentrale kammer`)

// foreignOrdinaryWords are adverbs and nouns of the other languages answers
// come in, capitalised where they open a line or a German sentence
// ("**Compagnie low cost**", "Kostenlos geht es"): ordinary words, never a
// name by themselves.
var foreignOrdinaryWords = wordSet(`kostenlos kostenlose gratis günstig anbieter optionen gratuit gratuite compagnies
	entreprises gratuito gratuita compañías empresas opciones compagnie aziende opzioni grátis opções wahl`)

// foreignCommonNouns are institution words of other languages that start
// multi-word names ("Clínica Dental Sonrisa", "Centro Odontológico").
var foreignCommonNouns = wordSet(`maison atelier centro clínica clinica instituto hospital banco grupo casa consultorio
	laboratorio farmacia cabinet maison groupe praxis zentrum haus`)

// labelWords are section and field labels answers put in bold or before a
// colon ("**Price:**", "**Verdict**"); never brands.
var labelWords = wordSet(`price prices pricing verdict bottom line pros cons pro con best for texture
	summary overview tip tips note notes warning caveat quick answer short answer tl;dr tldr key takeaways
	takeaway recommendation recommendations alternatives alternative option options premium mid-range
	budget winner runner-up honorable mention features feature ideal for why who it's for drawback
	drawbacks strengths weaknesses battery display range model brand tool app host pos feature criteria top best key quick bottom main other more also best-for good great
	downside downsides upside upsides catch catches cost installation verdict
	tipp tipps fazit empfehlung hinweis conseil conseils astuce astuces avis recommandation consejo consejos
	recomendación recomendaciones conclusión resumen consiglio consigli conclusione raccomandazione dica dicas
	recomendação recomendações conclusão resumo advies conclusie`)

// weekdayTimeWords follow or precede a weekday used as a day ("Friday
// afternoon", "by Friday", "Black Friday").
var weekdayBefore = wordSet(`on by until till this next last every each since before after from through
	black cyber any one`)

var weekdayAfter = wordSet(`morning mornings afternoon afternoons evening evenings night nights deadline
	deadlines sale sales meeting meetings`)

// predicateVerbs follow a brand that is the subject of a sentence ("Epson
// offers", "SavvyCal lets").
var predicateVerbs = wordSet(`drew earned received faced published publishes notes reports announced launched
	is are was were has have had offers offer provides provide includes include
	adds add bundles bundle delivers deliver costs cost charges charge gives give lets let works work supports
	support makes make remains remain leads lead gets get focuses focus integrates integrate uses use runs
	run sells sell ships ship wins win beats beat keeps keep feels feel looks look suits suit covers cover
	stores store learns learn lacks lack can could will would may might should does do did also
	tastes taste mixes lasts last holds hold comes come stands stand shows show trails trail
	helps help rents rent tracks builds build syncs accepts accept allows allow lists focuses requires require
	costs sends send pays pay hosts host sets lacks handles handle list track sync mix publish ` + foreignPredicateWords)

// foreignPredicateWords are predicateVerbs of the other languages answers
// come in: an English phrase before one is a name ("About You ist").
const foreignPredicateWords = `es son está están tiene tienen ofrece ofrecen suele cobra é são tem têm oferece oferecem est sont offre
	offrent propose ist sind hat bietet zijn heeft biedt è sono ha hanno`

var foreignPredicates = wordSet(foreignPredicateWords)

// nameEndings end a company's name as written in prose ("Roam Research"),
// where ordinary words after a maker more often name its product.
var nameEndings = wordSet(`research ventures capital partners associates money`)

// plainWordNames are ordinary words that are also well-known brands
// (extraction-rules.md names Apple, Amazon and Shell). Only a configured
// name made of them reads as the word; an unconfigured "Amazon is" stays a
// brand.
var plainWordNames = wordSet(`apple amazon shell orange dove puma jaguar subway oracle mango`)

// companyNouns are the people, places and goods a company has: after a
// plain-word brand they show the brand ("Apple users", "the Ring camera"),
// where another noun shows the word ("Apple cider", "Square footage").
var companyNouns = wordSet(`user customer seller shopper member subscriber owner fan employee buyer
	store shop outlet location station app account card device product camera doorbell reader
	website site ecosystem price deal gift subscription plan membership order delivery fee
	brand model lineup range catalog catalogue`)

// romanceOf are "of" in French, Spanish, Italian and Portuguese: "la app
// de Sanitas" is Sanitas's app.
var romanceOf = wordSet(`de di da do du del della dello des dos das`)

// romanceCompanyNouns are companyNouns of French, Spanish, Italian and
// Portuguese: "la tienda de Zara".
var romanceCompanyNouns = wordSet(`aplicación aplicación aplicativo applicazione tienda tiendas negozio loja boutique
	magasin tarjeta tarjetas carte cartão carta sitio sito web página clientes cliente clients tarifa tarifas`)

// objectStarts open what a verb acts on: a plain-word brand before "carries
// a" or "sells the" is the subject of that verb.
var objectStarts = wordSet(`a an the its their more most over all every some many few`)

// neutralLeadWords praise nothing in a list's lead-in ("Top options",
// "Popular options include").
var neutralLeadWords = wordSet(`top popular main common leading most more major key`)

var weekdays = wordSet(`monday tuesday wednesday thursday friday saturday sunday`)

// functionWords join or relate words; after a name they show it is used as
// one ("Square for Restaurants").
var functionWords = wordSet(`for and or of in on with to at by from vs versus than as but nor so if
	which who that while where when`)

var negators = wordSet(`less not no never without hardly barely nor neither cannot lacks lack lacking nothing isn't aren't
	pas nicht kein keine keinen`)

var comparatives = wordSet(`cheaper pricier costlier better worse faster slower lighter heavier softer firmer
	bouncier brighter stronger weaker easier harder smoother larger smaller bigger quieter louder simpler nicer
	longer shorter newer safer sturdier warmer cooler thinner thicker lower higher fewer gentler kinder cleaner
	roomier tastier sharper crisper clearer richer wider deeper sleeker`)

// likenessWords set a brand beside another: "similar to X", "compared
// with X"; X is what the sentence's subject is measured against.
var likenessWords = wordSet(`similar comparable compared identical equivalent close relative`)

// rankVerbs rank an option: "rank highest", "rated highest".
var rankVerbs = wordSet(`rank ranks ranked ranking rate rates rated rating score scores scored scoring`)

var comparativeFillers = wordSet(`necessarily really any a an the slightly much far even noticeably significantly generally usually often
	sometimes bit lot way also still considerably somewhat marginally
	dagegen meist meistens deutlich viel etwas noch wesentlich oft veel iets nog vaak wel`)

// foreignComparatives are German and Dutch comparatives said of a subject
// ("ist deutlich teurer", "is goedkoper"), as "cheaper" is.
var foreignComparatives = wordSet(`teurer günstiger billiger preiswerter besser schlechter schneller langsamer
	einfacher leichter schwerer zuverlässiger größer kleiner
	duurder goedkoper beter slechter sneller trager makkelijker lichter zwaarder betrouwbaarder groter kleiner`)

// thoseWords stand for another brand's offers before "of": "plus chers
// que ceux de Free", "más baratas que las de Movistar", "than those of".
var thoseWords = wordSet(`ceux celui celle celles los las el la lo le les quelli quello quella quelle die der das dem den those that`)

// advisingWords before "pick", "choice" or "bet" make it advice: "a
// solid pick", "the default choice", "our pick".
var advisingWords = wordSet(`top our my best great excellent solid ideal smart first safest safe safer strong
	good default natural better sensible reasonable obvious low-cost budget polished wise reliable dependable`)

// priceComparatives weigh a price against the others' even before a noun:
// "a cheaper option", "a more affordable plan".
var priceComparatives = map[string]bool{"cheaper": true, "pricier": true, "costlier": true,
	"more expensive": true, "less expensive": true, "more affordable": true, "more costly": true, "less costly": true}

// foreignMore make a comparative in the languages answers come in: "más
// barato", "plus cher", "mais barato", "più economico", "meer".
var foreignMore = wordSet(`más menos plus moins mais più meno meer minder mehr weniger mejor peor meilleur
	pire melhor pior migliore peggiore besser beter`)

// foreignCopulas are "is" and "are" in the languages answers come in.
var foreignCopulas = wordSet(`est sont es son está están ist sind è sono é são zijn`)

// foreignThan are "than" in the languages answers come in.
var foreignThan = wordSet(`que als dan che än niż`)

// formerlyWords introduce a brand's former name in the languages answers
// come in: "(formerly Chime)", "(früher …)", "(anciennement …)".
var formerlyWords = wordSet(`formerly previously früher ehemals anciennement antes anteriormente
	precedentemente voorheen tidigare dawniej`)

// similarWords liken one brand to another, in the languages answers come
// in ("similar", "Ähnlich … wie", "muy parecido a").
var similarWords = wordSet(`similar comparable ähnlich parecido parecida simile simili similaire similaires
	vergelijkbaar liknande semelhante podobny`)

// likenessTo are the "to" of "similar to" and "an alternative to" in the
// languages answers come in.
var likenessTo = wordSet(`to a à al wie med met do`)

// foreignChoices are "choice" and "option" in the languages answers come in.
var foreignChoices = wordSet(`choix option opción elección opção escolha wahl option scelta opzione keuze
	rapport relación relação rapporto preis-leistungs-verhältnis
	options opciones elecciones opções escolhas scelte opzioni optionen`)

// goodChoices are the choices a foreign "good" makes advice of: "un bon
// choix", but not "un bon rapport qualité-prix", as "good value" is not.
var goodChoices = wordSet(`choix option opción elección opção escolha wahl scelta opzione keuze
	alternative alternativa alternatief`)

// optionWords are "option" in the languages answers come in: "a good
// option" is weaker advice than "a good choice".
var optionWords = wordSet(`option opción opção opzione optie`)

// foreignGood are "good" and "great" before a choice in the languages
// answers come in: "eine gute Wahl", "un bon choix".
var foreignGood = wordSet(`gute guter gutes bon bonne buena buen boa bom ottima ottimo buona buon buono goede excellente excelente
	hervorragende ausgezeichnete`)

// rivalNouns are "the competition" in the languages answers come in: a
// comparison against them names no brand.
var rivalNouns = wordSet(`konkurrenz concurrence concurrents competencia competidores concorrência concorrentes
	concorrenza concorrenti concurrentie`)

// foreignRated are "rated" and "reviewed" in the languages answers come
// in: after "the best" they make "the best-rated".
var foreignRated = wordSet(`valorada valorado valoradas valorados avaliada avaliado valutata valutato notée noté bewertete bewertet`)

// foreignRight are "right" of a choice in the languages answers come in.
var foreignRight = wordSet(`certa certo correcta correcto adecuada adecuado giusta giusto richtige juste bon bonne`)

// foreignA are "a" and "an" in the languages answers come in.
var foreignA = wordSet(`ein eine einen un une una uno um uma een`)

// pickNouns name the answer's advice: "the top picks are A and B".
var pickNouns = wordSet(`pick picks choice choices recommendation recommendations favorite favorites favourite favourites bets`)

// readerPronouns are "you" in Italian and Portuguese, after "se" (if).
var readerPronouns = wordSet(`você vocês tu voi lei`)

// conditionWords open a condition on the claim after it: "If you …, A is".
var conditionWords = wordSet(`if unless si wenn sofern`)

// numberWords count: "five times as much".
var numberWords = wordSet(`two three four five six seven eight nine ten few`)

// namedOthers after "than" stand for brands the answer names: "more
// supportive than either", "cheaper than both".
var namedOthers = wordSet(`either both these those them all any neither`)

// degreeNouns after "a" make it a degree, not an article of a noun: "a bit
// cheaper", "a lot lighter".
var degreeNouns = wordSet(`bit lot little touch tad`)

var comparativeLeads = wordSet(`make makes cost costs is are be being was were feels feel runs run gets get looks look seems sounds and but
	ist sind zijn
	remain remains remained stay stays stayed
	or offers offer has have gives give delivers deliver provides provide it's it them
	scales scale works work performs perform tastes taste covers cover`)

var optionNouns = wordSet(`option options choice choices pick picks contender contenders provider providers tool tools
	brand brands alternative alternatives platform platforms app apps service services product products`)

// possessiveNameNouns end names built on a possessive ("Carter's Workshop",
// "Miller's Supply"); other words after a possessive are its product
// ("Apple's AirPods").
var possessiveNameNouns = wordSet(`workshop supply toolkit desk bench ledger kitchen garden bakery crate co
	company store shop market place`)

var nameConnectors = wordSet(`of de del la le du des van von der da di & + y et und`)

var featureHeaders = wordSet(`feature features criteria criterion aspect category metric spec specs
	specification specifications attribute factor capability comparison`)

var feelsLike = wordSet(`feel feels felt look looks looked would i you we they seem seems sound sounds`)

var attributeNouns = wordSet(`support service services price prices cost costs features feature integrations security
	privacy design quality value speed battery display camera comfort warranty setup interface reporting
	automation fees plan plans tier tiers app apps ease use overall verdict summary takeaways extras range
	size weight fit taste flavor flavour texture noise sound`)

// leadingFunctionWords are dropped from the start of a name phrase.
var leadingFunctionWords = wordSet(`the a an like unlike including include includes for with try use using choose
	consider pick both either neither if while although though when whereas and or but also even only just compared
	versus vs between from to in on at by of as via per than about then so because since our my your their its his
	her this that these those some many most all any each every other another such what which who why how where here
	there get go see check visit explore opt prefer prefers meanwhile plus top best avoid skip comparing compared
	according using several numerous various multiple certain o os el los il lo gli het evita evite eviten prueba prova elige scegli kies probeer vermijd
	mein meine meinen unser unsere mon notre nuestro nuestra mio mia nostro nostra meu minha nosso nossa mijn onze
	essayez évitez choisissez vermeide laut según selon secondo volgens gemäß`)

// entityHeaders name what a table's rows are when the rows are options.
var entityHeaders = wordSet(`tool tools brand brands platform platforms product products software provider providers
	company companies name option options service services app apps solution solutions vendor vendors crm clinic
	clinics store stores retailer retailers merchant merchants model models plan plans host hosts pos bank banks
	manager managers vpn vpns airline airlines carrier carriers insurer insurers lender lenders`)

// geographicWords end the names of places ("Reykjanes Peninsula").
var geographicWords = wordSet(`peninsula island islands mountain mountains lake glacier bay valley county province
	region desert coast strait gulf ocean sea`)

// notAdvice are the words before "pick" or "choice" that do not advise
// it ("the worst choice", "the last option").
var notAdvice = wordSet(`worst last wrong only final weakest poorest riskiest`)

// Clause words: "but" and "though" of English and the other languages
// answers come in ("pero", "mais", "aunque").
var butWords = wordSet(`but yet however pero mais mas porém porem ma maar aber allerdings jedoch cependant`)

// whileWords open a clause set beside the one before, in English and the
// other languages answers come in ("mentre la Hyundai i10 offre").
var whileWords = wordSet(`while whereas mentre mientras enquanto während terwijl tandis`)

// thoughPairs are "though" of two words in the other languages answers
// come in.
var thoughPairs = map[string]bool{"anche se": true, "auch wenn": true, "même si": true, "bien que": true,
	"si bien": true, "mesmo que": true, "ainda que": true, "ook al": true}

var thoughWords = wordSet(`though although aunque embora obwohl hoewel`)

// andWords join the items of an enumeration, in English and the other
// languages answers come in ("Sixt, Europcar y Centauro"), and the brands
// of a collaboration ("Herman Miller x Logitech").
var andWords = wordSet(`and or y e et und ou o oder x ×`)

// articles open a name phrase without being part of it ("O Nubank", "El
// Corte Inglés" keeps its own capital "El" only when written as a name).
var articles = wordSet(`the o os el los il lo gli het`)

// priceNouns name what a customer pays: rising or high, they are a price
// complaint.
var priceNouns = wordSet(`price prices pricing cost costs premium premiums fee fees rate rates renewal
	subscription subscriptions precio precios tarifa tarifas preço preços prix tarif tarifs preis preise prezzi prezzo`)

// romanceArticles are the definite articles of French, Spanish, Italian
// and Portuguese, which come before a make and model ("la Fiat Panda");
// not Portuguese "a" and "as", English words too.
var romanceArticles = wordSet(`la le les el los las il lo gli o os`)

// nameArticles open a multi-word brand name without naming a company on
// their own ("La Roche-Posay", "Das Keyboard").
var nameArticles = wordSet(`la le el los las les das der die il lo the`)

// productMakers are product lines better known than their makers' names,
// which a recognised product name gives at company level.
var productMakers = map[string]string{
	"chrome": "Google", "gmail": "Google", "pixel": "Google", "edge": "Microsoft", "windows": "Microsoft",
	"xbox": "Microsoft", "iphone": "Apple", "ipad": "Apple", "macbook": "Apple", "imac": "Apple", "mac": "Apple", "airpods": "Apple",
	"kindle": "Amazon", "alexa": "Amazon", "playstation": "Sony", "galaxy": "Samsung", "onedrive": "Microsoft",
	"icloud": "Apple",
}

// prepositions may stand between "than" and what it measures against
// ("easier than on StubHub").
var prepositions = wordSet(`on in at with for from`)

// makers are companies whose name before another word always names one of
// their products ("Google Analytics", "Microsoft Defender").
var makers = wordSet(`google microsoft apple amazon samsung sony meta adobe intel nvidia`)

// imperatives advise choosing what follows when they open a clause ("If
// you want the best, try …"), in English and the other languages answers
// come in.
var imperatives = wordSet(`try choose pick consider prova prueba elige scegli kies probeer essayez choisissez`)

// ingNouns end in "-ing" without being a participle that restricts who a
// claim is for ("for teams using", not "for sales including").
var ingNouns = wordSet(`including during pricing shipping hosting marketing training tracking streaming clothing
	cooking running hiking camping morning evening building wedding booking banking something nothing
	everything anything according regarding`)

// pluralVerbs agree with a plural subject: after a capitalised plural at a
// sentence start they show a common noun ("Portions are generous").
var pluralVerbs = wordSet(`are were have tend remain come look feel run`)

// relativePronouns open a clause saying more of the name before them
// ("Herman Miller, which acquired …", "O Mercadona, que chegou …").
var relativePronouns = wordSet(`which who que qui che`)

// thoseWho are the people a relative pronoun of German, Polish or Swedish
// restricts a claim to: "alle, die", "osób, które", "den som".
var thoseWho = wordSet(`alle diejenigen jene osób tych wszystkich ludzi den dig dem alla`)

// firmVerbs say what a company does to another company ("acquired Fully").
var firmVerbs = wordSet(`acquired acquires bought buys merged merges purchased absorbed rebranded`)

// costVerbs before "more" or "less" make it a comparison of price ("cost
// less").
var costVerbs = wordSet(`cost costs weigh weighs charge charges`)

// wearVerbs before "faster" make it a weakness ("wears faster").
var wearVerbs = wordSet(`wear wears wore drain drains die dies break breaks fade fades degrade degrades compress compresses
	flatten flattens peel peels`)

// littleCosts are the verbs of cost and consumption in the languages
// answers come in: "little" after them praises ("costa poco", "coûte peu",
// "verbraucht wenig").
var littleCosts = wordSet(`costa cuesta custa coûte kostet consuma consume consomme gasta verbraucht pesa pèse wiegt`)

// lookVerbs say how something appears: "looks more expensive than its
// price" praises.
var lookVerbs = wordSet(`look looks looked feel feels felt seem seems`)

// plainMost follow "the most" without making it praise: "the most common
// reason", "make the most of".
var plainMost = wordSet(`common commonly basic recent recently likely important part of out`)

// followingSizes before "following", "community" or "fan base" make it
// praise: "a cult following", "a huge community".
var followingSizes = wordSet(`cult loyal devoted dedicated huge large big massive enormous vast active vibrant
	passionate enthusiastic thriving growing sizable sizeable fervent`)

// widelyDone follow "widely" (or French "très") when many people choose
// a brand: "widely used", "très utilisé"; not "varies widely".
var widelyDone = wordSet(`used adopted available praised recommended trusted loved liked respected regarded
	considered cited stocked sold supported accepted utilisé utilisée utilisés utilisées apprécié appréciée
	recommandé recommandée gekozen gebruikt`)

// readerNouns are the readers an answer speaks of after "so": "so renters
// can install it".
var readerNouns = wordSet(`renters owners homeowners parents users beginners buyers customers shoppers families
	kids runners riders travelers travellers people everyone anyone teams students players`)

// outdoes are the verbs of one thing beating another: the brand after
// them is the one measured against ("outperforms Norton") or, in the
// passive, the winner ("outclassed by EyeBuyDirect").
var outdoes = wordSet(`outperforms outperform outperformed outclasses outclass outclassed outshines outshine
	outshone surpasses surpass surpassed outpaces outpace outpaced beats beat beaten eclipses eclipsed
	overshadows overshadowed`)

// objectPronouns stand for brands named before as a verb's object: "local
// installers often beat them".
var objectPronouns = wordSet(`it them`)

// passiveAux make a past participle after them passive: "is outclassed".
var passiveAux = wordSet(`is are was were be been being get gets got`)

// differWords in a "but" clause tell how brands differ, not what is
// wrong with one: "but they suit different buyers".
// breachFeatures follow "breach" in the name of a feature that watches for
// breaches, not one the brand suffered.
var breachFeatures = wordSet(`alert alerts monitoring monitor notifications notification detection
	protection scanning scanner reports report warnings`)

// assortmentNouns are what a shop or service offers to choose from; a wide
// one is praise.
var assortmentNouns = wordSet(`selection range menu menus catalog catalogue choice variety network inventory
	assortment listings lineup line-up coverage`)

// burdens are what a product can add that the reader would rather not
// have: "but includes ads".
var burdens = wordSet(`ads ad adverts advertising upsells fee fees surcharge surcharges markup commission
	commissions publicidad pubblicità publicité publicidade werbung`)

// lastingGoods are what is better the longer it is: "longer battery life".
var lastingGoods = wordSet(`battery warranty warranties range runtime lifespan life`)

// impositions are terms a reader is glad to be spared: "has no contract".
var impositions = wordSet(`contract contracts commitment commitments limit limits minimum minimums lock-in watermark watermarks`)

// costNouns are what a reader pays, in the languages answers come in.
var costNouns = wordSet(`cost costs fee fees charge charges surcharge coste costes costo costi custo custos frais
	kosten aufpreis gebühr gebühren gastos cargo cargos comisión comisiones commission commissions
	contract contracts commitment lock-in engagement permanencia vincolo fidelização vertragsbindung`)

// noneWords before a cost say the reader pays none: "no extra cost", "sin
// coste", "sans frais", "ohne Aufpreis".
var noneWords = wordSet(`no without zero sin sans senza sem ohne keine`)

// offerVerbs give the reader something: "offers", "has", "offre",
// "ofrece", "bietet".
var offerVerbs = wordSet(`offers offer has have gives give provides provide includes include offre offrent
	ofrece ofrecen oferece oferecem ha hanno tiene tienen tem têm bietet bieten hat propose`)

// surchargeVerbs put a margin on top of a price: "add a 3% margin".
var surchargeVerbs = wordSet(`add adds added charge charges charged take takes apply applies`)

var differWords = wordSet(`different differ differs differently`)

// sizeMeasures follow "largest … by" in a ranking by size: "by revenue".
var sizeMeasures = wordSet(`revenue revenues sales volume assets market share size number headcount
	employees users subscribers customers capitalization capitalisation valuation members deposits`)

// avoidVerbs advise against what follows them, in the languages answers
// come in ("Avoid X", "Evite a Cielo", "Vermeide X").
var avoidVerbs = wordSet(`skip avoid evite evita evitar évitez evitez éviter evitare evitate vermeide vermeiden vermeidet`)

// judgmentNouns are what "mixed" criticises when it qualifies them ("mixed
// reviews", "mixed results"); before another noun it is only a blend.
var judgmentNouns = wordSet(`review reviews results result feedback ratings rating record reception reputation
	experiences opinions reports verdicts`)

// crowdWords count the people who do something: "many teams prefer it".
var crowdWords = wordSet(`many some most several plenty lots countless`)

// copulas link a subject to what it is: "is enough".
var copulas = wordSet(`is are was were be been it's isn't aren't wasn't weren't`)

// lessLeads before "less" make it a shortfall: "offers less privacy".
var lessLeads = wordSet(`offer offers offered give gives provide provides remain remains is are feel feels far much`)

// sourceNouns before "from" name what a publisher or lab gives, not a
// product ("tests from AV-Test", "reviews from Wirecutter").
var sourceNouns = wordSet(`test tests testing review reviews data report reports rating ratings research study
	studies survey surveys advice guidance quote quotes`)

// pastVerbs are irregular past tenses that follow a company as the subject
// of a sentence ("SmileDirectClub shut down in 2023").
var pastVerbs = wordSet(`shut went paid won lost cut made sold built took got ran began became fell rose
	led grew left kept brought bought sent spent held gave drove struck split quit shrank`)

// supplyNouns are parts, networks and tuning a maker supplies to another
// brand's product: "a Bosch motor", "the T-Mobile network", "Hasselblad
// tuning".
var supplyNouns = wordSet(`motor motors engine engines chip chips chipset chipsets processor processors sensor sensors
	network networks drivetrain gears brakes tuning optics lens lenses`)

// rankingNouns are what a brand leads or tops when it is ranked first.
var rankingNouns = wordSet(`ranking rankings ratings rating study survey surveys charts chart index scores list`)

// pairVerbs put a product beside others: "pair any of them with X".
var pairVerbs = wordSet(`pair pairs paired combine combines combined complement complements`)

// makerNouns name a product's company before "of": "the makers of NordVPN".
var makerNouns = wordSet(`maker makers creator creators owner owners parent developer developers`)

// verbAdverbs stand between a subject and its verb: "Kraken still
// charges", "Southwest now offers".
var verbAdverbs = wordSet(`also still now often usually recently already typically generally currently rarely
	never sometimes reportedly consistently frequently mostly mainly largely`)

// choiceHeaders head a table column of the options an answer picks:
// "Best choice", "Top pick", "Runner-up".
var choiceHeaders = wordSet(`pick picks choice choices recommendation recommendations winner runner-up alternative
	alternatives contender contenders`)

// unbeaten follow "hard to" as praise: "hard to beat", "tough to fault".
var unbeaten = wordSet(`beat top fault match outdo`)

// ownerWords are possessive determiners: "its recommendations".
var ownerWords = wordSet(`its their his her your`)

// subjectVerbs are present tenses that, after a name at the head of a
// sentence, say what the company does ("Deezer streams lossless",
// "MoneyGram falls short"); many are nouns too, so unlike predicateVerbs
// they do not end a list item's lead.
var subjectVerbs = wordSet(`streams stream falls fall fails fail excels excel struggles struggle shines shine
	tends tend ranks rank scores score stays stay sits sit edges outperforms outperform matches match
	needs need fits fit starts start caters cater specializes specialize specialises specialise
	dominates dominate claims claim promises promise boasts boast earns earn packs pack produces produce
	owns own operates operate serves serve powers power sounds sound prints print cleans clean brews brew
	seems seem appears appear tops lags lag misses miss outsells outsell undercuts undercut refunds
	guarantees guarantee connects connect pairs pair plays play records record detects detect blocks block
	encrypts encrypt protects protect limits limit excludes exclude manages manage automates automate
	handles handle pioneered invented`)

// frenchClauseOpeners open a French clause after "mais" (but) with no
// comma before it ("plus cher mais avec un papier épais"), where
// Portuguese "mais" (more) goes before an adjective.
var frenchClauseOpeners = wordSet(`avec sans il elle ils elles on le la les un une des ce c'est son sa ses leur leurs pas moins plutôt`)

// platformVerbs trade, sell, book or stream on a platform: "traded on
// Coinbase", "sold on Etsy".
var platformVerbs = wordSet(`trade trades traded trading sell sells sold selling buy buys bought buying shop shops shopped
	shopping book books booked booking order orders ordered ordering stream streams streamed streaming
	list lists listed listing invest invests invested investing`)

// dutchWords are Dutch function words no other language answers come in
// writes: two of them make a sentence Dutch.
var dutchWords = wordSet(`het een niet wordt worden ook maar vaak dus zoals deze welke omdat naar bij wel jouw uw zijn heeft
	kunt kun jij iets meer altijd nog alleen`)

// firmKinds are the kinds of firm a list of examples can name ("lines such
// as Viking and Oceania", "airlines like Alaska").
var firmKinds = wordSet(`brands companies firms providers carriers airlines lines operators retailers banks insurers lenders
	brokers makers manufacturers chains labels`)

// months name the months of the year.
var months = wordSet(`january february march april may june july august september october november december`)

// alsoWords are "also" in the languages answers come in: "regardez aussi
// MOO".
var alsoWords = wordSet(`also aussi auch también anche ook também`)

// foreignLike are "like" of other languages ("VPN gratuitas como Hola").
var foreignLike = wordSet(`como comme come wie zoals`)

// elisions are the French and Italian words that lose their vowel before
// one starting with a vowel and join it with an apostrophe: "un'ottima",
// "l'app", "d'Avène".
var elisions = wordSet(`l' d' un' dell' all' nell' sull' dall' qu' c' j' n' s' m' t'`)

// ecosystemVerbs, alone or before ecosystemPrepositions, say what a
// product does with a platform it works with rather than competes with
// ("integrates with Zapier", "unblock Netflix", "reviews on Google"; not
// "sold at Home Depot"). Where one trades is a cue of its own
// (platformVerbs).
var ecosystemVerbs = wordSet(`integrate integrates integrated integration integrations sync syncs synced connect connects
	connected works work compatible runs run running sell sells selling sold post posts posting publish unblock
	unblocks unblocking plugs plug reviews review ratings rated listed`)

var ecosystemPrepositions = wordSet(`on with to into`)

// platformNouns after a brand name what is built or kept on it ("a
// Shopify store", "Apple devices", "a LinkedIn sidebar"), not its own
// product ("the Peloton app").
var platformNouns = wordSet(`store stores shop shops seller sellers merchant merchants user users device devices
	ecosystem blog blogs site sites page pages library libraries integration integrations plugin plugins
	extension extensions sidebar planner listing listings`)

// modalWords stand between a subject and its verb ("Datadog can").
var modalWords = wordSet(`can could will would may might should must just only even really always`)
