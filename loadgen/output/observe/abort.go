package observe

import (
	"fmt"
	"strings"
	"sync"

	"github.com/vesload/vesload/loadgen/engine"
	"github.com/vesload/vesload/report/format"
	"github.com/vesload/vesload/report/result"
	"github.com/vesload/vesload/report/threshold"
)

// AbortWindow is how many seconds --abort-on-fail looks back: long enough
// that one bad second does not stop a ten-minute run, short enough to stop
// a run that is failing before it wastes the slot.
const AbortWindow = 10

// AbortGuard evaluates gates over the last seconds of the timeline, each
// time a second becomes final, and stops the run when one fails. It starts
// judging once a whole window has passed, so runs shorter than that never
// stop early. The window is a Tally of its seconds, so its percentiles are
// the window's own, not the worst of its seconds'.
//
// It reads the closed seconds on its own goroutine, as every output does,
// and stops the run through stop, which must not wait (the session's
// cancel of the run's context: the schedule ends and requests in flight
// drain): it never blocks the run to stop it.
type AbortGuard struct {
	engine.NopObserver
	gates []threshold.Threshold
	stop  func()
	note  func(string)
	ring  []result.Tally // the last seconds, ring[n%len(ring)] the newest
	n     int            // seconds seen
	sum   result.Tally   // the window, rebuilt every second
	// mu guards the verdict below, read by Failed and Complete once the
	// run is over, while the guard's goroutine may still be running.
	mu     sync.Mutex
	failed string // the gate and value that stopped the run
	expr   string // the gate that stopped the run, as written
	gate   result.Threshold
}

// NewAbortGuard returns a guard over a window of seconds that calls stop
// (once) when a gate fails and says why through note.
func NewAbortGuard(gates []threshold.Threshold, window int, stop func(), note func(string)) *AbortGuard {
	ring := make([]result.Tally, max(window, 1))
	for i := range ring {
		ring[i] = result.NewTally()
	}
	return &AbortGuard{gates: gates, stop: stop, note: note, ring: ring, sum: result.NewTally()}
}

// OutputName implements engine.OutputNamer.
func (g *AbortGuard) OutputName() (name string, live bool) { return "--abort-on-fail", false }

// ReadsTicks implements engine.TickReader: the guard judges the
// timeline's seconds, never the live updates.
func (g *AbortGuard) ReadsTicks() (updates, seconds bool) { return false, true }

// Timeline implements engine.Observer.
func (g *AbortGuard) Timeline(_ result.Second, t *result.Tally) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.failed != "" {
		return
	}
	slot := &g.ring[g.n%len(g.ring)]
	slot.Reset()
	slot.Merge(t)
	g.n++
	if g.n < len(g.ring) {
		return // one bad second is not a failing run
	}
	g.sum.Reset()
	for i := range g.ring {
		g.sum.Merge(&g.ring[i])
	}
	w := WindowResult(&g.sum, len(g.ring))
	for _, gate := range g.gates {
		if v := gate.Eval(w); !v.Pass && v.Reason == "" {
			g.failed = abortReason(v, len(g.ring))
			g.gate = v
			g.expr = v.Expr
			g.gate.Expr = fmt.Sprintf("abort-on-fail: %s (last %d s)", v.Expr, len(g.ring))
			g.gate.Kind = result.KindAbort
			g.stop() // first: a note on a paused terminal must not hold the stop back
			g.note("aborting: --abort-on-fail " + g.failed)
			return
		}
	}
}

// abortReason says which gate stopped the run and by how much, the value
// rounded as the report prints it (49.9%, not 49.9001996007984 %).
func abortReason(v result.Threshold, seconds int) string {
	return fmt.Sprintf("%s (%s over the last %d s)", v.Expr, format.Gate(v), seconds)
}

// Failed reports the gate that stopped the run, if one did: the reason in
// words and the gate's outcome for the result's thresholds. Call it once
// the run is over.
func (g *AbortGuard) Failed() (reason string, gate result.Threshold, failed bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.failed, g.gate, g.failed != ""
}

// Complete adds to res what the gate that stopped the run, if one did,
// says of it: aborted_by and a warning; it returns the gate's outcome,
// which the verdict lists among the thresholds (report/verdict's
// Options.Decided). A run the guard stopped is interrupted only when a
// signal came too (signalled): interrupted is for signals. A nil guard
// does nothing.
func (g *AbortGuard) Complete(res *result.Result, signalled bool) []result.Threshold {
	if g == nil {
		return nil
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.failed == "" {
		return nil
	}
	res.AbortedBy = g.expr
	res.Warnings = append(res.Warnings, "stopped early by --abort-on-fail: "+g.failed)
	if !signalled {
		res.Interrupted = false
	}
	return []result.Threshold{g.gate}
}

// ParseAbortGates parses the --abort-on-fail gates and refuses those a
// guard cannot watch: only figures known during a run (requests, errors,
// rates, latency), not CPU, memory or consumer lag.
func ParseAbortGates(exprs []string) ([]threshold.Threshold, error) {
	gates := make([]threshold.Threshold, 0, len(exprs))
	for _, e := range exprs {
		t, err := threshold.Parse(e)
		if err != nil {
			return nil, fmt.Errorf("--abort-on-fail: %w", err)
		}
		if m := strings.ToLower(t.Metric); strings.Contains(m, "cpu") || strings.Contains(m, "rss") || strings.Contains(m, "lag") {
			return nil, fmt.Errorf("--abort-on-fail %s: only request, error, rate and latency gates can be watched during a run", threshold.QuoteClipped(e))
		}
		gates = append(gates, t)
	}
	return gates, nil
}

// WindowResult is a result made of a window of seconds of the timeline,
// so that the threshold grammar applies to a window as to a whole run.
func WindowResult(t *result.Tally, seconds int) *result.Result {
	r := &result.Result{
		Requests:  t.Requests(),
		Errors:    map[string]int64{},
		Latency:   result.Summarize(t.Latency),
		Service:   result.Summarize(t.Service),
		Bytes:     result.Bytes{Sent: t.BytesSent, Received: t.BytesReceived},
		DurationS: float64(seconds),
	}
	for class, n := range t.Classes {
		r.Errors[class] = n
	}
	if seconds > 0 {
		r.RPS.Achieved = float64(t.Sent) / float64(seconds)
	}
	return r
}
