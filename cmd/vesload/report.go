package main

import (
	"io"

	"github.com/vesload/vesload/internal/usage"
	"github.com/vesload/vesload/report/files"
	"github.com/vesload/vesload/report/resultfile"
)

const reportSynopsis = "vesload report RESULT.json [--format text|json|html|junit|csv|markdown] [-o FILE]"

// runReport re-renders a saved result document in any format.
func runReport(args []string, stdout, stderr io.Writer) int {
	var format, output string
	fs := newFlagSet("report")
	fs.StringVarP(&format, "format", "f", "text", "output format: text, json, html, junit, csv or markdown")
	fs.StringVarP(&output, "output", "o", "", "write to FILE (atomically) instead of stdout")
	if code, done := parseCommand(fs, args, reportSynopsis, stdout, stderr); done {
		return code
	}
	render, ok := files.Formats()[format]
	if !ok {
		return fail(stderr, "vesload: report", usagef("--format: unknown format %q (want %s)", format, files.FormatNames(files.Formats())))
	}
	if fs.NArg() != 1 {
		return fail(stderr, "vesload: report", usagef("want exactly one result file, got %d (usage: %s)", fs.NArg(), reportSynopsis))
	}
	if err := files.CheckInputs(fs.Args(), []files.Path{{Option: "-o", Path: output}}); err != nil {
		return fail(stderr, "vesload: report", usage.Wrap(err))
	}
	res, err := resultfile.Read(fs.Arg(0))
	if err != nil {
		return fail(stderr, "vesload: report", usage.Wrap(err))
	}
	if err := files.WriteOutput(output, stdout, func(w io.Writer) error { return render(w, res) }); err != nil {
		return fail(stderr, "vesload: report", err)
	}
	return exitOK
}
