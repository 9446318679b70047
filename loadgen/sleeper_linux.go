package loadgen

import (
	"os"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// timerfdPoller is a timerfd registered with the runtime's network poller.
// As a kick nobody reads it: each expiry only ends the poller's
// epoll_wait, after which the runtime runs the timers that are due; one
// system call per wait (timerfd_settime). As a sleep the dispatcher reads
// it: two system calls (timerfd_settime, then the read of the expiry) and
// the only wake-up is the expiry's.
//
// Both calls are raw, as internal/rawconn's reads and writes are: they
// never block, and the runtime's bookkeeping of a system call would wake
// its monitor thread from the deep sleep it takes while every processor
// is idle, a second wake-up for each of the dispatcher's.
type timerfdPoller struct {
	fd int
	f  *os.File        // the same fd, registered with the poller
	rc syscall.RawConn // f's, for reads that park in the poller

	// The state of the sleep in progress: the callback of rc.Read is a
	// method value made once, so that a sleep allocates nothing.
	spec   unix.ItimerSpec
	d      time.Duration
	armed  bool
	err    error
	buf    [8]byte
	onRead func(fd uintptr) bool
}

func newPoller() poller {
	fd, err := unix.TimerfdCreate(unix.CLOCK_MONOTONIC, unix.TFD_NONBLOCK|unix.TFD_CLOEXEC)
	if err != nil {
		return nil
	}
	f := os.NewFile(uintptr(fd), "vesload-timerfd")
	rc, err := f.SyscallConn()
	if err != nil {
		f.Close()
		return nil
	}
	t := &timerfdPoller{fd: fd, f: f, rc: rc}
	t.onRead = t.readExpiry
	return t
}

func (t *timerfdPoller) arm(d time.Duration) error {
	t.spec.Value = unix.NsecToTimespec(int64(d))
	_, _, e := syscall.RawSyscall6(unix.SYS_TIMERFD_SETTIME, uintptr(t.fd), 0,
		uintptr(unsafe.Pointer(&t.spec)), 0, 0, 0)
	if e != 0 {
		return e
	}
	return nil
}

// sleep arms the timerfd for d and parks until it expires.
func (t *timerfdPoller) sleep(d time.Duration) error {
	t.d, t.armed, t.err = d, false, nil
	if err := t.rc.Read(t.onRead); err != nil {
		return err
	}
	return t.err
}

// readExpiry is the callback of a sleep's read. rc.Read has reset the
// poller's readiness of the fd before its first call, so the timer is
// armed there: its expiry cannot be lost between the arm and the park.
// It reports whether the sleep is over.
func (t *timerfdPoller) readExpiry(fd uintptr) bool {
	if !t.armed {
		t.armed = true
		if t.err = t.arm(t.d); t.err != nil {
			return true
		}
		return false // not expired yet: park until the poller says it has
	}
	for {
		_, _, e := syscall.RawSyscall(unix.SYS_READ, fd, uintptr(unsafe.Pointer(&t.buf)), uintptr(len(t.buf)))
		switch e {
		case 0:
			return true
		case unix.EINTR:
		case unix.EAGAIN:
			return false // woken without an expiry: park again
		default:
			t.err = e
			return true
		}
	}
}

func (t *timerfdPoller) close() { t.f.Close() }

// nanosleep blocks the thread for d: precise, but the runtime must hand
// the goroutine's processor to another thread meanwhile, so waits end in
// it only for their last milliseconds, and only when there is no timerfd.
func nanosleep(d time.Duration) {
	ts := unix.NsecToTimespec(int64(d))
	_ = unix.Nanosleep(&ts, nil)
}
