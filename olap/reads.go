package olap

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/ClickHouse/clickhouse-go/v2/lib/driver"
	"github.com/google/uuid"

	"github.com/sightline/sightline"
)

// Reader serves the API's capture and match listings (spec 4.4 and the
// mention-match and serp-match listings of 4.2) from the raw capture
// tables. Every read uses FINAL, so a pass that reached ClickHouse twice
// shows once even before its parts merge, and every query starts with the
// tenant predicate project_id and narrows on captured_at, the head of each
// table's sorting key. Ties of capture time go by id in its text form, the
// order a client can reproduce, rather than ClickHouse's own UUID order.
type Reader struct {
	Conn driver.Conn
}

// ReadFilter selects the rows of one listing.
type ReadFilter struct {
	ProjectID uuid.UUID
	// TrackedQueryID narrows to one tracked query; nil means every query of
	// the project (the API's match listings always set it).
	TrackedQueryID *uuid.UUID
	// From and Until bound captured_at: From <= captured_at < Until.
	From, Until time.Time
	// Ascending lists oldest first; newest first otherwise.
	Ascending     bool
	Limit, Offset int
}

// where is the filter's predicate and its arguments. It is built from
// literal fragments only; values travel as arguments.
func (f ReadFilter) where() (string, []any) {
	sql := "project_id = ? AND captured_at >= ? AND captured_at < ?"
	args := []any{f.ProjectID, f.From, f.Until}
	if f.TrackedQueryID != nil {
		sql += " AND tracked_query_id = ?"
		args = append(args, *f.TrackedQueryID)
	}
	return sql, args
}

// direction is the ORDER BY direction of the filter.
func (f ReadFilter) direction() string {
	if f.Ascending {
		return "ASC"
	}
	return "DESC"
}

// byCaptureTime is the ORDER BY of a listing newest first unless
// f.Ascending, ties by idColumn in its text form in the same direction.
func (f ReadFilter) byCaptureTime(idColumn string) string {
	dir := f.direction()
	return "captured_at " + dir + ", toString(" + idColumn + ") " + dir
}

// AIAnswer is a captured AI answer: one pass of a check of an AI engine.
// The passes of one run share TrackedQueryID and CapturedAt.
type AIAnswer struct {
	ID             uuid.UUID           `json:"id"`
	TrackedQueryID uuid.UUID           `json:"trackedQueryId"`
	QueryText      string              `json:"queryText"`
	Engine         sightline.Engine    `json:"engine"`
	Country        string              `json:"country"`
	Locale         *string             `json:"locale"`
	PassIndex      int                 `json:"passIndex"` // 0-based
	PassCount      int                 `json:"passCount"`
	CapturedAt     sightline.Timestamp `json:"capturedAt"`
	ResponseText   string              `json:"responseText"`
	CitedSources   []AIAnswerSource    `json:"citedSources"`
}

// AIAnswerSource is a source an answer cites. Where Unresolved is true the
// URL is still the engine's redirector and Domain the redirector's.
type AIAnswerSource struct {
	Position   int     `json:"position"`
	URL        string  `json:"url"`
	Domain     string  `json:"domain"`
	Title      *string `json:"title"`
	Unresolved bool    `json:"unresolved"`
}

// AIAnswers lists the project's captured AI answers, newest first unless
// f.Ascending (the passes of one run together, in pass order), and counts
// them.
func (r Reader) AIAnswers(ctx context.Context, f ReadFilter) ([]AIAnswer, int, error) {
	where, args := f.where()
	order := "captured_at " + f.direction() + ", tracked_query_id, run_id, pass_index"
	return readPage(ctx, r, f, "ai answers", `
		id, tracked_query_id, query_text, engine, country, nullIf(locale, ''), pass_index, pass_count,
		captured_at, response_text, citations.position, citations.url, citations.domain, citations.title,
		citations.unresolved`, "ai_answers FINAL WHERE "+where, order, args, func(rows driver.Rows) (AIAnswer, error) {
		var (
			a                     AIAnswer
			engine                string
			passIndex, passCount  uint8
			positions             []uint16
			urls, domains, titles []string
			unresolved            []bool
		)
		if err := rows.Scan(&a.ID, &a.TrackedQueryID, &a.QueryText, &engine, &a.Country, &a.Locale, &passIndex,
			&passCount, &a.CapturedAt, &a.ResponseText, &positions, &urls, &domains, &titles, &unresolved); err != nil {
			return a, err
		}
		a.Engine, a.PassIndex, a.PassCount = sightline.Engine(engine), int(passIndex), int(passCount)
		a.CitedSources = make([]AIAnswerSource, len(positions))
		for i := range positions {
			a.CitedSources[i] = AIAnswerSource{Position: int(positions[i]), URL: urls[i], Domain: domains[i],
				Title: nonEmpty(titles[i]), Unresolved: unresolved[i]}
		}
		return a, nil
	})
}

// Snapshot is a captured search or shopping page without its items.
type Snapshot struct {
	ID             uuid.UUID           `json:"id"`
	TrackedQueryID uuid.UUID           `json:"trackedQueryId"`
	QueryText      string              `json:"queryText"`
	Country        string              `json:"country"`
	CapturedAt     sightline.Timestamp `json:"capturedAt"`
}

// SearchSnapshot is a captured search page (google_serp): its organic
// results in rank order, possibly none.
type SearchSnapshot struct {
	Snapshot
	Results []SearchSnapshotResult `json:"results"`
}

// SearchSnapshotResult is one organic result of a search page.
type SearchSnapshotResult struct {
	Rank        int      `json:"rank"`
	URL         string   `json:"url"`
	Domain      string   `json:"domain"`
	Title       string   `json:"title"`
	Snippet     *string  `json:"snippet"`
	Rating      *float64 `json:"rating"`
	RatingVotes *int     `json:"ratingVotes"`
	Unresolved  bool     `json:"unresolved"`
}

// ShoppingSnapshot is a captured shopping page (google_shopping): its
// offers in rank order, possibly none, possibly in several currencies.
type ShoppingSnapshot struct {
	Snapshot
	Offers []ShoppingSnapshotOffer `json:"offers"`
}

// ShoppingSnapshotOffer is one offer of a shopping page.
type ShoppingSnapshotOffer struct {
	Rank      int     `json:"rank"`
	Title     string  `json:"title"`
	Price     float64 `json:"price"`
	Currency  string  `json:"currency"`
	ProductID *string `json:"productId"`
	Merchant  string  `json:"merchant"`
	Domain    *string `json:"domain"`
	URL       *string `json:"url"`
}

// snapshotHeads pages through the project's completed passes of engine.
// Their own rank_rows row is the record of a completed pass (every pass
// has one, written after the pass's other rows), so a page without a
// single result or offer is still listed.
func (r Reader) snapshotHeads(ctx context.Context, engine sightline.Engine, f ReadFilter) ([]Snapshot, int, error) {
	where, args := f.where()
	where += " AND engine = ? AND relation = 'own'"
	args = append(args, string(engine))
	return readPage(ctx, r, f, string(engine)+" snapshots", "capture_id, tracked_query_id, query_text, country, captured_at",
		"rank_rows FINAL WHERE "+where, f.byCaptureTime("capture_id"), args, func(rows driver.Rows) (Snapshot, error) {
			var s Snapshot
			err := rows.Scan(&s.ID, &s.TrackedQueryID, &s.QueryText, &s.Country, &s.CapturedAt)
			return s, err
		})
}

// itemsWhere selects the items of the snapshots in heads: the project, the
// span of their capture times and their tracked queries (the head of the
// sorting key), then their ids.
func itemsWhere(projectID uuid.UUID, heads []Snapshot) (string, []any) {
	ids := make([]uuid.UUID, len(heads))
	var queries []uuid.UUID
	first, last := heads[0].CapturedAt.Time, heads[0].CapturedAt.Time
	for i, h := range heads {
		ids[i] = h.ID
		if !slices.Contains(queries, h.TrackedQueryID) {
			queries = append(queries, h.TrackedQueryID)
		}
		if h.CapturedAt.Before(first) {
			first = h.CapturedAt.Time
		}
		if h.CapturedAt.After(last) {
			last = h.CapturedAt.Time
		}
	}
	// The span only narrows the read (the ids decide); it is widened to
	// whole seconds because a bound time.Time reaches ClickHouse without
	// its milliseconds, which would drop the items of the span's last
	// second.
	first, last = first.Truncate(time.Second), last.Truncate(time.Second).Add(time.Second)
	return "project_id = ? AND captured_at >= ? AND captured_at < ? AND tracked_query_id IN ? AND snapshot_id IN ?",
		[]any{projectID, first, last, queries, ids}
}

// SearchSnapshots lists the project's captured search pages with their
// results, newest first unless f.Ascending, and counts them.
func (r Reader) SearchSnapshots(ctx context.Context, f ReadFilter) ([]SearchSnapshot, int, error) {
	return snapshotPage(ctx, r, sightline.EngineGoogleSERP, f, "reading search results", `
		SELECT snapshot_id, rank, url, domain, title, nullIf(snippet, ''), rating, rating_votes, unresolved
		FROM search_results FINAL`, func(rows driver.Rows, snapshot *uuid.UUID) (SearchSnapshotResult, error) {
		var (
			res   SearchSnapshotResult
			rank  uint16
			votes *uint32
		)
		if err := rows.Scan(snapshot, &rank, &res.URL, &res.Domain, &res.Title, &res.Snippet, &res.Rating, &votes,
			&res.Unresolved); err != nil {
			return res, err
		}
		res.Rank = int(rank)
		if votes != nil {
			v := int(*votes)
			res.RatingVotes = &v
		}
		return res, nil
	}, func(s Snapshot, results []SearchSnapshotResult) SearchSnapshot {
		return SearchSnapshot{Snapshot: s, Results: results}
	})
}

// ShoppingSnapshots lists the project's captured shopping pages with their
// offers, newest first unless f.Ascending, and counts them.
func (r Reader) ShoppingSnapshots(ctx context.Context, f ReadFilter) ([]ShoppingSnapshot, int, error) {
	return snapshotPage(ctx, r, sightline.EngineGoogleShopping, f, "reading shopping offers", `
		SELECT snapshot_id, rank, title, price, currency, nullIf(product_id, ''), merchant, nullIf(domain, ''),
		       nullIf(url, '')
		FROM shopping_offers FINAL`, func(rows driver.Rows, snapshot *uuid.UUID) (ShoppingSnapshotOffer, error) {
		var (
			o    ShoppingSnapshotOffer
			rank uint16
		)
		if err := rows.Scan(snapshot, &rank, &o.Title, &o.Price, &o.Currency, &o.ProductID, &o.Merchant, &o.Domain,
			&o.URL); err != nil {
			return o, err
		}
		o.Rank = int(rank)
		return o, nil
	}, func(s Snapshot, offers []ShoppingSnapshotOffer) ShoppingSnapshot {
		return ShoppingSnapshot{Snapshot: s, Offers: offers}
	})
}

// snapshotPage reads one page of engine's snapshots (snapshotHeads), then
// their items: selectFrom is the items' SELECT ... FROM, which snapshotPage
// narrows to the page's snapshots (itemsWhere) and orders by snapshot and
// rank; scan turns a row into an item and the id of its snapshot. withItems
// makes a page entry of a snapshot and its items, an empty list when it
// has none.
func snapshotPage[S, I any](ctx context.Context, r Reader, engine sightline.Engine, f ReadFilter, doing, selectFrom string,
	scan func(rows driver.Rows, snapshot *uuid.UUID) (I, error), withItems func(Snapshot, []I) S) ([]S, int, error) {
	heads, total, err := r.snapshotHeads(ctx, engine, f)
	if err != nil || len(heads) == 0 {
		return []S{}, total, err
	}
	items := make([][]I, len(heads))
	index := make(map[uuid.UUID]int, len(heads))
	for i, h := range heads {
		items[i] = []I{}
		index[h.ID] = i
	}
	where, args := itemsWhere(f.ProjectID, heads)
	err = scanRows(ctx, r.Conn, doing, selectFrom+`
		WHERE `+where+`
		ORDER BY snapshot_id, rank, id`, args, func(rows driver.Rows) error {
		var snapshot uuid.UUID
		item, err := scan(rows, &snapshot)
		if err != nil {
			return err
		}
		i := index[snapshot]
		items[i] = append(items[i], item)
		return nil
	})
	if err != nil {
		return nil, 0, err
	}
	page := make([]S, len(heads))
	for i, h := range heads {
		page[i] = withItems(h, items[i])
	}
	return page, total, nil
}

// MentionMatch is a brand an AI answer names, as stored when the answer
// was captured (never reclassified). CompetitorID is set exactly for
// tracked competitors.
type MentionMatch struct {
	ID              uuid.UUID             `json:"id"`
	AIResponseID    uuid.UUID             `json:"aiResponseId"`
	DetectedAt      sightline.Timestamp   `json:"detectedAt"`
	Engine          sightline.Engine      `json:"engine"`
	BrandName       string                `json:"brandName"`
	CompetitorID    *uuid.UUID            `json:"competitorId"`
	MentionRelation sightline.Relation    `json:"mentionRelation"`
	MentionPosition int                   `json:"mentionPosition"`
	MentionType     sightline.MentionType `json:"mentionType"`
	Sentiment       sightline.Tone        `json:"sentiment"`
	Qualifier       sightline.Qualifier   `json:"qualifier"`
	MentionText     string                `json:"mentionText"`
}

// MentionMatches lists the mention matches of f.TrackedQueryID, newest
// first unless f.Ascending, ties by id in the same direction, and counts
// them. The mentions table holds text mentions only (cited sources live in
// citations), so no citation-only row can appear.
func (r Reader) MentionMatches(ctx context.Context, f ReadFilter) ([]MentionMatch, int, error) {
	where, args := f.where()
	return readPage(ctx, r, f, "mention matches", `
		id, answer_id, captured_at, engine, brand_name, competitor_id, relation, position, mention_type, tone,
		qualifier, mention_text`, "mentions FINAL WHERE "+where, f.byCaptureTime("id"), args,
		func(rows driver.Rows) (MentionMatch, error) {
			var (
				m                                         MentionMatch
				position                                  uint16
				engine, relation, mentionType, tone, qual string
			)
			if err := rows.Scan(&m.ID, &m.AIResponseID, &m.DetectedAt, &engine, &m.BrandName, &m.CompetitorID, &relation,
				&position, &mentionType, &tone, &qual, &m.MentionText); err != nil {
				return m, err
			}
			m.Engine, m.MentionRelation, m.MentionPosition = sightline.Engine(engine), sightline.Relation(relation), int(position)
			m.MentionType, m.Sentiment, m.Qualifier = sightline.MentionType(mentionType), sightline.Tone(tone), sightline.Qualifier(qual)
			return m, nil
		})
}

// SerpMatch is an organic result on the own brand's or a tracked
// competitor's domain; CompetitorID nil means the own brand's.
type SerpMatch struct {
	ID           uuid.UUID           `json:"id"`
	SnapshotID   uuid.UUID           `json:"snapshotId"`
	DetectedAt   sightline.Timestamp `json:"detectedAt"`
	Rank         int                 `json:"rank"`
	URL          string              `json:"url"`
	Domain       string              `json:"domain"`
	CompetitorID *uuid.UUID          `json:"competitorId"`
}

// SerpMatches lists the serp matches of f.TrackedQueryID (results whose
// relation is own or tracked-competitor), newest first unless f.Ascending,
// ties by id in the same direction, and counts them.
func (r Reader) SerpMatches(ctx context.Context, f ReadFilter) ([]SerpMatch, int, error) {
	where, args := f.where()
	where += " AND relation IN ('own', 'tracked-competitor')"
	return readPage(ctx, r, f, "serp matches", "id, snapshot_id, captured_at, rank, url, domain, competitor_id",
		"search_results FINAL WHERE "+where, f.byCaptureTime("id"), args, func(rows driver.Rows) (SerpMatch, error) {
			var (
				m    SerpMatch
				rank uint16
			)
			if err := rows.Scan(&m.ID, &m.SnapshotID, &m.DetectedAt, &rank, &m.URL, &m.Domain, &m.CompetitorID); err != nil {
				return m, err
			}
			m.Rank = int(rank)
			return m, nil
		})
}

// readPage counts the rows of from (a table and its WHERE, taking args) and
// reads the page of them f asks for: columns, ordered by orderBy; scan
// turns a row into a T. what names the rows in errors ("mention matches").
// An empty page is an empty slice, never nil.
func readPage[T any](ctx context.Context, r Reader, f ReadFilter, what, columns, from, orderBy string, args []any,
	scan func(driver.Rows) (T, error)) ([]T, int, error) {
	var n uint64
	if err := r.Conn.QueryRow(ctx, "SELECT count() FROM "+from, args...).Scan(&n); err != nil {
		return nil, 0, fmt.Errorf("counting %s: %w", what, err)
	}
	if n == 0 {
		return []T{}, 0, nil
	}
	query := "SELECT " + columns + " FROM " + from + " ORDER BY " + orderBy + " LIMIT ? OFFSET ?"
	page, err := collectRows(ctx, r.Conn, "reading "+what, query, append(args, f.Limit, f.Offset), scan)
	if err != nil {
		return nil, 0, err
	}
	return page, int(n), nil
}

// nonEmpty is nil for "", which the capture tables store for "none".
func nonEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}
