package engine

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/vesload/vesload/loadgen/transport"
	"github.com/vesload/vesload/report/result"
)

// manualClock is a Clock whose time moves only when the test advances it;
// its timers fire then. armed tells the test each time a timer is set, so
// that it moves the time only once the code under test waits for it.
type manualClock struct {
	mu     sync.Mutex
	now    time.Time
	timers []*manualTimer
	armed  chan struct{}
}

func newManualClock(now time.Time) *manualClock {
	return &manualClock{now: now, armed: make(chan struct{}, 16)}
}

// waitArmed waits until a timer is set.
func (c *manualClock) waitArmed(t *testing.T) {
	t.Helper()
	select {
	case <-c.armed:
	case <-time.After(10 * time.Second): // a safety net, not the logic's time
		t.Fatal("no timer set")
	}
}

func (c *manualClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *manualClock) Sleep(d time.Duration, _ <-chan struct{}) bool {
	c.advance(d)
	return true
}

func (c *manualClock) NewTimer(d time.Duration) Timer {
	t := &manualTimer{c: c, ch: make(chan time.Time, 1)}
	c.mu.Lock()
	c.timers = append(c.timers, t)
	c.mu.Unlock()
	t.Reset(d)
	return t
}

// advance moves the time on by d and fires the timers due by then.
func (c *manualClock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
	for _, t := range c.timers {
		t.fireLocked()
	}
}

type manualTimer struct {
	c     *manualClock
	ch    chan time.Time
	at    time.Time
	armed bool
}

func (t *manualTimer) C() <-chan time.Time { return t.ch }

func (t *manualTimer) Reset(d time.Duration) bool {
	t.c.mu.Lock()
	defer t.c.mu.Unlock()
	was := t.armed
	t.at, t.armed = t.c.now.Add(d), true
	t.fireLocked()
	select {
	case t.c.armed <- struct{}{}:
	default:
	}
	return was
}

func (t *manualTimer) Stop() bool {
	t.c.mu.Lock()
	defer t.c.mu.Unlock()
	was := t.armed
	t.armed = false
	return was
}

// fireLocked fires the timer when it is due; the clock's lock is held.
func (t *manualTimer) fireLocked() {
	if t.armed && !t.c.now.Before(t.at) {
		t.armed = false
		select {
		case t.ch <- t.c.now:
		default:
		}
	}
}

var _ Clock = (*manualClock)(nil)

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

// The ticker, on a clock the test moves, publishes one snapshot per
// second: the live figures of the second that ended, and each second of
// the timeline once every request due in it has an outcome, never
// before.
func TestTickerPublishesEachSecondOnAFakeClock(t *testing.T) {
	t.Parallel()
	start := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	clock := newManualClock(start)
	s, err := Constant(5, 3*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	e := &Engine{cfg: Config{Load: s}, clock: clock, lag: newLagMeter()}
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
	expect := func(want ...string) {
		t.Helper()
		for _, w0 := range want {
			select {
			case got := <-w.seen:
				if got != w0 {
					t.Fatalf("saw %q, want %q", got, w0)
				}
			case <-time.After(10 * time.Second): // a safety net, not the logic's time
				t.Fatalf("nothing seen, want %q", w0)
			}
		}
	}
	for range 5 {
		e.tl.due(0)
		outcome(0)
	}
	e.tl.due(1) // the dispatcher is in second 1: second 0 is final
	clock.waitArmed(t)
	clock.advance(time.Second)
	expect("timeline 0: 5 ok", "second 1s: 5 ok")

	clock.waitArmed(t)
	clock.advance(time.Second) // second 1's request has no outcome yet
	expect("second 2s: 5 ok")

	outcome(1)
	e.tl.passed()
	clock.waitArmed(t)
	clock.advance(time.Second)
	expect("timeline 1: 1 ok", "second 3s: 6 ok")

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
}
