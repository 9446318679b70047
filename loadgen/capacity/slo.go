package capacity

import (
	"github.com/vesload/vesload/internal/usage"
	"github.com/vesload/vesload/report/result"
	"github.com/vesload/vesload/report/result/metric"
	"github.com/vesload/vesload/report/threshold"
)

// CheckSLOs refuses the gates a step cannot be judged by, naming the
// first, before any load is sent: a figure the run's samplers read (the
// registry's Sampled: resources, dispatch lag) is the whole run's, and one
// read from a section a step's window has not (delivery, HV-VES) says so
// when judged on a sample window. A gate on either would fail, or pass,
// unjudged.
func CheckSLOs(slos []threshold.Threshold) error {
	probe := sampleWindow()
	for _, t := range slos {
		if m, ok := metric.Lookup(t.Metric); ok && m.Sampled {
			return usage.Errorf("SLO %s: %s is not measured per step; judge a step by latency, errors or rate", threshold.QuoteClipped(t.Expr), t.Metric)
		}
		if g := t.Eval(probe); g.Reason != "" {
			return usage.Errorf("SLO %s: %s is not measured per step: %s", threshold.QuoteClipped(t.Expr), t.Metric, g.Reason)
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
