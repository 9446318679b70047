package main

import (
	"strings"
	"testing"
	"time"

	"github.com/vesload/vesload/loadgen"
)

// The live line names the window its percentiles cover and shows the
// schedule's own rate as the target.
func TestProgressLineSaysItsWindow(t *testing.T) {
	t.Parallel()
	line := formatProgress(&loadgen.Progress{Elapsed: 12 * time.Second, Total: time.Minute, RPS: 97, TargetRPS: 100,
		P50: 1300 * time.Millisecond, P99: 2 * time.Second})
	for _, want := range []string{"[12s/1m0s]", "97/s (target 100/s)", "p50 1300.0ms  p99 2000.0ms (last 10s)"} {
		if !strings.Contains(line, want) {
			t.Errorf("line %q lacks %q", line, want)
		}
	}
}
