package api

import (
	"context"
	"encoding/json"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/sightline/sightline"
	"github.com/sightline/sightline/oltp"
)

// Helpers of the organization write tests.

// organizationsPreview posts a preview.
func organizationsPreview(f *fixture, key, body string) response {
	f.t.Helper()
	return f.do(call{method: "POST", path: "/api/v1/organization-operation-previews", key: key, body: body,
		header: map[string]string{"Idempotency-Key": uuid.NewString()}})
}

// organizationsToken previews and returns the token and the declared effects.
func organizationsToken(t *testing.T, f *fixture, key, body string) (string, map[string]any) {
	t.Helper()
	r := organizationsPreview(f, key, body)
	if r.status != http.StatusOK {
		t.Fatalf("preview %s: %d %s", body, r.status, r.body)
	}
	m := r.json(t)
	token, _ := m["confirmation"].(map[string]any)["token"].(string)
	if token == "" {
		t.Fatalf("no token in %s", r.body)
	}
	return token, m["effects"].(map[string]any)
}

// organizationsWrite sends a confirmed write; token "" sends no confirmation
// and idempotencyKey "" a fresh key.
func organizationsWrite(f *fixture, method, path, key, body, token, idempotencyKey string) response {
	f.t.Helper()
	if idempotencyKey == "" {
		idempotencyKey = uuid.NewString()
	}
	h := map[string]string{"Idempotency-Key": idempotencyKey}
	if token != "" {
		h["X-Service-Confirmation"] = token
	}
	return f.do(call{method: method, path: path, key: key, body: body, header: h})
}

func organizationsPath(org uuid.UUID, suffix string) string {
	return "/api/v1/organizations/" + org.String() + suffix
}

func organizationsAction(action string, org uuid.UUID) string {
	return `{"action":"` + action + `","organizationId":"` + org.String() + `"}`
}

func organizationsExec(t *testing.T, f *fixture, sql string, args ...any) {
	t.Helper()
	if _, err := f.pool.Exec(context.Background(), sql, args...); err != nil {
		t.Fatal(err)
	}
}

func organizationsScalar[T any](t *testing.T, f *fixture, sql string, args ...any) T {
	t.Helper()
	var v T
	if err := f.pool.QueryRow(context.Background(), sql, args...).Scan(&v); err != nil {
		t.Fatal(err)
	}
	return v
}

// organizationsInvitation inserts an invitation and returns its id.
func organizationsInvitation(t *testing.T, f *fixture, org uuid.UUID, status string, expiresIn time.Duration) uuid.UUID {
	t.Helper()
	id := uuid.Must(uuid.NewV7())
	organizationsExec(t, f, `
		INSERT INTO invitations (id, organization_id, email, role, status, expires_at)
		VALUES ($1, $2, $3, 'viewer', $4, now() + make_interval(secs => $5))`,
		id, org, "invitee-"+id.String()[:8]+"@example.com", status, expiresIn.Seconds())
	return id
}

// organizationsArchivedProject inserts a project archived on its own.
func organizationsArchivedProject(t *testing.T, f *fixture, org uuid.UUID, name string) uuid.UUID {
	t.Helper()
	id := uuid.Must(uuid.NewV7())
	organizationsExec(t, f, `
		INSERT INTO projects (id, organization_id, name, status, archived_by, archived_at)
		VALUES ($1, $2, $3, 'archived', 'caller', now())`, id, org, name)
	return id
}

func organizationsIDs(t *testing.T, list any) []string {
	t.Helper()
	var ids []string
	for _, item := range list.([]any) {
		ids = append(ids, item.(map[string]any)["id"].(string))
	}
	return ids
}

func TestOrganizationsCreate(t *testing.T) {
	t.Parallel()
	f := setup(t)
	owner, _ := f.owner()
	create := func(key, body, token, idem string) response {
		return organizationsWrite(f, "POST", "/api/v1/organizations", key, body, token, idem)
	}

	t.Run("preview then create; the creator owns it at once", func(t *testing.T) {
		token, effects := organizationsToken(t, f, owner.key,
			`{"action":"organization.create","body":{"name":"Northwind"}}`)
		if effects["name"] != "Northwind" || effects["ownerUserId"] != owner.userID.String() {
			t.Fatalf("effects %v", effects)
		}
		r := create(owner.key, "{\n  \"name\" : \"Northwind\"\n}", token, "")
		if r.status != http.StatusCreated {
			t.Fatalf("%d %s", r.status, r.body)
		}
		org := r.json(t)
		if org["name"] != "Northwind" || org["status"] != "active" || org["description"] != nil {
			t.Fatalf("created %v", org)
		}
		got := f.do(call{method: "GET", path: "/api/v1/organizations/" + org["id"].(string), key: owner.key})
		if got.status != http.StatusOK {
			t.Fatalf("read after create: %d %s", got.status, got.body)
		}
		role := organizationsScalar[string](t, f, `SELECT role FROM memberships WHERE organization_id = $1 AND user_id = $2 AND status = 'active'`,
			org["id"], owner.userID)
		if role != "owner" {
			t.Fatalf("creator's role %q", role)
		}
	})

	t.Run("without a name", func(t *testing.T) {
		token, effects := organizationsToken(t, f, owner.key, `{"action":"organization.create","body":{}}`)
		if effects["name"] != defaultOrganizationName {
			t.Fatalf("effects %v", effects)
		}
		r := create(owner.key, `{}`, token, "")
		if r.status != http.StatusCreated || r.json(t)["name"] != defaultOrganizationName {
			t.Fatalf("%d %s", r.status, r.body)
		}
		// The body may be left out: it is {}.
		token, _ = organizationsToken(t, f, owner.key, `{"action":"organization.create","body":{}}`)
		if r := create(owner.key, ``, token, ""); r.status != http.StatusCreated || r.json(t)["name"] != defaultOrganizationName {
			t.Fatalf("without a body: %d %s", r.status, r.body)
		}
	})

	t.Run("replay answers from the record without using the token again", func(t *testing.T) {
		before := organizationsScalar[int](t, f, `SELECT count(*) FROM organizations`)
		token, _ := organizationsToken(t, f, owner.key, `{"action":"organization.create","body":{"name":"Replayed"}}`)
		idem := uuid.NewString()
		first := create(owner.key, `{"name":"Replayed"}`, token, idem)
		second := create(owner.key, `{"name":"Replayed"}`, token, idem)
		if first.status != 201 || string(first.body) != string(second.body) || second.header.Get("Idempotent-Replayed") != "true" {
			t.Fatalf("first %d %s, replay %d %s", first.status, first.body, second.status, second.body)
		}
		if n := organizationsScalar[int](t, f, `SELECT count(*) FROM organizations`); n != before+1 {
			t.Fatalf("%d organizations created", n-before)
		}
		assertError(t, create(owner.key, `{"name":"Replayed"}`, token, ""), 409, sightline.CodeConfirmationUsed)
	})

	t.Run("refusals", func(t *testing.T) {
		_, org := f.owner()
		scopedKey := f.keyFor(owner, []uuid.UUID{org}, sightline.Capabilities...)
		noManage := f.keyFor(owner, nil, sightline.CapabilityWrite)
		other := f.keyFor(owner, nil, sightline.Capabilities...)
		token, _ := organizationsToken(t, f, owner.key, `{"action":"organization.create","body":{"name":"Bound Co"}}`)

		assertError(t, create("", `{"name":"Bound Co"}`, token, ""), 401, sightline.CodeUnauthorized)
		assertError(t, create(noManage.key, `{"name":"Bound Co"}`, token, ""), 403, sightline.CodeCapabilityRequired)
		assertError(t, create(scopedKey.key, `{"name":"Bound Co"}`, token, ""), 403, sightline.CodeCapabilityRequired)
		assertError(t, organizationsPreview(f, scopedKey.key, `{"action":"organization.create","body":{}}`), 403, sightline.CodeCapabilityRequired)
		assertError(t, organizationsPreview(f, noManage.key, `{"action":"organization.create","body":{}}`), 403, sightline.CodeCapabilityRequired)
		assertError(t, create(owner.key, `{"name":"Bound Co"}`, "", ""), 428, sightline.CodeConfirmationRequired)
		assertError(t, create(owner.key, `{"name":"Other Co"}`, token, ""), 409, sightline.CodeConfirmationInvalid)
		assertError(t, create(other.key, `{"name":"Bound Co"}`, token, ""), 409, sightline.CodeConfirmationInvalid)
		// None of the refusals used the token up.
		if r := create(owner.key, `{"name":"Bound Co"}`, token, ""); r.status != 201 {
			t.Fatalf("%d %s", r.status, r.body)
		}
	})

	t.Run("validation", func(t *testing.T) {
		for body, want := range map[string]map[string]string{
			`{"name":"ab"}`:                      {"name": "out_of_range"},
			`{"name":"   "}`:                     {"name": "out_of_range"},
			`{"name":7}`:                         {"name": "invalid_type"},
			`{"name":"Good name","imageUrl":""}`: {"imageUrl": "unknown_field"},
			`{"name":"  ab  "}`:                  {"name": "out_of_range"},
			`{"name":"ab\u0000cd"}`:              {"name": "invalid_value"},
		} {
			r := create(owner.key, body, "", "")
			got := detailCodesOf(t, assertError(t, r, 400, sightline.CodeValidation))
			for field, code := range want {
				if len(got[field]) != 1 || got[field][0] != code {
					t.Errorf("%s: details %v, want %s %s", body, got, field, code)
				}
			}
			p := organizationsPreview(f, owner.key, `{"action":"organization.create","body":`+body+`}`)
			got = detailCodesOf(t, assertError(t, p, 400, sightline.CodeValidation))
			for field, code := range want {
				if len(got["body."+field]) != 1 || got["body."+field][0] != code {
					t.Errorf("preview of %s: details %v, want body.%s %s", body, got, field, code)
				}
			}
		}
		// No body is {}: valid, so it wants its confirmation.
		assertError(t, create(owner.key, "", "", ""), http.StatusPreconditionRequired, sightline.CodeConfirmationRequired)
	})

	t.Run("one token, two concurrent creates: one winner", func(t *testing.T) {
		before := organizationsScalar[int](t, f, `SELECT count(*) FROM organizations`)
		token, _ := organizationsToken(t, f, owner.key, `{"action":"organization.create","body":{"name":"Raced"}}`)
		var wg sync.WaitGroup
		statuses := make([]int, 4)
		codes := make([]string, 4)
		for i := range statuses {
			wg.Add(1)
			go func() {
				defer wg.Done()
				r := create(owner.key, `{"name":"Raced"}`, token, "")
				statuses[i] = r.status
				var m map[string]any
				_ = json.Unmarshal(r.body, &m)
				codes[i], _ = m["code"].(string)
			}()
		}
		wg.Wait()
		created := 0
		for i, s := range statuses {
			switch {
			case s == 201:
				created++
			case s == 409 && codes[i] == string(sightline.CodeConfirmationUsed):
			default:
				t.Errorf("answer %d %s", s, codes[i])
			}
		}
		if n := organizationsScalar[int](t, f, `SELECT count(*) FROM organizations`); created != 1 || n != before+1 {
			t.Fatalf("%d answered created, %d organizations created", created, n-before)
		}
	})
}

func TestOrganizationsPreviewRefusals(t *testing.T) {
	t.Parallel()
	f := setup(t)
	owner, org := f.owner()
	_, otherOrg := f.owner()
	manager := f.user()
	f.join(org, manager, sightline.RoleManager, sightline.MembershipActive)
	managerKey := f.keyFor(manager, nil, sightline.Capabilities...)
	scopedElsewhere := f.keyFor(owner, []uuid.UUID{f.org(owner, "Elsewhere")}, sightline.Capabilities...)
	readWrite := f.keyFor(owner, nil, sightline.CapabilityWrite)
	archive := organizationsAction("organization.archive", org)

	t.Run("authorisation as the operation", func(t *testing.T) {
		assertError(t, organizationsPreview(f, "", archive), 401, sightline.CodeUnauthorized)
		assertError(t, organizationsPreview(f, readWrite.key, archive), 403, sightline.CodeCapabilityRequired)
		assertError(t, organizationsPreview(f, managerKey.key, archive), 403, sightline.CodeCapabilityRequired)
		assertError(t, organizationsPreview(f, owner.key, organizationsAction("organization.archive", otherOrg)), 404, sightline.CodeOrganizationNotFound)
		assertError(t, organizationsPreview(f, owner.key, organizationsAction("organization.archive", uuid.New())), 404, sightline.CodeOrganizationNotFound)
		assertError(t, organizationsPreview(f, scopedElsewhere.key, archive), 404, sightline.CodeOrganizationNotFound)
		f.join(org, manager, sightline.RoleManager, sightline.MembershipSuspended)
		assertError(t, organizationsPreview(f, managerKey.key, archive), 404, sightline.CodeOrganizationNotFound)
	})

	t.Run("validation", func(t *testing.T) {
		orgID := org.String()
		for body, want := range map[string]map[string]string{
			`{}`:                                {"action": "missing_field"},
			`{"action":"organization.delete"}`:  {"action": "invalid_value"},
			`{"action":"organization.archive"}`: {"organizationId": "missing_field"},
			`{"action":"organization.restore","organizationId":"nope"}`:                                     {"organizationId": "invalid_uuid"},
			`{"action":"organization.create","organizationId":"` + orgID + `","body":{}}`:                   {"organizationId": "invalid_value"},
			`{"action":"organization.create"}`:                                                              {"body": "missing_field"},
			`{"action":"organization.update","organizationId":"` + orgID + `"}`:                             {"body": "missing_field"},
			`{"action":"organization.archive","organizationId":"` + orgID + `","body":{}}`:                  {"body": "invalid_value"},
			`{"action":"organization.update","organizationId":"` + orgID + `","body":{"imageUrl":"x"}}`:     {"body.imageUrl": "unknown_field"},
			`{"action":"organization.update","organizationId":"` + orgID + `","body":{"contactEmail":"x"}}`: {"body.contactEmail": "invalid_email"},
			`{"action":"organization.update","organizationId":"` + orgID + `","body":[]}`:                   {"body": "invalid_type"},
			`{"action":"organization.archive","organizationId":"` + orgID + `","extra":1}`:                  {"extra": "unknown_field"},
			`{"action":"organization.create","body":null}`:                                                  {"body": "missing_field"},
		} {
			got := detailCodesOf(t, assertError(t, organizationsPreview(f, owner.key, body), 400, sightline.CodeValidation))
			for field, code := range want {
				if len(got[field]) != 1 || got[field][0] != code {
					t.Errorf("%s: details %v, want %s %s", body, got, field, code)
				}
			}
		}
		assertError(t, organizationsPreview(f, owner.key, `not json`), 400, sightline.CodeBadRequest)
		r := f.do(call{method: "POST", path: "/api/v1/organization-operation-previews", key: owner.key, body: archive})
		assertError(t, r, 400, sightline.CodeValidation) // no Idempotency-Key
		// A null body is an absent one.
		organizationsToken(t, f, owner.key, `{"action":"organization.archive","organizationId":"`+orgID+`","body":null}`)
	})

	t.Run("a retry under the same key replays the same token", func(t *testing.T) {
		h := map[string]string{"Idempotency-Key": uuid.NewString()}
		first := f.do(call{method: "POST", path: "/api/v1/organization-operation-previews", key: owner.key, body: archive, header: h})
		second := f.do(call{method: "POST", path: "/api/v1/organization-operation-previews", key: owner.key, body: archive, header: h})
		if first.status != 200 || string(first.body) != string(second.body) {
			t.Fatalf("first %d %s, replay %d %s", first.status, first.body, second.status, second.body)
		}
	})

	t.Run("token expiry is five minutes", func(t *testing.T) {
		r := organizationsPreview(f, owner.key, archive)
		expires, err := time.Parse(time.RFC3339, r.json(t)["confirmation"].(map[string]any)["expiresAt"].(string))
		if err != nil {
			t.Fatal(err)
		}
		if d := time.Until(expires); d < 4*time.Minute || d > 5*time.Minute+time.Second {
			t.Fatalf("expires in %v", d)
		}
	})
}

func TestOrganizationsUpdate(t *testing.T) {
	t.Parallel()
	f := setup(t)
	owner, org := f.owner()
	path := organizationsPath(org, "")
	preview := func(body string) string {
		return `{"action":"organization.update","organizationId":"` + org.String() + `","body":` + body + `}`
	}
	patch := func(key, body, token string) response {
		return organizationsWrite(f, "PATCH", path, key, body, token, "")
	}

	t.Run("set, then clear; omitted fields unchanged", func(t *testing.T) {
		body := `{"name":"Renamed Org","description":"Makers of things","contactEmail":"ops@example.com"}`
		token, effects := organizationsToken(t, f, owner.key, preview(body))
		if changes := effects["changes"].([]any); len(changes) != 3 ||
			changes[0].(map[string]any)["field"] != "name" || changes[1].(map[string]any)["from"] != nil {
			t.Fatalf("effects %v", effects)
		}
		r := patch(owner.key, `{"contactEmail":"ops@example.com","name":"Renamed Org","description":"Makers of things"}`, token)
		m := r.json(t)
		if r.status != 200 || m["name"] != "Renamed Org" || m["description"] != "Makers of things" || m["contactEmail"] != "ops@example.com" {
			t.Fatalf("%d %s", r.status, r.body)
		}

		token, effects = organizationsToken(t, f, owner.key, preview(`{"description":null}`))
		if changes := effects["changes"].([]any); len(changes) != 1 || changes[0].(map[string]any)["to"] != nil {
			t.Fatalf("effects %v", effects)
		}
		m = patch(owner.key, `{"description":null}`, token).json(t)
		if m["description"] != nil || m["name"] != "Renamed Org" || m["contactEmail"] != "ops@example.com" {
			t.Fatalf("after clearing: %v", m)
		}

		token, effects = organizationsToken(t, f, owner.key, preview(`{"name":"Renamed Org"}`))
		if len(effects["changes"].([]any)) != 0 {
			t.Fatalf("same value declared as a change: %v", effects)
		}
		if r := patch(owner.key, `{"name":"Renamed Org"}`, token); r.status != 200 {
			t.Fatalf("%d %s", r.status, r.body)
		}
	})

	t.Run("validation", func(t *testing.T) {
		for body, want := range map[string]map[string]string{
			`{"imageUrl":"https://example.com/a.png"}`: {"imageUrl": "unknown_field"},
			`{"name":null}`:                   {"name": "invalid_type"},
			`{"name":"    "}`:                 {"name": "out_of_range"},
			`{"name":"x"}`:                    {"name": "out_of_range"},
			`{"contactEmail":"not-an-email"}`: {"contactEmail": "invalid_email"},
			`{"contactEmail":""}`:             {"contactEmail": "invalid_email"},
			`{"status":"archived"}`:           {"status": "unknown_field"},
			`{"name":" x  "}`:                 {"name": "out_of_range"},
			`{"name":"Tab\tbed"}`:             {"name": "invalid_value"},
			`{"description":"a\u0000b"}`:      {"description": "invalid_value"},
		} {
			got := detailCodesOf(t, assertError(t, patch(owner.key, body, ""), 400, sightline.CodeValidation))
			for field, code := range want {
				if len(got[field]) != 1 || got[field][0] != code {
					t.Errorf("%s: details %v, want %s %s", body, got, field, code)
				}
			}
		}
	})

	t.Run("token bound to the body, the organization's values and the key", func(t *testing.T) {
		token, _ := organizationsToken(t, f, owner.key, preview(`{"description":"v1"}`))
		assertError(t, patch(owner.key, `{"description":"v2"}`, token), 409, sightline.CodeConfirmationInvalid)
		other := f.keyFor(owner, nil, sightline.Capabilities...)
		assertError(t, patch(other.key, `{"description":"v1"}`, token), 409, sightline.CodeConfirmationInvalid)
		organizationsExec(t, f, `UPDATE organizations SET contact_email = 'changed@example.com' WHERE id = $1`, org)
		assertError(t, patch(owner.key, `{"description":"v1"}`, token), 409, sightline.CodeConfirmationEffectsChanged)
	})

	t.Run("refusals", func(t *testing.T) {
		manager := f.user()
		f.join(org, manager, sightline.RoleManager, sightline.MembershipActive)
		managerKey := f.keyFor(manager, nil, sightline.Capabilities...)
		noManage := f.keyFor(owner, nil, sightline.CapabilityWrite)
		_, otherOrg := f.owner()
		assertError(t, patch("", `{}`, ""), 401, sightline.CodeUnauthorized)
		assertError(t, patch(noManage.key, `{}`, ""), 403, sightline.CodeCapabilityRequired)
		assertError(t, patch(managerKey.key, `{}`, ""), 403, sightline.CodeCapabilityRequired)
		assertError(t, organizationsWrite(f, "PATCH", organizationsPath(otherOrg, ""), owner.key, `{}`, "", ""), 404, sightline.CodeOrganizationNotFound)
		assertError(t, patch(owner.key, `{"description":"x"}`, ""), 428, sightline.CodeConfirmationRequired)
		// A token for another organization of the same owner.
		second := f.org(owner, "Second Org")
		token, _ := organizationsToken(t, f, owner.key,
			`{"action":"organization.update","organizationId":"`+second.String()+`","body":{"description":"x"}}`)
		assertError(t, patch(owner.key, `{"description":"x"}`, token), 409, sightline.CodeConfirmationInvalid)
		// A token for another action.
		token, _ = organizationsToken(t, f, owner.key, organizationsAction("organization.archive", org))
		assertError(t, patch(owner.key, `{"description":"x"}`, token), 409, sightline.CodeConfirmationInvalid)
	})

	t.Run("an archived organization's profile is read-only", func(t *testing.T) {
		owner2, org2 := f.owner()
		token, _ := organizationsToken(t, f, owner2.key,
			`{"action":"organization.update","organizationId":"`+org2.String()+`","body":{"description":"x"}}`)
		archiveToken, _ := organizationsToken(t, f, owner2.key, organizationsAction("organization.archive", org2))
		if r := organizationsWrite(f, "POST", organizationsPath(org2, "/archive"), owner2.key, "", archiveToken, ""); r.status != 200 {
			t.Fatalf("%d %s", r.status, r.body)
		}
		assertError(t, organizationsWrite(f, "PATCH", organizationsPath(org2, ""), owner2.key, `{"description":"x"}`, token, ""),
			409, sightline.CodeProjectIsArchived)
		assertError(t, organizationsPreview(f, owner2.key,
			`{"action":"organization.update","organizationId":"`+org2.String()+`","body":{"description":"x"}}`),
			409, sightline.CodeProjectIsArchived)
	})

	t.Run("the name is stored trimmed; a description keeps its line breaks", func(t *testing.T) {
		owner3, org3 := f.owner()
		body := `{"name":"  Padded Org \t","description":"Line one\nLine two"}`
		token, effects := organizationsToken(t, f, owner3.key,
			`{"action":"organization.update","organizationId":"`+org3.String()+`","body":`+body+`}`)
		if to := effects["changes"].([]any)[0].(map[string]any)["to"]; to != "Padded Org" {
			t.Fatalf("declared name %q, want the trimmed one", to)
		}
		r := organizationsWrite(f, "PATCH", organizationsPath(org3, ""), owner3.key, body, token, "")
		if m := r.json(t); r.status != 200 || m["name"] != "Padded Org" || m["description"] != "Line one\nLine two" {
			t.Fatalf("%d %s", r.status, r.body)
		}
	})
}

// TestOrganizationsListingSearchText refuses search text that cannot be
// compared with stored names, instead of failing in the database.
func TestOrganizationsListingSearchText(t *testing.T) {
	t.Parallel()
	f := setup(t)
	owner, _ := f.owner()
	for _, search := range []string{"%00", "%FF", "a%00b"} {
		r := f.do(call{method: "GET", path: "/api/v1/organizations?search=" + search, key: owner.key})
		if got := detailCodesOf(t, assertError(t, r, 400, sightline.CodeValidation)); len(got["search"]) != 1 {
			t.Errorf("search=%s: details %v", search, got)
		}
	}
	if r := f.do(call{method: "GET", path: "/api/v1/organizations?search=acme", key: owner.key}); r.status != 200 || r.json(t)["total"] != 1.0 {
		t.Fatalf("%d %s", r.status, r.body)
	}
}

func TestOrganizationsArchiveAndRestore(t *testing.T) {
	t.Parallel()
	f := setup(t)
	ctx := context.Background()
	owner, org := f.owner()
	active1 := f.project(org, "Active one")
	active2 := f.project(org, "Active two")
	onItsOwn := organizationsArchivedProject(t, f, org, "Archived on its own")
	pending := organizationsInvitation(t, f, org, "pending", time.Hour)
	lapsed := organizationsInvitation(t, f, org, "pending", -time.Hour)
	accepted := organizationsInvitation(t, f, org, "accepted", time.Hour)
	var periodEnd time.Time
	if err := f.pool.QueryRow(ctx, `
		INSERT INTO subscriptions (id, organization_id, status, tier, billing_interval, check_budget,
		                           current_period_start, current_period_end)
		VALUES ($1, $2, 'active', 'growth', 'monthly', 1000, now() - interval '3 days', now() + interval '27 days')
		RETURNING current_period_end`, uuid.Must(uuid.NewV7()), org).Scan(&periodEnd); err != nil {
		t.Fatal(err)
	}
	archivePath, restorePath := organizationsPath(org, "/archive"), organizationsPath(org, "/restore")
	projectState := func(id uuid.UUID) string {
		var status string
		var by *string
		if err := f.pool.QueryRow(ctx, `SELECT status, archived_by FROM projects WHERE id = $1`, id).Scan(&status, &by); err != nil {
			t.Fatal(err)
		}
		if by != nil {
			return status + " by " + *by
		}
		return status
	}
	invitationState := func(id uuid.UUID) string {
		var status string
		var byArchive bool
		if err := f.pool.QueryRow(ctx, `SELECT status, cancelled_by_archive FROM invitations WHERE id = $1`, id).Scan(&status, &byArchive); err != nil {
			t.Fatal(err)
		}
		if byArchive {
			return status + " by archive"
		}
		return status
	}
	subscriptionState := func() (cancelAt *time.Time, byArchive bool) {
		if err := f.pool.QueryRow(ctx, `SELECT cancel_at, cancel_requested_by_archive FROM subscriptions WHERE organization_id = $1`, org).
			Scan(&cancelAt, &byArchive); err != nil {
			t.Fatal(err)
		}
		return cancelAt, byArchive
	}

	// Two archive tokens: the second meets an organization already archived.
	token, effects := organizationsToken(t, f, owner.key, organizationsAction("organization.archive", org))
	secondToken, _ := organizationsToken(t, f, owner.key, organizationsAction("organization.archive", org))
	if got := organizationsIDs(t, effects["projectsToArchive"]); len(got) != 2 || got[0] != active1.String() || got[1] != active2.String() {
		t.Fatalf("projectsToArchive %v", effects["projectsToArchive"])
	}
	if got := organizationsIDs(t, effects["invitationsToCancel"]); len(got) != 1 || got[0] != pending.String() {
		t.Fatalf("invitationsToCancel %v", effects["invitationsToCancel"])
	}
	if effects["subscriptionCancelAt"] != periodEnd.UTC().Format(sightline.TimestampLayout) {
		t.Fatalf("subscriptionCancelAt %v, want %v", effects["subscriptionCancelAt"], periodEnd)
	}

	// A 428 is not stored: the same Idempotency-Key then goes through with the token.
	idem := uuid.NewString()
	assertError(t, organizationsWrite(f, "POST", archivePath, owner.key, "", "", idem), 428, sightline.CodeConfirmationRequired)
	assertError(t, f.do(call{method: "POST", path: archivePath, key: owner.key, body: `{}`,
		header: map[string]string{"Idempotency-Key": uuid.NewString(), "X-Service-Confirmation": token}}), 400, sightline.CodeBadRequest)

	r := organizationsWrite(f, "POST", archivePath, owner.key, "", token, idem)
	if r.status != 200 || r.json(t)["status"] != "archived" {
		t.Fatalf("archive: %d %s", r.status, r.body)
	}
	t.Run("archive cascade", func(t *testing.T) {
		for id, want := range map[uuid.UUID]string{
			active1: "archived by organization", active2: "archived by organization", onItsOwn: "archived by caller",
		} {
			if got := projectState(id); got != want {
				t.Errorf("project %s: %s, want %s", id, got, want)
			}
		}
		for id, want := range map[uuid.UUID]string{pending: "cancelled by archive", lapsed: "pending", accepted: "accepted"} {
			if got := invitationState(id); got != want {
				t.Errorf("invitation %s: %s, want %s", id, got, want)
			}
		}
		if cancelAt, byArchive := subscriptionState(); cancelAt == nil || !cancelAt.Equal(periodEnd) || !byArchive {
			t.Errorf("subscription cancel_at %v by archive %v", cancelAt, byArchive)
		}
		got := f.do(call{method: "GET", path: organizationsPath(org, ""), key: owner.key}).json(t)
		if got["status"] != "archived" {
			t.Errorf("read after archive: %v", got)
		}
	})

	t.Run("replay after the token is used", func(t *testing.T) {
		again := organizationsWrite(f, "POST", archivePath, owner.key, "", token, idem)
		if again.status != 200 || string(again.body) != string(r.body) || again.header.Get("Idempotent-Replayed") != "true" {
			t.Fatalf("replay %d %s", again.status, again.body)
		}
		// The transition is checked before the token: archived already.
		assertError(t, organizationsWrite(f, "POST", archivePath, owner.key, "", token, ""), 409, sightline.CodeStatusTransitionNotAllowed)
	})

	t.Run("archive of an archived organization", func(t *testing.T) {
		assertError(t, organizationsWrite(f, "POST", archivePath, owner.key, "", secondToken, ""), 409, sightline.CodeStatusTransitionNotAllowed)
		assertError(t, organizationsWrite(f, "POST", archivePath, owner.key, "", "", ""), 409, sightline.CodeStatusTransitionNotAllowed)
		// Its preview has nothing to do; the operation then refuses.
		token, effects := organizationsToken(t, f, owner.key, organizationsAction("organization.archive", org))
		if len(effects["projectsToArchive"].([]any)) != 0 || len(effects["invitationsToCancel"].([]any)) != 0 {
			t.Fatalf("effects %v", effects)
		}
		assertError(t, organizationsWrite(f, "POST", archivePath, owner.key, "", token, ""), 409, sightline.CodeStatusTransitionNotAllowed)
	})

	t.Run("restore reinstates only what the archive did", func(t *testing.T) {
		token, effects := organizationsToken(t, f, owner.key, organizationsAction("organization.restore", org))
		if got := organizationsIDs(t, effects["projectsToRestore"]); len(got) != 2 || got[0] != active1.String() || got[1] != active2.String() {
			t.Fatalf("projectsToRestore %v", effects["projectsToRestore"])
		}
		if effects["abortedSubscriptionCancelAt"] != periodEnd.UTC().Format(sightline.TimestampLayout) {
			t.Fatalf("abortedSubscriptionCancelAt %v", effects["abortedSubscriptionCancelAt"])
		}
		r := organizationsWrite(f, "POST", restorePath, owner.key, "", token, "")
		if r.status != 200 || r.json(t)["status"] != "active" {
			t.Fatalf("restore: %d %s", r.status, r.body)
		}
		for id, want := range map[uuid.UUID]string{active1: "active", active2: "active", onItsOwn: "archived by caller"} {
			if got := projectState(id); got != want {
				t.Errorf("project %s: %s, want %s", id, got, want)
			}
		}
		if got := invitationState(pending); got != "cancelled by archive" {
			t.Errorf("invitation after restore: %s", got)
		}
		if cancelAt, byArchive := subscriptionState(); cancelAt != nil || byArchive {
			t.Errorf("subscription cancel_at %v by archive %v after restore", cancelAt, byArchive)
		}
		token, effects = organizationsToken(t, f, owner.key, organizationsAction("organization.restore", org))
		if len(effects["projectsToRestore"].([]any)) != 0 {
			t.Fatalf("effects of restoring an active organization %v", effects)
		}
		assertError(t, organizationsWrite(f, "POST", restorePath, owner.key, "", token, ""), 409, sightline.CodeStatusTransitionNotAllowed)
	})

	t.Run("restore of an active organization", func(t *testing.T) {
		owner2, org2 := f.owner()
		archiveToken, _ := organizationsToken(t, f, owner2.key, organizationsAction("organization.archive", org2))
		if r := organizationsWrite(f, "POST", organizationsPath(org2, "/archive"), owner2.key, "", archiveToken, ""); r.status != 200 {
			t.Fatalf("%d %s", r.status, r.body)
		}
		first, _ := organizationsToken(t, f, owner2.key, organizationsAction("organization.restore", org2))
		second, _ := organizationsToken(t, f, owner2.key, organizationsAction("organization.restore", org2))
		if r := organizationsWrite(f, "POST", organizationsPath(org2, "/restore"), owner2.key, "", first, ""); r.status != 200 {
			t.Fatalf("%d %s", r.status, r.body)
		}
		assertError(t, organizationsWrite(f, "POST", organizationsPath(org2, "/restore"), owner2.key, "", second, ""),
			409, sightline.CodeStatusTransitionNotAllowed)
	})

	t.Run("a cancellation scheduled before the archive is left alone", func(t *testing.T) {
		owner3, org3 := f.owner()
		organizationsExec(t, f, `
			INSERT INTO subscriptions (id, organization_id, status, tier, billing_interval, check_budget,
			                           current_period_start, current_period_end, cancel_at)
			VALUES ($1, $2, 'active', 'growth', 'monthly', 10, now() - interval '1 day', now() + interval '29 days',
			        now() + interval '29 days')`, uuid.Must(uuid.NewV7()), org3)
		token, effects := organizationsToken(t, f, owner3.key, organizationsAction("organization.archive", org3))
		if effects["subscriptionCancelAt"] != nil || len(effects["projectsToArchive"].([]any)) != 0 {
			t.Fatalf("effects %v", effects)
		}
		if r := organizationsWrite(f, "POST", organizationsPath(org3, "/archive"), owner3.key, "", token, ""); r.status != 200 {
			t.Fatalf("%d %s", r.status, r.body)
		}
		token, effects = organizationsToken(t, f, owner3.key, organizationsAction("organization.restore", org3))
		if effects["abortedSubscriptionCancelAt"] != nil {
			t.Fatalf("restore would withdraw a cancellation the archive did not ask for: %v", effects)
		}
		if r := organizationsWrite(f, "POST", organizationsPath(org3, "/restore"), owner3.key, "", token, ""); r.status != 200 {
			t.Fatalf("%d %s", r.status, r.body)
		}
		if n := organizationsScalar[int](t, f, `SELECT count(*) FROM subscriptions WHERE organization_id = $1 AND cancel_at IS NOT NULL`, org3); n != 1 {
			t.Fatal("the restore withdrew the owner's own cancellation")
		}
	})
}

func TestOrganizationsConfirmationRefusals(t *testing.T) {
	t.Parallel()
	f := setup(t)
	owner, org := f.owner()
	archivePath := organizationsPath(org, "/archive")
	archive := func(key, token string) response {
		return organizationsWrite(f, "POST", archivePath, key, "", token, "")
	}
	newToken := func() string {
		token, _ := organizationsToken(t, f, owner.key, organizationsAction("organization.archive", org))
		return token
	}

	t.Run("refusals by role and scope", func(t *testing.T) {
		viewer := f.user()
		f.join(org, viewer, sightline.RoleViewer, sightline.MembershipActive)
		viewerKey := f.keyFor(viewer, nil, sightline.Capabilities...)
		noManage := f.keyFor(owner, nil, sightline.CapabilityWrite)
		other, _ := f.owner()
		for _, path := range []string{archivePath, organizationsPath(org, "/restore")} {
			assertError(t, organizationsWrite(f, "POST", path, "", "", "", ""), 401, sightline.CodeUnauthorized)
			assertError(t, organizationsWrite(f, "POST", path, viewerKey.key, "", "", ""), 403, sightline.CodeCapabilityRequired)
			assertError(t, organizationsWrite(f, "POST", path, noManage.key, "", "", ""), 403, sightline.CodeCapabilityRequired)
			assertError(t, organizationsWrite(f, "POST", path, other.key, "", "", ""), 404, sightline.CodeOrganizationNotFound)
		}
	})

	t.Run("unknown token", func(t *testing.T) {
		assertError(t, archive(owner.key, "slc_not-a-token"), 409, sightline.CodeConfirmationInvalid)
	})

	t.Run("expired", func(t *testing.T) {
		token := newToken()
		organizationsExec(t, f, `UPDATE operation_confirmations SET expires_at = now() - interval '1 second' WHERE used_at IS NULL`)
		assertError(t, archive(owner.key, token), 409, sightline.CodeConfirmationExpired)
	})

	t.Run("bound to organization, action and key", func(t *testing.T) {
		second := f.org(owner, "Second Org")
		elsewhere, _ := organizationsToken(t, f, owner.key, organizationsAction("organization.archive", second))
		assertError(t, archive(owner.key, elsewhere), 409, sightline.CodeConfirmationInvalid)
		update, _ := organizationsToken(t, f, owner.key,
			`{"action":"organization.update","organizationId":"`+org.String()+`","body":{"name":"New Name"}}`)
		assertError(t, archive(owner.key, update), 409, sightline.CodeConfirmationInvalid)
		otherKey := f.keyFor(owner, nil, sightline.Capabilities...)
		assertError(t, archive(otherKey.key, newToken()), 409, sightline.CodeConfirmationInvalid)
	})

	t.Run("a project gained since the preview", func(t *testing.T) {
		token := newToken()
		f.project(org, "Late project")
		assertError(t, archive(owner.key, token), 409, sightline.CodeConfirmationEffectsChanged)
	})

	t.Run("a project archived on its own since the preview", func(t *testing.T) {
		p := f.project(org, "Soon archived")
		token := newToken()
		organizationsExec(t, f, `UPDATE projects SET status = 'archived', archived_by = 'caller', archived_at = now() WHERE id = $1`, p)
		assertError(t, archive(owner.key, token), 409, sightline.CodeConfirmationEffectsChanged)
	})

	t.Run("an invitation lost since the preview", func(t *testing.T) {
		inv := organizationsInvitation(t, f, org, "pending", time.Hour)
		token := newToken()
		organizationsExec(t, f, `UPDATE invitations SET status = 'accepted' WHERE id = $1`, inv)
		assertError(t, archive(owner.key, token), 409, sightline.CodeConfirmationEffectsChanged)
	})

	t.Run("the organization changed since the preview", func(t *testing.T) {
		token := newToken()
		organizationsExec(t, f, `UPDATE organizations SET name = 'Renamed Behind Your Back' WHERE id = $1`, org)
		assertError(t, archive(owner.key, token), 409, sightline.CodeConfirmationEffectsChanged)
	})

	t.Run("a subscription started since the preview", func(t *testing.T) {
		token := newToken()
		organizationsExec(t, f, `
			INSERT INTO subscriptions (id, organization_id, status, tier, billing_interval, check_budget,
			                           current_period_start, current_period_end)
			VALUES ($1, $2, 'active', 'starter', 'monthly', 10, now(), now() + interval '1 month')`, uuid.Must(uuid.NewV7()), org)
		assertError(t, archive(owner.key, token), 409, sightline.CodeConfirmationEffectsChanged)
	})

	t.Run("single use, and unused by a refusal", func(t *testing.T) {
		token := newToken()
		organizationsExec(t, f, `UPDATE organizations SET description = 'changed' WHERE id = $1`, org)
		assertError(t, archive(owner.key, token), 409, sightline.CodeConfirmationEffectsChanged)
		organizationsExec(t, f, `UPDATE organizations SET description = NULL WHERE id = $1`, org)
		if r := archive(owner.key, token); r.status != 200 {
			t.Fatalf("after the state came back: %d %s", r.status, r.body)
		}
		// Used, and the organization archived: the transition refuses first.
		assertError(t, archive(owner.key, token), 409, sightline.CodeStatusTransitionNotAllowed)
	})
}

func TestOrganizationsArchiveConcurrency(t *testing.T) {
	t.Parallel()
	f := setup(t)
	ctx := context.Background()
	owner, org := f.owner()
	project := f.project(org, "Busy project")
	archivePath := organizationsPath(org, "/archive")

	t.Run("an archive waits for a project write in flight", func(t *testing.T) {
		token, _ := organizationsToken(t, f, owner.key, organizationsAction("organization.archive", org))
		tx, err := f.pool.Begin(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer tx.Rollback(ctx) //nolint:errcheck // a no-op after Commit
		scope, err := oltp.LoadProjectScope(ctx, tx, org, project, true)
		if err != nil || scope.CheckWritable() != nil {
			t.Fatalf("project write scope: %+v %v", scope, err)
		}
		done := make(chan response, 1)
		go func() { done <- organizationsWrite(f, "POST", archivePath, owner.key, "", token, "") }()
		select {
		case r := <-done:
			t.Fatalf("the archive did not wait for the project write: %d %s", r.status, r.body)
		case <-time.After(300 * time.Millisecond):
		}
		if _, err := tx.Exec(ctx, `UPDATE projects SET name = 'Renamed meanwhile' WHERE id = $1`, project); err != nil {
			t.Fatal(err)
		}
		if err := tx.Commit(ctx); err != nil {
			t.Fatal(err)
		}
		if r := <-done; r.status != 200 {
			t.Fatalf("archive after the project write: %d %s", r.status, r.body)
		}
		if s := organizationsScalar[string](t, f, `SELECT status FROM projects WHERE id = $1`, project); s != "archived" {
			t.Fatalf("project %s", s)
		}
	})

	t.Run("two restores with their own tokens: one wins", func(t *testing.T) {
		tokens := make([]string, 4)
		for i := range tokens {
			tokens[i], _ = organizationsToken(t, f, owner.key, organizationsAction("organization.restore", org))
		}
		var wg sync.WaitGroup
		answers := make([]response, len(tokens))
		for i, token := range tokens {
			wg.Add(1)
			go func() {
				defer wg.Done()
				answers[i] = organizationsWrite(f, "POST", organizationsPath(org, "/restore"), owner.key, "", token, "")
			}()
		}
		wg.Wait()
		won := 0
		for _, r := range answers {
			if r.status == 200 {
				won++
				continue
			}
			assertError(t, r, 409, sightline.CodeStatusTransitionNotAllowed)
		}
		if won != 1 {
			t.Fatalf("%d restores succeeded", won)
		}
		if s := organizationsScalar[string](t, f, `SELECT status FROM projects WHERE id = $1`, project); s != "active" {
			t.Fatalf("project %s after restore", s)
		}
	})
}
