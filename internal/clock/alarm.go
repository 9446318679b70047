package clock

import (
	"context"
	"time"
)

// A dispatcher must wake within tens of microseconds of a due time, but
// Go's timers alone wake up to a millisecond late whenever the runtime
// sleeps in its network poller (epoll_wait takes whole milliseconds). On
// Linux the System alarm therefore sleeps in the read of a timerfd armed for
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

// alarm waits for due times on behalf of one goroutine (the
// dispatcher's).
type alarm struct {
	timer *time.Timer
	kick  poller // nil where the platform has none, and for Runtime
	// precise ends waits without a poller in nanosleep; Runtime's alarm
	// is not, so that a synctest bubble's time drives all of its waits.
	precise bool
}

// poller sleeps until a given instant in the runtime's network poller.
type poller interface {
	// sleep blocks d from now; false when ctx is done or abort is closed
	// first. An error means the poller cannot be used.
	sleep(ctx context.Context, d time.Duration, abort <-chan struct{}) (bool, error)
	close()
}

// newAlarm returns an alarm that waits in p, or, when p is nil, on a Go
// timer whose waits end in nanosleep if precise.
func newAlarm(p poller, precise bool) *alarm {
	t := time.NewTimer(time.Hour)
	t.Stop()
	return &alarm{timer: t, kick: p, precise: precise}
}

// Until blocks until due. It returns false when ctx is cancelled or abort
// is closed first.
func (s *alarm) Until(ctx context.Context, due time.Time, abort <-chan struct{}) bool {
	for {
		w := time.Until(due)
		switch {
		case w <= dueEnough:
			return !Stopped(ctx, abort)
		case s.kick == nil && s.precise && w <= 2*timerMargin:
			nanosleep(w) // an early return only shortens the wait; the loop re-checks
			continue
		case s.kick == nil && s.precise:
			w -= timerMargin
		}
		if !s.wait(ctx, w, abort) {
			return false
		}
	}
}

// wait sleeps d in the poller, or on the Go timer where there is none.
func (s *alarm) wait(ctx context.Context, d time.Duration, abort <-chan struct{}) bool {
	if s.kick != nil {
		ok, err := s.kick.sleep(ctx, d, abort)
		if err == nil {
			return ok
		}
		s.kick.close()
		s.kick = nil // the waits end in nanosleep from now on
		return !Stopped(ctx, abort)
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

// Close releases the poller's resources.
func (s *alarm) Close() {
	if s.kick != nil {
		s.kick.close()
	}
}

// Stopped reports, without blocking, whether ctx is done or abort closed:
// how a waiter on an alarm, and the engine's dispatcher between its
// requests, tell a cancelled or aborted run.
func Stopped(ctx context.Context, abort <-chan struct{}) bool {
	select {
	case <-ctx.Done():
		return true
	case <-abort:
		return true
	default:
		return false
	}
}
