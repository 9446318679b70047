package main

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/pflag"
	"github.com/vesload/vesload/report/compare"
	"github.com/vesload/vesload/report/files"
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
	fs.StringVar(&o.nameA, "name-a", "A", "name of the baseline side (the files before --vs), e.g. dmaap")
	fs.StringVar(&o.nameB, "name-b", "B", "name of the other side (the files after --vs), e.g. cambria")
	fs.StringVar(&o.Test, "test", string(compare.Welch), "significance test on the per-run values: welch (decides with 3 runs a side) or utest (Mann-Whitney, needs 4+)")
	fs.StringVar(&o.Center, "center", string(compare.Mean), "per-side summary: mean (± standard deviation) or median (min–max)")
	fs.BoolVar(&o.force, "force", false, "compare runs whose rate, duration, body or target path differ")
	fs.StringVarP(&o.Output, "output", "o", "", "write to FILE (atomically) instead of stdout")
	fs.StringVar(&o.HTML, "html", "", "also write the comparison as a self-contained HTML page with overlaid per-run charts to FILE")
	fs.StringArrayVar(&o.Exprs, "gate", nil, "regression gate: how much worse than the baseline (the files before --vs) a metric may get, e.g. 'p99<+10%', 'error_rate<+0.5pp', 'mean<+2ms', 'rps>-5%' (repeatable; exit 3 when one fails: worse beyond the tolerance and significant at --alpha)")
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
	before, after, err := splitVs(args)
	if err != nil {
		// Without --vs there is nothing to compare, but help and bad
		// flags still get their own answer.
		perr := parseFlags(fs, args)
		switch {
		case errors.Is(perr, errHelp):
			printUsage(stdout, compareSynopsis, fs)
			return exitOK
		case perr != nil && errors.Is(err, errNoVs):
			fmt.Fprintf(stderr, "vesload %v\n", perr)
		default:
			fmt.Fprintf(stderr, "vesload: compare: %v\n", err)
		}
		return exitUsage
	}
	// One flag set parses both halves, so flags may sit on either side
	// of --vs; each half's remaining arguments are its files.
	var filesA, filesB []string
	for _, half := range []struct {
		args  []string
		files *[]string
	}{{before, &filesA}, {after, &filesB}} {
		if code, done := parseCommand(fs, half.args, compareSynopsis, stdout, stderr); done {
			return code
		}
		*half.files = fs.Args()
	}
	code, err := executeCompare(&o, filesA, filesB, stdout, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "vesload: compare: %v\n", err)
	}
	return code
}

// splitVs cuts the arguments at --vs (also -vs, --vs=FILE).
func splitVs(args []string) (before, after []string, err error) {
	for i, a := range args {
		if a == "--" {
			break
		}
		name, value, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !strings.HasPrefix(a, "-") || name != "vs" {
			continue
		}
		before, after = args[:i], append([]string(nil), args[i+1:]...)
		if hasValue {
			after = append([]string{value}, after...)
		}
		for _, b := range after {
			if n, _, _ := strings.Cut(strings.TrimLeft(b, "-"), "="); strings.HasPrefix(b, "-") && n == "vs" {
				return nil, nil, errors.New("--vs given twice: put the baseline files before it and the others after it")
			}
		}
		return before, after, nil
	}
	return nil, nil, fmt.Errorf("%w: usage: %s", errNoVs, compareSynopsis)
}

// errNoVs is the missing separator between the two sides.
var errNoVs = errors.New("no --vs")

// executeCompare checks the flags, reads both sides and renders the
// comparison; it returns the exit code with the error to print.
func executeCompare(o *compareOptions, argsA, argsB []string, stdout, stderr io.Writer) (int, error) {
	if err := o.ComparisonSet.Check(); err != nil {
		return exitUsage, err
	}
	opts, err := checkCompareFlags(o)
	if err != nil {
		return exitUsage, err
	}
	sa, sb, err := files.ReadSides(argsA, argsB)
	if err != nil {
		return exitUsage, err
	}
	a, b := sa.Results, sb.Results
	opts.NameA, opts.NameB, opts.Force, opts.LabelsA, opts.LabelsB = o.nameA, o.nameB, o.force, sa.Files, sb.Files
	cmp, err := compare.Compare(a, b, opts)
	var mismatch *compare.MismatchError
	if errors.As(err, &mismatch) {
		return exitUsage, fmt.Errorf("%v (--force compares anyway)", mismatch)
	}
	if err != nil {
		return exitUsage, err
	}
	if err := o.ComparisonSet.Write(stdout, cmp, a, b); err != nil {
		return exitRun, err
	}
	return finishGates(o, cmp, stderr)
}

// checkCompareFlags checks the comparison's flags (compare.Settings)
// and --junit, which only means something with gates.
func checkCompareFlags(o *compareOptions) (compare.Options, error) {
	opts, err := o.Settings.Options()
	switch {
	case err != nil || o.JUnit == "":
		return opts, err
	case len(opts.Gates) == 0:
		return opts, errors.New("--junit reports gates: give at least one --gate")
	}
	return opts, files.Check([]files.Path{{Option: "--junit", Path: o.JUnit}})
}

// finishGates tells stderr what the gates decided when the text
// rendering is not on stdout, and returns exit 3 when a gate failed.
func finishGates(o *compareOptions, cmp *compare.Comparison, stderr io.Writer) (int, error) {
	if cmp.Gates == nil {
		return exitOK, nil
	}
	if o.Format != "text" || (o.Output != "" && o.Output != "-") {
		if cmp.Gates.Limit != "" {
			fmt.Fprintln(stderr, "vesload: compare: cannot decide: "+cmp.Gates.Limit)
		}
		fmt.Fprintln(stderr, "vesload: compare: "+cmp.Gates.Headline())
	}
	if !cmp.Gates.Passed() {
		return exitThreshold, nil
	}
	return exitOK, nil
}
