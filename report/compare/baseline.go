package compare

import (
	"errors"
	"fmt"
	"math"

	"github.com/vesload/vesload/report/result"
	"github.com/vesload/vesload/report/resultfile"
)

// GateOptions are the options that hold runs to regression gates:
// vesload's --gate, --alpha and --gate-undecided, shared by `compare` and
// `run --baseline`, whose names the errors use.
type GateOptions struct {
	Exprs     []string
	Alpha     float64
	Undecided string
}

// Parse checks the options and parses the gates, so that both commands
// refuse a bad value with the same words.
func (o GateOptions) Parse() ([]Gate, error) {
	if err := CheckAlpha(o.Alpha); err != nil {
		return nil, fmt.Errorf("--alpha: %v", err)
	}
	if _, err := ParseUndecided(o.Undecided); err != nil {
		return nil, fmt.Errorf("--gate-undecided: %v", err)
	}
	gates, err := ParseGates(o.Exprs)
	if err != nil {
		return nil, fmt.Errorf("--gate: %w", err)
	}
	return gates, nil
}

// Baseline is a stored result and the gates a new run is held to
// (`run --baseline R.json --gate EXPR`), decided on the per-second
// figures of both runs.
type Baseline struct {
	File  string
	Base  *result.Result
	Gates []Gate
	Opts  BaselineOptions
}

// LoadBaseline checks the options and reads the baseline file, so that a
// caller can do it before any load is sent and a typo costs a second,
// not a run. Without a file and gates it returns nil; every error is the
// options' fault and names the option.
func LoadBaseline(file string, o GateOptions) (*Baseline, error) {
	switch {
	case file == "" && len(o.Exprs) > 0:
		return nil, errors.New("--gate judges against a stored result: give --baseline FILE (absolute limits are --threshold's)")
	case file == "":
		return nil, nil
	case len(o.Exprs) == 0:
		return nil, fmt.Errorf("--baseline %s: give at least one --gate, e.g. 'p99<+10%%'", file)
	}
	gates, err := o.Parse()
	if err != nil {
		return nil, err
	}
	for _, g := range gates {
		if secondFigure(g.Metric) == nil {
			return nil, fmt.Errorf("--gate %q: one run is judged on its per-second figures and the timeline carries no per-second %s (gate one of %s, or compare several runs a side with vesload compare)",
				g.Expr, g.Metric, secondGateList())
		}
	}
	base, err := resultfile.Read(file)
	if err != nil {
		return nil, fmt.Errorf("--baseline: %v", err)
	}
	for _, g := range gates {
		if err := carries(base, g); err != nil {
			return nil, fmt.Errorf("--baseline %s: %w", file, err)
		}
	}
	return &Baseline{File: file, Base: base, Gates: gates,
		Opts: BaselineOptions{Alpha: o.Alpha, Undecided: Undecided(o.Undecided)}}, nil
}

// carries refuses a gate whose per-second figure the baseline's timeline
// lacks although it answered requests: a result written before the
// timeline carried it, or a run whose target was not sampled.
func carries(base *result.Result, g Gate) error {
	f := secondFigure(g.Metric)
	if f == nil {
		return nil
	}
	if f.Carried != nil {
		if why := f.Carried(base); why != "" {
			return fmt.Errorf("--gate %q: the baseline's %s", g.Expr, why)
		}
	}
	if !f.Added {
		return nil
	}
	for _, s := range base.Timeline {
		if v, ok := f.Of(s); ok && v != 0 {
			return nil
		}
	}
	if base.Requests.Sent == 0 {
		return nil // a baseline that answered nothing fails the gate as missing
	}
	return fmt.Errorf("--gate %q: the baseline's timeline carries no %s (a result of an older vesload): run the baseline again", g.Expr, f.Label)
}

// Judge decides the gates for the finished run res. The set's Outcomes
// are the gates as the result records them, for the verdict
// (report/verdict's Options.Decided), and its BaselineText the lines
// the summary shows.
func (b *Baseline) Judge(res *result.Result) (*GateSet, error) {
	return JudgeBaseline(b.Base, res, b.Gates, b.Opts)
}

// Outcomes are the verdicts of a run's baseline gates as the result
// records gates: the change in the tolerance's kind as the value, the
// verdict's sentence as the note.
func (s *GateSet) Outcomes(alpha float64) []result.Threshold {
	out := make([]result.Threshold, 0, len(s.Verdicts))
	for _, v := range s.Verdicts {
		th := result.Threshold{Expr: v.Gate.Expr, Value: v.Change, Pass: v.Pass, Unit: v.Gate.kindUnit(),
			Kind: result.KindBaseline, Undecided: v.Outcome == GateUndecided, Note: v.Sentence("baseline", "this run", alpha)}
		if math.IsNaN(v.Change) || math.IsInf(v.Change, 0) {
			th.Value, th.Reason = 0, v.Note
			if th.Reason == "" {
				th.Reason = "the change is not a number (the baseline's figure is 0)"
			}
		}
		out = append(out, th)
	}
	return out
}

// Settings are a comparison's options as `vesload compare` is given
// them (--test, --center and the gate options), whose names the errors
// use.
type Settings struct {
	Test, Center string
	GateOptions
}

// Options checks the settings and returns them as Options; the caller
// adds the sides' names and labels.
func (s Settings) Options() (Options, error) {
	test, err := ParseTest(s.Test)
	if err != nil {
		return Options{}, fmt.Errorf("--test: %v", err)
	}
	center, err := ParseCenter(s.Center)
	if err != nil {
		return Options{}, fmt.Errorf("--center: %v", err)
	}
	gates, err := s.Parse()
	if err != nil {
		return Options{}, err
	}
	return Options{Test: test, Center: center, Alpha: s.Alpha, Gates: gates, Undecided: Undecided(s.Undecided)}, nil
}
