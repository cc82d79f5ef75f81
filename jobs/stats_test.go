package jobs_test

import (
	"context"
	"log/slog"
	"testing"

	"github.com/riverqueue/river"

	"github.com/sightline/sightline/jobs"
	"github.com/sightline/sightline/oltp/oltptest"
)

// statsFixture inserts two organizations: one with members, projects and
// invitations, one empty.
const statsFixture = `
	INSERT INTO users (id, email) VALUES
	    ('0193a7e4-0000-7000-8000-000000000001', 'a@example.com'),
	    ('0193a7e4-0000-7000-8000-000000000002', 'b@example.com');
	INSERT INTO organizations (id, name) VALUES
	    ('0193a7e4-0000-7000-8000-0000000000a1', 'Busy Org'),
	    ('0193a7e4-0000-7000-8000-0000000000a2', 'Empty Org');
	INSERT INTO memberships (organization_id, user_id, role, status) VALUES
	    ('0193a7e4-0000-7000-8000-0000000000a1', '0193a7e4-0000-7000-8000-000000000001', 'owner', 'active'),
	    ('0193a7e4-0000-7000-8000-0000000000a1', '0193a7e4-0000-7000-8000-000000000002', 'viewer', 'suspended');
	INSERT INTO projects (id, organization_id, name, status, archived_by, archived_at) VALUES
	    ('0193a7e4-0000-7000-8000-0000000000b1', '0193a7e4-0000-7000-8000-0000000000a1', 'Live', 'active', NULL, NULL),
	    ('0193a7e4-0000-7000-8000-0000000000b2', '0193a7e4-0000-7000-8000-0000000000a1', 'Old', 'archived', 'caller', now());
	INSERT INTO invitations (id, organization_id, email, role, status, expires_at) VALUES
	    ('0193a7e4-0000-7000-8000-0000000000c1', '0193a7e4-0000-7000-8000-0000000000a1', 'x@example.com', 'viewer', 'pending', now() + interval '1 day'),
	    ('0193a7e4-0000-7000-8000-0000000000c2', '0193a7e4-0000-7000-8000-0000000000a1', 'y@example.com', 'viewer', 'pending', now() - interval '1 day');`

func TestStatsWorkersSnapshotEveryOrganization(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := oltptest.NewPool(t)
	if _, err := pool.Exec(ctx, statsFixture); err != nil {
		t.Fatal(err)
	}
	logger := slog.New(slog.DiscardHandler)
	members := &jobs.MembershipStatsWorker{Pool: pool, Logger: logger}
	for range 2 { // a second run updates in place
		if err := members.Work(ctx, &river.Job[jobs.MembershipStatsArgs]{}); err != nil {
			t.Fatal(err)
		}
	}

	type snapshot struct{ members, projects, invitations int }
	want := map[string]snapshot{
		"0193a7e4-0000-7000-8000-0000000000a1": {members: 2, projects: 2, invitations: 1},
		"0193a7e4-0000-7000-8000-0000000000a2": {},
	}
	rows, err := pool.Query(ctx, `
		SELECT organization_id::text, total_members_count, total_projects_count, pending_invitations_count
		FROM organization_membership_stats`)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]snapshot{}
	for rows.Next() {
		var id string
		var s snapshot
		if err := rows.Scan(&id, &s.members, &s.projects, &s.invitations); err != nil {
			t.Fatal(err)
		}
		got[id] = s
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("snapshots %v, want %v", got, want)
	}
	for id, w := range want {
		if got[id] != w {
			t.Errorf("organization %s: %+v, want %+v", id, got[id], w)
		}
	}
}

func TestStatsJobsAreRegistered(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := oltptest.NewPool(t)
	client, err := jobs.NewClient(pool, jobs.Config{Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	// An insert-only client refuses kinds without a worker.
	if _, err := client.Insert(ctx, jobs.MembershipStatsArgs{}, nil); err != nil {
		t.Fatal(err)
	}
	var kinds string
	if err := pool.QueryRow(ctx, `SELECT string_agg(kind, ',' ORDER BY kind) FROM river_job`).Scan(&kinds); err != nil {
		t.Fatal(err)
	}
	if kinds != "organization_membership_stats" {
		t.Fatalf("queued kinds %q", kinds)
	}
}
