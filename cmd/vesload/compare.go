package main

import (
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/spf13/pflag"

	"github.com/vesload/vesload/internal/cliflag"
	"github.com/vesload/vesload/internal/usage"
	"github.com/vesload/vesload/report/compare"
	"github.com/vesload/vesload/report/files"
	"github.com/vesload/vesload/report/table"
)

const compareSynopsis = "vesload compare A1.json A2.json ... --vs B1.json B2.json ... [--format text|markdown|json|html] [--name-a A --name-b B] [--test welch|utest] [--center mean|median] [--force] [-o FILE] [--html FILE] [--gate EXPR ... [--alpha P] [--gate-undecided fail|pass] [--junit FILE]]"

// compareOptions holds the flags of `vesload compare`.
type compareOptions struct {
	nameA, nameB string
	force        bool
	files.ComparisonSet
	compare.Settings
}

func compareFlags(o *compareOptions) *pflag.FlagSet {
	fs := newFlagSet("compare")
	fs.StringVarP(&o.Format, "format", "f", "text", "output format: text, markdown, json or html")
	fs.StringVar(&o.nameA, "name-a", "", "name of the baseline side (the files before --vs), e.g. dmaap (default: the build its runs are labelled with, else A)")
	fs.StringVar(&o.nameB, "name-b", "", "name of the other side (the files after --vs), e.g. cambria (default: the build its runs are labelled with, else B)")
	fs.StringVar(&o.Test, "test", string(compare.Welch), "significance test on the per-run values: welch (decides with 3 runs a side) or utest (Mann-Whitney, needs 4+)")
	fs.StringVar(&o.Center, "center", string(compare.Mean), "per-side summary: mean (± standard deviation) or median (min–max)")
	fs.BoolVar(&o.force, "force", false, "compare runs whose rate, duration, body or target path differ")
	fs.StringVarP(&o.Output, "output", "o", "", "write to FILE (atomically) instead of stdout")
	fs.StringVar(&o.HTML, "html", "", "also write the comparison as a self-contained HTML page with overlaid per-run charts to FILE")
	fs.StringArrayVar(&o.Exprs, "gate", nil, "regression gate: how much worse than the baseline (the files before --vs) a metric may get, e.g. 'p99<+10%', 'error_rate<+0.5pp', 'mean<+2ms', 'rps>-5%', or 'capacity>-10%' on capacity documents (repeatable; exit 3 when one fails: worse beyond the tolerance and significant at --alpha)")
	fs.Float64Var(&o.Alpha, "alpha", compare.DefaultAlpha, "significance level of the verdicts and gates")
	fs.StringVar(&o.Undecided, "gate-undecided", string(compare.UndecidedFail), "what a gate too few runs cannot decide means: fail or pass")
	fs.StringVar(&o.JUnit, "junit", "", "also write the gate verdicts as JUnit XML to FILE, one test case per gate")
	return fs
}

// runCompare compares the runs before --vs (side A) with those after it
// (side B).
func runCompare(args []string, stdout, stderr io.Writer) int {
	var o compareOptions
	fs := compareFlags(&o)
	// Flags may sit on either side of --vs; each half's remaining
	// arguments are its files.
	filesA, filesB, err := cliflag.ParseAt(fs, args, "vs")
	var sep *cliflag.SeparatorError
	switch {
	case err == nil:
	case errors.Is(err, errHelp):
		printUsage(stdout, compareSynopsis, fs)
		return exitOK
	case !errors.As(err, &sep):
		fmt.Fprintf(stderr, "vesload %v\n", err)
		return exitUsage
	case sep.Twice:
		return fail(stderr, "vesload: compare", usagef("%v: put the baseline files before it and the others after it", err))
	default:
		return fail(stderr, "vesload: compare", usagef("%v: usage: %s", err, compareSynopsis))
	}
	capacity, err := capacityArgs(append(slices.Clone(filesA), filesB...))
	if err != nil {
		return fail(stderr, "vesload: compare", err)
	}
	if capacity {
		code, err := executeCapacityCompare(&o, filesA, filesB, stdout, stderr)
		if err != nil {
			return fail(stderr, "vesload: compare", err)
		}
		return code
	}
	cmp, err := executeCompare(&o, filesA, filesB, stdout)
	if err != nil {
		return fail(stderr, "vesload: compare", err)
	}
	return finishGates(&o, cmp, stderr)
}

// executeCompare checks the flags (files.ComparisonSet.Options), reads
// both sides and renders the comparison. Bad flags or input files are a
// usage error (exit 2); a rendering that cannot be written is exit 1.
func executeCompare(o *compareOptions, argsA, argsB []string, stdout io.Writer) (*compare.Comparison, error) {
	opts, err := o.ComparisonSet.Options(o.Settings)
	if err != nil {
		return nil, usage.Wrap(err)
	}
	if ins, err := files.ExpandGlobs(append(slices.Clone(argsA), argsB...)); err == nil {
		outs := []files.Path{{Option: "-o", Path: o.Output}, {Option: "--html", Path: o.HTML}, {Option: "--junit", Path: o.JUnit}}
		if err := files.CheckInputs(ins, outs); err != nil {
			return nil, usage.Wrap(err)
		}
	}
	sa, sb, err := files.ReadSides(argsA, argsB)
	if err != nil {
		return nil, usage.Wrap(err)
	}
	a, b := sa.Results, sb.Results
	opts.NameA, opts.NameB, opts.Force, opts.LabelsA, opts.LabelsB = sideName(o.nameA, a), sideName(o.nameB, b), o.force, sa.Files, sb.Files
	cmp, err := compare.Compare(a, b, opts)
	var mismatch *compare.MismatchError
	if errors.As(err, &mismatch) {
		return nil, usagef("%v (--force compares anyway)", mismatch)
	}
	if err != nil {
		return nil, usage.Wrap(err)
	}
	return cmp, o.ComparisonSet.Write(stdout, cmp, a, b)
}

// finishGates tells stderr what the gates decided when the text
// rendering is not on stdout, and returns exit 3 when a gate failed.
func finishGates(o *compareOptions, cmp *compare.Comparison, stderr io.Writer) int {
	if cmp.Gates == nil {
		return exitOK
	}
	if !o.TextOnStdout() {
		for _, line := range cmp.Gates.Summary() {
			fmt.Fprintln(stderr, "vesload: compare: "+table.EscapeControlLines(line))
		}
	}
	if !cmp.Gates.Passed() {
		return exitThreshold
	}
	return exitOK
}
