package report

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/vesload/vesload/internal/redact"
	"github.com/vesload/vesload/report/format"
	"github.com/vesload/vesload/report/junit"
	"github.com/vesload/vesload/report/result"
	"github.com/vesload/vesload/report/verdict"
)

// JUnit writes r as a JUnit XML report so that CI shows each gate as a
// test: one testsuite "vesload" with the case "run completed" (failed
// when a signal, --abort-on-fail, the start-of-run rule or the built-in
// emulator's end stopped the run before its end, or a record misses part
// of it), then
// one case per gate the run was judged by, in the result's order, each
// classed by who set it: vesload.thresholds (--threshold),
// vesload.abort (--abort-on-fail), vesload.rules (a built-in rule the
// run broke) and vesload.gates (a --gate against --baseline, as
// `vesload compare` lists its gates). A failed gate carries a failure
// element with the expression and the measured value; on a shard whose
// gates wait for the merge, a failed gate passes with a system-out that
// says so, as the shard's exit code does. The JUnit thus fails exactly
// when the exit code is not 0. The run's figures go in the suite's
// properties and its warnings in system-out.
func JUnit(w io.Writer, r *result.Result) error {
	if r == nil {
		return errors.New("junit report: no result")
	}
	suite := junit.Suite{
		Name:       "vesload",
		Time:       fmtFixed3(r.DurationS),
		Properties: junitProperties(r),
		Cases:      junitCases(r),
		SystemOut:  strings.Join(r.Warnings, "\n"),
	}
	if !r.Started.IsZero() {
		suite.Timestamp = r.Started.UTC().Format("2006-01-02T15:04:05")
	}
	if err := junit.Write(w, "vesload", suite); err != nil {
		return fmt.Errorf("junit report: %w", err)
	}
	return nil
}

func junitCases(r *result.Result) []junit.Case {
	run := junit.Case{Name: "run completed", Classname: "vesload.run", Time: fmtFixed3(r.DurationS)}
	if r.Interrupted || r.AbortedBy != "" || r.StoppedAtStart != "" {
		msg, kind := "the run was interrupted after "+format.Seconds(r.DurationS), "interrupted"
		switch {
		case r.AbortedBy != "":
			msg = "the run was stopped early by --abort-on-fail " + r.AbortedBy + " after " + format.Seconds(r.DurationS)
		case r.StoppedAtStart != "":
			msg, kind = "the run was stopped at the start by the start-of-run rule after "+format.Seconds(r.DurationS), "stopped_at_start"
		}
		if r.Config.DurationS > 0 {
			msg += " of " + format.Seconds(r.Config.DurationS)
		}
		if r.StoppedAtStart != "" {
			msg += ": " + r.StoppedAtStart
		}
		run.Failure = &junit.Failure{Message: msg, Type: kind, Text: msg}
	}
	if run.Failure == nil && (r.OutputsIncomplete() || r.TargetExited != "") {
		msg := strings.TrimPrefix(verdict.Line(r), "Verdict: ")
		run.Failure = &junit.Failure{Message: msg, Type: "incomplete", Text: msg}
	}
	cases := append(make([]junit.Case, 0, len(r.Thresholds)+1), run)
	deferred := verdict.Of(r) == verdict.Deferred
	for _, th := range r.Thresholds {
		cases = append(cases, junitGate(r, th, deferred))
	}
	return cases
}

// junitClasses are the classnames of the gates by their kind.
var junitClasses = map[string]string{
	"":                  "vesload.thresholds",
	result.KindAbort:    "vesload.abort",
	result.KindRule:     "vesload.rules",
	result.KindBaseline: "vesload.gates",
}

// junitGate is one gate's case; deferred says the shard's gates are
// decided at the merge.
func junitGate(r *result.Result, th result.Threshold, deferred bool) junit.Case {
	c := junit.Case{Name: th.Expr, Classname: junitClasses[th.Kind], Time: "0"}
	if c.Classname == "" {
		c.Classname = "vesload.thresholds"
	}
	value := format.Gate(th)
	msg := th.Expr + ": measured " + value
	text := "expr: " + th.Expr + "\nvalue: " + value + "\n"
	if th.Reason != "" {
		msg = th.Expr + ": " + th.Reason
		text += "reason: " + th.Reason + "\n"
	}
	if th.Note != "" {
		msg = th.Expr + ": " + th.Note
		text += "verdict: " + th.Note + "\n"
	}
	typ := "threshold"
	switch {
	case th.Kind == result.KindBaseline && th.Undecided:
		typ = "undecided"
	case th.Kind == result.KindBaseline:
		typ = "regression"
	case th.Kind != "":
		typ = th.Kind
	}
	switch {
	case th.Pass:
		if th.Note != "" {
			c.SystemOut = msg + "\n"
		}
	case deferred:
		c.SystemOut = "failed on this shard: " + msg + "; " + verdict.Consequence(r, verdict.Deferred) + "\n"
	default:
		c.Failure = &junit.Failure{Message: msg, Type: typ, Text: text}
	}
	return c
}

// junitProperties lists the run's headline figures in a fixed order.
func junitProperties(r *result.Result) []junit.Property {
	ps := []junit.Property{
		{Name: "vesload.version", Value: r.Tool.Version},
		{Name: "url", Value: redact.URL(r.Config.URL)},
		{Name: "emulator", Value: strconv.FormatBool(r.Config.Emulator)},
		{Name: "shape", Value: r.Config.Shape},
		{Name: "profile", Value: r.Config.Profile},
		{Name: "rps.target", Value: format.Exact(r.RPS.Target)},
		{Name: "rps.achieved", Value: format.Round(r.RPS.Achieved, 3)},
		{Name: "duration_s", Value: format.Exact(r.DurationS)},
		{Name: "interrupted", Value: strconv.FormatBool(r.Interrupted)},
		{Name: "requests.scheduled", Value: format.Int(r.Requests.Scheduled)},
		{Name: "requests.sent", Value: format.Int(r.Requests.Sent)},
		{Name: "requests.ok", Value: format.Int(r.Requests.OK)},
		{Name: "requests.errors", Value: format.Int(r.Requests.Errors)},
		{Name: "requests.not_sent", Value: format.Int(r.Requests.NotSent)},
	}
	if pct, ok := r.ErrorRatePct(); ok {
		ps = append(ps, junit.Property{Name: "error_rate_pct", Value: format.Round(pct, 4)})
	}
	if r.Latency.Recorded() {
		ps = append(ps,
			junit.Property{Name: "latency.avg_ms", Value: format.Round(r.Latency.Avg, 3)},
			junit.Property{Name: "latency.p50_ms", Value: format.Round(r.Latency.P50, 3)},
			junit.Property{Name: "latency.p95_ms", Value: format.Round(r.Latency.P95, 3)},
			junit.Property{Name: "latency.p99_ms", Value: format.Round(r.Latency.P99, 3)},
			junit.Property{Name: "latency.max_ms", Value: format.Round(r.Latency.Max, 3)})
	}
	if r.Target != nil {
		ps = append(ps, junit.Property{Name: "target.cpu_max_pct", Value: format.Exact(r.Target.CPUMaxPct)})
	}
	ps = append(ps, junit.Property{Name: "generator.saturated", Value: strconv.FormatBool(r.Generator.Saturated)})
	out := ps[:0]
	for _, p := range ps {
		if p.Value != "" {
			out = append(out, p)
		}
	}
	return out
}

// fmtFixed3 formats seconds as JUnit's time attribute expects.
func fmtFixed3(s float64) string { return strconv.FormatFloat(s, 'f', 3, 64) }
