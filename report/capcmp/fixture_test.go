package capcmp

import (
	"time"

	"github.com/vesload/vesload/report/result"
)

// search builds a capacity document whose search found maxRPS, failed
// at failRPS (0: never) laid to limitedBy, labelled build when given,
// started at minute n of a fixed day.
func search(maxRPS, failRPS float64, limitedBy, build string, n int) *result.CapacityDocument {
	d := &result.CapacityDocument{Schema: result.CapacitySchema, Tool: result.Tool{Name: "vesload", Version: "test"},
		Started:  time.Date(2026, 12, 1, 10, n, 0, 0, time.UTC),
		Capacity: result.Capacity{MaxRPS: maxRPS, FailRPS: failRPS, LimitedBy: limitedBy, Confirmed: true, AskedPrecisionPct: 5}}
	if failRPS > 0 && maxRPS > 0 {
		d.Capacity.PrecisionPct = (failRPS - maxRPS) / maxRPS * 100
	}
	if build != "" {
		d.Labels = map[string]string{"build": build}
	}
	return d
}

// target is a search laid to the target, failing 5 % above maxRPS.
func target(maxRPS float64) *result.CapacityDocument {
	return search(maxRPS, maxRPS*1.05, result.CauseTarget, "", 0)
}

func names(prefix string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = prefix + string(rune('1'+i)) + ".json"
	}
	return out
}
