package threshold

import (
	"testing"

	"github.com/vesload/vesload/report/result"
)

// sampleRun is a small run: 1000 attempted requests, 12 failed, target and
// generator sampled.
func sampleRun() *result.Result {
	return &result.Result{
		Schema:   result.Schema,
		Requests: result.Requests{Scheduled: 1002, Sent: 995, OK: 988, Errors: 12, NotSent: 2},
		Errors:   map[string]int64{"http_503": 5, "http_500": 1, "http_429": 1, "pool_exhausted": 5},
		RPS:      result.Rate{Target: 100, Achieved: 99.8},
		Latency:  result.Summary{Count: 1000, Min: 1, Avg: 4, P50: 3, P90: 6, P95: 8, P99: 12.5, P999: 40, Max: 55},
		Service:  result.Summary{Count: 995, Min: 0.9, Avg: 3, P50: 2.5, P90: 5, P95: 6, P99: 9, P999: 20, Max: 30},
		Target:   &result.Target{CPUAvgPct: 40, CPUMaxPct: 85, RSSMaxBytes: 600 << 20, Source: "pid:1"},
		Generator: result.Generator{CPUAvgPct: 5, CPUMaxPct: 12, RSSMaxBytes: 40 << 20,
			DispatchLagP50Ms: 0.01, DispatchLagP99Ms: 0.4, DispatchLagMaxMs: 3},
	}
}

func TestEval(t *testing.T) {
	t.Parallel()
	noTarget := sampleRun()
	noTarget.Target = nil
	noRSS := sampleRun()
	noRSS.Target.RSSMaxBytes = 0
	nothing := &result.Result{Schema: result.Schema}
	delivered := sampleRun()
	delivered.Delivery = &result.Delivery{Delivered: 950, Lost: 45, LostThoughAccepted: 40, Duplicates: 2,
		E2E: result.Summary{Count: 950, Avg: 30, P99: 1500, Max: 2500}, Consumed: result.Summary{Count: 950, P99: 1600}}
	dmaap := sampleRun()
	dmaap.Delivery = &result.Delivery{Delivered: 3, Consumed: result.Summary{Count: 3, P99: 700}}
	tests := []struct {
		expr   string
		r      *result.Result
		value  float64
		unit   string
		pass   bool
		reason string
	}{
		{"p99<500ms", sampleRun(), 12.5, "ms", true, ""},
		{"p99<0.01s", sampleRun(), 12.5, "ms", false, ""},
		{"p99<=12.5ms", sampleRun(), 12.5, "ms", true, ""},
		{"p99<12.5ms", sampleRun(), 12.5, "ms", false, ""},
		{"p(99.9)<50ms", sampleRun(), 40, "ms", true, ""},
		{"avg<4ms", sampleRun(), 4, "ms", false, ""},
		{"min>=1ms", sampleRun(), 1, "ms", true, ""},
		{"max<1m", sampleRun(), 55, "ms", true, ""},
		{"p50==3ms", sampleRun(), 3, "ms", true, ""},
		{"p90!=6ms", sampleRun(), 6, "ms", false, ""},
		{"p95>8000us", sampleRun(), 8, "ms", false, ""},
		{"service_p99<10ms", sampleRun(), 9, "ms", true, ""},
		{"service_max<10ms", sampleRun(), 30, "ms", false, ""},
		{"dispatch_lag_p99<1ms", sampleRun(), 0.4, "ms", true, ""},
		{"dispatch_lag_max<1ms", sampleRun(), 3, "ms", false, ""},
		{"error_rate<1.5%", sampleRun(), 1.2, "%", true, ""},
		{"error_rate<1%", sampleRun(), 1.2, "%", false, ""},
		{"errors<=12", sampleRun(), 12, "", true, ""},
		{"errors.pool_exhausted==0", sampleRun(), 5, "", false, ""},
		{"errors.http_503<10", sampleRun(), 5, "", true, ""},
		{"errors.http_5xx<6", sampleRun(), 6, "", false, ""},
		{"errors.http_4xx==1", sampleRun(), 1, "", true, ""},
		{"errors.timeout==0", sampleRun(), 0, "", true, ""},
		{"rps>=99.5", sampleRun(), 99.8, "/s", true, ""},
		{"sent>=1000", sampleRun(), 995, "", false, ""},
		{"not_sent==0", sampleRun(), 2, "", false, ""},
		{"scheduled==1002", sampleRun(), 1002, "", true, ""},
		{"ok>980", sampleRun(), 988, "", true, ""},
		{"target_cpu_max<80", sampleRun(), 85, "%", false, ""},
		{"target_cpu_avg<50%", sampleRun(), 40, "%", true, ""},
		{"target_rss_max<1GiB", sampleRun(), 600 << 20, "B", true, ""},
		{"target_rss_max<600MB", sampleRun(), 600 << 20, "B", false, ""},
		{"generator_cpu_max<90", sampleRun(), 12, "%", true, ""},
		{"generator_cpu_avg<1", sampleRun(), 5, "%", false, ""},
		{"generator_rss_max<32MiB", sampleRun(), 40 << 20, "B", false, ""},
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
		{"delivery.lost==0", sampleRun(), 0, "", false, "delivery was not followed (--consume)"},
		{"e2e_p99<2s", sampleRun(), 0, "ms", false, "delivery was not followed (--consume)"},
	}
	for _, tc := range tests {
		t.Run(tc.expr, func(t *testing.T) {
			t.Parallel()
			th, err := Parse(tc.expr)
			if err != nil {
				t.Fatal(err)
			}
			got := th.Eval(tc.r)
			want := result.Threshold{Expr: tc.expr, Value: tc.value, Unit: tc.unit, Pass: tc.pass, Reason: tc.reason}
			if got != want {
				t.Errorf("Eval = %+v\n want %+v", got, want)
			}
		})
	}
}

func TestEvalHandBuiltThreshold(t *testing.T) {
	t.Parallel()
	got := Threshold{Metric: "p99", Op: LT, Value: 20}.Eval(sampleRun())
	if got.Expr != "p99<20ms" || !got.Pass {
		t.Errorf("Eval = %+v, want expr p99<20ms passing", got)
	}
	bad := Threshold{Metric: "bogus", Op: LT, Value: 1}.Eval(sampleRun())
	if bad.Pass || bad.Reason == "" {
		t.Errorf("unknown metric evaluated to %+v, want a failure with a reason", bad)
	}
	badOp := Threshold{Metric: "p99", Op: "~", Value: 1}.Eval(sampleRun())
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
	out := EvalAll(ts, sampleRun())
	if len(out) != 3 || out[0].Expr != "p99<500ms" || out[1].Expr != "errors==0" {
		t.Fatalf("EvalAll = %+v, want the gates in order", out)
	}
	if Passed(out) {
		t.Errorf("Passed = true with errors==0 failing")
	}
	if !Passed(EvalAll([]Threshold{ts[0], ts[2]}, sampleRun())) {
		t.Errorf("Passed = false with every gate passing")
	}
	if !Passed(nil) {
		t.Errorf("Passed(nil) = false, want true: no gate failed")
	}
}
