package sightline

import "time"

// ProjectMetrics are the own brand's figures over a trailing window, as the
// project listing shows them (api-decisions metric definitions): read from
// the captures by olap, kept with the project by oltp. nil: not known.
type ProjectMetrics struct {
	AvgSerpPosition           *float64
	AvgShoppingPosition       *float64
	AvgMentionPosition        *float64
	AvgLinkPosition           *float64
	MentionRate               *float64
	SerpRate                  *float64
	ShoppingRate              *float64
	PositivityIndex           *float64
	ShareOfVoice              *float64
	SerpPositionStability     *float64
	ShoppingPositionStability *float64
	LastRankDetectedAt        *time.Time
}
