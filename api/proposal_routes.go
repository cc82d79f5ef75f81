package api

import (
	"net/http"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/sightline/sightline"
	"github.com/sightline/sightline/oltp"
)

// proposalRoutes lists the operations of the proposal jobs: the clustering
// job and its apply (spec 4.7), the three discovery starts (spec 4.8) and
// the polling of any job (api-decisions). Handlers are in proposal_jobs.go.
func (s *server) proposalRoutes(clusters, discovery routeGroup) {
	startErrors := func(extra map[int]string) map[int]string {
		errs := map[int]string{
			429: "rate_limit_exceeded also when the organization has started 10 jobs in the last 60 seconds, across " +
				"all its keys and members; Retry-After gives the seconds until a start is free again.",
		}
		for status, text := range extra {
			errs[status] = text
		}
		return errs
	}
	startNote := " Answers 202 with the job, status queued; poll trackingUrl until status is completed or failed " +
		"(failed jobs carry a readable error). Counts as one of the organization's 10 job starts per minute; a " +
		"refused start or an idempotent replay does not. The job only proposes: nothing is written until an apply " +
		"(clustering) or the operations that create what it proposes. A finished job stays readable for 30 days."

	clusters.handle(route{
		method: http.MethodPost, pattern: projectBase + "/clusters/jobs", id: "startClusteringJob",
		summary: "Start a job proposing keyword clusters for tracked queries",
		description: "Groups the queries by meaning from their text (TF-IDF over words and character trigrams, " +
			"average-linkage agglomerative clustering) and names each new cluster by its most telling terms. The " +
			"project's clusters take part: a query joins the existing cluster it resembles rather than a new twin " +
			"of it (under full_regroup existing clusters count by their name only, their members being what is " +
			"regrouped). A query that resembles nothing else is proposed no cluster (unassigned). Queries sharing a " +
			"text are compared once and proposed together. mode is how apply will treat the clusters a query has: " +
			"fill_gaps proposes only for queries in no cluster (the others are unassigned), add_on_top adds, " +
			"full_regroup replaces. restrictToExistingClusters proposes only the project's clusters, leaving " +
			"queries that resemble none unassigned. trackedQueryIds: 1 to 500 distinct ids (duplicates collapsed); " +
			"ids that are no tracked query of the project are reported by the job (notFoundTrackedQueryIds). " +
			"With live engines and an OpenAI key, the chatgpt engine's model may rename the new clusters; the local " +
			"names stand when it fails. Consumes no check budget units." + startNote,
		body: s.clusteringJobBodySchema(), status: http.StatusAccepted, response: s.jobSchema(),
		errors: startErrors(map[int]string{
			402: "subscription_required: the organization has no entitled subscription (active, trialing or " +
				"past_due within its period, no cancellation in effect).",
			404: projectNotFound,
			409: "nothing_to_cluster: no id is a tracked query of the project, or restrictToExistingClusters is set " +
				"and the project has no cluster; project_is_archived: the project or its organization is archived.",
		}),
		writeFunc: s.handleStartClusteringJob,
	})
	clusters.handle(route{
		method: http.MethodPost, pattern: projectBase + "/clusters/jobs/{jobId}/apply", id: "applyClusteringJob",
		summary: "Apply a completed clustering job",
		description: "No body (a body gives 400). Creates the proposed clusters the project lacks (only those that " +
			"get a query), then assigns each query of the job per its mode: fill_gaps leaves queries already in a " +
			"cluster alone, add_on_top adds the proposed cluster to the query's, full_regroup makes it the query's " +
			"only cluster. A proposed existing cluster deleted since is recreated by name. Always 200, in the job's " +
			"query order: successful lists each query proposed a cluster with its clusters after the apply " +
			"(unchanged for a grouped query under fill_gaps); failed the ids that are no tracked query of the " +
			"project (tracked_query_not_found); unassigned the queries the job proposed nothing for, left " +
			"unchanged. May be applied again: memberships already there are kept.",
		response: s.clusteringApplySchema(),
		errors: map[int]string{
			404: "organization_not_found: no accessible project has the id, or no clustering job of it (a job of another " +
				"project or organization, or of another type, included).",
			409: "job_not_completed: the job is queued, running or failed; job_has_no_assignments: the job proposed " +
				"no cluster for any query; project_is_archived: the project or its organization is archived.",
		},
		writeFunc: s.handleApplyClusteringJob,
	})
	discovery.handle(route{
		method: http.MethodPost, pattern: "/api/v1/organizations/{organizationId}/brand-name-suggestions",
		id: "startBrandNameSuggestions", summary: "Start a job suggesting how a brand is written",
		description: "Derives the names the brand is written as from name and websiteDomains alone: the name, " +
			"spacing variants, camel case split, the name without a product or legal-form suffix (CRM, App, Inc. ...) " +
			"and with the country's legal form, each bare domain and the name it spells. Brand names match " +
			"case-insensitively, so no suggestion differs from another or from an entered name by case alone; " +
			"enteredBrandNames are left out. Nothing is looked up or saved; no subscription is needed and no check " +
			"budget is used. With live engines and an OpenAI key, the chatgpt engine's model may add names it knows " +
			"the brand by (reason model) after the derived ones; the derived ones stand when it fails." + startNote,
		body: brandNameSuggestionBodySchema(), status: http.StatusAccepted, response: s.jobSchema(),
		errors:    startErrors(map[int]string{409: "project_is_archived: the organization is archived."}),
		writeFunc: s.handleStartBrandNameSuggestions,
	})
	discovery.handle(route{
		method: http.MethodPost, pattern: projectBase + "/discovery/brands", id: "startBrandDiscovery",
		summary: "Start a job proposing competitors from the project's captures",
		description: "Reads the last 90 days of the project's captures (narrowed to country when given): brands " +
			"its AI answers name that it does not track, and domains ranking on its search pages (and, with " +
			"shoppingEnabled, selling on its shopping pages) that are no tracked brand's. A name and a domain that " +
			"spell the same are one brand. Brands rank by how often and how prominently they appear (each answer " +
			"naming one adds 1/sqrt(position), each search result 0.6/sqrt(rank), each offer 0.4/sqrt(rank)); the own " +
			"brand, the tracked competitors and review, marketplace, social and media sites are left out. Proposals " +
			"are shaped like competitors (name, websiteDomains, brandNames) with their evidence. The body is " +
			"optional. No subscription is needed. Billing: the job asks no engine and reads only captures already " +
			"paid for, so it bills nothing: no check budget unit is reserved or used, with or without a brand " +
			"profile (a project without one is accepted; its brands are then all untracked)." + startNote,
		body: brandDiscoveryBodySchema(), bodyOptional: true, status: http.StatusAccepted, response: s.jobSchema(),
		errors: startErrors(map[int]string{
			404: projectNotFound,
			409: "project_is_archived: the project or its organization is archived.",
		}),
		writeFunc: s.handleStartBrandDiscovery,
	})
	discovery.handle(route{
		method: http.MethodPost, pattern: projectBase + "/discovery/keywords", id: "startKeywordDiscovery",
		summary: "Start a job proposing keywords to track",
		description: "Proposes up to 50 queries from input (its lines and list items that read as queries, and " +
			"phrases it repeats or that read as queries, such as \"crm for startups\") and from the last 90 days of " +
			"the project's captured pages (search result titles and snippets, offer titles, cited page titles; " +
			"narrowed to country when given), ranked by how often they appear and how much they share the input's " +
			"topic. For English (language absent or en-*) the best topics also give \"best X\", \"X pricing\" and " +
			"\"X alternatives\", and the project's brands \"<competitor> alternatives\" and \"<brand> vs " +
			"<competitor>\". Texts are normalised as tracked query texts are; the project's tracked query texts and " +
			"excludeQueries are always left out, also in another inflection. Requires an entitled subscription; " +
			"uses no check budget." + startNote,
		body: keywordDiscoveryBodySchema(), status: http.StatusAccepted, response: s.jobSchema(),
		errors: startErrors(map[int]string{
			402: "subscription_required: the organization has no entitled subscription.",
			404: projectNotFound,
			409: "project_is_archived: the project or its organization is archived.",
		}),
		writeFunc: s.handleStartKeywordDiscovery,
	})
	discovery.handle(route{
		method: http.MethodGet, pattern: "/api/v1/organizations/{organizationId}/jobs/{jobId}", id: "getJob",
		summary: "Poll a proposal job",
		description: "The job record: status queued until a worker takes it, running while one works it, then " +
			"completed with its result or failed with a readable error (a job never stays queued or running once " +
			"its attempts are spent). result is null until completed; its shape depends on type. Finished jobs are " +
			"kept 30 days. Archived projects and organizations answer.",
		response: s.jobSchema(),
		errors:   map[int]string{404: "organization_not_found: no job of this organization has the id (one of another organization included)."},
		read:     s.handleGetJob,
	})
}

// Schemas.

func (s *server) jobSchema() *openapi3.Schema {
	result := &openapi3.Schema{OneOf: openapi3.SchemaRefs{
		schemaRef(s.clusteringResultSchema()), schemaRef(s.brandNameResultSchema()),
		schemaRef(s.brandDiscoveryResultSchema()), schemaRef(s.keywordDiscoveryResultSchema()),
	}}
	result.Nullable = true
	result.Description = "Null until completed. clustering: ClusteringProposal; brand_name_suggestion: " +
		"BrandNameSuggestions; brand_discovery: BrandDiscovery; keyword_discovery: KeywordDiscovery."
	return s.component("Job", object(props{
		"id":          uuidSchema(),
		"type":        enumFrom(sightline.JobTypes),
		"status":      enumFrom(sightline.JobStatuses),
		"trackingUrl": described(stringSchema(), "/api/v1/organizations/{organizationId}/jobs/{jobId}: poll it with GET."),
		"createdAt":   timeSchema(),
		"completedAt": described(nullable(timeSchema()), "When the job completed or failed; null before."),
		"error":       described(nullable(stringSchema()), "Why a failed job failed, readable as is; null otherwise."),
		"result":      result,
	}, "id", "type", "status", "trackingUrl", "createdAt", "completedAt", "error", "result"))
}

func (s *server) clusteringJobBodySchema() *openapi3.Schema {
	return object(props{
		"trackedQueryIds": described(arrayOf(uuidSchema()).WithMinItems(1),
			"1 to 500 distinct ids; duplicates are collapsed."),
		"mode": described(enumFrom(sightline.ClusteringModes), "How apply treats the clusters a query has."),
		"restrictToExistingClusters": described(boolSchema().WithDefault(false),
			"Propose only the project's clusters; queries resembling none stay unassigned."),
	}, "trackedQueryIds", "mode")
}

func (s *server) clusteringResultSchema() *openapi3.Schema {
	return s.component("ClusteringProposal", object(props{
		"mode":                       enumFrom(sightline.ClusteringModes),
		"restrictToExistingClusters": boolSchema(),
		"clusters": described(arrayOf(object(props{
			"name": described(stringSchema().WithMinLength(1).WithMaxLength(oltp.MaxClusterNameLength),
				"Lower case, as cluster names are stored."),
			"clusterId": described(nullable(uuidSchema()),
				"The existing cluster proposed; null for a new one, which apply creates."),
			"trackedQueryIds": described(arrayOf(uuidSchema()), "Queries to assign, in request order."),
			"queryTexts":      described(arrayOf(stringSchema()), "Their distinct texts."),
		}, "name", "clusterId", "trackedQueryIds", "queryTexts")), "Proposed clusters, by name."),
		"unassignedTrackedQueryIds": described(arrayOf(uuidSchema()),
			"Queries proposed no cluster (under fill_gaps also those already in one), in request order."),
		"notFoundTrackedQueryIds": described(arrayOf(uuidSchema()),
			"Requested ids that were no tracked query of the project when the job ran."),
	}, "mode", "restrictToExistingClusters", "clusters", "unassignedTrackedQueryIds", "notFoundTrackedQueryIds"))
}

func (s *server) clusteringApplySchema() *openapi3.Schema {
	return s.component("ClusteringApplyResult", object(props{
		"successful": described(arrayOf(object(props{
			"id":              uuidSchema(),
			"queryClusterIds": described(arrayOf(uuidSchema()), "The query's clusters after the apply."),
		}, "id", "queryClusterIds")), "Queries the job proposed a cluster for."),
		"failed": described(arrayOf(object(props{
			"id":           stringSchema(),
			"errorCode":    enumOf(string(sightline.ItemTrackedQueryNotFound)),
			"errorMessage": stringSchema(),
		}, "id", "errorCode", "errorMessage")), "Ids that are no tracked query of the project any more."),
		"unassigned": described(arrayOf(uuidSchema()), "Queries the job proposed no cluster for; left unchanged."),
	}, "successful", "failed", "unassigned"))
}

func brandNameSuggestionBodySchema() *openapi3.Schema {
	return object(props{
		"name": described(stringSchema().WithMaxLength(maxSuggestionName), "The brand's name; trimmed, 1 to 255 characters."),
		"websiteDomains": described(arrayOf(stringSchema()).WithMinItems(1),
			"At least one; full URLs or bare hosts, normalised as a project's."),
		"enteredBrandNames": described(arrayOf(stringSchema().WithMaxLength(oltp.MaxBrandNameLength)),
			"Names the customer has already; left out of the suggestions."),
		"country": countryInputSchema(),
	}, "name", "websiteDomains")
}

func countryInputSchema() *openapi3.Schema {
	return described(stringSchema().WithMinLength(2).WithMaxLength(2), "ISO 3166-1 alpha-2 code, any case.")
}

func (s *server) brandNameResultSchema() *openapi3.Schema {
	return s.component("BrandNameSuggestions", object(props{
		"suggestions": described(arrayOf(object(props{
			"name":   stringSchema(),
			"reason": enumOf("name", "spacing", "casing", "suffix", "domain", "model"),
		}, "name", "reason")), "At most 25, in the order of the rules; model: added by the language model, when one is configured."),
	}, "suggestions"))
}

func brandDiscoveryBodySchema() *openapi3.Schema {
	return object(props{
		"shoppingEnabled": described(boolSchema().WithDefault(false), "Also read the project's shopping pages."),
		"country":         countryInputSchema(),
	})
}

func (s *server) brandDiscoveryResultSchema() *openapi3.Schema {
	return s.component("BrandDiscovery", object(props{
		"brands": described(arrayOf(object(props{
			"name":               stringSchema(),
			"websiteDomains":     described(arrayOf(stringSchema()), "Up to 3; empty when no site was seen."),
			"brandNames":         described(arrayOf(stringSchema()), "The name first, then other spellings seen."),
			"mentionCount":       described(integerSchema().WithMin(0), "AI answers naming it."),
			"avgMentionPosition": nullable(openapi3.NewFloat64Schema()),
			"searchResultCount":  integerSchema().WithMin(0),
			"bestSearchRank":     nullable(integerSchema().WithMin(1)),
			"shoppingOfferCount": integerSchema().WithMin(0),
			"bestShoppingRank":   nullable(integerSchema().WithMin(1)),
			"score":              described(openapi3.NewFloat64Schema(), "Frequency weighted by prominence; higher first."),
		}, "name", "websiteDomains", "brandNames", "mentionCount", "avgMentionPosition", "searchResultCount",
			"bestSearchRank", "shoppingOfferCount", "bestShoppingRank", "score")),
			"At most 25, best first."),
		"capturesFrom": described(timeSchema(), "Start of the captures read."),
	}, "brands", "capturesFrom"))
}

func keywordDiscoveryBodySchema() *openapi3.Schema {
	return object(props{
		"input": described(stringSchema().WithMaxLength(maxDiscoveryInput),
			"What the business offers, or seed keywords one per line or comma-separated; at most 10,000 characters."),
		"language": described(stringSchema().WithMaxLength(5),
			"ISO 639-1 code, optionally with a region (en, pt-BR); picks stop words and English-only suggestions."),
		"country": countryInputSchema(),
		"excludeQueries": described(arrayOf(stringSchema()).WithMaxItems(maxExcludeQueries),
			"Texts never to propose, matched after normalisation and across inflections."),
	}, "input")
}

func (s *server) keywordDiscoveryResultSchema() *openapi3.Schema {
	return s.component("KeywordDiscovery", object(props{
		"keywords": described(arrayOf(object(props{
			"queryText": described(stringSchema(), "Normalised as a tracked query text."),
			"source":    enumOf("input", "captures", "suggested"),
			"score":     openapi3.NewFloat64Schema(),
		}, "queryText", "source", "score")), "At most 50, best first."),
		"capturesFrom": described(timeSchema(), "Start of the captures read."),
	}, "keywords", "capturesFrom"))
}
