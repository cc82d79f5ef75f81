package olap_test

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/sightline/sightline"
	"github.com/sightline/sightline/olap"
)

// BenchmarkWriterPassRows measures the Writer end to end: many checks
// writing at once, each waiting for its pass to be stored, as the check
// worker does. One operation is one pass of an AI answer naming 6 brands
// and citing 8 sources (1 answer, 6 mentions, 8 citations and 4 rank rows:
// 19 rows); rows/s counts rows of the capture tables.
func BenchmarkWriterPassRows(b *testing.B) {
	f := newCapturesFixture(b)
	competitors := []uuid.UUID{uuid.New(), uuid.New(), uuid.New()}
	pass := func(i int) olap.PassRows {
		p := f.pass(uuid.New(), uuid.New(), sightline.EngineChatGPT, 0, 1, i%24)
		p.ResponseText = "An answer naming six brands and citing eight pages, about as long as engines answer."
		p.Mentions = []olap.Mention{f.own(1, sightline.MentionRecommendation, sightline.TonePositive, sightline.QualifierDirect)}
		for j, c := range competitors {
			p.Mentions = append(p.Mentions, f.competitor(c, fmt.Sprintf("Competitor %d", j), j+2, sightline.MentionComparison,
				sightline.ToneNeutral, sightline.QualifierDirect))
		}
		p.Mentions = append(p.Mentions,
			f.mention("Foo", sightline.RelationUntrackedCompetitor, nil, 5, sightline.MentionListing, sightline.ToneNeutral, sightline.QualifierDirect),
			f.mention("Bar", sightline.RelationUntrackedCompetitor, nil, 6, sightline.MentionExample, sightline.ToneNegative, sightline.QualifierConditional))
		for j := range 8 {
			rel, id := sightline.RelationNone, (*uuid.UUID)(nil)
			if j < len(competitors) {
				rel, id = sightline.RelationTrackedCompetitor, &competitors[j]
			}
			p.Citations = append(p.Citations, f.citation(j+1, fmt.Sprintf("site%d.example", j), fmt.Sprintf("/page/%d", i%50), rel, id))
		}
		return p
	}
	const rowsPerPass = 1 + 6 + 8 + 4

	w := olap.NewWriter(f.conn, olap.WriterOptions{FlushRows: 4000})
	var n atomic.Int64
	b.SetParallelism(256) // concurrent checks per core, each blocked on its flush
	b.ResetTimer()
	start := time.Now()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if err := w.Write(context.Background(), pass(int(n.Add(1)))); err != nil {
				b.Error(err)
				return
			}
		}
	})
	elapsed := time.Since(start)
	b.StopTimer()
	if err := w.Close(context.Background()); err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(n.Load()*rowsPerPass)/elapsed.Seconds(), "rows/s")
}
