package main

import (
	"fmt"
	"io"

	"github.com/spf13/pflag"

	"github.com/vesload/vesload/report"
	"github.com/vesload/vesload/report/compare"
	"github.com/vesload/vesload/report/result"
)

// baselineOptions are the flags of `vesload run` that judge the new run
// against one stored result (--baseline R.json --gate EXPR).
type baselineOptions struct {
	file      string
	gates     []string
	alpha     float64
	undecided string
}

func addBaselineFlags(fs *pflag.FlagSet, o *baselineOptions) {
	fs.StringVar(&o.file, "baseline", "", "judge this run against a stored result `FILE` with the --gate expressions, on the per-second figures of both runs (exit 3 when a gate fails)")
	fs.StringArrayVar(&o.gates, "gate", nil, "regression gate against --baseline: how much worse a metric may get, e.g. 'p99<+10%', 'error_rate<+0.5pp', 'rps>-5%' (repeatable)")
	fs.Float64Var(&o.alpha, "alpha", compare.DefaultAlpha, "significance level of the --baseline gates")
	fs.StringVar(&o.undecided, "gate-undecided", string(compare.UndecidedFail), "what a --baseline gate the seconds cannot decide means: fail or pass")
}

// baselineJudge is a stored result and the gates to hold a run to.
type baselineJudge struct {
	file  string
	base  *result.Result
	gates []compare.Gate
	opts  compare.BaselineOptions
}

// load checks the flags and reads the baseline before any load is sent,
// so that a typo costs a second, not a run. Without --baseline it
// returns nil.
func (o *baselineOptions) load() (*baselineJudge, error) {
	switch {
	case o.file == "" && len(o.gates) > 0:
		return nil, usagef("--gate judges against a stored result: give --baseline FILE (absolute limits are --threshold's)")
	case o.file == "":
		return nil, nil
	case len(o.gates) == 0:
		return nil, usagef("--baseline %s: give at least one --gate, e.g. 'p99<+10%%'", o.file)
	}
	if err := compare.CheckAlpha(o.alpha); err != nil {
		return nil, usagef("--alpha: %v", err)
	}
	if _, err := compare.ParseUndecided(o.undecided); err != nil {
		return nil, usagef("--gate-undecided: %v", err)
	}
	gates, err := compare.ParseGates(o.gates)
	if err != nil {
		return nil, usagef("--gate: %v", err)
	}
	base, err := report.Read(o.file)
	if err != nil {
		return nil, usagef("--baseline: %v", err)
	}
	return &baselineJudge{file: o.file, base: base, gates: gates,
		opts: compare.BaselineOptions{Alpha: o.alpha, Undecided: compare.Undecided(o.undecided)}}, nil
}

// judge decides the gates for the finished run res, prints the verdicts
// to w and reports whether they all passed. Without a baseline nothing
// is judged.
func (j *baselineJudge) judge(res *result.Result, w io.Writer) (bool, error) {
	if j == nil {
		return true, nil
	}
	set, err := compare.JudgeBaseline(j.base, res, j.gates, j.opts)
	if err != nil {
		return false, err
	}
	if err := set.BaselineText(w, j.file, j.opts.Alpha); err != nil {
		return false, fmt.Errorf("print baseline gates: %w", err)
	}
	return set.Passed(), nil
}
