package simulator

import "github.com/sightline/sightline"

// The phrase banks answers are written from. Templates name brands through
// placeholders the writer fills in and records:
//
//	{0} {1}    the brand of slot 0 or 1
//	{b0} {b1}  the same, bold where the engine writes markdown
//	{p0}       the brand of slot 0 in the possessive ("Acme's")
//	{c0} {c1}  a comparison clause about slot 0 or 1, in that slot's tone
//	{list}     every slot, "A, B and C"; {olist} "A, B or C"
//	{need} {feat} {weak} {fact} {topic}  phrases from the banks below
//
// Template tables are indexed [tone][qualifier], tone 0 positive, 1 neutral,
// 2 negative; qualifier 0 direct, 1 conditional. The wording carries the
// class: positive words praise, negative ones criticise, conditional ones
// hedge with "if".

var needs = []string{
	"deep reporting", "offline access", "a generous free tier", "strong integrations", "enterprise-grade security",
	"a mobile app", "flexible pricing", "fast onboarding", "advanced automation", "support in several languages",
}

var feats = []string{
	"reporting", "customer support", "integrations", "automation features", "usage-based pricing",
	"guided onboarding", "mobile apps", "security controls", "keyboard shortcuts", "interface design",
}

var weaks = []string{
	"slow customer support", "opaque pricing", "a steep learning curve", "frequent outages",
	"limited integrations", "hidden fees", "aggressive upselling", "a dated interface",
}

var facts = []string{
	"most teams switch providers within three years",
	"pricing is the most common reason buyers change providers",
	"about half of buyers compare at least three options before choosing",
	"setup time varies widely between providers",
	"support quality matters more to buyers than feature count",
	"adoption has grown steadily over the last two years",
}

var intros = []string{
	"Here are some of the options for {topic}, based on features, pricing and user reviews.",
	"There are several choices for {topic}, and the right one depends on your budget and priorities.",
	"When it comes to {topic}, a handful of providers come up again and again.",
	"Choosing the right option for {topic} depends on what you value most.",
}

var closings = []string{
	"The right choice depends on your budget, team size and the features you use most.",
	"Most of these offer free trials, so it is worth testing two or three before committing.",
	"There is no single optimal choice; shortlist two or three options and compare them on a trial.",
	"Prices and features change often, so check each provider's current plans before deciding.",
}

var generalAdvice = []string{
	"It depends on your budget, the size of your team and how much setup time you can afford.",
	"Start by listing the features you cannot do without, then compare two or three options on a free trial.",
	"Look closely at pricing tiers, contract length and the quality of support before deciding.",
}

// factors are the "what to consider" points; their bold labels are not
// brands.
var factors = []string{
	"**Pricing:** check how costs grow as your team grows.",
	"**Integrations:** make sure it connects to the tools you already use.",
	"**Support:** look for responsive help on the plan you can afford.",
	"**Ease of use:** a short trial shows quickly whether your team will adopt it.",
	"**Security:** review data handling, access controls and certifications.",
	"**Scalability:** consider where you will be in two or three years.",
}

// itemExtras follow a list item's description.
var itemExtras = []string{
	"It offers a free trial.", "Plans start at a modest monthly price.", "Setup takes about a day for most teams.",
	"It is available on desktop and mobile.", "There is a free plan for small teams.", "Annual billing lowers the price.",
}

var (
	considerHeadings = [2]string{"### What to consider", "## Key factors"}
	chatgptHeadings  = [3]string{"### Top picks", "### Quick comparison", "### Other options worth knowing"}
	aiModeHeadings   = [3]string{"## Top options", "## Key differences", "## Which one to choose"}
)

// sentences name brands, and give each the mention type they are filed
// under: a recommendation, a reference (a brand cited as a source or
// reported on), a listing (several brands in one prose sentence) or an
// example (brands named in passing, as instances of a kind).
var sentences = map[sightline.MentionType][3][2][]string{
	sightline.MentionRecommendation: {
		{ // positive
			{
				"I'd recommend {b0} for most teams: it is praised for its {feat}.",
				"Our top pick is {b0}, which users love for its {feat}.",
				"{b0} is the best overall choice thanks to its excellent {feat}.",
				"For most people, {b0} is the strongest option, with standout {feat}.",
			},
			{
				"If you need {need}, then {b0} is an excellent choice.",
				"{b0} is the best choice if you need {need}.",
				"If you need {need}, go with {b0}: it is praised for its {feat}.",
			},
		},
		{ // neutral
			{
				"{b0} is a sensible default choice for most teams.",
				"A reasonable pick is {b0}, which covers {feat} and {feat}.",
				"We suggest starting with {b0} and checking its plans against your requirements.",
			},
			{
				"If you need {need}, {b0} is worth a look.",
				"Consider {b0} if you need {need}.",
				"If you need {need}, then {b0} is a reasonable pick.",
			},
		},
	},
	sightline.MentionReference: {
		{
			{"{p0} widely praised guide explains that {fact}.", "A well-regarded study by {0} shows that {fact}."},
			{"If you want to go deeper, {p0} excellent guide to {topic} is a good starting point."},
		},
		{
			{"According to a recent survey by {0}, {fact}.", "{p0} 2025 benchmark report found that {fact}.",
				"As {0} notes in its documentation, {fact}.", "Data published by {0} suggests that {fact}."},
			{"If you want the details, {p0} documentation covers {topic}.", "If you are comparing costs, {0} publishes a pricing breakdown."},
		},
		{
			{"{0} has been criticised for {weak}, according to several user reviews.",
				"Some users report that {0} has struggled with {weak}.", "{0} drew criticism last year for {weak}."},
			{"If privacy matters to you, note that {0} has been criticised for {weak}.",
				"If you need {need}, keep in mind that {0} has been criticised for {weak}."},
		},
	},
	sightline.MentionListing: {
		{
			{"Highly rated options include {list}.", "The best-reviewed options include {list}."},
			{"If you need {need}, the best-reviewed options are {list}."},
		},
		{
			{"Popular options include {list}.", "The main options are {list}.", "Commonly used options include {list}."},
			{"If you need {need}, the main options are {list}."},
		},
		{
			{"Options that draw frequent complaints include {list}.", "Lower-rated options include {list}, mostly because of {weak}."},
			{"If you need {need}, options that draw complaints include {list}."},
		},
	},
	sightline.MentionExample: {
		{
			{"Well-reviewed tools such as {list} are also worth knowing.", "Newer options, for example {list}, have earned strong reviews."},
			{"If you need {need}, well-liked options such as {list} do it well."},
		},
		{
			{"There are also tools such as {list}.", "Other providers, for example {list}, cover the basics.", "Smaller players such as {list} also exist."},
			{"If you need {need}, tools such as {olist} are also available."},
		},
		{
			{"Some tools, for example {list}, have been criticised for {weak}.", "Cheaper tools such as {list} often draw complaints about {weak}."},
			{"If you need {need}, be careful with tools such as {list}, which users criticise for {weak}."},
		},
	},
}

// topPicks describe the first item of a list when it is recommended.
var topPicks = [3][2][]string{
	{
		{"our top pick, praised for its {feat}.", "the best overall option, with excellent {feat}."},
		{"the best choice if you need {need}.", "our top pick if you need {need}."},
	},
	{
		{"the safest default for most teams.", "our default recommendation for most teams."},
		{"recommended if you need {need}."},
	},
}

// listItems describe a brand after its name in a list.
var listItems = [3][2][]string{
	{
		{"praised for its {feat}.", "a popular choice with excellent {feat}.", "users love its {feat}.", "stands out for its {feat}."},
		{"excellent if you need {need}.", "a great fit if you need {need}."},
	},
	{
		{"offers {feat} and {feat}.", "a general-purpose option with {feat}.", "covers the core features at a mid-range price.", "a long-standing option in this space."},
		{"an option to compare if you need {need}.", "suitable if you need {need}."},
	},
	{
		{"has been criticised for {weak}.", "capable, but users complain about {weak}.", "often criticised for {weak}."},
		{"if you need {need}, note that it has been criticised for {weak}.", "avoid it if you need {need}; users complain about {weak}."},
	},
}

// comparisons set two brands side by side, each in its own tone; indexed by
// qualifier.
var comparisons = [2][]string{
	{
		"{b0} vs {b1}: {0} {c0}, while {1} {c1}.",
		"Comparing {b0} and {b1}, {0} {c0}, whereas {1} {c1}.",
		"Compared with {b1}, {b0} {c0}; {1}, for its part, {c1}.",
	},
	{
		"If you need {need}, compare {b0} and {b1}: {0} {c0}, while {1} {c1}.",
		"If you need {need}, the choice is between {b0} and {b1}: {0} {c0}, and {1} {c1}.",
	},
}

// clauses are what a comparison says about one brand, by tone.
var clauses = [3][]string{
	{"is praised for its {feat}", "stands out for its {feat}", "wins on {feat}"},
	{"offers {feat}", "takes a more traditional approach", "covers {feat} at a similar price"},
	{"has been criticised for {weak}", "falls behind on {feat}", "draws complaints about {weak}"},
}

// endorsingLeads introduce a list and praise its options; neutralLeads do
// not.
var (
	endorsingLeads = []string{"Highly rated options:", "Frequently recommended options:", "Well-reviewed picks:"}
	neutralLeads   = []string{"The main options:", "Options include:", "Commonly used options:"}
)

// tableHeads name what a table's rows are; audiences fill its "Best for"
// column; models follow an untracked brand's name in a list or table.
var (
	tableHeads = []string{"Tool", "Provider", "Option"}
	audiences  = []string{"Small teams", "Growing companies", "Solo users", "Agencies", "Larger organizations"}
	models     = []string{"Pro", "2", "Max 3", "X1", "Plus"}
	chipPaths  = []string{"/pricing", "/features", "/", "/customers"}
)

// boldLeads are paragraphs that open with an option's name in bold.
var boldLeads = [3][2][]string{
	{
		{"{b0} is praised for its {feat}.", "{b0} stands out for its {feat}."},
		{"{b0} is excellent if you need {need}."},
	},
	{
		{"{b0} offers {feat} and {feat}.", "{b0} covers the core features at a mid-range price."},
		{"{b0} is an option to compare if you need {need}."},
	},
	{
		{"{b0} has been criticised for {weak}.", "{b0} is capable, but users complain about {weak}."},
		{"{b0} falls short if you need {need}: users complain about {weak}."},
	},
}
