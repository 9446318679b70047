package sample

import (
	"os"
	"strings"
	"testing"
)

// TestTarget: one primary source at most, PromQL queries beside it or
// alone, and every bad option named.
func TestTarget(t *testing.T) {
	t.Parallel()
	self := int32(os.Getpid())
	tests := []struct {
		name    string
		o       TargetOptions
		source  string // "" for no sampler
		wantErr string
	}{
		{"nothing", TargetOptions{}, "", ""},
		{"a process", TargetOptions{PIDs: []int32{self}}, "pid:", ""},
		{"an endpoint", TargetOptions{MetricsURL: "http://127.0.0.1:1/metrics"}, "http://127.0.0.1:1/metrics", ""},
		{"PromQL alone", TargetOptions{PromURL: "http://127.0.0.1:1", PromQueries: []string{"cpu=rate(x[1m])"}}, "127.0.0.1:1", ""},
		{"both sources", TargetOptions{PIDs: []int32{self}, MetricsURL: "http://h/metrics"}, "", "--target-metrics: choose either"},
		{"a bad pid", TargetOptions{PIDs: []int32{0}}, "", "--target-pid 0: want a process id"},
		{"a query without a server", TargetOptions{PromQueries: []string{"cpu=x"}}, "", "--prom-url and --prom-query go together"},
		{"a server without a query", TargetOptions{PromURL: "http://h"}, "", "--prom-url and --prom-query go together"},
		{"a query without a name", TargetOptions{PromURL: "http://h", PromQueries: []string{"=x"}}, "", `--prom-query "=x": want NAME=PROMQL`},
	}
	for _, tt := range tests {
		s, err := Target(tt.o)
		if tt.wantErr != "" {
			if err == nil || !strings.HasPrefix(err.Error(), tt.wantErr) {
				t.Errorf("%s: %v, want %q", tt.name, err, tt.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		if (s == nil) != (tt.source == "") || (s != nil && !strings.Contains(s.Source(), tt.source)) {
			got := "none"
			if s != nil {
				got = s.Source()
			}
			t.Errorf("%s: sampler %s, want one of %q", tt.name, got, tt.source)
		}
	}
}
