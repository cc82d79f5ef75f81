package olap_test

import (
	"context"
	"testing"

	"github.com/google/uuid"

	"github.com/sightline/sightline"
	"github.com/sightline/sightline/olap"
	"github.com/sightline/sightline/olap/olaptest"
)

// A group longer than the tracked-query filter ClusterMetrics sends reads
// the project's queries unfiltered and must still sum its own members only.
func TestClusterMetricsManyQueries(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newCapturesFixture(t)
	member, outsider := uuid.New(), uuid.New()
	rec, pos, direct := sightline.MentionRecommendation, sightline.TonePositive, sightline.QualifierDirect
	in := f.pass(member, uuid.New(), sightline.EngineChatGPT, 0, 1, 1)
	in.Mentions = []olap.Mention{f.own(2, rec, pos, direct)}
	out := f.pass(outsider, uuid.New(), sightline.EngineChatGPT, 0, 1, 1)
	out.Mentions = []olap.Mention{f.own(1, rec, pos, direct)}
	if err := olaptest.InsertPasses(ctx, f.conn, []olap.PassRows{in, out}); err != nil {
		t.Fatal(err)
	}
	ids := []uuid.UUID{member}
	for range 300 {
		ids = append(ids, uuid.New())
	}
	a := &olap.Analytics{Conn: f.conn}
	scope := olap.Scope{ProjectID: f.project, From: f.day, To: f.day}
	for _, group := range [][]uuid.UUID{ids, ids[:1]} {
		rows, err := a.ClusterMetrics(ctx, scope, []olap.QueryGroup{{TrackedQueryIDs: group}})
		if err != nil {
			t.Fatal(err)
		}
		r := rows[0]
		if r.TrackedQueryCount != len(group) || r.MentionCount != 1 || r.AvgMentionPosition == nil ||
			*r.AvgMentionPosition != 2 || r.MentionRate == nil || *r.MentionRate != 100 {
			t.Fatalf("group of %d: %+v", len(group), r)
		}
	}
}
