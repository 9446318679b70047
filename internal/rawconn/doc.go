// Package rawconn gives TCP connections reads and writes that do not enter
// the Go runtime's system-call bookkeeping.
//
// A net.Conn reads and writes through syscall.Syscall, which lends the
// goroutine's processor out for the duration of the call. On loopback a
// write runs the peer's TCP receive path inline and lasts long enough for
// the runtime's monitor thread to take the processor back and start
// another thread to run it; at a few thousand requests per second on one
// core that hand-off, the thread switches it causes and the monitor's
// 20 µs polling that it keeps alive cost more CPU than the request itself
// (bench/README.md, "Design choices the figures forced").
//
// Wrap replaces those calls with raw ones made inside the network poller's
// readiness loop (syscall.RawConn). The socket is non-blocking, so a raw
// call never blocks: when it would, the poller parks the goroutine exactly
// as it does for any connection, and deadlines, Close and the error values
// behave as the net package's own. Elsewhere than Linux Wrap returns the
// connection unchanged.
package rawconn

// MoreWriter is a connection that can be told that more data follows its
// write at once, so that the kernel sends both in one segment: a
// connection of Wrap's on Linux is one.
type MoreWriter interface {
	WriteMore(b []byte, more bool) (int, error)
}
