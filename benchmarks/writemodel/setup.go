package main

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"time"

	"github.com/sightline/sightline/benchmarks/internal/drive"
	"github.com/sightline/sightline/benchmarks/internal/measure"
)

// The data: query texts are intent x product x audience, 1,000 distinct
// realistic texts; each create call takes 10 consecutive texts x 2 engines
// x 5 countries = 100 combinations.
var (
	intents = []string{"best", "top rated", "cheapest", "most reliable", "recommended", "affordable",
		"highest quality", "popular", "eco friendly", "premium"}
	products = []string{"running shoes", "crm software", "project management tools", "noise cancelling headphones",
		"electric bikes", "coffee machines", "password managers", "standing desks", "accounting software", "mattresses"}
	audiences = []string{"for beginners", "for startups", "for small businesses", "for students", "for families",
		"for remote teams", "for travel", "in 2026", "for professionals", "under 500 dollars"}

	// enginePairs rotate over the create calls, so every engine is tracked
	// and engine filters match a realistic share of the rows.
	enginePairs = [][]string{
		{"chatgpt", "perplexity"}, {"google_ai_overview", "google_ai_mode"}, {"google_serp", "google_shopping"},
		{"chatgpt", "google_ai_overview"}, {"perplexity", "google_serp"},
	}
	countries   = []string{"US", "GB", "DE", "FR", "CA"}
	frequencies = []string{"daily", "weekly", "monthly"}
)

const (
	textsPerCall = 10
	perCall      = 100 // textsPerCall x 2 engines x 5 countries
	clusterCount = 5
	pausedEvery  = 10 // one query in pausedEvery is paused
)

// queryText is the k-th of the 1,000 texts, with suffix appended when not
// empty (fresh texts for the create benchmark).
func queryText(k int, suffix string) string {
	k %= len(intents) * len(products) * len(audiences)
	t := intents[k/100] + " " + products[(k/10)%10] + " " + audiences[k%10]
	if suffix != "" {
		t += " " + suffix
	}
	return t
}

type createBody struct {
	QueryTexts      []string `json:"queryTexts"`
	Engines         []string `json:"engines"`
	Countries       []string `json:"countries"`
	Locale          string   `json:"locale"`
	CheckFrequency  string   `json:"checkFrequency"`
	NPasses         int      `json:"nPasses"`
	QueryClusterIDs []string `json:"queryClusterIds"`
}

type createAnswer struct {
	Successful []struct {
		ID string `json:"id"`
	} `json:"successful"`
	Failed []struct {
		ErrorCode string `json:"errorCode"`
	} `json:"failed"`
}

// setupCreateBody is the c-th create call of the listing project.
func setupCreateBody(c int, clusters []string) createBody {
	b := createBody{
		Engines: enginePairs[c%len(enginePairs)], Countries: countries, Locale: "en",
		CheckFrequency: frequencies[c%len(frequencies)], NPasses: 3, QueryClusterIDs: []string{},
	}
	for i := range textsPerCall {
		b.QueryTexts = append(b.QueryTexts, queryText(c*textsPerCall+i, ""))
	}
	// One call in clusterCount+1 leaves its queries unclustered.
	if n := c % (clusterCount + 1); n < len(clusters) {
		b.QueryClusterIDs = []string{clusters[n]}
	}
	return b
}

type idOnly struct {
	ID string `json:"id"`
}

func orgPath(org string) string { return "/api/v1/organizations/" + url.PathEscape(org) }

func trackedPath(org, project string) string {
	return orgPath(org) + "/projects/" + url.PathEscape(project) + "/tracked-queries"
}

// createProject creates a project with clusters named after it.
func createProject(ctx context.Context, c *client, org, name string, clusters int) (string, []string, error) {
	var p idOnly
	if _, err := c.mustCall(ctx, http.MethodPost, orgPath(org)+"/projects", map[string]any{
		"name": name, "websiteDomains": []string{"acme.example"}, "brandNames": []string{"Acme"},
	}, http.StatusCreated, &p); err != nil {
		return "", nil, err
	}
	var ids []string
	for i := range clusters {
		var cl idOnly
		if _, err := c.mustCall(ctx, http.MethodPost, orgPath(org)+"/projects/"+p.ID+"/clusters",
			map[string]string{"name": fmt.Sprintf("%s cluster %d", name, i+1)}, http.StatusCreated, &cl); err != nil {
			return "", nil, err
		}
		ids = append(ids, cl.ID)
	}
	return p.ID, ids, nil
}

// setupListing fills a new project with n tracked queries through n/100
// create calls, pauses one in pausedEvery through batch calls, and waits
// until the search projection shows all of it.
func setupListing(ctx context.Context, c *client, org string, n int, catchUp time.Duration) (string, error) {
	project, clusters, err := createProject(ctx, c, org, "Listing bench "+time.Now().UTC().Format(time.RFC3339Nano), clusterCount)
	if err != nil {
		return "", err
	}
	base := trackedPath(org, project)
	var ids []string
	var latencies []time.Duration
	start := time.Now()
	for call := range n / perCall {
		var a createAnswer
		r, err := c.mustCall(ctx, http.MethodPost, base, setupCreateBody(call, clusters), http.StatusOK, &a)
		if err != nil {
			return "", err
		}
		if len(a.Successful) != perCall {
			return "", fmt.Errorf("create call %d created %d of %d: %s", call, len(a.Successful), perCall, drive.Snippet(r.Body))
		}
		latencies = append(latencies, r.Latency)
		for _, s := range a.Successful {
			ids = append(ids, s.ID)
		}
	}
	created := time.Since(start)
	slices.Sort(latencies)
	fmt.Printf("setup        %d tracked queries by %d sequential create calls in %.1fs (p50 %s, max %s per call)\n",
		len(ids), len(latencies), created.Seconds(), measure.Round(measure.Quantile(latencies, 0.5)), measure.Round(latencies[len(latencies)-1]))

	var paused []string
	for i, id := range ids {
		if i%pausedEvery == 0 {
			paused = append(paused, id)
		}
	}
	for chunk := range slices.Chunk(paused, 100) {
		if _, err := c.mustCall(ctx, http.MethodPut, base+"/batch/pause", map[string][]string{"ids": chunk}, http.StatusOK, nil); err != nil {
			return "", err
		}
	}
	writesDone := time.Now()
	want := map[string]int{"": len(ids), "paused": len(paused)}
	if err := awaitProjection(ctx, c, base, want, catchUp); err != nil {
		return "", err
	}
	fmt.Printf("projection   caught up %.1fs after the last write (%d rows, %d paused)\n",
		time.Since(writesDone).Seconds(), len(ids), len(paused))
	return project, nil
}

// awaitProjection polls the listing until, for every status filter of want
// ("" for none), total is the wanted count.
func awaitProjection(ctx context.Context, c *client, base string, want map[string]int, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	for {
		done := true
		for status, n := range want {
			q := url.Values{"limit": {"1"}}
			if status != "" {
				q.Set("status", status)
			}
			var page struct {
				Total int `json:"total"`
			}
			if _, err := c.mustCall(ctx, http.MethodGet, base+"?"+q.Encode(), nil, http.StatusOK, &page); err != nil {
				return err
			}
			if page.Total != n {
				done = false
				if time.Now().After(deadline) {
					return fmt.Errorf("search projection not caught up after %s: total %d (status %q), want %d",
						timeout, page.Total, status, n)
				}
			}
		}
		if done {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(250 * time.Millisecond):
		}
	}
}

// freshCreateBody is the c-th call of the create benchmark: 10 texts never
// sent before x 2 engines x 5 countries.
func freshCreateBody(c int64, cluster string) createBody {
	b := createBody{
		Engines: enginePairs[0], Countries: countries, Locale: "en", CheckFrequency: "weekly", NPasses: 3,
		QueryClusterIDs: []string{cluster},
	}
	suffix := "batch " + strconv.FormatInt(c, 10)
	for i := range textsPerCall {
		b.QueryTexts = append(b.QueryTexts, queryText(int(c)*textsPerCall+i, suffix))
	}
	return b
}
