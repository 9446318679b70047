package main

import (
	"fmt"
	"io"

	"github.com/vesload/vesload/report"
	"github.com/vesload/vesload/report/result"
	"github.com/vesload/vesload/report/threshold"
)

const mergeSynopsis = "vesload merge R1.json R2.json ... [-o merged.json]"

// runMerge combines the results of generators that ran in parallel into
// one result document, with the thresholds evaluated again on the
// combined figures.
func runMerge(args []string, stdout, stderr io.Writer) int {
	var output string
	fs := newFlagSet("merge")
	fs.StringVarP(&output, "output", "o", "-", "write the merged result to FILE (atomically); '-' for stdout")
	if code, done := parseCommand(fs, args, mergeSynopsis, stdout, stderr); done {
		return code
	}
	files, err := expandGlobs(fs.Args())
	if err == nil && len(files) == 0 {
		err = fmt.Errorf("want the result files to merge (usage: %s)", mergeSynopsis)
	}
	if err != nil {
		fmt.Fprintf(stderr, "vesload: merge: %v\n", err)
		return exitUsage
	}
	rs, err := readResults(files)
	if err != nil {
		fmt.Fprintf(stderr, "vesload: merge: %v\n", err)
		return exitUsage
	}
	merged, err := report.Merge(rs, files)
	if err != nil {
		fmt.Fprintf(stderr, "vesload: %v\n", err)
		return exitUsage
	}
	reevaluate(merged)
	if output == "" || output == "-" {
		err = report.Encode(stdout, merged)
	} else {
		err = report.Write(output, merged)
	}
	if err != nil {
		fmt.Fprintf(stderr, "vesload: merge: %v\n", err)
		return exitRun
	}
	if output != "" && output != "-" {
		fmt.Fprintf(stderr, "vesload: merged %d results (%d requests sent) into %s\n", len(rs), merged.Requests.Sent, output)
	}
	if !threshold.Passed(merged.Thresholds) {
		// Parallel generators are gated on the merged figures, as one run is.
		fmt.Fprintln(stderr, "vesload: merge: a threshold failed on the merged result")
		return exitThreshold
	}
	return exitOK
}

// reevaluate checks the run's thresholds against the merged figures: a
// gate of one generator says nothing about the sum of all of them.
func reevaluate(r *result.Result) {
	gates, err := threshold.ParseAll(r.Config.Thresholds)
	if err != nil {
		r.Warnings = append(r.Warnings, fmt.Sprintf("thresholds not evaluated on the merged result: %v", err))
		return
	}
	r.Thresholds = threshold.EvalAll(gates, r)
}
