package main

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"strconv"
	"strings"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/sightline/sightline"
	"github.com/sightline/sightline/jobs"
	"github.com/sightline/sightline/oltp"
	"github.com/sightline/sightline/schema"
)

const adminUsage = `usage: sightline admin <command>

  user create --email E [--name N]
  org create --name N --owner-email E
  member add --org ID --email E --role viewer|manager|owner [--status active|suspended]
  key create --email E --capabilities read,write,organization:manage --orgs all|ID[,ID] [--name N]
  key revoke --id ID
  subscription set --org ID --status active --tier T --interval monthly|yearly --check-budget N
  analyst access --org ID [--database D] [--user NAME --password-sha256 HEX]
  reports list [--after REPORT_ID] [--limit N]
  reports resolve --id REPORT_ID
  demo [--base-url URL]

Each command but demo prints one JSON object. analyst access prints the
ClickHouse statements (schema/clickhouse-access) that give the
organization's analysts read-only access to its rows; it changes nothing.
reports list prints the reports of captured AI answers queued for review
(when no REVIEW_URL is configured), oldest first, 100 unless --limit says
otherwise (1 to 1000); the last reportId is the next page's --after.
reports resolve takes a reviewed report out of the queue. demo creates (once) a demo
user, organization and subscription, issues a new owner key and prints it
with example requests.
`

// adminCommand parses its flags and runs in one transaction, returning the
// object to print.
type adminCommand func(ctx context.Context, tx pgx.Tx, args []string) (any, error)

func admin(ctx context.Context, cfg config, args []string, stdout io.Writer) error {
	if len(args) < 1 {
		return errors.New(adminUsage)
	}
	commands := map[string]adminCommand{
		"user create":      adminUserCreate,
		"org create":       adminOrgCreate,
		"member add":       adminMemberAdd,
		"key create":       adminKeyCreate,
		"key revoke":       adminKeyRevoke,
		"subscription set": adminSubscriptionSet,
		"analyst access":   adminAnalystAccess,
		"reports list":     adminReportsList,
		"reports resolve":  adminReportsResolve,
	}
	var cmd adminCommand
	var rest []string
	demo := args[0] == "demo"
	if !demo && len(args) >= 2 {
		cmd, rest = commands[args[0]+" "+args[1]], args[2:]
	}
	if cmd == nil && !demo {
		return fmt.Errorf("unknown admin command %q\n%s", strings.Join(args, " "), adminUsage)
	}

	pool, err := oltp.Connect(ctx, cfg.DatabaseURL, 2)
	if err != nil {
		return err
	}
	defer pool.Close()
	if demo {
		// The demo enqueues the jobs its writes need, as the API would.
		queue, err := jobs.NewClient(pool, jobs.Config{Logger: slog.New(slog.DiscardHandler)})
		if err != nil {
			return err
		}
		cmd, rest = adminDemo(stdout, cfg.MetricsAddr, queue), args[1:]
	}
	var out any
	err = pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
		out, err = cmd(ctx, tx, rest)
		return err
	})
	if err != nil {
		var e *sightline.Error
		if errors.As(err, &e) {
			return errors.New(e.Message)
		}
		return err
	}
	if out == nil {
		return nil
	}
	enc := json.NewEncoder(stdout)
	return enc.Encode(out)
}

// flags parses args with the named string flags, all required unless listed
// in optional.
func flags(args []string, names []string, optional ...string) (map[string]string, error) {
	fs := flag.NewFlagSet("admin", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	values := map[string]*string{}
	for _, n := range append(names, optional...) {
		values[n] = fs.String(n, "", "")
	}
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	out := map[string]string{}
	for n, v := range values {
		out[n] = *v
	}
	for _, n := range names {
		if out[n] == "" {
			return nil, fmt.Errorf("--%s is required", n)
		}
	}
	return out, nil
}

func parseID(flagName, v string) (uuid.UUID, error) {
	id, err := uuid.Parse(v)
	if err != nil {
		return uuid.Nil, fmt.Errorf("--%s must be a uuid, got %q", flagName, v)
	}
	return id, nil
}

// idFlag parses args holding only the required --id.
func idFlag(args []string) (uuid.UUID, error) {
	f, err := flags(args, []string{"id"})
	if err != nil {
		return uuid.Nil, err
	}
	return parseID("id", f["id"])
}

func optionalString(v string) *string {
	if v == "" {
		return nil
	}
	return &v
}

func adminUserCreate(ctx context.Context, tx pgx.Tx, args []string) (any, error) {
	f, err := flags(args, []string{"email"}, "name")
	if err != nil {
		return nil, err
	}
	id, err := oltp.CreateUser(ctx, tx, f["email"], optionalString(f["name"]))
	return map[string]uuid.UUID{"id": id}, err
}

func adminOrgCreate(ctx context.Context, tx pgx.Tx, args []string) (any, error) {
	f, err := flags(args, []string{"name", "owner-email"})
	if err != nil {
		return nil, err
	}
	id, err := oltp.CreateOrganization(ctx, tx, f["name"], f["owner-email"])
	return map[string]uuid.UUID{"id": id}, err
}

func adminMemberAdd(ctx context.Context, tx pgx.Tx, args []string) (any, error) {
	f, err := flags(args, []string{"org", "email", "role"}, "status")
	if err != nil {
		return nil, err
	}
	orgID, err := parseID("org", f["org"])
	if err != nil {
		return nil, err
	}
	status := sightline.MembershipStatus(or(f["status"], string(sightline.MembershipActive)))
	if err := oltp.SetMember(ctx, tx, orgID, f["email"], sightline.Role(f["role"]), status); err != nil {
		return nil, err
	}
	return map[string]string{"organizationId": orgID.String(), "email": f["email"], "role": f["role"], "status": string(status)}, nil
}

func adminKeyCreate(ctx context.Context, tx pgx.Tx, args []string) (any, error) {
	f, err := flags(args, []string{"email", "capabilities", "orgs"}, "name")
	if err != nil {
		return nil, err
	}
	p := oltp.CreateKeyParams{UserEmail: f["email"], Name: f["name"]}
	for _, c := range strings.Split(f["capabilities"], ",") {
		p.Capabilities = append(p.Capabilities, sightline.Capability(strings.TrimSpace(c)))
	}
	if f["orgs"] == "all" {
		p.AllOrganizations = true
	} else {
		for _, v := range strings.Split(f["orgs"], ",") {
			id, err := parseID("orgs", strings.TrimSpace(v))
			if err != nil {
				return nil, err
			}
			p.OrganizationIDs = append(p.OrganizationIDs, id)
		}
	}
	return oltp.CreateKey(ctx, tx, p)
}

func adminKeyRevoke(ctx context.Context, tx pgx.Tx, args []string) (any, error) {
	id, err := idFlag(args)
	if err != nil {
		return nil, err
	}
	if err := oltp.RevokeKey(ctx, tx, id); err != nil {
		return nil, err
	}
	return map[string]any{"id": id, "revoked": true}, nil
}

func adminReportsList(ctx context.Context, tx pgx.Tx, args []string) (any, error) {
	f, err := flags(args, nil, "after", "limit")
	if err != nil {
		return nil, err
	}
	after := uuid.Nil
	if f["after"] != "" {
		if after, err = parseID("after", f["after"]); err != nil {
			return nil, err
		}
	}
	limit := 100
	if f["limit"] != "" {
		if limit, err = strconv.Atoi(f["limit"]); err != nil || limit < 1 || limit > 1000 {
			return nil, fmt.Errorf("--limit must be a whole number from 1 to 1000, got %q", f["limit"])
		}
	}
	reports, err := oltp.AnswerReports(ctx, tx, after, limit)
	if err != nil {
		return nil, err
	}
	return map[string]any{"reports": reports}, nil
}

func adminReportsResolve(ctx context.Context, tx pgx.Tx, args []string) (any, error) {
	id, err := idFlag(args)
	if err != nil {
		return nil, err
	}
	held, err := oltp.ResolveAnswerReport(ctx, tx, id)
	if err != nil {
		return nil, err
	}
	if !held {
		return nil, fmt.Errorf("no report %s is queued", id)
	}
	return map[string]any{"id": id, "resolved": true}, nil
}

func adminSubscriptionSet(ctx context.Context, tx pgx.Tx, args []string) (any, error) {
	f, err := flags(args, []string{"org", "status", "tier", "interval", "check-budget"})
	if err != nil {
		return nil, err
	}
	orgID, err := parseID("org", f["org"])
	if err != nil {
		return nil, err
	}
	budget, err := strconv.Atoi(f["check-budget"])
	if err != nil || budget < 0 {
		return nil, fmt.Errorf("--check-budget must be a whole number >= 0, got %q", f["check-budget"])
	}
	id, err := oltp.SetSubscription(ctx, tx, oltp.SubscriptionParams{
		OrganizationID: orgID, Status: f["status"], Tier: f["tier"], BillingInterval: f["interval"], CheckBudget: budget,
	})
	return map[string]uuid.UUID{"id": id}, err
}

// adminAnalystAccess renders the ClickHouse DDL that gives an
// organization's analysts read-only access to its rows
// (schema/clickhouse-access), with its projects as they are now, and
// optionally one analyst's user. It changes nothing: an administrator runs
// the statements on ClickHouse server.
func adminAnalystAccess(ctx context.Context, tx pgx.Tx, args []string) (any, error) {
	f, err := flags(args, []string{"org"}, "database", "user", "password-sha256")
	if err != nil {
		return nil, err
	}
	org, err := parseID("org", f["org"])
	if err != nil {
		return nil, err
	}
	rows, err := tx.Query(ctx, `SELECT p.id FROM organizations o LEFT JOIN projects p ON p.organization_id = o.id
		WHERE o.id = $1 ORDER BY p.id`, org)
	if err != nil {
		return nil, err
	}
	found, err := pgx.CollectRows(rows, pgx.RowTo[*uuid.UUID])
	if err != nil {
		return nil, err
	}
	if len(found) == 0 {
		return nil, fmt.Errorf("no organization %s", org)
	}
	access := schema.Access{Database: cmp.Or(f["database"], "sightline"), OrganizationID: org}
	for _, id := range found {
		if id != nil {
			access.ProjectIDs = append(access.ProjectIDs, *id)
		}
	}
	var analysts []schema.Analyst
	if f["user"] != "" || f["password-sha256"] != "" {
		analysts = append(analysts, schema.Analyst{User: f["user"], PasswordSHA256: f["password-sha256"]})
	}
	statements, err := schema.OrganizationAccess(access, analysts...)
	if err != nil {
		return nil, err
	}
	return map[string]any{"organizationId": org, "role": access.Role(), "projectCount": len(access.ProjectIDs),
		"statements": statements}, nil
}
