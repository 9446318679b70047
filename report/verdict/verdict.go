package verdict

import (
	"fmt"
	"slices"
	"strings"

	"github.com/vesload/vesload/report/result"
	"github.com/vesload/vesload/report/threshold"
)

// Exit codes of a judged run, part of the CLI contract
// (docs/ARCHITECTURE.md, "The command line").
const (
	ExitOK          = 0   // passed, or a shard whose gates wait for the merge
	ExitIncomplete  = 1   // the gates passed (or wait for the merge), but a record the run was asked to write misses part of it
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
	// Decided are gates decided elsewhere, listed after the abort gates:
	// the abort gate that stopped the run over its window, the baseline
	// gates of run --baseline (result.KindBaseline).
	Decided []result.Threshold
	// AllowErrors relaxes the built-in rules: their warnings stay, their
	// gates are not added.
	AllowErrors bool
}

// FromConfig reads the options a run recorded in its result: the gates
// of config.thresholds and config.abort_on_fail and config.allow_errors.
// vesload merge judges the merged result by them.
func FromConfig(c result.RunConfig) (Options, error) {
	gates, err := threshold.ParseAllRecorded(c.Thresholds)
	if err != nil {
		return Options{}, fmt.Errorf("config.thresholds: %w", err)
	}
	abort, err := threshold.ParseAllRecorded(c.AbortOnFail)
	if err != nil {
		return Options{}, fmt.Errorf("config.abort_on_fail: %w", err)
	}
	return Options{Gates: gates, AbortGates: abort, AllowErrors: c.AllowErrors}, nil
}

// Judge evaluates every gate of o and the built-in rules on res: it
// replaces res.Thresholds with their outcomes (the user's gates first, as
// written, then the whole-run abort gates, the gates decided elsewhere,
// then the rules broken), and appends each broken rule's warning to
// res.Warnings, ending with what it means for this run's verdict (the run
// fails, a shard defers to the merge, --allow-errors lets it pass, a gate
// of the user's decides). It returns those warnings, for a command to
// print. A res that Judge has seen carries its verdict: Of reads it.
func Judge(res *result.Result, o Options) []string {
	res.Thresholds = threshold.EvalAll(o.Gates, res)
	for _, g := range threshold.EvalAll(o.AbortGates, res) {
		g.Expr = "abort-on-fail: " + g.Expr + " (whole run)"
		g.Kind = result.KindAbort
		res.Thresholds = append(res.Thresholds, g)
	}
	res.Thresholds = append(res.Thresholds, o.Decided...)
	type brokenRule struct {
		why    string
		yields string // the user's gate that decides instead, if any
	}
	var broken []brokenRule
	for _, rule := range Rules() {
		w, isBroken := rule.Broken(res)
		if !isBroken {
			continue
		}
		b := brokenRule{why: w}
		g := mustParse(rule.Gate)
		if i := slices.IndexFunc(o.Gates, func(t threshold.Threshold) bool { return t.Metric == g.Metric }); rule.Yields && i >= 0 {
			b.yields = o.Gates[i].Expr
		}
		broken = append(broken, b)
		if o.AllowErrors || b.yields != "" {
			continue
		}
		out := g.Eval(res)
		out.Kind = result.KindRule
		res.Thresholds = append(res.Thresholds, out)
	}
	v := Of(res)
	why := make([]string, 0, len(broken))
	for _, b := range broken {
		var tail string
		switch {
		case b.yields != "":
			tail = "your gate " + b.yields + " decides instead of the built-in rule"
		case o.AllowErrors:
			tail = "--allow-errors keeps the built-in rule from failing the run"
		default:
			tail = Consequence(res, v)
		}
		why = append(why, b.why+": "+tail)
	}
	res.Warnings = append(res.Warnings, why...)
	return why
}

// Consequence says, in the words of every warning and summary, what the
// verdict v of res means for the process: "the run fails (exit 3) unless
// --allow-errors is given", "this shard exits 0: …", "the run was
// interrupted (exit 130)". Only a failing or deferred gate has a
// consequence to state; a passed verdict's is "the run passes (exit 0)".
func Consequence(res *result.Result, v Verdict) string {
	switch v {
	case Failed:
		return "the run fails (exit 3) unless --allow-errors is given"
	case Deferred:
		return fmt.Sprintf("this shard (%d/%d) exits 0: its gates are decided on the merged result (vesload merge)", res.Shard.Index, res.Shard.Count)
	case Interrupted:
		return "the run was interrupted (exit 130)"
	case Incomplete:
		if res.TargetExited != "" {
			return "the run exits 1: " + res.TargetExited
		}
		return "the run exits 1: a record it was asked to write misses part of it"
	}
	return "the run passes (exit 0)"
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
	// Incomplete: the gates passed (or wait for the merge), but a record
	// of the run the user asked for (--jtl, --hdr-log, InfluxDB) misses
	// part of it: everything else was written; or the target's process
	// the run started (the built-in emulator) exited before the run's
	// end (result.TargetExited), whatever the gates say.
	Incomplete
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
	case Incomplete:
		return "incomplete"
	}
	return fmt.Sprintf("Verdict(%d)", int(v))
}

// Of reads the verdict of a judged result. A run whose gates passed but
// one of whose records misses part of it (result.OutputsIncomplete) is
// incomplete. A stop by --abort-on-fail
// fails the run even on a shard (the shard's share was not sent); a
// signal interrupts it; failed gates fail a whole run and defer on a
// shard of several, except a failed baseline gate, which the merge does
// not judge again (the shard was held to its own baseline).
func Of(res *result.Result) Verdict {
	if res.TargetExited != "" {
		return Incomplete // the gates judged a run cut short by its target's end
	}
	v := ofGates(res)
	if (v == Passed || v == Deferred) && res.OutputsIncomplete() {
		return Incomplete
	}
	return v
}

// ofGates is the verdict of the gates alone, before the outputs are
// looked at.
func ofGates(res *result.Result) Verdict {
	switch {
	case res.AbortedBy != "":
		return Failed
	case res.Interrupted:
		return Interrupted
	case threshold.Passed(res.Thresholds):
		return Passed
	case res.Shard != nil && res.Shard.Count > 1 && !failedBaseline(res.Thresholds):
		return Deferred
	}
	return Failed
}

func failedBaseline(ts []result.Threshold) bool {
	return slices.ContainsFunc(ts, func(t result.Threshold) bool { return !t.Pass && t.Kind == result.KindBaseline })
}

// NoGates says why a judged result without gates passed: no gate was
// set, and the built-in rules held or, with --allow-errors, only warned.
func NoGates(res *result.Result) string {
	if res.Config.AllowErrors {
		return "no gate was set, and --allow-errors lets the built-in rules only warn"
	}
	return "no gate was set and no built-in rule was broken"
}

// Line is the verdict of a judged result in one line, the last of its
// summary, in the same words as the exit code: "PASSED (exit 0)",
// "FAILED (exit 3): ok>0, p99<500ms", "DEFERRED (exit 0): …".
func Line(res *result.Result) string {
	v := Of(res)
	var failed []string
	for _, t := range res.Thresholds {
		if !t.Pass {
			failed = append(failed, t.Expr)
		}
	}
	list := strings.Join(failed, ", ")
	switch v {
	case Passed:
		n := len(res.Thresholds)
		switch n {
		case 0:
			return "Verdict: PASSED (exit 0): " + NoGates(res)
		case 1:
			return "Verdict: PASSED (exit 0): the gate passed"
		}
		return fmt.Sprintf("Verdict: PASSED (exit 0): all %d gates passed", n)
	case Deferred:
		return "Verdict: DEFERRED (exit 0): failed on this shard: " + list + "; " + Consequence(res, v)
	case Interrupted:
		return "Verdict: INTERRUPTED (exit 130): a signal stopped the run before its end"
	case Incomplete:
		if res.TargetExited != "" {
			return "Verdict: INCOMPLETE (exit 1): " + res.TargetExited
		}
		var lost []string
		for _, o := range res.Outputs {
			if o.Incomplete() {
				lost = append(lost, o.Name)
			}
		}
		return "Verdict: INCOMPLETE (exit 1): the gates held, but these records miss part of the run: " + strings.Join(lost, ", ")
	}
	if res.AbortedBy != "" {
		return "Verdict: FAILED (exit 3): stopped early by --abort-on-fail " + res.AbortedBy
	}
	return "Verdict: FAILED (exit 3): " + list
}

// ExitCode is the one mapping of a verdict to the process's exit code.
func ExitCode(v Verdict) int {
	switch v {
	case Failed:
		return ExitFailed
	case Interrupted:
		return ExitInterrupted
	case Incomplete:
		return ExitIncomplete
	}
	return ExitOK
}
