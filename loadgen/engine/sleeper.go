package engine

import (
	"context"
	"time"
)

// The dispatcher must wake within tens of microseconds of a due time, but
// Go's timers alone wake up to a millisecond late whenever the runtime
// sleeps in its network poller (epoll_wait takes whole milliseconds). On
// Linux the sleeper therefore sleeps in the read of a timerfd armed for
// the due time: the poller's wait ends on time and readies the dispatcher,
// one thread wake-up per wait (docs/ARCHITECTURE.md, "Model"). Elsewhere
// it sleeps on a Go timer until shortly before the due time and ends the
// wait in nanosleep. It never spins.
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

// poller sleeps until a given instant in the runtime's network poller.
type poller interface {
	// sleep blocks d from now; false when ctx is done or abort is closed
	// first. An error means the poller cannot be used.
	sleep(ctx context.Context, d time.Duration, abort <-chan struct{}) (bool, error)
	close()
}

// newSleeper returns a sleeper that waits in p, or ends its waits in
// nanosleep when p is nil.
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

// wait sleeps d in the poller, or on the Go timer where there is none.
func (s *sleeper) wait(ctx context.Context, d time.Duration, abort <-chan struct{}) bool {
	if s.kick != nil {
		ok, err := s.kick.sleep(ctx, d, abort)
		if err == nil {
			return ok
		}
		s.kick.close()
		s.kick = nil // the waits end in nanosleep from now on
		return !stopped(ctx, abort)
	}
	s.timer.Reset(d)
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
