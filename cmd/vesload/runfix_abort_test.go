package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vesload/vesload/loadgen/observe"
	"github.com/vesload/vesload/report/result"
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

// A run stopped by --abort-on-fail says so, exits 3 and is not marked
// interrupted: interrupted is for signals.
func TestAbortIsNotAnInterrupt(t *testing.T) {
	gates, err := observe.ParseAbortGates([]string{"error_rate<5%"})
	if err != nil {
		t.Fatal(err)
	}
	stopped := false
	guard := observe.NewAbortGuard(gates, 1, func() { stopped = true }, func(string) {})
	sec := result.NewTally()
	for i := 0; i < 10; i++ {
		class := "http_503"
		if i < 2 {
			class = result.OutcomeOK
		}
		sec.Add(result.Outcome{Class: class, Latency: time.Millisecond})
	}
	guard.Timeline(result.Second{}, &sec)
	if !stopped {
		t.Fatal("the guard did not stop the run")
	}
	var stderr bytes.Buffer
	s := &runSetup{o: &runOptions{}, guard: guard, abortGates: gates, prog: newProgress(&stderr, true, time.Second),
		fillMeta: func(*result.Result) {}}
	res := &result.Result{Interrupted: true, Errors: map[string]int64{"http_503": 8},
		Requests: result.Requests{Scheduled: 10, Sent: 10, OK: 2}}
	var stdout bytes.Buffer
	code, err := s.finish(res, &stdout, &stderr)
	if err != nil || code != exitThreshold {
		t.Fatalf("exit %d err %v, want %d", code, err, exitThreshold)
	}
	if res.Interrupted {
		t.Error("an abort by --abort-on-fail is marked interrupted")
	}
	if res.AbortedBy != "error_rate<5%" {
		t.Errorf("aborted_by %q, want the gate", res.AbortedBy)
	}
	if strings.Contains(stdout.String(), "INTERRUPTED") || !strings.Contains(stdout.String(), "stopped early by --abort-on-fail: error_rate<5%") {
		t.Errorf("summary:\n%s", stdout.String())
	}
}
