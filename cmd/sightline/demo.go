package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/sightline/sightline"
	"github.com/sightline/sightline/jobs"
	"github.com/sightline/sightline/oltp"
)

const (
	demoEmail   = "demo@sightline.local"
	demoOrgName = "Sightline Demo"
)

// adminDemo sets up the demo account the first time and issues a fresh
// owner key every time (a key's plaintext cannot be shown twice).
func adminDemo(stdout io.Writer, metricsAddr string, queue jobs.TxInserter) adminCommand {
	return func(ctx context.Context, tx pgx.Tx, args []string) (any, error) {
		f, err := flags(args, nil, "base-url")
		if err != nil {
			return nil, err
		}
		baseURL := or(f["base-url"], "http://127.0.0.1:8080")
		orgID, err := ensureDemoOrganization(ctx, tx, queue)
		if err != nil {
			return nil, err
		}
		key, err := oltp.CreateKey(ctx, tx, oltp.CreateKeyParams{
			UserEmail: demoEmail, Name: "demo owner key", AllOrganizations: true,
			Capabilities: sightline.Capabilities,
		})
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(stdout, `Demo organization %s (owner %s)
API key (shown once): %s

Try:
  curl -s -H 'Authorization: Bearer %[3]s' %[4]s/api/v1/me
  curl -s -H 'Authorization: Bearer %[3]s' '%[4]s/api/v1/organizations?limit=5'
  curl -s -H 'Authorization: Bearer %[3]s' -H 'Accept: text/csv' %[4]s/api/v1/organizations/%[1]s/projects
The contract: %[4]s/api/v1/doc/json
`, orgID, demoEmail, key.Secret, baseURL)
		if metricsAddr != "off" {
			fmt.Fprintf(stdout, "Metrics (this machine only): http://%s/metrics\n", metricsAddr)
		}
		return nil, nil
	}
}

// demoOrganizationQuery finds the demo organization by its name and owner.
const demoOrganizationQuery = `
	SELECT o.id FROM organizations o
	JOIN memberships m ON m.organization_id = o.id
	JOIN users u ON u.id = m.user_id
	WHERE o.name = $1 AND lower(u.email) = $2 AND m.role = 'owner'`

func ensureDemoOrganization(ctx context.Context, tx pgx.Tx, queue jobs.TxInserter) (uuid.UUID, error) {
	var orgID uuid.UUID
	err := tx.QueryRow(ctx, demoOrganizationQuery, demoOrgName, demoEmail).Scan(&orgID)
	if err == nil {
		return orgID, nil
	}
	if !errors.Is(err, pgx.ErrNoRows) {
		return uuid.Nil, fmt.Errorf("finding demo organization: %w", err)
	}
	var userExists bool
	if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM users WHERE lower(email) = $1)`, demoEmail).Scan(&userExists); err != nil {
		return uuid.Nil, fmt.Errorf("finding demo user: %w", err)
	}
	if !userExists {
		name := "Demo User"
		if _, err := oltp.CreateUser(ctx, tx, demoEmail, &name); err != nil {
			return uuid.Nil, err
		}
	}
	if orgID, err = oltp.CreateOrganization(ctx, tx, demoOrgName, demoEmail); err != nil {
		return uuid.Nil, err
	}
	if _, err = oltp.SetSubscription(ctx, tx, oltp.SubscriptionParams{
		OrganizationID: orgID, Status: "active", Tier: "demo", BillingInterval: "monthly", CheckBudget: 10000,
	}); err != nil {
		return uuid.Nil, err
	}
	return orgID, createDemoProject(ctx, tx, queue, orgID)
}

// createDemoProject gives the demo organization a project to look at: a
// brand with three competitors and thirty tracked queries over every
// engine, which `sightline backfill` fills with 90 days of history.
func createDemoProject(ctx context.Context, tx pgx.Tx, queue jobs.TxInserter, orgID uuid.UUID) error {
	p, err := oltp.CreateProject(ctx, tx, orgID, oltp.NewProject{
		Name:    "Acme CRM",
		Profile: oltp.BrandLists{WebsiteDomains: []string{"acmecrm.com"}, BrandNames: []string{"Acme CRM", "Acme"}},
		Competitors: []oltp.NewCompetitor{
			{Name: "Globex", BrandLists: oltp.BrandLists{WebsiteDomains: []string{"globex.io"}, BrandNames: []string{"Globex"}}},
			{Name: "Initech", BrandLists: oltp.BrandLists{WebsiteDomains: []string{"initech.com"}, BrandNames: []string{"Initech"}}},
			{Name: "Umbrella", BrandLists: oltp.BrandLists{WebsiteDomains: []string{"umbrellasoft.com"}, BrandNames: []string{"Umbrella", "Umbrella CRM"}}},
		},
	})
	if err != nil {
		return err
	}
	_, _, err = oltp.CreateTrackedQueries(ctx, tx, oltp.NewTrackedQueries{
		ProjectID: p.ID,
		QueryTexts: []string{"best crm for small business", "crm with email automation", "salesforce alternatives",
			"easiest crm to set up", "crm for real estate agents"},
		Engines:   []string{"chatgpt", "perplexity", "google_ai_overview", "google_ai_mode", "google_serp", "google_shopping"},
		Countries: []string{"US"}, CheckFrequency: "daily", NPasses: 1, ClusterIDs: []uuid.UUID{},
	})
	if err != nil {
		return err
	}
	return jobs.TrackedQueriesChanged(ctx, tx, queue, p.ID)
}
