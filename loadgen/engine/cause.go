package engine

import (
	"fmt"
	"time"

	"github.com/vesload/vesload/report/result"
)

// limit is what limited a run, as the warnings name it: one per run, so
// that a summary never gives two explanations of one delay, or advice
// (raise --pool) that would not help.
type limit int

const (
	limitNone limit = iota
	// limitStall: the generator fell behind while it was not busy
	// itself: the machine did not run it (other work, a paused VM).
	limitStall
	// limitGenerator: the generator fell behind with its CPU busy.
	limitGenerator
	// limitTarget: the target gave no answer for a second or more while
	// requests waited, longer than the generator's own delay.
	limitTarget
	// limitPool: requests found no free connection within the pool wait,
	// with none of the above to explain it.
	limitPool
)

// limitFacts are the figures a run's limit is chosen from.
type limitFacts struct {
	gen   result.Generator
	cores int
	// silent is the longest time without an answer while a request
	// waited, from silentFrom into the run.
	silent, silentFrom time.Duration
	// poolExhausted of attempted requests found no free connection of
	// the pool's within poolWait.
	poolExhausted, attempted int64
	pool                     int
	poolWait                 time.Duration
}

// silenced says whether the target's silence is worth a warning.
func (f limitFacts) silenced() bool { return f.silent >= silenceWarn }

// lateFor is the longest the generator was held up: the dispatch lag's
// maximum (known once the dispatcher has stopped), else its p99.
func (f limitFacts) lateFor() time.Duration {
	ms := max(f.gen.DispatchLagMaxMs, f.gen.DispatchLagP99Ms)
	return time.Duration(ms * float64(time.Millisecond))
}

// cause chooses the run's one limit from its figures, in this precedence
// (docs/ARCHITECTURE.md, Measurements):
//
//  1. A saturated generator (a stall of the machine when its CPU was idle,
//     its own work when busy) held up long enough to explain the others:
//     for at least half the target's silence and at least the pool wait.
//     A generator that does not run reads no answer, so the target looks
//     silent, and what fell due meanwhile finds the pool taken and its
//     wait over: both follow from it.
//  2. A silence of the target of a second or more that the generator's
//     delay does not explain: requests waiting on an unanswering target
//     hold the connections, so the pool's refusals follow from it.
//  3. The pool, when requests found no free connection and nothing above
//     explains it: only then is raising --pool the advice.
//  4. A saturated generator that explains nothing else.
//
// A generator held up once for about as long as the target's silence is
// the cause too, though too few of its requests were late to make it
// saturated (a stall of seconds in a long run).
func (f limitFacts) cause() limit {
	late := f.lateFor()
	explains := (!f.silenced() || late >= f.silent/2) && (f.poolExhausted == 0 || late >= f.poolWait)
	held := f.gen.Saturated || (f.silenced() && explains)
	switch {
	case held && explains && f.gen.CPUAvgPct < idleCPU:
		return limitStall
	case held && explains:
		return limitGenerator
	case f.silenced():
		return limitTarget
	case f.poolExhausted > 0:
		return limitPool
	}
	return limitNone
}

// warning says the run's one limit, with the figures of the others as
// what followed from it or was also measured, never as advice of their
// own. It is empty when nothing limited the run.
func (f limitFacts) warning() string {
	switch f.cause() {
	case limitStall:
		return f.heldWarning() + f.followed(true, "the stall")
	case limitGenerator:
		return f.heldWarning() + f.followed(true, "the generator's delay")
	case limitTarget:
		w := fmt.Sprintf("the target stopped answering for %.1f s (from %.1f s into the run) while requests waited: "+
			"the latency of the requests due then shows it", f.silent.Seconds(), f.silentFrom.Seconds())
		if !f.gen.Saturated {
			w += ", the generator was not the cause"
		}
		w += f.followed(false, "the silence")
		if f.gen.Saturated {
			w += fmt.Sprintf("; the generator was late too (dispatch lag p99 %.2f ms), far less than the silence",
				f.gen.DispatchLagP99Ms)
		}
		return w
	case limitPool:
		w := poolWarning(f.poolExhausted, f.attempted, f.pool, f.poolWait)
		if f.gen.Saturated {
			w += fmt.Sprintf("; the generator was late too (dispatch lag p99 %.2f ms), far less than the pool wait",
				f.gen.DispatchLagP99Ms)
		}
		return w
	}
	return ""
}

// heldWarning says the generator was late: saturated, or held up once
// for longer than the target's silence.
func (f limitFacts) heldWarning() string {
	if f.gen.Saturated {
		return saturationWarning(f.gen, f.cores)
	}
	why := "the machine did not run it on time (other work on the machine, a paused VM)"
	if f.gen.CPUAvgPct >= idleCPU {
		why = "its own work delayed it"
	}
	return fmt.Sprintf("generator held up: dispatch lag max %.1f s while it used %.0f%% CPU: %s; latency includes that delay",
		f.lateFor().Seconds(), f.gen.CPUAvgPct, why)
}

// followed names, as figures, the silence (when silence is true) and the
// pool's refusals that the chosen limit, cause, explains.
func (f limitFacts) followed(silence bool, cause string) string {
	var parts []string
	if silence && f.silenced() {
		parts = append(parts, fmt.Sprintf("no answer for %.1f s (from %.1f s into the run)", f.silent.Seconds(), f.silentFrom.Seconds()))
	}
	if f.poolExhausted > 0 {
		parts = append(parts, fmt.Sprintf("%d requests (%.1f%%) without a free connection within --pool-wait %v",
			f.poolExhausted, pct(f.poolExhausted, f.attempted), f.poolWait))
	}
	switch len(parts) {
	case 0:
		return ""
	case 1:
		return "; " + parts[0] + " followed from " + cause
	}
	return "; " + parts[0] + " and " + parts[1] + " followed from " + cause
}

func pct(n, of int64) float64 {
	if of <= 0 {
		return 0
	}
	return 100 * float64(n) / float64(of)
}
