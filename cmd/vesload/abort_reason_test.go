package main

import (
	"testing"

	"github.com/vesload/vesload/report/result"
)

func TestAbortReasonRounds(t *testing.T) {
	t.Parallel()
	tests := []struct {
		v    result.Threshold
		want string
	}{
		{result.Threshold{Expr: "error_rate<1%", Value: 49.9001996007984, Unit: "%"}, "error_rate<1% (49.90% over the last 10 s)"},
		{result.Threshold{Expr: "p99<500ms", Value: 812.3456789, Unit: "ms"}, "p99<500ms (812.35 ms over the last 10 s)"},
		{result.Threshold{Expr: "rps>=100", Value: 99.33333333, Unit: "/s"}, "rps>=100 (99.33/s over the last 10 s)"},
	}
	for _, tc := range tests {
		if got := abortReason(tc.v, 10); got != tc.want {
			t.Errorf("abortReason(%v) = %q, want %q", tc.v.Value, got, tc.want)
		}
	}
}
