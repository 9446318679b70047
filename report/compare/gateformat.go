package compare

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/vesload/vesload/report/format"
)

// Status is the verdict's word in every rendering: PASS, FAIL, or
// UNDECIDED with what the policy made of it.
func (v GateVerdict) Status() string {
	switch {
	case v.Outcome == GateUndecided && v.Pass:
		return "UNDECIDED (passes)"
	case v.Outcome == GateUndecided:
		return "UNDECIDED (fails)"
	case v.Pass:
		return "PASS"
	}
	return "FAIL"
}

// ChangeText formats the measured change in the tolerance's kind,
// with "worse" or "better": "+19.8% worse", "+2.10 ms worse",
// "+0.40pp worse", "0.0%".
func (v GateVerdict) ChangeText() string {
	if math.IsNaN(v.Change) {
		return "n/a"
	}
	var s string
	switch v.Gate.Kind {
	case Relative:
		s = format.Shift(v.Change)
	case Points:
		s = fmt.Sprintf("%+.2fpp", v.Change)
	default:
		s = fmt.Sprintf("%+.2f", v.Change)
		if v.Gate.Unit != "" {
			s += " " + v.Gate.Unit
		}
	}
	switch {
	case v.Change == 0 || math.Abs(v.Change) < 0.005:
		return s
	case (v.Change > 0) == (v.Gate.Better == LowerIsBetter):
		return s + " worse"
	}
	return s + " better"
}

// PText formats the p-value: "p=0.002", "p<0.001", or "no p-value".
func (v GateVerdict) PText() string {
	if !v.Tested {
		return "no p-value"
	}
	if v.P < 0.001 {
		return "p<0.001"
	}
	return "p=" + format.PValue(v.P)
}

// Sentence explains the verdict in one sentence: the measured change
// with both figures, its p-value and the tolerance, and why it decided
// as it did.
func (v GateVerdict) Sentence(nameA, nameB string, alpha float64) string {
	if math.IsNaN(v.Change) {
		return "cannot be checked: " + v.Note
	}
	unit := v.Gate.Unit
	if unit != "" && unit != "%" {
		unit = " " + unit
	}
	s := fmt.Sprintf("%s vs %s: %s (%s → %s%s), %s, tolerance %s", nameB, nameA, v.ChangeText(),
		fmtVal(v.A), fmtVal(v.B), unit, v.PText(), v.Gate.Tolerance())
	a := strconv.FormatFloat(alpha, 'g', -1, 64)
	switch {
	case v.Outcome == GateUndecided && v.Note != "":
		return s + ": cannot decide: " + v.Note
	case v.Outcome == GateUndecided:
		s += ": cannot decide"
	case v.Outcome == GateFail:
		s += ": beyond the tolerance and significant at alpha " + a
	case !v.Gate.Within(v.Change):
		s += ": beyond the tolerance but not significant at alpha " + a
	default:
		s += ": within the tolerance"
	}
	if v.Note != "" && v.Outcome != GateUndecided {
		s += " (" + v.Note + ")"
	}
	return s
}

// Headline sums the gates up in one line: "gates: 1 of 3 failed", with
// ", decided on 2 inputs that carry a warning" when some did.
func (s *GateSet) Headline() string {
	h := s.headline()
	switch n := len(s.Warned); n {
	case 0:
	case 1:
		h += ", decided on 1 input that carries a warning"
	default:
		h += ", decided on " + plural(n, "input") + " that carry a warning"
	}
	return h
}

func (s *GateSet) headline() string {
	n := len(s.Verdicts)
	undecided := ""
	if u := s.count(GateUndecided); u > 0 {
		undecided = fmt.Sprintf(" (%d undecided)", u)
	}
	if f := s.Failed(); f > 0 {
		return fmt.Sprintf("gates: %d of %d failed%s", f, n, undecided)
	}
	if undecided != "" {
		return fmt.Sprintf("gates: all %d passed%s", n, undecided)
	}
	if n == 1 {
		return "gates: the gate passed"
	}
	return fmt.Sprintf("gates: all %d passed", n)
}

// Summary is what the gates decided in at most two lines, for a log
// beside a rendering that shows no gates' section (`vesload compare
// --format json`): why nothing could be decided, when that is so, then
// the headline.
func (s *GateSet) Summary() []string {
	var out []string
	if s.Limit != "" {
		out = append(out, "cannot decide: "+s.Limit)
	}
	return append(out, s.Headline())
}

// Policy says what undecided gates mean, for a reader.
func (s *GateSet) Policy() string {
	if s.Undecided == UndecidedPass {
		return "undecided gates pass (--gate-undecided pass)"
	}
	return "undecided gates fail (--gate-undecided pass lets them pass)"
}

// Lines are the gates' section in text and Markdown: the basis, the
// one line saying why nothing could be decided when that is so, then
// one line per gate and the headline.
func (s *GateSet) Lines(nameA, nameB string, alpha float64) []string {
	out := []string{"Gates: " + s.Basis + "; " + s.Policy() + "."}
	if s.Limit != "" {
		out = append(out, "Cannot decide: "+s.Limit+".")
	}
	for _, n := range s.Notes {
		out = append(out, "Note: "+n+".")
	}
	for _, v := range s.Verdicts {
		out = append(out, v.Status()+"  "+v.Gate.Expr+": "+v.Sentence(nameA, nameB, alpha))
	}
	return append(out, s.Headline())
}

// BaselineText writes the gates a run was held to against a stored
// result (`vesload run --baseline FILE`), below the run's summary: a
// heading naming the file, each line wrapped at 98 columns and indented,
// and the headline.
func (s *GateSet) BaselineText(w io.Writer, file string, alpha float64) error {
	var b strings.Builder
	p := format.NewPrinter(&b)
	p.Printf("\nBaseline %s:\n", file)
	lines := s.Lines("baseline", "this run", alpha)
	for _, l := range lines[:len(lines)-1] {
		for i, wl := range format.Wrap(l, 98) {
			if i == 0 {
				p.Printf("  %s\n", wl)
			} else {
				p.Printf("    %s\n", wl)
			}
		}
	}
	p.Printf("%s\n", lines[len(lines)-1])
	_, err := io.WriteString(w, b.String())
	return err
}
