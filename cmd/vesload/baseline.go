package main

import (
	"io"

	"github.com/spf13/pflag"

	"github.com/vesload/vesload/report/compare"
	"github.com/vesload/vesload/report/result"
)

// baselineOptions are the flags of `vesload run` that judge the new run
// against one stored result (--baseline R.json --gate EXPR).
type baselineOptions struct {
	file string
	compare.GateOptions
}

func addBaselineFlags(fs *pflag.FlagSet, o *baselineOptions) {
	fs.StringVar(&o.file, "baseline", "", "judge this run against a stored result `FILE` with the --gate expressions, on the per-second figures of both runs (exit 3 when a gate fails)")
	fs.StringArrayVar(&o.Exprs, "gate", nil, "regression gate against --baseline: how much worse a metric may get, e.g. 'p99<+10%', 'error_rate<+0.5pp', 'rps>-5%' (repeatable)")
	fs.Float64Var(&o.Alpha, "alpha", compare.DefaultAlpha, "significance level of the --baseline gates")
	fs.StringVar(&o.Undecided, "gate-undecided", string(compare.UndecidedFail), "what a --baseline gate the seconds cannot decide means: fail or pass")
}

// baselineJudge is the stored result and gates of --baseline.
type baselineJudge struct{ *compare.Baseline }

// load checks the flags and reads the baseline before any load is sent
// (compare.LoadBaseline); nil without --baseline.
func (o *baselineOptions) load() (*baselineJudge, error) {
	b, err := compare.LoadBaseline(o.file, o.GateOptions)
	if err != nil {
		return nil, usageError{err}
	}
	if b == nil {
		return nil, nil
	}
	return &baselineJudge{b}, nil
}

// judge decides the gates, prints the verdicts to w and reports whether
// they all passed; nothing is judged without --baseline.
func (j *baselineJudge) judge(res *result.Result, w io.Writer) (bool, error) {
	if j == nil {
		return true, nil
	}
	return j.Judge(res, w)
}
