package olap_test

import (
	"context"
	"math"
	"testing"

	"github.com/google/uuid"

	"github.com/sightline/sightline"
	"github.com/sightline/sightline/olap"
	"github.com/sightline/sightline/olap/olaptest"
)

func TestListingMetrics(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newCapturesFixture(t)
	ai, serp := uuid.New(), uuid.New()
	oldRun, newRun, serpRun := uuid.New(), uuid.New(), uuid.New()
	rec, neg := sightline.MentionRecommendation, sightline.ToneNegative
	pos, direct := sightline.TonePositive, sightline.QualifierDirect

	// An earlier run of the AI query that the last check must not count.
	old := f.pass(ai, oldRun, sightline.EngineChatGPT, 0, 1, 0)
	old.ResponseText = "old"
	old.Mentions = []olap.Mention{f.own(1, rec, pos, direct)}
	// The latest run: two passes, the own brand named in the first only.
	p0 := f.pass(ai, newRun, sightline.EngineChatGPT, 0, 2, 5)
	p0.ResponseText = "first"
	p0.Mentions = []olap.Mention{f.competitor(f.compA, "A", 1, rec, pos, direct), f.own(2, rec, neg, direct)}
	p0.Citations = []olap.Citation{f.citation(1, f.aDom, "/", sightline.RelationTrackedCompetitor, &f.compA),
		f.citation(2, f.ownDomain, "/", sightline.RelationOwn, nil)}
	p1 := f.pass(ai, newRun, sightline.EngineChatGPT, 1, 2, 5)
	p1.ResponseText = "second"
	p1.Mentions = []olap.Mention{f.competitor(f.compA, "A", 1, rec, pos, direct)}
	s := f.pass(serp, serpRun, sightline.EngineGoogleSERP, 0, 1, 6)
	s.SearchResults = []olap.SearchResult{f.result(1, f.aDom, sightline.RelationTrackedCompetitor, &f.compA),
		f.result(3, f.ownDomain, sightline.RelationOwn, nil)}
	// A newer run with one of its two passes stored is not a completed check.
	partial := f.pass(ai, uuid.New(), sightline.EngineChatGPT, 0, 2, 8)
	partial.ResponseText = "unfinished"
	if err := olaptest.InsertPasses(ctx, f.conn, []olap.PassRows{old, p0, p1, s, partial}); err != nil {
		t.Fatal(err)
	}

	checks, err := olap.LastChecks(ctx, f.conn, f.project, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := map[uuid.UUID]olap.LastCheck{}
	for _, c := range checks {
		got[c.TrackedQueryID] = c
	}
	if len(got) != 2 {
		t.Fatalf("last checks %+v", checks)
	}
	a := got[ai]
	ownWorth := sightline.MentionWorth(rec, neg, direct)
	compWorth := sightline.MentionWorth(rec, pos, direct)
	wantSOV := 100 * ownWorth / (ownWorth + 2*compWorth)
	if a.MentionPosition == nil || *a.MentionPosition != 2 || a.MentionCount != 1 ||
		a.LinkPosition == nil || *a.LinkPosition != 2 || a.SerpPosition != nil ||
		a.ShareOfVoice == nil || math.Abs(*a.ShareOfVoice-wantSOV) > 1e-9 ||
		a.PositivityIndex == nil || *a.PositivityIndex != 0 || !a.CheckedAt.Equal(p0.CapturedAt) {
		t.Errorf("AI last check %+v (share of voice %v, want %v)", a, deref(a.ShareOfVoice), wantSOV)
	}
	sq := got[serp]
	if sq.SerpPosition == nil || *sq.SerpPosition != 3 || sq.ShareOfVoice != nil || sq.MentionPosition != nil || sq.MentionCount != 0 {
		t.Errorf("serp last check %+v", sq)
	}
	// Restricted to some queries: only theirs; to none: nothing.
	for _, only := range [][]uuid.UUID{{serp}, {}} {
		some, err := olap.LastChecks(ctx, f.conn, f.project, only)
		if err != nil {
			t.Fatal(err)
		}
		if len(some) != len(only) || (len(only) == 1 && (some[0].TrackedQueryID != serp || *some[0].SerpPosition != 3)) {
			t.Errorf("last checks of %v: %+v", only, some)
		}
	}

	m, err := olap.ProjectMetricsSince(ctx, f.conn, f.project, f.day)
	if err != nil {
		t.Fatal(err)
	}
	// Windowed metrics count every stored pass: four AI answers (the partial
	// run's included), two naming the own brand (positions 1 and 2), one
	// search page with the own site at 3.
	if m.MentionRate == nil || *m.MentionRate != 50 || m.AvgMentionPosition == nil ||
		*m.AvgMentionPosition != 1.5 || m.SerpRate == nil || *m.SerpRate != 100 || m.AvgSerpPosition == nil ||
		*m.AvgSerpPosition != 3 || m.ShoppingRate != nil || m.SerpPositionStability != nil ||
		m.PositivityIndex == nil || *m.PositivityIndex != 50 || m.ShareOfVoice == nil || m.LastRankDetectedAt == nil ||
		!m.LastRankDetectedAt.Equal(s.CapturedAt) {
		t.Errorf("project metrics %+v", m)
	}

	empty, err := olap.ProjectMetricsSince(ctx, f.conn, uuid.New(), f.day)
	if err != nil {
		t.Fatal(err)
	}
	if empty != (sightline.ProjectMetrics{}) {
		t.Errorf("a project without captures: %+v, want every metric unknown", empty)
	}
}

func deref(p *float64) any {
	if p == nil {
		return nil
	}
	return *p
}
