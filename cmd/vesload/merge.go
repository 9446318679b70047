package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/vesload/vesload/internal/usage"
	"github.com/vesload/vesload/report/files"
	"github.com/vesload/vesload/report/merge"
	"github.com/vesload/vesload/report/verdict"
)

const mergeSynopsis = "vesload merge R1.json R2.json ... | - [-o merged.json] [--threshold EXPR] [--allow-partial] [--without-delivery]"

// runMerge combines the results of generators that ran in parallel into
// one result document, with the thresholds evaluated again on the
// combined figures. "-" reads the results from standard input, as the
// logs of a sharded run's pods print them.
func runMerge(args []string, stdout, stderr io.Writer) int {
	return mergeCommand(args, os.Stdin, stdout, stderr)
}

func mergeCommand(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	var output string
	var gates []string
	var opts merge.Options
	var allowErrors bool
	fs := newFlagSet("merge")
	fs.StringVarP(&output, "output", "o", "-", "write the merged result to FILE (atomically); '-' for stdout")
	fs.StringArrayVar(&gates, "threshold", nil, "CI gate on the merged result, e.g. 'p99<500ms' (repeatable; exit 3 when one fails)")
	fs.BoolVar(&opts.AllowPartial, "allow-partial", false, "merge the shards present when some are missing (the result is marked partial)")
	fs.BoolVar(&opts.WithoutDelivery, "without-delivery", false, "merge the shards of a run followed by a lone consumer (run --with-consumer) without the consumer's result: no delivery section")
	fs.BoolVar(&allowErrors, "allow-errors", false, "let a merged run in which no request succeeded pass, as run --allow-errors does (also taken from the shards' config)")
	if code, done := parseCommand(fs, args, mergeSynopsis, stdout, stderr); done {
		return code
	}
	if _, err := parseThresholds(gates); err != nil {
		return fail(stderr, "vesload: merge", usage.Wrap(err))
	}
	if ins, err := files.ExpandGlobs(fs.Args()); err == nil {
		if err := files.CheckInputs(ins, []files.Path{{Option: "-o", Path: output}}); err != nil {
			return fail(stderr, "vesload: merge", usage.Wrap(err))
		}
	}
	rs, names, err := files.Inputs(fs.Args(), stdin)
	if errors.Is(err, files.ErrNoInputs) {
		err = fmt.Errorf("want the result files to merge, or '-' for a stream (usage: %s)", mergeSynopsis)
	}
	if err != nil {
		return fail(stderr, "vesload: merge", usage.Wrap(err))
	}
	merged, err := merge.Shards(rs, names, opts)
	switch {
	case errors.Is(err, merge.ErrConsumerMissing):
		return fail(stderr, "vesload", err) // incomplete, not mismatched: exit 1
	case err != nil:
		return fail(stderr, "vesload", usage.Wrap(err))
	}
	// Parallel generators are judged on the merged figures, as one run
	// is: by every gate and by the built-in rules the shards deferred.
	v, lines := merge.Judge(merged, rs, names, gates, allowErrors)
	if err := files.WriteResult(output, stdout, merged); err != nil {
		return fail(stderr, "vesload: merge", err)
	}
	if output != "" && output != "-" {
		fmt.Fprintf(stderr, "vesload: merged %d results (%d requests sent) into %s\n", len(rs), merged.Requests.Sent, output)
	}
	for _, l := range lines {
		fmt.Fprintf(stderr, "vesload: merge: %s\n", l)
	}
	return verdict.ExitCode(v)
}
