package proposal

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/google/uuid"

	"github.com/sightline/sightline"
)

// Keyword clustering (spec 4.7).
//
// Texts are compared by TF-IDF over word stems and over character
// trigrams (similarity). Queries are grouped by average-linkage
// agglomerative clustering: the two most similar groups merge while their
// mean pairwise similarity reaches MergeThreshold. The project's existing
// clusters take part as anchors (their name plus, except under
// full_regroup, the texts of their members), so a query joins the cluster
// it resembles instead of founding a twin of it; no group holds two
// anchors. A new group of two or more queries is named by its most
// telling terms: those most of its queries share and few others have.
// A query left alone is unassigned.
//
// With RestrictToExisting no cluster is invented: each query joins the
// existing cluster it resembles most, if it reaches AttachThreshold, and
// is unassigned otherwise.
//
// Tracked queries that share a text (the same keyword on several engines
// or in several countries) are compared once and proposed together.

// Thresholds of the clustering, on the similarity scale (0 to 1).
const (
	MergeThreshold  = 0.2
	AttachThreshold = 0.2
)

// ClusterQuery is one tracked query to cluster.
type ClusterQuery struct {
	ID   uuid.UUID
	Text string
	// Grouped says the query belongs to a cluster now; under fill_gaps it
	// gets no proposal.
	Grouped bool
}

// ExistingCluster is one of the project's clusters.
type ExistingCluster struct {
	ID   uuid.UUID
	Name string
	// MemberTexts are the texts of its tracked queries, any of the project.
	MemberTexts []string
}

// ClusterRequest is what a clustering job works on.
type ClusterRequest struct {
	Queries            []ClusterQuery
	Existing           []ExistingCluster
	Mode               sightline.ClusteringMode
	RestrictToExisting bool
	// Language of the texts (ISO 639-1, possibly empty): chooses the stop
	// words and the stemmer.
	Language string
}

// ClusterProposal is a clustering job's result.
type ClusterProposal struct {
	Mode                       sightline.ClusteringMode `json:"mode"`
	RestrictToExistingClusters bool                     `json:"restrictToExistingClusters"`
	// Clusters are the proposed clusters, by name.
	Clusters []ProposedCluster `json:"clusters"`
	// Unassigned are the tracked queries the job proposes no cluster for,
	// in request order.
	Unassigned []uuid.UUID `json:"unassignedTrackedQueryIds"`
	// NotFound are requested ids that were no tracked query of the project
	// when the job ran, in request order.
	NotFound []uuid.UUID `json:"notFoundTrackedQueryIds"`
}

// ProposedCluster is one proposed cluster with the queries to assign to it.
type ProposedCluster struct {
	// Name is lower case, at most 200 characters, as cluster names are
	// stored.
	Name string `json:"name"`
	// ClusterID is the existing cluster proposed; nil for a new one, which
	// apply creates (or finds, when the name has been taken since).
	ClusterID *uuid.UUID `json:"clusterId"`
	// TrackedQueryIDs are the queries to assign, in request order.
	TrackedQueryIDs []uuid.UUID `json:"trackedQueryIds"`
	// QueryTexts are their distinct texts, in request order.
	QueryTexts []string `json:"queryTexts"`
}

// Assignments counts the queries the proposal assigns.
func (p *ClusterProposal) Assignments() int {
	n := 0
	for _, c := range p.Clusters {
		n += len(c.TrackedQueryIDs)
	}
	return n
}

// textGroup is one distinct text and the queries that share it.
type textGroup struct {
	text     string
	ids      []uuid.UUID // queries to propose for
	skipped  []uuid.UUID // queries that get no proposal (grouped, under fill_gaps)
	position int         // first appearance in the request
}

// Cluster proposes clusters for the request's queries.
func Cluster(req ClusterRequest) *ClusterProposal {
	out := &ClusterProposal{Mode: req.Mode, RestrictToExistingClusters: req.RestrictToExisting,
		Clusters: []ProposedCluster{}, Unassigned: []uuid.UUID{}, NotFound: []uuid.UUID{}}

	// Distinct texts, in order of first appearance.
	var groups []*textGroup
	byText := map[string]*textGroup{}
	for i, q := range req.Queries {
		g, ok := byText[q.Text]
		if !ok {
			g = &textGroup{text: q.Text, position: i}
			byText[q.Text] = g
			groups = append(groups, g)
		}
		if q.Grouped && req.Mode == sightline.ModeFillGaps {
			g.skipped = append(g.skipped, q.ID)
		} else {
			g.ids = append(g.ids, q.ID)
		}
	}
	var targets []*textGroup
	for _, g := range groups {
		if len(g.ids) > 0 {
			targets = append(targets, g)
		}
	}

	// Documents: the targets, then each existing cluster's name and members.
	docs := make([]document, 0, len(targets))
	for _, g := range targets {
		docs = append(docs, newDocument(g.text, req.Language))
	}
	type anchorDocs struct {
		name    document
		members []document
	}
	anchors := make([]anchorDocs, len(req.Existing))
	all := slices.Clone(docs)
	for i, c := range req.Existing {
		anchors[i].name = newDocument(c.Name, req.Language)
		all = append(all, anchors[i].name)
		if req.Mode == sightline.ModeFullRegroup && !req.RestrictToExisting {
			continue // regrouping: a cluster's current members are what is being redone
		}
		for _, t := range c.MemberTexts {
			d := newDocument(t, req.Language)
			anchors[i].members = append(anchors[i].members, d)
			all = append(all, d)
		}
	}
	c := newCorpus(all)
	points := make([]embedding, len(docs))
	for i, d := range docs {
		points[i] = c.embed(d)
	}
	anchorPoints := make([]embedding, len(anchors))
	for i, a := range anchors {
		// The name counts as much as all members together: it is the
		// cluster's stated meaning.
		es := []embedding{c.embed(a.name)}
		if len(a.members) > 0 {
			ms := make([]embedding, len(a.members))
			for j, m := range a.members {
				ms[j] = c.embed(m)
			}
			es = append(es, centroid(ms))
		}
		anchorPoints[i] = centroid(es)
	}

	// assignment[i] is the cluster of target i: an anchor index, a new
	// group number (encoded as -1-n), or unassigned.
	const unassigned = math.MinInt
	assignment := make([]int, len(targets))
	for i := range assignment {
		assignment[i] = unassigned
	}
	var newGroups [][]int
	if req.RestrictToExisting {
		for i, p := range points {
			best, bestSim := -1, AttachThreshold
			for j, a := range anchorPoints {
				if s := similarity(p, a); s >= bestSim && (best < 0 || s > bestSim || req.Existing[j].Name < req.Existing[best].Name) {
					best, bestSim = j, s
				}
			}
			if best >= 0 {
				assignment[i] = best
			}
		}
	} else {
		for _, members := range agglomerate(points, anchorPoints) {
			anchor := -1
			var queries []int
			for _, m := range members {
				if m >= len(points) {
					anchor = m - len(points)
				} else {
					queries = append(queries, m)
				}
			}
			switch {
			case anchor >= 0:
				for _, q := range queries {
					assignment[q] = anchor
				}
			case len(queries) >= 2:
				for _, q := range queries {
					assignment[q] = -1 - len(newGroups)
				}
				newGroups = append(newGroups, queries)
			}
		}
	}

	// Build the proposal.
	names := nameGroups(newGroups, docs, c)
	clusters := map[string]*ProposedCluster{}
	for _, g := range groups {
		out.Unassigned = append(out.Unassigned, g.skipped...)
	}
	for i, g := range targets {
		a := assignment[i]
		if a == unassigned {
			out.Unassigned = append(out.Unassigned, g.ids...)
			continue
		}
		var name string
		var id *uuid.UUID
		if a >= 0 {
			name, id = req.Existing[a].Name, &req.Existing[a].ID
		} else {
			name = names[-1-a]
			for j := range req.Existing {
				if req.Existing[j].Name == name {
					id = &req.Existing[j].ID
				}
			}
		}
		pc, ok := clusters[name]
		if !ok {
			pc = &ProposedCluster{Name: name, ClusterID: id}
			clusters[name] = pc
		}
		pc.TrackedQueryIDs = append(pc.TrackedQueryIDs, g.ids...)
		pc.QueryTexts = append(pc.QueryTexts, g.text)
	}
	for _, name := range sortedKeys(clusters) {
		out.Clusters = append(out.Clusters, *clusters[name])
	}
	// Request order for the unassigned, as for every list of the job.
	order := map[uuid.UUID]int{}
	for i, q := range req.Queries {
		if _, ok := order[q.ID]; !ok {
			order[q.ID] = i
		}
	}
	slices.SortFunc(out.Unassigned, func(a, b uuid.UUID) int { return cmp.Compare(order[a], order[b]) })
	for i := range out.Clusters {
		slices.SortFunc(out.Clusters[i].TrackedQueryIDs, func(a, b uuid.UUID) int { return cmp.Compare(order[a], order[b]) })
	}
	return out
}

// agglomerate groups points by average linkage, with anchors as points
// that never share a group. It returns the groups as indices: points
// first (0..len(points)-1), then anchors (len(points)+j).
func agglomerate(points, anchors []embedding) [][]int {
	all := append(slices.Clone(points), anchors...)
	n := len(all)
	isAnchor := func(i int) bool { return i >= len(points) }
	// sum[i][j] is the summed similarity between the members of groups i
	// and j; the average linkage is sum / (size i * size j).
	sum := make([][]float64, n)
	for i := range sum {
		sum[i] = make([]float64, n)
	}
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			if isAnchor(i) && isAnchor(j) {
				continue
			}
			s := similarity(all[i], all[j])
			sum[i][j], sum[j][i] = s, s
		}
	}
	members := make([][]int, n)
	hasAnchor := make([]bool, n)
	alive := make([]bool, n)
	for i := range n {
		members[i] = []int{i}
		hasAnchor[i] = isAnchor(i)
		alive[i] = true
	}
	linkage := func(i, j int) float64 {
		if hasAnchor[i] && hasAnchor[j] {
			return -1
		}
		return sum[i][j] / float64(len(members[i])*len(members[j]))
	}
	// best[i] caches the most similar live group to i (ties: lowest index).
	best := make([]int, n)
	bestSim := make([]float64, n)
	refresh := func(i int) {
		best[i], bestSim[i] = -1, -1
		for j := range n {
			if j == i || !alive[j] {
				continue
			}
			if s := linkage(i, j); s > bestSim[i] {
				best[i], bestSim[i] = j, s
			}
		}
	}
	for i := range n {
		refresh(i)
	}
	for {
		a, top := -1, MergeThreshold
		for i := range n {
			if alive[i] && best[i] >= 0 && bestSim[i] >= top && (a < 0 || bestSim[i] > top) {
				a, top = i, bestSim[i]
			}
		}
		if a < 0 {
			break
		}
		b := best[a]
		if b < a {
			a, b = b, a
		}
		// Merge b into a.
		for k := range n {
			sum[a][k] += sum[b][k]
			sum[k][a] = sum[a][k]
		}
		members[a] = append(members[a], members[b]...)
		hasAnchor[a] = hasAnchor[a] || hasAnchor[b]
		alive[b] = false
		for i := range n {
			if !alive[i] {
				continue
			}
			if i == a || best[i] == a || best[i] == b {
				refresh(i)
			} else if s := linkage(i, a); s > bestSim[i] || (s == bestSim[i] && a < best[i]) {
				best[i], bestSim[i] = a, s
			}
		}
	}
	var out [][]int
	for i := range n {
		if alive[i] {
			slices.Sort(members[i])
			out = append(out, members[i])
		}
	}
	return out
}

// maxNameWords bounds a generated cluster name.
const maxNameWords = 3

// nameGroups names each new group by its most telling terms, keeping the
// names distinct from each other. A name that equals an existing
// cluster's is kept: the group then goes to that cluster.
func nameGroups(groups [][]int, docs []document, c *corpus) []string {
	names := make([]string, len(groups))
	used := map[string]bool{}
	for gi, g := range groups {
		terms := tellingTerms(g, docs, c)
		k := nameLength(terms)
		name := phraseOf(terms[:k], g, docs)
		// A name another group took first grows by the next telling term.
		for ; used[name] && k < len(terms) && k < maxNameWords+2; k++ {
			name = phraseOf(terms[:k+1], g, docs)
		}
		if name == "" {
			name = "cluster"
		}
		name = truncateName(name)
		base := name
		for n := 2; used[name]; n++ {
			name = truncateName(fmt.Sprintf("%s %d", base, n))
		}
		used[name] = true
		names[gi] = name
	}
	return names
}

// nameLength is how many of the ranked terms make the name: the first,
// and those after it that most of the group shares and that tell nearly
// as much ("email marketing", "help desk"), up to maxNameWords.
func nameLength(terms []term) int {
	if len(terms) == 0 {
		return 0
	}
	k := 1
	for k < len(terms) && k < maxNameWords && terms[k].share >= 0.6 && terms[k].score >= 0.5*terms[0].score {
		k++
	}
	return k
}

// term is a candidate word of a group's name.
type term struct {
	stem    string
	surface string
	share   float64 // fraction of the group's texts that have it
	score   float64
}

// tellingTerms ranks the stems of a group's texts by how much they tell
// the group apart: the share of its texts that contain the stem, each
// counted by the stem's weight there (a modifier or a qualifier counts
// less than a topic word), times the stem's IDF over every text compared:
// a class-based TF-IDF.
func tellingTerms(group []int, docs []document, c *corpus) []term {
	count := map[string]int{}
	weight := map[string]float64{}
	surfaces := map[string]map[string]int{}
	for _, i := range group {
		best := map[string]float64{}
		for _, t := range docs[i].tokens {
			if _, seen := best[t.stem]; !seen {
				count[t.stem]++
			}
			best[t.stem] = max(best[t.stem], t.weight)
			if surfaces[t.stem] == nil {
				surfaces[t.stem] = map[string]int{}
			}
			surfaces[t.stem][t.surface]++
		}
		for s, w := range best {
			weight[s] += w
		}
	}
	var terms []term
	for _, s := range sortedKeys(count) {
		n := float64(len(group))
		terms = append(terms, term{stem: s, surface: commonest(surfaces[s]), share: float64(count[s]) / n,
			score: weight[s] / n * c.idf(c.wordDF[s])})
	}
	slices.SortStableFunc(terms, func(a, b term) int {
		if a.score != b.score {
			return cmp.Compare(b.score, a.score)
		}
		return cmp.Compare(a.stem, b.stem)
	})
	return terms
}

// phraseOf writes terms as a name, in the order they usually appear in
// the group's texts ("email marketing", not "marketing email").
func phraseOf(terms []term, group []int, docs []document) string {
	pos := make([]float64, len(terms))
	for k, t := range terms {
		var total, seen float64
		for _, i := range group {
			for p, tok := range docs[i].tokens {
				if tok.stem == t.stem {
					total += float64(p)
					seen++
					break
				}
			}
		}
		pos[k] = total / max(seen, 1)
	}
	idx := make([]int, len(terms))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(pos[a], pos[b]) })
	parts := make([]string, len(idx))
	for i, k := range idx {
		parts[i] = terms[k].surface
	}
	return strings.Join(parts, " ")
}

// commonest returns the most frequent key of counts (ties: smallest).
func commonest(counts map[string]int) string {
	best, n := "", -1
	for _, k := range sortedKeys(counts) {
		if counts[k] > n {
			best, n = k, counts[k]
		}
	}
	return best
}

// truncateName keeps a name within the 200 characters of a cluster name.
func truncateName(name string) string {
	r := []rune(strings.ToLower(strings.TrimSpace(name)))
	if len(r) > 200 {
		r = r[:200]
	}
	return strings.TrimSpace(string(r))
}
