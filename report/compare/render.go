package compare

import (
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/vesload/vesload/report/format"
	"github.com/vesload/vesload/report/table"
)

// Text writes the comparison as an aligned table for a terminal, with the
// method above it and the notes below.
func Text(w io.Writer, c *Comparison) error {
	if c == nil {
		return errors.New("comparison text: no comparison")
	}
	p := format.NewPrinter(w)
	p.Println("A/B comparison: " + c.Title())
	for _, line := range format.Wrap(c.Method(), 100) {
		p.Println(line)
	}
	p.Println("")
	p.Lines(cellTable(c, func(s string) string { return s }).Plain(""))
	if len(c.Distributions) > 0 {
		p.Println("")
		p.Println("Distributions:")
		for _, d := range c.Distributions {
			p.Wrapped("  ", d.Summary(c.NameA, c.NameB))
		}
	}
	if len(c.Notes) > 0 {
		p.Println("")
		p.Println("Notes:")
		for _, n := range c.Notes {
			p.Wrapped("  - ", n)
		}
	}
	if c.Gates != nil {
		p.Println("")
		lines := c.Gates.Lines(c.NameA, c.NameB, c.Alpha)
		p.Wrapped("", lines[0])
		for _, l := range lines[1 : len(lines)-1] {
			for i, wl := range format.Wrap(l, 96) {
				if i == 0 {
					p.Println("  " + wl)
				} else {
					p.Println("      " + wl)
				}
			}
		}
		p.Println(lines[len(lines)-1])
	}
	if p.Err() != nil {
		return fmt.Errorf("comparison text: %w", p.Err())
	}
	return nil
}

// Markdown writes the comparison as a pipe table for a wiki page, with
// the method above it and the notes as a list below.
func Markdown(w io.Writer, c *Comparison) error {
	if c == nil {
		return errors.New("comparison markdown: no comparison")
	}
	p := format.NewPrinter(w)
	p.Println("**A/B comparison: " + table.EscapeCell(c.Title()) + "**")
	p.Println("")
	p.Println(table.EscapeCell(c.Method()))
	p.Println("")
	p.Lines(cellTable(c, table.EscapeCell).Pipe(""))
	if len(c.Distributions) > 0 || len(c.Notes) > 0 {
		p.Println("")
	}
	for _, d := range c.Distributions {
		p.Println("- " + table.EscapeCell(d.Summary(c.NameA, c.NameB)))
	}
	for _, n := range c.Notes {
		p.Println("- " + table.EscapeCell(n))
	}
	if c.Gates != nil {
		lines := c.Gates.Lines(c.NameA, c.NameB, c.Alpha)
		p.Println("")
		p.Println(table.EscapeCell(lines[0]))
		p.Println("")
		for _, l := range lines[1 : len(lines)-1] {
			p.Println("- " + table.EscapeCell(l))
		}
		p.Println("")
		p.Println("**" + table.EscapeCell(lines[len(lines)-1]) + "**")
	}
	if p.Err() != nil {
		return fmt.Errorf("comparison markdown: %w", p.Err())
	}
	return nil
}

// jsonDoc is the JSON layout of a comparison. Rows carry at least metric,
// a, b, delta_pct, p_value and significant; delta_pct is null when A was
// 0 and B is not, p_value null when no test could run.
type jsonDoc struct {
	NameA         string     `json:"name_a"`
	NameB         string     `json:"name_b"`
	RunsA         int        `json:"runs_a"`
	RunsB         int        `json:"runs_b"`
	Test          Test       `json:"test"`
	Center        Center     `json:"center"`
	Alpha         float64    `json:"alpha"`
	Rows          []jsonRow  `json:"rows"`
	Distributions []jsonDist `json:"distributions,omitempty"`
	Notes         []string   `json:"notes,omitempty"`
	Gates         *jsonGates `json:"gates,omitempty"`
	Warned        []Warned   `json:"warned,omitempty"`
}

// jsonGates carries the gate verdicts: passed is the whole decision
// (after the undecided policy), each gate its own.
type jsonGates struct {
	Passed    bool       `json:"passed"`
	Failed    int        `json:"failed"`
	Basis     string     `json:"basis"`
	Undecided Undecided  `json:"undecided"`
	Limit     string     `json:"cannot_decide,omitempty"`
	Gates     []jsonGate `json:"gates"`
}

type jsonGate struct {
	Expr      string   `json:"expr"`
	Metric    string   `json:"metric"`
	Outcome   Outcome  `json:"outcome"`
	Pass      bool     `json:"pass"`
	A         float64  `json:"a"`
	B         float64  `json:"b"`
	Unit      string   `json:"unit,omitempty"`
	Change    *float64 `json:"change"`
	ChangeIn  string   `json:"change_unit"`
	Tolerance string   `json:"tolerance"`
	PValue    *float64 `json:"p_value"`
	Note      string   `json:"note,omitempty"`
	Summary   string   `json:"summary"`
}

type jsonRow struct {
	Metric      string    `json:"metric"`
	A           float64   `json:"a"`
	B           float64   `json:"b"`
	DeltaPct    *float64  `json:"delta_pct"`
	Change      float64   `json:"change"`
	ChangeUnit  string    `json:"change_unit"`
	PValue      *float64  `json:"p_value"`
	Significant bool      `json:"significant"`
	Verdict     string    `json:"verdict"`
	AStdDev     float64   `json:"a_stddev"`
	BStdDev     float64   `json:"b_stddev"`
	AValues     []float64 `json:"a_values"`
	BValues     []float64 `json:"b_values"`
}

type jsonDist struct {
	Metric      string  `json:"metric"`
	NA          int64   `json:"n_a"`
	NB          int64   `json:"n_b"`
	D           float64 `json:"ks_d"`
	PValue      float64 `json:"p_value"`
	Significant bool    `json:"significant"`
}

// JSON writes the comparison for scripts:
// {"rows": [{"metric", "a", "b", "delta_pct", "change", "change_unit", "p_value", "significant", …}, …], …}
// (change is b − a in change_unit: ms, pp, /s, MB/s, or "" for counts)
// with metric names as in the result document (error_rate, derived, is
// in percent like the threshold of that name). a and b are the sides'
// centres; a_values and b_values the per-run figures behind them.
func JSON(w io.Writer, c *Comparison) error {
	if c == nil {
		return errors.New("comparison json: no comparison")
	}
	doc := jsonDoc{
		NameA: c.NameA, NameB: c.NameB, RunsA: c.RunsA, RunsB: c.RunsB,
		Test: c.Test, Center: c.Center, Alpha: c.Alpha,
		Rows: make([]jsonRow, len(c.Rows)), Notes: c.Notes, Warned: c.Warned,
	}
	for i, r := range c.Rows {
		jr := jsonRow{
			Metric: r.Metric, A: r.A.Center, B: r.B.Center, Change: math.Round(r.Change()*1e6) / 1e6, ChangeUnit: r.ChangeUnit(), Significant: r.Significant,
			Verdict: r.Verdict(), AStdDev: r.A.StdDev, BStdDev: r.B.StdDev,
			AValues: r.A.Values, BValues: r.B.Values,
		}
		if !math.IsInf(r.DeltaPct, 0) && !math.IsNaN(r.DeltaPct) {
			d := r.DeltaPct
			jr.DeltaPct = &d
		}
		if r.Tested {
			pv := r.P
			jr.PValue = &pv
		}
		doc.Rows[i] = jr
	}
	for _, d := range c.Distributions {
		doc.Distributions = append(doc.Distributions, jsonDist{
			Metric: d.Metric, NA: d.NA, NB: d.NB, D: d.D, PValue: d.P, Significant: d.Significant,
		})
	}
	if c.Gates != nil {
		doc.Gates = jsonGateSet(c)
	}
	if err := format.WriteJSON(w, doc); err != nil {
		return fmt.Errorf("comparison json: %w", err)
	}
	return nil
}

// cellTable lays the comparison's cells out with the metric (first) and
// verdict (last) columns left-aligned and the figures right-aligned;
// escape is applied to every cell.
func cellTable(c *Comparison, escape func(string) string) *table.Table {
	header := c.Header()
	t := &table.Table{Cols: make([]table.Column, len(header))}
	for i, h := range header {
		t.Cols[i] = table.Left(escape(h))
		if i > 0 && i < len(header)-1 {
			t.Cols[i] = table.Right(escape(h))
		}
	}
	for _, r := range c.Cells() {
		row := make([]string, len(r))
		for i, cell := range r {
			row[i] = escape(cell)
		}
		t.Add(row...)
	}
	return t
}

func jsonGateSet(c *Comparison) *jsonGates {
	g := &jsonGates{
		Passed: c.Gates.Passed(), Failed: c.Gates.Failed(), Basis: c.Gates.Basis,
		Undecided: c.Gates.Undecided, Limit: c.Gates.Limit, Gates: []jsonGate{},
	}
	for _, v := range c.Gates.Verdicts {
		jg := jsonGate{
			Expr: v.Gate.Expr, Metric: v.Gate.Metric, Outcome: v.Outcome, Pass: v.Pass,
			A: v.A, B: v.B, Unit: v.Gate.Unit, ChangeIn: v.Gate.kindUnit(), Tolerance: v.Gate.Tolerance(),
			Note: v.Note, Summary: v.Sentence(c.NameA, c.NameB, c.Alpha),
		}
		if !math.IsInf(v.Change, 0) && !math.IsNaN(v.Change) {
			ch := v.Change
			jg.Change = &ch
		}
		if v.Tested {
			p := v.P
			jg.PValue = &p
		}
		g.Gates = append(g.Gates, jg)
	}
	return g
}
