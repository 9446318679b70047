package threshold

import (
	"testing"

	"github.com/vesload/vesload/report"
)

// result is a small run: 1000 attempted requests, 12 failed, target and
// generator sampled.
func result() *report.Result {
	return &report.Result{
		Schema:   report.Schema,
		Requests: report.Requests{Scheduled: 1002, Sent: 995, OK: 988, Errors: 12, NotSent: 2},
		Errors:   map[string]int64{"http_503": 5, "http_500": 1, "http_429": 1, "pool_exhausted": 5},
		RPS:      report.Rate{Target: 100, Achieved: 99.8},
		Latency:  report.Summary{Count: 1000, Min: 1, Avg: 4, P50: 3, P90: 6, P95: 8, P99: 12.5, P999: 40, Max: 55},
		Service:  report.Summary{Count: 995, Min: 0.9, Avg: 3, P50: 2.5, P90: 5, P95: 6, P99: 9, P999: 20, Max: 30},
		Target:   &report.Target{CPUAvgPct: 40, CPUMaxPct: 85, RSSMaxBytes: 600 << 20, Source: "pid:1"},
		Generator: report.Generator{CPUAvgPct: 5, CPUMaxPct: 12, RSSMaxBytes: 40 << 20,
			DispatchLagP50Ms: 0.01, DispatchLagP99Ms: 0.4, DispatchLagMaxMs: 3},
	}
}

func TestEval(t *testing.T) {
	t.Parallel()
	noTarget := result()
	noTarget.Target = nil
	noRSS := result()
	noRSS.Target.RSSMaxBytes = 0
	nothing := &report.Result{Schema: report.Schema}
	delivered := result()
	delivered.Delivery = &report.Delivery{Delivered: 950, Lost: 45, LostThoughAccepted: 40, Duplicates: 2,
		E2E: report.Summary{Count: 950, Avg: 30, P99: 1500, Max: 2500}, Consumed: report.Summary{Count: 950, P99: 1600}}
	dmaap := result()
	dmaap.Delivery = &report.Delivery{Delivered: 3, Consumed: report.Summary{Count: 3, P99: 700}}
	tests := []struct {
		expr   string
		r      *report.Result
		value  float64
		unit   string
		pass   bool
		reason string
	}{
		{"p99<500ms", result(), 12.5, "ms", true, ""},
		{"p99<0.01s", result(), 12.5, "ms", false, ""},
		{"p99<=12.5ms", result(), 12.5, "ms", true, ""},
		{"p99<12.5ms", result(), 12.5, "ms", false, ""},
		{"p(99.9)<50ms", result(), 40, "ms", true, ""},
		{"avg<4ms", result(), 4, "ms", false, ""},
		{"min>=1ms", result(), 1, "ms", true, ""},
		{"max<1m", result(), 55, "ms", true, ""},
		{"p50==3ms", result(), 3, "ms", true, ""},
		{"p90!=6ms", result(), 6, "ms", false, ""},
		{"p95>8000us", result(), 8, "ms", false, ""},
		{"service_p99<10ms", result(), 9, "ms", true, ""},
		{"service_max<10ms", result(), 30, "ms", false, ""},
		{"dispatch_lag_p99<1ms", result(), 0.4, "ms", true, ""},
		{"dispatch_lag_max<1ms", result(), 3, "ms", false, ""},
		{"error_rate<1.5%", result(), 1.2, "%", true, ""},
		{"error_rate<0.01", result(), 1.2, "%", false, ""},
		{"errors<=12", result(), 12, "", true, ""},
		{"errors.pool_exhausted==0", result(), 5, "", false, ""},
		{"errors.http_503<10", result(), 5, "", true, ""},
		{"errors.http_5xx<6", result(), 6, "", false, ""},
		{"errors.http_4xx==1", result(), 1, "", true, ""},
		{"errors.timeout==0", result(), 0, "", true, ""},
		{"rps>=99.5", result(), 99.8, "/s", true, ""},
		{"sent>=1000", result(), 995, "", false, ""},
		{"not_sent==0", result(), 2, "", false, ""},
		{"scheduled==1002", result(), 1002, "", true, ""},
		{"ok>980", result(), 988, "", true, ""},
		{"target_cpu_max<80", result(), 85, "%", false, ""},
		{"target_cpu_avg<50%", result(), 40, "%", true, ""},
		{"target_rss_max<1GiB", result(), 600 << 20, "B", true, ""},
		{"target_rss_max<600MB", result(), 600 << 20, "B", false, ""},
		{"generator_cpu_max<90", result(), 12, "%", true, ""},
		{"generator_cpu_avg<1", result(), 5, "%", false, ""},
		{"generator_rss_max<32MiB", result(), 40 << 20, "B", false, ""},
		{"target_cpu_max<80", noTarget, 0, "%", false, "the target was not sampled"},
		{"target_rss_max<1GB", noTarget, 0, "B", false, "the target was not sampled"},
		{"target_rss_max<1GB", noRSS, 0, "B", false, "the target's memory was not sampled"},
		{"p99<5ms", nothing, 0, "ms", false, "no latency was recorded"},
		{"service_p99<5ms", nothing, 0, "ms", false, "no service time was recorded"},
		{"error_rate<1%", nothing, 0, "%", false, "no requests were attempted"},
		{"errors==0", nothing, 0, "", true, ""},
		{"p99<5ms", nil, 0, "ms", false, "no result to check"},
		{"delivery.lost==0", delivered, 45, "", false, ""},
		{"delivery.lost_though_accepted<50", delivered, 40, "", true, ""},
		{"delivery.duplicates==0", delivered, 2, "", false, ""},
		{"delivery.delivered>=950", delivered, 950, "", true, ""},
		{"e2e_p99<2s", delivered, 1500, "ms", true, ""},
		{"e2e_max<2s", delivered, 2500, "ms", false, ""},
		{"e2e_p99<500ms", dmaap, 700, "ms", false, ""},
		{"delivery.lost==0", result(), 0, "", false, "delivery was not followed (--consume)"},
		{"e2e_p99<2s", result(), 0, "ms", false, "delivery was not followed (--consume)"},
	}
	for _, tc := range tests {
		t.Run(tc.expr, func(t *testing.T) {
			t.Parallel()
			th, err := Parse(tc.expr)
			if err != nil {
				t.Fatal(err)
			}
			got := th.Eval(tc.r)
			want := report.Threshold{Expr: tc.expr, Value: tc.value, Unit: tc.unit, Pass: tc.pass, Reason: tc.reason}
			if got != want {
				t.Errorf("Eval = %+v\n want %+v", got, want)
			}
		})
	}
}

func TestEvalHandBuiltThreshold(t *testing.T) {
	t.Parallel()
	got := Threshold{Metric: "p99", Op: LT, Value: 20}.Eval(result())
	if got.Expr != "p99<20ms" || !got.Pass {
		t.Errorf("Eval = %+v, want expr p99<20ms passing", got)
	}
	bad := Threshold{Metric: "bogus", Op: LT, Value: 1}.Eval(result())
	if bad.Pass || bad.Reason == "" {
		t.Errorf("unknown metric evaluated to %+v, want a failure with a reason", bad)
	}
	badOp := Threshold{Metric: "p99", Op: "~", Value: 1}.Eval(result())
	if badOp.Pass {
		t.Errorf("unknown operator passed: %+v", badOp)
	}
}

func TestEvalAllAndPassed(t *testing.T) {
	t.Parallel()
	ts, err := ParseAll([]string{"p99<500ms", "errors==0", "target_cpu_max<90"})
	if err != nil {
		t.Fatal(err)
	}
	out := EvalAll(ts, result())
	if len(out) != 3 || out[0].Expr != "p99<500ms" || out[1].Expr != "errors==0" {
		t.Fatalf("EvalAll = %+v, want the gates in order", out)
	}
	if Passed(out) {
		t.Errorf("Passed = true with errors==0 failing")
	}
	if !Passed(EvalAll([]Threshold{ts[0], ts[2]}, result())) {
		t.Errorf("Passed = false with every gate passing")
	}
	if !Passed(nil) {
		t.Errorf("Passed(nil) = false, want true: no gate failed")
	}
}
