package api

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/sightline/sightline"
	"github.com/sightline/sightline/olap"
	"github.com/sightline/sightline/oltp"
)

// keywordsFixture is a project with four keywords over six tracked queries
// (variants), captured in the two-day window ending on day and the two
// days before it:
//
//	best crm          v1 chatgpt US active daily 3, v2 google_serp US paused weekly 1,
//	                  v3 perplexity DE active monthly 2
//	crm pricing       v4 chatgpt US active daily 3
//	cheap crm         v5 google_shopping US paused monthly 1
//	crm for startups  v6 chatgpt US active weekly 3 (never captured)
//
// Cluster sales holds v1 and v4; cluster gone held v5 and was deleted.
type keywordsFixture struct {
	*capturesFixture
	v1, v2, v3, v4, v5, v6 qaQuery
	sales, gone            uuid.UUID
	// Last completed checks: v1 at checkedV1, v2 later at checkedV2, v4
	// earlier at checkedV4; the others never.
	checkedV1, checkedV2, checkedV4 time.Time
}

func keywordsSetup(t *testing.T) *keywordsFixture {
	t.Helper()
	cf := queryAnalyticsSetup(t)
	kf := &keywordsFixture{capturesFixture: cf,
		v1:        cf.trackedQuery("best crm", sightline.EngineChatGPT, "US", qaConfig{"active", "daily", 3}),
		v2:        cf.trackedQuery("best crm", sightline.EngineGoogleSERP, "US", qaConfig{"paused", "weekly", 1}),
		v3:        cf.trackedQuery("best crm", sightline.EnginePerplexity, "DE", qaConfig{"active", "monthly", 2}),
		v4:        cf.trackedQuery("crm pricing", sightline.EngineChatGPT, "US", qaConfig{"active", "daily", 3}),
		v5:        cf.trackedQuery("cheap crm", sightline.EngineGoogleShopping, "US", qaConfig{"paused", "monthly", 1}),
		v6:        cf.trackedQuery("crm for startups", sightline.EngineChatGPT, "US", qaConfig{"active", "weekly", 3}),
		checkedV1: cf.day.Add(13 * time.Hour), checkedV2: cf.day.Add(14 * time.Hour),
		checkedV4: cf.day.Add(-10 * time.Hour),
	}
	ctx := context.Background()
	for q, at := range map[uuid.UUID]time.Time{kf.v1.id: kf.checkedV1, kf.v2.id: kf.checkedV2, kf.v4.id: kf.checkedV4} {
		if _, err := cf.pool.Exec(ctx, `UPDATE tracked_queries SET last_checked_at = $2 WHERE id = $1`, q, at); err != nil {
			t.Fatal(err)
		}
	}
	member := func(cluster uuid.UUID, queries ...qaQuery) {
		for _, q := range queries {
			if _, err := cf.pool.Exec(ctx, `
				INSERT INTO tracked_query_clusters (project_id, tracked_query_id, cluster_id) VALUES ($1, $2, $3)`,
				cf.project, q.id, cluster); err != nil {
				t.Fatal(err)
			}
		}
	}
	for name, id := range map[string]*uuid.UUID{"sales": &kf.sales, "gone": &kf.gone} {
		c, err := oltp.CreateCluster(ctx, cf.pool, cf.project, name)
		if err != nil {
			t.Fatal(err)
		}
		*id = c.ID
	}
	member(kf.sales, kf.v1, kf.v4)
	member(kf.gone, kf.v5)
	if _, err := oltp.DeleteCluster(ctx, cf.pool, cf.org, cf.project, kf.gone); err != nil {
		t.Fatal(err)
	}

	d := cf.day
	rec, cmp, lst, ex := sightline.MentionRecommendation, sightline.MentionComparison, sightline.MentionListing, sightline.MentionExample
	pos, neu, neg := sightline.TonePositive, sightline.ToneNeutral, sightline.ToneNegative
	cf.insertRuns(
		cf.run(kf.v1, d.AddDate(0, 0, -3),
			qaPass{mentions: []olap.Mention{moverUntracked(1, rec, neu), moverOwn(2, rec, pos)}},
			qaPass{mentions: []olap.Mention{moverUntracked(1, lst, neu)}}),
		cf.run(kf.v1, d,
			qaPass{mentions: []olap.Mention{moverOwn(1, rec, pos)}, citations: []olap.Citation{ownLink(2)}},
			qaPass{mentions: []olap.Mention{moverUntracked(1, rec, neg), moverUntracked(2, ex, neu), moverOwn(3, cmp, neu)}}),
		cf.run(kf.v3, d.AddDate(0, 0, -1),
			qaPass{mentions: []olap.Mention{moverOwn(2, lst, neg)}, citations: []olap.Citation{ownLink(1)}}),
		cf.run(kf.v2, d.AddDate(0, 0, -2), qaPass{results: []olap.SearchResult{ownResult(6)}}),
		cf.run(kf.v2, d, qaPass{results: []olap.SearchResult{ownResult(4)}}),
		cf.run(kf.v4, d.AddDate(0, 0, -2), qaPass{mentions: []olap.Mention{moverOwn(1, rec, pos)}}),
		cf.run(kf.v4, d.AddDate(0, 0, -1), qaPass{mentions: []olap.Mention{moverOwn(1, rec, pos)}}),
		cf.run(kf.v4, d, qaPass{mentions: []olap.Mention{moverUntracked(1, rec, neu)}}),
		cf.run(kf.v5, d.AddDate(0, 0, -3), qaPass{offers: []olap.ShoppingOffer{ownOffer(1)}}),
		cf.run(kf.v5, d, qaPass{offers: []olap.ShoppingOffer{ownOffer(2)}}),
	)
	return kf
}

// keywordListingJSON is the decoded keyword listing.
type keywordListingJSON struct {
	Page              []olap.KeywordRow `json:"page"`
	Total             int               `json:"total"`
	TotalVariantCount int               `json:"totalVariantCount"`
	DataDirtySince    *string           `json:"dataDirtySince"`
}

func (kf *keywordsFixture) listing(t *testing.T, params url.Values) keywordListingJSON {
	t.Helper()
	return decodeAs[keywordListingJSON](t, kf.get(kf.analyticsPath("/keyword-listings", params)))
}

// keywordsOf are the keywords of rows in order.
func keywordsOf(rows []olap.KeywordRow) []string {
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = r.Keyword
	}
	return out
}

// variantIDs are the ids of queries in the order of the listing (by id).
func variantIDs(queries ...qaQuery) []uuid.UUID {
	ids := make([]uuid.UUID, len(queries))
	for i, q := range queries {
		ids[i] = q.id
	}
	slices.SortFunc(ids, func(a, b uuid.UUID) int { return bytes.Compare(a[:], b[:]) })
	return ids
}

func TestKeywordListingFigures(t *testing.T) {
	t.Parallel()
	kf := keywordsSetup(t)
	got := kf.listing(t, kf.window(2))
	if got.Total != 4 || got.TotalVariantCount != 6 || got.DataDirtySince != nil {
		t.Fatalf("total %d, totalVariantCount %d, dataDirtySince %v; want 4, 6, null", got.Total,
			got.TotalVariantCount, got.DataDirtySince)
	}
	if keywords := keywordsOf(got.Page); !slices.Equal(keywords, []string{"best crm", "cheap crm", "crm for startups", "crm pricing"}) {
		t.Fatalf("keywords %q", keywords)
	}
	// Worth of a direct mention: type weight (recommendation 1.0,
	// comparison 0.8, listing 0.6, example 0.5) x tone (positive 1.2,
	// neutral 1.0, negative 0.5).
	type want struct {
		variants                                 []uuid.UUID
		status                                   string
		checked                                  *time.Time
		share                                    *float64
		shareN                                   int64
		positivity                               *float64
		positivityN                              int64
		mentionRate                              *float64
		mentionRateN                             int64
		mention, link, stability, serp, shopping *float64
		types                                    olap.KeywordMentionTypes
		trendShare, trendPositivity              *float64
		trendMention, trendLink                  *float64
		trendSerp, trendShopping                 *float64
	}
	tests := []want{{
		// Now: own 1.2 (v1, 1st) + 0.8 (v1, 3rd) + 0.3 (v3, 2nd) of those
		// and 0.5 + 0.5 untracked, 5 mentions over 3 AI answers; links 2
		// and 1; rank 4. Before: own 1.2 (2nd) of 1.2 + 1.0 + 0.6; rank 6.
		variants: variantIDs(kf.v1, kf.v2, kf.v3), status: "mixed", checked: &kf.checkedV2,
		share: figure(100 * 2.3 / 3.3), shareN: 5, positivity: figure(100 * 1.5 / 3), positivityN: 3,
		mentionRate: figure(100), mentionRateN: 3,
		mention: figure(2), link: figure(1.5), stability: figure(math.Sqrt(14.0/3 - 4)), serp: figure(4),
		types:      olap.KeywordMentionTypes{Recommendation: 1, Comparison: 1, Listing: 1},
		trendShare: figure(100*2.3/3.3 - 100*1.2/2.8), trendPositivity: figure(50 - 100),
		trendMention: figure(2 - 2), trendSerp: figure(6 - 4),
	}, {
		variants: variantIDs(kf.v5), status: "paused", shopping: figure(2), trendShopping: figure(1 - 2),
	}, {
		variants: variantIDs(kf.v6), status: "active",
	}, {
		// Now: named 1st in 1 of 2 answers, 1.2 of 1.2 + 1.0. Before: 1 of 1.
		variants: variantIDs(kf.v4), status: "active", checked: &kf.checkedV4,
		share: figure(100 * 1.2 / 2.2), shareN: 2, positivity: figure(100), positivityN: 1,
		mentionRate: figure(50), mentionRateN: 2, mention: figure(1),
		types:      olap.KeywordMentionTypes{Recommendation: 1},
		trendShare: figure(100*1.2/2.2 - 100), trendPositivity: figure(0), trendMention: figure(0),
	}}
	for i, w := range tests {
		r := got.Page[i]
		t.Run(r.Keyword, func(t *testing.T) {
			if !slices.Equal(r.VariantIDs, w.variants) || r.VariantCount != len(w.variants) {
				t.Errorf("variants %v (%d), want %v", r.VariantIDs, r.VariantCount, w.variants)
			}
			if r.StatusSummary != w.status {
				t.Errorf("statusSummary %s, want %s", r.StatusSummary, w.status)
			}
			switch {
			case w.checked == nil && r.LastCheckedAt != nil, w.checked != nil && r.LastCheckedAt == nil,
				w.checked != nil && !r.LastCheckedAt.Equal(*w.checked):
				t.Errorf("lastCheckedAt %v, want %v", r.LastCheckedAt, w.checked)
			}
			checkFigure(t, "shareOfVoice", r.ShareOfVoice, w.share)
			checkInterval(t, "shareOfVoiceInterval", r.ShareOfVoiceInterval, w.share, w.shareN)
			checkFigure(t, "positivityIndex", r.PositivityIndex, w.positivity)
			checkInterval(t, "positivityIndexInterval", r.PositivityIndexInterval, w.positivity, w.positivityN)
			checkFigure(t, "mentionRate", r.MentionRate, w.mentionRate)
			checkInterval(t, "mentionRateInterval", r.MentionRateInterval, w.mentionRate, w.mentionRateN)
			checkFigure(t, "avgMentionPosition", r.AvgMentionPosition, w.mention)
			checkFigure(t, "avgLinkPosition", r.AvgLinkPosition, w.link)
			checkFigure(t, "mentionPositionStability", r.MentionPositionStability, w.stability)
			checkFigure(t, "avgSerpPosition", r.AvgSerpPosition, w.serp)
			checkFigure(t, "avgShoppingPosition", r.AvgShoppingPosition, w.shopping)
			if r.MentionTypeCounts != w.types {
				t.Errorf("mentionTypeCounts %+v, want %+v", r.MentionTypeCounts, w.types)
			}
			checkFigure(t, "trendShareOfVoice", r.TrendShareOfVoice, w.trendShare)
			checkFigure(t, "trendPositivityIndex", r.TrendPositivityIndex, w.trendPositivity)
			checkFigure(t, "trendMention", r.TrendMention, w.trendMention)
			checkFigure(t, "trendLink", r.TrendLink, w.trendLink)
			checkFigure(t, "trendSerp", r.TrendSerp, w.trendSerp)
			checkFigure(t, "trendShopping", r.TrendShopping, w.trendShopping)
		})
	}

	// The answer and its rows carry exactly the keys of the contract,
	// absent values as null.
	r := kf.get(kf.analyticsPath("/keyword-listings", kf.window(2)))
	var raw struct {
		Page []map[string]json.RawMessage `json:"page"`
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(r.body, &raw); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(r.body, &top); err != nil {
		t.Fatal(err)
	}
	if len(top) != 4 {
		t.Errorf("answer keys %d, want page, total, totalVariantCount, dataDirtySince: %s", len(top), r.body)
	}
	keys := []string{"keyword", "variantIds", "variantCount", "statusSummary", "lastCheckedAt", "shareOfVoice",
		"shareOfVoiceInterval", "positivityIndex", "positivityIndexInterval", "mentionRate", "mentionRateInterval",
		"avgMentionPosition", "avgLinkPosition", "mentionPositionStability", "avgSerpPosition", "avgShoppingPosition",
		"mentionTypeCounts", "trendShareOfVoice", "trendPositivityIndex", "trendMention", "trendLink", "trendSerp",
		"trendShopping"}
	row := raw.Page[2] // crm for startups: every figure null
	for _, key := range keys {
		if _, ok := row[key]; !ok {
			t.Errorf("row lacks %s", key)
		}
	}
	if len(row) != len(keys) || string(row["shareOfVoice"]) != "null" || string(row["lastCheckedAt"]) != "null" {
		t.Errorf("row %v", row)
	}
}

func TestKeywordListingSorting(t *testing.T) {
	t.Parallel()
	kf := keywordsSetup(t)
	const (
		best, cheap, startups, pricing = "best crm", "cheap crm", "crm for startups", "crm pricing"
	)
	tests := []struct {
		sortBy, order string
		keywords      []string
	}{
		{"", "", []string{best, cheap, startups, pricing}},
		{"keyword", "desc", []string{pricing, startups, cheap, best}},
		{"variantCount", "desc", []string{best, cheap, startups, pricing}},
		{"variantCount", "asc", []string{cheap, startups, pricing, best}},
		{"statusSummary", "asc", []string{startups, pricing, best, cheap}},
		{"statusSummary", "desc", []string{cheap, best, startups, pricing}},
		{"lastCheckedAt", "desc", []string{best, pricing, cheap, startups}},
		{"lastCheckedAt", "asc", []string{pricing, best, cheap, startups}},
		{"shareOfVoice", "desc", []string{best, pricing, cheap, startups}},
		{"shareOfVoice", "asc", []string{pricing, best, cheap, startups}},
		{"positivityIndex", "desc", []string{pricing, best, cheap, startups}},
		{"positivityIndex", "asc", []string{best, pricing, cheap, startups}},
		{"avgMentionPosition", "asc", []string{pricing, best, cheap, startups}},
		{"avgMentionPosition", "desc", []string{best, pricing, cheap, startups}},
		{"avgLinkPosition", "desc", []string{best, cheap, startups, pricing}},
		{"mentionPositionStability", "asc", []string{best, cheap, startups, pricing}},
		{"avgSerpPosition", "desc", []string{best, cheap, startups, pricing}},
		{"avgShoppingPosition", "asc", []string{cheap, best, startups, pricing}},
		{"avgShoppingPosition", "desc", []string{cheap, best, startups, pricing}},
	}
	for _, tt := range tests {
		t.Run(tt.sortBy+" "+tt.order, func(t *testing.T) {
			params := kf.window(2)
			if tt.sortBy != "" {
				params = with(params, "sortBy", tt.sortBy, "sortOrder", tt.order)
			}
			got := kf.listing(t, params)
			if keywords := keywordsOf(got.Page); !slices.Equal(keywords, tt.keywords) || got.Total != 4 {
				t.Errorf("keywords %q total %d, want %q total 4", keywords, got.Total, tt.keywords)
			}
		})
	}

	// Pages are cut after every keyword is ordered, also by a figure.
	pages := []struct {
		params   []string
		keywords []string
	}{
		{[]string{"sortBy", "shareOfVoice", "sortOrder", "desc", "limit", "1", "offset", "1"}, []string{pricing}},
		{[]string{"sortBy", "shareOfVoice", "sortOrder", "desc", "limit", "2", "offset", "2"}, []string{cheap, startups}},
		{[]string{"sortBy", "keyword", "limit", "2", "offset", "1"}, []string{cheap, startups}},
		{[]string{"sortBy", "lastCheckedAt", "sortOrder", "desc", "limit", "1"}, []string{best}},
		{[]string{"offset", "10"}, []string{}},
	}
	for _, p := range pages {
		t.Run(strings.Join(p.params, " "), func(t *testing.T) {
			got := kf.listing(t, with(kf.window(2), p.params...))
			if keywords := keywordsOf(got.Page); !slices.Equal(keywords, p.keywords) || got.Total != 4 || got.TotalVariantCount != 6 {
				t.Errorf("keywords %q total %d/%d, want %q total 4/6", keywords, got.Total, got.TotalVariantCount, p.keywords)
			}
		})
	}
	// A page cut by a key of the write model still carries its figures.
	got := kf.listing(t, with(kf.window(2), "sortBy", "variantCount", "sortOrder", "desc", "limit", "1"))
	checkFigure(t, "shareOfVoice", got.Page[0].ShareOfVoice, figure(100*2.3/3.3))
	checkFigure(t, "trendSerp", got.Page[0].TrendSerp, figure(2))
}

func TestKeywordListingFilters(t *testing.T) {
	t.Parallel()
	kf := keywordsSetup(t)
	type kw struct {
		keyword  string
		variants []uuid.UUID
	}
	tests := []struct {
		name     string
		params   []string
		keywords []kw
		variants int // totalVariantCount
	}{
		{"status paused", []string{"status", "paused"},
			[]kw{{"best crm", variantIDs(kf.v2)}, {"cheap crm", variantIDs(kf.v5)}}, 2},
		{"status active", []string{"status", "active"}, []kw{{"best crm", variantIDs(kf.v1, kf.v3)},
			{"crm for startups", variantIDs(kf.v6)}, {"crm pricing", variantIDs(kf.v4)}}, 4},
		{"monthly", []string{"checkFrequencies", "monthly"},
			[]kw{{"best crm", variantIDs(kf.v3)}, {"cheap crm", variantIDs(kf.v5)}}, 2},
		{"daily and weekly", []string{"checkFrequencies", "daily,weekly"}, []kw{{"best crm", variantIDs(kf.v1, kf.v2)},
			{"crm for startups", variantIDs(kf.v6)}, {"crm pricing", variantIDs(kf.v4)}}, 4},
		{"daily and weekly repeated", []string{"checkFrequencies", "daily", "checkFrequencies", "weekly"},
			[]kw{{"best crm", variantIDs(kf.v1, kf.v2)}, {"crm for startups", variantIDs(kf.v6)},
				{"crm pricing", variantIDs(kf.v4)}}, 4},
		{"2 passes", []string{"nPasses", "2"}, []kw{{"best crm", variantIDs(kf.v3)}}, 1},
		{"1 or 3 passes", []string{"nPasses", "1,3"}, []kw{{"best crm", variantIDs(kf.v1, kf.v2)},
			{"cheap crm", variantIDs(kf.v5)}, {"crm for startups", variantIDs(kf.v6)}, {"crm pricing", variantIDs(kf.v4)}}, 5},
		{"search, any case", []string{"search", "CRM P"}, []kw{{"crm pricing", variantIDs(kf.v4)}}, 6},
		{"search, white space folded", []string{"search", "  Best   CRM "},
			[]kw{{"best crm", variantIDs(kf.v1, kf.v2, kf.v3)}}, 6},
		{"search without a match", []string{"search", "erp"}, nil, 6},
		{"search with other filters", []string{"search", "crm", "status", "paused"},
			[]kw{{"best crm", variantIDs(kf.v2)}, {"cheap crm", variantIDs(kf.v5)}}, 2},
		{"engines", []string{"engines", "chatgpt"}, []kw{{"best crm", variantIDs(kf.v1)},
			{"crm for startups", variantIDs(kf.v6)}, {"crm pricing", variantIDs(kf.v4)}}, 3},
		{"countries by code", []string{"countries", "DE"}, []kw{{"best crm", variantIDs(kf.v3)}}, 1},
		{"countries by name", []string{"countries", "germany"}, []kw{{"best crm", variantIDs(kf.v3)}}, 1},
		{"cluster", []string{"queryClusterIds", kf.sales.String()},
			[]kw{{"best crm", variantIDs(kf.v1)}, {"crm pricing", variantIDs(kf.v4)}}, 2},
		{"ungrouped alone", []string{"includeUngroupedQueries", "true"}, []kw{{"best crm", variantIDs(kf.v2, kf.v3)},
			{"cheap crm", variantIDs(kf.v5)}, {"crm for startups", variantIDs(kf.v6)}}, 4},
		{"ungrouped false alone", []string{"includeUngroupedQueries", "false"}, []kw{
			{"best crm", variantIDs(kf.v1, kf.v2, kf.v3)}, {"cheap crm", variantIDs(kf.v5)},
			{"crm for startups", variantIDs(kf.v6)}, {"crm pricing", variantIDs(kf.v4)}}, 6},
		{"cluster and ungrouped", []string{"queryClusterIds", kf.sales.String(), "includeUngroupedQueries", "true"},
			[]kw{{"best crm", variantIDs(kf.v1, kf.v2, kf.v3)}, {"cheap crm", variantIDs(kf.v5)},
				{"crm for startups", variantIDs(kf.v6)}, {"crm pricing", variantIDs(kf.v4)}}, 6},
		{"deleted cluster", []string{"queryClusterIds", kf.gone.String()}, nil, 0},
		{"deleted cluster and ungrouped", []string{"queryClusterIds", kf.gone.String(), "includeUngroupedQueries", "true"},
			[]kw{{"best crm", variantIDs(kf.v2, kf.v3)}, {"cheap crm", variantIDs(kf.v5)},
				{"crm for startups", variantIDs(kf.v6)}}, 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := kf.listing(t, with(kf.window(2), tt.params...))
			var keywords []kw
			for _, r := range got.Page {
				keywords = append(keywords, kw{r.Keyword, r.VariantIDs})
			}
			if !slices.EqualFunc(keywords, tt.keywords, func(a, b kw) bool {
				return a.keyword == b.keyword && slices.Equal(a.variants, b.variants)
			}) || got.Total != len(tt.keywords) || got.TotalVariantCount != tt.variants {
				t.Errorf("keywords %v total %d variants %d, want %v total %d variants %d", keywords, got.Total,
					got.TotalVariantCount, tt.keywords, len(tt.keywords), tt.variants)
			}
		})
	}

	// Figures count only the variants the filters keep.
	figures := []struct {
		name                 string
		params               []string
		status               string
		share, mention, serp *float64
		stability, link      *float64
	}{
		// v2 alone: rank 4, no answer.
		{"paused", []string{"status", "paused"}, "paused", nil, nil, figure(4), nil, nil},
		// v3 alone: named 2nd, 0.3 of 0.3; cited 1st.
		{"monthly", []string{"checkFrequencies", "monthly"}, "active", figure(100), figure(2), nil, nil, figure(1)},
		// v1 alone: named 1st and 3rd, 2.0 of 3.0; cited 2nd.
		{"chatgpt", []string{"engines", "chatgpt"}, "active", figure(100 * 2.0 / 3.0), figure(2), nil, figure(1), figure(2)},
	}
	for _, tt := range figures {
		t.Run(tt.name+" figures", func(t *testing.T) {
			r := kf.listing(t, with(kf.window(2), tt.params...)).Page[0]
			if r.Keyword != "best crm" || r.StatusSummary != tt.status {
				t.Fatalf("first row %s %s, want best crm %s", r.Keyword, r.StatusSummary, tt.status)
			}
			checkFigure(t, "shareOfVoice", r.ShareOfVoice, tt.share)
			checkFigure(t, "avgMentionPosition", r.AvgMentionPosition, tt.mention)
			checkFigure(t, "avgSerpPosition", r.AvgSerpPosition, tt.serp)
			checkFigure(t, "mentionPositionStability", r.MentionPositionStability, tt.stability)
			checkFigure(t, "avgLinkPosition", r.AvgLinkPosition, tt.link)
		})
	}
}

func TestKeywordListingValidation(t *testing.T) {
	t.Parallel()
	kf := keywordsSetup(t)
	today := time.Now().UTC()
	back := func(months int) url.Values {
		return url.Values{"dateFrom": {today.AddDate(0, -months, 0).Format(time.DateOnly)},
			"dateTo": {today.Format(time.DateOnly)}}
	}
	w := kf.window(2)
	tests := []struct {
		name   string
		params url.Values
		field  string
		code   string
	}{
		{"dateFrom missing", url.Values{"dateTo": {kf.day.Format(time.DateOnly)}}, "dateFrom", "missing_field"},
		{"dateTo missing", url.Values{"dateFrom": {kf.day.Format(time.DateOnly)}}, "dateTo", "missing_field"},
		{"17 months back", back(17), "dateFrom", "out_of_range"},
		{"dateTo before dateFrom", url.Values{"dateFrom": {kf.day.Format(time.DateOnly)},
			"dateTo": {kf.day.AddDate(0, 0, -1).Format(time.DateOnly)}}, "dateTo", "out_of_range"},
		{"unknown sortBy", with(w, "sortBy", "mentionRate"), "sortBy", "invalid_value"},
		{"sortBy of the movers", with(w, "sortBy", "trend_share_of_voice"), "sortBy", "invalid_value"},
		{"sortOrder", with(w, "sortOrder", "down"), "sortOrder", "invalid_value"},
		{"limit 101", with(w, "limit", "101"), "limit", "out_of_range"},
		{"negative offset", with(w, "offset", "-1"), "offset", "out_of_range"},
		{"search of 101 characters", with(w, "search", strings.Repeat("a", 101)), "search", "out_of_range"},
		{"status", with(w, "status", "deleted"), "status", "invalid_value"},
		{"checkFrequencies", with(w, "checkFrequencies", "daily,hourly"), "checkFrequencies", "invalid_value"},
		{"nPasses 11", with(w, "nPasses", "11"), "nPasses", "out_of_range"},
		{"nPasses 0", with(w, "nPasses", "1,0"), "nPasses", "out_of_range"},
		{"nPasses not a number", with(w, "nPasses", "two"), "nPasses", "invalid_type"},
		{"engine", with(w, "engines", "bing"), "engines", "invalid_value"},
		{"country not configured", with(w, "countries", "France"), "countries", "invalid_value"},
		{"cluster of no project", with(w, "queryClusterIds", uuid.NewString()), "queryClusterIds", "invalid_value"},
		{"cluster not a uuid", with(w, "queryClusterIds", "sales"), "queryClusterIds", "invalid_uuid"},
		{"includeUngroupedQueries", with(w, "includeUngroupedQueries", "yes"), "includeUngroupedQueries", "invalid_type"},
		{"unknown parameter", with(w, "groupBy", "domain"), "groupBy", "unknown_field"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			capturesExpectDetail(t, kf.get(kf.analyticsPath("/keyword-listings", tt.params)), tt.field, tt.code)
		})
	}
	for _, params := range []url.Values{back(15), with(w, "search", strings.Repeat("a", 100))} {
		if r := kf.get(kf.analyticsPath("/keyword-listings", params)); r.status != http.StatusOK {
			t.Errorf("%v: %d %s", params, r.status, r.body)
		}
	}
}

func TestKeywordListingJSONOnly(t *testing.T) {
	t.Parallel()
	kf := keywordsSetup(t)
	path := kf.analyticsPath("/keyword-listings", kf.window(2))
	tests := []struct {
		accept string
		status int
	}{
		{"text/csv", http.StatusOK},
		{"text/csv;q=1", http.StatusOK},
		{"text/html, text/csv", http.StatusOK},
		{"application/json;q=0, text/csv", http.StatusOK},
		{"text/csv, application/json;q=0.5", http.StatusOK},
		{"*/*", http.StatusOK},
		{"application/*", http.StatusOK},
		{"application/json", http.StatusOK},
		{"", http.StatusOK},
	}
	for _, tt := range tests {
		t.Run(tt.accept, func(t *testing.T) {
			r := kf.do(call{method: http.MethodGet, path: path, key: kf.owner.key, header: map[string]string{"Accept": tt.accept}})
			if r.status != tt.status || r.header.Get("Content-Type") != "application/json" {
				t.Errorf("%d %s, want %d JSON", r.status, r.header.Get("Content-Type"), tt.status)
			}
		})
	}
}

func TestKeywordListingAccess(t *testing.T) {
	t.Parallel()
	kf := keywordsSetup(t)
	_, otherOrg := kf.fixture.owner()
	otherProject := kf.fixture.project(otherOrg, "Theirs")
	params := kf.window(2).Encode()
	assertError(t, kf.get(kf.path("/keyword-listings", otherProject)+"?"+params), http.StatusNotFound,
		sightline.CodeOrganizationNotFound)
	assertError(t, kf.get(kf.path("/keyword-listings", uuid.New())+"?"+params), http.StatusNotFound,
		sightline.CodeOrganizationNotFound)

	// A project without tracked queries lists nothing.
	empty := kf.fixture.project(kf.org, "Empty")
	got := decodeAs[keywordListingJSON](t, kf.get(kf.path("/keyword-listings", empty)+"?"+params))
	if len(got.Page) != 0 || got.Total != 0 || got.TotalVariantCount != 0 {
		t.Errorf("empty project: %+v", got)
	}
}

// With more variants than a read sends ids for, the figures read the whole
// scope and still add up only each keyword's variants.
func TestKeywordListingManyVariants(t *testing.T) {
	t.Parallel()
	cf := queryAnalyticsSetup(t)
	if _, err := cf.pool.Exec(context.Background(), `
		INSERT INTO tracked_queries (id, project_id, query_text, engine, country, check_frequency, n_passes)
		SELECT gen_random_uuid(), $1, 'filler ' || n, 'chatgpt', 'US', 'daily', 3 FROM generate_series(1, 300) AS n`,
		cf.project); err != nil {
		t.Fatal(err)
	}
	active := cf.trackedQuery("best crm", sightline.EngineChatGPT, "US")
	paused := cf.trackedQuery("best crm", sightline.EnginePerplexity, "US", qaConfig{"paused", "daily", 3})
	rec, pos := sightline.MentionRecommendation, sightline.TonePositive
	cf.insertRuns(
		// active: named 1st beside another brand; paused: named 3rd alone.
		cf.run(active, cf.day, qaPass{mentions: []olap.Mention{moverOwn(1, rec, pos), moverUntracked(2, rec, pos)}}),
		cf.run(paused, cf.day, qaPass{mentions: []olap.Mention{moverOwn(3, rec, pos)}}),
	)
	// 301 active variants: their figures are read over the whole project.
	for _, sortBy := range []string{"shareOfVoice", "keyword"} {
		got := decodeAs[keywordListingJSON](t, cf.get(cf.analyticsPath("/keyword-listings",
			with(cf.window(1), "status", "active", "sortBy", sortBy, "sortOrder", "desc", "limit", "1"))))
		if sortBy == "keyword" {
			got = decodeAs[keywordListingJSON](t, cf.get(cf.analyticsPath("/keyword-listings",
				with(cf.window(1), "status", "active", "sortBy", sortBy, "limit", "1"))))
		}
		if got.Total != 301 || got.TotalVariantCount != 301 || got.Page[0].Keyword != "best crm" ||
			!slices.Equal(got.Page[0].VariantIDs, variantIDs(active)) {
			t.Fatalf("sortBy %s: %+v", sortBy, got)
		}
		checkFigure(t, "shareOfVoice", got.Page[0].ShareOfVoice, figure(50))
		checkFigure(t, "avgMentionPosition", got.Page[0].AvgMentionPosition, figure(1))
	}
	// Every keyword, sorted by a figure: 302 variants in one read.
	got := decodeAs[keywordListingJSON](t, cf.get(cf.analyticsPath("/keyword-listings",
		with(cf.window(1), "sortBy", "avgMentionPosition", "sortOrder", "desc", "limit", "1"))))
	if got.Total != 301 || got.TotalVariantCount != 302 || got.Page[0].Keyword != "best crm" {
		t.Fatalf("%+v", got)
	}
	checkFigure(t, "avgMentionPosition", got.Page[0].AvgMentionPosition, figure(2))
}
