package api

import (
	"context"
	"errors"
	"net/http"
	"testing"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/sightline/sightline"
)

// The pipeline is tested through operations mounted only in tests: a write
// whose body exercises every decoding rule and whose text steers what the
// operation does, so each idempotency case can be provoked on purpose.

type noteBody struct {
	Text   string     `json:"text" required:"true" validate:"min=1,max=20"`
	Email  *string    `json:"email" validate:"omitempty,email"`
	Ref    *uuid.UUID `json:"ref"`
	Size   *int       `json:"size" validate:"omitempty,min=1,max=10"`
	Tags   []string   `json:"tags,omitempty" validate:"max=3,dive,min=1"`
	Nested *struct {
		A int `json:"a" required:"true"`
	} `json:"nested"`
}

type note struct {
	ID   uuid.UUID `json:"id"`
	Text string    `json:"text"`
}

// noteControl lets a test hold the "block" note mid-write.
type noteControl struct {
	started chan struct{}
	release chan struct{}
}

func mountNotes(t *testing.T, ctl *noteControl) func(s *server) {
	return func(s *server) {
		if _, err := s.pool.Exec(context.Background(), `CREATE TABLE IF NOT EXISTS test_notes (
			id uuid PRIMARY KEY, organization_id uuid NOT NULL, text text NOT NULL)`); err != nil {
			t.Fatal(err)
		}
		noteSchema := object(props{"id": uuidSchema(), "text": stringSchema()}, "id", "text")
		s.handle(route{
			method: http.MethodPost, pattern: "/api/v1/organizations/{organizationId}/test-notes",
			id: "testCreateNote", tag: "test", summary: "test write",
			role: sightline.RoleManager, capability: sightline.CapabilityWrite,
			body: object(props{
				"text": stringSchema(), "email": stringSchema(), "ref": uuidSchema(), "size": integerSchema(),
				"tags": arrayOf(stringSchema()), "nested": object(props{"a": integerSchema()}),
			}, "text"),
			status: http.StatusCreated, response: noteSchema,
			writeFunc: func(r *request, tx pgx.Tx) (int, any, error) {
				in, err := decodeBody[noteBody](r.body)
				if err != nil {
					return 0, nil, err
				}
				n := note{ID: uuid.New(), Text: in.Text}
				if _, err := tx.Exec(r.Context(), `INSERT INTO test_notes (id, organization_id, text) VALUES ($1, $2, $3)`,
					n.ID, r.organizationID, n.Text); err != nil {
					return 0, nil, err
				}
				switch in.Text {
				case "fail":
					return 0, nil, errors.New("the operation broke")
				case "missing":
					return 0, nil, sightline.Errorf(sightline.CodeNotFound, "Nothing to attach the note to.")
				case "limited":
					if err := s.jobStarts.allow(r.Context(), r.organizationID); err != nil {
						return 0, nil, err
					}
				case "block":
					ctl.started <- struct{}{}
					<-ctl.release
				case "external":
					return http.StatusCreated, externalCall(func(context.Context) (int, any, error) {
						return 0, nil, errors.New("the review system did not answer")
					}), nil
				}
				return http.StatusCreated, n, nil
			},
		})
		s.handle(route{
			method: http.MethodDelete, pattern: "/api/v1/organizations/{organizationId}/test-notes",
			id: "testDeleteNotes", tag: "test", summary: "test write with a required DELETE body",
			role: sightline.RoleManager, capability: sightline.CapabilityWrite,
			body:     object(props{"ids": arrayOf(uuidSchema())}, "ids"),
			response: object(props{"deleted": integerSchema()}, "deleted"),
			writeFunc: func(r *request, tx pgx.Tx) (int, any, error) {
				in, err := decodeBody[struct {
					IDs []uuid.UUID `json:"ids" required:"true"`
				}](r.body)
				if err != nil {
					return 0, nil, err
				}
				tag, err := tx.Exec(r.Context(), `DELETE FROM test_notes WHERE organization_id = $1 AND id = ANY($2)`, r.organizationID, in.IDs)
				if err != nil {
					return 0, nil, err
				}
				return http.StatusOK, map[string]int64{"deleted": tag.RowsAffected()}, nil
			},
		})
		s.handle(route{
			method: http.MethodPost, pattern: "/api/v1/organizations/{organizationId}/test-archive",
			id: "testArchive", tag: "test", summary: "test owner-only write without a body",
			role: sightline.RoleOwner, capability: sightline.CapabilityOrganizationManage,
			response: object(props{"ok": boolSchema()}, "ok"),
			writeFunc: func(r *request, tx pgx.Tx) (int, any, error) {
				return http.StatusOK, map[string]bool{"ok": true}, nil
			},
		})
		s.handle(route{
			method: http.MethodGet, pattern: "/api/v1/test-panic", id: "testPanic", tag: "test", summary: "test panic",
			response: object(props{}),
			read: func(r *request) (any, error) {
				panic("test panic")
			},
		})
		s.handle(route{
			method: http.MethodGet, pattern: "/api/v1/test-error", id: "testError", tag: "test", summary: "test unexpected error",
			response: object(props{}),
			read: func(r *request) (any, error) {
				return nil, errors.New("secret database detail")
			},
		})
	}
}

func (f *fixture) countNotes() int {
	f.t.Helper()
	var n int
	if err := f.pool.QueryRow(context.Background(), `SELECT count(*) FROM test_notes`).Scan(&n); err != nil {
		f.t.Fatal(err)
	}
	return n
}
