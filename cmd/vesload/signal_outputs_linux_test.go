package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/vesload/vesload/internal/waitfor"
)

// A stream output on a named pipe that nobody reads (--jtl, --hdr-log) is
// refused before any load, with one line naming the flag, instead of
// holding the run's set-up forever.
func TestStreamOnPipeWithoutReaderFailsBeforeTheLoad(t *testing.T) {
	t.Parallel()
	for _, flag := range []string{"--jtl", "--hdr-log"} {
		t.Run(flag, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			pipe := filepath.Join(dir, "out.pipe")
			if err := syscall.Mkfifo(pipe, 0o600); err != nil {
				t.Skipf("mkfifo not permitted here: %v", err)
			}
			res := filepath.Join(dir, "r.json")
			o := vesload(t, 30*time.Second, "-rps", "20", "-duration", "2s", "-q", flag, pipe, "-o", res)
			if o.code != exitRun || !strings.Contains(o.stderr, flag+": ") || !strings.Contains(o.stderr, "no reader on the named pipe") {
				t.Fatalf("exit %d, stderr: %s", o.code, o.stderr)
			}
			if _, err := os.Stat(res); err == nil {
				t.Error("a result was written although the run never started")
			}
		})
	}
}

// A signal while an output is stuck (an HTML report going to a named pipe
// whose reader opened it and reads nothing) still ends as a signal should:
// exit 130 at once, the summary printed, the result written, and the stuck
// report saved in the temporary folder, as the README says.
func TestSignalWhileAnOutputIsStuck(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	pipe := filepath.Join(dir, "report.pipe")
	if err := syscall.Mkfifo(pipe, 0o600); err != nil {
		t.Skipf("mkfifo not permitted here: %v", err)
	}
	// A reader that opens the pipe and never reads: the report (hundreds
	// of KiB) fills the pipe and the write blocks.
	rd, err := os.OpenFile(pipe, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	tmp := filepath.Join(dir, "tmp")
	if err := os.Mkdir(tmp, 0o700); err != nil {
		t.Fatal(err)
	}
	res := filepath.Join(dir, "r.json")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, "-rps", "20", "-duration", "1s", "-q", "-o", res, "--html", pipe)
	cmd.Env = overlayEnv(os.Environ(), []string{"TMPDIR=" + tmp})
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// The write is stuck once the pipe holds all it can.
	if !waitfor.Ctx(ctx, 20*time.Millisecond, func() bool {
		n, err := pipeBytes(rd)
		if err != nil {
			t.Fatal(err)
		}
		return n > 0 && pipeFull(rd, n)
	}) {
		t.Fatalf("the report never filled the pipe; stderr: %s", stderr.String())
	}
	signalled := time.Now()
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	err = cmd.Wait()
	took := time.Since(signalled)
	ee, ok := err.(*exec.ExitError)
	if !ok || ee.ExitCode() != exitInterrupted {
		t.Fatalf("exit %v, want %d; stderr: %s", err, exitInterrupted, stderr.String())
	}
	if took > 5*time.Second {
		t.Errorf("exited %v after the signal: the stuck write was waited out", took)
	}
	if !strings.Contains(stdout.String(), "Requests") {
		t.Errorf("no summary on stdout:\n%s", stdout.String())
	}
	readResult(t, res)
	saved, _ := filepath.Glob(filepath.Join(tmp, "vesload-html-*.html"))
	if len(saved) != 1 || !strings.Contains(stderr.String(), saved[0]) {
		t.Errorf("stuck HTML saved as %v; stderr: %s", saved, stderr.String())
	}
}

// pipeBytes is how many bytes wait in the pipe read through f.
func pipeBytes(f *os.File) (int, error) { return unix.IoctlGetInt(int(f.Fd()), unix.TIOCINQ) }

// pipeFull reports whether n waiting bytes fill the pipe read through f.
func pipeFull(f *os.File, n int) bool {
	size, err := unix.FcntlInt(f.Fd(), unix.F_GETPIPE_SZ, 0)
	return err == nil && n >= size
}
