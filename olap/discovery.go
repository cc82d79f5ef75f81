package olap

import (
	"context"
	"time"

	"github.com/ClickHouse/clickhouse-go/v2/lib/driver"
	"github.com/google/uuid"
)

// Discovery reads what brand and keyword discovery (spec 4.8) learn from a
// project's captures: brands its answers name that it does not track,
// domains ranking on its search and shopping pages that are nobody's it
// tracks, and the texts of the pages. Every read starts with the tenant
// predicate project_id and narrows on captured_at, and uses FINAL so that
// a pass stored twice counts once. Aggregates are bounded: the best
// discoveryLimit rows of each kind.
type Discovery struct {
	Conn driver.Conn
}

// DiscoveryFilter selects the captures a discovery reads.
type DiscoveryFilter struct {
	ProjectID uuid.UUID
	// Since bounds captured_at from below.
	Since time.Time
	// Country narrows to captures asked from one country; "" reads all.
	Country string
}

// discoveryLimit bounds the rows of each discovery read.
const discoveryLimit = 1000

func (f DiscoveryFilter) where() (string, []any) {
	sql := "project_id = ? AND captured_at >= ?"
	args := []any{f.ProjectID, f.Since}
	if f.Country != "" {
		sql += " AND country = ?"
		args = append(args, f.Country)
	}
	return sql, args
}

// BrandMention is an untracked brand the project's answers name: its
// spelling (the least of those equal but for case), the answers naming it,
// the sum of 1/sqrt(position) and the sum of positions over them, and the
// answers naming it as a brand (every mention type but reference) with
// their sum of 1/sqrt(position).
type BrandMention struct {
	Name         string
	Answers      int
	Weight       float64
	PositionSum  float64
	BrandAnswers int
	BrandWeight  float64
}

// UntrackedMentions returns the brands the project's answers name that
// were untracked when captured, most named first.
func (d Discovery) UntrackedMentions(ctx context.Context, f DiscoveryFilter) ([]BrandMention, error) {
	where, args := f.where()
	return collectRows(ctx, d.Conn, "reading untracked mentions", `
		SELECT min(brand_name) AS name, count() AS answers, sum(1 / sqrt(position)) AS weight,
		       sum(position) AS position_sum, countIf(mention_type != 'reference') AS brand_answers,
		       sumIf(1 / sqrt(position), mention_type != 'reference') AS brand_weight
		FROM mentions FINAL
		WHERE `+where+` AND relation = 'untracked-competitor'
		GROUP BY lower(brand_name)
		ORDER BY answers DESC, name
		LIMIT ?`, append(args, discoveryLimit), func(rows driver.Rows) (BrandMention, error) {
		var (
			m                             BrandMention
			answers, posSum, brandAnswers uint64
		)
		if err := rows.Scan(&m.Name, &answers, &m.Weight, &posSum, &brandAnswers, &m.BrandWeight); err != nil {
			return m, err
		}
		m.Answers, m.PositionSum, m.BrandAnswers = int(answers), float64(posSum), int(brandAnswers)
		return m, nil
	})
}

// DomainPresence is a domain on the project's pages: how many results,
// offers or citations it has, the sum of 1/sqrt(rank) over them, its best
// rank, and the title or merchant of its best-ranked item.
type DomainPresence struct {
	Domain   string
	Items    int
	Weight   float64
	BestRank int
	Label    string
}

// UntrackedSearchDomains returns the domains of organic results on the
// project's search pages that belonged to no tracked brand when captured
// (results still behind a redirector excluded), strongest first.
func (d Discovery) UntrackedSearchDomains(ctx context.Context, f DiscoveryFilter) ([]DomainPresence, error) {
	return d.untrackedDomains(ctx, f, domainSource{what: "search domains", table: "search_results", rank: "rank",
		label: "title", resolvedOnly: true, orderBy: "weight"})
}

// UntrackedShoppingDomains returns the merchant domains of offers on the
// project's shopping pages that belonged to no tracked brand when
// captured, strongest first; the label is the merchant's name.
func (d Discovery) UntrackedShoppingDomains(ctx context.Context, f DiscoveryFilter) ([]DomainPresence, error) {
	return d.untrackedDomains(ctx, f, domainSource{what: "shopping domains", table: "shopping_offers", rank: "rank",
		label: "merchant", orderBy: "weight"})
}

// UntrackedCitedDomains returns the domains the project's answers cite
// that belong to no tracked brand, most cited first.
func (d Discovery) UntrackedCitedDomains(ctx context.Context, f DiscoveryFilter) ([]DomainPresence, error) {
	return d.untrackedDomains(ctx, f, domainSource{what: "cited domains", table: "citations", rank: "position",
		label: "title", resolvedOnly: true, orderBy: "items"})
}

// domainSource is a table of captured items with a domain, as
// untrackedDomains reads it. Its names come from the literals above.
type domainSource struct {
	what, table string
	// rank is the item's rank column, label the column naming it.
	rank, label string
	// resolvedOnly leaves out items still behind a redirector.
	resolvedOnly bool
	// orderBy is the strength the domains are ordered by: weight or items.
	orderBy string
}

// untrackedDomains reads the domains of src's items that belonged to no
// tracked brand, each weighed by its items' ranks (1/sqrt(rank) each).
func (d Discovery) untrackedDomains(ctx context.Context, f DiscoveryFilter, src domainSource) ([]DomainPresence, error) {
	where, args := f.where()
	if src.resolvedOnly {
		where += " AND NOT unresolved"
	}
	return collectRows(ctx, d.Conn, "reading "+src.what, `
		SELECT domain, count() AS items, sum(1 / sqrt(`+src.rank+`)) AS weight, min(`+src.rank+`) AS best_rank,
		       argMin(`+src.label+`, `+src.rank+`) AS label
		FROM `+src.table+` FINAL
		WHERE `+where+` AND relation = '' AND domain != ''
		GROUP BY domain
		ORDER BY `+src.orderBy+` DESC, domain
		LIMIT ?`, append(args, discoveryLimit), func(rows driver.Rows) (DomainPresence, error) {
		var (
			p     DomainPresence
			items uint64
			best  uint16
		)
		if err := rows.Scan(&p.Domain, &items, &p.Weight, &best, &p.Label); err != nil {
			return p, err
		}
		p.Items, p.BestRank = int(items), int(best)
		return p, nil
	})
}

// PageTexts returns the distinct texts of the project's captured pages:
// search result titles and snippets, shopping offer titles and the titles
// of cited pages, the most frequent first.
func (d Discovery) PageTexts(ctx context.Context, f DiscoveryFilter) ([]string, error) {
	where, args := f.where()
	var out []string
	for _, q := range []struct{ what, column, table string }{
		{"search titles", "title", "search_results"},
		{"search snippets", "snippet", "search_results"},
		{"offer titles", "title", "shopping_offers"},
		{"cited titles", "title", "citations"},
	} {
		// The column and table come from the literal list above.
		texts, err := collectRows(ctx, d.Conn, "reading "+q.what, `
			SELECT `+q.column+` AS text, count() AS n
			FROM `+q.table+` FINAL
			WHERE `+where+` AND `+q.column+` != ''
			GROUP BY text
			ORDER BY n DESC, text
			LIMIT ?`, append(args, discoveryLimit), func(rows driver.Rows) (string, error) {
			var (
				text string
				n    uint64
			)
			err := rows.Scan(&text, &n)
			return text, err
		})
		if err != nil {
			return nil, err
		}
		out = append(out, texts...)
	}
	return out, nil
}
