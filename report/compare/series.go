package compare

import (
	"fmt"
	"math"
	"strings"

	"github.com/vesload/vesload/report/result"
)

// BaselineOptions tunes JudgeBaseline.
type BaselineOptions struct {
	// Alpha is the significance level (default 0.05).
	Alpha float64
	// Undecided is what an undecided gate means (default fail).
	Undecided Undecided
}

// secondFigure is how one gateable metric is read off a second of the
// timeline: label names it for a reader, get returns the figure and
// whether the second measured it.
type secondFigure struct {
	label string
	get   func(s result.Second) (float64, bool)
}

func answered(s result.Second) bool { return s.OK+s.Errors > 0 }

// secondFigures are the metrics the per-second timeline carries, by
// gate name: the only ones a single run can be gated on against a
// baseline.
var secondFigures = map[string]secondFigure{
	"p50": {"per-second p50", func(s result.Second) (float64, bool) { return s.P50Ms, answered(s) }},
	"p95": {"per-second p95", func(s result.Second) (float64, bool) { return s.P95Ms, answered(s) }},
	"avg": {"per-second mean", func(s result.Second) (float64, bool) { return s.AvgMs, answered(s) }},
	"p99": {"per-second p99", func(s result.Second) (float64, bool) { return s.P99Ms, answered(s) }},
	"max": {"per-second max", func(s result.Second) (float64, bool) { return s.MaxMs, answered(s) }},
	"error_rate": {"per-second error rate", func(s result.Second) (float64, bool) {
		return 100 * float64(s.Errors) / float64(max(s.OK+s.Errors, 1)), answered(s)
	}},
	"errors":            {"errors per second", func(s result.Second) (float64, bool) { return float64(s.Errors), true }},
	"rps":               {"requests sent per second", func(s result.Second) (float64, bool) { return float64(s.Sent), true }},
	"sent":              {"requests sent per second", func(s result.Second) (float64, bool) { return float64(s.Sent), true }},
	"ok":                {"successes per second", func(s result.Second) (float64, bool) { return float64(s.OK), true }},
	"target_cpu_avg":    {"per-second target CPU", func(s result.Second) (float64, bool) { return s.TargetCPUPct, true }},
	"target_cpu_max":    {"per-second target CPU", func(s result.Second) (float64, bool) { return s.TargetCPUPct, true }},
	"generator_cpu_avg": {"per-second generator CPU", func(s result.Second) (float64, bool) { return s.GenCPUPct, true }},
	"generator_cpu_max": {"per-second generator CPU", func(s result.Second) (float64, bool) { return s.GenCPUPct, true }},
}

// secondGateList names the metrics of secondFigures, for a message.
const secondGateList = "p50, p95, avg (mean), p99, max, error_rate, errors, rps, sent, ok, target_cpu_*, generator_cpu_*"

// perSecond reads one figure of every second of a run's timeline in
// which it was measured; ok is false for metrics the timeline does not
// carry.
func perSecond(r *result.Result, metric string) (vals []float64, label string, ok bool) {
	f, ok := secondFigures[metric]
	if !ok || (r.Target == nil && strings.HasPrefix(metric, "target_")) {
		return nil, "", false
	}
	label, get := f.label, f.get
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
			limit = fmt.Sprintf("the timeline carries no per-second %s, so a single run cannot decide it (per-second gates: %s)", g.Metric, secondGateList)
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
