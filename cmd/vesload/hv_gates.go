package main

import (
	"fmt"
	"slices"

	"github.com/vesload/vesload/report/result"
	"github.com/vesload/vesload/report/threshold"
)

// checkHVOutcome adds the gates an HV-VES run fails without any threshold
// of its own: nothing written (ok>0, as for REST runs), messages lost to
// a disconnect, and, where the receiver was observed, nothing received or
// messages it dropped. Each comes with a warning; --allow-errors lets the
// run pass with the warnings kept. A gate the user already set on the
// same metric is left to decide.
func checkHVOutcome(res *result.Result, allowErrors bool) {
	checkSomeSuccess(res, allowErrors)
	hv := res.HV
	if hv == nil {
		return
	}
	add := func(expr, warning string) {
		res.Warnings = append(res.Warnings, warning)
		if allowErrors {
			return
		}
		g, err := threshold.Parse(expr)
		if err != nil {
			panic("the built-in gate " + expr + " does not parse: " + err.Error()) // a programming error
		}
		if slices.ContainsFunc(res.Thresholds, func(t result.Threshold) bool { return gateMetric(t.Expr) == g.Metric }) {
			return
		}
		res.Thresholds = append(res.Thresholds, g.Eval(res))
	}
	fails := " the run fails (exit 3) unless --allow-errors is given"
	if dc := hv.NotSentBy[result.ClassDisconnected]; dc > 0 {
		add("hv.disconnected==0", fmt.Sprintf("%d of the %d messages scheduled fell due while their producer had no connection"+
			" and were never sent (counted as errors, class disconnected):%s", dc, hv.Sent.Scheduled, fails))
	}
	rc := hv.Receiver
	if rc == nil {
		return
	}
	if rc.Received == 0 && hv.Sent.Written > 0 {
		add("hv.received>0", fmt.Sprintf("the receiver (%s) received none of the %d messages written (plain TCP to a TLS listener,"+
			" or the wrong port?):%s", rc.Source, hv.Sent.Written, fails))
	}
	var dropped int64
	for _, n := range rc.Dropped {
		dropped += n
	}
	if dropped > 0 {
		add("hv.dropped==0", fmt.Sprintf("the receiver (%s) dropped %d of the %d messages it received (%s), accepting %d:%s",
			rc.Source, dropped, rc.Received, dropCauses(rc.Dropped), rc.Accepted, fails))
	}
}

// gateMetric is the canonical metric of a gate expression, or "" when it
// does not parse.
func gateMetric(expr string) string {
	g, err := threshold.Parse(expr)
	if err != nil {
		return ""
	}
	return g.Metric
}

// dropCauses lists drop causes as "routing=10, invalid=2" in a stable order.
func dropCauses(m map[string]int64) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	s := ""
	for i, k := range keys {
		if i > 0 {
			s += ", "
		}
		s += fmt.Sprintf("%s=%d", k, m[k])
	}
	return s
}
