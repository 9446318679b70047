package compare

import (
	"strings"
	"testing"
)

func TestParseGate(t *testing.T) {
	t.Parallel()
	tests := []struct {
		expr   string
		metric string
		op     string
		tol    float64
		kind   ToleranceKind
		better Direction
		canon  string
	}{
		{"p99<+10%", "p99", "<", 10, Relative, LowerIsBetter, "+10%"},
		{" P(99.9) <= + 2.5 % ", "p999", "<=", 2.5, Relative, LowerIsBetter, "+2.5%"},
		{"mean<+5%", "avg", "<", 5, Relative, LowerIsBetter, "+5%"},
		{"p50<+2ms", "p50", "<", 2, Absolute, LowerIsBetter, "+2ms"},
		{"p50<+1.5s", "p50", "<", 1500, Absolute, LowerIsBetter, "+1500ms"},
		{"p50<+500us", "p50", "<", 0.5, Absolute, LowerIsBetter, "+0.5ms"},
		{"error_rate<+0.5pp", "error_rate", "<", 0.5, Points, LowerIsBetter, "+0.5pp"},
		{"error_rate<+20%", "error_rate", "<", 20, Relative, LowerIsBetter, "+20%"},
		{"target_cpu_avg<+5pp", "target_cpu_avg", "<", 5, Points, LowerIsBetter, "+5pp"},
		{"rps>-5%", "rps", ">", 5, Relative, HigherIsBetter, "-5%"},
		{"rps>=-3/s", "rps", ">=", 3, Absolute, HigherIsBetter, "-3/s"},
		{"errors<+10", "errors", "<", 10, Absolute, LowerIsBetter, "+10"},
		{"e2e_p99<+10%", "e2e_p99", "<", 10, Relative, LowerIsBetter, "+10%"},
		{"hv.peak_mbps>-10%", "hv.peak_mbps", ">", 10, Relative, HigherIsBetter, "-10%"},
		{"delivery.lost<+0", "delivery.lost", "<", 0, Absolute, LowerIsBetter, "+0"},
		{"service_p99<+10%", "service_p99", "<", 10, Relative, LowerIsBetter, "+10%"},
	}
	for _, tc := range tests {
		g, err := ParseGate(tc.expr)
		if err != nil {
			t.Errorf("%q: %v", tc.expr, err)
			continue
		}
		if g.Metric != tc.metric || g.Op != tc.op || g.Tol != tc.tol || g.Kind != tc.kind || g.Better != tc.better {
			t.Errorf("%q = %+v", tc.expr, g)
		}
		if got := g.Tolerance(); got != tc.canon {
			t.Errorf("%q: tolerance %q, want %q", tc.expr, got, tc.canon)
		}
		if g.Expr != strings.TrimSpace(tc.expr) {
			t.Errorf("%q: expr %q", tc.expr, g.Expr)
		}
	}
}

func TestParseGateErrors(t *testing.T) {
	t.Parallel()
	tests := []struct{ expr, want string }{
		{"", `gate "": column 1: empty gate (want METRIC OP TOLERANCE, e.g. p99<+10%)`},
		{"p98<+10%", `gate "p98<+10%": column 1: unknown statistic "p98" (want avg, min, max, p50, p90, p95, p99, p999 or p(99.9))`},
		{"service_p98<+1%", `gate "service_p98<+1%": column 9: unknown statistic "p98" (want avg, min, max, p50, p90, p95, p99, p999 or p(99.9))`},
		{"p99<10%", `gate "p99<10%": column 5: expected '+' and a tolerance after "<", found "10%": a gate is relative to the baseline (p99<+10%); absolute limits are --threshold's`},
		{"p99>+10%", `gate "p99>+10%": column 4: operator ">" does not fit p99: it gets worse upwards, so write p99<+N% (at most N% worse than the baseline)`},
		{"rps<+10%", `gate "rps<+10%": column 4: operator "<" does not fit rps: it gets worse downwards, so write rps>-N% (at most N% worse than the baseline)`},
		{"p99 +10%", `gate "p99 +10%": column 5: expected < or <= after "p99", found "+10%"`},
		{"p99<+%", `gate "p99<+%": column 6: expected a number after "+", found "%"`},
		{"p99<+1.2.3%", `gate "p99<+1.2.3%": column 6: expected a number after "+", found "%"`},
		{"p99<+10", `gate "p99<+10": column 8: missing unit: p99 is a latency (want us, ms, s, m) (or % of the baseline)`},
		{"p99<+10pp", `gate "p99<+10pp": column 8: pp (percentage points) fits percentages such as error_rate, not p99 (want % or ms, us, s, m)`},
		{"error_rate<+1", `gate "error_rate<+1": column 13: give a unit: +1pp (percentage points: a baseline of 1% may become 2%) or +1% (of the baseline: 1% may become 1.01%)`},
		{"error_rate <= + 0.5", `gate "error_rate <= + 0.5": column 17: give a unit: +0.5pp (percentage points: a baseline of 1% may become 1.5%) or +0.5% (of the baseline: 1% may become 1.005%)`},
		{"error_rate<+0.5x", `gate "error_rate<+0.5x": column 16: unknown unit "x" for error_rate (want % of the baseline or pp, percentage points)`},
		{"p99<+10% x", `gate "p99<+10% x": column 10: unexpected "x" after the tolerance`},
		{"errors<+1ms", `gate "errors<+1ms": column 10: unexpected unit "ms" (errors is a count and takes no unit) (or % of the baseline)`},
	}
	for _, tc := range tests {
		_, err := ParseGate(tc.expr)
		if err == nil || err.Error() != tc.want {
			t.Errorf("%q:\n got  %v\n want %s", tc.expr, err, tc.want)
		}
	}
}

// FuzzParseGate: any input parses or is refused with a *GateError on one
// line, never a panic; a parsed gate written back in its canonical form
// parses to the same tolerance.
func FuzzParseGate(f *testing.F) {
	for _, s := range []string{"p99<+10%", "rps>=-3/s", "error_rate<+0.5pp", "mean<+2ms", "p(99.9)<=+1s", "hv.peak_mbps>-1%", "", "p99<+1.2.3%"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, expr string) {
		g, err := ParseGate(expr)
		if err != nil {
			var ge *GateError
			if !asGateError(err, &ge) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("%q: error %v is not a one-line *GateError", expr, err)
			}
			return
		}
		back, err := ParseGate(g.Metric + g.Op + g.Tolerance())
		if err != nil {
			t.Fatalf("%q: canonical %q does not parse: %v", expr, g.Metric+g.Op+g.Tolerance(), err)
		}
		if back.Tol != g.Tol || back.Kind != g.Kind || back.Metric != g.Metric {
			t.Fatalf("%q: canonical form parses to %+v, want %+v", expr, back, g)
		}
	})
}

func asGateError(err error, target **GateError) bool {
	ge, ok := err.(*GateError)
	*target = ge
	return ok
}

// TestLongGatesClipped: a gate's error line echoes at most a little of
// a long expression, with its length and the column of the mistake.
func TestLongGatesClipped(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("x", 100_000)
	tests := []struct{ expr, want string }{
		{long + "<+5%", `gate "` + strings.Repeat("x", 60) + `…" (100004 characters): column 1: unknown metric "` + strings.Repeat("x", 60) + `…"`},
		{"p99<+5% " + long, `gate "p99<+5% ` + strings.Repeat("x", 52) + `…" (100008 characters): column 9: unexpected "` + strings.Repeat("x", 60) + `…" after the tolerance`},
		{"p99<+5" + long, `gate "p99<+5` + strings.Repeat("x", 54) + `…" (100006 characters): column 7: unknown unit "` + strings.Repeat("x", 60) + `…" (want us, ms, s, m) (or % of the baseline)`},
	}
	for _, tt := range tests {
		_, err := ParseGate(tt.expr)
		if err == nil || err.Error() != tt.want {
			t.Errorf("ParseGate(%.40q…):\n got  %.300v\n want %s", tt.expr, err, tt.want)
		}
	}
}
