package seed

import (
	"github.com/vesload/vesload/report/format"
	"github.com/vesload/vesload/report/result"
	"github.com/vesload/vesload/report/table"
)

// The seed table is the comparison the ONAP performance pages publish for
// each collector build (docs/ARCHITECTURE.md, "Who it is for"). Its columns are fixed so that vesload
// rows can sit beside historical JMeter rows:
//
//	| Avg | Max | p50 | p95 | p99 | Error rate % | Max CPU % |
//
// Latency is from the due time, in ms ("sync time" in those pages); Max
// CPU % is the target's when it was sampled.
//
// With delivery figures (--consume) the table gains the pages' "Avg VES
// processing time" column (client → VES → topic), between p99 and the
// error rate as they print it.
func Columns(delivery bool) []table.Column {
	cols := []table.Column{table.Right("Avg"), table.Right("Max"), table.Right("p50"), table.Right("p95"), table.Right("p99")}
	if delivery {
		cols = append(cols, table.Right("Avg VES processing time"))
	}
	return append(cols, table.Right("Error rate %"), table.Right("Max CPU %"))
}

// AnyDelivery tells whether some result carries delivery figures, which
// adds their column to the table.
func AnyDelivery(rs ...*result.Result) bool {
	for _, r := range rs {
		if r != nil && r.Delivery != nil {
			return true
		}
	}
	return false
}

// Row is r's row of the table of Columns(delivery), "n/a" where r has no
// figure.
func Row(r *result.Result, delivery bool) []string {
	row := make([]string, 0, 8)
	l := r.Latency
	if l.Recorded() {
		row = append(row, format.Ms(l.Avg), format.Ms(l.Max), format.Ms(l.P50), format.Ms(l.P95), format.Ms(l.P99))
	} else {
		row = append(row, na, na, na, na, na)
	}
	if delivery {
		row = append(row, processingTime(r.Delivery))
	}
	if pct, ok := r.ErrorRatePct(); ok {
		row = append(row, format.Pct(pct))
	} else {
		row = append(row, na)
	}
	if r.Target != nil {
		row = append(row, format.CPU(r.Target.CPUMaxPct))
	} else {
		row = append(row, na)
	}
	return row
}

// processingTime is the average end-to-end time of delivered events:
// to the record timestamp, or to the read when the source has none or
// its timestamps are too coarse for the figure (result.Delivery's
// ProcessingTime says which and why).
func processingTime(d *result.Delivery) string {
	if d == nil {
		return na
	}
	if s, _, ok := d.ProcessingTime(); ok {
		return format.Ms(s.Avg)
	}
	return na
}

// na stands for a figure the result does not have.
const na = format.NA
