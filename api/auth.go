package api

import (
	"context"
	"crypto/sha256"
	"errors"
	"net/http"
	"strings"

	"github.com/google/uuid"

	"github.com/sightline/sightline"
	"github.com/sightline/sightline/oltp"
)

// authenticate resolves the bearer token to a live key. Keys are looked up
// on every request (never cached), so a revoked key fails on the next one.
// A client address with too many failed keys in the window is refused
// before any lookup, except for a key that authenticated lately
// (authFailureLimiter): a client that mistyped a key keeps working with
// its good one.
func (s *server) authenticate(ctx context.Context, r *http.Request) (*oltp.APIKey, error) {
	scheme, token, ok := strings.Cut(r.Header.Get("Authorization"), " ")
	token = strings.TrimSpace(token)
	if !ok || !strings.EqualFold(scheme, "Bearer") || token == "" {
		return nil, sightline.Errorf(sightline.CodeUnauthorized, "An API key is required: send Authorization: Bearer <key>.")
	}
	address, digest := clientAddress(r.RemoteAddr), sha256.Sum256([]byte(token))
	if err := s.authFailures.allow(address, digest); err != nil {
		return nil, err
	}
	key, err := oltp.LookupKey(ctx, s.pool, token)
	switch {
	case errors.Is(err, oltp.ErrKeyNotFound):
		s.authFailures.fail(address, digest)
		return nil, sightline.Errorf(sightline.CodeUnauthorized, "The API key is invalid or revoked.")
	case err == nil:
		s.authFailures.succeed(digest)
	}
	return key, err
}

// authorize checks what the route needs beyond a valid key: the capability,
// and on organization routes a live, active membership in an organization
// the key's scope covers, with at least the route's role. A key only ever
// narrows its owner's access, so a member whose role is too low for the
// operation is refused as a key without the capability would be.
func (s *server) authorize(ctx context.Context, rt *route, req *request) error {
	if !req.key.Has(rt.capability) {
		return sightline.Errorf(sightline.CodeCapabilityRequired, "This API key lacks the %q capability.", rt.capability)
	}
	if rt.role == "" {
		return nil
	}
	orgID, err := req.pathUUID("organizationId", sightline.CodeOrganizationNotFound)
	if err != nil {
		return err
	}
	role, err := memberRoleAtLeast(ctx, s.pool, req.key, orgID, rt.role)
	if err != nil {
		return err
	}
	req.organizationID, req.role = orgID, role
	return nil
}

// memberRoleAtLeast checks that key's scope covers the organization and
// that the key's owner is a member holding at least role there, and
// answers the owner's role. An organization out of the key's scope, or
// without the owner as a member, is not found.
func memberRoleAtLeast(ctx context.Context, db oltp.DBTX, key *oltp.APIKey, organizationID uuid.UUID, role sightline.Role) (sightline.Role, error) {
	if !key.Covers(organizationID) {
		return "", sightline.Errorf(sightline.CodeOrganizationNotFound, "Organization not found.")
	}
	held, ok, err := oltp.MemberRole(ctx, db, organizationID, key.User.ID)
	if err != nil {
		return "", err
	}
	if !ok {
		return "", sightline.Errorf(sightline.CodeOrganizationNotFound, "Organization not found.")
	}
	if !held.AtLeast(role) {
		return "", sightline.Errorf(sightline.CodeCapabilityRequired,
			"This operation needs the %s role in the organization; the key's owner is %s.", role, held)
	}
	return held, nil
}
