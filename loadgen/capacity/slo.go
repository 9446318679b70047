package capacity

import (
	"strings"

	"github.com/vesload/vesload/internal/usage"
	"github.com/vesload/vesload/report/result"
	"github.com/vesload/vesload/report/threshold"
)

// notPerStep are the metric families a step's window does not measure:
// the target's and the generator's resources and the dispatch lag come
// from samplers of the whole run, delivery and HV-VES from sections a
// step does not have. A gate on them would fail, or pass, unjudged.
var notPerStep = []string{"target_", "generator_", "dispatch_lag", "delivery.", "e2e_", "hv."}

// CheckSLOs refuses the gates a step cannot be judged by, naming the
// first, before any load is sent.
func CheckSLOs(slos []threshold.Threshold) error {
	probe := sampleWindow()
	for _, t := range slos {
		for _, p := range notPerStep {
			if strings.HasPrefix(t.Metric, p) {
				return usage.Errorf("SLO %s: %s is not measured per step; judge a step by latency, errors or rate", threshold.QuoteClipped(t.Expr), t.Metric)
			}
		}
		if g := t.Eval(probe); g.Reason != "" {
			return usage.Errorf("SLO %s: cannot be judged on a step: %s", threshold.QuoteClipped(t.Expr), g.Reason)
		}
	}
	return nil
}

// sampleWindow is a step's window with a figure in every field a window
// has, so that a gate it cannot read says why.
func sampleWindow() *result.Result {
	r := &result.Result{Requests: result.Requests{Scheduled: 10, Sent: 10, OK: 10}, Errors: map[string]int64{},
		Latency: result.Summary{Count: 10, Min: 1, Avg: 1, P50: 1, P90: 1, P95: 1, P99: 1, P999: 1, Max: 1},
		Service: result.Summary{Count: 10, Min: 1, Avg: 1, P50: 1, P90: 1, P95: 1, P99: 1, P999: 1, Max: 1}, DurationS: 1}
	r.RPS.Achieved = 10
	return r
}
