package reporttest

import (
	"time"

	"github.com/vesload/vesload/report/format"
	"github.com/vesload/vesload/report/result"
)

// Capacity is a search against a collector that holds about 760/s: a
// climb from 100/s that breaks at 800/s on errors, a bisection, the
// boundary confirmed, the target's CPU sampled on all but one step, and
// a URL and an SLO carrying Markdown's and HTML's own characters.
func Capacity() *result.CapacityDocument {
	cpu := func(v float64) *float64 { return &v }
	started := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	step := func(n int, phase string, offered, achieved, p50, p99, errPct float64, pass bool) result.CapacityStep {
		s := result.CapacityStep{N: n, Phase: phase, OfferedRPS: offered, AchievedRPS: achieved,
			Requests: int64(achieved * 10), P50Ms: p50, P99Ms: p99, ErrorRatePct: errPct, Pass: pass,
			TargetCPUMaxPct: cpu(offered / 10), TookS: 12, SpentS: 12 * float64(n), BudgetS: 600}
		s.Decided = "p99<100ms: " + format.Ms(p99) + " ms"
		if !pass {
			s.Cause, s.Decided = result.CauseTarget, "error_rate<0.1%: 6.50%"
		}
		return s
	}
	steps := []result.CapacityStep{
		step(1, "climb", 100, 100, 2.1, 4.2, 0, true),
		step(2, "climb", 200, 199.9, 2.2, 4.9, 0, true),
		step(3, "climb", 400, 399.8, 2.4, 6.8, 0, true),
		step(4, "climb", 800, 761.2, 48, 310, 6.5, false),
		step(5, "bisect", 600, 599.7, 3.1, 12.5, 0, true),
		step(6, "bisect", 700, 699.5, 4.8, 24.1, 0, true),
		step(7, "bisect", 750, 749.2, 7.9, 61.3, 0.02, true),
		step(8, "confirm", 750, 749.4, 8.2, 66.8, 0.03, true),
		step(9, "confirm", 800, 758.9, 51, 340, 6.9, false),
	}
	steps[3].StoppedEarly = true
	steps[1].TargetCPUMaxPct = nil // a sample missed
	return &result.CapacityDocument{
		Schema: result.CapacitySchema, Tool: result.Tool{Name: "vesload", Version: "1.0.0"},
		Config: result.CapacityConfig{URL: "http://127.0.0.1:8080/eventListener/v7?a=<b>&c=|d|", StartRPS: 100, MaxRPS: 20000,
			StepS: 10, WarmupS: 2, PrecisionPct: 10, BudgetS: 600, SLOs: []string{"p99<100ms", "error_rate<0.1%"}, Pool: 64, TimeoutS: 5},
		Started: started, Ended: started.Add(108 * time.Second),
		Capacity: result.Capacity{MaxRPS: 750, FailRPS: 800, BrokenBy: "error_rate<0.1%: 6.50%", LimitedBy: result.CauseTarget,
			PrecisionPct: 6.67, AskedPrecisionPct: 10, Confirmed: true, SpentS: 108, BudgetS: 600, Steps: steps},
		Warnings: []string{"a <script>alert(1)</script> note"},
	}
}
