package olap

import (
	"bytes"
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/ClickHouse/clickhouse-go/v2"
	"github.com/ClickHouse/clickhouse-go/v2/lib/driver"
	"github.com/google/uuid"

	"github.com/sightline/sightline"
)

// Pass identifies one completed pass of a check and carries what every row
// of it shares. A pass is identified by RunID and PassIndex; the rows of a
// pass that reach ClickHouse twice (a retried flush, a re-run job) are
// stored once.
type Pass struct {
	OrganizationID uuid.UUID
	ProjectID      uuid.UUID
	TrackedQueryID uuid.UUID
	RunID          uuid.UUID
	PassIndex      uint8 // 0-based
	PassCount      uint8
	Engine         sightline.Engine
	Country        string // ISO 3166-1 alpha-2, upper case
	Locale         string // ISO 639-1; empty when the engine was asked without a language
	QueryText      string
	// CapturedAt is the run's capture time: the same for every pass of the
	// run and for every retry of it. It is the capturedAt the API shows, the
	// day the pass counts on in analytics, and part of the rows' identity.
	CapturedAt time.Time
}

// PassRows is everything one pass stores, across the capture tables. Which
// parts are set depends on the engine: an AI engine answers (ResponseText,
// Mentions, Citations), google_serp has SearchResults and google_shopping
// ShoppingOffers. The rank_rows of the pass are derived from these when it
// is written.
type PassRows struct {
	Pass
	// Fresh promises that no earlier attempt can have stored this pass: it
	// is the first attempt of its run. The writer then does not look the
	// pass up before inserting it; the deduplication tokens still cover a
	// retried flush.
	Fresh        bool
	ResponseText string
	// ExtractionVersion is the version of the extraction rules Mentions and
	// Citations were read with (ingest.ExtractionVersion).
	ExtractionVersion uint16
	Mentions          []Mention
	Citations         []Citation
	SearchResults     []SearchResult
	ShoppingOffers    []ShoppingOffer
}

// Mention is one distinct brand an answer names.
type Mention struct {
	BrandName    string
	Relation     sightline.Relation // own, tracked-competitor or untracked-competitor
	CompetitorID *uuid.UUID         // set exactly for tracked competitors
	Position     int                // 1-based rank among the brands named, by first appearance
	Type         sightline.MentionType
	Tone         sightline.Tone
	Qualifier    sightline.Qualifier
	Sentence     string // the sentence of the first mention
}

// Citation is a source an answer cites.
type Citation struct {
	Position int // 1-based, in order of first citation
	URL      string
	Domain   string // host without "www."; the redirector's when Unresolved
	Title    string
	// Unresolved is true when URL is still a redirector (a Google or
	// Vertex AI grounding link, ...): its real destination is unknown.
	Unresolved   bool
	Relation     sightline.Relation // own, tracked-competitor or none
	CompetitorID *uuid.UUID
}

// SearchResult is one organic result of a search page.
type SearchResult struct {
	Rank         int // 1-based
	URL          string
	Domain       string
	Title        string
	Snippet      string
	Rating       *float64
	RatingVotes  *int
	Unresolved   bool
	Relation     sightline.Relation // own, tracked-competitor or none
	CompetitorID *uuid.UUID
}

// ShoppingOffer is one offer of a shopping page.
type ShoppingOffer struct {
	Rank         int // 1-based
	Title        string
	Price        float64
	Currency     string // ISO 4217
	ProductID    string
	Merchant     string
	Domain       string // the merchant URL's host without "www."; empty without one
	URL          string
	Relation     sightline.Relation // own, tracked-competitor or none
	CompetitorID *uuid.UUID
}

// CaptureID is the id of the pass's capture: the AI answer id (the API
// aiResponseId) for AI engines, the search or shopping snapshot id
// otherwise.
func (p Pass) CaptureID() uuid.UUID { return p.rowID("capture", 0) }

// MentionID is the id of the mention match at index i of the pass's
// Mentions.
func (p Pass) MentionID(i int) uuid.UUID { return p.rowID("mention", i) }

// SearchResultID is the id of the result (serp match) at index i of the
// pass's SearchResults.
func (p Pass) SearchResultID(i int) uuid.UUID { return p.rowID("search_result", i) }

// ShoppingOfferID is the id of the offer at index i of the pass's
// ShoppingOffers.
func (p Pass) ShoppingOfferID(i int) uuid.UUID { return p.rowID("shopping_offer", i) }

// rowID derives a row's id from the pass and the row's place in it, so a
// re-sent pass keeps its ids. The id is laid out as a UUIDv7 whose
// timestamp is CapturedAt: ids sort by capture time, and a reader holding
// an id knows the day to look in (the second column of every sorting key).
func (p Pass) rowID(kind string, item int) uuid.UUID {
	h := sha256.New()
	h.Write(p.RunID[:])
	h.Write([]byte{p.PassIndex})
	h.Write([]byte(kind))
	binary.Write(h, binary.BigEndian, uint32(item)) //nolint:errcheck // hash writes cannot fail
	sum := h.Sum(nil)
	var id uuid.UUID
	ms := uint64(p.CapturedAt.UnixMilli())
	for i := range 6 {
		id[i] = byte(ms >> (40 - 8*i))
	}
	copy(id[6:], sum[:10])
	id[6] = id[6]&0x0f | 0x70 // version 7
	id[8] = id[8]&0x3f | 0x80 // RFC 4122 variant
	return id
}

// passKey identifies a pass.
type passKey struct {
	run  uuid.UUID
	pass uint8
}

func (p Pass) key() passKey { return passKey{p.RunID, p.PassIndex} }

// ErrInvalidPass is wrapped by every error about a malformed PassRows.
var ErrInvalidPass = errors.New("invalid pass rows")

func invalid(p Pass, format string, args ...any) error {
	return fmt.Errorf("%w: run %s pass %d: %s", ErrInvalidPass, p.RunID, p.PassIndex, fmt.Sprintf(format, args...))
}

// Validate reports the first way r does not fit the capture tables. It
// catches extraction bugs before they reach storage, where a malformed row
// would fail its whole batch.
func (r PassRows) Validate() error {
	p := r.Pass
	switch {
	case p.OrganizationID == uuid.Nil || p.ProjectID == uuid.Nil || p.TrackedQueryID == uuid.Nil || p.RunID == uuid.Nil:
		return invalid(p, "organization, project, tracked query and run ids are required")
	case !p.Engine.Valid():
		return invalid(p, "unknown engine %q", p.Engine)
	case p.PassCount == 0 || p.PassIndex >= p.PassCount:
		return invalid(p, "pass index %d outside pass count %d", p.PassIndex, p.PassCount)
	case len(p.Country) != 2:
		return invalid(p, "country %q is not an alpha-2 code", p.Country)
	case p.CapturedAt.IsZero():
		return invalid(p, "captured at is required")
	}
	ai := p.Engine.AI()
	if !ai && (r.ResponseText != "" || len(r.Mentions) > 0 || len(r.Citations) > 0) {
		return invalid(p, "%s does not answer: no response text, mentions or citations", p.Engine)
	}
	if len(r.SearchResults) > 0 && p.Engine != sightline.EngineGoogleSERP {
		return invalid(p, "search results from %s", p.Engine)
	}
	if len(r.ShoppingOffers) > 0 && p.Engine != sightline.EngineGoogleShopping {
		return invalid(p, "shopping offers from %s", p.Engine)
	}
	positions := map[int]bool{}
	brands := map[uuid.UUID]bool{}
	for _, m := range r.Mentions {
		if err := checkRelation(p, m.Relation, m.CompetitorID, true); err != nil {
			return err
		}
		if !slices.Contains(sightline.MentionTypes, m.Type) || !slices.Contains(sightline.Tones, m.Tone) ||
			!slices.Contains(sightline.Qualifiers, m.Qualifier) {
			return invalid(p, "mention of %q: unknown type %q, tone %q or qualifier %q", m.BrandName, m.Type, m.Tone, m.Qualifier)
		}
		if err := checkRank(p, "mention position", m.Position); err != nil {
			return err
		}
		if positions[m.Position] {
			return invalid(p, "two mentions at position %d", m.Position)
		}
		positions[m.Position] = true
		if m.Relation != sightline.RelationUntrackedCompetitor {
			id := uuid.Nil
			if m.CompetitorID != nil {
				id = *m.CompetitorID
			}
			if brands[id] {
				return invalid(p, "brand %q is named twice: one mention per brand", m.BrandName)
			}
			brands[id] = true
		}
	}
	for _, c := range r.Citations {
		if err := checkRelation(p, c.Relation, c.CompetitorID, false); err != nil {
			return err
		}
		if err := checkRank(p, "citation position", c.Position); err != nil {
			return err
		}
	}
	for _, s := range r.SearchResults {
		if err := checkRelation(p, s.Relation, s.CompetitorID, false); err != nil {
			return err
		}
		if err := checkRank(p, "search rank", s.Rank); err != nil {
			return err
		}
		if s.RatingVotes != nil && (*s.RatingVotes < 0 || int64(*s.RatingVotes) > 1<<32-1) {
			return invalid(p, "rating votes %d out of range", *s.RatingVotes)
		}
	}
	for _, o := range r.ShoppingOffers {
		if err := checkRelation(p, o.Relation, o.CompetitorID, false); err != nil {
			return err
		}
		if err := checkRank(p, "offer rank", o.Rank); err != nil {
			return err
		}
	}
	return nil
}

func checkRank(p Pass, what string, n int) error {
	if n < 1 || n > 1<<16-1 {
		return invalid(p, "%s %d out of range 1..65535", what, n)
	}
	return nil
}

// checkRelation checks a relation and its competitor id: mentions name
// own, tracked or untracked brands; citations, results and offers are own,
// a tracked competitor's or nobody's.
func checkRelation(p Pass, r sightline.Relation, competitor *uuid.UUID, mention bool) error {
	switch r {
	case sightline.RelationOwn:
	case sightline.RelationTrackedCompetitor:
		if competitor == nil || *competitor == uuid.Nil {
			return invalid(p, "a tracked competitor's row needs its competitor id")
		}
		return nil
	case sightline.RelationUntrackedCompetitor:
		if !mention {
			return invalid(p, "relation %q is for mentions only", r)
		}
	case sightline.RelationNone:
		if mention {
			return invalid(p, "a mention needs a relation")
		}
	default:
		return invalid(p, "unknown relation %q", r)
	}
	if competitor != nil {
		return invalid(p, "competitor id on a %q row", r)
	}
	return nil
}

// rankRow is one row of rank_rows: one brand's positions in one pass.
type rankRow struct {
	relation           sightline.Relation // own or tracked-competitor
	competitorID       uuid.UUID          // uuid.Nil for own
	mentionPosition    *uint16
	tone               sightline.Tone // "" when not mentioned
	linkPosition       *uint16
	serpPosition       *uint16
	shoppingPosition   *uint16
	ownMentionPosition *uint16
}

// rankRows derives the pass's rank_rows: the own row, then one row per
// tracked competitor that appears in the pass, by competitor id. A brand's
// link, search and shopping positions are the best (lowest) of its rows;
// unresolved citations belong to no brand, their domain being the
// redirector's.
func (r *PassRows) rankRows() []rankRow {
	rows := []rankRow{{relation: sightline.RelationOwn}}
	index := map[uuid.UUID]int{}
	row := func(rel sightline.Relation, competitor *uuid.UUID) *rankRow {
		switch {
		case rel == sightline.RelationOwn:
			return &rows[0]
		case rel != sightline.RelationTrackedCompetitor:
			return nil
		}
		i, ok := index[*competitor]
		if !ok {
			i = len(rows)
			index[*competitor] = i
			rows = append(rows, rankRow{relation: rel, competitorID: *competitor})
		}
		return &rows[i]
	}
	for _, m := range r.Mentions {
		if b := row(m.Relation, m.CompetitorID); b != nil {
			b.mentionPosition, b.tone = best(b.mentionPosition, m.Position), m.Tone
		}
	}
	for _, c := range r.Citations {
		if c.Unresolved {
			continue
		}
		if b := row(c.Relation, c.CompetitorID); b != nil {
			b.linkPosition = best(b.linkPosition, c.Position)
		}
	}
	for _, s := range r.SearchResults {
		if b := row(s.Relation, s.CompetitorID); b != nil {
			b.serpPosition = best(b.serpPosition, s.Rank)
		}
	}
	for _, o := range r.ShoppingOffers {
		if b := row(o.Relation, o.CompetitorID); b != nil {
			b.shoppingPosition = best(b.shoppingPosition, o.Rank)
		}
	}
	for i := range rows {
		rows[i].ownMentionPosition = rows[0].mentionPosition
	}
	slices.SortFunc(rows[1:], func(a, b rankRow) int { return bytes.Compare(a.competitorID[:], b.competitorID[:]) })
	return rows
}

func best(cur *uint16, n int) *uint16 {
	v := uint16(n)
	if cur != nil && *cur <= v {
		return cur
	}
	return &v
}

// captureTable is one of the capture tables a pass writes to, in the order
// they are written: rank_rows last, so a pass whose rank rows are stored has
// every other row stored too.
type captureTable int

const (
	tableAIAnswers captureTable = iota
	tableMentions
	tableCitations
	tableSearchResults
	tableShoppingOffers
	tableRankRows
	numCaptureTables
)

// tableSpec is how a pass's rows go into one table.
type tableSpec struct {
	name    string
	columns string
	count   func(e *passEntry) int
	append  func(b driver.Batch, e *passEntry) error
}

// captureTables describes every capture table; SQL stays literal. The
// columns an item row (mention, search result, shopping offer) takes from
// its pass are named once, in passItemColumns, beside the values that fill
// them (Pass.itemRow).
var captureTables = [numCaptureTables]tableSpec{
	tableAIAnswers: {
		name: "ai_answers",
		columns: `id, organization_id, project_id, tracked_query_id, run_id, pass_index, pass_count, engine,
			country, locale, query_text, captured_at, response_text, extraction_version, citations.position,
			citations.url, citations.domain, citations.title, citations.unresolved`,
		count: func(e *passEntry) int {
			if e.rows.Engine.AI() {
				return 1
			}
			return 0
		},
		append: func(b driver.Batch, e *passEntry) error {
			p, cs := e.rows.Pass, e.rows.Citations
			pos, urls, domains, titles, unresolved := make([]uint16, len(cs)), make([]string, len(cs)),
				make([]string, len(cs)), make([]string, len(cs)), make([]bool, len(cs))
			for i, c := range cs {
				pos[i], urls[i], domains[i], titles[i], unresolved[i] = uint16(c.Position), c.URL, c.Domain, c.Title, c.Unresolved
			}
			return b.Append(p.CaptureID(), p.OrganizationID, p.ProjectID, p.TrackedQueryID, p.RunID, p.PassIndex,
				p.PassCount, string(p.Engine), p.Country, p.Locale, p.QueryText, p.CapturedAt, e.rows.ResponseText,
				e.rows.ExtractionVersion, pos, urls, domains, titles, unresolved)
		},
	},
	tableMentions: eachTable("mentions", "id, answer_id, "+passItemColumns+`, brand_name, relation, competitor_id,
			position, mention_type, tone, qualifier, mention_text, worth`,
		func(e *passEntry) []Mention { return e.rows.Mentions },
		func(p Pass, i int, m Mention) []any {
			return p.itemRow(p.MentionID(i), m.BrandName, string(m.Relation), m.CompetitorID, uint16(m.Position),
				string(m.Type), string(m.Tone), string(m.Qualifier), m.Sentence,
				sightline.MentionWorth(m.Type, m.Tone, m.Qualifier))
		}),
	tableCitations: eachTable("citations", `answer_id, organization_id, project_id, tracked_query_id, run_id,
			pass_index, engine, country, captured_at, position, url, domain, title, unresolved, relation, competitor_id`,
		func(e *passEntry) []Citation { return e.rows.Citations },
		func(p Pass, _ int, c Citation) []any {
			return []any{p.CaptureID(), p.OrganizationID, p.ProjectID, p.TrackedQueryID, p.RunID,
				p.PassIndex, string(p.Engine), p.Country, p.CapturedAt, uint16(c.Position), c.URL, c.Domain,
				c.Title, c.Unresolved, string(c.Relation), c.CompetitorID}
		}),
	tableSearchResults: eachTable("search_results", "id, snapshot_id, "+passItemColumns+`, rank, url, domain, title,
			snippet, rating, rating_votes, unresolved, relation, competitor_id`,
		func(e *passEntry) []SearchResult { return e.rows.SearchResults },
		func(p Pass, i int, s SearchResult) []any {
			var votes *uint32
			if s.RatingVotes != nil {
				v := uint32(*s.RatingVotes)
				votes = &v
			}
			return p.itemRow(p.SearchResultID(i), uint16(s.Rank), s.URL, s.Domain, s.Title, s.Snippet, s.Rating,
				votes, s.Unresolved, string(s.Relation), s.CompetitorID)
		}),
	tableShoppingOffers: eachTable("shopping_offers", "id, snapshot_id, "+passItemColumns+`, rank, title, price,
			currency, product_id, merchant, domain, url, relation, competitor_id`,
		func(e *passEntry) []ShoppingOffer { return e.rows.ShoppingOffers },
		func(p Pass, i int, o ShoppingOffer) []any {
			return p.itemRow(p.ShoppingOfferID(i), uint16(o.Rank), o.Title, o.Price, o.Currency, o.ProductID,
				o.Merchant, o.Domain, o.URL, string(o.Relation), o.CompetitorID)
		}),
	tableRankRows: eachTable("rank_rows", `organization_id, project_id, tracked_query_id, run_id, pass_index,
			pass_count, engine, country, query_text, captured_at, capture_id, relation, competitor_id,
			mention_position, tone, link_position, serp_position, shopping_position, own_mention_position`,
		func(e *passEntry) []rankRow { return e.ranks },
		func(p Pass, _ int, r rankRow) []any {
			return []any{p.OrganizationID, p.ProjectID, p.TrackedQueryID, p.RunID, p.PassIndex,
				p.PassCount, string(p.Engine), p.Country, p.QueryText, p.CapturedAt, p.CaptureID(),
				string(r.relation), r.competitorID, r.mentionPosition, string(r.tone), r.linkPosition,
				r.serpPosition, r.shoppingPosition, r.ownMentionPosition}
		}),
}

// eachTable is the spec of a table that takes a row per item of a pass,
// of the values row gives for the item and its index.
func eachTable[T any](name, columns string, items func(e *passEntry) []T, row func(p Pass, i int, item T) []any) tableSpec {
	return tableSpec{
		name:    name,
		columns: columns,
		count:   func(e *passEntry) int { return len(items(e)) },
		append: func(b driver.Batch, e *passEntry) error {
			for i, item := range items(e) {
				if err := b.Append(row(e.rows.Pass, i, item)...); err != nil {
					return err
				}
			}
			return nil
		},
	}
}

// passItemColumns are the columns an item row repeats from its pass, after
// the item's id and its capture's.
const passItemColumns = "organization_id, project_id, tracked_query_id, run_id, pass_index, engine, country, query_text, captured_at"

// itemRow is the row of the pass's item with id: the id, the capture's,
// the pass's (passItemColumns), then the item's values.
func (p Pass) itemRow(id uuid.UUID, values ...any) []any {
	return append([]any{id, p.CaptureID(), p.OrganizationID, p.ProjectID, p.TrackedQueryID, p.RunID, p.PassIndex,
		string(p.Engine), p.Country, p.QueryText, p.CapturedAt}, values...)
}

// passEntry is a validated pass with its derived rank rows.
type passEntry struct {
	rows  PassRows
	ranks []rankRow
}

func newPassEntry(r PassRows) *passEntry {
	return &passEntry{rows: r, ranks: r.rankRows()}
}

// rowOverhead approximates the fixed bytes of one row in a Native block:
// its ids, times, enums and numbers.
const rowOverhead = 96

// size approximates the bytes the pass adds to the inserts: its text and
// a fixed cost per row, enough to bound a batch.
func (e *passEntry) size() int {
	r := e.rows
	n := rowOverhead*(1+len(e.ranks)) + len(r.QueryText) + len(r.ResponseText)
	for _, m := range r.Mentions {
		n += rowOverhead + len(r.QueryText) + len(m.BrandName) + len(m.Sentence)
	}
	for _, c := range r.Citations {
		n += rowOverhead + len(c.URL) + len(c.Domain) + len(c.Title)
	}
	for _, x := range r.SearchResults {
		n += rowOverhead + len(r.QueryText) + len(x.URL) + len(x.Domain) + len(x.Title) + len(x.Snippet)
	}
	for _, x := range r.ShoppingOffers {
		n += rowOverhead + len(r.QueryText) + len(x.Title) + len(x.Merchant) + len(x.Domain) + len(x.URL) + len(x.ProductID)
	}
	return n
}

// block is the rows of one table in one flush, with the deduplication token
// that makes re-sending it harmless.
type block struct {
	table   captureTable
	entries []*passEntry
	rows    int
	token   string
}

// uniqueEntries drops repeats of a pass, keeping the first: a pass is
// stored once, even when two writers send it into the same flush.
func uniqueEntries(entries []*passEntry) []*passEntry {
	seen := make(map[passKey]bool, len(entries))
	unique := make([]*passEntry, 0, len(entries))
	for _, e := range entries {
		if !seen[e.rows.key()] {
			seen[e.rows.key()] = true
			unique = append(unique, e)
		}
	}
	return unique
}

// prepareBlocks asks which of the entries' passes each table already holds
// and returns, per table, a block of the rest in write order. Each block
// carries an insert_deduplication_token derived from the passes in it, so
// sending the same block again (after an error whose outcome was unknown)
// stores nothing twice, in the table or in the rollups its views feed.
func prepareBlocks(ctx context.Context, conn driver.Conn, entries []*passEntry) ([]block, error) {
	stored, err := storedPasses(ctx, conn, entries)
	if err != nil {
		return nil, err
	}
	var blocks []block
	for t := range numCaptureTables {
		b := block{table: t}
		for _, e := range entries {
			if n := captureTables[t].count(e); n > 0 && !stored[t][e.rows.key()] {
				b.entries = append(b.entries, e)
				b.rows += n
			}
		}
		if b.rows > 0 {
			b.token = b.dedupToken()
			blocks = append(blocks, b)
		}
	}
	return blocks, nil
}

// dedupToken names the block by its table and the passes in it: the same
// passes sent to the same table again are a duplicate, whatever the rows.
func (b block) dedupToken() string {
	keys := make([]passKey, len(b.entries))
	for i, e := range b.entries {
		keys[i] = e.rows.key()
	}
	slices.SortFunc(keys, func(x, y passKey) int {
		return cmp.Or(bytes.Compare(x.run[:], y.run[:]), cmp.Compare(x.pass, y.pass))
	})
	h := sha256.New()
	h.Write([]byte(captureTables[b.table].name))
	for _, k := range keys {
		h.Write(k.run[:])
		h.Write([]byte{k.pass})
	}
	return "sightline-passes-" + hex.EncodeToString(h.Sum(nil))
}

// insertSettings make a re-sent block a no-op in the table and in every
// materialized view it feeds: deduplication by token even on
// non-replicated tables (with non_replicated_deduplication_window set on
// every capture and rollup table), views deduplicated too so a retry after
// a view failed fills only what is missing, and synchronous inserts, since
// the writer batches itself and deduplicates synchronous blocks only.
func insertSettings(token string) clickhouse.Settings {
	return clickhouse.Settings{
		"insert_deduplicate":                                 1,
		"insert_deduplication_token":                         token,
		"deduplicate_blocks_in_dependent_materialized_views": 1,
		"async_insert":                                       0,
	}
}

// insert sends the block as one INSERT. columns (see insertColumns) spare
// the HTTP driver a DESCRIBE TABLE before it.
func (b block) insert(ctx context.Context, conn driver.Conn, columns []clickhouse.ColumnNameAndType) error {
	spec := captureTables[b.table]
	ctx = clickhouse.Context(ctx, clickhouse.WithSettings(insertSettings(b.token)), clickhouse.WithColumnNamesAndTypes(columns))
	batch, err := conn.PrepareBatch(ctx, "INSERT INTO "+spec.name+" ("+spec.columns+")")
	if err != nil {
		return fmt.Errorf("preparing %s batch: %w", spec.name, err)
	}
	defer batch.Abort() //nolint:errcheck // a no-op once sent
	for _, e := range b.entries {
		if err := spec.append(batch, e); err != nil {
			return fmt.Errorf("appending to %s: %w", spec.name, err)
		}
	}
	if err := batch.Send(); err != nil {
		return fmt.Errorf("inserting %d rows into %s: %w", b.rows, spec.name, err)
	}
	return nil
}

// insertColumns reads the types of every capture table's insert columns
// from the database, in insert order, for the Writer to reuse.
func insertColumns(ctx context.Context, conn driver.Conn) ([numCaptureTables][]clickhouse.ColumnNameAndType, error) {
	var columns [numCaptureTables][]clickhouse.ColumnNameAndType
	types := map[[2]string]string{}
	err := scanRows(ctx, conn, "reading capture table columns", `SELECT table, name, type FROM system.columns
		WHERE database = currentDatabase()
		  AND table IN ('ai_answers', 'mentions', 'citations', 'search_results', 'shopping_offers', 'rank_rows')`, nil,
		func(rows driver.Rows) error {
			var table, name, typ string
			if err := rows.Scan(&table, &name, &typ); err != nil {
				return err
			}
			types[[2]string{table, name}] = typ
			return nil
		})
	if err != nil {
		return columns, err
	}
	for t, spec := range captureTables {
		for _, name := range strings.Split(spec.columns, ",") {
			name = strings.TrimSpace(name)
			typ, ok := types[[2]string{spec.name, name}]
			if !ok {
				return columns, fmt.Errorf("capture table %s has no column %s: migrate the database", spec.name, name)
			}
			columns[t] = append(columns[t], clickhouse.ColumnNameAndType{Name: name, Type: typ})
		}
	}
	return columns, nil
}

// storedLookupPasses is how many passes one lookup of stored passes names:
// each capture table's arm lists their runs and tracked queries, so a
// lookup stays under 160 KiB however many passes a flush holds, inside
// ClickHouse's default max_query_size (256 KiB) even where a server keeps
// it.
const storedLookupPasses = 200

// storedPasses returns, per table, which of the entries' passes it already
// holds; Fresh passes are not looked up. The lookup narrows by project, day and tracked query, the head of
// every sorting key, then by run. Values are formatted from typed UUIDs and dates, so the
// literal lists are safe, and they keep long lists out of the URL.
func storedPasses(ctx context.Context, conn driver.Conn, entries []*passEntry) ([numCaptureTables]map[passKey]bool, error) {
	var stored [numCaptureTables]map[passKey]bool
	for t := range stored {
		stored[t] = map[passKey]bool{}
	}
	var retried []*passEntry
	for _, e := range entries {
		if !e.rows.Fresh {
			retried = append(retried, e)
		}
	}
	for chunk := range slices.Chunk(retried, storedLookupPasses) {
		if err := lookUpStoredPasses(ctx, conn, chunk, stored); err != nil {
			return stored, err
		}
	}
	return stored, nil
}

// lookUpStoredPasses marks in stored, per table, which of the entries'
// passes the table holds, in one query.
func lookUpStoredPasses(ctx context.Context, conn driver.Conn, entries []*passEntry, stored [numCaptureTables]map[passKey]bool) error {
	projects, days, queries, runs := map[string]bool{}, map[string]bool{}, map[string]bool{}, map[string]bool{}
	var wanted [numCaptureTables]bool
	for _, e := range entries {
		projects["'"+e.rows.ProjectID.String()+"'"] = true
		days["'"+e.rows.CapturedAt.UTC().Format(time.DateOnly)+"'"] = true
		queries["'"+e.rows.TrackedQueryID.String()+"'"] = true
		runs["'"+e.rows.RunID.String()+"'"] = true
		for t := range numCaptureTables {
			wanted[t] = wanted[t] || captureTables[t].count(e) > 0
		}
	}
	list := func(set map[string]bool) string { return strings.Join(slices.Sorted(maps.Keys(set)), ", ") }
	where := fmt.Sprintf("project_id IN (%s) AND toDate(captured_at) IN (%s) AND tracked_query_id IN (%s) AND run_id IN (%s)",
		list(projects), list(days), list(queries), list(runs))
	var selects []string
	for t := range numCaptureTables {
		if wanted[t] {
			selects = append(selects, fmt.Sprintf("SELECT DISTINCT toUInt8(%d) AS t, run_id, pass_index FROM %s WHERE %s",
				t, captureTables[t].name, where))
		}
	}
	if len(selects) == 0 {
		return nil
	}
	rows, err := conn.Query(ctx, strings.Join(selects, "\nUNION ALL\n"))
	if err != nil {
		return fmt.Errorf("looking up stored passes: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var (
			t   uint8
			key passKey
		)
		if err := rows.Scan(&t, &key.run, &key.pass); err != nil {
			return fmt.Errorf("reading stored passes: %w", err)
		}
		stored[t][key] = true
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("reading stored passes: %w", err)
	}
	return nil
}
