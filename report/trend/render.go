package trend

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/vesload/vesload/report/compare"
	"github.com/vesload/vesload/report/format"
	"github.com/vesload/vesload/report/junit"
	"github.com/vesload/vesload/report/table"
)

// runTable lays the rows out: build and run left-aligned, figures
// right-aligned; escape is applied to every cell.
func (a *Analysis) runTable(escape func(string) string) *table.Table {
	header := a.Header()
	t := &table.Table{Cols: make([]table.Column, len(header))}
	for i, h := range header {
		t.Cols[i] = table.Right(escape(h))
		if i < 2 {
			t.Cols[i] = table.Left(escape(h))
		}
	}
	for _, r := range a.Rows() {
		cells := make([]string, len(r.Cells))
		for i, c := range r.Cells {
			cells[i] = escape(c)
		}
		t.Add(cells...)
	}
	return t
}

// Text writes the history as an aligned table for a terminal: one row
// per run, a line of changes before each run a change starts at, then
// every change in full, the notes and the gates.
func Text(w io.Writer, a *Analysis) error {
	if a == nil {
		return errors.New("trend text: no analysis")
	}
	p := format.NewPrinter(w)
	p.Println("Trend: " + a.Title())
	p.Wrapped("", a.Method())
	p.Println("")
	for _, l := range a.runTable(func(s string) string { return s }).Plain("") {
		p.Println(l)
	}
	p.Println("")
	if ch := a.Changes(); len(ch) > 0 {
		p.Println("Changes:")
		for _, c := range ch {
			p.Wrapped("  - ", c)
		}
	} else {
		p.Println("No change point in any metric.")
	}
	if len(a.Notes) > 0 {
		p.Println("")
		p.Println("Notes:")
		for _, n := range a.Notes {
			p.Wrapped("  - ", n)
		}
	}
	if a.Gates != nil {
		p.Println("")
		lines := a.GateLines()
		p.Wrapped("", lines[0])
		for _, l := range lines[1 : len(lines)-1] {
			p.Wrapped("  ", l)
		}
		p.Println(lines[len(lines)-1])
	}
	if p.Err() != nil {
		return fmt.Errorf("trend text: %w", p.Err())
	}
	return nil
}

// Markdown writes the history as a pipe table for a wiki page or a CI
// summary, with the changes, notes and gates as lists below.
func Markdown(w io.Writer, a *Analysis) error {
	if a == nil {
		return errors.New("trend markdown: no analysis")
	}
	p := format.NewPrinter(w)
	p.Println("**Trend: " + table.EscapeCell(a.Title()) + "**")
	p.Println("")
	p.Println(table.EscapeCell(a.Method()))
	p.Println("")
	for _, l := range a.runTable(table.EscapeCell).Pipe("") {
		p.Println(l)
	}
	p.Println("")
	if ch := a.Changes(); len(ch) > 0 {
		p.Println("Changes:")
		p.Println("")
		for _, c := range ch {
			p.Println("- " + table.EscapeCell(c))
		}
	} else {
		p.Println("No change point in any metric.")
	}
	if len(a.Notes) > 0 {
		p.Println("")
		for _, n := range a.Notes {
			p.Println("- " + table.EscapeCell(n))
		}
	}
	if a.Gates != nil {
		lines := a.GateLines()
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
		return fmt.Errorf("trend markdown: %w", p.Err())
	}
	return nil
}

// jsonNum is a figure that may be infinite (a change from 0): null then.
type jsonNum float64

// MarshalJSON implements json.Marshaler.
func (n jsonNum) MarshalJSON() ([]byte, error) {
	if math.IsNaN(float64(n)) || math.IsInf(float64(n), 0) {
		return []byte("null"), nil
	}
	return json.Marshal(float64(n))
}

type jsonDoc struct {
	By       string           `json:"by,omitempty"`
	Detector jsonDetector     `json:"detector"`
	Runs     []Run            `json:"runs"`
	Metrics  []jsonSeries     `json:"metrics"`
	Notes    []string         `json:"notes,omitempty"`
	Gates    *jsonGates       `json:"gates,omitempty"`
	Warned   []compare.Warned `json:"warned,omitempty"`
}

type jsonDetector struct {
	Method       string  `json:"method"`
	Test         Test    `json:"test"`
	Alpha        float64 `json:"alpha"`
	Permutations int     `json:"permutations,omitempty"`
	Seed         *uint64 `json:"seed,omitempty"`
	MinSegment   int     `json:"min_segment"`
	Window       int     `json:"window"`
}

type jsonSeries struct {
	Metric   string       `json:"metric"`
	Unit     string       `json:"unit,omitempty"`
	Better   string       `json:"better"`
	Values   []float64    `json:"values"`
	Segments []Segment    `json:"segments"`
	Changes  []jsonChange `json:"changes"`
}

type jsonChange struct {
	Index    int     `json:"index"`
	Build    string  `json:"build"`
	Before   float64 `json:"before"`
	After    float64 `json:"after"`
	Delta    float64 `json:"delta"`
	DeltaPct jsonNum `json:"delta_pct"`
	PValue   float64 `json:"p_value"`
	Verdict  string  `json:"verdict"`
}

type jsonGates struct {
	Passed    bool              `json:"passed"`
	Failed    int               `json:"failed"`
	Basis     string            `json:"basis"`
	Undecided compare.Undecided `json:"undecided"`
	Gates     []jsonGate        `json:"gates"`
}

type jsonGate struct {
	Expr      string          `json:"gate"`
	Metric    string          `json:"metric"`
	Outcome   compare.Outcome `json:"outcome"`
	Pass      bool            `json:"pass"`
	Before    string          `json:"before_runs,omitempty"`
	Newest    string          `json:"newest_runs,omitempty"`
	A         float64         `json:"before"`
	B         float64         `json:"newest"`
	Change    jsonNum         `json:"change"`
	Tolerance string          `json:"tolerance"`
	PValue    *float64        `json:"p_value,omitempty"`
	Note      string          `json:"note,omitempty"`
	Summary   string          `json:"summary"`
}

func betterName(d compare.Direction) string {
	switch d {
	case compare.LowerIsBetter:
		return "lower"
	case compare.HigherIsBetter:
		return "higher"
	}
	return "neither"
}

// JSON writes the history for scripts: the runs in order, and per metric
// its values, segments and changes (index and build of the first run
// after each change, means before and after, delta, delta_pct, p_value,
// verdict), then the gates.
func JSON(w io.Writer, a *Analysis) error {
	if a == nil {
		return errors.New("trend json: no analysis")
	}
	d := a.Detector
	doc := jsonDoc{By: a.By, Runs: a.Runs, Notes: a.Notes, Warned: a.Warned, Metrics: []jsonSeries{},
		Detector: jsonDetector{Method: "e-divisive means", Test: d.Test, Alpha: d.Alpha, MinSegment: d.MinSize, Window: d.Window}}
	if d.Test == Permutation {
		seed := d.Seed
		doc.Detector.Permutations, doc.Detector.Seed = d.Permutations, &seed
	}
	for _, s := range a.Series {
		js := jsonSeries{Metric: s.Metric, Unit: s.Unit, Better: betterName(s.Direction), Values: s.Values, Segments: s.Segments, Changes: []jsonChange{}}
		for _, c := range s.Changes {
			js.Changes = append(js.Changes, jsonChange{Index: c.Index, Build: c.Build, Before: c.Before, After: c.After,
				Delta: c.Delta, DeltaPct: jsonNum(c.DeltaPct), PValue: c.P, Verdict: c.Verdict()})
		}
		doc.Metrics = append(doc.Metrics, js)
	}
	if g := a.Gates; g != nil {
		jg := &jsonGates{Passed: g.Passed(), Failed: g.Failed(), Basis: g.Basis, Undecided: g.Undecided, Gates: []jsonGate{}}
		for i, v := range g.Verdicts {
			sd := a.sides(i)
			j := jsonGate{Expr: v.Gate.Expr, Metric: v.Gate.Metric, Outcome: v.Outcome, Pass: v.Pass, Before: sd.A, Newest: sd.B,
				A: v.A, B: v.B, Change: jsonNum(v.Change), Tolerance: v.Gate.Tolerance(), Note: v.Note,
				Summary: v.Sentence(sd.A, sd.B, d.Alpha)}
			if v.Tested {
				p := v.P
				j.PValue = &p
			}
			jg.Gates = append(jg.Gates, j)
		}
		doc.Gates = jg
	}
	if err := format.WriteJSON(w, doc); err != nil {
		return fmt.Errorf("trend json: %w", err)
	}
	return nil
}

// sides names what gate i compared.
func (a *Analysis) sides(i int) Sides {
	if i < len(a.GateSides) && a.GateSides[i].B != "" {
		return a.GateSides[i]
	}
	return Sides{A: "before", B: "newest"}
}

// JUnit writes the gate verdicts as JUnit XML, one test case per gate,
// so that a CI's test view lists them; a failed gate's message names the
// change, the builds it compared and the tolerance.
func JUnit(w io.Writer, a *Analysis) error {
	if a == nil || a.Gates == nil {
		return errors.New("trend junit: no gates to report")
	}
	suite := junit.Suite{
		Name: "vesload trend", Time: "0",
		Properties: []junit.Property{
			{Name: "runs", Value: fmt.Sprint(len(a.Runs))}, {Name: "newest", Value: a.Runs[len(a.Runs)-1].Build},
			{Name: "basis", Value: a.Gates.Basis}, {Name: "undecided", Value: string(a.Gates.Undecided)},
		},
	}
	if len(a.Gates.Warned) > 0 {
		suite.Properties = append(suite.Properties, junit.Property{Name: "inputs_with_warnings", Value: strings.Join(a.Gates.Warned, ", ")})
	}
	for i, v := range a.Gates.Verdicts {
		sd := a.sides(i)
		msg := v.Gate.Expr + ": " + v.Sentence(sd.A, sd.B, a.Detector.Alpha)
		if w := a.Gates.WarnedLine(); w != "" {
			msg += " (" + w + ")"
		}
		jc := junit.Case{Name: v.Gate.Expr, Classname: "vesload.trend", Time: "0"}
		switch {
		case !v.Pass && v.Outcome == compare.GateUndecided:
			jc.Failure = &junit.Failure{Message: msg, Type: "undecided", Text: msg + "\n"}
		case !v.Pass:
			jc.Failure = &junit.Failure{Message: msg, Type: "regression", Text: msg + "\n"}
		default:
			jc.SystemOut = msg + "\n"
		}
		suite.Cases = append(suite.Cases, jc)
	}
	if err := junit.Write(w, "vesload", suite); err != nil {
		return fmt.Errorf("trend junit: %w", err)
	}
	return nil
}
