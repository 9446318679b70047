package main

import (
	"github.com/spf13/pflag"

	"github.com/vesload/vesload/internal/usage"
	"github.com/vesload/vesload/report/compare"
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

// load reads the stored result and checks the gates of --baseline; nil
// without --baseline.
func (o *baselineOptions) load() (*compare.Baseline, error) {
	b, err := compare.LoadBaseline(o.file, o.GateOptions)
	if err != nil {
		return nil, usage.Wrap(err)
	}
	return b, nil
}
