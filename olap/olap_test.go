package olap_test

import (
	"testing"

	"github.com/sightline/sightline/olap"
)

func TestOptionsMaxQuerySize(t *testing.T) {
	for _, c := range []struct {
		url  string
		want any
	}{
		{"http://127.0.0.1:18123/default", 16 << 20},
		{"http://127.0.0.1:18123/default?max_query_size=1000", 1000},
		{"clickhouse://user:pass@ch.internal:9000/sightline", 16 << 20},
	} {
		opts, err := olap.Options(c.url)
		if err != nil {
			t.Fatal(err)
		}
		if got := opts.Settings["max_query_size"]; got != c.want {
			t.Errorf("%s: max_query_size %v (%T), want %v", c.url, got, got, c.want)
		}
	}
}
