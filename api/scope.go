package api

import (
	"github.com/jackc/pgx/v5"

	"github.com/sightline/sightline"
	"github.com/sightline/sightline/oltp"
)

// projectForRead loads the path's project for a read; a malformed id
// answers project_not_found like an unknown one.
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
