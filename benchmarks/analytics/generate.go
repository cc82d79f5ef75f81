package main

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/ClickHouse/clickhouse-go/v2"
	"github.com/ClickHouse/clickhouse-go/v2/lib/driver"
	"golang.org/x/sync/errgroup"

	"github.com/sightline/sightline"
	"github.com/sightline/sightline/olap"
)

// The generator builds dataset S in the engine. Step one stages one row per
// pass (bench_passes, from bench_tracked x numbers(days)) with everything
// the pass shows, as arrays: which brands the answer names in which order
// with their types, tones and qualifiers; which sources it cites; which
// domains the search and shopping pages rank. Every value is a pure
// function of hashes of the pass number n and of the tracked query q, with
// per-query waves, drifts and step changes so that rates and positions move
// over time. Step two inserts each capture table from the staged passes,
// so that the materialized views fill the rollups exactly as the writer's
// inserts would, and rank_rows is derived from the same arrays the way the
// olap writer derives it (own row always, a row per tracked competitor that
// a mention, a resolved citation, a result or an offer shows; best
// positions; the own mention position on every row).
//
// Slots name whose a brand or a domain is: 0 own, 1..C the project's
// tracked competitors, -1..-3 untracked brands named, 100+ generic
// publishers, 200+ generic merchants.

// genericDomains are the publishers answers cite and search pages rank.
var genericDomains = []string{"wikipedia.org", "reddit.com", "nytimes.com", "theverge.com", "forbes.com", "techradar.com",
	"pcmag.com", "wired.com", "cnet.com", "zdnet.com", "tomsguide.com", "g2.com", "capterra.com", "trustpilot.com",
	"youtube.com", "medium.com", "quora.com", "bbc.co.uk", "theguardian.com", "which.co.uk", "consumerreports.org",
	"nerdwallet.com", "investopedia.com", "healthline.com", "runnersworld.com", "outdoorgearlab.com", "engadget.com",
	"businessinsider.com", "lifehacker.com", "makeuseof.com", "howtogeek.com", "digitaltrends.com", "t3.com",
	"goodhousekeeping.com", "allure.com", "bikeradar.com", "shopify.com", "hubspot.com", "zapier.com", "producthunt.com"}

// merchants are the shops of the shopping pages.
var merchants = []brand{{"Amazon", "amazon.com"}, {"Walmart", "walmart.com"}, {"eBay", "ebay.com"}, {"Target", "target.com"},
	{"Best Buy", "bestbuy.com"}, {"Etsy", "etsy.com"}, {"Costco", "costco.com"}, {"Newegg", "newegg.com"},
	{"Zalando", "zalando.de"}, {"Argos", "argos.co.uk"}, {"John Lewis", "johnlewis.com"}, {"bol.com", "bol.com"}}

// untrackedBrands are brands answers name that no project tracks.
var untrackedBrands = []string{"Acmely", "Orbitly", "Northwind", "Bluepeak", "Cobblestone", "Driftwood", "Evergreen Labs",
	"Foxglove", "Granite & Co", "Harborline", "Ironbark", "Juniper", "Kestrel", "Lanternfish", "Meridian", "Nightjar",
	"Oakhurst", "Pinecrest", "Quarry", "Riverstone"}

var sections = []string{"blog", "guides", "reviews", "best", "compare", "news"}

var phrases = []string{"is a strong choice and widely recommended.", "is a common option worth comparing.",
	"has mixed reviews; some users report problems."}

// sqlStrings is a ClickHouse array literal of strings.
func sqlStrings(values []string) string {
	q := make([]string, len(values))
	for i, v := range values {
		q[i] = "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(v) + "'"
	}
	return "[" + strings.Join(q, ", ") + "]"
}

// sqlFloats is a ClickHouse array literal of floats that round-trip exactly.
func sqlFloats(values []float64) string {
	q := make([]string, len(values))
	for i, v := range values {
		q[i] = "toFloat64(" + strconv.FormatFloat(v, 'g', -1, 64) + ")"
	}
	return "[" + strings.Join(q, ", ") + "]"
}

// hu is a uniform number in [0, 1) hashed from args.
func hu(args ...any) string {
	parts := make([]string, len(args))
	for i, a := range args {
		parts[i] = fmt.Sprint(a)
	}
	return "(cityHash64(" + strings.Join(parts, ", ") + ") % 1000000 / 1000000.)"
}

// uq is a per-tracked-query constant, uqj one per tracked query and
// competitor j (a lambda variable).
func uq(k int) string  { return hu("q", k, 7919) }
func uqj(k int) string { return hu("q", "j", k, 104729) }

// wave is a sine of the day index with a per-query period and phase.
func wave(periodFrom, periodSpan, salt int) string {
	return fmt.Sprintf("sin(2 * pi() * (d / (%d + %d * %s) + %s))", periodFrom, periodSpan, uq(salt), uq(salt+1))
}

func clamp(expr string, lo, hi float64) string {
	return fmt.Sprintf("greatest(%g, least(%g, %s))", lo, hi, expr)
}

// uuid7SQL is a UUIDv7 whose timestamp is the milliseconds ms and whose
// random bits are hashed from seed, like the writer's row ids. The first
// eight bytes of reinterpretAsUUID's argument are the id's first half.
func uuid7SQL(ms string, seed ...any) string {
	parts := make([]string, len(seed))
	for i, a := range seed {
		parts[i] = fmt.Sprint(a)
	}
	s := strings.Join(parts, ", ")
	return fmt.Sprintf("reinterpretAsUUID(concat("+
		"reinterpretAsFixedString(bitOr(bitOr(bitShiftLeft(toUInt64(%[1]s), 16), 0x7000), bitAnd(cityHash64(%[2]s, 1), 0x0fff))), "+
		"reinterpretAsFixedString(bitOr(bitAnd(cityHash64(%[2]s, 2), 0x3fffffffffffffff), 0x8000000000000000))))", ms, s)
}

// generator holds the SQL fragments that depend on the dataset.
type generator struct {
	d *dataset
}

// url is the page of slot s's domain an answer cites or a search page
// ranks for the query: one per domain, section and keyword.
func (g generator) url(s string) string {
	return fmt.Sprintf("concat('https://', %s, '/', %s[1 + cityHash64(p, %s) %% %d], '/', replaceAll(query_text, ' ', '-'))",
		g.slotDomain(s), sqlStrings(sections), s, len(sections))
}

// citation fields of the citation at position i from slot s, unresolved
// (behind the engine's redirector) when un.
const redirector = "'vertexaisearch.cloud.google.com'"

func (g generator) citeDomain() string {
	return fmt.Sprintf("if(un, %s, %s)", redirector, g.slotDomain("s"))
}

func (g generator) citeURL() string {
	return fmt.Sprintf("if(un, concat('https://', %s, '/grounding-api-redirect/', lower(hex(cityHash64(n, 83, i)))), %s)",
		redirector, g.url("s"))
}

func (g generator) citeTitle() string {
	return fmt.Sprintf("if(un OR cityHash64(n, 84, i) %% 10 = 0, '', concat(initcap(query_text), ' | ', %s))", g.slotDomain("s"))
}

// slotDomain, slotName: whose domain or brand a slot is.
func (g generator) slotDomain(s string) string {
	return fmt.Sprintf("multiIf(%[1]s = 0, own_domain, %[1]s < 100, comp_domains[%[1]s], %[1]s < 200, %[2]s[%[1]s - 99], %[3]s[%[1]s - 199])",
		s, sqlStrings(genericDomains), sqlStrings(merchantField(func(b brand) string { return b.domain })))
}

func (g generator) slotName(s string) string {
	return fmt.Sprintf("multiIf(%[1]s = 0, own_name, %[1]s > 0, comp_names[%[1]s], %[2]s[1 + (p * 3 + toUInt16(-%[1]s) * 7) %% %[3]d])",
		s, sqlStrings(untrackedBrands), len(untrackedBrands))
}

func merchantField(f func(brand) string) []string {
	out := make([]string, len(merchants))
	for i, m := range merchants {
		out[i] = f(m)
	}
	return out
}

func relationSQL(s string) string {
	return fmt.Sprintf("multiIf(%[1]s = 0, 'own', %[1]s > 0 AND %[1]s < 100, 'tracked-competitor', '')", s)
}

func competitorSQL(s string) string {
	return fmt.Sprintf("if(%[1]s > 0 AND %[1]s < 100, comp_ids[%[1]s], NULL)", s)
}

// The AI engines, and the engines whose answers may cite through a
// redirector that is never resolved.
const (
	aiEngines         = "('chatgpt', 'perplexity', 'google_ai_overview', 'google_ai_mode')"
	redirectorEngines = "('google_ai_overview', 'google_ai_mode')"
)

// stageTracked creates bench_tracked, the tracked queries with their
// project's brands, from the dataset.
func (g generator) stageTracked(ctx context.Context, conn driver.Conn) error {
	if err := conn.Exec(ctx, `CREATE TABLE bench_tracked (
		q UInt32, p UInt16, tracked_query_id UUID, project_id UUID, organization_id UUID,
		engine LowCardinality(String), country FixedString(2), locale LowCardinality(String), query_text String,
		own_name String, own_domain String, comp_ids Array(UUID), comp_names Array(String), comp_domains Array(String))
		ENGINE = MergeTree ORDER BY q`); err != nil {
		return fmt.Errorf("creating bench_tracked: %w", err)
	}
	batch, err := conn.PrepareBatch(ctx, "INSERT INTO bench_tracked")
	if err != nil {
		return err
	}
	defer batch.Abort() //nolint:errcheck // a no-op once sent
	for _, t := range g.d.queries {
		m := markets[t.project%len(markets)]
		var ids []string
		var names, domains []string
		for j, c := range m.competitors {
			ids = append(ids, competitorID(t.project, j).String())
			names, domains = append(names, c.name), append(domains, c.domain)
		}
		if err := batch.Append(uint32(t.q), uint16(t.project), t.id.String(), projectID(t.project).String(),
			g.d.organizationID().String(), string(t.engine), t.country, m.locale, t.text, m.own.name, m.own.domain,
			ids, names, domains); err != nil {
			return err
		}
	}
	return batch.Send()
}

// stagePassesSQL creates bench_passes: every pass of every tracked query.
func (g generator) stagePassesSQL() string {
	days := g.d.days
	// Own brand: how often it is named, how high, how kindly; how often its
	// pages are cited, rank and sell. Waves, a slow drift and, for some
	// queries, a step change within the last 60 days.
	step := fmt.Sprintf("if(d > %d - 60 * %s, (%s - 0.5) * 0.5, 0)", days-1, uq(8), uq(9))
	ownP := clamp(fmt.Sprintf("0.08 + 0.5 * %s + 0.15 * %s * %s + (%s - 0.5) * 0.5 * (d / %d - 0.5) + 0.08 * (p %% 3 - 1) + %s",
		uq(1), uq(2), wave(40, 300, 3), uq(5), days, step), 0.02, 0.92)
	ownBias := fmt.Sprintf("(0.35 * %s - 0.1 + 0.12 * %s + 0.5 * %s)", uq(6), wave(30, 200, 10), step)
	posTone := clamp(fmt.Sprintf("0.35 + 0.35 * %s + 0.12 * %s", uq(12), wave(90, 200, 13)), 0.05, 0.95)
	negTone := fmt.Sprintf("(0.05 + 0.12 * %s)", uq(15))
	linkP := clamp(fmt.Sprintf("own_p * 0.6 + 0.15 * %s", uq(16)), 0.02, 0.9)
	serpP := clamp(fmt.Sprintf("0.2 + 0.6 * %s + 0.15 * %s + %s", uq(17), wave(50, 250, 18), step), 0.02, 0.95)
	serpStrength := clamp(fmt.Sprintf("0.2 + 0.7 * %s + 0.15 * %s", uq(20), wave(60, 200, 21)), 0, 1)
	shopP := clamp(fmt.Sprintf("0.15 + 0.55 * %s + 0.12 * %s + %s", uq(23), wave(45, 250, 24), step), 0.02, 0.95)
	shopStrength := clamp(fmt.Sprintf("0.2 + 0.7 * %s + 0.1 * %s", uq(26), wave(70, 150, 27)), 0, 1)
	compP := clamp(fmt.Sprintf("0.12 + 0.4 * %s + 0.1 * sin(2 * pi() * (d / (60 + 200 * %s) + %s))", uqj(1), uqj(2), uqj(3)), 0.03, 0.9)

	return fmt.Sprintf(`CREATE TABLE bench_passes ENGINE = MergeTree ORDER BY n AS
SELECT
    toUInt64(dn.number) * %[1]d + t.q AS n,
    t.q AS q, t.p AS p, toUInt16(dn.number) AS d,
    t.tracked_query_id AS tracked_query_id, t.project_id AS project_id, t.organization_id AS organization_id,
    t.engine AS engine, t.country AS country, t.locale AS locale, t.query_text AS query_text,
    t.own_name AS own_name, t.own_domain AS own_domain, t.comp_ids AS comp_ids, t.comp_names AS comp_names,
    t.comp_domains AS comp_domains, length(t.comp_ids) AS nc,
    toDateTime64(toDate('%[2]s') + d, 3, 'UTC') + toIntervalMillisecond(cityHash64(n, 5) %% 86400000) AS captured_at,
    toUnixTimestamp64Milli(captured_at) AS ms,
    %[3]s AS capture_id,
    %[4]s AS run_id,
    %[5]s < 0.02 AS failed,
    %[6]s AS own_p,
    if(engine IN %[7]s, arrayMap(x -> x.2, arraySort(x -> x.1, arrayFilter(x -> x.3, arrayConcat(
        [(%[8]s - %[9]s, toInt16(0), %[10]s < own_p)],
        arrayMap(j -> (%[11]s, toInt16(j), %[12]s < %[13]s), range(1, nc + 1)),
        arrayMap(i -> (%[14]s + 0.25, toInt16(-i), i <= floor(%[15]s * 4)), range(1, 4)))))), []) AS brands,
    arrayMap(x -> toUInt8(multiIf(x < 0.35, 1, x < 0.55, 2, x < 0.8, 3, x < 0.92, 4, 5)),
        arrayMap(i -> %[16]s + 0.04 * (i - 1), arrayEnumerate(brands))) AS mtypes,
    arrayMap((s, x) -> toUInt8(multiIf(x < if(s = 0, %[17]s, 0.45), 1, x < 1 - if(s = 0, %[18]s, 0.12), 2, 3)),
        brands, arrayMap(i -> %[19]s, arrayEnumerate(brands))) AS mtones,
    arrayMap(i -> toUInt8(if(cityHash64(n, 60, i) %% 100 < 15, 2, 1)), arrayEnumerate(brands)) AS mquals,
    if(engine IN %[7]s, arraySlice(arrayDistinct(arrayMap(x -> x.2, arraySort(x -> x.1, arrayFilter(x -> x.3, arrayConcat(
        [(%[20]s - 0.15, toInt16(0), %[21]s < %[22]s)],
        arrayMap(j -> (%[23]s, toInt16(j), %[24]s < 0.08 + 0.2 * %[25]s), range(1, nc + 1)),
        arrayMap(g -> (%[26]s, toInt16(100 + cityHash64(n, 81, g) %% %[27]d), 1), range(1, 9))))))), 1, 1 + cityHash64(n, 70) %% 6), [])
        AS cites,
    arrayMap((s, i) -> toUInt8(s >= 100 AND engine IN %[28]s AND cityHash64(n, 82, i) %% 100 < 8), cites, arrayEnumerate(cites)) AS cunres,
    arrayMap((s, i, un) -> %[47]s, cites, arrayEnumerate(cites), cunres) AS cite_urls,
    arrayMap((s, i, un) -> %[48]s, cites, arrayEnumerate(cites), cunres) AS cite_domains,
    arrayMap((s, i, un) -> %[49]s, cites, arrayEnumerate(cites), cunres) AS cite_titles,
    if(engine = 'google_serp', arraySlice(arrayDistinct(arrayMap(x -> x.2, arraySort(x -> x.1, arrayFilter(x -> x.3, arrayConcat(
        [(%[29]s * (1.3 - %[30]s), toInt16(0), %[31]s < %[32]s)],
        arrayMap(j -> (%[33]s, toInt16(j), %[34]s < 0.15 + 0.4 * %[35]s), range(1, nc + 1)),
        arrayMap(g -> (%[36]s, toInt16(100 + cityHash64(n, 121, g) %% %[27]d), 1), range(1, 13))))))), 1, 10), []) AS serp,
    if(engine = 'google_shopping', arraySlice(arrayDistinct(arrayMap(x -> x.2, arraySort(x -> x.1, arrayFilter(x -> x.3, arrayConcat(
        [(%[37]s * (1.3 - %[38]s), toInt16(0), %[39]s < %[40]s)],
        arrayMap(j -> (%[41]s, toInt16(j), %[42]s < 0.12 + 0.35 * %[43]s), range(1, nc + 1)),
        arrayMap(g -> (%[44]s, toInt16(200 + cityHash64(n, 141, g) %% %[45]d), 1), range(1, 11))))))), 1, 8), []) AS shop
FROM bench_tracked AS t CROSS JOIN numbers(%[46]d) AS dn
SETTINGS max_insert_threads = 2`,
		len(g.d.queries), g.d.first.Format(time.DateOnly),
		uuid7SQL("ms", "n", "'capture'"), uuid7SQL("ms - 2000 - cityHash64(n, 6) % 60000", "n", "'run'"),
		hu("n", 99), ownP, aiEngines,
		hu("n", 3), ownBias, hu("n", 1),
		hu("n", 20, "j"), hu("n", 10, "j"), compP,
		hu("n", 30, "i"), hu("n", 2),
		hu("n", 40, "i"),
		posTone, negTone, hu("n", 50, "i"),
		hu("n", 71), hu("n", 72), linkP,
		hu("n", 73, "j"), hu("n", 74, "j"), uqj(4),
		hu("n", 80, "g"), len(genericDomains), redirectorEngines,
		hu("n", 110), serpStrength, hu("n", 111), serpP,
		hu("n", 112, "j"), hu("n", 113, "j"), uqj(5),
		hu("n", 120, "g"),
		hu("n", 130), shopStrength, hu("n", 131), shopP,
		hu("n", 132, "j"), hu("n", 133, "j"), uqj(6),
		hu("n", 140, "g"), len(merchants),
		days, g.citeURL(), g.citeDomain(), g.citeTitle())
}

// insert is one statement of the generator's second step.
type insert struct {
	table string
	sql   string
}

func (g generator) inserts() []insert {
	var weights []float64
	for _, t := range sightline.MentionTypes {
		weights = append(weights, sightline.MentionTypeWeights[t])
	}
	var mults []float64
	for _, t := range sightline.Tones {
		mults = append(mults, sightline.SentimentMultipliers[t])
	}
	types := make([]string, len(sightline.MentionTypes))
	for i, t := range sightline.MentionTypes {
		types[i] = string(t)
	}
	tones := make([]string, len(sightline.Tones))
	for i, t := range sightline.Tones {
		tones[i] = string(t)
	}
	phrase := func(tone string) string { return fmt.Sprintf("%s[%s]", sqlStrings(phrases), tone) }
	url := g.url
	currency := "transform(toString(country), ['US', 'GB', 'CA', 'AU', 'IE', 'DE', 'FR', 'NL'], " +
		"['USD', 'GBP', 'CAD', 'AUD', 'EUR', 'EUR', 'EUR', 'EUR'], 'USD')"
	nilUUID := "toUUID('00000000-0000-0000-0000-000000000000')"

	return []insert{
		{"citations", fmt.Sprintf(`INSERT INTO citations (answer_id, organization_id, project_id, tracked_query_id, run_id, pass_index,
    engine, country, captured_at, position, url, domain, title, unresolved, relation, competitor_id)
SELECT capture_id, organization_id, project_id, tracked_query_id, run_id, 0, engine, country, captured_at, toUInt16(i),
    cu, cd, ct, un = 1, if(un, '', %[1]s), if(un, NULL, %[2]s)
FROM bench_passes
ARRAY JOIN cites AS s, arrayEnumerate(cites) AS i, cunres AS un, cite_urls AS cu, cite_domains AS cd, cite_titles AS ct
WHERE {chunk} AND NOT failed`, relationSQL("s"), competitorSQL("s"))},
		{"ai_answers", fmt.Sprintf(`INSERT INTO ai_answers (id, organization_id, project_id, tracked_query_id, run_id, pass_index,
    pass_count, engine, country, locale, query_text, captured_at, response_text, citations.position, citations.url,
    citations.domain, citations.title, citations.unresolved)
SELECT capture_id, organization_id, project_id, tracked_query_id, run_id, 0, 1, engine, country, locale, query_text, captured_at,
    concat('For "', query_text, '": ', if(empty(brands), 'no single provider stands out; it depends on what you need.',
        arrayStringConcat(arrayMap((s, i, tone) -> concat(toString(i), '. ', %[1]s, ' ', %[2]s), brands, arrayEnumerate(brands), mtones), ' '))),
    arrayMap(i -> toUInt16(i), arrayEnumerate(cites)), cite_urls, cite_domains, cite_titles, arrayMap(un -> un = 1, cunres)
FROM bench_passes WHERE {chunk} AND NOT failed AND engine IN %[3]s`, g.slotName("s"), phrase("tone"), aiEngines)},
		{"mentions", fmt.Sprintf(`INSERT INTO mentions (id, answer_id, organization_id, project_id, tracked_query_id, run_id, pass_index,
    engine, country, query_text, captured_at, brand_name, relation, competitor_id, position, mention_type, tone, qualifier,
    mention_text, worth)
SELECT %[1]s, capture_id, organization_id, project_id, tracked_query_id, run_id, 0, engine, country, query_text, captured_at,
    %[2]s, multiIf(s = 0, 'own', s > 0, 'tracked-competitor', 'untracked-competitor'), %[3]s, toUInt16(pos),
    %[4]s[mt], %[5]s[tone], ['direct', 'conditional'][mq], concat(%[2]s, ' ', %[6]s),
    %[7]s[mt] * %[8]s[tone] * if(mq = 2, toFloat64(%[9]s), toFloat64(%[10]s))
FROM bench_passes ARRAY JOIN brands AS s, arrayEnumerate(brands) AS pos, mtypes AS mt, mtones AS tone, mquals AS mq
WHERE {chunk} AND NOT failed`, uuid7SQL("ms", "n", "'mention'", "pos"), g.slotName("s"), competitorSQL("s"), sqlStrings(types), sqlStrings(tones),
			phrase("tone"), sqlFloats(weights), sqlFloats(mults),
			strconv.FormatFloat(sightline.ConditionalMultiplier, 'g', -1, 64), strconv.FormatFloat(sightline.DirectMultiplier, 'g', -1, 64))},
		{"rank_rows", fmt.Sprintf(`INSERT INTO rank_rows (organization_id, project_id, tracked_query_id, run_id, pass_index, pass_count,
    engine, country, query_text, captured_at, capture_id, relation, competitor_id, mention_position, tone, link_position,
    serp_position, shopping_position, own_mention_position)
SELECT organization_id, project_id, tracked_query_id, run_id, 0, 1, engine, country, query_text, captured_at, capture_id,
    if(slot = 0, 'own', 'tracked-competitor'), if(slot = 0, %[1]s, comp_ids[slot]),
    if((indexOf(brands, slot) AS mi) > 0, toUInt16(mi), NULL), if(mi > 0, %[2]s[mtones[mi]], ''),
    if((arrayFirstIndex((c, un) -> c = slot AND un = 0, cites, cunres) AS li) > 0, toUInt16(li), NULL),
    if((indexOf(serp, slot) AS si) > 0, toUInt16(si), NULL), if((indexOf(shop, slot) AS oi) > 0, toUInt16(oi), NULL),
    if(own_mi > 0, toUInt16(own_mi), NULL)
FROM (SELECT *, indexOf(brands, 0) AS own_mi FROM bench_passes WHERE {chunk} AND NOT failed)
ARRAY JOIN arrayConcat([toInt16(0)], arrayFilter(j -> has(brands, j) OR arrayExists((c, un) -> c = j AND un = 0, cites, cunres)
    OR has(serp, j) OR has(shop, j), arrayMap(j -> toInt16(j), range(1, nc + 1)))) AS slot`, nilUUID, sqlStrings(tones))},
		{"search_results", fmt.Sprintf(`INSERT INTO search_results (id, snapshot_id, organization_id, project_id, tracked_query_id, run_id,
    pass_index, engine, country, query_text, captured_at, rank, url, domain, title, snippet, rating, rating_votes, unresolved,
    relation, competitor_id)
SELECT %[1]s, capture_id, organization_id, project_id, tracked_query_id, run_id, 0, engine, country, query_text, captured_at,
    toUInt16(r), %[2]s, %[3]s, concat(initcap(query_text), ' - ', %[4]s),
    concat('Compare ', query_text, ' on ', %[3]s),
    if(cityHash64(n, 150, r) %% 4 = 0, round(3 + cityHash64(n, 151, r) %% 20 / 10, 1), NULL),
    if(cityHash64(n, 150, r) %% 4 = 0, toUInt32(cityHash64(n, 152, r) %% 5000), NULL),
    false, %[5]s, %[6]s
FROM bench_passes ARRAY JOIN serp AS s, arrayEnumerate(serp) AS r
WHERE {chunk} AND NOT failed`, uuid7SQL("ms", "n", "'search_result'", "r"), url("s"), g.slotDomain("s"),
			fmt.Sprintf("if(s >= 100, %s, %s)", g.slotDomain("s"), g.slotName("s")), relationSQL("s"), competitorSQL("s"))},
		{"shopping_offers", fmt.Sprintf(`INSERT INTO shopping_offers (id, snapshot_id, organization_id, project_id, tracked_query_id, run_id,
    pass_index, engine, country, query_text, captured_at, rank, title, price, currency, product_id, merchant, domain, url,
    relation, competitor_id)
SELECT %[1]s, capture_id, organization_id, project_id, tracked_query_id, run_id, 0, engine, country, query_text, captured_at,
    toUInt16(r), concat(%[2]s, ' ', query_text), round(15 + cityHash64(q, s, 160) %% 30000 / 100 * (0.9 + 0.2 * %[3]s), 2),
    %[4]s, lower(hex(cityHash64(q, s, 161))), %[2]s, %[5]s,
    concat('https://', %[5]s, '/p/', lower(hex(cityHash64(q, s, 161)))), %[6]s, %[7]s
FROM bench_passes ARRAY JOIN shop AS s, arrayEnumerate(shop) AS r
WHERE {chunk} AND NOT failed`, uuid7SQL("ms", "n", "'shopping_offer'", "r"),
			fmt.Sprintf("multiIf(s >= 200, %s[s - 199], %s)", sqlStrings(merchantField(func(b brand) string { return b.name })), g.slotName("s")),
			hu("n", 162, "r"), currency, g.slotDomain("s"), relationSQL("s"), competitorSQL("s"))},
		{"check_results", `INSERT INTO check_results (organization_id, project_id, tracked_query_id, run_id, engine, country,
    pass_index, status, error_code, started_at, finished_at)
SELECT organization_id, project_id, tracked_query_id, run_id, engine, country, 0, if(failed, 'failed', 'completed'),
    if(failed, 'engine_timeout', ''), captured_at - toIntervalMillisecond(2000 + cityHash64(n, 8) % 20000), captured_at
FROM bench_passes WHERE {chunk}`},
	}
}

// tableCounts are the dataset's rows per table.
type tableCounts struct {
	table string
	rows  uint64
	parts uint64
	bytes uint64
}

// generate stages the passes, inserts every capture table from them and
// drops the staging tables. It prints how long each step took.
func (g generator) generate(ctx context.Context, conn driver.Conn, out io.Writer) error {
	settings := clickhouse.Context(ctx, clickhouse.WithSettings(clickhouse.Settings{
		"insert_deduplicate": 0, "max_insert_threads": 2, "max_partitions_per_insert_block": 1000, "max_execution_time": 3600,
	}))
	start := time.Now()
	if err := g.stageTracked(settings, conn); err != nil {
		return err
	}
	if err := conn.Exec(settings, g.stagePassesSQL()); err != nil {
		return fmt.Errorf("staging passes: %w", err)
	}
	fmt.Fprintf(out, "  staged %d passes (bench_passes) in %.1fs\n", len(g.d.queries)*g.d.days, time.Since(start).Seconds())
	// Two lanes take the tables, costliest first, so that both cores work;
	// each table goes in chunks of generateChunkDays days, in day order.
	queue := make(chan insert, len(g.inserts()))
	for _, ins := range g.inserts() {
		queue <- ins
	}
	close(queue)
	var (
		group errgroup.Group
		mu    sync.Mutex
	)
	for range 2 {
		group.Go(func() error {
			for ins := range queue {
				t0 := time.Now()
				for from := 0; from < g.d.days; from += generateChunkDays {
					to := min(g.d.days, from+generateChunkDays)
					chunk := fmt.Sprintf("n >= %d AND n < %d", from*len(g.d.queries), to*len(g.d.queries))
					if err := conn.Exec(settings, strings.ReplaceAll(ins.sql, "{chunk}", chunk)); err != nil {
						return fmt.Errorf("generating %s (days %d..%d): %w", ins.table, from, to-1, err)
					}
				}
				mu.Lock()
				fmt.Fprintf(out, "  inserted %-16s in %5.1fs (at %.0fs)\n", ins.table, time.Since(t0).Seconds(), time.Since(start).Seconds())
				mu.Unlock()
			}
			return nil
		})
	}
	if err := group.Wait(); err != nil {
		return err
	}
	for _, t := range []string{"bench_passes", "bench_tracked"} {
		if err := conn.Exec(ctx, "DROP TABLE "+t); err != nil {
			return fmt.Errorf("dropping %s: %w", t, err)
		}
	}
	return nil
}

// generateChunkDays is how many days of passes one INSERT takes.
const generateChunkDays = 60

// generate builds dataset S in ClickHouse and prints rows per table and
// what the rollups hold, then checks the data against the rules the
// writer keeps.
func (b *bench) generate(ctx context.Context) error {
	g := generator{d: b.data}
	// A connection of its own whose answers may take long: the inserts
	// answer when their rows and the views' are written.
	conn, err := olap.Connect(ctx, b.chURL+"?read_timeout=30m", nil)
	if err != nil {
		return err
	}
	defer conn.Close()
	start := time.Now()
	if err := g.generate(ctx, conn, b.out); err != nil {
		return err
	}
	elapsed := time.Since(start)
	// Let the background merges of the fresh parts settle (bounded), so
	// that the load does not share the cores with them.
	t0 := time.Now()
	var merging uint64
	for time.Since(t0) < 90*time.Second {
		if err := b.ch.QueryRow(ctx, "SELECT count() FROM system.merges WHERE database = currentDatabase()").Scan(&merging); err != nil {
			return err
		}
		if merging == 0 {
			break
		}
		time.Sleep(time.Second)
	}
	fmt.Fprintf(b.out, "  waited %.0fs for background merges (%d still running)\n", time.Since(t0).Seconds(), merging)
	rows, err := b.tableRows(ctx)
	if err != nil {
		return err
	}
	var raw, rollups uint64
	fmt.Fprintf(b.out, "  %-20s %12s %8s %10s\n", "table", "rows", "parts", "MiB")
	for _, t := range rows {
		fmt.Fprintf(b.out, "  %-20s %12d %8d %10.0f\n", t.table, t.rows, t.parts, float64(t.bytes)/(1<<20))
		if strings.HasSuffix(t.table, "_daily") {
			rollups += t.rows
		} else {
			raw += t.rows
		}
	}
	fmt.Fprintf(b.out, "  generated %d raw rows (%.0f rows/s) and %d rollup rows in %.1fs, in the engine "+
		"(INSERT ... SELECT over numbers(), views on)\n", raw, float64(raw)/elapsed.Seconds(), rollups, elapsed.Seconds())
	return b.checkGenerated(ctx)
}

// tableRows reads the active parts of every table of the database.
func (b *bench) tableRows(ctx context.Context) ([]tableCounts, error) {
	rows, err := b.ch.Query(ctx, `SELECT table, sum(rows), count(), sum(bytes_on_disk) FROM system.parts
		WHERE database = currentDatabase() AND active AND table != 'goose_db_version' GROUP BY table ORDER BY table`)
	if err != nil {
		return nil, fmt.Errorf("reading table sizes: %w", err)
	}
	defer rows.Close()
	var out []tableCounts
	for rows.Next() {
		var t tableCounts
		if err := rows.Scan(&t.table, &t.rows, &t.parts, &t.bytes); err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, rows.Err()
}

// checkGenerated verifies what the generator promises: every mention's
// worth is sightline.MentionWorth of its type, tone and qualifier; every
// completed pass has exactly one own rank row; the rollups counted every
// source row once.
func (b *bench) checkGenerated(ctx context.Context) error {
	rows, err := b.ch.Query(ctx, `SELECT DISTINCT toString(mention_type), toString(tone), toString(qualifier), worth FROM mentions`)
	if err != nil {
		return err
	}
	defer rows.Close()
	combos := 0
	for rows.Next() {
		var t, tone, q string
		var worth float64
		if err := rows.Scan(&t, &tone, &q, &worth); err != nil {
			return err
		}
		if want := sightline.MentionWorth(sightline.MentionType(t), sightline.Tone(tone), sightline.Qualifier(q)); worth != want {
			return fmt.Errorf("generated worth %v for %s/%s/%s, sightline.MentionWorth says %v", worth, t, tone, q, want)
		}
		combos++
	}
	if err := rows.Err(); err != nil {
		return err
	}
	checks := []struct{ what, query string }{
		{"completed passes minus own rank rows",
			`SELECT (SELECT count() FROM check_results WHERE status = 'completed') - (SELECT count() FROM rank_rows WHERE relation = 'own')`},
		{"mentions minus mentions_daily.mentions", `SELECT (SELECT count() FROM mentions) - (SELECT sum(mentions) FROM mentions_daily)`},
		{"rank rows minus ranks_daily.passes", `SELECT (SELECT count() FROM rank_rows) - (SELECT sum(passes) FROM ranks_daily)`},
		{"resolved citations minus cited_sources_daily.citations",
			`SELECT (SELECT count() FROM citations WHERE NOT unresolved) - (SELECT sum(citations) FROM cited_sources_daily)`},
		{"own mention positions in rank_rows minus own mentions",
			`SELECT (SELECT count(mention_position) FROM rank_rows WHERE relation = 'own') - (SELECT count() FROM mentions WHERE relation = 'own')`},
	}
	for _, c := range checks {
		var n int64
		if err := b.ch.QueryRow(ctx, "SELECT toInt64(("+c.query+"))").Scan(&n); err != nil {
			return fmt.Errorf("checking %s: %w", c.what, err)
		}
		if n != 0 {
			return fmt.Errorf("generated data is inconsistent: %s = %d", c.what, n)
		}
	}
	fmt.Fprintf(b.out, "  check: %d worth combinations equal sightline.MentionWorth; an own rank row per completed pass; "+
		"the rollups counted every row once\n", combos)
	return nil
}
