package html

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/vesload/vesload/report/format"
	"github.com/vesload/vesload/report/trend"
)

// Trend writes a history of runs as one self-contained HTML page: the
// changes found with their sizes and p-values, the gates, one chart per
// metric (the runs as points, the segment means as steps, every change
// point marked and labelled with its build), and the runs in order.
func Trend(w io.Writer, a *trend.Analysis) error {
	if a == nil || len(a.Runs) == 0 {
		return errors.New("html trend: no history")
	}
	p := &page{
		Title:   "vesload trend: " + a.Runs[0].Build + " … " + a.Runs[len(a.Runs)-1].Build,
		Heading: "Trend: " + a.Title(),
		Meta:    []string{a.Method()},
		Footer:  fmt.Sprintf("Written by vesload from %d result documents.", len(a.Runs)),
	}
	p.Sections = append(p.Sections, changesSection(a))
	p.Sections = append(p.Sections, trendGates(a)...)
	charts := section{ID: "charts", Title: "Charts"}
	for _, s := range a.Series {
		charts.Figures = append(charts.Figures, historyChart(a, s).figure("No run carries "+s.Metric+"."))
	}
	p.Sections = append(p.Sections, charts, historyRuns(a))
	return render(w, p)
}

// changesSection lists every change point: where, both means, the
// change and its p-value, coloured by whether it is better or worse.
func changesSection(a *trend.Analysis) section {
	s := section{ID: "changes", Title: "Changes", Notes: a.Notes}
	t := table{Head: head(2, "metric", "first build after", "before", "after", "change", "relative", "p", "")}
	for _, ser := range a.Series {
		for _, c := range ser.Changes {
			verdict := cell{Text: c.Verdict()}
			if c.Worse || c.Better {
				verdict.Class = c.Verdict()
			}
			t.Rows = append(t.Rows, []cell{key(ser.Label), txt(c.Build), num(format.Num(c.Before)), num(format.Num(c.After)),
				num(fmt.Sprintf("%+.2f", c.Delta)), num(format.Shift(c.DeltaPct)), num(format.PValue(c.P)), verdict})
		}
	}
	if len(t.Rows) == 0 {
		s.Paras = []string{"No change point in any metric."}
		return s
	}
	s.Tables = []table{t}
	return s
}

// trendGates is the gates' section, none without gates.
func trendGates(a *trend.Analysis) []section {
	g := a.Gates
	if g == nil {
		return nil
	}
	s := section{ID: "gates", Title: "Gates", Paras: []string{g.Basis + "; " + g.Policy() + "."}}
	t := table{Head: head(-1, "gate", "result", "compared", "change", "p", "tolerance", "")}
	for i, v := range g.Verdicts {
		sd := trend.Sides{A: "before", B: "newest"}
		if i < len(a.GateSides) && a.GateSides[i].B != "" {
			sd = a.GateSides[i]
		}
		status := cell{Text: v.Status(), Class: "pass"}
		if !v.Pass {
			status.Class = "fail"
		}
		t.Rows = append(t.Rows, []cell{txt(v.Gate.Expr), status, txt(sd.B + " vs " + sd.A), num(v.ChangeText()), num(v.PText()),
			num(v.Gate.Tolerance()), txt(v.Sentence(sd.A, sd.B, a.Detector.Alpha))})
	}
	s.Tables = []table{t}
	s.Badge = &badge{Text: "PASS", Class: "pass"}
	if n := g.Failed(); n > 0 {
		s.Badge = &badge{Text: fmt.Sprintf("FAIL (%d of %d)", n, len(g.Verdicts)), Class: "fail"}
	}
	return []section{s}
}

// historyChart is one metric over the runs: the runs as points, each
// segment's mean as a step across its runs, the change points marked.
func historyChart(a *trend.Analysis, s trend.Series) chart {
	names := make([]string, len(a.Runs))
	var ticks []float64
	for i, r := range a.Runs {
		names[i] = r.Build
		if i == 0 || r.Build != a.Runs[i-1].Build {
			ticks = append(ticks, float64(i))
		}
	}
	c := chart{
		title:   s.Label,
		caption: caption(s),
		xLabel:  "build", yLabel: s.Unit,
		runs: &runAxis{names: names, ticks: thinTicks(ticks)},
	}
	if a.By == "" {
		c.xLabel = "run"
	}
	runs := series{name: "runs", color: colBlue, points: true}
	for i, v := range s.Values {
		runs.xy = append(runs.xy, point{float64(i), v})
	}
	steps := series{name: "segment mean", color: colOrange, span: true}
	for _, seg := range s.Segments {
		steps.xy = append(steps.xy, point{float64(seg.Start) - 0.45, seg.Mean}, point{float64(seg.End-1) + 0.45, seg.Mean})
	}
	c.series = []series{runs, steps}
	for _, ch := range s.Changes {
		col := colGrey
		switch {
		case ch.Worse:
			col = colVermilion
		case ch.Better:
			col = colGreen
		}
		c.runs.marks = append(c.runs.marks, chartMark{X: float64(ch.Index) - 0.5, Label: ch.Build + " " + ch.Short(), Color: hexColor(col)})
	}
	return c
}

// thinTicks keeps at most 20 of a history's ticks, evenly spaced, so
// that the builds' names on its axis stay apart.
func thinTicks(ticks []float64) []float64 {
	stride := (len(ticks) + 19) / 20
	if stride <= 1 {
		return ticks
	}
	thin := ticks[:0:0]
	for i := 0; i < len(ticks); i += stride {
		thin = append(thin, ticks[i])
	}
	return thin
}

// caption says what changed in one metric, or that nothing did.
func caption(s trend.Series) string {
	if len(s.Changes) == 0 {
		return "No change point: every run is within the noise of the others."
	}
	parts := make([]string, len(s.Changes))
	for i, c := range s.Changes {
		parts[i] = s.Sentence(c)
	}
	return "Runs as points, segment means as steps. " + strings.Join(parts, "; ") + "."
}

// historyRuns is the table of the runs in order, with a row marking the
// changes before each run a change starts at.
func historyRuns(a *trend.Analysis) section {
	t := table{Head: head(3, append([]string{"build", "run", "started"}, a.Header()[2:]...)...)}
	rows := a.Rows()
	k := 0
	for _, r := range rows {
		row := []cell{key(r.Cells[0]), txt(r.Cells[1]), txt("")}
		if !r.Change {
			row[2] = cell{Text: fmtTime(a.Runs[k].Started), Class: "nowrap"}
			k++
		}
		for j, v := range r.Cells[2:] {
			c := num(v)
			// A change row stands before run k, the first after the change.
			if ch, ok := a.Series[j].ChangeAt(k); r.Change && ok && (ch.Worse || ch.Better) {
				c.Class += " " + ch.Verdict()
			}
			row = append(row, c)
		}
		t.Rows = append(t.Rows, row)
	}
	return section{ID: "runs", Title: "Runs", Tables: []table{t}}
}
