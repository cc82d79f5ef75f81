package main

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
)

// The handshake: clickhouse-go/v2 opens every HTTP connection with helloQuery, reads the
// answer as a Native block in the layout of the protocol revision it sends as
// client_protocol_version, and from then on reads every result in the layout of the
// revision the answer names. chDB writes plain Native, the layout of revision 0, so the
// answer is built here in the client's layout and names revision 0.

// helloQuery is the driver's handshake query.
const helloQuery = "SELECT displayName(), version(), revision(), timezone()"

// helloValuesQuery fetches what the answer reports; the revision is always 0.
const helloValuesQuery = "SELECT displayName(), version(), timezone()"

// minRevisionWithCustomSerialization is DBMS_MIN_REVISION_WITH_CUSTOM_SERIALIZATION: from
// it on, every column header carries a has-custom-serialization byte.
const minRevisionWithCustomSerialization = 54454

// helloBlock encodes the answer to helloQuery, given the engine's JSONCompactEachRow
// answer to helloValuesQuery, as a Native block for the client's revision.
func helloBlock(revision uint64, values []byte) ([]byte, error) {
	var row [3]string
	if err := json.Unmarshal(values, &row); err != nil {
		return nil, fmt.Errorf("decoding handshake values %q: %w", values, err)
	}
	displayName, version, timezone := row[0], row[1], row[2]

	var b []byte
	putString := func(s string) {
		b = binary.AppendUvarint(b, uint64(len(s)))
		b = append(b, s...)
	}
	if revision > 0 {
		// BlockInfo: field 1 is_overflows = false, field 2 bucket_num = -1, end.
		b = append(b, 1, 0, 2, 0xff, 0xff, 0xff, 0xff, 0)
	}
	b = binary.AppendUvarint(b, 4) // columns
	b = binary.AppendUvarint(b, 1) // rows
	column := func(name, typ string, data func()) {
		putString(name)
		putString(typ)
		if revision >= minRevisionWithCustomSerialization {
			b = append(b, 0)
		}
		data()
	}
	column("displayName()", "String", func() { putString(displayName) })
	column("version()", "String", func() { putString(version) })
	column("revision()", "UInt32", func() { b = binary.LittleEndian.AppendUint32(b, 0) })
	column("timezone()", "String", func() { putString(timezone) })
	return b, nil
}
