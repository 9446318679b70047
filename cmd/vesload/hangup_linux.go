package main

import (
	"bytes"
	"os"
	"os/signal"
	"sync/atomic"
	"syscall"

	"golang.org/x/sys/unix"
)

// dropTerminal detaches the process from a terminal that hung up: each of
// stdout and stderr that is a terminal is pointed at a pipe whose lines
// are counted and thrown away (a file or a pipe keeps what it gets), and
// a write to a pipe whose reader went with the terminal fails instead of
// killing the run (SIGPIPE ignored). The children, which print through
// the process, go quiet with it. It returns the count of lines dropped.
func dropTerminal() (dropped func() int64) {
	signal.Ignore(syscall.SIGPIPE)
	var lines atomic.Int64
	count := func() int64 { return lines.Load() }
	var ttys []int
	for _, fd := range []int{1, 2} {
		if _, err := unix.IoctlGetTermios(fd, unix.TCGETS); err == nil {
			ttys = append(ttys, fd)
		}
	}
	if len(ttys) == 0 {
		return count
	}
	r, w, err := os.Pipe()
	if err != nil {
		return count
	}
	for _, fd := range ttys {
		_ = unix.Dup3(int(w.Fd()), fd, 0) // a failure leaves the write's error to the writer
	}
	_ = w.Close() // fds 1 and 2 hold the pipe now
	go func() {   // until the process exits
		buf := make([]byte, 32<<10)
		for {
			n, err := r.Read(buf)
			lines.Add(int64(bytes.Count(buf[:n], []byte{'\n'})))
			if err != nil {
				return
			}
		}
	}()
	return count
}
