package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"
)

// Every output path is checked before the load, so a bad folder costs
// nothing: one line, exit 2, and no traffic.
func TestOutputPathsCheckedBeforeTheRun(t *testing.T) {
	t.Parallel()
	for _, flag := range []string{"-o", "--html", "--junit", "--jtl", "--hdr-log", "--markdown", "--csv"} {
		o := vesload(t, 30*time.Second, "-duration", "3s", "-q", flag, "/nonexistent/x.out")
		if o.code != exitUsage {
			t.Errorf("%s: exit %d, want %d\nstderr: %s", flag, o.code, exitUsage, o.stderr)
			continue
		}
		if o.elapsed > 2*time.Second {
			t.Errorf("%s: failed after %v: the load ran before the check", flag, o.elapsed)
		}
		lines := strings.Split(strings.TrimSpace(o.stderr), "\n")
		if len(lines) != 1 || !strings.Contains(lines[0], flag+" /nonexistent/x.out") || !strings.Contains(lines[0], "/nonexistent") {
			t.Errorf("%s: stderr %q, want one line naming the flag and the folder", flag, o.stderr)
		}
	}
}

// vesload hv checks its output files before any message is sent, as run
// does.
func TestHVOutputPathsCheckedBeforeTheRun(t *testing.T) {
	t.Parallel()
	var stdout, stderr bytes.Buffer
	code := hvMain(context.Background(), []string{"--producers", "1", "--messages", "10", "--html", "/nonexistent/x.html"}, &stdout, &stderr)
	if code != exitUsage || !strings.Contains(stderr.String(), "--html /nonexistent/x.html") || strings.Count(stderr.String(), "\n") != 1 {
		t.Fatalf("exit %d, stderr %q: want exit 2 and one line naming --html", code, stderr.String())
	}
}
