package olap

import "testing"

func TestParseSummary(t *testing.T) {
	for _, tc := range []struct {
		header      string
		rows, bytes uint64
		ok          bool
	}{
		{`{"read_rows":"1200","read_bytes":"34000","written_rows":"0","elapsed_ns":"5"}`, 1200, 34000, true},
		{`{"read_rows":"0","read_bytes":"0"}`, 0, 0, true},
		{``, 0, 0, false},
		{`not json`, 0, 0, false},
		{`{"written_rows":"3"}`, 0, 0, false},
	} {
		rows, bytes, ok := parseSummary(tc.header)
		if rows != tc.rows || bytes != tc.bytes || ok != tc.ok {
			t.Errorf("parseSummary(%q) = %d, %d, %v; want %d, %d, %v", tc.header, rows, bytes, ok, tc.rows, tc.bytes, tc.ok)
		}
	}
}
