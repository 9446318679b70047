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

// compareColumns are the columns of the sides' table.
var compareColumns = []table.Column{table.Left("side"), table.Right("runs"), table.Right("max rps (mean)"), table.Right("min–max"),
	table.Right("lowest fail"), table.Right("precision"), table.Left("limited by"), table.Left("confirmed")}

// Columns are the columns of the sides' table, so that the HTML page
// shows the table the text and Markdown renderings do, its numbers
// aligned as theirs.
func (c *Comparison) Columns() []table.Column { return slices.Clone(compareColumns) }

// Cells are the rows of that table, A's then B's, unescaped: each
// rendering escapes them its own way.
func (c *Comparison) Cells() [][]string { return [][]string{sideRow(c.A), sideRow(c.B)} }

// Text writes the comparison as text: the verdict, a table of the two
// sides and the gates.
func Text(w io.Writer, c *Comparison) error {
	var b strings.Builder
	b.WriteString(table.EscapeControlLines(c.Verdict) + "\n\n")
	writeLines(&b, (&table.Table{Cols: compareColumns, Rows: c.Cells()}).Plain(""))
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
	writeLines(&b, markdownTable(compareColumns, c.Cells()))
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

// markdownTable is rows under cols as a Markdown table, each cell kept on
// one line with its pipes literal.
func markdownTable(cols []table.Column, rows [][]string) []string {
	t := &table.Table{Cols: cols}
	for _, r := range rows {
		cells := make([]string, len(r))
		for i, c := range r {
			cells[i] = table.EscapeCell(c)
		}
		t.Add(cells...)
	}
	return t.Pipe("")
}

// writeLines writes lines, each ended.
func writeLines(b *strings.Builder, lines []string) {
	for _, l := range lines {
		b.WriteString(l + "\n")
	}
}
