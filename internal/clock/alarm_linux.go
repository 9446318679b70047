package clock

import (
	"context"
	"errors"
	"os"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// timerfdPoller is a one-shot timerfd registered with the runtime's
// network poller: the dispatcher sleeps in a read of it, so the poller's
// epoll_wait ends exactly at the due time and readies the dispatcher
// itself. No Go timer is armed for the wait: a Go timer makes the poller
// sleep whole milliseconds (it wakes once before the due time and once
// more at it) and wakes the runtime's monitor thread at every expiry, two
// thread wake-ups per request at low rates that the read does not cost.
//
// Both system calls are raw, as the connections' are (internal/rawconn):
// a call through the runtime's system-call bookkeeping wakes the monitor
// thread whenever it sleeps, which at low rates is before every request.
// A stop ends a pending read through a read deadline in the past, set by
// a goroutine that watches the run's context and abort channel.
type timerfdPoller struct {
	fd     int
	f      *os.File // the same fd, registered with the poller
	raw    syscall.RawConn
	readFn func(fd uintptr) bool
	spec   unix.ItimerSpec
	armed  bool    // spec is set for the current wait
	buf    [8]byte // the expiration count each read consumes
	rerr   syscall.Errno

	// The watcher of the stop signals the current waits use.
	done    <-chan struct{} // the context's
	abort   <-chan struct{}
	quit    chan struct{} // closed to end the watcher
	watched chan struct{} // closed when the watcher has ended
}

func newPoller() poller {
	fd, err := unix.TimerfdCreate(unix.CLOCK_MONOTONIC, unix.TFD_NONBLOCK|unix.TFD_CLOEXEC)
	if err != nil {
		return nil
	}
	t := &timerfdPoller{fd: fd, f: os.NewFile(uintptr(fd), "vesload-timerfd")}
	raw, err := t.f.SyscallConn()
	if err != nil {
		t.f.Close()
		return nil
	}
	t.raw, t.readFn = raw, t.read
	return t
}

// read arms the timerfd on its first call and asks the poller to wait:
// the poller has forgotten any earlier readiness by then, and the expiry
// comes after the arming, so a read before it would only fail. Later
// calls consume the expiration count; false while it has not expired.
func (t *timerfdPoller) read(fd uintptr) bool {
	if !t.armed {
		t.armed = true
		if _, _, e := syscall.RawSyscall6(unix.SYS_TIMERFD_SETTIME, fd, 0,
			uintptr(unsafe.Pointer(&t.spec)), 0, 0, 0); e != 0 {
			t.rerr = e
			return true
		}
		return false
	}
	for {
		_, _, e := syscall.RawSyscall(syscall.SYS_READ, fd, uintptr(unsafe.Pointer(&t.buf[0])), uintptr(len(t.buf)))
		switch e {
		case syscall.EINTR:
			continue
		case syscall.EAGAIN:
			return false
		}
		t.rerr = e
		return true
	}
}

// sleep arms the timerfd d from now and blocks in its read until it
// expires (true) or a stop comes (false). An error means the timerfd
// cannot be used; the caller falls back to Go timers.
func (t *timerfdPoller) sleep(ctx context.Context, d time.Duration, abort <-chan struct{}) (bool, error) {
	t.watch(ctx, abort)
	// A zero value would disarm the timer, and the read would never end.
	t.spec.Value = unix.NsecToTimespec(max(int64(d), 1))
	t.rerr, t.armed = 0, false
	if err := t.raw.Read(t.readFn); err != nil {
		if errors.Is(err, os.ErrDeadlineExceeded) {
			return false, nil
		}
		return false, err
	}
	if t.rerr != 0 {
		return false, t.rerr
	}
	return true, nil
}

// watch makes sure a goroutine ends the pending read when ctx is done or
// abort is closed. The dispatcher passes the same two for a whole run,
// so the goroutine starts once; other signals replace it.
func (t *timerfdPoller) watch(ctx context.Context, abort <-chan struct{}) {
	done := ctx.Done()
	if t.quit != nil && t.done == done && t.abort == abort {
		return
	}
	t.stopWatching()
	_ = t.f.SetReadDeadline(time.Time{})
	t.done, t.abort = done, abort
	t.quit, t.watched = make(chan struct{}), make(chan struct{})
	go func(quit, watched chan struct{}) {
		defer close(watched)
		select {
		case <-done:
		case <-abort:
		case <-quit:
			return
		}
		_ = t.f.SetReadDeadline(time.Unix(1, 0)) // every read from now on fails at once
	}(t.quit, t.watched)
}

// stopWatching ends the watcher, if any, and waits for it.
func (t *timerfdPoller) stopWatching() {
	if t.quit == nil {
		return
	}
	close(t.quit)
	<-t.watched
	t.quit, t.watched = nil, nil
}

func (t *timerfdPoller) close() {
	t.stopWatching()
	t.f.Close()
}

// nanosleep blocks the thread for d: precise, but the runtime must hand
// the goroutine's processor to another thread meanwhile, so waits end in
// it only for their last milliseconds, and only when there is no timerfd.
func nanosleep(d time.Duration) {
	ts := unix.NsecToTimespec(int64(d))
	_ = unix.Nanosleep(&ts, nil)
}
