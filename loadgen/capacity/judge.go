package capacity

import (
	"github.com/vesload/vesload/loadgen/engine"
	"github.com/vesload/vesload/report/format"
	"github.com/vesload/vesload/report/result"
	"github.com/vesload/vesload/report/threshold"
)

// judge evaluates every SLO on a step's measured window: the step passes
// when all hold. decided is the figure that decided, in words: the first
// gate that failed, or on a pass the gate nearest its limit.
func judge(slos []threshold.Threshold, w *result.Result) (pass bool, gates []result.Threshold, decided string) {
	gates = threshold.EvalAll(slos, w)
	pass = threshold.Passed(gates)
	pick, worst := -1, -1.0
	for i, g := range gates {
		if !g.Pass {
			pick = i
			break
		}
		if r := nearness(slos[i], g); r > worst {
			pick, worst = i, r
		}
	}
	if pick < 0 {
		return pass, gates, ""
	}
	return pass, gates, words(gates[pick])
}

// nearness is how close a passing gate came to its limit: measured over
// limit for an upper bound, limit over measured for a lower one.
func nearness(t threshold.Threshold, g result.Threshold) float64 {
	switch t.Op {
	case threshold.LT, threshold.LE:
		if t.Value > 0 {
			return g.Value / t.Value
		}
	case threshold.GT, threshold.GE:
		if g.Value > 0 {
			return t.Value / g.Value
		}
	}
	return 0
}

// words is a gate's outcome as the step line prints it: "p99<500ms: 812.5 ms".
func words(g result.Threshold) string {
	if g.Reason != "" {
		return g.Expr + ": " + g.Reason
	}
	return g.Expr + ": " + format.Gate(g)
}

// Cause lays a failing step to the generator or the target. The
// generator limited it when it saturated, its dispatch lag broke, or its
// pool ran out although the target answered fast enough for the pool to
// carry the rate (Little's law: rate × mean service time well under the
// pool); otherwise the target did.
func Cause(rate float64, r StepResult) string {
	h := r.Generator
	if h.Saturated || engine.LagSaturated(h.DispatchLagP99Ms) {
		return result.CauseGenerator
	}
	if h.PoolExhausted > 0 && h.Pool > 0 && r.Window != nil && r.Window.Service.Count > 0 {
		busy := rate * r.Window.Service.Avg / 1000 // connections the rate keeps busy
		if busy < float64(h.Pool)/2 {
			return result.CauseGenerator
		}
	}
	return result.CauseTarget
}
