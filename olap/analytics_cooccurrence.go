package olap

import (
	"context"

	"github.com/ClickHouse/clickhouse-go/v2/lib/driver"
	"github.com/google/uuid"
)

// Co-occurrence: the own brand head to head with each tracked competitor
// in the AI answers that name both, from cooccurrence_daily.

// CoOccurrence is the own brand against one competitor over the answers
// naming both. Averages, the win rate and the example are nil when no
// answer named both.
type CoOccurrence struct {
	SharedResponseCount   int64      `json:"sharedResponseCount"`
	BrandWins             int64      `json:"brandWins"`
	CompetitorWins        int64      `json:"competitorWins"`
	Ties                  int64      `json:"ties"`
	WinRate               *float64   `json:"winRate"`
	WinRateInterval       *Interval  `json:"winRateInterval"`
	AvgOwnPosition        *float64   `json:"avgOwnPosition"`
	AvgCompetitorPosition *float64   `json:"avgCompetitorPosition"`
	ExampleQueryText      *string    `json:"exampleQueryText"`
	ExampleAIResponseID   *uuid.UUID `json:"exampleAiResponseId"`
}

// CoOccurrences returns the head-to-head of each of competitors, in the
// order given, over the scope: brand wins name the own brand first, the
// win rate is 100 x brand wins / shared answers, and the example is the
// latest shared answer.
func (a *Analytics) CoOccurrences(ctx context.Context, s Scope, competitors []uuid.UUID) ([]CoOccurrence, error) {
	out := make([]CoOccurrence, len(competitors))
	if s.Empty() || len(competitors) == 0 {
		return out, nil
	}
	index := make(map[uuid.UUID]int, len(competitors))
	for i, id := range competitors {
		index[id] = i
	}
	where, args := s.rollupWhere()
	err := scanRows(ctx, a.Conn, "reading co-occurrence", `
		SELECT competitor_id, sum(shared_answers), sum(brand_wins), sum(competitor_wins), sum(ties),
		       sum(own_position_sum), sum(competitor_position_sum),
		       tupleElement(argMaxMerge(example), 1), tupleElement(argMaxMerge(example), 2)
		FROM cooccurrence_daily
		WHERE `+where+` AND competitor_id IN ?
		GROUP BY competitor_id`, append(args, competitors), func(rows driver.Rows) error {
		var (
			competitor, answer                           uuid.UUID
			shared, wins, losses, ties, ownSum, theirSum uint64
			queryText                                    string
		)
		if err := rows.Scan(&competitor, &shared, &wins, &losses, &ties, &ownSum, &theirSum, &answer, &queryText); err != nil {
			return err
		}
		i, ok := index[competitor]
		if !ok || shared == 0 {
			return nil
		}
		c := CoOccurrence{SharedResponseCount: int64(shared), BrandWins: int64(wins), CompetitorWins: int64(losses),
			Ties: int64(ties), ExampleQueryText: &queryText, ExampleAIResponseID: &answer}
		c.WinRate, c.WinRateInterval = Percent(float64(wins), int64(shared))
		own, theirs := float64(ownSum)/float64(shared), float64(theirSum)/float64(shared)
		c.AvgOwnPosition, c.AvgCompetitorPosition = &own, &theirs
		out[i] = c
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
