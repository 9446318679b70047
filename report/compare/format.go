package compare

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/vesload/vesload/report/format"
)

// Verdict is the row's conclusion at the comparison's alpha: "~" when
// the runs cannot tell the sides apart, "?" when there were too few runs
// to test, otherwise the change with "better" or "worse" where the
// metric has a direction ("+31.2% worse").
func (r Row) Verdict() string {
	switch {
	case !r.Tested:
		return "?"
	case !r.Significant:
		return "~"
	}
	word := ""
	switch {
	case r.Better == Neutral || r.DeltaPct == 0:
	case (r.DeltaPct > 0) == (r.Better == LowerIsBetter):
		word = " worse"
	default:
		word = " better"
	}
	return r.Delta() + word
}

// Delta formats DeltaPct: "+31.2%", "-4.0%", "0.0%" (also for changes
// that round to zero), or "+inf%" when A was 0 and B is not.
func (r Row) Delta() string {
	return format.Shift(r.DeltaPct)
}

// Change is B's centre minus A's, in the metric's own unit: ms for
// times, percentage points for rates and shares, the count or rate
// otherwise. It is what ONAP's pages report beside the relative delta.
func (r Row) Change() float64 { return r.B.Center - r.A.Center }

// ChangeUnit is the unit of Change: "ms", "pp" (for a metric in %),
// "/s", "MB/s", or "" for counts.
func (r Row) ChangeUnit() string {
	open := strings.LastIndex(r.Label, "(")
	if open < 0 || !strings.HasSuffix(r.Label, ")") {
		return ""
	}
	switch u := r.Label[open+1 : len(r.Label)-1]; u {
	case "%":
		return "pp"
	default:
		return u
	}
}

// AbsDelta formats Change with its unit and a sign: "+2.20 ms",
// "-0.40 pp", "+12.00 /s", "0.00 ms" for a change that rounds to zero.
func (r Row) AbsDelta() string {
	d := r.Change()
	s := fmt.Sprintf("%+.2f", d)
	if math.Abs(d) < 0.005 {
		s = "0.00"
	}
	if u := r.ChangeUnit(); u != "" {
		s += " " + u
	}
	return s
}

// PValue formats P with three decimals ("<0.001" below that); "-" when
// no test could run.
func (r Row) PValue() string {
	if !r.Tested {
		return "-"
	}
	return format.PValue(r.P)
}

// Format formats one side as its centre and spread: "12.34 ± 0.56" (mean
// and standard deviation) or "12.34 (11.90–12.80)" (median and range);
// a single run shows its value alone.
func (s Side) Format(center Center) string {
	v := fmtVal(s.Center)
	if len(s.Values) < 2 {
		return v
	}
	if center == Median {
		return v + " (" + fmtVal(s.Min) + "–" + fmtVal(s.Max) + ")"
	}
	return v + " ± " + fmtVal(s.StdDev)
}

func fmtVal(v float64) string { return strconv.FormatFloat(v, 'f', 2, 64) }

// Header returns the column titles of the comparison table: the change
// B − A in the metric's unit (ms, percentage points) beside the delta in
// percent.
func (c *Comparison) Header() []string {
	return []string{"metric", c.NameA, c.NameB, "change", "delta", "p", "verdict"}
}

// Cells returns the cells of every row as Header lays them out, so that
// the text, Markdown and HTML tables print the same figures.
func (c *Comparison) Cells() [][]string {
	out := make([][]string, len(c.Rows))
	for i, r := range c.Rows {
		out[i] = []string{r.Label, r.A.Format(c.Center), r.B.Format(c.Center), r.AbsDelta(), r.Delta(), r.PValue(), r.Verdict()}
	}
	return out
}

// TestName names the test for a reader.
func (c *Comparison) TestName() string {
	if c.Test == UTest {
		return "Mann-Whitney U test"
	}
	return "Welch's t-test"
}

// Method is the one sentence that says how the table was computed.
func (c *Comparison) Method() string {
	if c.RunsA == 1 || c.RunsB == 1 {
		return fmt.Sprintf("Per-run values (the %s when a side has several runs); change (in the metric's unit: ms, pp for percentage points) and delta (in %%) are %s against %s; with a single run on a side no metric can be tested (\"?\").",
			c.Center, c.NameB, c.NameA)
	}
	spread := "mean ± standard deviation"
	if c.Center == Median {
		spread = "median (min–max)"
	}
	return fmt.Sprintf("%s on the per-run values at alpha %g; %s over the runs; change (in the metric's unit: ms, pp for percentage points) and delta (in %%) are %s against %s; \"~\" means no significant difference.",
		c.TestName(), c.Alpha, spread, c.NameB, c.NameA)
}

// Title is the one-line heading of the comparison.
func (c *Comparison) Title() string {
	return fmt.Sprintf("%s (%s) vs %s (%s)", c.NameA, plural(c.RunsA, "run"), c.NameB, plural(c.RunsB, "run"))
}

// Summary describes one distribution test in a sentence.
func (d Distribution) Summary(nameA, nameB string) string {
	what := "latency"
	if d.Metric == "service_ms" {
		what = "service time"
	}
	verdict := "no difference detected"
	if d.Significant {
		verdict = fmt.Sprintf("the distributions differ; largest change of %s against %s %s at p%s", nameB, nameA, format.Shift(d.Shift), strconv.FormatFloat(d.ShiftPercentile, 'f', -1, 64))
	}
	p := "p=" + format.PValue(d.P)
	if d.P < 0.001 {
		p = "p<0.001"
	}
	return fmt.Sprintf("%s, request by request (%d vs %d requests): KS D=%.3f, %s: %s",
		what, d.NA, d.NB, d.D, p, verdict)
}
