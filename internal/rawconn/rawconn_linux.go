package rawconn

import (
	"io"
	"net"
	"os"
	"syscall"
	"unsafe"
)

// conn is a TCP connection whose reads and writes are raw system calls
// made inside the network poller's readiness loop.
type conn struct {
	*net.TCPConn
	raw syscall.RawConn

	// The buffer and outcome of the read or write in progress; the
	// callbacks are bound once so a call allocates nothing.
	rbuf    []byte
	rn      int
	rerr    syscall.Errno
	readFn  func(fd uintptr) bool
	wbuf    []byte
	wn      int
	wflags  uintptr // MSG_NOSIGNAL, and MSG_MORE while more data follows at once
	werr    syscall.Errno
	writeFn func(fd uintptr) bool
}

// Wrap returns c with raw-system-call reads and writes when c is a TCP
// connection, else c itself.
func Wrap(c net.Conn) net.Conn {
	tc, ok := c.(*net.TCPConn)
	if !ok {
		return c
	}
	raw, err := tc.SyscallConn()
	if err != nil {
		return c
	}
	s := &conn{TCPConn: tc, raw: raw}
	s.readFn = s.read
	s.writeFn = s.write
	return s
}

// read makes one read system call; false asks the poller to wait for
// readiness and call again.
func (c *conn) read(fd uintptr) bool {
	for {
		n, _, e := syscall.RawSyscall(syscall.SYS_READ, fd, uintptr(unsafe.Pointer(unsafe.SliceData(c.rbuf))), uintptr(len(c.rbuf)))
		switch e {
		case 0:
			c.rn = int(n)
			return true
		case syscall.EINTR:
			continue
		case syscall.EAGAIN:
			return false
		default:
			c.rerr = e
			return true
		}
	}
}

// write writes all of wbuf, waiting for the poller whenever the socket's
// buffer is full.
func (c *conn) write(fd uintptr) bool {
	for c.wn < len(c.wbuf) {
		rest := c.wbuf[c.wn:]
		n, _, e := syscall.RawSyscall6(syscall.SYS_SENDTO, fd, uintptr(unsafe.Pointer(unsafe.SliceData(rest))), uintptr(len(rest)), c.wflags, 0, 0)
		switch e {
		case 0:
			c.wn += int(n)
		case syscall.EINTR:
		case syscall.EAGAIN:
			return false
		default:
			c.werr = e
			return true
		}
	}
	return true
}

// Read implements net.Conn.
func (c *conn) Read(b []byte) (int, error) {
	if len(b) == 0 {
		return 0, nil
	}
	c.rbuf, c.rn, c.rerr = b, 0, 0
	err := c.raw.Read(c.readFn)
	c.rbuf = nil
	switch {
	case err != nil: // deadline, closed connection
		return 0, renamed(err, "read")
	case c.rerr != 0:
		return 0, c.opError("read", c.rerr)
	case c.rn == 0:
		return 0, io.EOF
	}
	return c.rn, nil
}

// Write implements net.Conn.
func (c *conn) Write(b []byte) (int, error) { return c.send(b, syscall.MSG_NOSIGNAL) }

// WriteMore writes b and, when more is set, tells the kernel that more
// data follows at once (MSG_MORE): it keeps b in the socket's buffer and
// sends it in one segment with what follows, until a write without more.
// A producer with messages queued behind this one writes them as a few
// large segments instead of one small segment (and one wake-up of the
// receiver) each.
func (c *conn) WriteMore(b []byte, more bool) (int, error) {
	if more {
		return c.send(b, syscall.MSG_NOSIGNAL|syscall.MSG_MORE)
	}
	return c.send(b, syscall.MSG_NOSIGNAL)
}

func (c *conn) send(b []byte, flags uintptr) (int, error) {
	c.wbuf, c.wn, c.wflags, c.werr = b, 0, flags, 0
	err := c.raw.Write(c.writeFn)
	c.wbuf = nil
	switch {
	case err != nil:
		return c.wn, renamed(err, "write")
	case c.werr != 0:
		return c.wn, c.opError("write", c.werr)
	}
	return c.wn, nil
}

// opError wraps a system call's error the way the net package does, so
// that classification by errors.Is sees the errno.
func (c *conn) opError(op string, e syscall.Errno) error {
	return &net.OpError{Op: op, Net: "tcp", Source: c.LocalAddr(), Addr: c.RemoteAddr(), Err: os.NewSyscallError(op, e)}
}

// renamed gives an error of the raw connection the operation name a
// net.Conn's own read or write would carry ("read", not "raw-read"), so
// that messages and their counts do not depend on the connection's kind.
func renamed(err error, op string) error {
	if oe, ok := err.(*net.OpError); ok {
		oe.Op = op
	}
	return err
}
