package engine

import (
	"context"
	"time"
)

// The dispatcher must wake within tens of microseconds of a due time, but
// Go's timers alone wake up to a millisecond late whenever the runtime
// sleeps in its network poller (epoll_wait takes whole milliseconds). On
// Linux the sleeper therefore pairs each Go timer with a timerfd armed for
// the same instant: the timerfd ends the poller's sleep on time and the Go
// timer then readies the dispatcher ahead of the connections' goroutines
// already queued (docs/ARCHITECTURE.md, "Model"). Elsewhere it
// sleeps on a Go timer until shortly before the due time and ends the wait
// in nanosleep. It never spins.
const (
	// timerMargin is how long before the due time a plain Go timer should
	// fire where a nanosleep ends the wait.
	timerMargin = 1500 * time.Microsecond
	// dueEnough is a wait too short to be worth a system call.
	dueEnough = 20 * time.Microsecond
)

// coalesce is the shortest time between two wake-ups of the dispatcher.
// Above 1/coalesce requests per second the requests due within one
// window are sent together: the dispatch lag stays under coalesce and the
// cost per request falls with the rate.
const coalesce = 500 * time.Microsecond

// sleeper waits for due times on behalf of the dispatcher.
type sleeper struct {
	timer *time.Timer
	kick  poller // nil where the platform has none
}

// poller wakes the runtime's network poller at a given instant.
type poller interface {
	// arm makes the poller wake d from now (it replaces an earlier arm).
	arm(d time.Duration) error
	close()
}

// newSleeper returns a sleeper that kicks p awake for each wait, or ends
// its waits in nanosleep when p is nil.
func newSleeper(p poller) *sleeper {
	t := time.NewTimer(time.Hour)
	t.Stop()
	return &sleeper{timer: t, kick: p}
}

// until blocks until due. It returns false when ctx is cancelled or abort
// is closed first.
func (s *sleeper) until(ctx context.Context, due time.Time, abort <-chan struct{}) bool {
	for {
		w := time.Until(due)
		switch {
		case w <= dueEnough:
			return !stopped(ctx, abort)
		case s.kick == nil && w <= 2*timerMargin:
			nanosleep(w) // an early return only shortens the wait; the loop re-checks
			continue
		case s.kick == nil:
			w -= timerMargin
		}
		if !s.wait(ctx, w, abort) {
			return false
		}
	}
}

// wait sleeps d on the Go timer (and the kick, where there is one).
func (s *sleeper) wait(ctx context.Context, d time.Duration, abort <-chan struct{}) bool {
	s.timer.Reset(d)
	// A Go timer never fires early and the kick is armed after it, so
	// the poller wakes at or after the timer's instant, never just before.
	if s.kick != nil && s.kick.arm(d) != nil {
		s.kick.close()
		s.kick = nil // the waits end in nanosleep from now on
	}
	select {
	case <-s.timer.C:
		return true
	case <-ctx.Done():
	case <-abort:
	}
	s.timer.Stop()
	return false
}

// close releases the poller's resources.
func (s *sleeper) close() {
	if s.kick != nil {
		s.kick.close()
	}
}
