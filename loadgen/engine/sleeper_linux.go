package engine

import (
	"os"
	"time"

	"golang.org/x/sys/unix"
)

// timerfdPoller is a timerfd registered with the runtime's network poller
// that nobody reads: each expiry only ends the poller's epoll_wait, after
// which the runtime runs the timers that are due. One system call per
// wait (timerfd_settime), where reading the timerfd would cost two more
// and queue the dispatcher behind every goroutine the same poll readied.
type timerfdPoller struct {
	fd int
	f  *os.File // the same fd, registered with the poller
}

func newPoller() poller {
	fd, err := unix.TimerfdCreate(unix.CLOCK_MONOTONIC, unix.TFD_NONBLOCK|unix.TFD_CLOEXEC)
	if err != nil {
		return nil
	}
	return &timerfdPoller{fd: fd, f: os.NewFile(uintptr(fd), "vesload-timerfd")}
}

func (t *timerfdPoller) arm(d time.Duration) error {
	spec := unix.ItimerSpec{Value: unix.NsecToTimespec(int64(d))}
	return unix.TimerfdSettime(t.fd, 0, &spec, nil)
}

func (t *timerfdPoller) close() { t.f.Close() }

// nanosleep blocks the thread for d: precise, but the runtime must hand
// the goroutine's processor to another thread meanwhile, so waits end in
// it only for their last milliseconds, and only when there is no timerfd.
func nanosleep(d time.Duration) {
	ts := unix.NsecToTimespec(int64(d))
	_ = unix.Nanosleep(&ts, nil)
}
