package main

import (
	"fmt"
	"io"

	"github.com/sightline/sightline"
)

// target is one extraction measure with its floor.
type target struct {
	name  string
	value func(*scores) tally
	floor float64
	// detail names per-class figures printed beside the measure.
	detail func(*scores) string
}

// targets are the extraction measures and their floors. "Answers fully right" asks
// for 55 of 60, a share of 55/60.
var targets = []target{
	{name: "brand precision (all)", value: func(s *scores) tally { return allOf(s.precision) }, floor: 0.97},
	{name: "brand recall (all)", value: func(s *scores) tally { return allOf(s.recall) }, floor: 0.97},
	{name: "untracked precision", value: func(s *scores) tally { return *tallyOf(s.precision, sightline.RelationUntrackedCompetitor) }, floor: 0.93},
	{name: "untracked recall", value: func(s *scores) tally { return *tallyOf(s.recall, sightline.RelationUntrackedCompetitor) }, floor: 0.90},
	{name: "position accuracy", value: func(s *scores) tally { return s.position }, floor: 0.95},
	{name: "type accuracy", value: func(s *scores) tally { return matrixTotal(s.types, sightline.MentionTypes) }, floor: 0.90,
		detail: func(s *scores) string {
			return fmt.Sprintf("listing %s, comparison %s", ratio(row(s.types, sightline.MentionListing)), ratio(row(s.types, sightline.MentionComparison)))
		}},
	{name: "tone accuracy", value: func(s *scores) tally { return matrixTotal(s.tones, sightline.Tones) }, floor: 0.85,
		detail: func(s *scores) string {
			return fmt.Sprintf("negative %s, positive %s", ratio(row(s.tones, sightline.ToneNegative)), ratio(row(s.tones, sightline.TonePositive)))
		}},
	{name: "qualifier accuracy", value: func(s *scores) tally { return matrixTotal(s.qualifier, sightline.Qualifiers) }, floor: 0.92},
	{name: "citation domain", value: func(s *scores) tally { return s.citations.domain }, floor: 0.99},
	{name: "citation unresolved", value: func(s *scores) tally { return s.citations.unresolved }, floor: 0.99},
	{name: "answers fully right", value: func(s *scores) tally { return s.fullyRight }, floor: 55.0 / 60},
}

func allOf(m map[sightline.Relation]*tally) tally {
	var ts []tally
	for _, t := range m {
		ts = append(ts, *t)
	}
	return total(ts...)
}

func matrixTotal[T comparable](m map[T]map[T]int, values []T) tally {
	var rows []tally
	for _, v := range values {
		rows = append(rows, row(m, v))
	}
	return total(rows...)
}

// ratio is a tally as a share, "-" when empty.
func ratio(t tally) string {
	if t.total == 0 {
		return "    -"
	}
	return fmt.Sprintf("%.3f", float64(t.hit)/float64(t.total))
}

// met reports whether t reaches floor; an empty tally meets nothing.
func met(t tally, floor float64) bool {
	return t.total > 0 && float64(t.hit) >= floor*float64(t.total)-1e-9
}

// printTable prints every measure for the development set and the
// simulator beside its target; a measure below its target is marked "<".
func printTable(out io.Writer, dev, sim *scores) {
	fmt.Fprintf(out, "%-24s %-18s %-18s %s\n", "measure", "development set", "simulator", "target")
	for _, t := range targets {
		cell := func(s *scores) string {
			v := t.value(s)
			mark := " "
			if !met(v, t.floor) {
				mark = "<"
			}
			return fmt.Sprintf("%s %s (%d/%d)", ratio(v), mark, v.hit, v.total)
		}
		fmt.Fprintf(out, "%-24s %-18s %-18s >= %.3f\n", t.name, cell(dev), cell(sim), t.floor)
		if t.detail != nil {
			fmt.Fprintf(out, "%-24s %-18s %-18s\n", "", "  "+t.detail(dev), "")
			fmt.Fprintf(out, "%-24s %-18s %s\n", "", "", "  simulator: "+t.detail(sim))
		}
	}
}
