package loadgen

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
// threshold, on each side of the timer margin and of the shortest read of
// the timerfd, and one longer than a read covers (a Go timer, then a read).
var waits = []time.Duration{0, 10 * time.Microsecond, 150 * time.Microsecond, 900 * time.Microsecond,
	time.Millisecond, 2 * time.Millisecond, 4 * time.Millisecond, 60 * time.Millisecond}

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
// from the context or from the abort guard, and a wait on one read of the
// timerfd (readLongest at most) reports it when the read ends.
func TestSleeperStops(t *testing.T) {
	for _, tc := range []struct {
		name string
		wait time.Duration
	}{
		{"cancel", time.Hour},
		{"abort", time.Hour},
		{"cancel", readLongest / 2},
		{"abort", readLongest / 2},
	} {
		t.Run(tc.name+"/"+tc.wait.String(), func(t *testing.T) {
			s := newSleeper(newPoller())
			defer s.close()
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			abort := make(chan struct{})
			done := make(chan bool)
			go func() { done <- s.until(ctx, time.Now().Add(tc.wait), abort) }()
			if tc.name == "cancel" {
				cancel()
			} else {
				close(abort)
			}
			select {
			case ok := <-done:
				if ok {
					t.Fatalf("until reported the due time of a %v wait reached after a stop", tc.wait)
				}
			case <-time.After(10 * time.Second):
				t.Fatalf("a stop did not end a %v wait", tc.wait)
			}
		})
	}
}

// TestSleeperWaitsAllocateNothing: the dispatcher waits once per request
// at low rates, so a wait, on the timerfd's read or on the Go timer and
// its kick, must not allocate.
func TestSleeperWaitsAllocateNothing(t *testing.T) {
	s := newSleeper(newPoller())
	defer s.close()
	ctx := context.Background()
	for _, w := range []time.Duration{300 * time.Microsecond, 2 * time.Millisecond} {
		allocs := testing.AllocsPerRun(20, func() {
			if !s.until(ctx, time.Now().Add(w), nil) {
				t.Fatal("until reported a stop that did not happen")
			}
		})
		if allocs != 0 {
			t.Errorf("a wait of %v allocates %.1f times", w, allocs)
		}
	}
}

// TestSleeperWithoutPoller: where there is no poller to wake (outside
// Linux, or when the timerfd fails) waits end in nanosleep, never early.
func TestSleeperWithoutPoller(t *testing.T) {
	checkNeverEarly(t, newSleeper(nil)) // no poller to kick
}
