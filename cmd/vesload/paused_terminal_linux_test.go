package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// openPty opens a pseudo-terminal: the master side the test reads and
// the slave side the run writes to, a terminal as a user's is.
func openPty(t *testing.T) (master, slave *os.File) {
	t.Helper()
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminal here: %v", err)
	}
	if err := unix.IoctlSetPointerInt(int(m.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		m.Close()
		t.Fatalf("unlock the pty: %v", err)
	}
	n, err := unix.IoctlGetInt(int(m.Fd()), unix.TIOCGPTN)
	if err != nil {
		m.Close()
		t.Fatalf("the pty's number: %v", err)
	}
	s, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		m.Close()
		t.Fatalf("open the pty's terminal: %v", err)
	}
	return m, s
}

// lockedBytes collects what the terminal showed.
type lockedBytes struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBytes) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBytes) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestPausedTerminalChangesNothing: a run on a terminal whose output is
// paused (tcflow(TCOOFF), what Ctrl-S or a stalled SSH session does) for
// most of the run sends every request on time: its live line waits, the
// run does not. 10 s at 200/s against the built-in emulator, paused from
// the 2nd to the 8th second.
func TestPausedTerminalChangesNothing(t *testing.T) {
	t.Parallel()
	master, slave := openPty(t)
	defer master.Close()
	var shown lockedBytes
	copied := make(chan struct{})
	go func() {
		defer close(copied)
		_, _ = io.Copy(&shown, master) // ends when the master is closed
	}()
	defer func() {
		master.Close()
		<-copied
	}()

	out := filepath.Join(t.TempDir(), "r.json")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, "-rps", "200", "-duration", "10s", "-o", out)
	cmd.Stdout, cmd.Stderr = slave, slave
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	slave.Close() // the child holds its own
	pause := func(action int) {
		t.Helper()
		// The terminal's side of the pty, opened again: tcflow acts on the
		// terminal, whoever holds it.
		n, err := unix.IoctlGetInt(int(master.Fd()), unix.TIOCGPTN)
		if err != nil {
			t.Fatal(err)
		}
		tty, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|unix.O_NOCTTY, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer tty.Close()
		if err := unix.IoctlSetInt(int(tty.Fd()), unix.TCXONC, action); err != nil {
			t.Fatalf("tcflow(%d): %v", action, err)
		}
	}
	time.Sleep(2 * time.Second) // the operating system's terminal, not logic
	pause(unix.TCOOFF)
	time.Sleep(6 * time.Second)
	pause(unix.TCOON)
	err := cmd.Wait()
	if ctx.Err() != nil {
		t.Fatalf("the run did not end within a minute\nterminal: %s", shown.String())
	}
	if ee, ok := err.(*exec.ExitError); ok && ee.ExitCode() != exitOK || err != nil && !ok {
		t.Fatalf("exit: %v\nterminal: %s", err, shown.String())
	}
	res := readResult(t, out)
	g := res.Generator
	t.Logf("sent %d, pool_exhausted %d, dispatch lag p99 %.2f ms, latency max %.1f ms, outputs lost %+v",
		res.Requests.Sent, res.Errors["pool_exhausted"], g.DispatchLagP99Ms, res.Latency.Max, res.Outputs)
	if res.Requests.Sent != 2000 || res.Errors["pool_exhausted"] != 0 {
		t.Errorf("sent %d, pool_exhausted %d; want all 2000 sent, none exhausted", res.Requests.Sent, res.Errors["pool_exhausted"])
	}
	if g.DispatchLagP99Ms >= 2 {
		// A busy machine excuses milliseconds, never the pause's seconds.
		if load, busy := busyMachine(); busy && g.DispatchLagP99Ms < 100 {
			t.Logf("dispatch lag p99 %.2f ms not judged: load average %.1f on %d cores, the machine did not run the generator on time",
				g.DispatchLagP99Ms, load, runtime.NumCPU())
			return
		}
		t.Errorf("dispatch lag p99 %.2f ms, want < 2 ms", g.DispatchLagP99Ms)
	}
}

// busyMachine reports whether more work waits for the CPUs than they
// can run (the one-minute load average above the number of cores): a
// dispatch lag of milliseconds then measures the machine, not the run.
func busyMachine() (load float64, busy bool) {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return 0, false
	}
	if _, err := fmt.Sscan(string(b), &load); err != nil {
		return 0, false
	}
	return load, load > float64(runtime.NumCPU())
}

// TestJTLReaderThatStopsLosesOnlyTheJTL: --jtl into a named pipe whose
// reader opened it and stopped reading. The run sends everything on
// time; the JTL's rows that never reached the pipe are counted, the
// result names the JTL with them, the summary says so in one line, and
// the run exits 1 once everything else is written.
func TestJTLReaderThatStopsLosesOnlyTheJTL(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	pipe := filepath.Join(dir, "rows.pipe")
	if err := unix.Mkfifo(pipe, 0o600); err != nil {
		t.Skipf("mkfifo not permitted here: %v", err)
	}
	// A reader that keeps the pipe open and reads nothing: the pipe's
	// buffer takes the first rows, then the JTL's writes wait.
	rd, err := os.OpenFile(pipe, os.O_RDONLY|unix.O_NONBLOCK, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	out := filepath.Join(dir, "r.json")
	o := vesload(t, 60*time.Second, "-rps", "200", "-duration", "3s", "--jtl", pipe, "-o", out, "-q")
	if o.code != 1 {
		t.Fatalf("exit %d, want 1\nstdout: %s\nstderr: %s", o.code, o.stdout, o.stderr)
	}
	res := readResult(t, out)
	if res.Requests.Sent != 600 || res.Errors["pool_exhausted"] != 0 {
		t.Errorf("sent %d, pool_exhausted %d; want all 600 sent", res.Requests.Sent, res.Errors["pool_exhausted"])
	}
	if len(res.Outputs) != 1 || res.Outputs[0].Name != "--jtl "+pipe || res.Outputs[0].Rows == 0 || res.Outputs[0].Error == "" {
		t.Fatalf("outputs lost %+v, want --jtl %s with its rows dropped and its error", res.Outputs, pipe)
	}
	if !strings.Contains(o.stdout, "Outputs incomplete: --jtl "+pipe+": ") {
		t.Errorf("the summary does not say the JTL is incomplete:\n%s", o.stdout)
	}
	t.Logf("JTL lost %d rows: %s", res.Outputs[0].Rows, res.Outputs[0].Error)
}
