package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestEmulatorKilledEndsTheRun: the built-in emulator killed in the
// middle of a run ends it at once, with one line saying so and exit 1,
// instead of the schedule going on against nothing and the follower
// waiting out its grace for a broker that went with the emulator; the
// result names the emulator's end. Both commands that start it (run, hv)
// do.
func TestEmulatorKilledEndsTheRun(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name string
		args []string
	}{
		{"run", []string{"-rps", "50", "-duration", "30s"}},
		{"hv", []string{"hv", "--producers", "1", "--messages", "3000"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			out := filepath.Join(t.TempDir(), "r.json")
			ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
			defer cancel()
			p := startOnPty(t, ctx, append(c.args, "-o", out)...)
			kids := childrenOf(p.cmd.Process.Pid, "serve")
			if len(kids) != 1 {
				t.Fatalf("vesload %d has emulators %v, want one", p.cmd.Process.Pid, kids)
			}
			if err := syscall.Kill(kids[0], syscall.SIGKILL); err != nil {
				t.Fatal(err)
			}
			killed := time.Now()
			code := p.exitCode(t)
			took := time.Since(killed)
			p.hangUp()
			shown := p.shown.String()
			if code != exitRun {
				t.Fatalf("exit %d, want %d; terminal:\n%s", code, exitRun, shown)
			}
			if n := strings.Count(shown, "vesload: stopping: the built-in emulator exited (signal: killed)"); n != 1 || strings.Contains(shown, "waiting up to") {
				t.Errorf("%d lines say the emulator exited, want one and no wait; terminal:\n%s", n, shown)
			}
			if took > 10*time.Second {
				t.Errorf("ended %v after the emulator was killed, want within seconds", took)
			}
			raw, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			var doc struct {
				TargetExited string `json:"target_exited"`
				Interrupted  bool   `json:"interrupted"`
			}
			if err := json.Unmarshal(raw, &doc); err != nil || !strings.Contains(doc.TargetExited, "the built-in emulator exited") || doc.Interrupted {
				t.Errorf("result's target_exited %q, interrupted %v (%v); want the emulator's end, no signal", doc.TargetExited, doc.Interrupted, err)
			}
			t.Logf("ended %v after the kill: %s", took.Round(time.Millisecond), doc.TargetExited)
		})
	}
}
