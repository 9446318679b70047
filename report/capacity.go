package report

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/vesload/vesload/report/format"
	"github.com/vesload/vesload/report/result"
	"github.com/vesload/vesload/report/summary"
	"github.com/vesload/vesload/report/table"
)

// CapacityMarkdown writes a capacity search as Markdown a wiki page can
// take as it is: the result line (the highest rate that held the SLOs,
// the lowest that broke one and the gate it broke, who limited it, the
// precision reached), what was asked, and a table of every step in the
// order it ran (rate offered and achieved, p50, p99, error %, the
// target's CPU when sampled, verdict, cause and the
// figure that decided). Text from the document is
// escaped.
func CapacityMarkdown(w io.Writer, d *result.CapacityDocument) error {
	if d == nil {
		return errors.New("capacity markdown: no document")
	}
	c := &d.Capacity
	p := format.NewPrinter(w)
	p.Println(capacityLine(c))
	p.Println("")
	if c.Advice != "" {
		p.Println("Advice: " + markdownText(c.Advice))
		p.Println("")
	}
	if c.Undecided != "" {
		p.Println("Undecided: " + markdownText(c.Undecided))
		p.Println("")
	}
	asked := fmt.Sprintf("Target %s; SLOs %s; steps of %s s after a %s s warm-up, from %s/s up to %s/s; %s in %s s of a %s s budget.",
		markdownCode(d.Config.URL), markdownCode(strings.Join(d.Config.SLOs, ", ")), format.Num(d.Config.StepS), format.Num(d.Config.WarmupS),
		format.Num(d.Config.StartRPS), format.Num(d.Config.MaxRPS), steps(len(c.Steps)), format.Num(c.SpentS), format.Num(c.BudgetS))
	if hv := summary.HVShape(d.Config); hv != "" {
		asked += " " + hv + "."
	}
	p.Println(asked)
	p.Println("")
	followed := result.AnyFollowed(c.Steps)
	cols := []table.Column{table.Right("Step"), table.Left("Phase"), table.Right("Offered /s"), table.Right("Achieved /s"),
		table.Right("p50 ms"), table.Right("p99 ms")}
	if followed {
		cols = append(cols, table.Right("e2e p99 ms"))
	}
	t := table.Table{Cols: append(cols, table.Right("Error %"), table.Right("Target CPU %"), table.Left("Verdict"),
		table.Left("Cause"), table.Left("Decided by"))}
	for _, s := range c.Steps {
		verdict := "pass"
		if !s.Pass {
			verdict = "FAIL"
		}
		if s.StoppedEarly {
			verdict += " (stopped early)"
		}
		cause := ""
		if !s.Pass {
			cause = s.Cause
		}
		row := summary.CapacityFigures(s, followed)
		row[1] = table.EscapeCell(markdownText(row[1])) // the phase, the one word among the figures
		t.Add(append(row, verdict, table.EscapeCell(markdownText(cause)), table.EscapeCell(markdownText(s.Decided)))...)
	}
	p.Lines(t.Pipe(""))
	if err := p.Err(); err != nil {
		return fmt.Errorf("capacity markdown: %w", err)
	}
	return nil
}

// capacityLine is the result in one line: the capacity in bold, the
// lowest failing rate and the gate it broke, who limited it and the
// precision reached against the one asked.
func capacityLine(c *result.Capacity) string {
	var b strings.Builder
	switch {
	case c.MaxRPS > 0 && c.FailRPS > 0:
		b.WriteString("**Capacity: " + summary.CapacityRate(c.MaxRPS, c.MaxProducers) + "**; lowest failing rate " +
			summary.CapacityRate(c.FailRPS, c.FailProducers) + ", broken by " + markdownCode(c.BrokenBy))
	case c.MaxRPS > 0:
		b.WriteString("**Capacity: at least " + summary.CapacityRate(c.MaxRPS, c.MaxProducers) + "**; no rate tried broke the SLOs")
	case c.FailRPS > 0:
		b.WriteString("**Capacity: no rate held the SLOs**; lowest failing rate " + summary.CapacityRate(c.FailRPS, c.FailProducers) +
			", broken by " + markdownCode(c.BrokenBy))
	default:
		b.WriteString("**Capacity: no rate held the SLOs**")
	}
	if c.LimitedBy != "" {
		b.WriteString("; limited by the " + markdownText(c.LimitedBy))
	}
	if c.MaxRPS > 0 && c.FailRPS > 0 {
		b.WriteString("; precision " + format.Num(c.PrecisionPct) + " % (asked " + format.Num(c.AskedPrecisionPct) + " %)")
		if c.Confirmed {
			b.WriteString(", both rates run again")
		} else {
			b.WriteString(", not confirmed")
		}
	}
	return b.String() + "."
}

// markdownText keeps text from the document literal in Markdown and on
// one line.
func markdownText(s string) string { return strings.Join(strings.Fields(table.EscapeText(s)), " ") }

// markdownCode writes text from the document as inline code, in a fence
// longer than any run of backticks in it; empty text is "n/a".
func markdownCode(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if s == "" {
		return format.NA
	}
	fence := "`"
	for strings.Contains(s, fence) {
		fence += "`"
	}
	pad := ""
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		pad = " "
	}
	return fence + pad + s + pad + fence
}

// steps counts steps in words: "1 step", "9 steps".
func steps(n int) string {
	if n == 1 {
		return "1 step"
	}
	return fmt.Sprintf("%d steps", n)
}
