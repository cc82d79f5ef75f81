package olap_test

import (
	"context"
	"reflect"
	"testing"

	"github.com/google/uuid"

	"github.com/sightline/sightline/olap"
	"github.com/sightline/sightline/olap/olaptest"
)

// A cluster filter of thousands of tracked queries, of which one has
// captures, reads what the filter of that one query reads, on every reader
// a cluster filter reaches.
func TestAnalyticsReadsFilteredByALargeCluster(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newCapturesFixture(t)
	d := f.dataset()
	if err := olaptest.InsertPasses(ctx, f.conn, d.passes); err != nil {
		t.Fatal(err)
	}
	largeFilter := []uuid.UUID{d.q1}
	for range 8000 {
		largeFilter = append(largeFilter, uuid.New())
	}
	a := &olap.Analytics{Conn: f.conn}
	window := olap.Scope{ProjectID: f.project, From: f.day.AddDate(0, -3, 0), To: f.day}
	reads := map[string]func(olap.Scope) (any, error){
		"metrics": func(s olap.Scope) (any, error) { return a.Metrics(ctx, s, nil) },
		"timeseries": func(s olap.Scope) (any, error) {
			return a.Timeseries(ctx, olap.TimeseriesQuery{Scope: s, Granularity: olap.GranularityWeekly})
		},
		"mentions": func(s olap.Scope) (any, error) {
			samples, total, err := a.MentionSamples(ctx, s, olap.MentionFilter{Sort: olap.MentionSortRecent, Limit: 20})
			return []any{samples, total}, err
		},
		"mix": func(s olap.Scope) (any, error) { return a.MentionMix(ctx, s) },
		"sentiment": func(s olap.Scope) (any, error) {
			engines, brands, err := a.Sentiment(ctx, s, []uuid.UUID{f.compA})
			return []any{engines, brands}, err
		},
		"cited sources": func(s olap.Scope) (any, error) {
			sources, total, err := a.CitedSources(ctx, s, olap.CitedSourceFilter{Limit: 20})
			return []any{sources, total}, err
		},
		"co-occurrence": func(s olap.Scope) (any, error) { return a.CoOccurrences(ctx, s, []uuid.UUID{f.compA, f.compB}) },
	}
	for name, read := range reads {
		t.Run(name, func(t *testing.T) {
			one, many := window, window
			one.TrackedQueryIDs = []uuid.UUID{d.q1}
			many.TrackedQueryIDs = largeFilter
			want, err := read(one)
			if err != nil {
				t.Fatal(err)
			}
			got, err := read(many)
			if err != nil {
				t.Fatalf("filtered by %d tracked queries: %v", len(largeFilter), err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("filtered by %d tracked queries:\n%+v\nwant, as filtered by the one with captures:\n%+v", len(largeFilter), got, want)
			}
		})
	}
}
