// Package simulator is a deterministic stand-in for the answer, search and
// shopping engines. It writes realistic captures about a project's market
// (its own brand, its tracked competitors and brands it does not track) and,
// beside each capture, the Truth of what the capture says, so extraction can
// be scored and analytics exercised over months of data without calling the
// internet.
//
// Everything is a pure function of the simulator's seed and the request:
// the same seed, tracked query, query text, engine, country, UTC day and pass
// always give the same bytes. Visibility drifts smoothly from day to day per
// tracked query, so trends and movers computed over simulated months are real.
package simulator

import (
	"context"
	"encoding/binary"
	"fmt"
	"hash"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"time"

	"github.com/google/uuid"

	"github.com/sightline/sightline"
	"github.com/sightline/sightline/ingest"
)

// Simulator answers requests with generated captures. It holds no state
// besides its seed and is safe for concurrent use.
type Simulator struct {
	seed uint64
}

// New returns a simulator whose every answer derives from seed.
func New(seed uint64) *Simulator { return &Simulator{seed: seed} }

var _ ingest.Engine = (*Simulator)(nil)

// Ask implements ingest.Engine with Generate, dropping the truth.
func (s *Simulator) Ask(ctx context.Context, req ingest.Request) (ingest.Capture, error) {
	if err := ctx.Err(); err != nil {
		return ingest.Capture{}, err
	}
	if !req.Engine.Valid() {
		return ingest.Capture{}, fmt.Errorf("simulator: unknown engine %q", req.Engine)
	}
	c, _ := s.Generate(req)
	return c, nil
}

// Truth is what a generated capture says, as extraction should read it.
// Exactly one group is filled, by engine kind, like the capture's parts.
type Truth struct {
	// Mentions has one entry per distinct brand an answer names, ordered by
	// Position. A brand's type, tone and qualifier are those of its first
	// mention.
	Mentions []TruthMention
	// Citations has one entry per cited source of an answer, in citation order.
	Citations []TruthCitation
	// Results has one entry per organic result of a search page, by rank.
	Results []TruthRank
	// Offers has one entry per offer of a shopping page, by rank.
	Offers []TruthRank
}

// TruthMention is one brand an answer names.
type TruthMention struct {
	BrandName    string // as the answer first writes it
	Relation     sightline.Relation
	CompetitorID *uuid.UUID // tracked competitors only
	Position     int        // 1-based order of first appearance among all brands named
	Type         sightline.MentionType
	Tone         sightline.Tone
	Qualifier    sightline.Qualifier
}

// TruthCitation is one cited source of an answer. A Google /url?q= link is
// resolvable (its destination is in the link): Domain and Relation are the
// destination's. A Vertex AI grounding redirect is not: Unresolved is set,
// Domain is the redirector's and Relation is none.
type TruthCitation struct {
	Position     int
	Domain       string // host without "www."
	Unresolved   bool
	Relation     sightline.Relation // own, tracked-competitor or none
	CompetitorID *uuid.UUID
}

// TruthRank is one search result or shopping offer and whose site it is on,
// judged by its (resolved) URL's domain.
type TruthRank struct {
	Rank         int
	Domain       string // host without "www."
	Relation     sightline.Relation
	CompetitorID *uuid.UUID
}

// Generate returns the capture an engine gives for req and its truth. An
// unknown engine gives a capture with no part and an empty truth. Answers
// are in English whatever req.Locale; req.PassCount changes nothing.
func (s *Simulator) Generate(req ingest.Request) (ingest.Capture, Truth) {
	day := dayNumber(req.Day)
	c := ingest.Capture{Engine: req.Engine, CapturedAt: s.capturedAt(req, day)}
	var t Truth
	if !req.Engine.Valid() {
		return c, t
	}
	p := s.profile(req)
	m := s.market(req, day)
	r := s.key("answer").query(req).num(day).num(int64(req.PassIndex)).rand()
	switch req.Engine {
	case sightline.EngineGoogleSERP:
		c.Search, t.Results = searchPage(r, m, p, day)
	case sightline.EngineGoogleShopping:
		product := titleCase(topicOf(req.QueryText))
		if product == "" {
			product = "Starter Kit"
		}
		// The product's typical price, 10 to 600 dollars, is the query's.
		base := 10 * math.Pow(60, s.key("price").str(req.QueryText).rand().Float64())
		c.Shopping, t.Offers = shoppingPage(r, req.Country, m, p, day, product, base)
	default:
		c.Answer, t.Mentions, t.Citations = answer(r, req.Engine, m, p, day)
	}
	return c, t
}

// dayNumber is the UTC day of t as days since 1970-01-01.
func dayNumber(t time.Time) int64 {
	u := t.UTC()
	return time.Date(u.Year(), u.Month(), u.Day(), 0, 0, 0, 0, time.UTC).Unix() / 86400
}

// capturedAt places a run at a time of day fixed by the tracked query and the
// day, and each pass 95 seconds after the previous one, so re-runs are
// identical and passes keep their order.
func (s *Simulator) capturedAt(req ingest.Request, day int64) time.Time {
	r := s.key("clock").query(req).num(day).rand()
	ms := 5*60*1000 + r.Int64N(20*3600*1000)
	return time.Unix(day*86400, 0).UTC().
		Add(time.Duration(ms) * time.Millisecond).
		Add(time.Duration(req.PassIndex) * 95 * time.Second)
}

// seedKey hashes what a random stream derives from. Parts are length-prefixed
// so that no two different part lists hash alike.
type seedKey struct {
	h hash.Hash
}

func (s *Simulator) key(label string) seedKey {
	k := seedKey{h: fnv.New128a()}
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], s.seed)
	k.h.Write(b[:])
	return k.str(label)
}

func (k seedKey) str(v string) seedKey {
	k.num(int64(len(v)))
	k.h.Write([]byte(v))
	return k
}

func (k seedKey) num(v int64) seedKey {
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], uint64(v))
	k.h.Write(b[:])
	return k
}

// query adds what identifies a tracked query on its engine and country.
func (k seedKey) query(req ingest.Request) seedKey {
	k.h.Write(req.TrackedQueryID[:])
	return k.str(req.QueryText).str(string(req.Engine)).str(req.Country)
}

func (k seedKey) rand() *rand.Rand {
	sum := k.h.Sum(nil)
	return rand.New(rand.NewPCG(binary.LittleEndian.Uint64(sum[:8]), binary.LittleEndian.Uint64(sum[8:])))
}

// wave is a smooth signal in [-1, 1]: a sum of three slow sines with
// periods of three weeks to five months.
type wave [3]struct{ amp, period, phase float64 }

func newWave(r *rand.Rand) wave {
	var w wave
	total := 0.0
	for i := range w {
		w[i].amp = 0.2 + r.Float64()
		w[i].period = 21 + r.Float64()*130
		w[i].phase = r.Float64() * 2 * math.Pi
		total += w[i].amp
	}
	for i := range w {
		w[i].amp /= total
	}
	return w
}

func (w wave) at(day int64) float64 {
	v := 0.0
	for _, c := range w {
		v += c.amp * math.Sin(2*math.Pi*float64(day)/c.period+c.phase)
	}
	return v
}

// profile is how visible the project is for one tracked query, and how that
// drifts: each metric follows its own wave around its own level.
type profile struct {
	ownRate, ownSwing        float64 // own mention probability: level and swing
	ownRateWave, ownRankWave wave
	toneWave                 wave    // positive shifts the own tone mix to positive
	citeWave                 wave    // own citations
	serpPresence             float64 // own organic result probability level
	serpRank                 float64 // own organic rank level
	serpWave                 wave
	shopPresence             float64
	shopWave                 wave
	noTracked                float64 // share of answers naming no tracked brand
}

func (s *Simulator) profile(req ingest.Request) profile {
	r := s.key("profile").query(req).rand()
	return profile{
		ownRate:      0.15 + 0.6*r.Float64(),
		ownSwing:     0.1 + 0.25*r.Float64(),
		ownRateWave:  newWave(r),
		ownRankWave:  newWave(r),
		toneWave:     newWave(r),
		citeWave:     newWave(r),
		serpPresence: 0.3 + 0.6*r.Float64(),
		serpRank:     1 + 7*r.Float64(),
		serpWave:     newWave(r),
		shopPresence: 0.2 + 0.6*r.Float64(),
		shopWave:     newWave(r),
		noTracked:    0.02 + 0.04*r.Float64(),
	}
}

// ownMentionRate is the probability that an answer names the own brand on day.
func (p profile) ownMentionRate(day int64) float64 {
	return clamp(p.ownRate+p.ownSwing*p.ownRateWave.at(day), 0.02, 0.95)
}

// ownTones is the own brand's tone mix (positive, neutral, negative) on day.
func (p profile) ownTones(day int64) [3]float64 {
	v := p.toneWave.at(day)
	neg := clamp(0.14-0.12*v, 0.02, 0.4)
	pos := clamp(0.42+0.25*v, 0.1, 0.8)
	return [3]float64{pos, 1 - pos - neg, neg}
}

func clamp(v, lo, hi float64) float64 { return max(lo, min(hi, v)) }
