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
	"github.com/vesload/vesload/report/html"
	"github.com/vesload/vesload/report/result"
	"github.com/vesload/vesload/report/resultfile"
	"github.com/vesload/vesload/report/table"
)

// capacityRenderer renders a comparison of capacity documents; the HTML
// page also draws the curves of each side's searches, a and b.
type capacityRenderer func(w io.Writer, c *capcmp.Comparison, a, b []*result.CapacityDocument) error

// capacityFormats are the renderings of a comparison of capacity
// documents: the formats of a comparison of runs, so that --format
// means the same whichever documents compare reads.
func capacityFormats() map[string]capacityRenderer {
	only := func(r func(io.Writer, *capcmp.Comparison) error) capacityRenderer {
		return func(w io.Writer, c *capcmp.Comparison, _, _ []*result.CapacityDocument) error { return r(w, c) }
	}
	return map[string]capacityRenderer{"text": only(capcmp.Text), "markdown": only(capcmp.Markdown), "json": only(capcmp.JSON),
		"html": html.CapacityComparison}
}

// capacityTrendFormats are the renderings of a capacity history: the
// formats of a history of runs.
func capacityTrendFormats() map[string]func(io.Writer, *capcmp.History) error {
	return map[string]func(io.Writer, *capcmp.History) error{"text": capcmp.TrendText, "markdown": capcmp.TrendMarkdown, "json": capcmp.TrendJSON,
		"html": html.CapacityTrend}
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
		return 0, usagef("--format: capacity comparisons are rendered as %s, not %q", files.FormatNames(capacityFormats()), o.Format)
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
	outs := []files.Path{{Option: "-o", Path: o.Output}, {Option: "--html", Path: o.HTML}, {Option: "--junit", Path: o.JUnit}}
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
	if err := files.WriteOutput(o.Output, stdout, func(w io.Writer) error { return render(w, c, a, b) }); err != nil {
		return 0, err
	}
	if o.HTML != "" {
		if err := resultfile.WriteFile(o.HTML, func(w io.Writer) error { return html.CapacityComparison(w, c, a, b) }); err != nil {
			return 0, fmt.Errorf("write HTML %s: %w", o.HTML, err)
		}
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
		return usagef("--format: a capacity history is rendered as %s, not %q", files.FormatNames(capacityTrendFormats()), o.Format)
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
	if err := files.WriteOutput(o.Output, stdout, func(w io.Writer) error { return render(w, h) }); err != nil {
		return err
	}
	if o.HTML != "" {
		if err := resultfile.WriteFile(o.HTML, func(w io.Writer) error { return html.CapacityTrend(w, h) }); err != nil {
			return fmt.Errorf("write HTML %s: %w", o.HTML, err)
		}
	}
	return nil
}
