package verdict

import (
	"fmt"
	"slices"

	"github.com/vesload/vesload/report/result"
	"github.com/vesload/vesload/report/threshold"
)

// Exit codes of a judged run, part of the CLI contract
// (docs/ARCHITECTURE.md, "The command line").
const (
	ExitOK          = 0   // passed, or a shard whose gates wait for the merge
	ExitFailed      = 3   // a gate or a built-in rule failed, or --abort-on-fail stopped the run
	ExitInterrupted = 130 // stopped by a signal; the result was still written
)

// Options are what a result is judged by besides the built-in rules.
type Options struct {
	// Gates are the --threshold gates.
	Gates []threshold.Threshold
	// AbortGates are the --abort-on-fail gates, judged on the whole run
	// too: a run shorter than the abort window, or one that fails slowly,
	// still fails on them.
	AbortGates []threshold.Threshold
	// AllowErrors relaxes the built-in rules: their warnings stay, their
	// gates are not added.
	AllowErrors bool
}

// FromConfig reads the options a run recorded in its result: the gates
// of config.thresholds and config.abort_on_fail and config.allow_errors.
// vesload merge judges the merged result by them.
func FromConfig(c result.RunConfig) (Options, error) {
	gates, err := threshold.ParseAll(c.Thresholds)
	if err != nil {
		return Options{}, fmt.Errorf("config.thresholds: %w", err)
	}
	abort, err := threshold.ParseAll(c.AbortOnFail)
	if err != nil {
		return Options{}, fmt.Errorf("config.abort_on_fail: %w", err)
	}
	return Options{Gates: gates, AbortGates: abort, AllowErrors: c.AllowErrors}, nil
}

// Judge evaluates every gate of o and the built-in rules on res: it
// replaces res.Thresholds with their outcomes (the user's gates first, as
// written, then the whole-run abort gates, then the rules broken) and
// appends each broken rule's warning to res.Warnings. It returns those
// warnings, for a command to print.
func Judge(res *result.Result, o Options) []string {
	res.Thresholds = threshold.EvalAll(o.Gates, res)
	for _, g := range threshold.EvalAll(o.AbortGates, res) {
		g.Expr = "abort-on-fail: " + g.Expr + " (whole run)"
		res.Thresholds = append(res.Thresholds, g)
	}
	var why []string
	for _, rule := range Rules() {
		w, broken := rule.Broken(res)
		if !broken {
			continue
		}
		why = append(why, w)
		if o.AllowErrors {
			continue
		}
		g := mustParse(rule.Gate)
		if rule.Yields && slices.ContainsFunc(o.Gates, func(t threshold.Threshold) bool { return t.Metric == g.Metric }) {
			continue
		}
		res.Thresholds = append(res.Thresholds, g.Eval(res))
	}
	res.Warnings = append(res.Warnings, why...)
	return why
}

// mustParse parses a built-in gate; one that does not parse is a
// programming error, which TestRulesParse catches.
func mustParse(expr string) threshold.Threshold {
	g, err := threshold.Parse(expr)
	if err != nil {
		panic("the built-in gate " + expr + " does not parse: " + err.Error())
	}
	return g
}

// Verdict is the outcome of a judged run.
type Verdict int

const (
	// Passed: every gate passed.
	Passed Verdict = iota
	// Failed: a gate failed, or --abort-on-fail stopped the run.
	Failed
	// Interrupted: a signal stopped the run before its end.
	Interrupted
	// Deferred: a gate failed on one shard of several; the shards are
	// judged together by vesload merge, not one by one.
	Deferred
)

// String names the verdict.
func (v Verdict) String() string {
	switch v {
	case Passed:
		return "passed"
	case Failed:
		return "failed"
	case Interrupted:
		return "interrupted"
	case Deferred:
		return "deferred to the merge"
	}
	return fmt.Sprintf("Verdict(%d)", int(v))
}

// Of reads the verdict of a judged result. A stop by --abort-on-fail
// fails the run even on a shard (the shard's share was not sent); a
// signal interrupts it; failed gates fail a whole run and defer on a
// shard of several.
func Of(res *result.Result) Verdict {
	switch {
	case res.AbortedBy != "":
		return Failed
	case res.Interrupted:
		return Interrupted
	case threshold.Passed(res.Thresholds):
		return Passed
	case res.Shard != nil && res.Shard.Count > 1:
		return Deferred
	}
	return Failed
}

// ExitCode is the one mapping of a verdict to the process's exit code.
func ExitCode(v Verdict) int {
	switch v {
	case Failed:
		return ExitFailed
	case Interrupted:
		return ExitInterrupted
	}
	return ExitOK
}
