package observe

import (
	"fmt"
	"sync"

	"github.com/vesload/vesload/loadgen/engine"
	"github.com/vesload/vesload/report/result"
)

// The start-of-run rule looks at the first StartWindow seconds of a run,
// and at least StartMin requests: a target that refuses every one of
// them with one error class refuses the run.
const (
	StartWindow = 5
	StartMin    = 20
)

// StartGuard stops a run whose first requests all fail with one error
// class (every one a 405, a 401, a tls error…): such a target refuses the
// run, and the rest of the run would only count the refusals. It judges
// once, as soon as StartWindow seconds and StartMin requests have
// outcomes; a success before that ends its watch. Requests that never
// left (pool_exhausted) are the generator's and do not count.
type StartGuard struct {
	engine.NopObserver
	window  int
	min     int64
	explain func(class, messageID string) string
	stop    func()
	note    func(string)
	sum     result.Tally
	seconds int
	done    bool
	// mu guards why and class, which the guard's goroutine sets and
	// Complete reads once the run is over.
	mu    sync.Mutex
	why   string // the line that stopped the run
	class string
}

// NewStartGuard returns a guard over the first window seconds (at least
// min requests) that calls stop when every request failed with one class
// and says why through note, with explain's likely cause.
func NewStartGuard(window int, min int64, explain func(class, messageID string) string, stop func(), note func(string)) *StartGuard {
	return &StartGuard{window: window, min: min, explain: explain, stop: stop, note: note, sum: result.NewTally()}
}

// OutputName implements engine.OutputNamer: the rule is the run's own,
// not an output the user asked for; a second it skipped only leaves it
// undecided, so it never makes the run's records incomplete.
func (g *StartGuard) OutputName() (name string, live bool) { return "the start-of-run rule", true }

// ReadsTicks implements engine.TickReader: it reads the timeline's first
// seconds, never the live updates.
func (g *StartGuard) ReadsTicks() (updates, seconds bool) { return false, true }

// Timeline implements engine.Observer.
func (g *StartGuard) Timeline(_ result.Second, t *result.Tally) {
	if g.done {
		return
	}
	g.sum.Merge(t)
	g.seconds++
	if g.sum.OK > 0 {
		g.done = true
		return
	}
	sent := g.sum.Sent - g.sum.InFlight
	if g.seconds < g.window || sent < g.min {
		return
	}
	g.done = true
	class, ok := onlyClass(&g.sum, sent)
	if !ok {
		return
	}
	why := fmt.Sprintf("every one of the first %d requests failed with %s", sent, class)
	id := onlyKey(g.sum.MessageIDs)
	if id != "" {
		why = fmt.Sprintf("every one of the first %d requests failed with %s (%s)", sent, class, id)
	}
	if cause := g.explain(class, id); cause != "" {
		why += ": " + cause
	}
	g.mu.Lock()
	g.class, g.why = class, why
	g.mu.Unlock()
	g.stop() // first: a note on a paused terminal must not hold the stop back
	g.note("stopping: " + why + " (--keep-going runs on)")
}

// onlyClass is the one error class of every sent request, if there is
// one: requests that never left are not the target's answer.
func onlyClass(t *result.Tally, sent int64) (string, bool) {
	class := ""
	for c, n := range t.Classes {
		if n == 0 || c == result.ClassPoolExhausted || c == result.ClassDisconnected {
			continue
		}
		if class != "" || n != sent {
			return "", false
		}
		class = c
	}
	return class, class != ""
}

// onlyKey is the one key of m with a count, or "".
func onlyKey(m map[string]int64) string {
	key := ""
	for k, n := range m {
		if n == 0 {
			continue
		}
		if key != "" {
			return ""
		}
		key = k
	}
	return key
}

// Complete adds to res what the rule says of a run it stopped, if it
// did: the result's StoppedAtStart and a warning; it returns the rule's failed check, which the verdict
// lists among the thresholds (report/verdict's Options.Decided), so the
// run exits 3. A run the guard stopped is interrupted only when a signal
// came too. A nil guard does nothing.
func (g *StartGuard) Complete(res *result.Result, signalled bool) []result.Threshold {
	if g == nil {
		return nil
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.why == "" {
		return nil
	}
	res.StoppedAtStart = g.why
	res.Warnings = append(res.Warnings, "stopped at the start: "+g.why)
	if !signalled {
		res.Interrupted = false
	}
	return []result.Threshold{{
		Expr:  fmt.Sprintf("start of run: not every request fails with %s (first %d s)", g.class, g.seconds),
		Value: float64(g.sum.Errors), Kind: result.KindRule,
	}}
}
