package report

import (
	"testing"

	"github.com/vesload/vesload/report/result"
)

func TestFailedGates(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		ts   []result.Threshold
		want string
	}{
		{"none failed", []result.Threshold{{Expr: "p99<500ms", Pass: true}}, ""},
		{"a value with its unit", []result.Threshold{{Expr: "p99<500ms", Value: 812, Unit: "ms"}, {Expr: "rps>1", Pass: true}}, "p99<500ms (812 ms)"},
		{"a value without a unit", []result.Threshold{{Expr: "ok>0", Value: 0}}, "ok>0 (0)"},
		{"a reason", []result.Threshold{{Expr: "ok>0", Value: 0}, {Expr: "cpu<80%", Reason: "not measured"}}, "ok>0 (0), cpu<80% (not measured)"},
	}
	for _, tt := range tests {
		if got := FailedGates(tt.ts); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
}
