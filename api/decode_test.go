package api

import (
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/go-playground/validator/v10"
	"github.com/google/uuid"

	"github.com/sightline/sightline"
)

// A body of many bad values is answered with a bounded list of problems:
// the answer and the work spent on it do not grow with the body.
func TestValidationDetailsAreCapped(t *testing.T) {
	t.Parallel()
	// About 1 MB of ids, none of them a uuid.
	body := `{"ids":[` + strings.TrimSuffix(strings.Repeat(`"not-a-uuid",`, 80_000), ",") + `]}`
	_, err := decodeBody[struct {
		IDs []uuid.UUID `json:"ids" required:"true"`
	}]([]byte(body))
	// The decoder itself stops at the cap, not only the answer.
	var e *sightline.Error
	if !errors.As(err, &e) || len(e.Details) != sightline.MaxDetails {
		t.Fatalf("decoding kept %d fields of problems, want %d", len(e.Details), sightline.MaxDetails)
	}
	status, envelope, _ := errorResponse(httptest.NewRequest(http.MethodPost, "/", nil), slog.New(slog.DiscardHandler), err)
	if status != http.StatusBadRequest || envelope.Code != sightline.CodeValidation {
		t.Fatalf("%d %s, want 400 validation_error", status, envelope.Code)
	}
	// Reported under the field's name, one problem per item, in order.
	ids := envelope.Details["ids"]
	if len(envelope.Details) != 1 || len(ids) != sightline.MaxDetails {
		t.Fatalf("details hold %d fields, ids %d problems; want 1 and %d", len(envelope.Details), len(ids), sightline.MaxDetails)
	}
	for i, d := range ids {
		if d.Code != sightline.DetailInvalidUUID || !strings.HasPrefix(d.Message, "ids["+strconv.Itoa(i)+"]: ") {
			t.Fatalf("details.ids[%d] = %v", i, d)
		}
	}
	if !strings.Contains(envelope.Message, "first 100") {
		t.Errorf("message %q does not say the list is cut", envelope.Message)
	}
	raw, _ := json.Marshal(envelope)
	if len(raw) > 16<<10 {
		t.Fatalf("answer is %d bytes", len(raw))
	}
}

// Details built elsewhere than the decoder are capped where the envelope
// is written, naming the first fields in natural order and counting the rest.
func TestEnvelopeCapsDetails(t *testing.T) {
	t.Parallel()
	errs := sightline.ValidationErrors{}
	for i := range 250 {
		errs.Add("names["+strconv.Itoa(i)+"]", sightline.DetailInvalidValue, "must not be empty")
	}
	_, envelope, _ := errorResponse(httptest.NewRequest(http.MethodPost, "/", nil), slog.New(slog.DiscardHandler), errs.Err())
	names := envelope.Details["names"]
	if len(envelope.Details) != 1 || len(names) != sightline.MaxDetails {
		t.Fatalf("details hold %d fields, names %d problems; want 1 and %d", len(envelope.Details), len(names), sightline.MaxDetails)
	}
	if last := names[len(names)-1].Message; !strings.HasPrefix(last, "names[99]: ") {
		t.Fatalf("the last problem listed is %q, want names[99]'s", last)
	}
	if !strings.Contains(envelope.Message, "150 more") {
		t.Errorf("message %q does not count the fields left out", envelope.Message)
	}
}

func TestNaturalCompare(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		a, b string
		want int
	}{
		{"ids[2]", "ids[10]", -1}, {"ids[10]", "ids[2]", 1}, {"ids[02]", "ids[2]", 0}, {"a", "b", -1},
		{"ids[1].name", "ids[1]", 1}, {"x9", "x10", -1}, {"", "a", -1},
	} {
		if got := naturalCompare(tt.a, tt.b); got != tt.want {
			t.Errorf("naturalCompare(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}

// Every enum tag accepts exactly the values of its list, and refuses any
// other with a message naming them all.
func TestEnumTagsFollowTheirLists(t *testing.T) {
	t.Parallel()
	for tag, values := range enums {
		t.Run(tag, func(t *testing.T) {
			t.Parallel()
			for _, value := range values {
				if err := validate().Var(value, tag); err != nil {
					t.Errorf("%q refused: %v", value, err)
				}
			}
			want := "must be one of: " + strings.Join(values, ", ")
			for _, value := range []string{"", "nope", strings.ToUpper(values[0]), values[0] + " "} {
				var fieldErrs validator.ValidationErrors
				if !errors.As(validate().Var(value, tag), &fieldErrs) || len(fieldErrs) != 1 {
					t.Fatalf("%q accepted", value)
				}
				if got := validationMessage(fieldErrs[0]); got != want {
					t.Errorf("%q: %q, want %q", value, got, want)
				}
			}
		})
	}
}

// boundedBody is a body with bounded fields.
type boundedBody struct {
	Names []string `json:"names" validate:"min=1,max=2"`
	Code  string   `json:"code" validate:"min=1,max=3"`
}

func TestBoundMessagesCountInTheRightNumber(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ body, field, want string }{
		{`{"names":[],"code":"abc"}`, "names", "must have at least 1 item"},
		{`{"names":["a"],"code":""}`, "code", "must have at least 1 character"},
		{`{"names":["a","b","c"],"code":"a"}`, "names", "must have at most 2 items"},
		{`{"names":["a"],"code":"abcd"}`, "code", "must have at most 3 characters"},
	} {
		_, err := decodeBody[boundedBody]([]byte(tt.body))
		var e *sightline.Error
		if !errors.As(err, &e) || len(e.Details[tt.field]) != 1 || e.Details[tt.field][0].Message != tt.want {
			t.Errorf("%s: %v, want %s %q", tt.body, e.Details, tt.field, tt.want)
		}
	}
}
