package jobs_test

import (
	"encoding/json"
	"testing"

	"github.com/google/uuid"

	"github.com/sightline/sightline/jobs"
)

// Competitor cascades are enqueued with camelCase args like every other
// job, and jobs enqueued before with snake_case ones still decode.
func TestCompetitorCascadeArgsWireFormat(t *testing.T) {
	t.Parallel()
	want := jobs.CompetitorCascadeArgs{CascadeID: uuid.New(), OrganizationID: uuid.New(), ProjectID: uuid.New(), CompetitorID: uuid.New()}
	encoded, err := json.Marshal(want)
	if err != nil {
		t.Fatal(err)
	}
	var fields map[string]string
	if err := json.Unmarshal(encoded, &fields); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"cascadeId", "organizationId", "projectId", "competitorId"} {
		if _, ok := fields[name]; !ok || len(fields) != 4 {
			t.Fatalf("encoded as %s, want camelCase names", encoded)
		}
	}
	legacy := `{"cascade_id":"` + want.CascadeID.String() + `","organization_id":"` + want.OrganizationID.String() +
		`","project_id":"` + want.ProjectID.String() + `","competitor_id":"` + want.CompetitorID.String() + `"}`
	for name, raw := range map[string]string{"camelCase": string(encoded), "snake_case": legacy} {
		var got jobs.CompetitorCascadeArgs
		if err := json.Unmarshal([]byte(raw), &got); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got != want {
			t.Errorf("%s decoded as %+v, want %+v", name, got, want)
		}
	}
}
