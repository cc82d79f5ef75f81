package proposal

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/sightline/sightline"
)

// labelled is a fixed set of queries a person would group by topic.
var labelled = map[string][]string{
	"crm": {
		"best crm for startups", "crm for small business", "crm software pricing", "free crm tools",
		"salesforce alternatives for small crm teams", "crm with email automation", "simple crm for freelancers",
		"crm comparison 2025",
	},
	"email marketing": {
		"email marketing tool pricing", "best email marketing software", "email marketing platforms for ecommerce",
		"email newsletter marketing tools", "mailchimp alternatives for email marketing", "cheap email marketing services",
	},
	"project management": {
		"project management software for teams", "best project management tool", "agile project management apps",
		"free project management software", "project management tools for agencies",
	},
	"accounting": {
		"accounting software for freelancers", "small business accounting software", "cloud accounting tools",
		"best accounting software for startups", "quickbooks alternatives accounting",
	},
	"help desk": {
		"help desk software for startups", "best help desk ticketing system", "customer support help desk tools",
		"free help desk software",
	},
}

func labelledQueries() ([]ClusterQuery, map[uuid.UUID]string) {
	var qs []ClusterQuery
	label := map[uuid.UUID]string{}
	for _, topic := range sortedKeys(labelled) {
		for _, text := range labelled[topic] {
			id := uuid.NewSHA1(uuid.NameSpaceOID, []byte(text))
			qs = append(qs, ClusterQuery{ID: id, Text: text})
			label[id] = topic
		}
	}
	// Interleave so that request order says nothing about topics.
	slices.SortFunc(qs, func(a, b ClusterQuery) int { return strings.Compare(a.ID.String(), b.ID.String()) })
	return qs, label
}

// clusterOf maps each assigned query to its proposed cluster's name.
func clusterOf(p *ClusterProposal) map[uuid.UUID]string {
	out := map[uuid.UUID]string{}
	for _, c := range p.Clusters {
		for _, id := range c.TrackedQueryIDs {
			out[id] = c.Name
		}
	}
	return out
}

// TestClusteringQuality checks the clustering against the labelled set:
// obviously related queries together, unrelated ones apart, pairwise
// precision and recall high, clusters named after their topic.
func TestClusteringQuality(t *testing.T) {
	t.Parallel()
	qs, label := labelledQueries()
	p := Cluster(ClusterRequest{Queries: qs, Mode: sightline.ModeFullRegroup})
	got := clusterOf(p)
	for _, c := range p.Clusters {
		t.Logf("%-22s %q", c.Name, c.QueryTexts)
	}
	t.Logf("unassigned: %d", len(p.Unassigned))

	id := func(text string) uuid.UUID { return uuid.NewSHA1(uuid.NameSpaceOID, []byte(text)) }
	together := func(a, b string) bool {
		ca, ok := got[id(a)]
		return ok && ca == got[id(b)]
	}
	if !together("best crm for startups", "crm for small business") {
		t.Error(`"best crm for startups" and "crm for small business" are apart`)
	}
	if together("best crm for startups", "email marketing tool pricing") || together("crm for small business", "email marketing tool pricing") {
		t.Error(`"email marketing tool pricing" is with the crm queries`)
	}

	// Pairwise precision (pairs put together that belong together) and
	// recall (pairs that belong together and were put together).
	var tp, fp, fn int
	for i := range qs {
		for j := i + 1; j < len(qs); j++ {
			a, b := qs[i].ID, qs[j].ID
			same := label[a] == label[b]
			ca, okA := got[a]
			cb, okB := got[b]
			paired := okA && okB && ca == cb
			switch {
			case paired && same:
				tp++
			case paired:
				fp++
			case same:
				fn++
			}
		}
	}
	precision := float64(tp) / float64(tp+fp)
	recall := float64(tp) / float64(tp+fn)
	t.Logf("pairwise precision %.2f recall %.2f", precision, recall)
	if precision < 0.9 || recall < 0.75 {
		t.Errorf("pairwise precision %.2f, recall %.2f: want at least 0.90 and 0.75", precision, recall)
	}
	// Each topic's largest cluster is named after the topic.
	for topic := range labelled {
		counts := map[string]int{}
		for q, l := range label {
			if l == topic && got[q] != "" {
				counts[got[q]]++
			}
		}
		name := commonest(counts)
		if !strings.Contains(name, strings.Fields(topic)[0]) {
			t.Errorf("topic %q is mostly in cluster %q", topic, name)
		}
	}
}

func ExampleCluster() {
	id := func(n byte) uuid.UUID { return uuid.UUID{15: n} }
	p := Cluster(ClusterRequest{Mode: sightline.ModeFillGaps, Queries: []ClusterQuery{
		{ID: id(1), Text: "best crm for startups"},
		{ID: id(2), Text: "crm for small business"},
		{ID: id(3), Text: "email marketing tool pricing"},
		{ID: id(4), Text: "best email marketing software"},
		{ID: id(5), Text: "weather tomorrow"},
	}})
	for _, c := range p.Clusters {
		fmt.Printf("%s: %q\n", c.Name, c.QueryTexts)
	}
	fmt.Println("unassigned:", len(p.Unassigned))
	// Output:
	// crm: ["best crm for startups" "crm for small business"]
	// email marketing: ["email marketing tool pricing" "best email marketing software"]
	// unassigned: 1
}

func TestClusterModesAndExistingClusters(t *testing.T) {
	t.Parallel()
	id := func(n byte) uuid.UUID { return uuid.UUID{15: n} }
	queries := []ClusterQuery{
		{ID: id(1), Text: "best crm for startups"},
		{ID: id(2), Text: "crm for small business", Grouped: true},
		{ID: id(3), Text: "email marketing tool pricing"},
		{ID: id(4), Text: "best email marketing software"},
		{ID: id(5), Text: "weather tomorrow"},
		{ID: id(6), Text: "best crm for startups"}, // the same text on another engine
	}
	existing := []ExistingCluster{
		{ID: id(100), Name: "customer relationship management", MemberTexts: []string{"crm for small business", "crm software"}},
		{ID: id(101), Name: "newsletters", MemberTexts: nil},
	}
	assigned := func(p *ClusterProposal) map[uuid.UUID]string {
		out := map[uuid.UUID]string{}
		for _, c := range p.Clusters {
			for _, q := range c.TrackedQueryIDs {
				out[q] = c.Name
			}
		}
		return out
	}

	t.Run("fill_gaps joins existing clusters and skips grouped queries", func(t *testing.T) {
		p := Cluster(ClusterRequest{Queries: queries, Existing: existing, Mode: sightline.ModeFillGaps})
		got := assigned(p)
		if got[id(1)] != "customer relationship management" || got[id(6)] != got[id(1)] {
			t.Errorf("crm query went to %q, its twin to %q", got[id(1)], got[id(6)])
		}
		if _, ok := got[id(2)]; ok || !slices.Contains(p.Unassigned, id(2)) {
			t.Error("a grouped query got a proposal under fill_gaps")
		}
		if got[id(3)] != "email marketing" || got[id(4)] != "email marketing" {
			t.Errorf("email queries: %q %q", got[id(3)], got[id(4)])
		}
		for _, c := range p.Clusters {
			if c.Name == "customer relationship management" && (c.ClusterID == nil || *c.ClusterID != id(100)) {
				t.Errorf("existing cluster proposed without its id: %+v", c)
			}
			if c.Name == "email marketing" && c.ClusterID != nil {
				t.Errorf("new cluster with an id: %+v", c)
			}
		}
		if !slices.Equal(p.Unassigned, []uuid.UUID{id(2), id(5)}) {
			t.Errorf("unassigned %v", p.Unassigned)
		}
	})

	t.Run("restricted to existing clusters", func(t *testing.T) {
		p := Cluster(ClusterRequest{Queries: queries, Existing: existing, Mode: sightline.ModeAddOnTop, RestrictToExisting: true})
		got := assigned(p)
		for q, name := range got {
			if name != "customer relationship management" && name != "newsletters" {
				t.Errorf("query %v proposed a new cluster %q", q, name)
			}
		}
		if got[id(1)] != "customer relationship management" || got[id(2)] != "customer relationship management" {
			t.Errorf("crm queries: %v", got)
		}
		if _, ok := got[id(5)]; ok {
			t.Error("an unrelated query was forced into a cluster")
		}
	})

	t.Run("full_regroup matches existing clusters by name only", func(t *testing.T) {
		p := Cluster(ClusterRequest{Queries: queries, Existing: []ExistingCluster{
			{ID: id(100), Name: "crm", MemberTexts: []string{"weather tomorrow"}},
		}, Mode: sightline.ModeFullRegroup})
		got := assigned(p)
		if got[id(1)] != "crm" || got[id(2)] != "crm" || got[id(5)] != "" {
			t.Errorf("full_regroup: %v", got)
		}
		for _, c := range p.Clusters {
			if c.Name == "crm" && (c.ClusterID == nil || *c.ClusterID != id(100)) {
				t.Errorf("the crm cluster was not reused: %+v", c)
			}
		}
	})
}

// TestClusterIsDeterministicAndFast clusters the largest request twice.
func TestClusterIsDeterministicAndFast(t *testing.T) {
	t.Parallel()
	heads := []string{"crm", "email marketing", "project management", "accounting software", "help desk", "payroll",
		"video conferencing", "password manager", "web hosting", "survey tool"}
	tails := []string{"for startups", "pricing", "free", "for small business", "reviews", "alternatives", "for teams",
		"with integrations", "best", "open source", "for agencies", "comparison", "for nonprofits", "enterprise",
		"cheap", "for freelancers", "app", "tutorial", "vs", "2025", "for ecommerce", "self hosted", "api", "mobile",
		"for schools", "for healthcare", "plugin", "trial", "migration", "security", "for remote teams", "templates",
		"for beginners", "cloud", "on premise", "features", "setup", "integration", "automation", "analytics",
		"for law firms", "for restaurants", "for real estate", "for nonprofits free", "lifetime deal", "discount",
		"coupon", "login", "support", "download"}
	var qs []ClusterQuery
	for i, h := range heads {
		for j, tl := range tails {
			qs = append(qs, ClusterQuery{ID: uuid.UUID{0: byte(i), 1: byte(j), 15: 1}, Text: h + " " + tl})
		}
	}
	start := time.Now()
	a := Cluster(ClusterRequest{Queries: qs, Mode: sightline.ModeFullRegroup})
	elapsed := time.Since(start)
	b := Cluster(ClusterRequest{Queries: qs, Mode: sightline.ModeFullRegroup})
	if !reflect.DeepEqual(a, b) {
		t.Fatal("two runs differ")
	}
	if elapsed > 20*time.Second {
		t.Errorf("500 queries took %v", elapsed)
	}
	t.Logf("500 queries: %d clusters, %d unassigned, %v", len(a.Clusters), len(a.Unassigned), elapsed)
	n := len(a.Unassigned)
	for _, c := range a.Clusters {
		n += len(c.TrackedQueryIDs)
		if c.Name == "" || len([]rune(c.Name)) > 200 || c.Name != strings.ToLower(c.Name) || len(c.TrackedQueryIDs) < 2 {
			t.Errorf("cluster %q of %d queries", c.Name, len(c.TrackedQueryIDs))
		}
	}
	if n != len(qs) {
		t.Errorf("%d queries in the proposal, %d asked", n, len(qs))
	}
}
