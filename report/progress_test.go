package report

import (
	"strings"
	"testing"
	"time"
)

// The live line names the window its percentiles cover and shows the
// schedule's own rate as the target; an HV-VES run's shows the data rate
// of the last second and the disconnected messages, not the pool.
func TestProgressLine(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		s, prev   Progress
		messages  bool
		want, not []string
	}{
		{name: "rest", s: Progress{Elapsed: 12 * time.Second, Total: time.Minute, RPS: 97, TargetRPS: 100,
			P50: 1300 * time.Millisecond, P99: 2 * time.Second, Window: 10, Errors: 3, PoolExhausted: 2},
			want: []string{"[12s/1m0s]", "97/s (target 100/s)", "p50 1300.00ms  p99 2000.00ms (last 10s)", "errors 3  pool exhausted 2"},
			not:  []string{"target cpu", "MB/s"}},
		{name: "target sampled", s: Progress{Elapsed: 1400 * time.Millisecond, Total: time.Minute, TargetCPU: 41.6, TargetSampled: true},
			want: []string{"[1s/1m0s]", "target cpu 42%"}},
		{name: "messages", s: Progress{Elapsed: 11 * time.Second, Total: time.Minute, BytesSent: 44.9e6, RPS: 600, TargetRPS: 600,
			Errors: 7, Disconnected: 5}, prev: Progress{Elapsed: 10 * time.Second, BytesSent: 40e6}, messages: true,
			want: []string{"600 msg/s (target 600/s)", "4.90 MB/s", "errors 7  disconnected 5"}, not: []string{"pool exhausted"}},
		{name: "messages, first second", s: Progress{BytesSent: 1e6}, messages: true, want: []string{"0.00 MB/s"}},
	}
	for _, tt := range tests {
		line := ProgressLine(&tt.s, &tt.prev, tt.messages)
		for _, w := range tt.want {
			if !strings.Contains(line, w) {
				t.Errorf("%s: line %q lacks %q", tt.name, line, w)
			}
		}
		for _, w := range tt.not {
			if strings.Contains(line, w) {
				t.Errorf("%s: line %q holds %q", tt.name, line, w)
			}
		}
	}
}
