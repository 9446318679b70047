package loadgen

import (
	"context"
	"syscall"
	"time"
)

// Go's timers wake up to a millisecond late on common Linux kernels, which
// would put that much dispatch lag on every request. The sleeper sleeps on
// a timer until shortly before the due time and covers the rest with one
// nanosleep, which the kernel honours to within tens of microseconds. It
// never spins.
const (
	// timerMargin is how long before the due time the timer should fire.
	timerMargin = 1500 * time.Microsecond
	// dueEnough is a wait too short to be worth a system call.
	dueEnough = 20 * time.Microsecond
)

type sleeper struct {
	timer *time.Timer
}

// until blocks until due. It returns false when ctx is cancelled or abort
// is closed first.
func (s *sleeper) until(ctx context.Context, due time.Time, abort <-chan struct{}) bool {
	for {
		w := time.Until(due)
		if w <= dueEnough {
			select {
			case <-ctx.Done():
				return false
			case <-abort:
				return false
			default:
				return true
			}
		}
		if w > 2*timerMargin {
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
		ts := syscall.NsecToTimespec(int64(w))
		_ = syscall.Nanosleep(&ts, nil) // EINTR only shortens the wait; the loop re-checks
	}
}
