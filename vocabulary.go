package sightline

import "slices"

// Engine is an answer or search engine a tracked query is checked on.
type Engine string

// The engines of spec part 2.2.
const (
	EngineChatGPT          Engine = "chatgpt"
	EnginePerplexity       Engine = "perplexity"
	EngineGoogleAIOverview Engine = "google_ai_overview"
	EngineGoogleAIMode     Engine = "google_ai_mode"
	EngineGoogleSERP       Engine = "google_serp"
	EngineGoogleShopping   Engine = "google_shopping"
)

// Engines lists every engine in a stable order.
var Engines = []Engine{EngineChatGPT, EnginePerplexity, EngineGoogleAIOverview, EngineGoogleAIMode,
	EngineGoogleSERP, EngineGoogleShopping}

// Valid reports whether e is a known engine.
func (e Engine) Valid() bool { return slices.Contains(Engines, e) }

// AI reports whether e answers in prose (answers, mentions, citations)
// rather than with a search or shopping page.
func (e Engine) AI() bool { return e.Valid() && !e.SinglePass() }

// SinglePass reports whether e always runs one pass per check: the search
// and shopping engines return one page, not a sampled answer (spec 2.2).
func (e Engine) SinglePass() bool { return e == EngineGoogleSERP || e == EngineGoogleShopping }

// MentionType is how an answer names a brand.
type MentionType string

// The mention types of spec part 2.2.
const (
	MentionRecommendation MentionType = "recommendation"
	MentionComparison     MentionType = "comparison"
	MentionListing        MentionType = "listing"
	MentionExample        MentionType = "example"
	MentionReference      MentionType = "reference"
)

// MentionTypes lists every mention type in a stable order.
var MentionTypes = []MentionType{MentionRecommendation, MentionComparison, MentionListing, MentionExample, MentionReference}

// Tone is the sentiment of a mention.
type Tone string

// The tones of spec part 2.2.
const (
	TonePositive Tone = "positive"
	ToneNeutral  Tone = "neutral"
	ToneNegative Tone = "negative"
)

// Tones lists every tone in a stable order.
var Tones = []Tone{TonePositive, ToneNeutral, ToneNegative}

// Qualifier says whether a mention is unconditional or hedged ("if you need
// X, then Brand").
type Qualifier string

// The qualifiers of spec part 2.2.
const (
	QualifierDirect      Qualifier = "direct"
	QualifierConditional Qualifier = "conditional"
)

// Qualifiers lists every qualifier in a stable order.
var Qualifiers = []Qualifier{QualifierDirect, QualifierConditional}

// Relation is whose a mentioned brand, a cited page or a ranked result is,
// from the project's point of view.
type Relation string

// The relations of spec part 2.2 (mentionRelation). RelationNone is for
// citations and results that belong to no tracked brand.
const (
	RelationOwn                 Relation = "own"
	RelationTrackedCompetitor   Relation = "tracked-competitor"
	RelationUntrackedCompetitor Relation = "untracked-competitor"
	RelationNone                Relation = ""
)

// CheckFrequency is how often a tracked query is checked.
type CheckFrequency string

// The frequencies of spec part 2.2.
const (
	FrequencyDaily   CheckFrequency = "daily"
	FrequencyWeekly  CheckFrequency = "weekly"
	FrequencyMonthly CheckFrequency = "monthly"
)

// CheckFrequencies lists every frequency in a stable order.
var CheckFrequencies = []CheckFrequency{FrequencyDaily, FrequencyWeekly, FrequencyMonthly}

// IntervalDays is how many days apart the checks of a query are due
// (spec 2.8 coverage): daily 1, weekly 7, monthly 30.
func (f CheckFrequency) IntervalDays() int {
	switch f {
	case FrequencyDaily:
		return 1
	case FrequencyWeekly:
		return 7
	case FrequencyMonthly:
		return 30
	}
	return 0
}

// TrackedQueryStatus says whether a tracked query is being checked.
type TrackedQueryStatus string

// The tracked query statuses of spec part 3.1.
const (
	TrackedQueryActive TrackedQueryStatus = "active"
	TrackedQueryPaused TrackedQueryStatus = "paused"
)

// TrackedQueryStatuses lists every tracked query status in a stable order.
var TrackedQueryStatuses = []TrackedQueryStatus{TrackedQueryActive, TrackedQueryPaused}

// The share-of-voice formula of api-decisions: a mention is worth
// weight(type) x multiplier(tone) x (conditional ? conditional : direct).
var (
	MentionTypeWeights = map[MentionType]float64{
		MentionRecommendation: 1.0, MentionComparison: 0.8, MentionListing: 0.6, MentionExample: 0.5, MentionReference: 0.3,
	}
	SentimentMultipliers  = map[Tone]float64{TonePositive: 1.2, ToneNeutral: 1.0, ToneNegative: 0.5}
	DirectMultiplier      = 1.0
	ConditionalMultiplier = 0.7
)

// MentionWorth is what one mention adds to its brand's share of voice.
func MentionWorth(t MentionType, tone Tone, q Qualifier) float64 {
	m := DirectMultiplier
	if q == QualifierConditional {
		m = ConditionalMultiplier
	}
	return MentionTypeWeights[t] * SentimentMultipliers[tone] * m
}
