// Package ingest turns what an engine returned for one pass of a check into
// what Sightline stores: the brands an answer names, how and where; the
// sources it cites; the own and competitor ranks on search and shopping pages.
//
// The types here are the contract between the engines (which produce a
// Capture for a Request), the extraction (which reads a Capture against the
// project's Brands) and the check worker (which stores the result).
package ingest

import (
	"context"
	"time"

	"github.com/google/uuid"

	"github.com/sightline/sightline"
	"github.com/sightline/sightline/olap"
)

// ExtractionVersion identifies the rules ExtractAnswer reads answers by. It
// is stored with every pass, so figures from passes extracted by different
// rules can be told apart and captures stored earlier keep what they were
// extracted with. Version 1 was the rules before extraction-rules.md;
// version 2 reads answers by extraction-rules.md (first mention decides,
// spec 4.4 redirectors, company-level untracked brands).
const ExtractionVersion = 2

// Request is one pass of a check as an engine is asked it.
type Request struct {
	TrackedQueryID uuid.UUID
	QueryText      string
	Engine         sightline.Engine
	Country        string // ISO 3166-1 alpha-2, upper case
	Locale         string // ISO 639-1, lower case; empty: no language is asked for
	PassIndex      int    // 0-based
	PassCount      int
	// Day is the UTC day the check runs on; the simulator derives its answer
	// from it, real engines ignore it.
	Day time.Time
	// Brands is the project's brand configuration. Real engines never see
	// it; the simulator uses it to write answers about the project's market.
	Brands Brands
}

// Engine asks one engine one pass of a check.
type Engine interface {
	Ask(ctx context.Context, req Request) (Capture, error)
}

// Brands is a project's brand configuration as extraction matches against it.
type Brands struct {
	Own         Brand
	Competitors []Competitor
}

// Brand is a brand's names and website domains (hosts without "www.").
type Brand struct {
	Names   []string
	Domains []string
}

// Competitor is a tracked competitor.
type Competitor struct {
	ID   uuid.UUID
	Name string
	Brand
}

// Capture is what an engine returned for one pass. Exactly one of Answer,
// Search and Shopping is set, by engine kind: AI engines answer,
// google_serp returns a search page, google_shopping a shopping page.
type Capture struct {
	Engine     sightline.Engine
	CapturedAt time.Time
	Answer     *Answer
	Search     *SearchPage
	Shopping   *ShoppingPage
}

// Answer is an AI engine's answer.
type Answer struct {
	Text      string
	Citations []Citation
}

// Citation is a source an answer cites, in order of first citation.
type Citation struct {
	Position int // 1-based order of first citation
	URL      string
	Title    string
}

// SearchPage is a page of organic search results.
type SearchPage struct {
	Results []SearchResult
}

// SearchResult is one organic result.
type SearchResult struct {
	Rank        int // 1-based
	URL         string
	Title       string
	Snippet     string
	Rating      *float64
	RatingVotes *int
}

// ShoppingPage is a page of shopping offers; offers may carry different
// currencies.
type ShoppingPage struct {
	Offers []Offer
}

// Offer is one shopping offer.
type Offer struct {
	Rank      int // 1-based
	Title     string
	Price     float64
	Currency  string // ISO 4217
	ProductID string
	Merchant  string
	URL       string
}

// Extraction is what extraction reads out of one answer.
type Extraction struct {
	// Mentions has one entry per distinct brand the answer names, ordered by
	// first appearance; Position is that order, 1-based.
	Mentions  []Mention
	Citations []CitedSource
}

// Mention is one brand named in an answer: the row it is stored as, and
// whether the local rules were sure of it.
type Mention struct {
	olap.Mention
	// Uncertain is set when the local rules were unsure of the mention: an
	// untracked brand recognised only as a sentence's subject or a link's
	// label, or a tone taken from the list's lead-in. An LLM pass may settle
	// it (see LLM).
	Uncertain bool
}

// CitedSource is a cited URL with what extraction resolved about it, as
// its citation row stores it.
type CitedSource = olap.Citation
