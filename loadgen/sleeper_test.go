package loadgen

import (
	"context"
	"testing"
	"time"
)

// TestSleeperNeverEarly: the dispatcher may be late (and measures it) but
// must never send a request before its due time.
func TestSleeperNeverEarly(t *testing.T) {
	s := newSleeper(newPoller())
	defer s.close()
	ctx := context.Background()
	for _, w := range []time.Duration{0, 10 * time.Microsecond, 150 * time.Microsecond, time.Millisecond, 4 * time.Millisecond} {
		due := time.Now().Add(w)
		if !s.until(ctx, due, nil) {
			t.Fatalf("wait of %v: reported a stop that did not happen", w)
		}
		if early := time.Until(due); early > dueEnough {
			t.Errorf("wait of %v returned %v before the due time", w, early)
		}
	}
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
	s := newSleeper(nil) // no poller to kick
	for _, w := range []time.Duration{100 * time.Microsecond, 2 * time.Millisecond, 5 * time.Millisecond} {
		due := time.Now().Add(w)
		if !s.until(context.Background(), due, nil) {
			t.Fatalf("wait of %v: reported a stop that did not happen", w)
		}
		if early := time.Until(due); early > dueEnough {
			t.Errorf("wait of %v returned %v before the due time", w, early)
		}
	}
}
