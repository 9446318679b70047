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
)

// JUnit writes r as a JUnit XML report so that CI shows each gate as a
// test: one testsuite "vesload" with one testcase per threshold, failed
// gates carrying a failure element with the expression and the measured
// value. The run's figures go in the suite's properties and its warnings
// in system-out.
//
// A run without thresholds gets a single testcase "run completed", which
// passes, or fails when the run was interrupted: a report that says
// "passed" must mean the whole schedule ran. (Skipped was rejected: CI
// tools show a skipped-only suite as unstable rather than green.)
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
	if len(r.Thresholds) == 0 {
		c := junit.Case{Name: "run completed", Classname: "vesload.run", Time: fmtFixed3(r.DurationS)}
		if r.Interrupted {
			msg := "the run was interrupted after " + format.Seconds(r.DurationS)
			if r.Config.DurationS > 0 {
				msg += " of " + format.Seconds(r.Config.DurationS)
			}
			c.Failure = &junit.Failure{Message: msg, Type: "interrupted", Text: msg}
		}
		return []junit.Case{c}
	}
	cases := make([]junit.Case, 0, len(r.Thresholds))
	for _, th := range r.Thresholds {
		c := junit.Case{Name: th.Expr, Classname: "vesload.thresholds", Time: "0"}
		if !th.Pass {
			value := thresholdValue(th)
			msg := th.Expr + ": measured " + value
			text := "expr: " + th.Expr + "\nvalue: " + value + "\n"
			if th.Reason != "" {
				msg = th.Expr + ": " + th.Reason
				text += "reason: " + th.Reason + "\n"
			}
			c.Failure = &junit.Failure{Message: msg, Type: "threshold", Text: text}
		}
		cases = append(cases, c)
	}
	return cases
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
	if hasSummary(r.Latency) {
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
