package api

import (
	"net/http"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/google/uuid"

	"github.com/sightline/sightline"
	"github.com/sightline/sightline/oltp"
)

type meResponse struct {
	User   oltp.User `json:"user"`
	APIKey meKey     `json:"apiKey"`
}

type meKey struct {
	ID           uuid.UUID              `json:"id"`
	Name         string                 `json:"name"`
	Capabilities []sightline.Capability `json:"capabilities"`
	// OrganizationScope is "all" or the list of organization ids.
	OrganizationScope any `json:"organizationScope"`
}

func (s *server) handleMe(r *request) (any, error) {
	k := r.key
	var scope any = "all"
	if !k.AllOrganizations {
		scope = k.OrganizationIDs
	}
	return meResponse{
		User:   k.User,
		APIKey: meKey{ID: k.ID, Name: k.Name, Capabilities: k.Capabilities, OrganizationScope: scope},
	}, nil
}

func (s *server) meSchema() *openapi3.Schema {
	return s.component("Me", object(props{
		"user": object(props{
			"id":    uuidSchema(),
			"email": stringSchema().WithFormat("email"),
			"name":  nullable(stringSchema()),
		}, "id", "email", "name"),
		"apiKey": object(props{
			"id":           uuidSchema(),
			"name":         stringSchema(),
			"capabilities": arrayOf(enumFrom(sightline.Capabilities)),
			"organizationScope": described(&openapi3.Schema{OneOf: openapi3.SchemaRefs{
				schemaRef(enumOf("all")),
				schemaRef(arrayOf(uuidSchema())),
			}}, `"all" (including organizations joined later) or the organization ids the key is limited to.`),
		}, "id", "name", "capabilities", "organizationScope"),
	}, "user", "apiKey"))
}

// meRoutes lists the signed-in key's operation (spec 4.1).
func (s *server) meRoutes() {
	s.handle(route{
		method: http.MethodGet, pattern: "/api/v1/me", id: "getMe", tag: "account",
		summary:  "The user the API key belongs to, and the key's capabilities and scope",
		response: s.meSchema(),
		read:     s.handleMe,
	})
}
