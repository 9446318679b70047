package capacity

import (
	"github.com/vesload/vesload/internal/usage"
	"github.com/vesload/vesload/report/result"
	"github.com/vesload/vesload/report/result/metric"
	"github.com/vesload/vesload/report/threshold"
)

// Whole names the sections a step's runner adds to its window from the
// whole step, counted once at its end with the warm-up in them: HV-VES's
// own figures and, when the step follows its events into Kafka, their
// delivery (travel time, loss), which is how a receiver that queues is
// seen to fall behind. A gate on a section the steps do not carry cannot
// be judged.
type Whole struct {
	// HV says the steps are HV-VES runs (hv.written, hv.failed, …);
	// Receiver that the receiver is observed (hv.lost, hv.received).
	HV, Receiver bool
	// Delivery says each step follows its events (delivery.*, e2e_*).
	Delivery bool
}

// CheckSLOs refuses the gates a step cannot be judged by, naming the
// first, before any load is sent: a figure the run's samplers read (the
// registry's Sampled: resources, dispatch lag) is the whole run's, and one
// read from a section the steps do not carry (whole) says so when judged
// on a sample window. A gate on either would fail, or pass, unjudged.
func CheckSLOs(slos []threshold.Threshold, whole Whole) error {
	probe := sampleWindow(whole)
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
// has, and in the whole step's sections, so that a gate it cannot read
// says why.
func sampleWindow(whole Whole) *result.Result {
	sum := result.Summary{Count: 10, Min: 1, Avg: 1, P50: 1, P90: 1, P95: 1, P99: 1, P999: 1, Max: 1}
	r := &result.Result{Requests: result.Requests{Scheduled: 10, Sent: 10, OK: 10}, Errors: map[string]int64{},
		Latency: sum, Service: sum, DurationS: 1}
	r.RPS.Achieved = 10
	if whole.HV {
		r.HV = &result.HV{}
		r.HV.Sent.Written = 10
		if whole.Receiver {
			dup := int64(0)
			r.HV.Receiver = &result.HVReceiver{Received: 10, Duplicates: &dup}
		}
	}
	if whole.Delivery {
		r.Delivery = &result.Delivery{Expected: 10, Delivered: 10, E2E: sum, Consumed: sum}
	}
	return r
}
