package compare

import (
	"fmt"
	"math"
	"strings"

	"github.com/vesload/vesload/report/result"
	"github.com/vesload/vesload/report/result/metric"
)

// BaselineOptions tunes JudgeBaseline.
type BaselineOptions struct {
	// Alpha is the significance level (default 0.05).
	Alpha float64
	// Undecided is what an undecided gate means (default fail).
	Undecided Undecided
}

// secondFigure is the registry's per-second figure of the metric name,
// nil when the timeline does not carry it: the only metrics a single run
// can be gated on against a baseline.
func secondFigure(name string) *metric.PerSecond {
	m, ok := metric.Lookup(name)
	if !ok {
		return nil
	}
	return m.Second
}

// secondGateList names the metrics the timeline carries, for a message.
func secondGateList() string {
	var names []string
	for _, m := range metric.All() {
		if m.Second != nil && !m.CompareOnly {
			names = append(names, m.Name)
		}
	}
	return strings.Join(names, ", ")
}

// perSecond reads one figure of every second of a run's timeline in
// which it was measured; ok is false for metrics the timeline does not
// carry.
func perSecond(r *result.Result, name string) (vals []float64, label string, ok bool) {
	f := secondFigure(name)
	if f == nil || (f.Carried != nil && f.Carried(r) != "") {
		return nil, "", false
	}
	label, get := f.Label, f.Of
	// The timeline is bucketed by due second: a second past the run's
	// (rounded) duration was cut short, and its counts are not
	// comparable with whole seconds.
	whole := int64(math.Round(r.DurationS))
	for _, s := range r.Timeline {
		if s.T >= whole && whole > 0 {
			continue
		}
		if v, ok := get(s); ok {
			vals = append(vals, v)
		}
	}
	return vals, label, true
}

// JudgeBaseline decides gates for one new run against one stored run.
// With one run a side, run-to-run variation is unknown; what can be
// tested is whether the run's seconds differ from the baseline's: the
// change is read off the whole-run figures (p99 of the whole run) and
// the p-value comes from the Mann-Whitney U test on the per-second
// figures of the same metric (per-second p99s). Seconds are not
// independent (a slow second slows its neighbours), so the p-value is
// optimistic; Basis says so. Metrics the timeline does not carry per
// second are undecided here; LoadBaseline refuses them before the run.
func JudgeBaseline(base, run *result.Result, gates []Gate, opts BaselineOptions) (*GateSet, error) {
	if base == nil || run == nil {
		return nil, fmt.Errorf("baseline gates: a result is missing")
	}
	if opts.Alpha == 0 {
		opts.Alpha = DefaultAlpha
	}
	if !(opts.Alpha > 0 && opts.Alpha < 1) {
		return nil, fmt.Errorf("baseline gates: alpha %g is not between 0 and 1", opts.Alpha)
	}
	if opts.Undecided == "" {
		opts.Undecided = UndecidedFail
	}
	o := judgeOptions{test: UTest, alpha: opts.Alpha, center: Mean, undecided: opts.Undecided}
	set := &GateSet{
		Undecided: opts.Undecided,
		Basis: fmt.Sprintf("one run against one baseline run: the change is read off the whole runs, the p-value from the Mann-Whitney U test on the per-second figures at alpha %g; seconds are not independent, so it overstates significance",
			opts.Alpha),
	}
	labels := Options{NameA: "baseline", NameB: "this run", LabelsA: []string{"the baseline"}, LabelsB: []string{"this run"}}
	for _, d := range configDiffs([]*result.Result{base}, []*result.Result{run}, labels) {
		set.Notes = append(set.Notes, "judged although "+d.Error())
	}
	for _, g := range gates {
		a, ra := g.measure.Of(base)
		b, rb := g.measure.Of(run)
		if ra != "" || rb != "" {
			set.Verdicts = append(set.Verdicts, missing(g, firstOf(prefixed("baseline", ra), prefixed("this run", rb))))
			continue
		}
		sa, label, okA := perSecond(base, g.Metric)
		sb, _, okB := perSecond(run, g.Metric)
		var limit string
		switch {
		case !okA || !okB:
			limit = fmt.Sprintf("the timeline carries no per-second %s, so a single run cannot decide it (per-second gates: %s)", g.Metric, secondGateList())
		case minUTestP(max(len(sa), 1), max(len(sb), 1)) >= opts.Alpha:
			limit = fmt.Sprintf("%s: %d seconds in the baseline and %d in this run are too few for the U test to reach p < %g", label, len(sa), len(sb), opts.Alpha)
		}
		v := o.judge(g, a, b, sa, sb, limit)
		if v.Tested {
			v.Note = fmt.Sprintf("%s, %d s vs %d s", label, len(sa), len(sb))
		}
		set.Verdicts = append(set.Verdicts, v)
	}
	return set, nil
}

func prefixed(who, reason string) string {
	if reason == "" {
		return ""
	}
	return who + ": " + reason
}
