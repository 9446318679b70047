package compare

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/vesload/vesload/report/junit"
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
	suite := junit.Suite{
		Name: "vesload compare " + c.NameA + " vs " + c.NameB, Time: "0",
		Properties: []junit.Property{
			{Name: "runs_" + c.NameA, Value: fmt.Sprint(c.RunsA)}, {Name: "runs_" + c.NameB, Value: fmt.Sprint(c.RunsB)},
			{Name: "basis", Value: c.Gates.Basis}, {Name: "undecided", Value: string(c.Gates.Undecided)},
		},
	}
	if len(c.Gates.Warned) > 0 {
		suite.Properties = append(suite.Properties, junit.Property{Name: "inputs_with_warnings", Value: strings.Join(c.Gates.Warned, ", ")})
	}
	for _, v := range c.Gates.Verdicts {
		jc := junit.Case{Name: v.Gate.Expr, Classname: "vesload.gates", Time: "0"}
		msg := v.Gate.Expr + ": " + v.Sentence(c.NameA, c.NameB, c.Alpha)
		if v.Outcome == GateUndecided && c.Gates.Limit != "" {
			msg += ": " + c.Gates.Limit
		}
		if w := c.Gates.WarnedLine(); w != "" {
			msg += " (" + w + ")"
		}
		switch {
		case !v.Pass && v.Outcome == GateUndecided:
			jc.Failure = &junit.Failure{Message: msg, Type: "undecided", Text: msg + "\n"}
		case !v.Pass:
			jc.Failure = &junit.Failure{Message: msg, Type: "regression", Text: msg + "\n"}
		case v.Outcome == GateUndecided:
			jc.SystemOut = msg + "\n"
		default:
			jc.SystemOut = msg + "\n"
		}
		suite.Cases = append(suite.Cases, jc)
	}
	if err := junit.Write(w, "vesload", suite); err != nil {
		return fmt.Errorf("comparison junit: %w", err)
	}
	return nil
}
