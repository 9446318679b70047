package main

import (
	"github.com/vesload/vesload/report/result"
	"github.com/vesload/vesload/report/threshold"
)

// noSuccessGate is the gate a run fails when no request succeeded: a CI
// job must not pass against a collector that refused everything, even
// when it set no threshold of its own. It fails with exit 3, like any
// gate, unless the run was started with --allow-errors.
const noSuccessGate = "ok>0"

// checkSomeSuccess adds the failed ok>0 gate and a warning to a result in
// which requests were due but none succeeded; it leaves any other result
// as it is, so runs that succeed carry no extra gate.
func checkSomeSuccess(res *result.Result, allowErrors bool) {
	if allowErrors || res.Requests.OK > 0 || res.Requests.Scheduled == 0 {
		return
	}
	gate, err := threshold.Parse(noSuccessGate)
	if err != nil {
		panic("the built-in gate " + noSuccessGate + " does not parse: " + err.Error()) // a programming error
	}
	res.Thresholds = append(res.Thresholds, gate.Eval(res))
	res.Warnings = append(res.Warnings, "no request succeeded: the run fails (exit 3) unless --allow-errors is given")
}
