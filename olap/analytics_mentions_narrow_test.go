package olap

import (
	"reflect"
	"testing"
	"time"

	"github.com/google/uuid"
)

func TestNarrowMentions(t *testing.T) {
	t.Parallel()
	day := func(n int) time.Time { return time.Date(2026, 5, 10+n, 0, 0, 0, 0, time.UTC) }
	s := Scope{ProjectID: uuid.New(), From: day(0), To: day(9)}
	b := func(group string, d, n int) mentionBucket { return mentionBucket{group: group, day: day(d), n: n} }
	// By engine: a (days 9, 5, 1), then b (days 9, 4).
	engines := []mentionBucket{b("a", 9, 3), b("a", 5, 0), b("a", 1, 2), b("b", 9, 4), b("b", 4, 1)}
	for _, tt := range []struct {
		name          string
		sort          MentionSort
		buckets       []mentionBucket
		offset, limit int
		from, to      int
		where         string
		args          []any
		skip          int
		ok            bool
	}{
		{"first day", MentionSortRecent, []mentionBucket{b("", 9, 5), b("", 8, 5)}, 0, 5, 9, 9, "", nil, 0, true},
		{"across days", MentionSortRecent, []mentionBucket{b("", 9, 5), b("", 7, 5)}, 3, 5, 7, 9, "", nil, 3, true},
		{"second day, read from the top", MentionSortRecent, []mentionBucket{b("", 9, 5), b("", 7, 5)}, 5, 5, 7, 9, "", nil, 5, true},
		{"past the end", MentionSortRecent, []mentionBucket{b("", 9, 5)}, 5, 5, 0, 0, "", nil, 0, false},
		{"empty days skipped", MentionSortEngine, engines, 3, 1, 1, 1, " AND engine IN ?", []any{[]string{"a"}}, 0, true},
		{"two groups: earlier rows of the span count", MentionSortEngine, engines, 4, 2, 1, 9, " AND engine IN ?",
			[]any{[]string{"a", "b"}}, 4, true},
		{"negative only", MentionSortNegative, []mentionBucket{b("negative", 9, 2), b("negative", 3, 1), b("other", 9, 4)},
			0, 3, 3, 9, " AND tone = 'negative'", nil, 0, true},
		{"others only", MentionSortNegative, []mentionBucket{b("negative", 9, 2), b("other", 9, 4), b("other", 8, 4)},
			6, 2, 8, 8, " AND tone != 'negative'", nil, 0, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			n, ok := narrowMentions(s, MentionFilter{Sort: tt.sort, Offset: tt.offset, Limit: tt.limit}, tt.buckets)
			if ok != tt.ok {
				t.Fatalf("ok %v, want %v", ok, tt.ok)
			}
			if !ok {
				return
			}
			if n.anchored != (tt.sort == MentionSortRecent) {
				t.Fatalf("anchored %v for %s", n.anchored, tt.sort)
			}
			if !n.scope.From.Equal(day(tt.from)) || !n.scope.To.Equal(day(tt.to)) || n.where != tt.where ||
				!reflect.DeepEqual(n.args, tt.args) || n.offset != tt.skip {
				t.Fatalf("narrowed to %s..%s %q %v offset %d; want %s..%s %q %v offset %d",
					n.scope.From.Format(time.DateOnly), n.scope.To.Format(time.DateOnly), n.where, n.args, n.offset,
					day(tt.from).Format(time.DateOnly), day(tt.to).Format(time.DateOnly), tt.where, tt.args, tt.skip)
			}
		})
	}
}
