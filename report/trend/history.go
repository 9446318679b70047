package trend

import (
	"cmp"
	"errors"
	"fmt"
	"maps"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/vesload/vesload/internal/suggest"
	"github.com/vesload/vesload/report/compare"
	"github.com/vesload/vesload/report/result"
	"github.com/vesload/vesload/report/result/metric"
	"github.com/vesload/vesload/report/threshold"
)

// DefaultMetrics are the figures a history shows when none is asked
// for (threshold names), as the registry orders them: latency, errors,
// throughput, the target's and the generator's resources, delivery, and
// HV-VES rates. A metric no run carries is left out silently.
func DefaultMetrics() []string {
	var names []string
	for _, m := range metric.TrendDefaults() {
		names = append(names, m.Name)
	}
	return names
}

// Options tunes an analysis. The zero value orders runs by start time
// and analyses DefaultMetrics with the Detector's defaults.
type Options struct {
	// By is the label the runs are ordered and named by (natural version
	// order); empty orders them by start time and names them by file.
	By string
	// Metrics are threshold names (p99, error_rate, …); none means
	// DefaultMetrics.
	Metrics []string
	// Names name the runs (their files), in the order given.
	Names []string
	// Force analyses runs whose scenarios differ, with a note.
	Force bool
	// Detector finds the change points.
	Detector Detector
	// Gates are judged on the newest segment (vesload trend --gate).
	Gates []compare.Gate
	// Undecided is what a gate the newest runs cannot decide means.
	Undecided compare.Undecided
}

// Run is one run of the history, in order.
type Run struct {
	// Name is the file the run was read from.
	Name string `json:"name"`
	// Build is the value of the Options.By label, or Name without it.
	Build string `json:"build"`
	// Started is when the run started, in UTC (RFC 3339 in JSON, as in
	// the result documents; each rendering writes it its own way).
	Started time.Time `json:"started"`
}

// Change is one change point of a metric.
type Change struct {
	// Index is the first run after the change; Build names it.
	Index int
	Build string
	// Before and After are the means of the segments on either side.
	Before, After float64
	// Delta is After − Before; DeltaPct the same in percent of Before
	// (+Inf from 0).
	Delta, DeltaPct float64
	// P is the permutation test's p-value.
	P float64
	// Worse says the change is a regression for this metric, Better an
	// improvement; a neutral metric is neither.
	Worse, Better bool
}

// Series is one metric over the history.
type Series struct {
	// Metric is the threshold name, Label the human one with its unit.
	Metric, Label, Unit string
	Direction           compare.Direction
	// Values are the metric's figures, one per run.
	Values   []float64
	Segments []Segment
	Changes  []Change
}

// Analysis is the outcome of Analyze: what the renderers print.
type Analysis struct {
	By       string
	Runs     []Run
	Series   []Series
	Detector Detector
	// Notes are the caveats a reader must see with the table.
	Notes []string
	// Gates are the verdicts of Options.Gates, nil without gates;
	// GateSides names what each verdict compared.
	Gates     *compare.GateSet
	GateSides []Sides
	// Warned are the runs that carry a warning of their own (a
	// saturated generator, a stalled machine), in order, named in the
	// notes too: a change at one may be the machine's, not the build's.
	Warned []compare.Warned
}

// ErrTooFew is a history too short to have a change point.
var ErrTooFew = errors.New("a history needs at least 2 runs")

// Analyze orders the runs, reads every metric off them and finds where
// each changed. It refuses (with a *compare.MismatchError) runs whose
// scenarios differ unless forced, and a run that lacks the By label.
func Analyze(rs []*result.Result, opts Options) (*Analysis, error) {
	if len(rs) < 2 {
		return nil, fmt.Errorf("%w, got %d", ErrTooFew, len(rs))
	}
	names := runNames(rs, opts.Names)
	order, runs, err := orderRuns(rs, names, opts.By)
	if err != nil {
		return nil, err
	}
	sorted := make([]*result.Result, len(rs))
	sortedNames := make([]string, len(rs))
	for i, j := range order {
		sorted[i], sortedNames[i] = rs[j], names[j]
	}
	a := &Analysis{By: opts.By, Runs: runs, Detector: opts.Detector.withDefaults()}
	if opts.By != "" {
		// Runs of one build repeat one thing: a change starts with a build.
		a.Detector.Starts = make([]bool, len(runs))
		for i := 1; i < len(runs); i++ {
			a.Detector.Starts[i] = runs[i].Build != runs[i-1].Build
		}
	}
	if err := a.checkScenarios(sorted, sortedNames, opts.Force); err != nil {
		return nil, err
	}
	metrics := opts.Metrics
	if len(metrics) == 0 {
		metrics = DefaultMetrics()
	}
	for _, name := range metrics {
		m, err := threshold.LookupMeasure(name)
		if err != nil {
			return nil, fmt.Errorf("metric %q: %w", name, err)
		}
		s, note := a.series(m, sorted, sortedNames)
		if note != "" && (len(opts.Metrics) > 0 || !absent(m, sorted)) {
			a.Notes = append(a.Notes, note)
		}
		if s != nil {
			a.Series = append(a.Series, *s)
		}
	}
	a.Warned = compare.WarnedRuns(sorted, sortedNames)
	if note := compare.WarnedNote(a.Warned); note != "" {
		a.Notes = append(a.Notes, note)
	}
	if len(opts.Gates) > 0 {
		a.Gates = a.judge(sorted, sortedNames, opts.Gates, opts.Undecided)
		a.Gates.Warn(a.Warned)
	}
	return a, nil
}

func runNames(rs []*result.Result, given []string) []string {
	out := make([]string, len(rs))
	for i := range rs {
		if i < len(given) && given[i] != "" {
			out[i] = given[i]
		} else {
			out[i] = fmt.Sprintf("run %d", i+1)
		}
	}
	return out
}

// orderRuns sorts the runs by the label by in natural version order, or
// by start time; runs of one build keep their start order.
func orderRuns(rs []*result.Result, names []string, by string) ([]int, []Run, error) {
	order := make([]int, len(rs))
	builds := make([]string, len(rs))
	for i, r := range rs {
		if r == nil {
			return nil, nil, fmt.Errorf("%s is missing", names[i])
		}
		order[i] = i
		builds[i] = strings.TrimSuffix(filepath.Base(names[i]), ".json")
		if by == "" {
			continue
		}
		v, ok := r.Config.Labels[by]
		if !ok {
			if s := suggest.Nearest(by, slices.Sorted(maps.Keys(r.Config.Labels))); s != "" {
				return nil, nil, fmt.Errorf("%s has no label %q: did you mean --by %s?", names[i], by, s)
			}
			return nil, nil, fmt.Errorf("%s has no label %q (--by %s; give it with vesload run --label %s=VALUE)", names[i], by, by, by)
		}
		builds[i] = v
	}
	slices.SortStableFunc(order, func(i, j int) int {
		if by != "" {
			if c := NaturalCompare(builds[i], builds[j]); c != 0 {
				return c
			}
		}
		return cmp.Or(rs[i].Started.Compare(rs[j].Started), strings.Compare(names[i], names[j]))
	})
	runs := make([]Run, len(rs))
	for k, i := range order {
		runs[k] = Run{Name: names[i], Build: builds[i], Started: rs[i].Started.UTC()}
	}
	return order, runs, nil
}

func (a *Analysis) checkScenarios(rs []*result.Result, names []string, force bool) error {
	diffs := compare.ConfigDiffs(rs, names)
	if len(diffs) > 0 && !force {
		return diffs[0]
	}
	for _, d := range diffs {
		a.Notes = append(a.Notes, "analysed although "+d.Error())
	}
	return nil
}

// absent says whether no run carries metric m.
func absent(m threshold.Measure, rs []*result.Result) bool {
	for _, r := range rs {
		if _, reason := m.Of(r); reason == "" {
			return false
		}
	}
	return true
}

// series reads m off every run and finds its change points; a metric
// some run lacks is left out with a note saying which.
func (a *Analysis) series(m threshold.Measure, rs []*result.Result, names []string) (*Series, string) {
	vals, missing := values(rs, names, m.Of)
	if missing != "" {
		return nil, "not analysed: " + m.Name() + " (" + missing + ")"
	}
	s := &Series{Metric: m.Name(), Label: metricLabel(m), Unit: m.Unit(), Direction: compare.Better(m.Name()), Values: vals}
	ps := a.Detector.Detect(m.Name(), vals)
	s.Segments = segments(vals, ps)
	for k, p := range ps {
		before, after := s.Segments[k].Mean, s.Segments[k+1].Mean
		c := Change{Index: p.Index, Build: a.Runs[p.Index].Build, Before: before, After: after,
			Delta: after - before, DeltaPct: compare.DeltaPct(before, after), P: p.P}
		switch {
		case s.Direction == compare.LowerIsBetter:
			c.Worse, c.Better = after > before, after < before
		case s.Direction == compare.HigherIsBetter:
			c.Worse, c.Better = after < before, after > before
		}
		s.Changes = append(s.Changes, c)
	}
	return s, ""
}

// values reads one figure off every run with of (a metric's or a gate's
// Of); missing names the first run that lacks it, or whose figure is not
// a number, and why.
func values(rs []*result.Result, names []string, of func(*result.Result) (float64, string)) (vals []float64, missing string) {
	vals = make([]float64, len(rs))
	for i, r := range rs {
		v, reason := of(r)
		if reason == "" && (math.IsNaN(v) || math.IsInf(v, 0)) {
			reason = "the figure is not a number"
		}
		if reason != "" {
			return nil, names[i] + ": " + reason
		}
		vals[i] = v
	}
	return vals, ""
}

// metricLabel is a metric's name with its unit, for headings.
func metricLabel(m threshold.Measure) string {
	if u := m.Unit(); u != "" {
		return m.Name() + " (" + u + ")"
	}
	return m.Name()
}
