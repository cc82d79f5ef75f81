package api

import (
	"net/http"

	"github.com/go-chi/chi/v5"
	"github.com/google/uuid"

	"github.com/sightline/sightline"
	"github.com/sightline/sightline/oltp"
)

// request is what a handler receives once the pipeline has authenticated,
// authorised and read the request.
type request struct {
	*http.Request
	// key is the caller's API key; nil on public operations.
	key *oltp.APIKey
	// organizationID and role are set on organization-scoped operations.
	organizationID uuid.UUID
	role           sightline.Role
	// body is the request body, already read within the size limit.
	body  []byte
	query *queryParams
	// idempotency is the record this write will store; set on writes only.
	idempotency *oltp.IdempotencyRecord
}

// pathUUID returns a uuid path parameter. A malformed id answers exactly as
// an unknown one does, so that nothing about hidden resources leaks.
func (r *request) pathUUID(name string, notFound sightline.Code) (uuid.UUID, error) {
	id, err := uuid.Parse(chi.URLParam(r.Request, name))
	if err != nil {
		return uuid.Nil, sightline.Errorf(notFound, "%s", notFoundMessage[notFound])
	}
	return id, nil
}

var notFoundMessage = map[sightline.Code]string{
	sightline.CodeNotFound:             "Resource not found.",
	sightline.CodeOrganizationNotFound: "Organization not found.",
	sightline.CodeProjectNotFound:      "Project not found.",
	sightline.CodeBrandProfileNotFound: "Brand profile not found.",
	sightline.CodeCompetitorNotFound:   "Competitor not found.",
	sightline.CodeQueryClusterNotFound: "Query cluster not found.",
	sightline.CodeTrackedQueryNotFound: "Tracked query not found.",
	sightline.CodeJobNotFound:          "Job not found.",
}

// readFunc serves a read operation: the returned body is sent with 200.
type readFunc func(r *request) (any, error)
