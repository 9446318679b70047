package verdict

import (
	"slices"
	"strings"
	"testing"

	"github.com/vesload/vesload/report/result"
)

// A run over 1 % errors with no gate of its own says so: it exits 0.
func TestWarnUngatedErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		req   result.Requests
		gates int
		warn  string
	}{
		{"80% pool_exhausted, no gate", result.Requests{Scheduled: 500, Sent: 100, OK: 100, Errors: 400}, 0, "error rate 80.00% and no --threshold: the run passes (exit 0)"},
		{"just over 1%", result.Requests{Scheduled: 1000, Sent: 1000, OK: 989, Errors: 11}, 0, "error rate 1.10%"},
		{"exactly 1%", result.Requests{Scheduled: 1000, Sent: 1000, OK: 990, Errors: 10}, 0, ""},
		{"gated", result.Requests{Scheduled: 500, Sent: 100, OK: 100, Errors: 400}, 1, ""},
		{"nothing succeeded: the ok>0 gate speaks", result.Requests{Scheduled: 10, Sent: 10, Errors: 10}, 0, ""},
		{"nothing attempted", result.Requests{}, 0, ""},
		{"failed on a built-in rule", result.Requests{Scheduled: 500, Sent: 100, OK: 100, Errors: 400}, -1, ""},
	}
	for _, tc := range tests {
		res := &result.Result{Requests: tc.req}
		if tc.gates < 0 { // judged failed by a rule, not by a gate of the run's
			res.Thresholds, tc.gates = []result.Threshold{{Expr: "hv.disconnected==0", Kind: result.KindRule}}, 0
		}
		got := WarnUngatedErrors(res, tc.gates)
		if tc.warn == "" {
			if got != "" || len(res.Warnings) != 0 {
				t.Errorf("%s: warned %q", tc.name, got)
			}
			continue
		}
		if !strings.Contains(got, tc.warn) || !slices.Contains(res.Warnings, got) {
			t.Errorf("%s: warning %q (in result: %v), want %q", tc.name, got, res.Warnings, tc.warn)
		}
	}
}
