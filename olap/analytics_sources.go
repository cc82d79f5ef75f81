package olap

import (
	"context"
	"fmt"

	"github.com/ClickHouse/clickhouse-go/v2/lib/driver"
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
	var (
		keys  []string
		total uint64
		index = map[string]int{}
	)
	err := scanRows(ctx, a.Conn, "reading cited sources", `
		SELECT `+key+` AS k, sum(citations) AS c, count() OVER () AS total
		FROM cited_sources_daily
		WHERE `+where+`
		GROUP BY k
		ORDER BY c DESC, k
		LIMIT ? OFFSET ?`, append(args, f.Limit, f.Offset), func(rows driver.Rows) error {
		var (
			k         string
			citations uint64
		)
		if err := rows.Scan(&k, &citations, &total); err != nil {
			return err
		}
		index[k] = len(page)
		keys = append(keys, k)
		src := CitedSource{CitationCount: int64(citations)}
		if f.ByPage {
			src.URL = &k
		}
		page = append(page, src)
		return nil
	})
	if err != nil {
		return nil, 0, err
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
	// An answer is captured on one day, so the distinct answers of a window
	// are the sum of each day's: merging the answer sets per day and adding
	// the counts spares the union of a long window's sets, the costliest part
	// of the read. Tracked queries recur from day to day and are merged over
	// the window, in an arm of their own.
	keyArgs := append(append([]any{}, args...), keys)
	err = scanRows(ctx, a.Conn, "reading cited sources", `
		SELECT 0 AS arm, k, any(d), sum(day_answers), toUInt64(0), sum(day_positions), max(day_title)
		FROM (
			SELECT day, `+key+` AS k, any(domain) AS d, uniqExactMerge(answers) AS day_answers,
			       sum(position_sum) AS day_positions, max(sample_title) AS day_title
			FROM cited_sources_daily
			WHERE `+where+` AND `+key+` IN ?
			GROUP BY day, `+group+`
		)
		GROUP BY k
		UNION ALL
		SELECT 1 AS arm, `+key+` AS k, '', toUInt64(0), uniqExact(tracked_query_id), toUInt64(0), ''
		FROM cited_sources_daily
		WHERE `+where+` AND `+key+` IN ?
		GROUP BY `+group, append(keyArgs, keyArgs...), func(rows driver.Rows) error {
		var (
			arm                        uint8
			k, domain, title           string
			answers, queries, position uint64
		)
		if err := rows.Scan(&arm, &k, &domain, &answers, &queries, &position, &title); err != nil {
			return err
		}
		src := &page[index[k]]
		if arm == 1 {
			src.DistinctQueryCount = int64(queries)
			return nil
		}
		src.Domain, src.SampleTitle = nonEmpty(domain), nonEmpty(title)
		src.DistinctResponseCount = int64(answers)
		if src.CitationCount > 0 {
			avg := float64(position) / float64(src.CitationCount)
			src.AvgPosition = &avg
		}
		return nil
	})
	if err != nil {
		return nil, 0, err
	}
	return page, int(total), nil
}
