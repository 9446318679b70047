package engine

import (
	"context"
	"testing"
	"time"
)

// earliest is how far before its due time a wait may end: the contract
// the dispatcher relies on, set here rather than read from the code it
// checks (a sleeper that gave up sooner, through dueEnough or anything
// else, must fail these tests).
const earliest = 20 * time.Microsecond

// waits are the waits the sleeper tests time: none, below the system-call
// threshold, and on each side of the timer margin.
var waits = []time.Duration{0, 10 * time.Microsecond, 150 * time.Microsecond, time.Millisecond,
	2 * time.Millisecond, 4 * time.Millisecond}

// checkNeverEarly times each wait from before the call: a wait of w must
// take at least w - earliest, however the sleeper ends it.
func checkNeverEarly(t *testing.T, s *sleeper) {
	t.Helper()
	for _, w := range waits {
		start := time.Now()
		if !s.until(context.Background(), start.Add(w), nil) {
			t.Fatalf("wait of %v: reported a stop that did not happen", w)
		}
		if took := time.Since(start); took < w-earliest {
			t.Errorf("wait of %v returned after %v, %v before the due time", w, took, w-took)
		}
	}
}

// TestSleeperNeverEarly: the dispatcher may be late (and measures it) but
// must never send a request before its due time.
func TestSleeperNeverEarly(t *testing.T) {
	s := newSleeper(newPoller())
	defer s.close()
	checkNeverEarly(t, s)
}

// TestSleeperStops: a stop ends a long wait at once, whether it comes
// from the context or from the abort guard.
func TestSleeperStops(t *testing.T) {
	for _, name := range []string{"cancel", "abort"} {
		t.Run(name, func(t *testing.T) {
			s := newSleeper(newPoller())
			defer s.close()
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			abort := make(chan struct{})
			done := make(chan bool)
			go func() { done <- s.until(ctx, time.Now().Add(time.Hour), abort) }()
			if name == "cancel" {
				cancel()
			} else {
				close(abort)
			}
			select {
			case ok := <-done:
				if ok {
					t.Fatal("until reported the due time reached after a stop")
				}
			case <-time.After(10 * time.Second):
				t.Fatal("a stop did not end an hour-long wait")
			}
		})
	}
}

// TestSleeperWithoutPoller: where there is no poller to wake (outside
// Linux, or when the timerfd fails) waits end in nanosleep, never early.
func TestSleeperWithoutPoller(t *testing.T) {
	checkNeverEarly(t, newSleeper(nil)) // no poller to kick
}
