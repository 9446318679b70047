package main

import (
	"github.com/vesload/vesload/loadgen/observe"
	"github.com/vesload/vesload/report/threshold"
)

// parseAbortGates checks the --abort-on-fail gates (observe.ParseAbortGates).
func parseAbortGates(exprs []string) ([]threshold.Threshold, error) {
	gates, err := observe.ParseAbortGates(exprs)
	if err != nil {
		return nil, usageError{err}
	}
	return gates, nil
}
