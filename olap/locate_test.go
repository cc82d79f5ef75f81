package olap_test

import (
	"context"
	"testing"

	"github.com/google/uuid"

	"github.com/sightline/sightline"
	"github.com/sightline/sightline/olap"
	"github.com/sightline/sightline/olap/olaptest"
)

func TestReaderLocatesTheRunOfAnAIAnswer(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newCapturesFixture(t)
	query, run := uuid.New(), uuid.New()
	p := f.pass(query, run, sightline.EngineChatGPT, 0, 1, 0)
	p.ResponseText = "Own is fine."
	if err := olaptest.InsertPasses(ctx, f.conn, []olap.PassRows{p}); err != nil {
		t.Fatal(err)
	}
	l := &olap.Reader{Conn: f.conn}
	for _, c := range []struct {
		name           string
		project, query uuid.UUID
		answer         uuid.UUID
		found          bool
	}{
		{"its query", f.project, query, p.CaptureID(), true},
		{"another query", f.project, uuid.New(), p.CaptureID(), false},
		{"another project", uuid.New(), query, p.CaptureID(), false},
		{"unknown answer", f.project, query, uuid.New(), false},
	} {
		got, found, err := l.LocateAIResponse(ctx, c.project, c.query, c.answer)
		if err != nil {
			t.Fatal(err)
		}
		if found != c.found || (found && got != run) {
			t.Errorf("%s: run %s found %v", c.name, got, found)
		}
	}
}
