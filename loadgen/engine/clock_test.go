package engine

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"testing/synctest"
	"time"

	"github.com/vesload/vesload/internal/clock"
	"github.com/vesload/vesload/loadgen/transport"
	"github.com/vesload/vesload/report/result"
)

// watcher hands each snapshot it reads to the test.
type watcher struct {
	NopObserver
	seen chan string
}

func (w *watcher) Timeline(s result.Second, t *result.Tally) {
	w.seen <- fmt.Sprintf("timeline %d: %d ok", s.T, t.OK)
}

func (w *watcher) Second(p *Progress) {
	w.seen <- fmt.Sprintf("second %v: %d ok", p.Elapsed, p.OK)
}

// The ticker, on clock.Runtime in a synctest bubble, publishes one
// snapshot per second: the live figures of the second that ended, and
// each second of the timeline once every request due in it has an
// outcome, never before. The bubble's time moves only when every
// goroutine in it waits, so each second is seen whole.
func TestTickerPublishesEachSecondInVirtualTime(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		start := time.Now()
		s, err := Constant(5, 3*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		e := &Engine{cfg: Config{Load: s}, clock: clock.Runtime{}, lag: newLagMeter()}
		e.tl = newTimeline(nil, nil)
		e.rec = newRecorder(nil, 1, 0, e.tl)
		e.rec.started = start
		w := &watcher{seen: make(chan string, 16)}
		e.outs = startOutlets([]Observer{w})
		tk := e.newTicker(start, nil)
		go tk.loop()

		outcome := func(sec int64) {
			e.rec.record(&record{dueNs: sec * int64(time.Second), latency: int64(time.Millisecond), class: transport.OK, code: 202})
		}
		// second moves the time to the end of the run's second sec and
		// checks what the observer saw by then, and nothing more.
		second := func(sec int64, want ...string) {
			t.Helper()
			clock.Sleep(context.Background(), clock.Runtime{}, time.Until(start.Add(time.Duration(sec)*time.Second)), nil)
			synctest.Wait()
			var got []string
			for len(w.seen) > 0 {
				got = append(got, <-w.seen)
			}
			if !slices.Equal(got, want) {
				t.Fatalf("by second %d saw %q, want %q", sec, got, want)
			}
		}
		for range 5 {
			e.tl.due(0)
			outcome(0)
		}
		e.tl.due(1) // the dispatcher is in second 1: second 0 is final
		second(1, "timeline 0: 5 ok", "second 1s: 5 ok")
		second(2, "second 2s: 5 ok") // second 1's request has no outcome yet

		outcome(1)
		e.tl.passed()
		second(3, "timeline 1: 1 ok", "second 3s: 6 ok")

		tk.stop()
		if lost := e.outs.close(time.Second); len(lost) != 0 {
			t.Errorf("lost %+v", lost)
		}
		// Once read, a closed second's Tally is kept for reuse: second 0's
		// served second 1, whose Tally is back.
		if n := len(e.tl.pool.free); n != 1 {
			t.Errorf("%d Tallies back for reuse, want 1: second 0's reused for second 1, then back", n)
		}
		if t0 := e.tl.tally(); t0.Scheduled != 0 || t0.Latency.TotalCount() != 0 {
			t.Errorf("a reused Tally holds %d requests, want a reset one", t0.Scheduled)
		}
	})
}
