package trend

import (
	"fmt"
	"math"

	"github.com/vesload/vesload/report/compare"
	"github.com/vesload/vesload/report/result"
)

// Sides names what a gate compared: the newest segment (B) and the one
// before it (A), by their builds.
type Sides struct{ A, B string }

// judge holds the newest segment of each gate's metric to the gate: it
// fails when the newest change point makes the metric worse than the
// tolerance allows (a change point is significant by construction).
// When the newest build has fewer runs than a segment needs and they are
// worse than the runs before them beyond the tolerance, the gate is
// undecided: tonight's run may start a regression that the next runs
// will confirm or not.
func (a *Analysis) judge(rs []*result.Result, names []string, gates []compare.Gate, undecided compare.Undecided) *compare.GateSet {
	if undecided == "" {
		undecided = compare.UndecidedFail
	}
	d := a.Detector
	set := &compare.GateSet{
		Undecided: undecided,
		Basis: fmt.Sprintf("the newest segment against the one before it; change points by %s, segments of at least %d runs",
			d.Describe(), d.MinSize),
	}
	a.GateSides = nil
	for _, g := range gates {
		v, sides := a.judgeOne(rs, names, g, undecided)
		set.Verdicts = append(set.Verdicts, v)
		a.GateSides = append(a.GateSides, sides)
	}
	return set
}

func (a *Analysis) judgeOne(rs []*result.Result, names []string, g compare.Gate, undecided compare.Undecided) (compare.GateVerdict, Sides) {
	vals, ps, missing := a.changePoints(rs, names, g)
	if missing != "" {
		// A gate that cannot be checked must not pass silently.
		return compare.GateVerdict{Gate: g, Outcome: compare.GateFail, Change: math.NaN(), Note: missing}, Sides{}
	}
	n := len(vals)
	newest := n - 1
	for newest > 0 && a.Runs[newest-1].Build == a.Runs[n-1].Build {
		newest--
	}
	last, prev := 0, 0 // start of the newest segment and of the one before
	var p float64
	if k := len(ps); k > 0 {
		last, p = ps[k-1].Index, ps[k-1].P
		if k > 1 {
			prev = ps[k-2].Index
		}
	}
	v := compare.GateVerdict{Gate: g}
	var sides Sides
	if last > 0 {
		v.A, v.B = mean(vals[prev:last]), mean(vals[last:])
		v.Change, v.Tested, v.P = g.Change(v.A, v.B), true, p
		sides = Sides{A: a.span(prev, last), B: a.span(last, n)}
		v.Outcome = compare.GatePass
		if !g.Within(v.Change) && p < a.Detector.Alpha {
			v.Outcome = compare.GateFail
		}
	} else {
		// No change point: the newest build against the runs before it,
		// for the record.
		v.A, v.B = mean(vals[:newest]), mean(vals[newest:])
		v.Change, v.Outcome = g.Change(v.A, v.B), compare.GatePass
		v.Note = "no significant change point in the history"
		sides = Sides{A: a.span(0, newest), B: a.span(newest, n)}
	}
	if short := n - newest; v.Outcome == compare.GatePass && short < a.Detector.MinSize && newest > last {
		ca, cb := mean(vals[last:newest]), mean(vals[newest:])
		if ch := g.Change(ca, cb); !g.Within(ch) {
			v = compare.GateVerdict{Gate: g, A: ca, B: cb, Change: ch, Outcome: compare.GateUndecided,
				Note: fmt.Sprintf("the newest build (%s) has %s, worse than the runs before it beyond the tolerance; a change needs %d runs after it to be tested (--min-segment): repeat the run, or wait for the next builds",
					a.Runs[n-1].Build, plural(short, "run"), a.Detector.MinSize)}
			sides = Sides{A: a.span(last, newest), B: a.span(newest, n)}
		}
	}
	v.Pass = v.Outcome == compare.GatePass || (v.Outcome == compare.GateUndecided && undecided == compare.UndecidedPass)
	return v, sides
}

// changePoints are the values of g's metric and their change points:
// those of the metric's series when the history analysed it (the table
// and the gate then name the same changes, found once), else found here.
func (a *Analysis) changePoints(rs []*result.Result, names []string, g compare.Gate) ([]float64, []Point, string) {
	for _, s := range a.Series {
		if s.Metric == g.Metric {
			ps := make([]Point, len(s.Changes))
			for i, c := range s.Changes {
				ps[i] = Point{Index: c.Index, P: c.P}
			}
			return s.Values, ps, ""
		}
	}
	vals, missing := values(rs, names, g.Of)
	if missing != "" {
		return nil, nil, missing
	}
	return vals, a.Detector.Detect(g.Metric, vals), ""
}

// span names the runs [i, j) by their first and last builds.
func (a *Analysis) span(i, j int) string {
	if j <= i {
		return "no runs"
	}
	first, last := a.Runs[i].Build, a.Runs[j-1].Build
	if first == last {
		return first
	}
	return first + "–" + last
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}
