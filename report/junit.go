package report

import (
	"encoding/xml"
	"errors"
	"fmt"
	"github.com/vesload/vesload/internal/redact"
	"io"
	"strconv"
	"strings"

	"github.com/vesload/vesload/report/result"
)

// JUnit XML layout, as Jenkins, GitLab and GitHub test reporters read it.
type (
	junitSuites struct {
		XMLName  xml.Name     `xml:"testsuites"`
		Name     string       `xml:"name,attr"`
		Tests    int          `xml:"tests,attr"`
		Failures int          `xml:"failures,attr"`
		Time     string       `xml:"time,attr"`
		Suites   []junitSuite `xml:"testsuite"`
	}
	junitSuite struct {
		Name       string          `xml:"name,attr"`
		Tests      int             `xml:"tests,attr"`
		Failures   int             `xml:"failures,attr"`
		Errors     int             `xml:"errors,attr"`
		Skipped    int             `xml:"skipped,attr"`
		Time       string          `xml:"time,attr"`
		Timestamp  string          `xml:"timestamp,attr,omitempty"`
		Properties []junitProperty `xml:"properties>property"`
		Cases      []junitCase     `xml:"testcase"`
		SystemOut  string          `xml:"system-out,omitempty"`
	}
	junitProperty struct {
		Name  string `xml:"name,attr"`
		Value string `xml:"value,attr"`
	}
	junitCase struct {
		Name      string        `xml:"name,attr"`
		Classname string        `xml:"classname,attr"`
		Time      string        `xml:"time,attr"`
		Failure   *junitFailure `xml:"failure,omitempty"`
	}
	junitFailure struct {
		Message string `xml:"message,attr"`
		Type    string `xml:"type,attr"`
		Text    string `xml:",chardata"`
	}
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
	suite := junitSuite{
		Name:       "vesload",
		Time:       fmtFixed3(r.DurationS),
		Properties: junitProperties(r),
		Cases:      junitCases(r),
		SystemOut:  strings.Join(r.Warnings, "\n"),
	}
	if !r.Started.IsZero() {
		suite.Timestamp = r.Started.UTC().Format("2006-01-02T15:04:05")
	}
	suite.Tests = len(suite.Cases)
	for _, c := range suite.Cases {
		if c.Failure != nil {
			suite.Failures++
		}
	}
	doc := junitSuites{Name: "vesload", Tests: suite.Tests, Failures: suite.Failures, Time: suite.Time, Suites: []junitSuite{suite}}
	out, err := xml.MarshalIndent(doc, "", "  ")
	if err != nil {
		return fmt.Errorf("junit report: %w", err)
	}
	p := &printer{w: w}
	p.printf("%s%s\n", xml.Header, out)
	if p.err != nil {
		return fmt.Errorf("junit report: %w", p.err)
	}
	return nil
}

func junitCases(r *result.Result) []junitCase {
	if len(r.Thresholds) == 0 {
		c := junitCase{Name: "run completed", Classname: "vesload.run", Time: fmtFixed3(r.DurationS)}
		if r.Interrupted {
			msg := "the run was interrupted after " + fmtSeconds(r.DurationS)
			if r.Config.DurationS > 0 {
				msg += " of " + fmtSeconds(r.Config.DurationS)
			}
			c.Failure = &junitFailure{Message: msg, Type: "interrupted", Text: msg}
		}
		return []junitCase{c}
	}
	cases := make([]junitCase, 0, len(r.Thresholds))
	for _, th := range r.Thresholds {
		c := junitCase{Name: th.Expr, Classname: "vesload.thresholds", Time: "0"}
		if !th.Pass {
			value := thresholdValue(th)
			msg := th.Expr + ": measured " + value
			text := "expr: " + th.Expr + "\nvalue: " + value + "\n"
			if th.Reason != "" {
				msg = th.Expr + ": " + th.Reason
				text += "reason: " + th.Reason + "\n"
			}
			c.Failure = &junitFailure{Message: msg, Type: "threshold", Text: text}
		}
		cases = append(cases, c)
	}
	return cases
}

// junitProperties lists the run's headline figures in a fixed order.
func junitProperties(r *result.Result) []junitProperty {
	ps := []junitProperty{
		{"vesload.version", r.Tool.Version},
		{"url", redact.URL(r.Config.URL)},
		{"emulator", strconv.FormatBool(r.Config.Emulator)},
		{"shape", r.Config.Shape},
		{"profile", r.Config.Profile},
		{"rps.target", fmtNum(r.RPS.Target)},
		{"rps.achieved", fmtRound(r.RPS.Achieved, 3)},
		{"duration_s", fmtNum(r.DurationS)},
		{"interrupted", strconv.FormatBool(r.Interrupted)},
		{"requests.scheduled", fmtInt(r.Requests.Scheduled)},
		{"requests.sent", fmtInt(r.Requests.Sent)},
		{"requests.ok", fmtInt(r.Requests.OK)},
		{"requests.errors", fmtInt(r.Requests.Errors)},
		{"requests.not_sent", fmtInt(r.Requests.NotSent)},
	}
	if pct, ok := r.ErrorRatePct(); ok {
		ps = append(ps, junitProperty{"error_rate_pct", fmtRound(pct, 4)})
	}
	if hasSummary(r.Latency) {
		ps = append(ps,
			junitProperty{"latency.avg_ms", fmtRound(r.Latency.Avg, 3)},
			junitProperty{"latency.p50_ms", fmtRound(r.Latency.P50, 3)},
			junitProperty{"latency.p95_ms", fmtRound(r.Latency.P95, 3)},
			junitProperty{"latency.p99_ms", fmtRound(r.Latency.P99, 3)},
			junitProperty{"latency.max_ms", fmtRound(r.Latency.Max, 3)})
	}
	if r.Target != nil {
		ps = append(ps, junitProperty{"target.cpu_max_pct", fmtNum(r.Target.CPUMaxPct)})
	}
	ps = append(ps, junitProperty{"generator.saturated", strconv.FormatBool(r.Generator.Saturated)})
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
