package jobs_test

import (
	"strings"
	"testing"

	"github.com/riverqueue/river"

	"github.com/sightline/sightline/ingest/simulator"
	"github.com/sightline/sightline/jobs"
)

func TestDescribeBrandStoresTheFirstParagraphOnce(t *testing.T) {
	t.Parallel()
	e := checksSetup(t)
	org, _ := e.org(-1)
	project := e.project(org)
	description := func() *string {
		t.Helper()
		var d *string
		if err := e.pool.QueryRow(e.ctx, `SELECT description FROM brand_profiles WHERE project_id = $1`, project).Scan(&d); err != nil {
			t.Fatal(err)
		}
		return d
	}
	if description() != nil {
		t.Fatal("a new profile has a description")
	}
	w := &jobs.DescribeBrandWorker{Pool: e.pool, Engine: simulator.New(1)}
	job := &river.Job[jobs.DescribeBrandArgs]{Args: jobs.DescribeBrandArgs{ProjectID: project}}
	if err := w.Work(e.ctx, job); err != nil {
		t.Fatal(err)
	}
	first := description()
	if first == nil || *first == "" || strings.ContainsAny(*first, "*#\n") || len([]rune(*first)) > 1000 {
		t.Fatalf("description %v: want one plain paragraph", first)
	}
	e.exec(`UPDATE brand_profiles SET description = 'kept' WHERE project_id = $1`, project)
	if err := w.Work(e.ctx, job); err != nil {
		t.Fatal(err)
	}
	if d := description(); d == nil || *d != "kept" {
		t.Fatalf("a second run replaced the description: %v", d)
	}
}
