//go:build linux

package resultfile

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// A write through a named pipe whose reader takes nothing ends as soon as
// its context does (a signal at the end of a run), not after
// throughWriteIdle: once the pipe is full and the writer blocked, the
// context is cancelled and WriteFileContext returns at once, saying why.
func TestWriteFileContextEndsABlockedWrite(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "stuck.fifo")
	mkfifo(t, path)
	rd, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	ctx, cancel := context.WithCancelCause(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- WriteFileContext(ctx, path, renderText(strings.Repeat("x", 4<<20)))
	}()
	// The pipe is full when what waits in it stops growing at the pipe's
	// size: the writer is then blocked in its write.
	size, err := unix.FcntlInt(rd.Fd(), unix.F_GETPIPE_SZ, 0)
	if err != nil {
		t.Fatal(err)
	}
	for {
		n, err := unix.IoctlGetInt(int(rd.Fd()), unix.TIOCINQ)
		if err != nil {
			t.Fatal(err)
		}
		if n >= size {
			break
		}
		select {
		case err := <-done:
			t.Fatalf("WriteFileContext returned before the pipe was full: %v", err)
		case <-time.After(time.Millisecond):
		}
	}
	cancel(errors.New("interrupted"))
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "stopped while writing") || !strings.Contains(err.Error(), "interrupted") {
			t.Errorf("WriteFileContext after the cancel = %v, want a stop naming the cause", err)
		}
	case <-time.After(throughWriteIdle / 2):
		t.Fatal("a blocked write outlived its context")
	}
}
