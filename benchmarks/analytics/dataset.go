package main

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/sightline/sightline"
	"github.com/sightline/sightline/oltp"
)

// Dataset S: projects x tracked queries, each checked daily (one pass) on
// one engine for days days ending yesterday. Every id is a pure function of
// what it names, in Go here and in the generator's SQL alike (see ids).

// market is one project's brand world.
type market struct {
	name        string // project name
	own         brand
	competitors []brand
	countries   []string // three, alpha-2
	locale      string
	terms       []string // four product terms; keyword = intent + term + audience
	audiences   []string // three
}

type brand struct {
	name, domain string
}

// intents, seven of them: 7 intents x 4 terms x 3 audiences = 84 keywords
// a project, each tracked on the six engines in two of its countries.
var intents = []string{"best", "top rated", "cheapest", "most reliable", "recommended", "alternatives to the leading", "easiest"}

var markets = []market{
	{"Brightdesk CRM", brand{"Brightdesk", "brightdesk.com"},
		[]brand{{"Close CRM", "close.com"}, {"Pipeworks", "pipeworks.io"}, {"Hale & Moss", "halemoss.com"}, {"Nimble", "nimble.com"}},
		[]string{"US", "GB", "CA"}, "en", []string{"crm", "sales pipeline tool", "contact management software", "crm with email automation"},
		[]string{"for small business", "for startups", "for real estate agents"}},
	{"Stridewell Running", brand{"Stridewell", "stridewell.com"},
		[]brand{{"Asphalt Athletics", "asphaltathletics.com"}, {"Koa Running", "koarunning.com"}, {"Trail & Tarmac", "trailandtarmac.co.uk"},
			{"Peak Footwear", "peakfootwear.com"}, {"Fleetfoot", "fleetfoot.com"}},
		[]string{"US", "GB", "AU"}, "en", []string{"running shoes", "trail running shoes", "marathon shoes", "running socks"},
		[]string{"for flat feet", "for beginners", "for wide feet"}},
	{"Tunnelfox VPN", brand{"Tunnelfox", "tunnelfox.net"},
		[]brand{{"Shieldly", "shieldly.io"}, {"Nord Harbor", "nordharbor.com"}, {"Veil VPN", "veil.app"}},
		[]string{"DE", "US", "FR"}, "en", []string{"vpn", "vpn app", "vpn with no logs", "vpn router"},
		[]string{"for streaming", "for gaming", "for travel"}},
	{"Ledgerline Books", brand{"Ledgerline", "ledgerline.com"},
		[]brand{{"Sumwise", "sumwise.com"}, {"Tally & Co", "tallyandco.com"}, {"Brixton Accounts", "brixtonaccounts.co.uk"}, {"Countwell", "countwell.io"}},
		[]string{"GB", "CA", "IE"}, "en", []string{"accounting software", "invoicing app", "bookkeeping software", "payroll software"},
		[]string{"for freelancers", "for small business", "for startups"}},
	{"Forkful Meal Kits", brand{"Forkful", "forkful.com"},
		[]brand{{"Greenbasket", "greenbasket.com"}, {"Chef's Crate", "chefscrate.com"}, {"Melange Meals", "melangemeals.com"}},
		[]string{"US", "FR", "DE"}, "en", []string{"meal kit", "meal kit delivery", "vegetarian meal kit", "recipe box"},
		[]string{"for families", "for couples", "for weight loss"}},
	{"Quillnest Notes", brand{"Quillnest", "quillnest.app"},
		[]brand{{"Inkpad", "inkpad.com"}, {"Notara", "notara.io"}, {"Margin", "margin.so"}, {"Scribblehaus", "scribblehaus.de"}},
		[]string{"US", "GB", "DE"}, "en", []string{"note taking app", "second brain app", "markdown editor", "meeting notes tool"},
		[]string{"for students", "for teams", "for researchers"}},
	{"Cobaltcycle E-Bikes", brand{"Cobaltcycle", "cobaltcycle.com"},
		[]brand{{"Voltway", "voltway.com"}, {"Pedalforge", "pedalforge.nl"}, {"Ridgeline Bikes", "ridgelinebikes.com"}},
		[]string{"NL", "DE", "US"}, "en", []string{"electric bike", "cargo e-bike", "folding e-bike", "e-bike battery"},
		[]string{"for commuting", "for hills", "under 2000 euros"}},
	{"Hearthly Insurance", brand{"Hearthly", "hearthly.com"},
		[]brand{{"Keystone Mutual", "keystonemutual.com"}, {"Homeshield", "homeshield.com"}, {"Anchorpoint", "anchorpoint.co"},
			{"Tidewater Insurance", "tidewater.com"}},
		[]string{"US", "CA", "GB"}, "en", []string{"home insurance", "renters insurance", "flood insurance", "landlord insurance"},
		[]string{"for first time buyers", "for older homes", "with fast claims"}},
	{"Lumaskin Care", brand{"Lumaskin", "lumaskin.co"},
		[]brand{{"Velvetine", "velvetine.com"}, {"Dermabloom", "dermabloom.com"}, {"Purecove", "purecove.fr"}, {"Solenne", "solenne.com"}},
		[]string{"FR", "US", "GB"}, "en", []string{"vitamin c serum", "retinol cream", "sunscreen", "moisturizer"},
		[]string{"for sensitive skin", "for oily skin", "for dry skin"}},
	{"Parcelpoint Shipping", brand{"Parcelpoint", "parcelpoint.io"},
		[]brand{{"Shipwise", "shipwise.com"}, {"Freightly", "freightly.com"}, {"Boxtrail", "boxtrail.io"}},
		[]string{"US", "GB", "AU"}, "en", []string{"shipping software", "label printing tool", "returns management software", "multi carrier shipping"},
		[]string{"for ecommerce", "for shopify stores", "for small warehouses"}},
}

// Clusters: one per product term but the last (whose keywords stay
// ungrouped), plus "high intent" for the keywords of the first two
// intents, which are then in two clusters.
const highIntentCluster = "high intent"

// ids: every id of the dataset, laid out kind-project-n.
const (
	kindOrganization = 0x5e1a0001
	kindProject      = 0x5e1a0002
	kindCompetitor   = 0x5e1a0003
	kindCluster      = 0x5e1a0004
	kindTrackedQuery = 0x5e1a0005
)

func benchID(kind uint32, project int, n int) uuid.UUID {
	return uuid.MustParse(fmt.Sprintf("%08x-%04x-4000-8000-%012x", kind, project, n))
}

// trackedQuery is one of the dataset's tracked queries; q is its global
// number, project q / perProject.
type trackedQuery struct {
	q       int
	project int
	id      uuid.UUID
	text    string
	engine  sightline.Engine
	country string
	keyword int // index of the text in its project
}

// dataset is the shape of dataset S.
type dataset struct {
	projects   int
	perProject int // tracked queries per project
	days       int
	first      time.Time // first day (UTC midnight); the last is yesterday
	queries    []trackedQuery
	keywords   [][]string // per project, its keyword texts
	clusters   [][]cluster
}

type cluster struct {
	id       uuid.UUID
	name     string
	keywords []int // keyword indexes of the project that are members
}

func newDataset(projects, perProject, days int, today time.Time) *dataset {
	d := &dataset{projects: projects, perProject: perProject, days: days, first: today.AddDate(0, 0, -days)}
	for p := range projects {
		m := markets[p%len(markets)]
		var texts []string
		for _, term := range m.terms {
			for _, intent := range intents {
				for _, audience := range m.audiences {
					texts = append(texts, intent+" "+term+" "+audience)
				}
			}
		}
		d.keywords = append(d.keywords, texts)
		var cs []cluster
		for ti, term := range m.terms[:len(m.terms)-1] {
			c := cluster{id: benchID(kindCluster, p, ti), name: term}
			for k := range texts {
				if k/(len(intents)*len(m.audiences)) == ti {
					c.keywords = append(c.keywords, k)
				}
			}
			cs = append(cs, c)
		}
		hi := cluster{id: benchID(kindCluster, p, len(m.terms)), name: highIntentCluster}
		for k := range texts {
			if (k/len(m.audiences))%len(intents) < 2 {
				hi.keywords = append(hi.keywords, k)
			}
		}
		d.clusters = append(d.clusters, append(cs, hi))
		for l := range perProject {
			q := p*perProject + l
			d.queries = append(d.queries, d.query(q))
		}
	}
	return d
}

// query is tracked query q: engine l % 6; its group of six l / 6 is a
// keyword in one of two countries.
func (d *dataset) query(q int) trackedQuery {
	p, l := q/d.perProject, q%d.perProject
	m := markets[p%len(markets)]
	g := l / len(sightline.Engines)
	k := (g / 2) % len(d.keywords[p])
	return trackedQuery{
		q: q, project: p, id: benchID(kindTrackedQuery, p, q), text: d.keywords[p][k],
		engine: sightline.Engines[l%len(sightline.Engines)], country: m.countries[(k+g%2)%len(m.countries)], keyword: k,
	}
}

func (d *dataset) organizationID() uuid.UUID { return benchID(kindOrganization, 0, 0) }
func projectID(p int) uuid.UUID              { return benchID(kindProject, p, 0) }
func competitorID(p, j int) uuid.UUID        { return benchID(kindCompetitor, p, j) }

// access is what the load driver signs in with.
type access struct {
	key          string
	organization uuid.UUID
}

// setupPostgres writes the dataset's configuration: an organization with a
// subscription, its owner and a read key, and per project its brand
// profile, competitors, clusters, tracked queries with their memberships,
// and the search rows the listing projection would hold.
func (d *dataset) setupPostgres(ctx context.Context, pool *pgxpool.Pool) (access, error) {
	var a access
	err := pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
		email := "analytics-bench@sightline.local"
		if _, err := oltp.CreateUser(ctx, tx, email, nil); err != nil {
			return err
		}
		a.organization = d.organizationID()
		if _, err := tx.Exec(ctx, `INSERT INTO organizations (id, name, created_at) VALUES ($1, 'Analytics Bench Org', $2)`,
			a.organization, d.first.AddDate(0, 0, -1)); err != nil {
			return fmt.Errorf("creating organization: %w", err)
		}
		if err := oltp.SetMember(ctx, tx, a.organization, email, sightline.RoleOwner, sightline.MembershipActive); err != nil {
			return err
		}
		if _, err := oltp.SetSubscription(ctx, tx, oltp.SubscriptionParams{OrganizationID: a.organization, Status: "active",
			Tier: "enterprise", BillingInterval: "yearly", CheckBudget: 10_000_000}); err != nil {
			return err
		}
		key, err := oltp.CreateKey(ctx, tx, oltp.CreateKeyParams{UserEmail: email, Name: "analytics bench",
			Capabilities: []sightline.Capability{sightline.CapabilityRead}, OrganizationIDs: []uuid.UUID{a.organization}})
		if err != nil {
			return err
		}
		a.key = key.Secret
		created := d.first.AddDate(0, 0, -1)
		for p := range d.projects {
			m := markets[p%len(markets)]
			name := m.name
			if p >= len(markets) {
				name = fmt.Sprintf("%s %d", m.name, p/len(markets)+1)
			}
			if _, err := tx.Exec(ctx, `
				WITH p AS (INSERT INTO projects (id, organization_id, name, created_at) VALUES ($1, $2, $3, $4) RETURNING id)
				INSERT INTO brand_profiles (project_id, id, website_domains, brand_names) SELECT id, $5, $6, $7 FROM p`,
				projectID(p), a.organization, name, created, benchID(kindProject, p, 1), []string{m.own.domain},
				[]string{m.own.name}); err != nil {
				return fmt.Errorf("creating project %d: %w", p, err)
			}
			for j, c := range m.competitors {
				if _, err := tx.Exec(ctx, `
					INSERT INTO competitors (id, project_id, name, website_domains, brand_names, created_at)
					VALUES ($1, $2, $3, $4, $5, $6)`,
					competitorID(p, j), projectID(p), c.name, []string{c.domain}, []string{c.name}, created); err != nil {
					return fmt.Errorf("creating competitor: %w", err)
				}
			}
			for _, c := range d.clusters[p] {
				if _, err := tx.Exec(ctx, `INSERT INTO query_clusters (id, project_id, name, created_at) VALUES ($1, $2, $3, $4)`,
					c.id, projectID(p), c.name, created); err != nil {
					return fmt.Errorf("creating cluster: %w", err)
				}
			}
		}
		return nil
	})
	if err != nil {
		return a, err
	}
	if err := d.copyTrackedQueries(ctx, pool); err != nil {
		return a, err
	}
	// The listing projection, as the refresh job would leave it.
	for p := range d.projects {
		if err := oltp.MarkTrackedQuerySearchStale(ctx, pool, projectID(p)); err != nil {
			return a, err
		}
		if _, _, err := oltp.RefreshTrackedQuerySearch(ctx, pool, projectID(p)); err != nil {
			return a, err
		}
	}
	_, err = pool.Exec(ctx, "ANALYZE")
	return a, err
}

// copyTrackedQueries inserts the tracked queries and their memberships.
// One in pausedEvery keyword has its variants paused on the last day, so
// some listings show statusSummary mixed.
func (d *dataset) copyTrackedQueries(ctx context.Context, pool *pgxpool.Pool) error {
	const pausedEvery = 20
	created := d.first.AddDate(0, 0, -1)
	lastChecked := d.first.AddDate(0, 0, d.days-1).Add(12 * time.Hour)
	rows := make([][]any, 0, len(d.queries))
	var members [][]any
	for _, t := range d.queries {
		status := "active"
		if t.keyword%pausedEvery == 0 && t.engine == sightline.EngineChatGPT {
			status = "paused"
		}
		rows = append(rows, []any{t.id, projectID(t.project), t.text, string(t.engine), t.country,
			markets[t.project%len(markets)].locale, "daily", 1, status, lastChecked, created})
		for _, c := range d.clusters[t.project] {
			for _, k := range c.keywords {
				if k == t.keyword {
					members = append(members, []any{projectID(t.project), t.id, c.id})
				}
			}
		}
	}
	if _, err := pool.CopyFrom(ctx, pgx.Identifier{"tracked_queries"},
		[]string{"id", "project_id", "query_text", "engine", "country", "locale", "check_frequency", "n_passes", "status",
			"last_checked_at", "created_at"}, pgx.CopyFromRows(rows)); err != nil {
		return fmt.Errorf("copying tracked queries: %w", err)
	}
	if _, err := pool.CopyFrom(ctx, pgx.Identifier{"tracked_query_clusters"},
		[]string{"project_id", "tracked_query_id", "cluster_id"}, pgx.CopyFromRows(members)); err != nil {
		return fmt.Errorf("copying cluster memberships: %w", err)
	}
	return nil
}
