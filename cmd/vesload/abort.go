package main

import (
	"fmt"
	"strings"

	"github.com/vesload/vesload/loadgen"
	"github.com/vesload/vesload/report"
	"github.com/vesload/vesload/report/result"
	"github.com/vesload/vesload/report/threshold"
)

// abortWindow is how many seconds --abort-on-fail looks back: long enough
// that one bad second does not stop a ten-minute run, short enough to stop
// a run that is failing before it wastes the slot.
const abortWindow = 10

// abortGuard evaluates --abort-on-fail gates every second over the last
// abortWindow seconds and stops the run when one fails. It starts judging
// once a whole window has passed, so runs shorter than that never abort.
type abortGuard struct {
	gates  []threshold.Threshold
	window []result.Second
	stop   func()
	failed string // the gate and value that stopped the run
	gate   result.Threshold
}

// hook chains the guard in front of the engine's Second hook.
func (g *abortGuard) hook(h *loadgen.Hooks, note func(string)) {
	prev := h.Second
	h.Second = func(p loadgen.Progress) {
		if prev != nil {
			prev(p)
		}
		if g.failed != "" {
			return
		}
		g.window = append(g.window, p.Last)
		if len(g.window) > abortWindow {
			g.window = g.window[1:]
		}
		if len(g.window) < abortWindow {
			return // one bad second is not a failing run
		}
		w := windowResult(g.window)
		for _, t := range g.gates {
			if v := t.Eval(w); !v.Pass && v.Reason == "" {
				g.failed = abortReason(v, len(g.window))
				g.gate = v
				g.gate.Expr = fmt.Sprintf("abort-on-fail: %s (last %d s)", v.Expr, len(g.window))
				note("aborting: --abort-on-fail " + g.failed)
				g.stop()
				return
			}
		}
	}
}

// abortReason says which gate stopped the run and by how much, the value
// rounded as the report prints it (49.9%, not 49.9001996007984 %).
func abortReason(v result.Threshold, seconds int) string {
	return fmt.Sprintf("%s (%s over the last %d s)", v.Expr, report.ThresholdValue(v), seconds)
}

// windowResult is a result made of the last seconds of the timeline, so
// that the threshold grammar applies to a window as to a whole run. Its
// latency percentiles are the worst per-second ones in the window.
func windowResult(secs []result.Second) *result.Result {
	r := &result.Result{Errors: map[string]int64{}}
	for _, s := range secs {
		r.Requests.Scheduled += s.Scheduled
		r.Requests.Sent += s.Sent
		r.Requests.OK += s.OK
		r.Requests.Errors += s.Errors
		for class, n := range s.ErrorsByClass {
			r.Errors[class] += n
		}
		r.Latency.Count += s.OK + s.Errors
		r.Latency.P50 = max(r.Latency.P50, s.P50Ms)
		r.Latency.P99 = max(r.Latency.P99, s.P99Ms)
		r.Latency.Max = max(r.Latency.Max, s.MaxMs)
	}
	if n := len(secs); n > 0 {
		r.DurationS = float64(n)
		r.RPS.Achieved = float64(r.Requests.Sent) / float64(n)
	}
	return r
}

func parseAbortGates(exprs []string) ([]threshold.Threshold, error) {
	gates := make([]threshold.Threshold, 0, len(exprs))
	for _, e := range exprs {
		t, err := threshold.Parse(e)
		if err != nil {
			return nil, usagef("--abort-on-fail: %v", err)
		}
		if m := strings.ToLower(t.Metric); strings.Contains(m, "cpu") || strings.Contains(m, "rss") || strings.Contains(m, "lag") {
			return nil, usagef("--abort-on-fail %q: only request, error, rate and latency gates can be watched during a run", e)
		}
		gates = append(gates, t)
	}
	return gates, nil
}
