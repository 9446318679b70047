package main

import (
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// An --abort-on-fail gate is judged on the whole run like a --threshold,
// so a run shorter than the abort window still fails on it.
func TestAbortGateJudgedOnWholeRun(t *testing.T) {
	t.Parallel()
	url, stop := startServe(t, "--error-rate", "0.5", "--seed", "7")
	defer stop()
	out := filepath.Join(t.TempDir(), "r.json")
	o := vesload(t, 30*time.Second, "-url", url+"/eventListener/v7", "-rps", "50", "-duration", "2s",
		"--abort-on-fail", "error_rate<5%", "-o", out, "-q")
	if o.code != exitThreshold {
		t.Fatalf("exit %d, want %d\nstdout: %s\nstderr: %s", o.code, exitThreshold, o.stdout, o.stderr)
	}
	res := readResult(t, out)
	found := false
	for _, th := range res.Thresholds {
		if strings.Contains(th.Expr, "error_rate<5%") && !th.Pass {
			found = true
		}
	}
	if !found {
		t.Fatalf("no failed error_rate<5%% gate in %+v", res.Thresholds)
	}
	if res.Interrupted || res.AbortedBy != "" {
		t.Errorf("interrupted %v aborted_by %q for a run that ran to its end", res.Interrupted, res.AbortedBy)
	}
	if !strings.Contains(o.stdout, "error_rate<5%") || !strings.Contains(o.stdout, "FAIL") {
		t.Errorf("summary does not list the failed gate:\n%s", o.stdout)
	}
}
