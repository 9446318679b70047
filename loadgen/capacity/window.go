package capacity

import (
	"sync"

	"github.com/vesload/vesload/loadgen/engine"
	"github.com/vesload/vesload/loadgen/output/observe"
	"github.com/vesload/vesload/report/result"
	"github.com/vesload/vesload/report/threshold"
)

// Window watches one step's timeline: it leaves the warm-up's seconds out,
// sums the measured ones into one Tally (so that their percentiles are
// the window's own, not the worst second's), and stops the step through
// stop once Clearly says it has failed; the seconds after that, cut short
// by the stop, are left out too (the step is judged, and its achieved
// rate is over whole seconds). A step's runner registers it among
// the engine's observers and reads Result once the run is over.
type Window struct {
	engine.NopObserver
	warmup  int64 // seconds of the timeline left out
	planned int64 // requests the measured seconds plan
	slos    []threshold.Threshold
	stop    func()

	mu      sync.Mutex
	sum     result.Tally
	seconds int
	// cpuMax is the target's highest CPU, 0 while it is not sampled.
	cpuMax  float64
	stopped bool
	// sched sums the generator's wait to run (p99, ms) of the measured
	// seconds.
	sched float64
}

// NewWindow returns the window of a step whose first warmup seconds are
// left out and whose measured part plans planned requests; stop, when not
// nil, is called once, and must not wait (the session's Stop).
func NewWindow(warmup int, planned int64, slos []threshold.Threshold, stop func()) *Window {
	return &Window{warmup: int64(warmup), planned: planned, slos: slos, stop: stop, sum: result.NewTally()}
}

// ReadsTicks implements engine.TickReader: the window reads the final
// seconds, never the live updates.
func (w *Window) ReadsTicks() (updates, seconds bool) { return false, true }

// Timeline implements engine.Observer.
func (w *Window) Timeline(s result.Second, t *result.Tally) {
	if s.T < w.warmup {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.stopped {
		return // a second cut short by the stop: its rate would understate the step's
	}
	w.sum.Merge(t)
	w.seconds++
	w.sched += s.GenSchedP99Ms
	w.cpuMax = max(w.cpuMax, s.TargetCPUPct)
	if w.stop == nil {
		return
	}
	if _, failed := Clearly(w.slos, observe.WindowResult(&w.sum, w.seconds), w.planned); failed {
		w.stopped = true
		w.stop()
	}
}

// Result is the measured seconds as a result the SLO gates read, whether
// the window stopped the step, and the target's highest CPU in them (nil
// when it was not sampled).
func (w *Window) Result() (r *result.Result, stopped bool, cpuMax *float64) {
	w.mu.Lock()
	defer w.mu.Unlock()
	r = observe.WindowResult(&w.sum, w.seconds)
	if w.cpuMax > 0 {
		v := w.cpuMax
		cpuMax = &v
	}
	return r, w.stopped, cpuMax
}

// SchedP99Ms is the generator's wait to run over the measured seconds: the
// mean of their p99s (ms), 0 before the first.
func (w *Window) SchedP99Ms() float64 {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.seconds == 0 {
		return 0
	}
	return w.sched / float64(w.seconds)
}
