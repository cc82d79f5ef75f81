package api

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/google/uuid"

	"github.com/sightline/sightline"
	"github.com/sightline/sightline/oltp"
)

func TestAuthentication(t *testing.T) {
	t.Parallel()
	f := setup(t)
	m, _ := f.owner()

	tests := []struct {
		name   string
		header string
	}{
		{"no header", ""},
		{"wrong scheme", "Basic " + m.key},
		{"empty bearer", "Bearer "},
		{"unknown key", "Bearer sl_" + strings.Repeat("A", 43)},
		{"not a sightline key", "Bearer abc"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := f.do(call{method: "GET", path: "/api/v1/me", header: map[string]string{"Authorization": tt.header}})
			assertError(t, r, http.StatusUnauthorized, sightline.CodeUnauthorized)
		})
	}

	t.Run("valid key then revoked", func(t *testing.T) {
		if r := f.do(call{method: "GET", path: "/api/v1/me", key: m.key}); r.status != http.StatusOK {
			t.Fatalf("status %d: %s", r.status, r.body)
		}
		if err := oltp.RevokeKey(context.Background(), f.pool, m.keyID); err != nil {
			t.Fatal(err)
		}
		r := f.do(call{method: "GET", path: "/api/v1/me", key: m.key})
		assertError(t, r, http.StatusUnauthorized, sightline.CodeUnauthorized)
	})
}

func TestMe(t *testing.T) {
	t.Parallel()
	f := setup(t)
	u := f.user()
	org := f.org(u, "Scoped Org")
	scoped := f.keyFor(u, []uuid.UUID{org}, sightline.CapabilityWrite)
	all := f.keyFor(u, nil, sightline.CapabilityOrganizationManage)

	r := f.do(call{method: "GET", path: "/api/v1/me", key: scoped.key})
	if r.status != http.StatusOK {
		t.Fatalf("status %d: %s", r.status, r.body)
	}
	m := r.json(t)
	user := m["user"].(map[string]any)
	key := m["apiKey"].(map[string]any)
	if user["id"] != u.userID.String() || user["email"] != u.email || user["name"] != "Test User" {
		t.Errorf("user = %v", user)
	}
	if key["id"] != scoped.keyID.String() {
		t.Errorf("apiKey.id = %v, want %s", key["id"], scoped.keyID)
	}
	if got := key["capabilities"]; len(got.([]any)) != 2 || got.([]any)[0] != "read" || got.([]any)[1] != "write" {
		t.Errorf("capabilities = %v, want [read write]", got)
	}
	if scope := key["organizationScope"].([]any); len(scope) != 1 || scope[0] != org.String() {
		t.Errorf("organizationScope = %v, want [%s]", scope, org)
	}

	m = f.do(call{method: "GET", path: "/api/v1/me", key: all.key}).json(t)
	if scope := m["apiKey"].(map[string]any)["organizationScope"]; scope != "all" {
		t.Errorf("organizationScope = %v, want all", scope)
	}
}

func TestOrganizationAccess(t *testing.T) {
	t.Parallel()
	f := setup(t)
	owner, orgA := f.owner()
	orgB := f.org(owner, "Second Org")
	other, otherOrg := f.owner()
	scopedToA := f.keyFor(owner, []uuid.UUID{orgA})

	viewer := f.user()
	f.join(orgA, viewer, sightline.RoleViewer, sightline.MembershipActive)
	viewer = f.keyFor(viewer, nil, sightline.Capabilities...)

	notFound := func(t *testing.T, key string, path string) {
		t.Helper()
		r := f.do(call{method: "GET", path: path, key: key})
		assertError(t, r, http.StatusNotFound, sightline.CodeOrganizationNotFound)
	}
	ok := func(t *testing.T, key string, path string) {
		t.Helper()
		if r := f.do(call{method: "GET", path: path, key: key}); r.status != http.StatusOK {
			t.Fatalf("GET %s: status %d: %s", path, r.status, r.body)
		}
	}
	orgPath := func(id any) string { return "/api/v1/organizations/" + toString(id) }

	t.Run("owner reads own organizations", func(t *testing.T) {
		ok(t, owner.key, orgPath(orgA))
		ok(t, owner.key, orgPath(orgB))
	})
	t.Run("another tenant's organization is not found", func(t *testing.T) {
		notFound(t, owner.key, orgPath(otherOrg))
		notFound(t, other.key, orgPath(orgA))
	})
	t.Run("malformed and unknown ids answer alike", func(t *testing.T) {
		a := f.do(call{method: "GET", path: orgPath("not-a-uuid"), key: owner.key}).json(t)
		b := f.do(call{method: "GET", path: orgPath(uuid.New()), key: owner.key}).json(t)
		if a["code"] != b["code"] || a["message"] != b["message"] {
			t.Fatalf("malformed %v differs from unknown %v", a, b)
		}
		notFound(t, owner.key, orgPath("00000000-0000-0000-0000-00000000000g"))
	})
	t.Run("key scope narrows", func(t *testing.T) {
		ok(t, scopedToA.key, orgPath(orgA))
		notFound(t, scopedToA.key, orgPath(orgB))
		m := f.do(call{method: "GET", path: "/api/v1/organizations", key: scopedToA.key}).json(t)
		if m["total"] != 1.0 {
			t.Fatalf("scoped listing total = %v, want 1", m["total"])
		}
	})
	t.Run("all-organization key sees organizations joined later", func(t *testing.T) {
		notFound(t, viewer.key, orgPath(orgB))
		f.join(orgB, member{email: viewer.email}, sightline.RoleViewer, sightline.MembershipActive)
		ok(t, viewer.key, orgPath(orgB))
	})
	t.Run("suspension applies on the next request", func(t *testing.T) {
		ok(t, viewer.key, orgPath(orgA))
		f.join(orgA, viewer, sightline.RoleViewer, sightline.MembershipSuspended)
		notFound(t, viewer.key, orgPath(orgA))
		f.join(orgA, viewer, sightline.RoleViewer, sightline.MembershipActive)
		ok(t, viewer.key, orgPath(orgA))
	})
}

func toString(v any) string {
	if id, ok := v.(uuid.UUID); ok {
		return id.String()
	}
	return v.(string)
}

func TestRolesAndCapabilities(t *testing.T) {
	t.Parallel()
	f := setup(t, setupOptions{mount: mountNotes(t, nil)})
	owner, org := f.owner()
	manager := f.user()
	f.join(org, manager, sightline.RoleManager, sightline.MembershipActive)
	managerKey := f.keyFor(manager, nil, sightline.Capabilities...)
	readOnly := f.keyFor(owner, nil)

	notes := "/api/v1/organizations/" + org.String() + "/test-notes"
	archive := "/api/v1/organizations/" + org.String() + "/test-archive"
	write := func(key, path, body string) response {
		return f.do(call{method: "POST", path: path, key: key, body: body,
			header: map[string]string{"Idempotency-Key": uuid.NewString()}})
	}

	tests := []struct {
		name   string
		key    string
		path   string
		body   string
		status int
		code   sightline.Code
	}{
		{"read-only key cannot write", readOnly.key, notes, `{"text":"hi"}`, 403, sightline.CodeCapabilityRequired},
		{"manager writes", managerKey.key, notes, `{"text":"hi"}`, 201, ""},
		{"manager is below owner", managerKey.key, archive, "", 403, sightline.CodeCapabilityRequired},
		{"owner", owner.key, archive, "", 200, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := write(tt.key, tt.path, tt.body)
			if tt.code != "" {
				assertError(t, r, tt.status, tt.code)
			} else if r.status != tt.status {
				t.Fatalf("status %d, want %d: %s", r.status, tt.status, r.body)
			}
		})
	}

	t.Run("lowering a role applies at once", func(t *testing.T) {
		f.join(org, manager, sightline.RoleViewer, sightline.MembershipActive)
		assertError(t, write(managerKey.key, notes, `{"text":"hi"}`), 403, sightline.CodeCapabilityRequired)
	})
}

func TestErrorEnvelope(t *testing.T) {
	t.Parallel()
	f := setup(t, setupOptions{mount: mountNotes(t, nil)})
	m, org := f.owner()

	t.Run("unknown route", func(t *testing.T) {
		assertError(t, f.do(call{method: "GET", path: "/api/v1/nothing-here", key: m.key}), 404, sightline.CodeNotFound)
		assertError(t, f.do(call{method: "GET", path: "/elsewhere"}), 404, sightline.CodeNotFound)
	})
	t.Run("method not allowed", func(t *testing.T) {
		for _, tt := range []struct{ method, path, allow string }{
			{"DELETE", "/api/v1/me", "GET"},
			{"PUT", "/api/v1/organizations", "GET, POST"},
			{"POST", "/api/v1/organizations/" + org.String(), "GET, PATCH"},
		} {
			r := f.do(call{method: tt.method, path: tt.path, key: m.key})
			assertError(t, r, 405, sightline.CodeMethodNotAllowed)
			if got := r.header.Get("Allow"); got != tt.allow {
				t.Errorf("%s %s: Allow %q, want %q", tt.method, tt.path, got, tt.allow)
			}
		}
	})
	t.Run("internal error hides its cause and logs it", func(t *testing.T) {
		r := f.do(call{method: "GET", path: "/api/v1/test-error", key: m.key})
		body := assertError(t, r, 500, sightline.CodeInternal)
		if strings.Contains(string(r.body), "secret") || body["details"] != nil {
			t.Fatalf("500 body leaks detail: %s", r.body)
		}
		logs := f.logs.String()
		if !strings.Contains(logs, "secret database detail") || !strings.Contains(logs, body["requestId"].(string)) {
			t.Fatalf("cause not logged with the request id:\n%s", logs)
		}
	})
	t.Run("panic", func(t *testing.T) {
		assertError(t, f.do(call{method: "GET", path: "/api/v1/test-panic", key: m.key}), 500, sightline.CodeInternal)
	})
	t.Run("body too large", func(t *testing.T) {
		r := f.do(call{method: "POST", path: "/api/v1/organizations/" + org.String() + "/test-notes", key: m.key,
			body: `{"text":"` + strings.Repeat("x", 5000) + `"}`, header: map[string]string{"Idempotency-Key": uuid.NewString()}})
		assertError(t, r, http.StatusRequestEntityTooLarge, sightline.CodePayloadTooLarge)
	})
}

func TestQueryParameters(t *testing.T) {
	t.Parallel()
	f := setup(t)
	m, _ := f.owner()

	tests := []struct {
		query   string
		details map[string][]string
	}{
		{"?bogus=1", map[string][]string{"bogus": {"unknown_field"}}},
		{"?bogus=1&other=2&limit=0", map[string][]string{"bogus": {"unknown_field"}, "other": {"unknown_field"}, "limit": {"out_of_range"}}},
		{"?limit=101", map[string][]string{"limit": {"out_of_range"}}},
		{"?limit=abc", map[string][]string{"limit": {"invalid_type"}}},
		{"?offset=-1", map[string][]string{"offset": {"out_of_range"}}},
		{"?offset=2147483648", map[string][]string{"offset": {"out_of_range"}}},
		{"?limit=1&limit=2", map[string][]string{"limit": {"invalid_value"}}},
		{"?sortBy=popularity&sortOrder=up", map[string][]string{"sortBy": {"invalid_value"}, "sortOrder": {"invalid_value"}}},
		{"?status=deleted", map[string][]string{"status": {"invalid_value"}}},
		{"?search=" + strings.Repeat("a", 101), map[string][]string{"search": {"out_of_range"}}},
		{"?search=a%00b", map[string][]string{"search": {"invalid_value"}}},
		{"?search=%FF", map[string][]string{"search": {"invalid_value"}}},
		{"?status=%00", map[string][]string{"status": {"invalid_value"}}},
	}
	for _, tt := range tests {
		t.Run(tt.query[:min(len(tt.query), 30)], func(t *testing.T) {
			r := f.do(call{method: "GET", path: "/api/v1/organizations" + tt.query, key: m.key})
			got := detailCodesOf(t, assertError(t, r, 400, sightline.CodeValidation))
			if len(got) != len(tt.details) {
				t.Fatalf("details = %v, want %v", got, tt.details)
			}
			for field, codes := range tt.details {
				if strings.Join(got[field], ",") != strings.Join(codes, ",") {
					t.Errorf("details[%s] = %v, want %v", field, got[field], codes)
				}
			}
		})
	}
	t.Run("a query string that cannot be read is refused whole", func(t *testing.T) {
		for name, query := range map[string]string{
			"over 10,000 parameters": "?" + strings.Repeat("limit=1&", 10_001) + "limit=1",
			"a bad escape":           "?limit=5&search=%zz",
			"a semicolon":            "?limit=5;offset=1",
		} {
			r := f.do(call{method: "GET", path: "/api/v1/organizations" + query, key: m.key})
			if body := assertError(t, r, 400, sightline.CodeBadRequest); !strings.Contains(body["message"].(string), "query string") {
				t.Errorf("%s: message %q", name, body["message"])
			}
		}
	})
	t.Run("bounds are written in full", func(t *testing.T) {
		r := f.do(call{method: "GET", path: "/api/v1/organizations?offset=-1", key: m.key})
		if body := assertError(t, r, 400, sightline.CodeValidation); !strings.Contains(string(r.body), "between 0 and 2147483647") {
			t.Errorf("details %v", body["details"])
		}
	})
	t.Run("a no-parameter operation refuses any", func(t *testing.T) {
		r := f.do(call{method: "GET", path: "/api/v1/me?x=1", key: m.key})
		if got := detailCodesOf(t, assertError(t, r, 400, sightline.CodeValidation)); got["x"][0] != "unknown_field" {
			t.Fatalf("details = %v", got)
		}
	})
}

func TestBodyDecoding(t *testing.T) {
	t.Parallel()
	f := setup(t, setupOptions{mount: mountNotes(t, nil)})
	m, org := f.owner()
	notes := "/api/v1/organizations/" + org.String() + "/test-notes"

	tests := []struct {
		name    string
		method  string
		path    string
		body    string
		code    sightline.Code
		details map[string]string
	}{
		{"not JSON", "POST", notes, `{"text": "hi"`, sightline.CodeBadRequest, nil},
		{"not an object", "POST", notes, `["hi"]`, sightline.CodeValidation, map[string]string{"body": "invalid_type"}},
		{"unknown fields at every depth, all reported", "POST", notes, `{"text":"hi","id":"x","nested":{"a":1,"b":2}}`,
			sightline.CodeValidation, map[string]string{"id": "unknown_field", "nested.b": "unknown_field"}},
		{"missing and wrong types together", "POST", notes, `{"size":"big","tags":"a","nested":{}}`, sightline.CodeValidation,
			map[string]string{"text": "missing_field", "size": "invalid_type", "tags": "invalid_type", "nested.a": "missing_field"}},
		{"null for a required string", "POST", notes, `{"text":null}`, sightline.CodeValidation, map[string]string{"text": "invalid_type"}},
		{"values out of rules", "POST", notes, `{"text":"` + strings.Repeat("x", 21) + `","email":"nope","ref":"123","size":11,"tags":["a",""]}`,
			sightline.CodeValidation, map[string]string{"text": "out_of_range", "email": "invalid_email", "ref": "invalid_uuid",
				"size": "out_of_range", "tags[1]": "out_of_range"}},
		{"too many items", "POST", notes, `{"text":"x","tags":["a","b","c","d"]}`, sightline.CodeValidation, map[string]string{"tags": "out_of_range"}},
		{"body on a no-body operation", "POST", "/api/v1/organizations/" + org.String() + "/test-archive", `{}`, sightline.CodeBadRequest, nil},
		{"stripped body on a body-requiring DELETE", "DELETE", notes, "", sightline.CodeBadRequest, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := f.countNotes()
			r := f.do(call{method: tt.method, path: tt.path, key: m.key, body: tt.body,
				header: map[string]string{"Idempotency-Key": uuid.NewString()}})
			body := assertError(t, r, 400, tt.code)
			got := detailCodesOf(t, body)
			if len(got) != len(tt.details) {
				t.Fatalf("details = %v, want %v", got, tt.details)
			}
			for field, code := range tt.details {
				if len(got[field]) != 1 || got[field][0] != code {
					t.Errorf("details[%s] = %v, want [%s]", field, got[field], code)
				}
			}
			if after := f.countNotes(); after != before {
				t.Fatalf("a refused request wrote: %d notes, was %d", after, before)
			}
		})
	}
}

func TestIdempotency(t *testing.T) {
	t.Parallel()
	ctl := &noteControl{started: make(chan struct{}), release: make(chan struct{})}
	f := setup(t, setupOptions{mount: mountNotes(t, ctl)})
	m, org := f.owner()
	notes := "/api/v1/organizations/" + org.String() + "/test-notes"
	post := func(key, idemKey, body string) response {
		h := map[string]string{}
		if idemKey != "" {
			h["Idempotency-Key"] = idemKey
		}
		return f.do(call{method: "POST", path: notes, key: key, body: body, header: h})
	}

	t.Run("key required and well formed", func(t *testing.T) {
		for _, k := range []string{"", "short", strings.Repeat("k", 256), "has space in it", "tab\there12"} {
			r := post(m.key, k, `{"text":"x"}`)
			if got := detailCodesOf(t, assertError(t, r, 400, sightline.CodeValidation)); len(got["Idempotency-Key"]) != 1 {
				t.Errorf("key %q: details %v", k, got)
			}
		}
	})

	t.Run("replay runs once and answers the same", func(t *testing.T) {
		before := f.countNotes()
		first := post(m.key, "replay-key-1", `{"text":"once"}`)
		second := post(m.key, "replay-key-1", "{\n  \"text\": \"once\"\n}")
		if first.status != 201 || second.status != 201 || string(first.body) != string(second.body) {
			t.Fatalf("first %d %s, replay %d %s", first.status, first.body, second.status, second.body)
		}
		if second.header.Get("Idempotent-Replayed") != "true" {
			t.Error("replay not marked Idempotent-Replayed")
		}
		if got := f.countNotes() - before; got != 1 {
			t.Fatalf("ran %d times", got)
		}
	})

	t.Run("other request under the same key", func(t *testing.T) {
		post(m.key, "reuse-key-1", `{"text":"a"}`)
		assertError(t, post(m.key, "reuse-key-1", `{"text":"b"}`), 409, sightline.CodeIdempotencyKeyReused)
		r := f.do(call{method: "DELETE", path: notes, key: m.key, body: `{"text":"a"}`,
			header: map[string]string{"Idempotency-Key": "reuse-key-1"}})
		assertError(t, r, 409, sightline.CodeIdempotencyKeyReused)
	})

	t.Run("keys are scoped to the api key", func(t *testing.T) {
		other := f.keyFor(m, nil, sightline.Capabilities...)
		before := f.countNotes()
		post(m.key, "scoped-key-1", `{"text":"a"}`)
		if r := post(other.key, "scoped-key-1", `{"text":"a"}`); r.status != 201 || r.header.Get("Idempotent-Replayed") != "" {
			t.Fatalf("second api key got %d replayed=%q", r.status, r.header.Get("Idempotent-Replayed"))
		}
		if got := f.countNotes() - before; got != 2 {
			t.Fatalf("ran %d times, want 2", got)
		}
	})

	t.Run("a failed write stores nothing and can be retried", func(t *testing.T) {
		before := f.countNotes()
		assertError(t, post(m.key, "fail-key-1", `{"text":"fail"}`), 500, sightline.CodeInternal)
		if f.countNotes() != before {
			t.Fatal("the failed write's rows were kept")
		}
		var records int
		f.pool.QueryRow(context.Background(), `SELECT count(*) FROM idempotency_records WHERE idempotency_key = 'fail-key-1'`).Scan(&records)
		if records != 0 {
			t.Fatal("an idempotency record outlived its failed write")
		}
		assertError(t, post(m.key, "fail-key-1", `{"text":"fail"}`), 500, sightline.CodeInternal)
	})

	t.Run("a refusal is stored, its partial work undone", func(t *testing.T) {
		before := f.countNotes()
		first := post(m.key, "refusal-key-1", `{"text":"missing"}`)
		assertError(t, first, 404, sightline.CodeNotFound)
		second := post(m.key, "refusal-key-1", `{"text":"missing"}`)
		if string(second.body) != string(first.body) || second.header.Get("Idempotent-Replayed") != "true" {
			t.Fatalf("refusal not replayed: %s", second.body)
		}
		if f.countNotes() != before {
			t.Fatal("a refused write kept rows")
		}
	})

	t.Run("a validation failure is not stored", func(t *testing.T) {
		assertError(t, post(m.key, "invalid-key-1", `{"text":""}`), 400, sightline.CodeValidation)
		if r := post(m.key, "invalid-key-1", `{"text":"now valid"}`); r.status != 201 {
			t.Fatalf("retry after a 400 answered %d: %s", r.status, r.body)
		}
	})

	t.Run("concurrent request with the same key", func(t *testing.T) {
		before := f.countNotes()
		var wg sync.WaitGroup
		var first response
		wg.Add(1)
		go func() {
			defer wg.Done()
			first = post(m.key, "concurrent-key-1", `{"text":"block"}`)
		}()
		<-ctl.started
		assertError(t, post(m.key, "concurrent-key-1", `{"text":"block"}`), 409, sightline.CodeIdempotencyInProgress)
		close(ctl.release)
		wg.Wait()
		if first.status != 201 {
			t.Fatalf("first request: %d %s", first.status, first.body)
		}
		if r := post(m.key, "concurrent-key-1", `{"text":"block"}`); r.status != 201 || r.header.Get("Idempotent-Replayed") != "true" {
			t.Fatalf("after the first finished: %d %s", r.status, r.body)
		}
		if got := f.countNotes() - before; got != 1 {
			t.Fatalf("ran %d times", got)
		}
	})

	t.Run("unknown outcome is never replayed", func(t *testing.T) {
		assertError(t, post(m.key, "external-key-1", `{"text":"external"}`), 500, sightline.CodeInternal)
		assertError(t, post(m.key, "external-key-1", `{"text":"external"}`), 409, sightline.CodeOperationOutcomeUncertain)
	})
}

func TestConcurrentRequestsWithOneKeyRunOnce(t *testing.T) {
	t.Parallel()
	f := setup(t, setupOptions{mount: mountNotes(t, nil)})
	m, org := f.owner()
	const n = 8
	statuses := make(chan int, n)
	var wg sync.WaitGroup
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := f.do(call{method: "POST", path: "/api/v1/organizations/" + org.String() + "/test-notes", key: m.key,
				body: `{"text":"race"}`, header: map[string]string{"Idempotency-Key": "race-key-0001"}})
			statuses <- r.status
		}()
	}
	wg.Wait()
	close(statuses)
	for s := range statuses {
		if s != 201 && s != 409 {
			t.Errorf("status %d, want 201 or 409", s)
		}
	}
	if got := f.countNotes(); got != 1 {
		t.Fatalf("%d concurrent requests with one key wrote %d rows, want 1", n, got)
	}
}

func TestResponseHardening(t *testing.T) {
	t.Parallel()
	f := setup(t, setupOptions{mount: mountNotes(t, nil)})
	m, org := f.owner()
	notes := "/api/v1/organizations/" + org.String() + "/test-notes"
	post := func(body, contentType string) response {
		return f.do(call{method: "POST", path: notes, key: m.key, body: body,
			header: map[string]string{"Idempotency-Key": uuid.NewString(), "Content-Type": contentType}})
	}

	t.Run("nosniff on every answer", func(t *testing.T) {
		for _, r := range []response{
			f.do(call{method: "GET", path: "/api/v1/me", key: m.key}),
			f.do(call{method: "GET", path: "/api/v1/me"}),
			f.do(call{method: "GET", path: "/nowhere"}),
			f.do(call{method: "DELETE", path: "/api/v1/me", key: m.key}),
			f.do(call{method: "GET", path: "/healthz"}),
		} {
			if got := r.header.Get("X-Content-Type-Options"); got != "nosniff" {
				t.Errorf("%d answer has X-Content-Type-Options %q", r.status, got)
			}
		}
		rec := httptest.NewRecorder()
		MetricsHandler(f.registry).ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
		if got := rec.Header().Get("X-Content-Type-Options"); got != "nosniff" {
			t.Errorf("/metrics has X-Content-Type-Options %q", got)
		}
	})
	t.Run("bodies must be UTF-8", func(t *testing.T) {
		before := f.countNotes()
		for _, body := range []string{"{\"text\":\"caf\xe9\"}", `{"text":"\ud800"}`, `{"text":"a\udc00"}`, `{"text":"\ud800\u0041"}`} {
			assertError(t, post(body, "application/json"), 400, sightline.CodeBadRequest)
		}
		if f.countNotes() != before {
			t.Fatal("a refused body was stored")
		}
		if r := post(`{"text":"caf\u00e9 \ud83d\ude00 \\ud800"}`, "application/json"); r.status != 201 {
			t.Fatalf("valid escapes: %d %s", r.status, r.body)
		}
	})
	t.Run("bodies must be sent as JSON", func(t *testing.T) {
		for _, ct := range []string{"text/plain", "application/x-www-form-urlencoded", "application/json; charset=latin1", "application/jsonp"} {
			assertError(t, post(`{"text":"hi"}`, ct), http.StatusUnsupportedMediaType, sightline.CodeUnsupportedMediaType)
		}
		// No Content-Type at all: read as JSON, and refused as such when it is not.
		assertError(t, post(`not json`, ""), http.StatusBadRequest, sightline.CodeBadRequest)
		for _, ct := range []string{"", "application/json; charset=UTF-8", "application/merge-patch+json"} {
			if r := post(`{"text":"hi"}`, ct); r.status != 201 {
				t.Fatalf("%s: %d %s", ct, r.status, r.body)
			}
		}
	})
}

func TestHasLoneSurrogate(t *testing.T) {
	t.Parallel()
	for body, want := range map[string]bool{
		`{"a":"\ud83d\ude00"}`: false, `{"a":"\ud83d"}`: true, `{"a":"\ude00"}`: true, `{"a":"\ud83d\u0041"}`: true,
		`{"a":"\\ud83d"}`: false, `{"a":"\\\ud83d"}`: true, `{"a":"\u00e9\"\ud83d"}`: true, `{"a":"\uD83D\uDE00"}`: false,
		`{"a":"\ud83d`: true, `"\u12"`: false,
	} {
		if got := hasLoneSurrogate([]byte(body)); got != want {
			t.Errorf("hasLoneSurrogate(%s) = %v, want %v", body, got, want)
		}
	}
}
