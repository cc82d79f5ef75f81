package schema

import (
	"bytes"
	"embed"
	"fmt"
	"regexp"
	"strings"
	"text/template"

	"github.com/google/uuid"
)

// ClickHouseAccess holds the templates of read-only ClickHouse access for
// an organization's analysts: organization.sql (role, settings profile,
// quota, grants and row policies), analyst.sql (one user) and service.sql
// (once per server). They are not migrations: an administrator applies
// them per organization to ClickHouse server.
//
//go:embed clickhouse-access/*.sql
var ClickHouseAccess embed.FS

var accessTemplates = template.Must(template.ParseFS(ClickHouseAccess, "clickhouse-access/*.sql"))

// AnalystTable is a table an organization's analysts may read and the
// column that confines them to its rows.
type AnalystTable struct {
	Name string
	// ByOrganization: the table carries organization_id; otherwise only
	// project_id (the daily rollups).
	ByOrganization bool
}

// AnalystTables are the tables of the analysts' guide (docs/analysts.md):
// the raw captures and the daily and monthly rollups. A table missing here is not
// granted, so a new table stays hidden until it is added.
var AnalystTables = []AnalystTable{
	{"check_results", true}, {"ai_answers", true}, {"mentions", true}, {"citations", true},
	{"search_results", true}, {"shopping_offers", true}, {"rank_rows", true},
	{"mentions_daily", false}, {"ranks_daily", false}, {"cooccurrence_daily", false}, {"cited_sources_daily", false},
	{"ranks_monthly", false}, {"mentions_monthly", false},
}

// Access names whose rows an organization's analysts read, and where.
type Access struct {
	// Database is the ClickHouse database of Sightline's tables.
	Database       string
	OrganizationID uuid.UUID
	// ProjectIDs are every project of the organization, archived ones
	// included: the rollups know a row's project only.
	ProjectIDs []uuid.UUID
}

// Analyst is one user of an organization's analysts.
type Analyst struct {
	User string
	// PasswordSHA256 is the hex SHA-256 of the password.
	PasswordSHA256 string
}

var (
	identifier = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
	sha256Hex  = regexp.MustCompile(`^[0-9a-fA-F]{64}$`)
)

// Role is the name of the organization's role, settings profile, quota and
// row policies.
func (a Access) Role() string {
	return "sightline_org_" + strings.ReplaceAll(a.OrganizationID.String(), "-", "")
}

// Predicate is the condition confining table's rows to the organization.
func (a Access) Predicate(t AnalystTable) string {
	if t.ByOrganization {
		return fmt.Sprintf("organization_id = toUUID('%s')", a.OrganizationID)
	}
	if len(a.ProjectIDs) == 0 {
		return "0"
	}
	ids := make([]string, len(a.ProjectIDs))
	for i, id := range a.ProjectIDs {
		ids[i] = fmt.Sprintf("toUUID('%s')", id)
	}
	return "project_id IN (" + strings.Join(ids, ", ") + ")"
}

// OrganizationAccess renders organization.sql for a, and analyst.sql for
// each of analysts, as statements to run in order.
func OrganizationAccess(a Access, analysts ...Analyst) ([]string, error) {
	if !identifier.MatchString(a.Database) {
		return nil, fmt.Errorf("database %q is not a plain identifier", a.Database)
	}
	type table struct{ Name, Predicate string }
	data := struct {
		Database, Role string
		Tables         []table
	}{Database: a.Database, Role: a.Role()}
	for _, t := range AnalystTables {
		data.Tables = append(data.Tables, table{t.Name, a.Predicate(t)})
	}
	out, err := render("organization.sql", data)
	if err != nil {
		return nil, err
	}
	for _, an := range analysts {
		if !identifier.MatchString(an.User) {
			return nil, fmt.Errorf("user name %q is not a plain identifier", an.User)
		}
		if !sha256Hex.MatchString(an.PasswordSHA256) {
			return nil, fmt.Errorf("the password of %s must be given as 64 hex digits of its SHA-256", an.User)
		}
		user, err := render("analyst.sql", struct{ Database, Role, User, PasswordSHA256 string }{
			a.Database, a.Role(), an.User, strings.ToLower(an.PasswordSHA256)})
		if err != nil {
			return nil, err
		}
		out = append(out, user...)
	}
	return out, nil
}

// ServiceAccess renders service.sql: the row policy that keeps every row
// visible to the service's own user once tables have row policies.
func ServiceAccess(database, serviceUser string) ([]string, error) {
	if !identifier.MatchString(database) || !identifier.MatchString(serviceUser) {
		return nil, fmt.Errorf("database %q and user %q must be plain identifiers", database, serviceUser)
	}
	return render("service.sql", struct{ Database, ServiceUser string }{database, serviceUser})
}

// render executes a template and splits it into statements, leaving out
// comments.
func render(name string, data any) ([]string, error) {
	var b bytes.Buffer
	if err := accessTemplates.ExecuteTemplate(&b, name, data); err != nil {
		return nil, fmt.Errorf("rendering %s: %w", name, err)
	}
	var lines []string
	for _, line := range strings.Split(b.String(), "\n") {
		if !strings.HasPrefix(strings.TrimSpace(line), "--") {
			lines = append(lines, line)
		}
	}
	var out []string
	for _, stmt := range strings.Split(strings.Join(lines, "\n"), ";") {
		if stmt = strings.TrimSpace(stmt); stmt != "" {
			out = append(out, stmt)
		}
	}
	return out, nil
}
