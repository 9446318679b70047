package loadgen

import (
	"os"
	"time"

	"golang.org/x/sys/unix"
)

// timerfdSleeper waits on a timerfd through the runtime's network poller:
// the goroutine parks, its thread stays free for the workers, and the
// kernel's high-resolution timer decides when it wakes. It costs two
// system calls per wait and no thread hand-over, where a nanosleep costs
// one system call plus a hand-over of the processor and its wake-ups.
type timerfdSleeper struct {
	fd  int
	f   *os.File // the same fd, registered with the poller
	buf [8]byte
}

func newFineSleeper() fineSleeper {
	fd, err := unix.TimerfdCreate(unix.CLOCK_MONOTONIC, unix.TFD_NONBLOCK|unix.TFD_CLOEXEC)
	if err != nil {
		return nanoSleeper{}
	}
	return &timerfdSleeper{fd: fd, f: os.NewFile(uintptr(fd), "vesload-timerfd")}
}

func (t *timerfdSleeper) sleep(d time.Duration) {
	spec := unix.ItimerSpec{Value: unix.NsecToTimespec(int64(d))}
	if err := unix.TimerfdSettime(t.fd, 0, &spec, nil); err != nil {
		nanoSleeper{}.sleep(d)
		return
	}
	_, _ = t.f.Read(t.buf[:]) // returns once the timer has expired
}

// longest lets one timerfd wait cover the gap between requests at 20/s
// and above; a stop is noticed within that time.
func (t *timerfdSleeper) longest() time.Duration { return 50 * time.Millisecond }

func (t *timerfdSleeper) close() { t.f.Close() }
