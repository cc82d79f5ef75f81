package api

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"net/http"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/sightline/sightline"
	"github.com/sightline/sightline/oltp"
)

// POST /api/v1/organization-operation-previews reports what a confirmed
// organization operation would do and issues its confirmation token. It is
// authorised as the operation it previews, and refuses what the operation
// would refuse for its body (validation, an archived organization's
// profile). A disallowed status transition (archive of an archived
// organization, restore of an active one) is previewed with nothing to do:
// the contract puts that 409 on the operation itself, which answers it
// before asking for the token, so a client's preview-then-confirm flow
// meets it there. It is a write: the token is stored, and a retry under the
// same Idempotency-Key replays the same token.

var previewActions = []string{
	oltp.ActionOrganizationCreate, oltp.ActionOrganizationUpdate,
	oltp.ActionOrganizationArchive, oltp.ActionOrganizationRestore,
}

// previewBody is the preview request.
type previewBody struct {
	Action         string           `json:"action" required:"true" validate:"previewAction"`
	OrganizationID *uuid.UUID       `json:"organizationId"`
	Body           *json.RawMessage `json:"body"` // null is absent
}

// previewAnswer is the preview response.
type previewAnswer struct {
	Confirmation *oltp.Confirmation `json:"confirmation"`
	Effects      oltp.Effects       `json:"effects"`
}

func (s *server) previewRequestSchema() *openapi3.Schema {
	return s.component("OrganizationOperationPreviewRequest", object(props{
		"action": enumOf(previewActions...),
		"organizationId": described(uuidSchema(),
			"Required for organization.update, organization.archive and organization.restore; absent for organization.create."),
		"body": described(&openapi3.Schema{Nullable: true, AnyOf: openapi3.SchemaRefs{
			schemaRef(s.organizationCreateSchema()), schemaRef(s.organizationPatchSchema()),
		}}, "The exact body the operation will be sent with: required for organization.create and organization.update, "+
			"absent (or null) for archive and restore. The token is bound to it (compared as canonical JSON)."),
	}, "action"))
}

func (s *server) previewResponseSchema() *openapi3.Schema {
	project := object(props{"id": uuidSchema(), "name": stringSchema()}, "id", "name")
	effects := []*openapi3.Schema{
		s.component("OrganizationCreateEffects", described(object(props{
			"name":        stringSchema(),
			"ownerUserId": described(uuidSchema(), "The key's user, who becomes the organization's owner."),
		}, "name", "ownerUserId"), "organization.create: the organization to be created.")),
		s.component("OrganizationUpdateEffects", described(object(props{
			"changes": arrayOf(object(props{
				"field": enumOf("name", "description", "contactEmail"),
				"from":  nullable(stringSchema()),
				"to":    nullable(stringSchema()),
			}, "field", "from", "to")),
		}, "changes"), "organization.update: the fields whose value changes; empty when nothing would change.")),
		s.component("OrganizationArchiveEffects", described(object(props{
			"projectsToArchive": described(arrayOf(project), "Active projects, archived by the organization."),
			"invitationsToCancel": described(arrayOf(object(props{
				"id": uuidSchema(), "email": stringSchema(), "role": enumFrom(sightline.Roles),
			}, "id", "email", "role")), "Pending, unexpired invitations; a restore does not reinstate them."),
			"subscriptionCancelAt": described(nullable(timeSchema()),
				"End of the current billing period, when the running subscription will be cancelled; "+
					"null when there is no running contract or a cancellation is already scheduled."),
		}, "projectsToArchive", "invitationsToCancel", "subscriptionCancelAt"), "organization.archive.")),
		s.component("OrganizationRestoreEffects", described(object(props{
			"projectsToRestore": described(arrayOf(project),
				"Projects the organization archive archived; projects archived on their own stay archived."),
			"abortedSubscriptionCancelAt": described(nullable(timeSchema()),
				"The cancellation the archive scheduled, which the restore withdraws; null when none is left to withdraw."),
		}, "projectsToRestore", "abortedSubscriptionCancelAt"), "organization.restore; cancelled invitations are not reinstated.")),
	}
	oneOf := openapi3.SchemaRefs{}
	for _, e := range effects {
		oneOf = append(oneOf, schemaRef(e))
	}
	return s.component("OrganizationOperationPreview", object(props{
		"confirmation": object(props{
			"token":     described(stringSchema(), "Send it in X-Service-Confirmation with the operation."),
			"expiresAt": timeSchema(),
		}, "token", "expiresAt"),
		"effects": described(&openapi3.Schema{OneOf: oneOf},
			"What the operation will do. The token is bound to these effects and to the organization's current state."),
	}, "confirmation", "effects"))
}

// previewRequest is a decoded, validated preview.
type previewRequest struct {
	action         string
	organizationID uuid.UUID // uuid.Nil for create
	body           json.RawMessage
	createName     string
	patch          oltp.OrganizationPatch
}

func decodePreview(raw []byte) (*previewRequest, error) {
	in, err := decodeBody[previewBody](raw)
	if err != nil {
		return nil, err
	}
	p := &previewRequest{action: in.Action}
	if in.Body != nil {
		p.body = *in.Body
	}
	if in.OrganizationID != nil {
		p.organizationID = *in.OrganizationID
	}
	errs := sightline.ValidationErrors{}
	hasBody := len(p.body) > 0
	switch in.Action {
	case oltp.ActionOrganizationCreate:
		if in.OrganizationID != nil {
			errs.Add("organizationId", sightline.DetailInvalidValue, "must be absent for %s", in.Action)
		}
	default:
		if in.OrganizationID == nil {
			errs.Add("organizationId", sightline.DetailMissingField, "is required for %s", in.Action)
		}
	}
	switch in.Action {
	case oltp.ActionOrganizationCreate, oltp.ActionOrganizationUpdate:
		if !hasBody {
			errs.Add("body", sightline.DetailMissingField, "is required for %s: the body the operation will be sent with", in.Action)
			break
		}
		var err error
		if in.Action == oltp.ActionOrganizationCreate {
			p.createName, err = decodeOrganizationCreate(p.body)
		} else {
			p.patch, err = decodeOrganizationPatch(p.body)
		}
		var e *sightline.Error
		if errors.As(err, &e) && e.Code == sightline.CodeValidation {
			for field, problems := range e.Details {
				name := "body." + field
				if field == "body" {
					name = "body"
				}
				errs[name] = append(errs[name], problems...)
			}
		} else if err != nil {
			return nil, err
		}
	default:
		if hasBody {
			errs.Add("body", sightline.DetailInvalidValue, "must be absent: %s takes no body", in.Action)
		}
	}
	if err := errs.Err(); err != nil {
		return nil, err
	}
	return p, nil
}

func (s *server) handlePreviewOrganizationOperation(r *request, tx pgx.Tx) (int, any, error) {
	ctx := r.Context()
	p, err := decodePreview(r.body)
	if err != nil {
		return 0, nil, err
	}
	if err := s.authorizePreview(r, tx, p); err != nil {
		return 0, nil, err
	}
	var org *oltp.Organization
	var effects oltp.Effects
	switch p.action {
	case oltp.ActionOrganizationCreate:
		effects = &oltp.CreateEffects{Name: p.createName, OwnerUserID: r.key.User.ID}
	case oltp.ActionOrganizationUpdate:
		if org, err = oltp.GetOrganization(ctx, tx, p.organizationID); err == nil {
			effects, err = oltp.PlanUpdate(org, p.patch)
		}
	case oltp.ActionOrganizationArchive:
		org, effects, err = oltp.PlanArchive(ctx, tx, p.organizationID, false)
		if sightline.ErrorCode(err) == sightline.CodeStatusTransitionNotAllowed {
			org, err = oltp.GetOrganization(ctx, tx, p.organizationID)
			effects = &oltp.ArchiveEffects{ProjectsToArchive: []oltp.ProjectRef{}, InvitationsToCancel: []oltp.InvitationRef{}}
		}
	case oltp.ActionOrganizationRestore:
		org, effects, err = oltp.PlanRestore(ctx, tx, p.organizationID, false)
		if sightline.ErrorCode(err) == sightline.CodeStatusTransitionNotAllowed {
			org, err = oltp.GetOrganization(ctx, tx, p.organizationID)
			effects = &oltp.RestoreEffects{ProjectsToRestore: []oltp.ProjectRef{}}
		}
	}
	if err != nil {
		return 0, nil, err
	}
	bodyHash, err := canonicalBodyHash(p.body)
	if err != nil {
		return 0, nil, err
	}
	confirmation, err := oltp.CreateConfirmation(ctx, tx, oltp.ConfirmationBinding{
		Action: p.action, OrganizationID: p.organizationID, BodyHash: bodyHash, APIKeyID: r.key.ID,
	}, oltp.EffectsDigest(org, effects))
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, previewAnswer{Confirmation: confirmation, Effects: effects}, nil
}

// authorizePreview applies the operation's own authorisation: creating
// needs a key scoped to all organizations; the others need the organization
// in the key's scope (else 404, as for a path id) and the owner role (403).
// The pipeline has already checked organization:manage.
func (s *server) authorizePreview(r *request, tx pgx.Tx, p *previewRequest) error {
	if p.action == oltp.ActionOrganizationCreate {
		if !r.key.AllOrganizations {
			return sightline.Errorf(sightline.CodeCapabilityRequired,
				"Creating an organization needs an API key scoped to all organizations.")
		}
		return nil
	}
	_, err := memberRoleAtLeast(r.Context(), tx, r.key, p.organizationID, sightline.RoleOwner)
	return err
}

// canonicalBodyHash hashes a JSON body in canonical form (object keys
// sorted, no insignificant whitespace), so that the preview's body and the
// operation's match however they were serialised. No body hashes as empty.
func canonicalBodyHash(body []byte) ([]byte, error) {
	var canonical []byte
	if len(bytes.TrimSpace(body)) > 0 {
		dec := json.NewDecoder(bytes.NewReader(body))
		dec.UseNumber()
		var v any
		if err := dec.Decode(&v); err != nil {
			return nil, sightline.Errorf(sightline.CodeBadRequest, "The request body is not valid JSON.")
		}
		var err error
		if canonical, err = marshal(v); err != nil {
			return nil, err
		}
	}
	sum := sha256.Sum256(canonical)
	return sum[:], nil
}

// previewRoutes lists the preview that issues the confirmation token of an
// organization write (spec 4.5, 5.4).
func (s *server) previewRoutes() {
	s.handle(route{
		method: http.MethodPost, pattern: "/api/v1/organization-operation-previews", id: "previewOrganizationOperation",
		tag: "organizations", summary: "Preview a confirmed organization operation and get its confirmation token",
		description: "Reports what organization.create, organization.update, organization.archive or organization.restore " +
			"would do and issues a token to send in X-Service-Confirmation with that operation: single use, valid five " +
			"minutes, bound to the action, organization, body, these effects, the organization's current state and this " +
			"API key. Authorised as the operation itself (create: a key scoped to all organizations; others: owner of " +
			"an organization in the key's scope) and refused as it would be for its body; a disallowed status " +
			"transition is previewed with nothing to do and refused by the operation. Like every write it takes an Idempotency-Key; a retry replays the same token.",
		capability: sightline.CapabilityOrganizationManage,
		body:       s.previewRequestSchema(), response: s.previewResponseSchema(),
		errors: map[int]string{
			403: "api_key_capability_required also when the owner's role is below owner, or, for organization.create, the key is not scoped to all organizations.",
			404: "organization_not_found: organizationId names no organization the key can see.",
			409: "project_is_archived (update of an archived organization). A disallowed status transition " +
				"(archive of an archived or restore of an active organization) is previewed with empty effects; the " +
				"operation answers it 409 status_transition_not_allowed.",
		},
		writeFunc: s.handlePreviewOrganizationOperation,
	})
}
