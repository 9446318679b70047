// Package proctest runs the real third-party servers that tests use
// (nginx, influxd, prometheus) as child processes on loopback: it finds
// the program or skips (or fails, when the test's VESLOAD_REQUIRE_* says
// it must run), starts it, and stops exactly that process, by its pid,
// when the test ends.
package proctest

import (
	"net"
	"os"
	"os/exec"
	"testing"
	"time"
)

// Need returns the path of program name, looking in $PATH and then in
// extra paths. When it is missing the test is skipped, or failed when
// the environment variable require is "1" (as CI sets it); install says
// how to get it.
func Need(tb testing.TB, name, require, install string, extra ...string) string {
	tb.Helper()
	if bin, err := exec.LookPath(name); err == nil {
		return bin
	}
	for _, p := range extra {
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	if os.Getenv(require) == "1" {
		tb.Fatalf("%s is required (%s=1) but not installed: %s", name, require, install)
	}
	tb.Skipf("%s not installed; %s to run this test", name, install)
	return ""
}

// Start starts cmd and, when the test ends, interrupts it and waits up to
// grace before killing it.
func Start(tb testing.TB, cmd *exec.Cmd, grace time.Duration) {
	tb.Helper()
	if err := cmd.Start(); err != nil {
		tb.Fatalf("start %s: %v", cmd.Path, err)
	}
	tb.Cleanup(func() {
		_ = cmd.Process.Signal(os.Interrupt)
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(grace):
			_ = cmd.Process.Kill()
			<-done
		}
	})
}

// FreePort returns a loopback TCP port that was free a moment ago.
func FreePort(tb testing.TB) int {
	tb.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}
