package api

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/sightline/sightline"
	"github.com/sightline/sightline/oltp"
)

// Organization create, profile update, archive and restore are confirmed
// writes (spec 5.4): each needs the token of a preview of the same action,
// organization, body and API key in X-Service-Confirmation. The token is
// checked and used up inside the write's transaction, after the body is
// validated and before anything is written; an operation refused later
// (status transition, changed effects) rolls the token's use back with the
// rest. A retry under the same Idempotency-Key replays the stored answer
// without presenting the token again.
//
// Decisions where the spec is silent:
//   - Effects are applied synchronously in the write's transaction, so a 200
//     means the archive cascade (or the restore) has completed, and a created
//     organization's owner membership exists when the 201 is sent.
//   - A create without a name is named defaultOrganizationName.
//   - An archived organization's profile is read-only (409
//     project_is_archived); restore it first.
//   - Names are trimmed, then have 3 to 100 characters and no control
//     characters. description has at most 1000 characters, no control
//     characters other than tab and line breaks, and an empty one is stored
//     as null; contactEmail at most 254.

// confirmationHeader carries the token of a confirmed write.
const confirmationHeader = "X-Service-Confirmation"

// defaultOrganizationName names an organization created without a name.
const defaultOrganizationName = "Untitled organization"

const confirmedWriteConflicts = "confirmation_invalid (unknown token, or issued for another action, organization, body or API key), " +
	"confirmation_expired (older than five minutes), confirmation_used (single use), confirmation_effects_changed " +
	"(the effects, or the organization, changed since the preview: request a new one)."

const confirmationRequired = "confirmation_required: no X-Service-Confirmation header. This refusal is not stored under " +
	"the Idempotency-Key: the same key can be sent again with the token."

// handleConfirmed mounts a confirmed write and documents its header.
func (s *server) handleConfirmed(rt route) {
	if rt.errors == nil {
		rt.errors = map[int]string{}
	}
	rt.errors[http.StatusConflict] = strings.TrimSpace(rt.errors[http.StatusConflict] + " " + confirmedWriteConflicts)
	rt.errors[http.StatusPreconditionRequired] = confirmationRequired
	s.handle(rt)
	s.doc.Paths.Value(rt.pattern).GetOperation(rt.method).AddParameter(
		openapi3.NewHeaderParameter(confirmationHeader).WithRequired(true).WithSchema(stringSchema()).
			WithDescription("confirmation.token from POST /api/v1/organization-operation-previews for this action, " +
				"organization and body, previewed with the same API key; single use, valid five minutes."))
}

// claimConfirmation checks the request's token against the operation it
// comes with and uses it up, returning the effects digest it was issued for.
func claimConfirmation(r *request, tx pgx.Tx, action string, organizationID uuid.UUID, body []byte) ([]byte, error) {
	token := strings.TrimSpace(r.Header.Get(confirmationHeader))
	if token == "" {
		return nil, sightline.Errorf(sightline.CodeConfirmationRequired,
			"This operation needs a confirmation: POST /api/v1/organization-operation-previews, then send its confirmation.token in %s.",
			confirmationHeader)
	}
	bodyHash, err := canonicalBodyHash(body)
	if err != nil {
		return nil, err
	}
	return oltp.ClaimConfirmation(r.Context(), tx, token, oltp.ConfirmationBinding{
		Action: action, OrganizationID: organizationID, BodyHash: bodyHash, APIKeyID: r.key.ID,
	})
}

// Organization name bounds (spec 2.7), counted once the name is trimmed.
const (
	organizationNameMin = 3
	organizationNameMax = 100
)

// organizationName trims a name and checks it, reporting under "name".
func organizationName(raw string, errs sightline.ValidationErrors) string {
	if n := utf8.RuneCountInString(strings.TrimSpace(raw)); n < organizationNameMin {
		errs.Add("name", sightline.DetailOutOfRange, "must have at least %d characters once trimmed; it has %d",
			organizationNameMin, n)
		return strings.TrimSpace(raw)
	}
	return oltp.NormalizeName("name", raw, organizationNameMax, errs)
}

// organizationCreateBody is the body of POST /api/v1/organizations.
type organizationCreateBody struct {
	Name *string `json:"name"`
}

func (b *organizationCreateBody) normalize(errs sightline.ValidationErrors) {
	if b.Name != nil {
		*b.Name = organizationName(*b.Name, errs)
	}
}

func (s *server) organizationCreateSchema() *openapi3.Schema {
	return s.component("OrganizationCreate", object(props{
		"name": described(stringSchema().WithMinLength(3).WithMaxLength(100),
			"Optional. Trimmed, then 3 to 100 characters without control characters. Without it the organization is "+
				"named \""+defaultOrganizationName+"\"."),
	}))
}

// decodeOrganizationCreate validates a create body and returns the name.
func decodeOrganizationCreate(body []byte) (string, error) {
	in, err := decodeNormalized[organizationCreateBody](body)
	if err != nil {
		return "", err
	}
	if in.Name == nil {
		return defaultOrganizationName, nil
	}
	return *in.Name, nil
}

// organizationPatchBody is the body of PATCH /api/v1/organizations/{id}.
// Which fields are present, and which are null, is read separately.
type organizationPatchBody struct {
	Name         *string `json:"name"`
	Description  *string `json:"description" validate:"omitnil,max=1000"`
	ContactEmail *string `json:"contactEmail" validate:"omitnil,email,max=254"`
}

func (b *organizationPatchBody) normalize(errs sightline.ValidationErrors) {
	if b.Name != nil {
		*b.Name = organizationName(*b.Name, errs)
	}
	if b.Description != nil && strings.ContainsFunc(*b.Description, func(r rune) bool {
		return unicode.IsControl(r) && r != '\t' && r != '\n' && r != '\r'
	}) {
		errs.Add("description", sightline.DetailInvalidValue, "must not contain control characters other than tab and line breaks")
	}
}

func (s *server) organizationPatchSchema() *openapi3.Schema {
	return s.component("OrganizationPatch", described(object(props{
		"name": described(stringSchema().WithMinLength(3).WithMaxLength(100),
			"Trimmed, then 3 to 100 characters without control characters; cannot be cleared."),
		"description": described(nullable(stringSchema().WithMaxLength(1000)),
			"No control characters other than tab and line breaks. null or an empty string clears it."),
		"contactEmail": described(nullable(stringSchema().WithFormat("email").WithMaxLength(254)), "null clears it."),
	}), "An omitted field is left unchanged; null clears it. imageUrl is read-only and refused."))
}

// decodeOrganizationPatch validates a patch body into a store patch.
func decodeOrganizationPatch(body []byte) (oltp.OrganizationPatch, error) {
	in, err := decodeNormalized[organizationPatchBody](body)
	errs, err := organizationValidationErrors(err)
	if err != nil {
		return oltp.OrganizationPatch{}, err
	}
	var present map[string]json.RawMessage
	_ = json.Unmarshal(body, &present) // valid JSON: decodeBody checked
	isNull := func(name string) bool {
		v, ok := present[name]
		return ok && strings.TrimSpace(string(v)) == "null"
	}
	if _, ok := errs["imageUrl"]; ok {
		errs["imageUrl"] = nil
		errs.Add("imageUrl", sightline.DetailUnknownField, "is read-only: the image cannot be written through this API")
	}
	if isNull("name") {
		errs.Add("name", sightline.DetailInvalidType, "must not be null: an organization always has a name")
	}
	if err := errs.Err(); err != nil {
		return oltp.OrganizationPatch{}, err
	}
	change := func(name string, v *string) oltp.TextChange {
		_, set := present[name]
		return oltp.TextChange{Set: set, Value: v}
	}
	if in.Description != nil && *in.Description == "" {
		in.Description = nil
	}
	return oltp.OrganizationPatch{
		Name:         change("name", in.Name),
		Description:  change("description", in.Description),
		ContactEmail: change("contactEmail", in.ContactEmail),
	}, nil
}

// organizationValidationErrors returns the field problems of a decoding
// error, so that rules the validator cannot express can join them, or the
// error itself when it is not a validation failure.
func organizationValidationErrors(err error) (sightline.ValidationErrors, error) {
	if err == nil {
		return sightline.ValidationErrors{}, nil
	}
	var e *sightline.Error
	if errors.As(err, &e) && e.Code == sightline.CodeValidation {
		return sightline.ValidationErrors(e.Details), nil
	}
	return nil, err
}

func (s *server) handleCreateOrganization(r *request, tx pgx.Tx) (int, any, error) {
	if !r.key.AllOrganizations {
		return 0, nil, sightline.Errorf(sightline.CodeCapabilityRequired,
			"Creating an organization needs an API key scoped to all organizations.")
	}
	name, err := decodeOrganizationCreate(r.body)
	if err != nil {
		return 0, nil, err
	}
	declared, err := claimConfirmation(r, tx, oltp.ActionOrganizationCreate, uuid.Nil, r.body)
	if err != nil {
		return 0, nil, err
	}
	effects := &oltp.CreateEffects{Name: name, OwnerUserID: r.key.User.ID}
	if err := oltp.CheckEffects(declared, oltp.EffectsDigest(nil, effects)); err != nil {
		return 0, nil, err
	}
	org, err := oltp.InsertOrganization(r.Context(), tx, name, r.key.User.ID)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusCreated, org, nil
}

func (s *server) handleUpdateOrganization(r *request, tx pgx.Tx) (int, any, error) {
	patch, err := decodeOrganizationPatch(r.body)
	if err != nil {
		return 0, nil, err
	}
	declared, err := claimConfirmation(r, tx, oltp.ActionOrganizationUpdate, r.organizationID, r.body)
	if err != nil {
		return 0, nil, err
	}
	org, err := oltp.LockOrganization(r.Context(), tx, r.organizationID)
	if err != nil {
		return 0, nil, err
	}
	effects, err := oltp.PlanUpdate(org, patch)
	if err != nil {
		return 0, nil, err
	}
	if err := oltp.CheckEffects(declared, oltp.EffectsDigest(org, effects)); err != nil {
		return 0, nil, err
	}
	updated, err := oltp.UpdateOrganization(r.Context(), tx, r.organizationID, patch)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, updated, nil
}

// handleArchiveOrganization and handleRestoreOrganization run a confirmed
// change of the organization's status.
var (
	handleArchiveOrganization = statusTransition(oltp.ActionOrganizationArchive, oltp.PlanArchive, oltp.ApplyArchive)
	handleRestoreOrganization = statusTransition(oltp.ActionOrganizationRestore, oltp.PlanRestore, oltp.ApplyRestore)
)

// statusTransition is a confirmed change of status: it plans the change
// with the organization locked, claims the confirmation of action, checks
// the effects against the preview's and applies them. A transition the
// status does not allow is 409 before any confirmation is asked for
// (spec 4.5: 409 for a disallowed transition); its preview answers with
// nothing to do, so the client meets the refusal here.
func statusTransition[E oltp.Effects](action string,
	plan func(context.Context, oltp.DBTX, uuid.UUID, bool) (*oltp.Organization, E, error),
	apply func(context.Context, pgx.Tx, uuid.UUID, E) (*oltp.Organization, error)) writeFunc {
	return func(r *request, tx pgx.Tx) (int, any, error) {
		org, effects, err := plan(r.Context(), tx, r.organizationID, true)
		if err != nil {
			return 0, nil, err
		}
		declared, err := claimConfirmation(r, tx, action, r.organizationID, nil)
		if err != nil {
			return 0, nil, err
		}
		if err := oltp.CheckEffects(declared, oltp.EffectsDigest(org, effects)); err != nil {
			return 0, nil, err
		}
		changed, err := apply(r.Context(), tx, r.organizationID, effects)
		if err != nil {
			return 0, nil, err
		}
		return http.StatusOK, changed, nil
	}
}

// organizationWriteRoutes lists the confirmed writes of organizations (spec 4.5).
func (s *server) organizationWriteRoutes() {
	s.handleConfirmed(route{
		method: http.MethodPost, pattern: "/api/v1/organizations", id: "createOrganization", tag: "organizations",
		summary: "Create an organization, with the key's user as its owner",
		description: "Confirmed write: preview organization.create with the same body first. The owner membership is " +
			"created in the same transaction, so the organization can be read at once. The body is optional: none is {}.",
		capability: sightline.CapabilityOrganizationManage,
		body:       s.organizationCreateSchema(), bodyOptional: true, status: http.StatusCreated, response: s.organizationSchema(),
		errors: map[int]string{
			403: "api_key_capability_required also when the key is not scoped to all organizations.",
		},
		writeFunc: s.handleCreateOrganization,
	})
	s.handleConfirmed(route{
		method: http.MethodPatch, pattern: "/api/v1/organizations/{organizationId}", id: "updateOrganization", tag: "organizations",
		summary: "Change an organization's name, description or contact email",
		description: "Confirmed write: preview organization.update with the same body first; the token is bound to the " +
			"organization's values at preview time. An omitted field is unchanged, null clears it (name cannot be cleared); " +
			"imageUrl is read-only. An archived organization's profile cannot be changed.",
		role: sightline.RoleOwner, capability: sightline.CapabilityOrganizationManage,
		body: s.organizationPatchSchema(), response: s.organizationSchema(),
		errors:    map[int]string{409: "project_is_archived: the organization is archived; restore it first."},
		writeFunc: s.handleUpdateOrganization,
	})
	s.handleConfirmed(route{
		method: http.MethodPost, pattern: "/api/v1/organizations/{organizationId}/archive", id: "archiveOrganization", tag: "organizations",
		summary: "Archive an organization with its active projects",
		description: "Confirmed write: preview organization.archive first. In one transaction, active projects are archived " +
			"(recorded as archived by the organization), pending invitations cancelled and the running subscription set " +
			"to end with its current billing period; the 200 is sent once all of it is done. No body.",
		role: sightline.RoleOwner, capability: sightline.CapabilityOrganizationManage,
		response:  s.organizationSchema(),
		errors:    map[int]string{409: "status_transition_not_allowed: the organization is already archived."},
		writeFunc: handleArchiveOrganization,
	})
	s.handleConfirmed(route{
		method: http.MethodPost, pattern: "/api/v1/organizations/{organizationId}/restore", id: "restoreOrganization", tag: "organizations",
		summary: "Restore an archived organization",
		description: "Confirmed write: preview organization.restore first. Reinstates the projects the organization archive " +
			"archived (not those archived on their own) and withdraws the subscription cancellation the archive scheduled; " +
			"invitations it cancelled stay cancelled. No body.",
		role: sightline.RoleOwner, capability: sightline.CapabilityOrganizationManage,
		response:  s.organizationSchema(),
		errors:    map[int]string{409: "status_transition_not_allowed: the organization is not archived."},
		writeFunc: handleRestoreOrganization,
	})
}
