package capacity

import (
	"github.com/vesload/vesload/report/result"
	"github.com/vesload/vesload/report/threshold"
)

// minEarly is how many requests a step must have measured before it may
// be stopped early: a handful of slow first answers is not a verdict.
const minEarly = 20

// Clearly reports the SLO a step has already failed beyond doubt, from
// its measured seconds so far (sofar) and the requests its measured part
// plans in all: a runner calls it each second to stop a failing step
// early and spend the budget where the boundary is. A gate on errors is
// lost for good once the errors so far break it even if every request
// still due succeeds; any other upper bound once the figure so far is
// twice its limit.
func Clearly(slos []threshold.Threshold, sofar *result.Result, planned int64) (result.Threshold, bool) {
	if sofar == nil || sofar.Attempted() < minEarly {
		return result.Threshold{}, false
	}
	for _, t := range slos {
		g := t.Eval(sofar)
		if g.Pass || g.Reason != "" || (t.Op != threshold.LT && t.Op != threshold.LE) {
			continue
		}
		switch {
		case t.Metric == "error_rate":
			best := 100 * float64(sofar.Requests.Errors) / float64(max(planned, sofar.Attempted()))
			if !holds(t.Op, best, t.Value) {
				return g, true
			}
		case t.Metric == "errors" || len(t.Metric) > 7 && t.Metric[:7] == "errors.":
			return g, true // counts only grow
		case t.Value > 0 && g.Value >= 2*t.Value:
			return g, true
		}
	}
	return result.Threshold{}, false
}

// holds reports whether v keeps an upper bound (< or <=) at limit.
func holds(op threshold.Op, v, limit float64) bool {
	if op == threshold.LE {
		return v <= limit
	}
	return v < limit
}
