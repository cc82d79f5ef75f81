package main

import (
	"bytes"
	"testing"

	chproto "github.com/ClickHouse/ch-go/proto"
	"github.com/ClickHouse/clickhouse-go/v2"
	"github.com/ClickHouse/clickhouse-go/v2/lib/column"
	"github.com/ClickHouse/clickhouse-go/v2/lib/proto"
)

// TestHelloBlockDecodes decodes the handshake answer the way clickhouse-go/v2 does, at the
// revision it sends and at revision 0.
func TestHelloBlockDecodes(t *testing.T) {
	t.Parallel()
	for _, revision := range []uint64{clickhouse.ClientTCPProtocolVersion, 0} {
		b, err := helloBlock(revision, []byte(`["host","26.5.1.1","Etc/UTC"]`+"\n"))
		if err != nil {
			t.Fatal(err)
		}
		block := proto.Block{ServerContext: &column.ServerContext{}}
		r := chproto.NewReader(bytes.NewReader(b))
		if err := block.Decode(r, revision); err != nil {
			t.Fatalf("revision %d: %v", revision, err)
		}
		if block.Rows() != 1 || len(block.Columns) != 4 {
			t.Fatalf("revision %d: %d rows, %d columns", revision, block.Rows(), len(block.Columns))
		}
		got := []any{block.Columns[0].Row(0, false), block.Columns[1].Row(0, false), block.Columns[2].Row(0, false), block.Columns[3].Row(0, false)}
		want := []any{"host", "26.5.1.1", uint32(0), "Etc/UTC"}
		for i := range want {
			if got[i] != want[i] {
				t.Errorf("revision %d: column %d = %v, want %v", revision, i, got[i], want[i])
			}
		}
	}
}
