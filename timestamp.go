package sightline

import (
	"database/sql/driver"
	"fmt"
	"time"
)

// TimestampLayout is how every timestamp leaves the API: RFC 3339, UTC,
// with milliseconds.
const TimestampLayout = "2006-01-02T15:04:05.000Z"

// Timestamp is a point in time that marshals in TimestampLayout and scans
// from Postgres timestamptz.
type Timestamp struct{ time.Time }

// MarshalJSON renders the timestamp in TimestampLayout.
func (t Timestamp) MarshalJSON() ([]byte, error) {
	return []byte(`"` + t.String() + `"`), nil
}

// String renders the timestamp in TimestampLayout.
func (t Timestamp) String() string { return t.UTC().Format(TimestampLayout) }

// Scan reads a timestamptz.
func (t *Timestamp) Scan(src any) error {
	v, ok := src.(time.Time)
	if !ok {
		return fmt.Errorf("cannot scan %T into Timestamp", src)
	}
	t.Time = v
	return nil
}

// Value writes the timestamp as a time.Time.
func (t Timestamp) Value() (driver.Value, error) { return t.Time, nil }
