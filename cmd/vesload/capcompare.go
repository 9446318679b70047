package main

import (
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/vesload/vesload/internal/usage"
	"github.com/vesload/vesload/report/capcmp"
	"github.com/vesload/vesload/report/compare"
	"github.com/vesload/vesload/report/files"
	"github.com/vesload/vesload/report/result"
	"github.com/vesload/vesload/report/resultfile"
	"github.com/vesload/vesload/report/table"
)

// capacityFormats are the renderings of a comparison of capacity
// documents.
func capacityFormats() map[string]func(io.Writer, *capcmp.Comparison) error {
	return map[string]func(io.Writer, *capcmp.Comparison) error{"text": capcmp.Text, "markdown": capcmp.Markdown, "json": capcmp.JSON}
}

// capacityTrendFormats are the renderings of a capacity history.
func capacityTrendFormats() map[string]func(io.Writer, *capcmp.History) error {
	return map[string]func(io.Writer, *capcmp.History) error{"text": capcmp.TrendText, "markdown": capcmp.TrendMarkdown, "json": capcmp.TrendJSON}
}

// capacityArgs tells whether the arguments name capacity documents; a
// pattern that matches nothing is left to the run results' reader.
func capacityArgs(args []string) (bool, error) {
	paths, err := files.ExpandGlobs(args)
	if err != nil {
		return false, nil
	}
	ok, err := files.CapacityInputs(paths)
	if err != nil {
		return false, usage.Wrap(err)
	}
	return ok, nil
}

// executeCapacityCompare compares two sides' capacity documents and
// writes the renderings; it returns exit 3 when a gate failed.
func executeCapacityCompare(o *compareOptions, argsA, argsB []string, stdout, stderr io.Writer) (int, error) {
	render, ok := capacityFormats()[o.Format]
	switch {
	case !ok:
		return 0, usagef("--format: capacity comparisons are rendered as text, markdown or json, not %q", o.Format)
	case o.HTML != "":
		return 0, usagef("--html: a comparison of capacity documents has no HTML page; use --format text, markdown or json")
	case o.JUnit != "" && len(o.Exprs) == 0:
		return 0, usagef("--junit reports gates: give at least one --gate")
	}
	gates, err := capcmp.ParseGates(o.Exprs)
	if err != nil {
		return 0, usagef("--gate: %v", err)
	}
	undecided, err := compare.ParseUndecided(o.Undecided)
	if err != nil {
		return 0, usagef("--gate-undecided: %v", err)
	}
	filesA, err := files.ExpandGlobs(argsA)
	if err != nil {
		return 0, usage.Wrap(err)
	}
	filesB, err := files.ExpandGlobs(argsB)
	if err != nil {
		return 0, usage.Wrap(err)
	}
	outs := []files.Path{{Option: "-o", Path: o.Output}, {Option: "--junit", Path: o.JUnit}}
	if err := files.CheckInputs(append(slices.Clone(filesA), filesB...), outs); err != nil {
		return 0, usage.Wrap(err)
	}
	a, err := files.ReadCapacity(filesA)
	if err != nil {
		return 0, usage.Wrap(err)
	}
	b, err := files.ReadCapacity(filesB)
	if err != nil {
		return 0, usage.Wrap(err)
	}
	c, err := capcmp.Compare(capacitySideName(o.nameA, a), capacitySideName(o.nameB, b), filesA, filesB, a, b, gates, undecided)
	if errors.Is(err, capcmp.ErrNoDocuments) {
		return 0, usagef("%v: usage: %s", err, compareSynopsis)
	}
	if err != nil {
		return 0, err
	}
	if err := files.WriteOutput(o.Output, stdout, func(w io.Writer) error { return render(w, c) }); err != nil {
		return 0, err
	}
	if o.JUnit != "" {
		if err := resultfile.WriteFile(o.JUnit, func(w io.Writer) error { return capcmp.JUnit(w, c) }); err != nil {
			return 0, fmt.Errorf("write JUnit %s: %w", o.JUnit, err)
		}
	}
	if len(c.Gates) == 0 {
		return exitOK, nil
	}
	if !o.TextOnStdout() {
		for _, line := range c.GateLines() {
			fmt.Fprintln(stderr, "vesload: compare: "+table.EscapeControlLines(line))
		}
	}
	if !c.Passed() {
		return exitThreshold, nil
	}
	return exitOK, nil
}

// capacitySideName is a side's name: the one given, else the build
// label every search of the side carries, else empty.
func capacitySideName(given string, docs []*result.CapacityDocument) string {
	if given != "" || len(docs) == 0 {
		return given
	}
	build := docs[0].Labels["build"]
	for _, d := range docs[1:] {
		if d.Labels["build"] != build {
			return ""
		}
	}
	return build
}

// executeCapacityTrend follows the capacity of a history of searches.
func executeCapacityTrend(o *trendOptions, paths []string, stdout io.Writer) error {
	render, ok := capacityTrendFormats()[o.Format]
	switch {
	case !ok:
		return usagef("--format: a capacity history is rendered as text, markdown or json, not %q", o.Format)
	case o.HTML != "":
		return usagef("--html: a capacity history has no HTML page; use --format text, markdown or json")
	case len(o.Exprs) > 0:
		return usagef("--gate: a capacity history has no gates; gate a build's capacity with vesload compare --gate 'capacity>-10%%'")
	case len(o.metrics) > 0:
		return usagef("--metric: a capacity history follows one figure, max rps")
	}
	opts, err := o.options()
	if err != nil {
		return usage.Wrap(err)
	}
	docs, err := files.ReadCapacity(paths)
	if err != nil {
		return usage.Wrap(err)
	}
	h, err := capcmp.Trend(docs, paths, capcmp.TrendOptions{By: opts.By, Detector: opts.Detector})
	if err != nil {
		return usage.Wrap(err)
	}
	return files.WriteOutput(o.Output, stdout, func(w io.Writer) error { return render(w, h) })
}
