package compare

import (
	"errors"
	"fmt"
	"io"

	"github.com/vesload/vesload/report"
	"github.com/vesload/vesload/report/result"
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
	base, err := report.Read(file)
	if err != nil {
		return nil, fmt.Errorf("--baseline: %v", err)
	}
	return &Baseline{File: file, Base: base, Gates: gates,
		Opts: BaselineOptions{Alpha: o.Alpha, Undecided: Undecided(o.Undecided)}}, nil
}

// Judge decides the gates for the finished run res, prints the verdicts
// to w and reports whether they all passed.
func (b *Baseline) Judge(res *result.Result, w io.Writer) (bool, error) {
	set, err := JudgeBaseline(b.Base, res, b.Gates, b.Opts)
	if err != nil {
		return false, err
	}
	if err := set.BaselineText(w, b.File, b.Opts.Alpha); err != nil {
		return false, fmt.Errorf("print baseline gates: %w", err)
	}
	return set.Passed(), nil
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
