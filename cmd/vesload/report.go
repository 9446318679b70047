package main

import (
	"fmt"
	"io"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"github.com/vesload/vesload/report"
	"github.com/vesload/vesload/report/html"
	"github.com/vesload/vesload/report/result"
)

const reportSynopsis = "vesload report RESULT.json [--format text|json|html|junit|csv|markdown] [-o FILE]"

// reportFormats maps each --format of `vesload report` to its renderer.
func reportFormats() map[string]func(io.Writer, *result.Result) error {
	return map[string]func(io.Writer, *result.Result) error{
		"text":     func(w io.Writer, r *result.Result) error { return report.Text(w, r, report.TextOptions{}) },
		"json":     report.Encode,
		"html":     html.Report,
		"junit":    report.JUnit,
		"csv":      report.CSV,
		"markdown": report.Markdown,
	}
}

// runReport re-renders a saved result document in any format.
func runReport(args []string, stdout, stderr io.Writer) int {
	var format, output string
	fs := newFlagSet("report")
	fs.StringVarP(&format, "format", "f", "text", "output format: text, json, html, junit, csv or markdown")
	fs.StringVarP(&output, "output", "o", "", "write to FILE (atomically) instead of stdout")
	if code, done := parseCommand(fs, args, reportSynopsis, stdout, stderr); done {
		return code
	}
	render, ok := reportFormats()[format]
	if !ok {
		fmt.Fprintf(stderr, "vesload: report: --format: unknown format %q (want %s)\n", format, formatList(reportFormats()))
		return exitUsage
	}
	if fs.NArg() != 1 {
		fmt.Fprintf(stderr, "vesload: report: want exactly one result file, got %d (usage: %s)\n", fs.NArg(), reportSynopsis)
		return exitUsage
	}
	res, err := report.Read(fs.Arg(0))
	if err != nil {
		fmt.Fprintf(stderr, "vesload: report: %v\n", err)
		return exitUsage
	}
	if err := writeOutput(output, stdout, func(w io.Writer) error { return render(w, res) }); err != nil {
		fmt.Fprintf(stderr, "vesload: report: %v\n", err)
		return exitRun
	}
	return exitOK
}

// writeOutput renders to stdout when path is empty or "-", else to the
// file at path, atomically.
func writeOutput(path string, stdout io.Writer, render func(io.Writer) error) error {
	if path == "" || path == "-" {
		return render(stdout)
	}
	if err := report.WriteFile(path, render); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// expandGlobs replaces every argument holding a glob character (*?[)
// with the files it matches, in name order, so that shells that do not
// expand (or quoted patterns) work too. A pattern matching nothing is an
// error naming it.
func expandGlobs(args []string) ([]string, error) {
	var out []string
	for _, a := range args {
		if !strings.ContainsAny(a, "*?[") {
			out = append(out, a)
			continue
		}
		matches, err := filepath.Glob(a)
		if err != nil {
			return nil, fmt.Errorf("bad pattern %q: %w", a, err)
		}
		if len(matches) == 0 {
			return nil, fmt.Errorf("no file matches %q", a)
		}
		out = append(out, matches...)
	}
	return out, nil
}

// readResults reads every result file; the first bad one stops it with
// the decoder's one-line error, which names the file.
func readResults(paths []string) ([]*result.Result, error) {
	rs := make([]*result.Result, len(paths))
	for i, p := range paths {
		r, err := report.Read(p)
		if err != nil {
			return nil, err
		}
		rs[i] = r
	}
	return rs, nil
}

// formatList names the keys of a format table for an error message.
func formatList[V any](m map[string]V) string {
	return strings.Join(slices.Sorted(maps.Keys(m)), ", ")
}
