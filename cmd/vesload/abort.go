package main

import (
	"strings"

	"github.com/vesload/vesload/report/threshold"
)

// parseAbortGates checks the --abort-on-fail gates: only figures known
// during a run (requests, errors, rates, latency) can be watched.
func parseAbortGates(exprs []string) ([]threshold.Threshold, error) {
	gates := make([]threshold.Threshold, 0, len(exprs))
	for _, e := range exprs {
		t, err := threshold.Parse(e)
		if err != nil {
			return nil, usagef("--abort-on-fail: %v", err)
		}
		if m := strings.ToLower(t.Metric); strings.Contains(m, "cpu") || strings.Contains(m, "rss") || strings.Contains(m, "lag") {
			return nil, usagef("--abort-on-fail %q: only request, error, rate and latency gates can be watched during a run", e)
		}
		gates = append(gates, t)
	}
	return gates, nil
}
