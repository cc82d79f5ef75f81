package api

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"mime"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/sightline/sightline"
)

// Listings answer text/csv when the Accept header prefers it to JSON
// (negotiate): the same page, no total. Columns are the JSON fields of a row in order; list
// values are joined with "; "; a cell that a spreadsheet would run as a
// formula (starting with = + - @, a tab or a carriage return: OWASP's CSV
// injection list) is prefixed with an apostrophe.

// listing is the JSON shape of every generic listing.
type listing[T any] struct {
	Page   []T `json:"page"`
	Total  int `json:"total"`
	Limit  int `json:"limit"`
	Offset int `json:"offset"`
}

func (l listing[T]) csvRows() []any {
	rows := make([]any, len(l.Page))
	for i := range l.Page {
		rows[i] = l.Page[i]
	}
	return rows
}

// rowType lets an empty page still produce its header line.
func (l listing[T]) rowType() reflect.Type { return reflect.TypeFor[T]() }

// csvListing is implemented by every listing body.
type csvListing interface {
	csvRows() []any
	rowType() reflect.Type
}

// Media types the API answers in.
const (
	mediaJSON = "application/json"
	mediaCSV  = "text/csv"
)

// negotiate picks the representation of an operation's answer from the
// Accept header (RFC 9110 12.5.1): each type the operation serves (JSON,
// and CSV on listings) takes the quality of the most specific range that
// matches it, the best quality wins, and at equal quality the type whose
// range is listed first (JSON when one range covers both). No Accept
// header, or one that admits none of the operation's types, means JSON:
// the contract has no 406, and RFC 9110 lets a server answer its default
// representation rather than refuse.
func negotiate(accept string, csv bool) string {
	if strings.TrimSpace(accept) == "" {
		return mediaJSON
	}
	offers := []string{mediaJSON}
	if csv {
		offers = append(offers, mediaCSV)
	}
	best, bestQ, bestIndex := "", 0.0, 0
	for _, offer := range offers {
		q, index := acceptQuality(accept, offer)
		if q > bestQ || (q == bestQ && q > 0 && index < bestIndex) {
			best, bestQ, bestIndex = offer, q, index
		}
	}
	if best == "" {
		return mediaJSON
	}
	return best
}

// acceptQuality is the quality accept gives mediaType, from its most
// specific matching range, and that range's position in the header.
func acceptQuality(accept, mediaType string) (q float64, index int) {
	typ, _, _ := strings.Cut(mediaType, "/")
	specificity := -1
	for i, part := range strings.Split(accept, ",") {
		rng, params, err := mime.ParseMediaType(strings.TrimSpace(part))
		if err != nil {
			continue
		}
		s := -1
		switch rng {
		case mediaType:
			s = 2
		case typ + "/*":
			s = 1
		case "*/*":
			s = 0
		}
		if s <= specificity {
			continue
		}
		specificity, q, index = s, 1.0, i
		if v, ok := params["q"]; ok {
			if f, err := strconv.ParseFloat(v, 64); err == nil && f >= 0 && f <= 1 {
				q = f
			}
		}
	}
	return q, index
}

// encodeCSV renders the listing's page.
func encodeCSV(l csvListing) ([]byte, error) {
	t := l.rowType()
	var columns []int
	var header []string
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if !f.IsExported() || name == "" || name == "-" {
			continue
		}
		columns = append(columns, i)
		header = append(header, name)
	}
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	if err := w.Write(header); err != nil {
		return nil, err
	}
	for _, row := range l.csvRows() {
		v := reflect.ValueOf(row)
		record := make([]string, len(columns))
		for j, i := range columns {
			cell, err := csvCell(v.Field(i))
			if err != nil {
				return nil, fmt.Errorf("column %s: %w", header[j], err)
			}
			record[j] = escapeFormula(cell)
		}
		if err := w.Write(record); err != nil {
			return nil, err
		}
	}
	w.Flush()
	return buf.Bytes(), w.Error()
}

func csvCell(v reflect.Value) (string, error) {
	for v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface {
		if v.IsNil() {
			return "", nil
		}
		v = v.Elem()
	}
	if t, ok := v.Interface().(time.Time); ok {
		return t.UTC().Format(sightline.TimestampLayout), nil
	}
	if s, ok := v.Interface().(fmt.Stringer); ok && v.Kind() != reflect.Slice {
		return s.String(), nil
	}
	switch v.Kind() {
	case reflect.String:
		return v.String(), nil
	case reflect.Slice:
		parts := make([]string, v.Len())
		for i := range parts {
			p, err := csvCell(v.Index(i))
			if err != nil {
				return "", err
			}
			parts[i] = p
		}
		return strings.Join(parts, "; "), nil
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64:
		return fmt.Sprint(v.Interface()), nil
	}
	b, err := json.Marshal(v.Interface())
	return string(b), err
}

// formulaStarts are the first characters that make a spreadsheet read a
// cell as a formula.
const formulaStarts = "=+-@\t\r"

// escapeFormula defuses spreadsheet formula injection.
func escapeFormula(cell string) string {
	if cell != "" && strings.IndexByte(formulaStarts, cell[0]) >= 0 {
		return "'" + cell
	}
	return cell
}
