package compare

import (
	"encoding/xml"
	"errors"
	"fmt"
	"io"
)

// The JUnit XML layout CI test views read (Jenkins, GitLab, GitHub).
type (
	junitSuites struct {
		XMLName  xml.Name   `xml:"testsuites"`
		Name     string     `xml:"name,attr"`
		Tests    int        `xml:"tests,attr"`
		Failures int        `xml:"failures,attr"`
		Suite    junitSuite `xml:"testsuite"`
	}
	junitSuite struct {
		Name       string          `xml:"name,attr"`
		Tests      int             `xml:"tests,attr"`
		Failures   int             `xml:"failures,attr"`
		Errors     int             `xml:"errors,attr"`
		Skipped    int             `xml:"skipped,attr"`
		Time       string          `xml:"time,attr"`
		Properties []junitProperty `xml:"properties>property"`
		Cases      []junitCase     `xml:"testcase"`
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
		SystemOut string        `xml:"system-out,omitempty"`
	}
	junitFailure struct {
		Message string `xml:"message,attr"`
		Type    string `xml:"type,attr"`
		Text    string `xml:",chardata"`
	}
)

// JUnit writes the gate verdicts of a comparison as JUnit XML, one test
// case per gate in the order given, so that a CI's test view lists them.
// A failed gate's message names the measured change, its p-value and the
// tolerance; an undecided gate that fails says why it could not be
// decided, and one that passes carries that in its system-out.
func JUnit(w io.Writer, c *Comparison) error {
	if c == nil || c.Gates == nil {
		return errors.New("comparison junit: no gates to report")
	}
	suite := junitSuite{
		Name: "vesload compare " + c.NameA + " vs " + c.NameB, Time: "0",
		Properties: []junitProperty{
			{"runs_" + c.NameA, fmt.Sprint(c.RunsA)}, {"runs_" + c.NameB, fmt.Sprint(c.RunsB)},
			{"basis", c.Gates.Basis}, {"undecided", string(c.Gates.Undecided)},
		},
	}
	for _, v := range c.Gates.Verdicts {
		jc := junitCase{Name: v.Gate.Expr, Classname: "vesload.gates", Time: "0"}
		msg := v.Gate.Expr + ": " + v.Sentence(c.NameA, c.NameB, c.Alpha)
		if v.Outcome == GateUndecided && c.Gates.Limit != "" {
			msg += ": " + c.Gates.Limit
		}
		switch {
		case !v.Pass && v.Outcome == GateUndecided:
			jc.Failure = &junitFailure{Message: msg, Type: "undecided", Text: msg + "\n"}
		case !v.Pass:
			jc.Failure = &junitFailure{Message: msg, Type: "regression", Text: msg + "\n"}
		case v.Outcome == GateUndecided:
			jc.SystemOut = msg + "\n"
		default:
			jc.SystemOut = msg + "\n"
		}
		suite.Cases = append(suite.Cases, jc)
	}
	suite.Tests, suite.Failures = len(suite.Cases), c.Gates.Failed()
	doc := junitSuites{Name: "vesload", Tests: suite.Tests, Failures: suite.Failures, Suite: suite}
	out, err := xml.MarshalIndent(doc, "", "  ")
	if err != nil {
		return fmt.Errorf("comparison junit: %w", err)
	}
	if _, err := fmt.Fprintf(w, "%s%s\n", xml.Header, out); err != nil {
		return fmt.Errorf("comparison junit: %w", err)
	}
	return nil
}
