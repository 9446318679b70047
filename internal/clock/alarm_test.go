package clock

import (
	"context"
	"testing"
	"testing/synctest"
	"time"
)

// earliest is how far before its due time a wait may end: the contract
// the dispatcher relies on, set here rather than read from the code it
// checks (an alarm that gave up sooner, through dueEnough or anything
// else, must fail these tests).
const earliest = 20 * time.Microsecond

// waits are the waits the alarm tests time: none, below the system-call
// threshold, and on each side of the timer margin.
var waits = []time.Duration{0, 10 * time.Microsecond, 150 * time.Microsecond, time.Millisecond,
	2 * time.Millisecond, 4 * time.Millisecond}

// alarms are the ways a wait can end: a System alarm in the poller (on
// Linux), a Go timer ended in nanosleep (elsewhere, or when the timerfd
// fails), and Runtime's Go timer alone.
var alarms = []struct {
	name string
	new  func() Alarm
}{
	{"system", System{}.NewAlarm},
	{"without poller", func() Alarm { return newAlarm(nil, true) }},
	{"runtime", Runtime{}.NewAlarm},
}

// TestAlarmNeverEarly: the dispatcher may be late (and measures it) but
// must never send a request before its due time. Each wait is timed from
// before the call: a wait of w must take at least w - earliest, however
// the alarm ends it.
func TestAlarmNeverEarly(t *testing.T) {
	for _, a := range alarms {
		t.Run(a.name, func(t *testing.T) {
			s := a.new()
			defer s.Close()
			for _, w := range waits {
				start := time.Now()
				if !s.Until(context.Background(), start.Add(w), nil) {
					t.Fatalf("wait of %v: reported a stop that did not happen", w)
				}
				if took := time.Since(start); took < w-earliest {
					t.Errorf("wait of %v returned after %v, %v before the due time", w, took, w-took)
				}
			}
		})
	}
}

// TestAlarmStops: a stop ends a long wait at once, whether it comes from
// the context or from the abort guard.
func TestAlarmStops(t *testing.T) {
	for _, a := range alarms {
		for _, name := range []string{"cancel", "abort"} {
			t.Run(a.name+"/"+name, func(t *testing.T) {
				s := a.new()
				defer s.Close()
				ctx, cancel := context.WithCancel(context.Background())
				defer cancel()
				abort := make(chan struct{})
				done := make(chan bool)
				go func() { done <- s.Until(ctx, time.Now().Add(time.Hour), abort) }()
				if name == "cancel" {
					cancel()
				} else {
					close(abort)
				}
				select {
				case ok := <-done:
					if ok {
						t.Fatal("Until reported the due time reached after a stop")
					}
				case <-time.After(10 * time.Second): // a safety net, not the logic's time
					t.Fatal("a stop did not end an hour-long wait")
				}
			})
		}
	}
}

// TestRuntimeIsVirtualInABubble: inside a synctest bubble, Runtime's
// alarms, timers and sleeps wait exactly as long as asked, in virtual
// time, which is what lets the engine's tests run a schedule without
// waiting for it.
func TestRuntimeIsVirtualInABubble(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var c Clock = Runtime{}
		a := c.NewAlarm()
		defer a.Close()
		start := c.Now()
		steps := []struct {
			name string
			wait func() bool
			at   time.Duration // since start, once it returned
		}{
			{"alarm", func() bool { return a.Until(context.Background(), start.Add(time.Hour), nil) }, time.Hour},
			{"sleep", func() bool { return Sleep(context.Background(), c, 90*time.Minute, nil) }, 150 * time.Minute},
			{"timer", func() bool { <-c.NewTimer(time.Second).C(); return true }, 150*time.Minute + time.Second},
			{"past", func() bool { return a.Until(context.Background(), start, nil) }, 150*time.Minute + time.Second},
		}
		for _, s := range steps {
			if !s.wait() {
				t.Fatalf("%s: reported a stop", s.name)
			}
			if got := c.Now().Sub(start); got != s.at {
				t.Errorf("%s: returned at %v, want %v", s.name, got, s.at)
			}
		}
	})
}

// TestSleep: Sleep waits its duration, or ends at a stop from the
// context or its channel, saying which.
func TestSleep(t *testing.T) {
	tests := []struct {
		name   string
		d      time.Duration
		cancel bool // the context is done before the wait
		stop   bool // the stop channel is closed before the wait
		want   bool
		took   time.Duration
	}{
		{"whole", time.Minute, false, false, true, time.Minute},
		{"zero", 0, false, false, true, 0},
		{"negative", -time.Second, false, false, true, 0},
		{"cancelled", time.Minute, true, false, false, 0},
		{"cancelled, zero", 0, true, false, false, 0},
		{"stopped", time.Minute, false, true, false, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				ctx, cancel := context.WithCancel(context.Background())
				defer cancel()
				if tt.cancel {
					cancel()
				}
				stop := make(chan struct{})
				if tt.stop {
					close(stop)
				}
				start := time.Now()
				if got := Sleep(ctx, Runtime{}, tt.d, stop); got != tt.want {
					t.Errorf("Sleep = %v, want %v", got, tt.want)
				}
				if took := time.Since(start); took != tt.took {
					t.Errorf("took %v, want %v", took, tt.took)
				}
			})
		})
	}
}
