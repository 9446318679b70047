package capcmp

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/vesload/vesload/report/format"
	"github.com/vesload/vesload/report/junit"
	"github.com/vesload/vesload/report/table"
)

// sideRow is a side's figures as the text and Markdown tables show them.
func sideRow(s Side) []string {
	high := "none failed"
	if s.High != nil {
		high = Rate(*s.High) + "/s"
	}
	limited := strings.Join(s.LimitedBy, ", ")
	if limited == "" {
		limited = "-"
	}
	confirmed := "yes"
	if s.Unconfirmed > 0 {
		confirmed = fmt.Sprintf("%d of %d not", s.Unconfirmed, len(s.MaxRPS))
	}
	return []string{s.Name, fmt.Sprint(len(s.MaxRPS)), Rate(s.Mean) + "/s", Rate(s.Min) + "–" + Rate(s.Max) + "/s",
		high, "±" + pct(s.PrecisionPct) + " %", limited, confirmed}
}

var compareHeader = []string{"side", "runs", "max rps (mean)", "min–max", "lowest fail", "precision", "limited by", "confirmed"}

// Header is the columns of the sides' table, so that the HTML page shows
// the table the text and Markdown renderings do.
func (c *Comparison) Header() []string { return slices.Clone(compareHeader) }

// Cells are the rows of that table, A's then B's, unescaped: each
// rendering escapes them its own way.
func (c *Comparison) Cells() [][]string { return [][]string{sideRow(c.A), sideRow(c.B)} }

// Text writes the comparison as text: the verdict, a table of the two
// sides and the gates.
func Text(w io.Writer, c *Comparison) error {
	var b strings.Builder
	b.WriteString(table.EscapeControlLines(c.Verdict) + "\n\n")
	writeAligned(&b, compareHeader, [][]string{sideRow(c.A), sideRow(c.B)})
	if len(c.Gates) > 0 {
		b.WriteString("\n")
		for _, l := range c.GateLines() {
			b.WriteString(table.EscapeControlLines(l) + "\n")
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// Markdown writes the comparison as a Markdown table under its verdict.
func Markdown(w io.Writer, c *Comparison) error {
	var b strings.Builder
	b.WriteString(table.EscapeControlLines(c.Verdict) + "\n\n")
	writeMarkdown(&b, compareHeader, [][]string{sideRow(c.A), sideRow(c.B)})
	if len(c.Gates) > 0 {
		b.WriteString("\n")
		for _, l := range c.GateLines() {
			b.WriteString("- " + table.EscapeControlLines(l) + "\n")
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// JSON writes the comparison as indented JSON.
func JSON(w io.Writer, c *Comparison) error { return encode(w, c) }

func encode(w io.Writer, v any) error {
	if err := format.WriteJSON(w, v); err != nil {
		return fmt.Errorf("encode: %w", err)
	}
	return nil
}

// JUnit writes the gates as JUnit XML, one test case per gate, as
// compare's gates are written.
func JUnit(w io.Writer, c *Comparison) error {
	s := junit.Suite{Name: "vesload compare capacity " + c.A.Name + " vs " + c.B.Name, Time: "0"}
	for _, g := range c.Gates {
		tc := junit.Case{Name: g.Expr, Classname: "vesload.compare.capacity", Time: "0", SystemOut: g.Reason}
		if !g.Passed {
			tc.Failure = &junit.Failure{Message: g.Reason, Type: string(g.Outcome)}
		}
		s.Cases = append(s.Cases, tc)
	}
	return junit.Write(w, "vesload compare", s)
}

// writeAligned writes rows under header in columns two spaces apart.
func writeAligned(b *strings.Builder, header []string, rows [][]string) {
	widths := make([]int, len(header))
	for _, r := range append([][]string{header}, rows...) {
		for i, c := range r {
			widths[i] = max(widths[i], len([]rune(c)))
		}
	}
	for _, r := range append([][]string{header}, rows...) {
		var line strings.Builder
		for i, c := range r {
			cell := table.EscapeControlLines(c)
			line.WriteString(cell)
			if i < len(r)-1 {
				line.WriteString(strings.Repeat(" ", widths[i]-len([]rune(c))+2))
			}
		}
		b.WriteString(strings.TrimRight(line.String(), " ") + "\n")
	}
}

// writeMarkdown writes a Markdown table, its cells' pipes escaped.
func writeMarkdown(b *strings.Builder, header []string, rows [][]string) {
	row := func(r []string) {
		cells := make([]string, len(r))
		for i, c := range r {
			cells[i] = strings.ReplaceAll(table.EscapeControlLines(c), "|", `\|`)
		}
		b.WriteString("| " + strings.Join(cells, " | ") + " |\n")
	}
	row(header)
	sep := make([]string, len(header))
	for i := range sep {
		sep[i] = "---"
	}
	row(sep)
	for _, r := range rows {
		row(r)
	}
}
