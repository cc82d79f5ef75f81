package api

import (
	"fmt"
	"net/http"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/sightline/sightline"
	"github.com/sightline/sightline/jobs"
	"github.com/sightline/sightline/oltp"
)

// Keyword clusters (spec 2.4, 4.7).
//
// Decisions where the spec is silent:
//   - Names are trimmed and lower-cased before the length check (1 to 200
//     characters) and the uniqueness check; control characters are refused.
//   - DELETE answers the cluster as it was, like competitor DELETE.
//   - Batch create: the 100-name limit applies to the array as sent. A name
//     that is blank or too long rejects the whole request with 400 naming
//     names[i], as in single create; only a taken name is an item-level
//     failure. A failed item carries id (always null: the taken name is not
//     resolved to its cluster), name (normalised), errorCode and
//     errorMessage; a successful one id and name. Both lists follow the
//     request's order.

type clusterBody struct {
	Name string `json:"name" required:"true"`
}

func (b *clusterBody) normalize(errs sightline.ValidationErrors) {
	b.Name = oltp.NormalizeClusterName("name", b.Name, errs)
}

func (s *server) handleCreateCluster(r *request, tx pgx.Tx) (int, any, error) {
	in, p, err := decodeForProject[clusterBody](s, r, tx)
	if err != nil {
		return 0, nil, err
	}
	c, err := oltp.CreateCluster(r.Context(), tx, p.ID, in.Name)
	return http.StatusCreated, c, err
}

func (s *server) handleRenameCluster(r *request, tx pgx.Tx) (int, any, error) {
	in, err := decodeNormalized[clusterBody](r.body)
	if err != nil {
		return 0, nil, err
	}
	p, id, err := s.projectItemForWrite(r, tx, "clusterId", sightline.CodeQueryClusterNotFound)
	if err != nil {
		return 0, nil, err
	}
	c, err := oltp.RenameCluster(r.Context(), tx, r.organizationID, p.ID, id, in.Name)
	return http.StatusOK, c, err
}

func (s *server) handleDeleteCluster(r *request, tx pgx.Tx) (int, any, error) {
	p, id, err := s.projectItemForWrite(r, tx, "clusterId", sightline.CodeQueryClusterNotFound)
	if err != nil {
		return 0, nil, err
	}
	c, err := oltp.DeleteCluster(r.Context(), tx, r.organizationID, p.ID, id)
	if err != nil {
		return 0, nil, err
	}
	// DeleteCluster takes the id out of the listing rows at once; marking
	// them stale as well makes a refresh that read the memberships before
	// this commit run again instead of writing the id back.
	if err := jobs.TrackedQueriesChanged(r.Context(), tx, s.jobs, p.ID); err != nil {
		return 0, nil, err
	}
	return http.StatusOK, c, nil
}

// clusterBatchMax bounds the names of one batch create (spec 8).
const clusterBatchMax = 100

type clusterBatchBody struct {
	Names []string `json:"names" required:"true" validate:"min=1,max=100"`
}

// normalize normalises every name and collapses the ones that become
// equal, keeping the first occurrence's position.
func (b *clusterBatchBody) normalize(errs sightline.ValidationErrors) {
	seen := make(map[string]bool, len(b.Names))
	names := make([]string, 0, len(b.Names))
	for i, raw := range b.Names {
		name := oltp.NormalizeClusterName(fmt.Sprintf("names[%d]", i), raw, errs)
		if name != "" && !seen[name] {
			seen[name] = true
			names = append(names, name)
		}
	}
	b.Names = names
}

type clusterBatchFailure struct {
	ID           *uuid.UUID     `json:"id"`
	Name         string         `json:"name"`
	ErrorCode    sightline.Code `json:"errorCode"`
	ErrorMessage string         `json:"errorMessage"`
}

type clusterBatchResult struct {
	Successful []oltp.Cluster        `json:"successful"`
	Failed     []clusterBatchFailure `json:"failed"`
}

func (s *server) handleCreateClusterBatch(r *request, tx pgx.Tx) (int, any, error) {
	in, p, err := decodeForProject[clusterBatchBody](s, r, tx)
	if err != nil {
		return 0, nil, err
	}
	created, err := oltp.CreateClusters(r.Context(), tx, p.ID, in.Names)
	if err != nil {
		return 0, nil, err
	}
	out := clusterBatchResult{Successful: []oltp.Cluster{}, Failed: []clusterBatchFailure{}}
	for _, name := range in.Names {
		if id, ok := created[name]; ok {
			out.Successful = append(out.Successful, oltp.Cluster{ID: id, Name: name})
			continue
		}
		out.Failed = append(out.Failed, clusterBatchFailure{
			Name: name, ErrorCode: sightline.ItemQueryClusterNameExists,
			ErrorMessage: "The project already has a cluster with this name.",
		})
	}
	return http.StatusOK, out, nil
}

func (s *server) clusterSchema() *openapi3.Schema {
	return s.component("Cluster", object(props{
		"id":   described(uuidSchema(), "What queryClusterIds parameters accept (never the name)."),
		"name": described(stringSchema().WithMinLength(1).WithMaxLength(oltp.MaxClusterNameLength), "Trimmed and lower-cased; unique in the project."),
	}, "id", "name"))
}

func clusterNameInputSchema() *openapi3.Schema {
	return described(stringSchema().WithMaxLength(oltp.MaxClusterNameLength),
		"Trimmed and lower-cased, then 1 to 200 characters without control characters.")
}

func clusterInputSchema() *openapi3.Schema {
	return object(props{"name": clusterNameInputSchema()}, "name")
}

func clusterBatchInputSchema() *openapi3.Schema {
	return object(props{
		"names": described(arrayOf(clusterNameInputSchema()).WithMinItems(1).WithMaxItems(clusterBatchMax),
			"1 to 100 names as sent; duplicates after normalisation are collapsed to their first occurrence."),
	}, "names")
}

func (s *server) clusterBatchResultSchema() *openapi3.Schema {
	return s.component("ClusterBatchResult", object(props{
		"successful": described(arrayOf(s.clusterSchema()), "Clusters created, in request order."),
		"failed": described(arrayOf(object(props{
			"id":           described(nullable(uuidSchema()), "Always null: a taken name is not resolved to the existing cluster."),
			"name":         described(stringSchema(), "The name as normalised."),
			"errorCode":    enumOf(string(sightline.ItemQueryClusterNameExists)),
			"errorMessage": stringSchema(),
		}, "id", "name", "errorCode", "errorMessage")), "Names the project already has, in request order."),
	}, "successful", "failed"))
}

// clusterRoutes lists the operations on keyword clusters (spec 4.7).
func (s *server) clusterRoutes(clusters routeGroup) {
	clusters.handle(route{
		method: http.MethodGet, pattern: projectBase + "/clusters", id: "listClusters",
		summary:     "A project's keyword clusters",
		description: "Ordered by name; only the direction can be chosen. A cluster carries no metrics and no membership count.",
		query:       projectPageParams("Direction of the name order."), response: listingSchema(s.clusterSchema()), csv: true,
		errors: map[int]string{404: projectNotFound},
		read:   projectPageListing(s, oltp.ListClusters),
	})
	clusters.handle(route{
		method: http.MethodPost, pattern: projectBase + "/clusters", id: "createCluster",
		summary: "Create an empty keyword cluster",
		description: "The name is trimmed and lower-cased before the length and uniqueness checks. A name the project " +
			"already has answers 409 with nothing merged, also when a concurrent request took it first.",
		body: clusterInputSchema(), status: http.StatusCreated, response: s.clusterSchema(),
		errors: map[int]string{
			404: projectNotFound,
			409: "query_cluster_name_already_exists; project_is_archived: the project or its organization is archived.",
		},
		writeFunc: s.handleCreateCluster,
	})
	clusters.handle(route{
		method: http.MethodPost, pattern: projectBase + "/clusters/batch", id: "createClusterBatch",
		summary: "Create several keyword clusters",
		description: "names: 1 to 100 as sent, each trimmed and lower-cased; names equal after that are collapsed to their " +
			"first occurrence. A blank or too long name rejects the whole request with 400 naming names[i]. Otherwise " +
			"always 200, nothing rolled back: successful lists the clusters created ({id, name}), failed the names the " +
			"project already had ({id: null, name, errorCode query_cluster_name_already_exists, errorMessage}), never " +
			"resolved to the existing cluster; both in request order.",
		body: clusterBatchInputSchema(), response: s.clusterBatchResultSchema(),
		errors:    projectWriteErrors(projectNotFound),
		writeFunc: s.handleCreateClusterBatch,
	})
	clusters.handle(route{
		method: http.MethodGet, pattern: projectBase + "/clusters/{clusterId}", id: "getCluster",
		summary:  "One keyword cluster",
		response: s.clusterSchema(),
		errors:   map[int]string{404: "organization_not_found: no accessible project, or no query cluster of it, has the id."},
		read:     projectItemRead(s, "clusterId", sightline.CodeQueryClusterNotFound, oltp.GetCluster),
	})
	clusters.handle(route{
		method: http.MethodPatch, pattern: projectBase + "/clusters/{clusterId}", id: "renameCluster",
		summary: "Rename a keyword cluster",
		description: "Rename only: id and memberships are unchanged. The name is normalised as on create; the cluster's " +
			"current name is a no-op 200.",
		body: clusterInputSchema(), response: s.clusterSchema(),
		errors: map[int]string{
			404: "organization_not_found: no accessible project, or no query cluster of it, has the id.",
			409: "query_cluster_name_already_exists: another cluster has the name; project_is_archived: the project or its organization is archived.",
		},
		writeFunc: s.handleRenameCluster,
	})
	clusters.handle(route{
		method: http.MethodDelete, pattern: projectBase + "/clusters/{clusterId}", id: "deleteCluster",
		summary: "Delete a keyword cluster",
		description: "No body (a body gives 400). Answers the cluster as it was. Member tracked queries are unassigned from " +
			"it only; analytics filtered by its id return nothing afterwards, earlier dates included. Irreversible: " +
			"recreating the name gives a new id.",
		response:  s.clusterSchema(),
		errors:    projectWriteErrors("organization_not_found: no accessible project, or no query cluster of it, has the id."),
		writeFunc: s.handleDeleteCluster,
	})
}
