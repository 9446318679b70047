package compare

import (
	"fmt"
	"math"

	"github.com/vesload/vesload/report/result"
)

// Undecided says what a gate that cannot be decided means for CI.
type Undecided string

// The policies of --gate-undecided.
const (
	// UndecidedFail fails a gate that too few runs cannot decide: a
	// pipeline must not pass on a guess (the default).
	UndecidedFail Undecided = "fail"
	// UndecidedPass lets such a gate pass.
	UndecidedPass Undecided = "pass"
)

// Outcome is a gate's decision before the undecided policy.
type Outcome string

// The outcomes of a gate.
const (
	// GatePass: B is not worse than A by more than the tolerance, or the
	// difference is not significant.
	GatePass Outcome = "pass"
	// GateFail: B is worse by more than the tolerance and the difference
	// is significant, or the metric is missing.
	GateFail Outcome = "fail"
	// GateUndecided: too few values a side for the test to decide.
	GateUndecided Outcome = "undecided"
)

// GateVerdict is one gate judged on two sides.
type GateVerdict struct {
	Gate Gate
	// A and B are the figure on each side: the centre over the runs, or
	// a single run's figure.
	A, B float64
	// Change is B − A in the tolerance's kind: percent of A (+Inf when
	// A is 0 and B is not), the metric's unit, or percentage points.
	Change float64
	// Tested says whether a p-value could be computed; P is it.
	Tested bool
	P      float64
	// Outcome is the decision; Pass is it after the undecided policy.
	Outcome Outcome
	Pass    bool
	// Note says why the gate was not decided on the figures (too few
	// runs, a missing metric), or what a single-run p-value was
	// computed on.
	Note string
}

// GateSet is the gates of one comparison with how they were judged.
type GateSet struct {
	Verdicts []GateVerdict
	// Basis says what the p-values were computed on: the per-run
	// figures, or the per-second figures of two single runs.
	Basis string
	// Undecided is the policy applied to undecided gates.
	Undecided Undecided
	// Limit is the one line saying why the gates could not be decided
	// at all (too few runs for the test), empty when they could.
	Limit string
	// Notes are caveats, such as settings in which a run differs from
	// its baseline.
	Notes []string
	// Warned names the inputs the gates were decided on that carry a
	// warning of their run (Warn): a pass or a failure on a saturated
	// generator's figures is not the build's alone.
	Warned []string
}

// Passed reports whether every gate passed after the undecided policy.
func (s *GateSet) Passed() bool {
	if s == nil {
		return true
	}
	for _, v := range s.Verdicts {
		if !v.Pass {
			return false
		}
	}
	return true
}

// count counts the verdicts with outcome o.
func (s *GateSet) count(o Outcome) int {
	n := 0
	for _, v := range s.Verdicts {
		if v.Outcome == o {
			n++
		}
	}
	return n
}

// Failed counts the gates that did not pass.
func (s *GateSet) Failed() int {
	n := 0
	for _, v := range s.Verdicts {
		if !v.Pass {
			n++
		}
	}
	return n
}

// judgeOptions are what a verdict needs from the comparison.
type judgeOptions struct {
	test      Test
	alpha     float64
	center    Center
	undecided Undecided
}

// judge decides one gate from the figures of both sides: whole-side
// figures a and b for the change, samples sa and sb (per run or per
// second) for the test. limit, when set, is why the samples cannot
// decide.
func (o judgeOptions) judge(g Gate, a, b float64, sa, sb []float64, limit string) GateVerdict {
	v := GateVerdict{Gate: g, A: a, B: b, Change: g.Change(a, b)}
	if limit == "" {
		v.Tested = true
		v.P = pValue(sa, sb, o.test, o.alpha)
	}
	switch {
	case !v.Tested:
		v.Outcome, v.Note = GateUndecided, limit
	case !g.Within(v.Change) && v.P < o.alpha:
		v.Outcome = GateFail
	default:
		v.Outcome = GatePass
	}
	v.Pass = v.Outcome == GatePass || (v.Outcome == GateUndecided && o.undecided == UndecidedPass)
	return v
}

// missing is a gate whose metric a side lacks: it fails, since a gate
// that cannot be checked must not pass silently.
func missing(g Gate, reason string) GateVerdict {
	return GateVerdict{Gate: g, Outcome: GateFail, Note: reason, Change: math.NaN()}
}

// Change is b against a in the gate's tolerance kind: percent of a,
// percentage points, or the metric's unit.
func (g Gate) Change(a, b float64) float64 {
	if g.Kind == Relative {
		return DeltaPct(a, b)
	}
	return b - a
}

// runLimit says why per-run figures of n1 and n2 runs cannot decide
// with the test, or "" when they can.
func runLimit(n1, n2 int, test Test, alpha float64, nameA, nameB string) string {
	counts := fmt.Sprintf("%s has %s and %s %s", nameA, plural(n1, "run"), nameB, plural(n2, "run"))
	switch {
	case n1 < 2 || n2 < 2:
		return counts + ": run-to-run variation is unknown with a single run on a side, so no gate can be decided; repeat each side at least 3 times (or judge one run by its seconds: vesload run --baseline)"
	case test == UTest && minUTestP(n1, n2) >= alpha:
		return fmt.Sprintf("%s: the Mann-Whitney U test cannot reach p < %g with so few runs (the smallest possible p is %.3f), so no gate can be decided; it needs %d runs a side, or use --test welch",
			counts, alpha, minUTestP(n1, n2), uTestRunsNeeded(alpha))
	}
	return ""
}

// judgeRuns decides every gate on the per-run figures of a and b.
func judgeRuns(a, b []*result.Result, gates []Gate, o judgeOptions, nameA, nameB string) *GateSet {
	set := &GateSet{
		Undecided: o.undecided,
		Limit:     runLimit(len(a), len(b), o.test, o.alpha, nameA, nameB),
		Basis:     fmt.Sprintf("%s on the per-run figures at alpha %g", testName(o.test), o.alpha),
	}
	for _, g := range gates {
		va, ra := gateValues(a, g, nameA)
		vb, rb := gateValues(b, g, nameB)
		if ra != "" || rb != "" {
			set.Verdicts = append(set.Verdicts, missing(g, firstOf(ra, rb)))
			continue
		}
		ca, cb := summarize(va, o.center).Center, summarize(vb, o.center).Center
		v := o.judge(g, ca, cb, va, vb, set.Limit)
		v.Note = "" // the set's Limit says it once for every gate
		set.Verdicts = append(set.Verdicts, v)
	}
	return set
}

// gateValues reads the gate's metric off every run.
func gateValues(rs []*result.Result, g Gate, side string) ([]float64, string) {
	out := make([]float64, len(rs))
	for i, r := range rs {
		v, reason := g.measure.Of(r)
		if reason == "" && (math.IsNaN(v) || math.IsInf(v, 0)) {
			reason = "the figure is not a number"
		}
		if reason != "" {
			return nil, fmt.Sprintf("%s run %d: %s", side, i+1, reason)
		}
		out[i] = v
	}
	return out, ""
}

func firstOf(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

func testName(t Test) string {
	if t == UTest {
		return "Mann-Whitney U test"
	}
	return "Welch's t-test"
}
