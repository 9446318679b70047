package trend

import (
	"fmt"
	"math"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/vesload/vesload/report/format"
)

// Title sums the history up in one line: "12 runs of 4 builds (by
// build): 1.0 … 1.3".
func (a *Analysis) Title() string {
	builds := 1
	for i := 1; i < len(a.Runs); i++ {
		if a.Runs[i].Build != a.Runs[i-1].Build {
			builds++
		}
	}
	first, last := a.Runs[0].Build, a.Runs[len(a.Runs)-1].Build
	if a.By == "" {
		return fmt.Sprintf("%d runs by start time: %s … %s", len(a.Runs), first, last)
	}
	return fmt.Sprintf("%d runs of %s (by %s): %s … %s", len(a.Runs), plural(builds, "build"), a.By, first, last)
}

// Method says how the change points were found, for a reader.
func (a *Analysis) Method() string {
	d := a.Detector
	builds := ""
	if a.By != "" {
		builds = ", each starting with a build"
	}
	return fmt.Sprintf("Change points by %s; segments of at least %d runs%s, searched in windows of %d runs. Each change is the mean of the segment after it against the one before.",
		d.Describe(), d.MinSize, builds, d.Window)
}

// Header is the run table's column titles: the build, the run and one
// column per metric.
func (a *Analysis) Header() []string {
	h := []string{"build", "run"}
	for _, s := range a.Series {
		h = append(h, s.Label)
	}
	return h
}

// Row is one line of the run table: a run, or the changes that happen
// before a run.
type Row struct {
	// Change marks a line of changes; Cells then hold the change of each
	// metric that changed there ("+398.2% worse"), empty for the others.
	Change bool
	Cells  []string
}

// Rows lays the runs out in order with a line of changes before every
// run a change starts at, so that the text, Markdown and HTML tables
// print the same figures.
func (a *Analysis) Rows() []Row {
	var out []Row
	for i, r := range a.Runs {
		var marks []string
		changed := false
		for _, s := range a.Series {
			mark := ""
			if c, ok := s.ChangeAt(i); ok {
				mark, changed = c.Short(), true
			}
			marks = append(marks, mark)
		}
		if changed {
			out = append(out, Row{Change: true, Cells: append([]string{"change", "at " + r.Build}, marks...)})
		}
		cells := []string{r.Build, filepath.Base(r.Name)}
		for _, s := range a.Series {
			cells = append(cells, fmtVal(s.Values[i]))
		}
		out = append(out, Row{Cells: cells})
	}
	return out
}

// ChangeAt is the change that starts at run i, if the series has one.
func (s Series) ChangeAt(i int) (Change, bool) {
	for _, c := range s.Changes {
		if c.Index == i {
			return c, true
		}
	}
	return Change{}, false
}

// Short is the change in a table cell: "+398.2% worse".
func (c Change) Short() string {
	if !c.Worse && !c.Better {
		return format.Shift(c.DeltaPct)
	}
	return format.Shift(c.DeltaPct) + " " + c.Verdict()
}

// Verdict is what the change means for its metric: "worse", "better",
// or "changed" for a metric that is neither better high nor low.
func (c Change) Verdict() string {
	switch {
	case c.Worse:
		return "worse"
	case c.Better:
		return "better"
	}
	return "changed"
}

// Sentence describes one change in full: where, both means, the change
// in absolute and relative terms, its p-value and its direction.
func (s Series) Sentence(c Change) string {
	unit := s.Unit
	if unit != "" && unit != "%" {
		unit = " " + unit
	}
	return fmt.Sprintf("%s at %s: %s → %s%s, %+.2f%s (%s), %s, %s", s.Metric, c.Build, fmtVal(c.Before), fmtVal(c.After), unit,
		c.Delta, unit, format.Shift(c.DeltaPct), fmtP(c.P), c.Verdict())
}

// Changes lists every change of every metric, for the lines below the
// table.
func (a *Analysis) Changes() []string {
	var out []string
	for _, s := range a.Series {
		for _, c := range s.Changes {
			out = append(out, s.Sentence(c))
		}
	}
	return out
}

// GateLines are the gates' section in text and Markdown: the basis and
// policy, one line per gate, and the headline.
func (a *Analysis) GateLines() []string {
	g := a.Gates
	out := []string{"Gates: " + g.Basis + "; " + g.Policy() + "."}
	for _, n := range g.Notes {
		out = append(out, "Note: "+n+".")
	}
	for i, v := range g.Verdicts {
		sd := a.sides(i)
		out = append(out, v.Status()+"  "+v.Gate.Expr+": "+v.Sentence(sd.A, sd.B, a.Detector.Alpha))
	}
	return append(out, g.Headline())
}

func fmtVal(v float64) string {
	if math.Abs(v) >= 1e6 {
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	return strconv.FormatFloat(v, 'f', 2, 64)
}

// fmtP writes a p-value in a sentence: "p=0.012", "p<0.001".
func fmtP(p float64) string {
	v := format.PValue(p)
	if strings.HasPrefix(v, "<") {
		return "p" + v
	}
	return "p=" + v
}

// Failed counts the gates that did not pass (0 without gates).
func (a *Analysis) Failed() int {
	if a.Gates == nil {
		return 0
	}
	return a.Gates.Failed()
}
