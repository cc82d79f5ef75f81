package proposal

import (
	"fmt"
	"slices"
	"strings"
	"testing"

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
