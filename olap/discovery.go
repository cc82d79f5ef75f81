package olap

import (
	"context"
	"fmt"
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
	var out []BrandMention
	err := scanRows(ctx, d.Conn, "reading untracked mentions", `
		SELECT min(brand_name) AS name, count() AS answers, sum(1 / sqrt(position)) AS weight,
		       sum(position) AS position_sum, countIf(mention_type != 'reference') AS brand_answers,
		       sumIf(1 / sqrt(position), mention_type != 'reference') AS brand_weight
		FROM mentions FINAL
		WHERE `+where+` AND relation = 'untracked-competitor'
		GROUP BY lower(brand_name)
		ORDER BY answers DESC, name
		LIMIT ?`, append(args, discoveryLimit), func(rows driver.Rows) error {
		var (
			m                             BrandMention
			answers, posSum, brandAnswers uint64
		)
		if err := rows.Scan(&m.Name, &answers, &m.Weight, &posSum, &brandAnswers, &m.BrandWeight); err != nil {
			return err
		}
		m.Answers, m.PositionSum, m.BrandAnswers = int(answers), float64(posSum), int(brandAnswers)
		out = append(out, m)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
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
	where, args := f.where()
	return d.domains(ctx, "reading search domains", `
		SELECT domain, count() AS items, sum(1 / sqrt(rank)) AS weight, min(rank) AS best_rank,
		       argMin(title, rank) AS label
		FROM search_results FINAL
		WHERE `+where+` AND relation = '' AND NOT unresolved AND domain != ''
		GROUP BY domain
		ORDER BY weight DESC, domain
		LIMIT ?`, append(args, discoveryLimit))
}

// UntrackedShoppingDomains returns the merchant domains of offers on the
// project's shopping pages that belonged to no tracked brand when
// captured, strongest first; the label is the merchant's name.
func (d Discovery) UntrackedShoppingDomains(ctx context.Context, f DiscoveryFilter) ([]DomainPresence, error) {
	where, args := f.where()
	return d.domains(ctx, "reading shopping domains", `
		SELECT domain, count() AS items, sum(1 / sqrt(rank)) AS weight, min(rank) AS best_rank,
		       argMin(merchant, rank) AS label
		FROM shopping_offers FINAL
		WHERE `+where+` AND relation = '' AND domain != ''
		GROUP BY domain
		ORDER BY weight DESC, domain
		LIMIT ?`, append(args, discoveryLimit))
}

// UntrackedCitedDomains returns the domains the project's answers cite
// that belong to no tracked brand, most cited first.
func (d Discovery) UntrackedCitedDomains(ctx context.Context, f DiscoveryFilter) ([]DomainPresence, error) {
	where, args := f.where()
	return d.domains(ctx, "reading cited domains", `
		SELECT domain, count() AS items, sum(1 / sqrt(position)) AS weight, min(position) AS best_rank,
		       argMin(title, position) AS label
		FROM citations FINAL
		WHERE `+where+` AND relation = '' AND NOT unresolved AND domain != ''
		GROUP BY domain
		ORDER BY items DESC, domain
		LIMIT ?`, append(args, discoveryLimit))
}

func (d Discovery) domains(ctx context.Context, what, query string, args []any) ([]DomainPresence, error) {
	var out []DomainPresence
	err := scanRows(ctx, d.Conn, what, query, args, func(rows driver.Rows) error {
		var (
			p     DomainPresence
			items uint64
			best  uint16
		)
		if err := rows.Scan(&p.Domain, &items, &p.Weight, &best, &p.Label); err != nil {
			return err
		}
		p.Items, p.BestRank = int(items), int(best)
		out = append(out, p)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
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
		rows, err := d.Conn.Query(ctx, `
			SELECT `+q.column+` AS text, count() AS n
			FROM `+q.table+` FINAL
			WHERE `+where+` AND `+q.column+` != ''
			GROUP BY text
			ORDER BY n DESC, text
			LIMIT ?`, append(args, discoveryLimit)...)
		if err != nil {
			return nil, fmt.Errorf("reading %s: %w", q.what, err)
		}
		for rows.Next() {
			var (
				text string
				n    uint64
			)
			if err := rows.Scan(&text, &n); err != nil {
				rows.Close()
				return nil, fmt.Errorf("reading %s: %w", q.what, err)
			}
			out = append(out, text)
		}
		err = rows.Err()
		rows.Close()
		if err != nil {
			return nil, fmt.Errorf("reading %s: %w", q.what, err)
		}
	}
	return out, nil
}
