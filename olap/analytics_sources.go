package olap

import (
	"context"
	"fmt"
)

// Cited sources: the pages and domains AI answers cite, whoever owns them,
// from cited_sources_daily (which leaves out citations still behind an
// engine redirect).

// CitedSourceFilter pages through the cited sources in scope.
type CitedSourceFilter struct {
	// ByPage groups by URL; by domain otherwise.
	ByPage        bool
	Limit, Offset int
}

// CitedSource is a domain, or a page, and how AI answers cite it.
type CitedSource struct {
	Domain *string `json:"domain"`
	// URL is the page; nil when grouped by domain.
	URL                   *string `json:"url"`
	CitationCount         int64   `json:"citationCount"`
	DistinctResponseCount int64   `json:"distinctResponseCount"`
	DistinctQueryCount    int64   `json:"distinctQueryCount"`
	// AvgPosition is the mean 1-based citation position.
	AvgPosition *float64 `json:"avgPosition"`
	// SampleTitle is a title it was cited with; nil when none had one.
	SampleTitle *string `json:"sampleTitle"`
}

// citedSourceKey is the column a grouping is keyed by and the columns it
// groups by; literal text.
func citedSourceKey(byPage bool) (key, group string) {
	if byPage {
		return "url", "domain, url"
	}
	return "domain", "domain"
}

// CitedSources returns one page of the cited sources in scope, by
// citations (most first), then domain or URL, and how many there are. One
// statement: the page's keys and the total come from the cheap sums, and
// the distinct counts (uniqExactMerge over the answers' states, across
// the pages of a domain) are merged for the page's keys only.
func (a *Analytics) CitedSources(ctx context.Context, s Scope, f CitedSourceFilter) ([]CitedSource, int, error) {
	page := []CitedSource{}
	if s.Empty() {
		return page, 0, nil
	}
	where, args := s.rollupWhere()
	key, group := citedSourceKey(f.ByPage)
	rows, err := a.Conn.Query(ctx, `
		WITH keys AS (
			SELECT `+key+` AS k, sum(citations) AS c, count() OVER () AS total
			FROM cited_sources_daily
			WHERE `+where+`
			GROUP BY k
			ORDER BY c DESC, k
			LIMIT ? OFFSET ?
		)
		SELECT keys.k, keys.c, keys.total, d.host, d.answers, d.queries, d.position_sum, d.title
		FROM keys
		INNER JOIN (
			SELECT domain AS host, `+key+` AS k, uniqExactMerge(answers) AS answers,
			       uniqExact(tracked_query_id) AS queries, sum(position_sum) AS position_sum, max(sample_title) AS title
			FROM cited_sources_daily
			WHERE `+where+` AND `+key+` IN (SELECT k FROM keys)
			GROUP BY `+group+`
		) AS d ON d.k = keys.k
		ORDER BY keys.c DESC, keys.k`, append(append(args, f.Limit, f.Offset), args...)...)
	if err != nil {
		return nil, 0, fmt.Errorf("reading cited sources: %w", err)
	}
	defer rows.Close()
	total := 0
	for rows.Next() {
		var (
			k, domain, title        string
			citations, positions    uint64
			count, answers, queries uint64
		)
		if err := rows.Scan(&k, &citations, &count, &domain, &answers, &queries, &positions, &title); err != nil {
			return nil, 0, fmt.Errorf("reading cited sources: %w", err)
		}
		src := CitedSource{Domain: nonEmpty(domain), CitationCount: int64(citations), DistinctResponseCount: int64(answers),
			DistinctQueryCount: int64(queries), SampleTitle: nonEmpty(title)}
		if f.ByPage {
			src.URL = &k
		}
		if citations > 0 {
			avg := float64(positions) / float64(citations)
			src.AvgPosition = &avg
		}
		page, total = append(page, src), int(count)
	}
	if err := rows.Err(); err != nil {
		return nil, 0, fmt.Errorf("reading cited sources: %w", err)
	}
	if len(page) == 0 && f.Offset > 0 {
		// Past the last page: the statement above had no row to carry the
		// total.
		var n uint64
		err := a.Conn.QueryRow(ctx, `SELECT uniqExact(`+key+`) FROM cited_sources_daily WHERE `+where, args...).Scan(&n)
		if err != nil {
			return nil, 0, fmt.Errorf("counting cited sources: %w", err)
		}
		total = int(n)
	}
	return page, total, nil
}
