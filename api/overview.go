package api

import (
	"time"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/sightline/sightline/olap"
	"github.com/sightline/sightline/oltp"
)

// The organization overview (spec 4.3): the own brand's headline figures
// per active project over the last 30 UTC days, today included (the spec
// gives the overview no date window: it is a snapshot, so a check that ran
// today shows at once, as it does in the project listing), and pooled over
// them.

// overviewDays is the length of the overview's window.
const overviewDays = 30

type overviewResponse struct {
	*olap.Overview
	WindowFrom string `json:"windowFrom"`
	WindowTo   string `json:"windowTo"`
}

// overviewWindow is the last overviewDays UTC days up to now: today and
// the days before it.
func overviewWindow(now time.Time) (from, to time.Time) {
	y, m, d := now.UTC().Date()
	to = time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
	return to.AddDate(0, 0, -(overviewDays - 1)), to
}

func (s *server) handleOverview(r *request) (any, error) {
	projects, err := oltp.ActiveProjects(r.Context(), s.pool, r.organizationID)
	if err != nil {
		return nil, err
	}
	in := make([]olap.OverviewProject, len(projects))
	for i, p := range projects {
		in[i] = olap.OverviewProject{ID: p.ID, Name: p.Name, TrackedQueryCount: p.TrackedQueryCount}
	}
	from, to := overviewWindow(time.Now())
	o, err := s.analytics.Overview(r.Context(), in, from, to)
	if err != nil {
		return nil, err
	}
	return overviewResponse{Overview: o, WindowFrom: from.Format(time.DateOnly), WindowTo: to.Format(time.DateOnly)}, nil
}

func (s *server) overviewSchema() *openapi3.Schema {
	row := props{
		"projectId":          uuidSchema(),
		"name":               stringSchema(),
		"avgMentionPosition": metricsPosition("Mean rank of the own brand among the brands an AI answer names."),
		"trackedQueryCount":  metricsCounter("The project's tracked queries, active and paused."),
		"trendShareOfVoice":  metricsTrend("shareOfVoice minus the previous 30 days' (positive: improved)."),
	}
	s.withRate(row, "shareOfVoice", "Own worth over the worth of every brand named, x 100; null when nobody was named.")
	s.withRate(row, "mentionRate", "AI answers naming the own brand over AI answers captured, x 100; null without AI answers.")
	s.withRate(row, "positivityIndex", "100 x (positive + 0.5 x neutral) / own mentions; null without mentions.")
	aggregate := props{
		"avgMentionPosition":  metricsPosition("Mean own mention position over every listed project's AI answers."),
		"totalTrackedQueries": metricsCounter("Sum of the listed projects' trackedQueryCount."),
		"projectCount":        metricsCounter("Active projects listed."),
	}
	s.withRate(aggregate, "shareOfVoice", "Own worth over every brand's worth, pooled over the listed projects, x 100.")
	s.withRate(aggregate, "mentionRate", "AI answers naming the own brand over AI answers captured, pooled, x 100.")
	s.withRate(aggregate, "positivityIndex", "100 x (positive + 0.5 x neutral) / own mentions, pooled.")
	return s.component("OrganizationOverview", object(props{
		"projects": described(arrayOf(s.component("OverviewProject", object(row, metricsKeys(row)...))),
			"Active projects, ordered by shareOfVoice (greatest first, null last), then name."),
		"aggregate":  s.component("OverviewAggregate", object(aggregate, metricsKeys(aggregate)...)),
		"windowFrom": described(stringSchema().WithFormat("date"), "First UTC day of the window (29 days before windowTo)."),
		"windowTo":   described(stringSchema().WithFormat("date"), "Last UTC day of the window: today."),
	}, "projects", "aggregate", "windowFrom", "windowTo"))
}
