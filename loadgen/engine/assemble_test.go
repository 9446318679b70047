package engine

import (
	"strings"
	"testing"
	"time"

	"github.com/vesload/vesload/report/result"
)

func TestSaturationWarningSaysWhy(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		g    result.Generator
		want string
	}{
		{"busy generator", result.Generator{DispatchLagP99Ms: 12, CPUAvgPct: 180}, "latency includes the generator's own delay"},
		{"busy machine", result.Generator{DispatchLagP99Ms: 12, CPUAvgPct: 2}, "the machine did not run it on time"},
	}
	for _, tc := range tests {
		if got := saturationWarning(tc.g, 2); !strings.HasPrefix(got, "generator saturated: dispatch lag p99 12.00 ms") || !strings.Contains(got, tc.want) {
			t.Errorf("%s: %q, want it to say %q", tc.name, got, tc.want)
		}
	}
}

func TestPoolWarning(t *testing.T) {
	t.Parallel()
	got := poolWarning(397, 500, 4, 100*time.Millisecond)
	want := "the pool was the limit: 397 requests (79.4%) found none of the 4 connections free within --pool-wait 100ms"
	if !strings.HasPrefix(got, want) {
		t.Errorf("poolWarning = %q, want it to start %q", got, want)
	}
}
