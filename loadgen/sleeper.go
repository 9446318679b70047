package loadgen

import (
	"context"
	"syscall"
	"time"
)

// Go's timers wake up to a millisecond late on common Linux kernels, which
// would put that much dispatch lag on every request. The sleeper waits
// with a fine sleeper instead: on Linux a timerfd that the runtime's
// network poller waits on, so the dispatcher parks like any goroutine and
// the kernel's high-resolution timer wakes it within tens of microseconds,
// once per wait of up to 50 ms; elsewhere a nanosleep for the last few
// milliseconds of a Go timer's wait. It never spins.
const (
	// timerMargin is how long before the due time the timer should fire.
	timerMargin = 1500 * time.Microsecond
	// dueEnough is a wait too short to be worth a system call.
	dueEnough = 20 * time.Microsecond
	// coalesce is the shortest time between two wake-ups of the
	// dispatcher. Above 1/coalesce requests per second (2,000/s) the
	// requests due within one window are sent together: the dispatch lag
	// stays under coalesce and the cost per request falls with the rate.
	coalesce = 500 * time.Microsecond
)

type sleeper struct {
	timer *time.Timer
	fine  fineSleeper
}

// until blocks until due. It returns false when ctx is cancelled or abort
// is closed first.
func (s *sleeper) until(ctx context.Context, due time.Time, abort <-chan struct{}) bool {
	for {
		w := time.Until(due)
		if w <= dueEnough {
			return !stopped(ctx, abort)
		}
		if s.fine == nil {
			s.fine = newFineSleeper()
		}
		if w > s.fine.longest() {
			if s.timer == nil {
				s.timer = time.NewTimer(w - timerMargin)
			} else {
				s.timer.Reset(w - timerMargin)
			}
			select {
			case <-s.timer.C:
			case <-ctx.Done():
				s.timer.Stop()
				return false
			case <-abort:
				s.timer.Stop()
				return false
			}
			continue
		}
		s.fine.sleep(w) // an early return only shortens the wait; the loop re-checks
	}
}

// close releases the fine sleeper's resources.
func (s *sleeper) close() {
	if s.fine != nil {
		s.fine.close()
	}
}

// fineSleeper sleeps for short durations with microsecond precision.
type fineSleeper interface {
	sleep(d time.Duration)
	// longest is the longest wait it should take on: longer ones start on
	// a Go timer, which a stop can interrupt, and end on the fine sleeper.
	longest() time.Duration
	close()
}

// nanoSleeper blocks its thread in nanosleep: precise, but the runtime
// must hand the goroutine's processor to another thread meanwhile.
type nanoSleeper struct{}

func (nanoSleeper) sleep(d time.Duration) {
	ts := syscall.NsecToTimespec(int64(d))
	_ = syscall.Nanosleep(&ts, nil)
}

// longest keeps nanosleeps short: the thread is blocked meanwhile.
func (nanoSleeper) longest() time.Duration { return 2 * timerMargin }

func (nanoSleeper) close() {}
