package main

import (
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/vesload/vesload/internal/waitfor"
)

// ptyRun is the binary running on a pseudo-terminal, as on a jump host's
// SSH session.
type ptyRun struct {
	cmd    *exec.Cmd
	master *os.File
	shown  *lockedBytes
	copied chan struct{}
}

// startOnPty starts the binary with args, its stdout and stderr on a
// pseudo-terminal whose output the test reads, and waits until the live
// line shows that the run is going.
func startOnPty(t *testing.T, ctx context.Context, args ...string) *ptyRun {
	t.Helper()
	return startOnPtyUntil(t, ctx, "\r\033[K", args...)
}

// startOnPtyUntil is startOnPty waiting until the terminal shows marker.
func startOnPtyUntil(t *testing.T, ctx context.Context, marker string, args ...string) *ptyRun {
	t.Helper()
	master, slave := openPty(t)
	p := &ptyRun{master: master, shown: &lockedBytes{}, copied: make(chan struct{})}
	go func() {
		defer close(p.copied)
		_, _ = io.Copy(p.shown, master) // ends when the master is closed
	}()
	t.Cleanup(p.hangUp)
	p.cmd = exec.CommandContext(ctx, binary, args...)
	p.cmd.Stdout, p.cmd.Stderr = slave, slave
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	slave.Close() // the child holds its own
	if !waitfor.Ctx(ctx, 20*time.Millisecond, func() bool { return strings.Contains(p.shown.String(), marker) }) {
		t.Fatalf("no %q; terminal:\n%s", marker, p.shown.String())
	}
	return p
}

// hangUp closes the terminal's side, as sshd does when the session drops.
func (p *ptyRun) hangUp() {
	p.master.Close()
	<-p.copied
}

// exitCode waits for the run and returns its exit code.
func (p *ptyRun) exitCode(t *testing.T) int {
	t.Helper()
	err := p.cmd.Wait()
	if ee, ok := err.(*exec.ExitError); ok {
		if st, ok := ee.Sys().(syscall.WaitStatus); ok && st.Signaled() {
			t.Fatalf("killed by %v; terminal:\n%s", st.Signal(), p.shown.String())
		}
		return ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return 0
}

// TestHangUpRunGoesOnToItsEnd: a SIGHUP (the jump host's SSH session
// dropped) in the middle of a run lets it go on to its end: exit 0, the
// whole schedule sent, every file written, and the result names the
// terminal, whose lines were dropped, among the live views behind.
func TestHangUpRunGoesOnToItsEnd(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	out, jtl := filepath.Join(dir, "r.json"), filepath.Join(dir, "r.jtl")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	p := startOnPty(t, ctx, "-rps", "50", "-duration", "4s", "-o", out, "--jtl", jtl)
	if err := p.cmd.Process.Signal(syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	p.hangUp()
	if code := p.exitCode(t); code != exitOK {
		t.Fatalf("exit %d, want %d", code, exitOK)
	}
	res := readResult(t, out)
	if res.Requests.Sent != 200 || res.Interrupted {
		t.Errorf("sent %d, interrupted %v; want the whole schedule of 200", res.Requests.Sent, res.Interrupted)
	}
	if rows := readJTL(t, jtl); len(rows) != 201 {
		t.Errorf("JTL has %d rows, want a header and 200", len(rows))
	}
	var term *string
	for _, o := range res.Outputs {
		if o.Name == "terminal" && o.Live && strings.Contains(o.Error, "hung up (SIGHUP)") {
			s := o.Summary()
			term = &s
		}
	}
	if term == nil || res.OutputsIncomplete() {
		t.Fatalf("outputs lost %+v, want the terminal alone, a live view that hung up", res.Outputs)
	}
	t.Logf("result: %s", *term)
}

// TestHangUpDuringSetUp: a SIGHUP while the run is still being set up
// (the built-in emulator has started, its delivery follower is starting,
// no session exists yet) lets the run go on too: exit 0, the whole
// schedule sent, and the terminal named as hung up before the run.
func TestHangUpDuringSetUp(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), "r.json")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	p := startOnPtyUntil(t, ctx, "sending to the built-in VES collector emulator", "-rps", "50", "-duration", "2s", "-o", out)
	if err := p.cmd.Process.Signal(syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	p.hangUp()
	if code := p.exitCode(t); code != exitOK {
		t.Fatalf("exit %d, want %d", code, exitOK)
	}
	res := readResult(t, out)
	if res.Requests.Sent != 100 || res.Interrupted {
		t.Errorf("sent %d, interrupted %v; want the whole schedule of 100", res.Requests.Sent, res.Interrupted)
	}
	hung := false
	for _, o := range res.Outputs {
		hung = hung || (o.Name == "terminal" && strings.Contains(o.Error, "hung up (SIGHUP)"))
	}
	if !hung {
		t.Errorf("outputs lost %+v, want the terminal that hung up", res.Outputs)
	}
}

// TestQuitSavesTheResult: a SIGQUIT in the middle of a run stops it as an
// interrupt does, with the summary and the result written, and only then
// prints the goroutines as they were when it came.
func TestQuitSavesTheResult(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), "r.json")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	p := startOnPty(t, ctx, "-rps", "50", "-duration", "30s", "-o", out)
	if err := p.cmd.Process.Signal(syscall.SIGQUIT); err != nil {
		t.Fatal(err)
	}
	code := p.exitCode(t)
	p.hangUp()
	shown := p.shown.String()
	if code != exitInterrupted {
		t.Fatalf("exit %d, want %d; terminal:\n%s", code, exitInterrupted, shown)
	}
	res := readResult(t, out)
	if !res.Interrupted || res.Requests.Sent == 0 {
		t.Errorf("interrupted %v, sent %d; want an interrupted run's result", res.Interrupted, res.Requests.Sent)
	}
	summary, dump := strings.Index(shown, "Requests"), strings.Index(shown, "goroutine ")
	if summary < 0 || dump < summary || !strings.Contains(shown, "vesload: SIGQUIT: ") {
		t.Errorf("want the summary, then the goroutines; terminal:\n%s", shown)
	}
}
