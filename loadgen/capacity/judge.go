package capacity

import (
	"strings"

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

// Cause lays a failing step to the generator or the target. The target
// limited it when it refused requests itself, an error status to at least
// minRefused of them, whatever the generator's health: a late generator
// delays requests, it does not make the target answer 503 (a rate limit
// refused a fixed share of every step above its rate while the machine,
// busy with other work, ran the generator late). Otherwise the generator
// limited it when it saturated, its dispatch lag broke, or its pool ran
// out although the target answered fast enough for the pool to carry the
// rate (Little's law: rate × mean service time well under the pool); and
// the target did when none of these held.
func Cause(rate float64, r StepResult) string {
	if refused(r.Window) >= minRefused {
		return result.CauseTarget
	}
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

// minRefused is the share of a step's requests the target must refuse for
// the step to be laid to it on that alone: one in a thousand, the error
// rate a VES collector is held to by default, below which a stray error
// does not outweigh a generator that could not keep its schedule.
const minRefused = 0.001

// refused is the share of a window's requests the target answered with an
// error status (the http_ classes); errors the generator met on its own
// side (pool_exhausted, timeouts, connections) are not the target's word.
func refused(w *result.Result) float64 {
	if w == nil || w.Attempted() == 0 {
		return 0
	}
	var n int64
	for class, count := range w.Errors {
		if strings.HasPrefix(class, result.HTTPClassPrefix) {
			n += count
		}
	}
	return float64(n) / float64(w.Attempted())
}
