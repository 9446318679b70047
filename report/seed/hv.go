package seed

import (
	"strconv"

	"github.com/vesload/vesload/report/format"
	"github.com/vesload/vesload/report/result"
	"github.com/vesload/vesload/report/table"
)

// HVHeader is the header of ONAP's HV-VES performance table, for
// renderers outside this package (the HTML report) to show the same
// columns as the text summary.
func HVHeader() []string {
	cols := HVColumns()
	out := make([]string, len(cols))
	for i, c := range cols {
		out[i] = c.Title
	}
	return out
}

// HVValues is r's row of that table; r.HV must be set.
func HVValues(r *result.Result) []string { return HVRow(r) }

// HVColumns are the columns of ONAP's HV-VES performance tables.
func HVColumns() []table.Column {
	return []table.Column{table.Right("Producers"), table.Right("Messages sent"), table.Right("Received"),
		table.Right("Difference"), table.Right("Peak MB/s"), table.Right("Travel p99 ms"), table.Right("Peak CPU %"),
		table.Right("Memory")}
}

func HVRow(r *result.Result) []string {
	hv := r.HV
	received, diff, travel := na, na, na
	if rc := hv.Receiver; rc != nil {
		received, diff = format.Int(rc.Received), format.Int(max(hv.Sent.Written-rc.Received, 0))
		if rc.Received > hv.Sent.Written {
			diff = "0 (" + format.Int(rc.Received-hv.Sent.Written) + " extra)"
		}
		if rc.TravelP99Ms > 0 {
			travel = format.Ms(rc.TravelP99Ms)
		}
	}
	cpu, mem := na, na
	if r.Target != nil {
		cpu = format.CPU(r.Target.CPUMaxPct)
		if r.Target.RSSMaxBytes > 0 {
			mem = format.Bytes(r.Target.RSSMaxBytes)
		}
	}
	return []string{strconv.Itoa(hv.Producers), format.Int(hv.Sent.Written), received, diff,
		format.Round(hv.PeakMBps, 2), travel, cpu, mem}
}
