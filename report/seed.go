package report

import (
	"strconv"

	"github.com/vesload/vesload/report/result"
)

// The seed table is the comparison the ONAP performance pages publish for
// each collector build (DESIGN §1). Its columns are fixed so that vesload
// rows can sit beside historical JMeter rows:
//
//	| Avg | Max | p50 | p95 | p99 | Error rate % | Max CPU % |
//
// Latency is from the due time, in ms ("sync time" in those pages); Max
// CPU % is the target's when it was sampled.
func seedColumns() []column {
	return []column{
		{"Avg", true}, {"Max", true}, {"p50", true}, {"p95", true},
		{"p99", true}, {"Error rate %", true}, {"Max CPU %", true},
	}
}

func seedRow(r *result.Result) []string {
	row := make([]string, 0, 7)
	l := r.Latency
	if hasSummary(l) {
		row = append(row, fmtMs(l.Avg), fmtMs(l.Max), fmtMs(l.P50), fmtMs(l.P95), fmtMs(l.P99))
	} else {
		row = append(row, na, na, na, na, na)
	}
	if pct, ok := r.ErrorRatePct(); ok {
		row = append(row, fmtPct(pct))
	} else {
		row = append(row, na)
	}
	if r.Target != nil {
		row = append(row, strconv.FormatFloat(r.Target.CPUMaxPct, 'f', 1, 64))
	} else {
		row = append(row, na)
	}
	return row
}

// hasSummary tells a recorded distribution from an absent one.
func hasSummary(s result.Summary) bool { return s.Count > 0 || s.Max > 0 }
