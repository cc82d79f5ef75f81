package api

import (
	"bytes"
	"encoding"
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/go-playground/validator/v10"
	"github.com/google/uuid"

	"github.com/sightline/sightline"
)

// Request bodies are decoded strictly, in one pass that reports every
// problem at once:
//   - a body that is not JSON is a bad_request;
//   - a field the operation does not know is unknown_field, at any depth;
//   - a value of the wrong JSON type (null included, unless the Go field
//     is a pointer) is invalid_type;
//   - a field tagged `required:"true"` that is absent is missing_field;
//   - `validate` tags (go-playground/validator) check values, their tags
//     mapping to detail codes in detailCodeOf.
//
// Field names in details are JSON paths: name, competitors[1].brandNames[0].

// decodeBody decodes body into a new T.
func decodeBody[T any](body []byte) (*T, error) {
	if !json.Valid(body) {
		return nil, sightline.Errorf(sightline.CodeBadRequest, "The request body is not valid JSON.")
	}
	var out T
	d := &decoder{errs: sightline.ValidationErrors{}}
	d.value(json.RawMessage(body), reflect.ValueOf(&out).Elem(), "")
	if d.full() {
		// A body this wrong is answered with what was found so far: going
		// on would only grow the answer and the memory spent on it.
		return nil, &sightline.Error{Code: sightline.CodeValidation, Details: d.errs,
			Message: fmt.Sprintf("The request has invalid fields; decoding stopped after the first %d.", sightline.MaxDetails)}
	}
	if _, notObject := d.errs["body"]; !notObject {
		// Value rules run too, so that one answer names every problem; a
		// field that failed to decode keeps only its decoding problem.
		if err := validateStruct(&out, d.errs); err != nil {
			return nil, err
		}
	}
	if err := d.errs.Err(); err != nil {
		return nil, err
	}
	return &out, nil
}

// decoder collects the problems of one body, up to sightline.MaxDetails
// fields: a 1 MB array of bad ids must not become a million details.
type decoder struct {
	errs sightline.ValidationErrors
}

func (d *decoder) full() bool { return len(d.errs) >= sightline.MaxDetails }

func (d *decoder) add(field string, code sightline.DetailCode, format string, args ...any) {
	if _, known := d.errs[field]; known || !d.full() {
		d.errs.Add(field, code, format, args...)
	}
}

// value decodes raw into v, recording problems under path.
func (d *decoder) value(raw json.RawMessage, v reflect.Value, path string) {
	isNull := bytes.Equal(bytes.TrimSpace(raw), []byte("null"))
	if v.Kind() == reflect.Pointer {
		if isNull {
			v.SetZero()
			return
		}
		v.Set(reflect.New(v.Type().Elem()))
		d.value(raw, v.Elem(), path)
		return
	}
	if isNull {
		d.add(fieldName(path), sightline.DetailInvalidType, "must not be null; expected %s", jsonTypeName(v.Type()))
		return
	}
	if _, custom := v.Addr().Interface().(json.Unmarshaler); custom {
		if err := json.Unmarshal(raw, v.Addr().Interface()); err != nil {
			d.add(fieldName(path), sightline.DetailInvalidType, "expected %s", jsonTypeName(v.Type()))
		}
		return
	}
	if _, text := v.Addr().Interface().(encoding.TextUnmarshaler); text {
		d.text(raw, v, path)
		return
	}
	switch v.Kind() {
	case reflect.Struct:
		d.object(raw, v, path)
	case reflect.Slice:
		var items []json.RawMessage
		if err := json.Unmarshal(raw, &items); err != nil {
			d.add(fieldName(path), sightline.DetailInvalidType, "expected %s", jsonTypeName(v.Type()))
			return
		}
		v.Set(reflect.MakeSlice(v.Type(), len(items), len(items)))
		for i, item := range items {
			if d.full() {
				return
			}
			d.value(item, v.Index(i), path+"["+strconv.Itoa(i)+"]")
		}
	default:
		dec := json.NewDecoder(bytes.NewReader(raw))
		if err := dec.Decode(v.Addr().Interface()); err != nil {
			d.add(fieldName(path), sightline.DetailInvalidType, "expected %s", jsonTypeName(v.Type()))
		}
	}
}

// text decodes a JSON string through the type's UnmarshalText, so that a
// uuid that is a string but no uuid says invalid_uuid, not invalid_type.
func (d *decoder) text(raw json.RawMessage, v reflect.Value, path string) {
	var text string
	if err := json.Unmarshal(raw, &text); err != nil {
		d.add(fieldName(path), sightline.DetailInvalidType, "expected %s", jsonTypeName(v.Type()))
		return
	}
	if err := v.Addr().Interface().(encoding.TextUnmarshaler).UnmarshalText([]byte(text)); err != nil {
		if v.Type() == reflect.TypeFor[uuid.UUID]() {
			d.add(fieldName(path), sightline.DetailInvalidUUID, "must be a uuid")
		} else {
			d.add(fieldName(path), sightline.DetailInvalidValue, "is not a valid value")
		}
	}
}

// object decodes a JSON object into the struct v. Fields are taken in name
// order, so that a capped answer names the same fields every time.
func (d *decoder) object(raw json.RawMessage, v reflect.Value, path string) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil {
		if path == "" {
			d.add("body", sightline.DetailInvalidType, "the body must be a JSON object")
		} else {
			d.add(path, sightline.DetailInvalidType, "expected an object")
		}
		return
	}
	known := structFields(v.Type())
	for _, name := range slices.Sorted(maps.Keys(fields)) {
		if d.full() {
			return
		}
		f, ok := known[name]
		if !ok {
			d.add(join(path, name), sightline.DetailUnknownField, "is not a field of this request")
			continue
		}
		d.value(fields[name], v.Field(f.index), join(path, name))
	}
	for _, name := range slices.Sorted(maps.Keys(known)) {
		if _, present := fields[name]; known[name].required && !present {
			d.add(join(path, name), sightline.DetailMissingField, "is required")
		}
	}
}

type structField struct {
	index    int
	required bool
}

var fieldCache sync.Map // reflect.Type -> map[string]structField

func structFields(t reflect.Type) map[string]structField {
	if cached, ok := fieldCache.Load(t); ok {
		return cached.(map[string]structField)
	}
	fields := map[string]structField{}
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if !f.IsExported() || name == "" || name == "-" {
			continue
		}
		fields[name] = structField{index: i, required: f.Tag.Get("required") == "true"}
	}
	fieldCache.Store(t, fields)
	return fields
}

func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

func fieldName(path string) string {
	if path == "" {
		return "body"
	}
	return path
}

func jsonTypeName(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == reflect.TypeFor[uuid.UUID]() {
		return "a uuid string"
	}
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "a boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "an integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Struct, reflect.Map:
		return "an object"
	}
	return "a value of another type"
}

var validate = sync.OnceValue(func() *validator.Validate {
	v := validator.New(validator.WithRequiredStructEnabled())
	v.RegisterTagNameFunc(func(f reflect.StructField) string {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" {
			return ""
		}
		return name
	})
	for tag, values := range enums {
		err := v.RegisterValidation(tag, func(fl validator.FieldLevel) bool {
			return slices.Contains(values, fl.Field().String())
		})
		if err != nil {
			panic(fmt.Sprintf("registering validation %q: %v", tag, err))
		}
	}
	return v
})

// enums are the closed value sets a body field can be held to, each by a
// validate tag of its name, so that validation and the OpenAPI document
// read the same list: a bad value is invalid_value naming every allowed one.
var enums = map[string][]string{
	"engine":         stringsOf(sightline.Engines),
	"checkFrequency": stringsOf(sightline.CheckFrequencies),
	"clusteringMode": stringsOf(sightline.ClusteringModes),
	"previewAction":  previewActions,
	"reportType":     reportTypes,
}

// detailCodeOf maps a validator tag to the detail code it reports.
var detailCodeOf = map[string]sightline.DetailCode{
	"required": sightline.DetailMissingField,
	"email":    sightline.DetailInvalidEmail,
	"uuid":     sightline.DetailInvalidUUID,
	"min":      sightline.DetailOutOfRange,
	"max":      sightline.DetailOutOfRange,
	"len":      sightline.DetailOutOfRange,
	"gte":      sightline.DetailOutOfRange,
	"lte":      sightline.DetailOutOfRange,
	"gt":       sightline.DetailOutOfRange,
	"lt":       sightline.DetailOutOfRange,
}

// validateStruct adds v's value-rule failures to errs, skipping fields
// that already have a problem.
func validateStruct(v any, errs sightline.ValidationErrors) error {
	err := validate().Struct(v)
	if err == nil {
		return nil
	}
	var fieldErrs validator.ValidationErrors
	if !asValidationErrors(err, &fieldErrs) {
		return fmt.Errorf("validating request: %w", err)
	}
	for _, fe := range fieldErrs {
		_, path, _ := strings.Cut(fe.Namespace(), ".") // drop the struct's own name
		if _, seen := errs[path]; seen || len(errs) >= sightline.MaxDetails {
			continue
		}
		code, ok := detailCodeOf[fe.Tag()]
		if !ok {
			code = sightline.DetailInvalidValue
		}
		errs.Add(path, code, "%s", validationMessage(fe))
	}
	return nil
}

func asValidationErrors(err error, out *validator.ValidationErrors) bool {
	ve, ok := err.(validator.ValidationErrors)
	if ok {
		*out = ve
	}
	return ok
}

func validationMessage(fe validator.FieldError) string {
	if values, ok := enums[fe.Tag()]; ok {
		return "must be one of: " + strings.Join(values, ", ")
	}
	switch fe.Tag() {
	case "required":
		return "is required"
	case "email":
		return "must be an email address"
	case "uuid":
		return "must be a uuid"
	case "min", "gte":
		return boundMessage(fe, "at least")
	case "max", "lte":
		return boundMessage(fe, "at most")
	case "len":
		return boundMessage(fe, "exactly")
	}
	return "is not valid (" + fe.Tag() + ")"
}

// boundMessage says what fe's parameter bounds: the characters of a text,
// the items of a list, else the value itself; an exact length always
// counts items.
func boundMessage(fe validator.FieldError, bound string) string {
	counted := func(unit string) string {
		if fe.Param() != "1" {
			unit += "s"
		}
		return "must have " + bound + " " + fe.Param() + " " + unit
	}
	switch {
	case fe.Kind() == reflect.String:
		return counted("character")
	case fe.Kind() == reflect.Slice || bound == "exactly":
		return counted("item")
	}
	return "must be " + bound + " " + fe.Param()
}
