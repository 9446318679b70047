package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/spf13/pflag"

	"github.com/vesload/vesload/internal/usage"
	"github.com/vesload/vesload/report/compare"
	"github.com/vesload/vesload/report/files"
	"github.com/vesload/vesload/report/table"
	"github.com/vesload/vesload/report/trend"
)

const trendSynopsis = "vesload trend FILES|DIR|GLOB ... [--by LABEL] [--metric NAME ...] [--format text|markdown|json|html] [-o FILE] [--html FILE] [--alpha P] [--min-segment N] [--window N] [--force] [--gate EXPR ... [--gate-undecided fail|pass] [--junit FILE]]"

// trendOptions holds the flags of `vesload trend`.
type trendOptions struct {
	files.HistorySet
	compare.GateOptions
	by           string
	metrics      []string
	force        bool
	minSegment   int
	window       int
	test         string
	permutations int
	seed         uint64
}

func trendFlags(o *trendOptions) *pflag.FlagSet {
	fs := newFlagSet("trend")
	fs.StringVar(&o.by, "by", "", "order and name the runs by this label (vesload run --label KEY=VALUE), in natural version order (1.9.1 before 1.10.0); default: by start time, named by file")
	fs.StringArrayVar(&o.metrics, "metric", nil, "analyse this metric (threshold names: p99, avg, error_rate, rps, target_cpu_avg, …; repeatable; default: latency, errors, rate, resources, delivery and HV-VES figures the runs carry)")
	fs.StringVarP(&o.Format, "format", "f", "text", "output format: text, markdown, json or html")
	fs.StringVarP(&o.Output, "output", "o", "", "write to FILE (atomically) instead of stdout")
	fs.StringVar(&o.HTML, "html", "", "also write the history as a self-contained HTML page, one chart per metric, to FILE")
	fs.StringVar(&o.JUnit, "junit", "", "also write the gate verdicts as JUnit XML to FILE, one test case per gate")
	fs.BoolVar(&o.force, "force", false, "analyse runs whose rate, duration, body or target path differ")
	fs.Float64Var(&o.Alpha, "alpha", trend.DefaultAlpha, "significance level of each change point and of the gates")
	fs.IntVar(&o.minSegment, "min-segment", trend.DefaultMinSize, "fewest runs between two change points (and after the last)")
	fs.IntVar(&o.window, "window", trend.DefaultWindow, "runs one search looks at; longer histories are searched in windows overlapping by half")
	fs.StringVar(&o.test, "test", string(trend.TTest), "significance check of a change point: ttest (Student's, bounded over the splits searched; decides with 3 runs a side) or permutation (exact for any distribution, needs longer segments)")
	fs.IntVar(&o.permutations, "permutations", trend.DefaultPermutations, "with --test permutation: reorderings per test")
	fs.Uint64Var(&o.seed, "seed", trend.DefaultSeed, "with --test permutation: seed of the reorderings (the same seed gives the same p-values)")
	fs.StringArrayVar(&o.Exprs, "gate", nil, "regression gate on the newest segment against the one before it, e.g. 'p99<+10%', 'error_rate<+0.5pp', 'rps>-5%' (repeatable; exit 3 when one fails: a change worse than the tolerance and significant at --alpha)")
	fs.StringVar(&o.Undecided, "gate-undecided", string(compare.UndecidedFail), "what a gate means when the newest build looks worse but has too few runs to test: fail or pass")
	return fs
}

// runTrend finds where the figures of a history of runs changed, and
// holds the newest change to the gates.
func runTrend(args []string, stdout, stderr io.Writer) int {
	var o trendOptions
	fs := trendFlags(&o)
	if code, done := parseCommand(fs, args, trendSynopsis, stdout, stderr); done {
		return code
	}
	a, err := executeTrend(&o, fs.Args(), stdout)
	if err != nil {
		return fail(stderr, "vesload: trend", err)
	}
	if a == nil || a.Gates == nil { // a capacity history has no gates
		return exitOK
	}
	if !o.TextOnStdout() {
		fmt.Fprintln(stderr, "vesload: trend: "+table.EscapeControlLines(a.Gates.Headline()))
	}
	if !a.Gates.Passed() {
		return exitThreshold
	}
	return exitOK
}

// executeTrend checks the flags, reads the runs and renders the
// history. Bad flags or input files are a usage error (exit 2); a
// rendering that cannot be written is exit 1.
func executeTrend(o *trendOptions, args []string, stdout io.Writer) (*trend.Analysis, error) {
	opts, err := o.options()
	if err != nil {
		return nil, usage.Wrap(err)
	}
	if err := o.HistorySet.Check(len(opts.Gates)); err != nil {
		return nil, usage.Wrap(err)
	}
	if len(args) == 0 {
		return nil, usagef("give the result files of the history (files, folders or patterns): usage: %s", trendSynopsis)
	}
	paths, err := files.ExpandHistory(args)
	if err != nil {
		return nil, usage.Wrap(err)
	}
	if err := files.CheckInputs(paths, []files.Path{{Option: "-o", Path: o.Output}, {Option: "--html", Path: o.HTML}, {Option: "--junit", Path: o.JUnit}}); err != nil {
		return nil, usage.Wrap(err)
	}
	capacity, err := capacityArgs(paths)
	if err != nil {
		return nil, err
	}
	if capacity {
		return nil, executeCapacityTrend(o, paths, stdout)
	}
	rs, err := files.ReadResults(paths)
	if err != nil {
		return nil, usage.Wrap(err)
	}
	opts.Names = paths
	a, err := trend.Analyze(rs, opts)
	var mismatch *compare.MismatchError
	if errors.As(err, &mismatch) {
		return nil, usagef("%v (--force analyses anyway)", mismatch)
	}
	if err != nil {
		return nil, usage.Wrap(err)
	}
	return a, o.HistorySet.Write(stdout, a)
}

// options checks the flags and returns them as trend.Options.
func (o *trendOptions) options() (trend.Options, error) {
	gates, err := o.Parse()
	if err != nil {
		return trend.Options{}, err
	}
	undecided, _ := compare.ParseUndecided(o.Undecided) // checked by Parse
	test := trend.Test(o.test)
	switch {
	case test != trend.TTest && test != trend.Permutation:
		return trend.Options{}, fmt.Errorf("--test: unknown test %q (want ttest or permutation)", o.test)
	case o.minSegment < 1:
		return trend.Options{}, fmt.Errorf("--min-segment: %d is not a number of runs (want 1 or more)", o.minSegment)
	case o.window < 2*o.minSegment:
		return trend.Options{}, fmt.Errorf("--window: %d runs cannot hold two segments of --min-segment %d", o.window, o.minSegment)
	case o.permutations < 19:
		return trend.Options{}, fmt.Errorf("--permutations: %d are too few to reach p < 0.05 (want 19 or more)", o.permutations)
	}
	return trend.Options{
		By: o.by, Metrics: o.metrics, Force: o.force, Gates: gates, Undecided: undecided,
		Detector: trend.Detector{Alpha: o.Alpha, MinSize: o.minSegment, Window: o.window, Test: test, Permutations: o.permutations, Seed: o.seed},
	}, nil
}
