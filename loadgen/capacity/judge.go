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

// Cause lays a failing step, whose gates were judged by slos, to the
// generator or the target. The target limited it when it refused requests
// itself, an error status to at least minRefused of them, whatever the
// generator's health: a late generator delays requests, it does not make
// the target answer 503. Otherwise the generator limited it when it used
// nearly all its CPU, or when its goroutines waited to run for a good part
// of the service time it measured (lateToRun): either way its own delay is
// in the service times that say whether the target held the pool, so they
// cannot say it; when the target kept the pool's connections busy
// (held), a late dispatcher and an exhausted pool are the target's doing
// (HV-VES producers whose writes the collector blocks, REST answers too
// slow for the pool); when it did not, a pool that ran out is the
// generator's, and so is a dispatch lag that broke (or a generator the
// engine called saturated) when it explains the failure: every gate that
// failed is a bound on a latency that would have held without the lag.
// The rest is the target's: a travel time into Kafka hundreds of
// milliseconds over its bound is not a few milliseconds of late dispatch.
func Cause(rate float64, r StepResult, slos []threshold.Threshold, gates []result.Threshold) string {
	if refused(r.Window) >= minRefused {
		return result.CauseTarget
	}
	h := r.Generator
	switch {
	case h.CPUSaturated || lateToRun(r):
		return result.CauseGenerator
	case held(rate, r):
		return result.CauseTarget
	case h.PoolExhausted > 0:
		return result.CauseGenerator
	case (h.Saturated || engine.LagSaturated(h.DispatchLagP99Ms)) && lagExplains(slos, gates, h.DispatchLagP99Ms):
		return result.CauseGenerator
	}
	return result.CauseTarget
}

// lagExplains reports whether every failed gate is an upper bound in
// milliseconds that its figure less the dispatch lag would have held.
func lagExplains(slos []threshold.Threshold, gates []result.Threshold, lagMs float64) bool {
	failed := false
	for i, g := range gates {
		if g.Pass {
			continue
		}
		failed = true
		if i >= len(slos) || g.Reason != "" || g.Unit != "ms" || slos[i].Op != threshold.LT && slos[i].Op != threshold.LE ||
			!holds(slos[i].Op, g.Value-lagMs, slos[i].Value) {
			return false
		}
	}
	return failed
}

// held reports whether the target kept the step's pool busy: by Little's
// law the rate times the mean service time is the connections in use, and
// half the pool or more is the target's hold on it; a target that
// answered nothing at all holds every connection it was given.
func held(rate float64, r StepResult) bool {
	h := r.Generator
	if h.Pool <= 0 || r.Window == nil {
		return false
	}
	if r.Window.Service.Count == 0 {
		return h.PoolExhausted > 0 || engine.LagSaturated(h.DispatchLagP99Ms)
	}
	return rate*r.Window.Service.Avg/1000 >= float64(h.Pool)/2
}

// lateToRun reports whether the generator's goroutines waited to run long
// enough to be in the service times it measured: lateToRunMs or more (p99),
// and a quarter or more of the mean service time. A generator that could
// not keep up on one core waited 4 to 10 ms with answers read 12 to 22 ms
// after they were sent, by a target that answered at once; a busy machine
// delaying a generator by a few milliseconds does not make a target that
// held each request 100 ms the generator's doing. A window with no answer
// has no service time to be in: held reads it.
func lateToRun(r StepResult) bool {
	wait := r.Generator.SchedP99Ms
	if wait < lateToRunMs || r.Window == nil || r.Window.Service.Count == 0 {
		return false
	}
	return wait >= r.Window.Service.Avg/4
}

// lateToRunMs is the wait to run (p99, ms) from which the generator's
// goroutines were late: a generator with CPU to spare runs them within
// tens to hundreds of microseconds (0.1 to 0.3 ms at 12,500 to 50,000
// requests a second on one core, up to 1.3 ms at 75,000/s where it kept
// up), one short of it within milliseconds (4 to 10 ms at 75,000 to
// 100,000/s on the same core, where it could not).
const lateToRunMs = 2

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
