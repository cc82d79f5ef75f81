package schema_test

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ClickHouse/clickhouse-go/v2"
	"github.com/ClickHouse/clickhouse-go/v2/lib/driver"
	"github.com/google/uuid"

	"github.com/sightline/sightline"
	"github.com/sightline/sightline/ingest"
	"github.com/sightline/sightline/ingest/simulator"
	"github.com/sightline/sightline/olap"
	"github.com/sightline/sightline/olap/olaptest"
	"github.com/sightline/sightline/schema"
)

// What the local engine can check of the analysts' access templates: it
// has no access management (its user may not create users, roles,
// profiles, quotas or row policies), so the statements are parsed by
// ClickHouse's own parser (formatQuery), the settings they name must exist,
// and each row policy's condition is run as a filter on a database holding
// two organizations' captures. Creating the entities and logging in as an
// analyst needs ClickHouse server.

// tenant is one organization with one project of captures.
type tenant struct {
	org, project uuid.UUID
}

func seedTenants(t *testing.T, conn driver.Conn) []tenant {
	t.Helper()
	sim := simulator.New(3)
	brands := ingest.Brands{
		Own: ingest.Brand{Names: []string{"Acme"}, Domains: []string{"acme.com"}},
		Competitors: []ingest.Competitor{{ID: uuid.New(), Name: "Zendesk",
			Brand: ingest.Brand{Names: []string{"Zendesk"}, Domains: []string{"zendesk.com"}}}},
	}
	today := time.Now().UTC().Truncate(24 * time.Hour)
	// Fixed ids and ten days of captures: every tenant gets rows in every
	// table, co-occurrence included, whatever the simulator draws.
	id := func(name string) uuid.UUID { return uuid.NewSHA1(uuid.NameSpaceOID, []byte(name)) }
	tenants := []tenant{{id("org-a"), id("project-a")}, {id("org-b"), id("project-b")}}
	var rows []olap.PassRows
	// Nothing in the service writes check_results any more; its rows stand
	// for history written before, which the policies must still confine.
	results, err := conn.PrepareBatch(context.Background(), `INSERT INTO check_results
		(organization_id, project_id, tracked_query_id, run_id, engine, country, pass_index, status, started_at, finished_at)`)
	if err != nil {
		t.Fatal(err)
	}
	for _, tn := range tenants {
		for _, engine := range sightline.Engines {
			query := id(tn.org.String() + string(engine))
			for d := 1; d <= 10; d++ {
				day := today.AddDate(0, 0, -d)
				capture, _ := sim.Generate(ingest.Request{TrackedQueryID: query, QueryText: "best help desk software",
					Engine: engine, Country: "US", PassCount: 1, Day: day, Brands: brands})
				run := uuid.New()
				if err := results.Append(tn.org, tn.project, query, run, string(engine), "US", uint8(0), "completed",
					capture.CapturedAt, capture.CapturedAt.Add(time.Second)); err != nil {
					t.Fatal(err)
				}
				rows = append(rows, ingest.PassRows(olap.Pass{
					OrganizationID: tn.org, ProjectID: tn.project, TrackedQueryID: query, RunID: run,
					PassCount: 1, Engine: engine, Country: "US", QueryText: "best help desk software",
					CapturedAt: capture.CapturedAt,
				}, capture, brands))
			}
		}
	}
	if err := olaptest.InsertPasses(context.Background(), conn, rows); err != nil {
		t.Fatal(err)
	}
	if err := results.Send(); err != nil {
		t.Fatal(err)
	}
	return tenants
}

func TestAnalystAccessTemplates(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	conn := olaptest.NewConn(t)
	tenants := seedTenants(t, conn)
	var database string
	if err := conn.QueryRow(ctx, "SELECT currentDatabase()").Scan(&database); err != nil {
		t.Fatal(err)
	}

	t.Run("every table of the database is granted or deliberately hidden", func(t *testing.T) {
		rows, err := conn.Query(ctx, `SELECT name FROM system.tables WHERE database = currentDatabase()
			AND engine NOT IN ('View', 'MaterializedView') AND name != 'goose_db_version' ORDER BY name`)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		var tables []string
		for rows.Next() {
			var name string
			if err := rows.Scan(&name); err != nil {
				t.Fatal(err)
			}
			tables = append(tables, name)
		}
		var granted []string
		for _, a := range schema.AnalystTables {
			granted = append(granted, a.Name)
		}
		slices.Sort(granted)
		if !slices.Equal(tables, granted) {
			t.Errorf("tables %v, analysts' tables %v: a new table needs a decision in schema.AnalystTables", tables, granted)
		}
	})

	t.Run("each row policy selects exactly its organization's rows", func(t *testing.T) {
		for _, table := range schema.AnalystTables {
			for i, tn := range tenants {
				a := schema.Access{Database: database, OrganizationID: tn.org, ProjectIDs: []uuid.UUID{tn.project}}
				var mine, all, theirs uint64
				q := fmt.Sprintf("SELECT countIf(%s), countIf(project_id = ?), countIf(project_id = ?) FROM %s",
					a.Predicate(table), table.Name)
				other := tenants[1-i].project
				if err := conn.QueryRow(ctx, q, tn.project, other).Scan(&mine, &all, &theirs); err != nil {
					t.Fatalf("%s: %v", table.Name, err)
				}
				if all == 0 || theirs == 0 {
					t.Fatalf("%s: seeded %d rows of the organization and %d of the other, want both", table.Name, all, theirs)
				}
				if mine != all {
					t.Errorf("%s: the policy selects %d rows, the organization has %d", table.Name, mine, all)
				}
			}
		}
		none := schema.Access{Database: database, OrganizationID: uuid.New()}
		for _, table := range schema.AnalystTables {
			var n uint64
			if err := conn.QueryRow(ctx, "SELECT count() FROM "+table.Name+" WHERE "+none.Predicate(table)).Scan(&n); err != nil || n != 0 {
				t.Errorf("%s: an organization without projects sees %d rows (%v)", table.Name, n, err)
			}
		}
	})

	t.Run("the statements parse and name existing settings", func(t *testing.T) {
		a := schema.Access{Database: database, OrganizationID: tenants[0].org, ProjectIDs: []uuid.UUID{tenants[0].project, uuid.New()}}
		stmts, err := schema.OrganizationAccess(a, schema.Analyst{User: "analyst_acme_ann", PasswordSHA256: strings.Repeat("ab", 32)})
		if err != nil {
			t.Fatal(err)
		}
		service, err := schema.ServiceAccess(database, "sightline")
		if err != nil {
			t.Fatal(err)
		}
		stmts = append(stmts, service...)
		kinds := map[string]int{}
		for _, s := range stmts {
			var formatted string
			if err := conn.QueryRow(ctx, "SELECT formatQuery(?)", s).Scan(&formatted); err != nil {
				t.Errorf("ClickHouse does not parse %q: %v", s, err)
			}
			kinds[strings.Join(strings.Fields(s)[:2], " ")]++
		}
		want := map[string]int{"CREATE ROLE": 1, "CREATE SETTINGS": 1, "CREATE QUOTA": 1, "CREATE USER": 1,
			"GRANT SELECT": len(schema.AnalystTables), "CREATE ROW": len(schema.AnalystTables) + 1, "GRANT " + a.Role(): 1}
		for k, n := range want {
			if kinds[k] != n {
				t.Errorf("%d statements %q, want %d", kinds[k], k, n)
			}
		}
		profile := stmts[slices.IndexFunc(stmts, func(s string) bool { return strings.HasPrefix(s, "CREATE SETTINGS PROFILE") })]
		for _, m := range regexp.MustCompile(`(?m)^\s+(\w+) =`).FindAllStringSubmatch(profile, -1) {
			var n uint64
			if err := conn.QueryRow(ctx, "SELECT count() FROM system.settings WHERE name = ?", m[1]).Scan(&n); err != nil || n != 1 {
				t.Errorf("the settings profile names %q, which is no setting (%v)", m[1], err)
			}
		}
	})

	t.Run("readonly refuses writes", func(t *testing.T) {
		ro := clickhouse.Context(ctx, clickhouse.WithSettings(clickhouse.Settings{"readonly": 2}))
		if err := conn.Exec(ro, "INSERT INTO check_results (project_id) VALUES (generateUUIDv4())"); err == nil {
			t.Error("an insert under readonly = 2 succeeded")
		}
		var n uint64
		if err := conn.QueryRow(ro, "SELECT count() FROM mentions_daily").Scan(&n); err != nil {
			t.Errorf("a read under readonly = 2 failed: %v", err)
		}
	})

	t.Run("bad names are refused", func(t *testing.T) {
		if _, err := schema.OrganizationAccess(schema.Access{Database: "x; DROP", OrganizationID: uuid.New()}); err == nil {
			t.Error("a database name with SQL in it was rendered")
		}
		if _, err := schema.OrganizationAccess(schema.Access{Database: "sightline", OrganizationID: uuid.New()},
			schema.Analyst{User: "ann", PasswordSHA256: "secret"}); err == nil {
			t.Error("a plain-text password was rendered")
		}
	})
}
