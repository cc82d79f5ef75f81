package api

import (
	"context"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/sightline/sightline"
	"github.com/sightline/sightline/oltp"
)

// projectBase is the path of a project; its records and operations are
// below it.
const projectBase = "/api/v1/organizations/{organizationId}/projects/{projectId}"

// projectNotFound is the 404 of an operation on a project.
const projectNotFound = "organization_not_found: no accessible project has the id."

// organizationRead serves the read of a record of the path's organization
// that get loads.
func organizationRead[T any](s *server, get func(ctx context.Context, db oltp.DBTX, organizationID uuid.UUID) (T, error)) readFunc {
	return func(r *request) (any, error) {
		return get(r.Context(), s.pool, r.organizationID)
	}
}

// projectForRead loads the path's project for a read; a malformed id
// answers 404 like an unknown one.
func (s *server) projectForRead(r *request) (*oltp.ProjectScope, error) {
	id, err := r.pathUUID("projectId", sightline.CodeProjectNotFound)
	if err != nil {
		return nil, err
	}
	return oltp.LoadProjectScope(r.Context(), s.pool, r.organizationID, id, false)
}

// projectForWrite loads and locks the path's project inside the write's
// transaction and refuses archived states with 409.
func (s *server) projectForWrite(r *request, tx pgx.Tx) (*oltp.ProjectScope, error) {
	id, err := r.pathUUID("projectId", sightline.CodeProjectNotFound)
	if err != nil {
		return nil, err
	}
	p, err := oltp.LoadProjectScope(r.Context(), tx, r.organizationID, id, true)
	if err != nil {
		return nil, err
	}
	return p, p.CheckWritable()
}

// projectItemForWrite loads and locks the path's project as projectForWrite
// does, and reads the id of the project's item that the path parameter
// param names; a malformed id is notFound like an unknown one.
func (s *server) projectItemForWrite(r *request, tx pgx.Tx, param string, notFound sightline.Code) (*oltp.ProjectScope, uuid.UUID, error) {
	p, err := s.projectForWrite(r, tx)
	if err != nil {
		return nil, uuid.Nil, err
	}
	id, err := r.pathUUID(param, notFound)
	if err != nil {
		return nil, uuid.Nil, err
	}
	return p, id, nil
}

// projectPageParams are the parameters of a listing of one kind of a
// project's records: a page, and the direction of its one order.
func projectPageParams(orderDescription string) []*openapi3.Parameter {
	return append(pagingParams(),
		openapi3.NewQueryParameter("sortOrder").WithSchema(enumOf("asc", "desc").WithDefault("asc")).
			WithDescription(orderDescription),
	)
}

// projectPageListing serves a listing of one kind of a project's records
// read by list, with the parameters of projectPageParams.
func projectPageListing[T any](s *server, list func(context.Context, oltp.DBTX, oltp.ProjectPage) ([]T, int, error)) readFunc {
	return func(r *request) (any, error) {
		p, err := s.projectForRead(r)
		if err != nil {
			return nil, err
		}
		limit, offset := r.query.page()
		page, total, err := list(r.Context(), s.pool, oltp.ProjectPage{
			OrganizationID: r.organizationID, ProjectID: p.ID,
			Descending: r.query.string("sortOrder") == "desc",
			Limit:      limit, Offset: offset,
		})
		if err != nil {
			return nil, err
		}
		return listing[T]{Page: page, Total: total, Limit: limit, Offset: offset}, nil
	}
}

// projectItemRead serves the read of one item of the path's project, such
// as a cluster or a competitor: the path parameter param holds its id, and
// a malformed id is notFound like an unknown one.
func projectItemRead[T any](s *server, param string, notFound sightline.Code,
	get func(ctx context.Context, db oltp.DBTX, organizationID, projectID, id uuid.UUID) (T, error)) readFunc {
	return func(r *request) (any, error) {
		p, err := s.projectForRead(r)
		if err != nil {
			return nil, err
		}
		id, err := r.pathUUID(param, notFound)
		if err != nil {
			return nil, err
		}
		return get(r.Context(), s.pool, r.organizationID, p.ID, id)
	}
}
