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
// citations (most first), then domain or URL, and how many there are. The
// page's keys and the total come from the cheap sums; the distinct counts
// (uniqExactMerge over the answers' states, across the pages of a domain)
// are then merged for those keys only.
func (a *Analytics) CitedSources(ctx context.Context, s Scope, f CitedSourceFilter) ([]CitedSource, int, error) {
	page := []CitedSource{}
	if s.Empty() {
		return page, 0, nil
	}
	where, args := s.rollupWhere()
	key, group := citedSourceKey(f.ByPage)
	rows, err := a.Conn.Query(ctx, `
		SELECT `+key+` AS k, sum(citations) AS c, count() OVER () AS total
		FROM cited_sources_daily
		WHERE `+where+`
		GROUP BY k
		ORDER BY c DESC, k
		LIMIT ? OFFSET ?`, append(args, f.Limit, f.Offset)...)
	if err != nil {
		return nil, 0, fmt.Errorf("reading cited sources: %w", err)
	}
	defer rows.Close()
	var (
		keys  []string
		total uint64
		index = map[string]int{}
	)
	for rows.Next() {
		var (
			k         string
			citations uint64
		)
		if err := rows.Scan(&k, &citations, &total); err != nil {
			return nil, 0, fmt.Errorf("reading cited sources: %w", err)
		}
		index[k] = len(page)
		keys = append(keys, k)
		src := CitedSource{CitationCount: int64(citations)}
		if f.ByPage {
			src.URL = &k
		}
		page = append(page, src)
	}
	if err := rows.Err(); err != nil {
		return nil, 0, fmt.Errorf("reading cited sources: %w", err)
	}
	if len(page) == 0 {
		if f.Offset == 0 {
			return page, 0, nil
		}
		// Past the last page: no row carried the total.
		err := a.Conn.QueryRow(ctx, `SELECT uniqExact(`+key+`) FROM cited_sources_daily WHERE `+where, args...).Scan(&total)
		if err != nil {
			return nil, 0, fmt.Errorf("counting cited sources: %w", err)
		}
		return page, int(total), nil
	}
	rows, err = a.Conn.Query(ctx, `
		SELECT `+key+` AS k, domain, uniqExactMerge(answers), uniqExact(tracked_query_id), sum(position_sum),
		       max(sample_title)
		FROM cited_sources_daily
		WHERE `+where+` AND `+key+` IN ?
		GROUP BY `+group, append(args, keys)...)
	if err != nil {
		return nil, 0, fmt.Errorf("reading cited sources: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var (
			k, domain, title           string
			answers, queries, position uint64
		)
		if err := rows.Scan(&k, &domain, &answers, &queries, &position, &title); err != nil {
			return nil, 0, fmt.Errorf("reading cited sources: %w", err)
		}
		src := &page[index[k]]
		src.Domain, src.SampleTitle = nonEmpty(domain), nonEmpty(title)
		src.DistinctResponseCount, src.DistinctQueryCount = int64(answers), int64(queries)
		if src.CitationCount > 0 {
			avg := float64(position) / float64(src.CitationCount)
			src.AvgPosition = &avg
		}
	}
	if err := rows.Err(); err != nil {
		return nil, 0, fmt.Errorf("reading cited sources: %w", err)
	}
	return page, int(total), nil
}
