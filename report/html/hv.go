package html

import (
	"fmt"
	"strings"

	"github.com/vesload/vesload/internal/redact"
	"github.com/vesload/vesload/report/format"
	"github.com/vesload/vesload/report/result"
	"github.com/vesload/vesload/report/seed"
	"github.com/vesload/vesload/report/summary"
)

// hvSection shows an HV-VES run as ONAP's HV-VES pages tabulate it, then
// the messages, the write back-pressure, the connections and what the
// receiver counted. A run without an HV-VES part has no such section.
func hvSection(r *result.Result) (section, bool) {
	hv := r.HV
	if hv == nil {
		return section{}, false
	}
	onap := table{Head: head(0, seed.HVHeader()...)}
	var row []cell
	for _, v := range seed.HVValues(r) {
		row = append(row, num(v))
	}
	onap.Rows = [][]cell{row}
	transport := "TCP"
	if hv.TLS {
		transport = "TLS"
	}
	s := hv.Sent
	msgs := table{Caption: "Messages", Rows: [][]cell{
		{key("producers × messages"), num(fmt.Sprintf("%d × %d of %s every %s", hv.Producers, hv.Messages,
			format.Bytes(int64(hv.SizeBytes)), format.Seconds(hv.IntervalS)))},
		{key("domain, transport"), txt(hv.Domain + ", " + transport + " to " + hv.Addr)},
		{key("scheduled"), num(format.Int(s.Scheduled))},
		{key("written / failed"), num(format.Int(s.Written) + " / " + format.Int(s.Failed))},
		{key("not sent"), num(format.Int(s.NotSent))},
		{key("data written"), num(format.Bytes(s.Bytes))},
		{key("MB/s average / peak second"), num(format.Num(hv.MBps) + " / " + format.Num(hv.PeakMBps))},
	}}
	if len(hv.NotSentBy) > 0 {
		msgs.Rows = append(msgs.Rows, []cell{key("not sent by reason"), txt(countList(hv.NotSentBy))})
	}
	dist := table{
		Caption: "Write back-pressure and connections (ms)",
		Head:    distributionHead(),
		Rows: [][]cell{
			summaryRow("write blocked", hv.WriteBlocked),
			summaryRow("connect", hv.Connect),
		},
	}
	if hv.TLS {
		dist.Rows = append(dist.Rows, summaryRow("TLS handshake", hv.Handshake))
	}
	conns := table{Caption: "Connections", Rows: [][]cell{
		{key("made / reconnects"), num(format.Int(hv.Connects) + " / " + format.Int(hv.Reconnects))},
	}}
	if len(hv.Disconnects) > 0 {
		conns.Rows = append(conns.Rows, []cell{key("disconnects by cause"), txt(countList(hv.Disconnects))})
	}
	if len(hv.DialErrors) > 0 {
		conns.Rows = append(conns.Rows, []cell{key("failed reconnects by cause"), txt(countList(hv.DialErrors))})
	}
	sec := section{ID: "hv-ves", Title: "HV-VES",
		Paras:  []string{"MB = 10^6 bytes, frames included; difference = written − received. Write blocked is how long a producer's write waited for the connection: the collector's back-pressure."},
		Tables: []table{onap, msgs, dist, conns}}
	if l := summary.BrokenLine(hv); l != "" {
		sec.Paras = append(sec.Paras, l+".")
	}
	if rc := hv.Receiver; rc != nil {
		dup := "n/a" // the receiver could not tell
		if rc.Duplicates != nil {
			dup = format.Int(*rc.Duplicates)
		}
		rt := table{Caption: "Receiver (" + redact.URL(rc.Source) + ")", Rows: [][]cell{
			{key("received / accepted"), num(format.Int(rc.Received) + " / " + format.Int(rc.Accepted))},
			{key("lost / duplicates"), num(format.Int(max(rc.Lost, 0)) + " / " + dup)},
		}}
		if rc.Extra > 0 {
			rt.Rows = append(rt.Rows, []cell{key("received beyond this run's"), txt(format.Int(rc.Extra) + " (traffic from elsewhere, such as the other shards)")})
		}
		if len(rc.Dropped) > 0 {
			rt.Rows = append(rt.Rows, []cell{key("dropped by cause"), txt(countList(rc.Dropped))})
		}
		if rc.TravelMaxMs > 0 {
			rt.Rows = append(rt.Rows, []cell{key("travel time p50 / p99 / max"),
				num(format.Ms(rc.TravelP50Ms) + " / " + format.Ms(rc.TravelP99Ms) + " / " + format.Ms(rc.TravelMaxMs) + " ms")})
		}
		sec.Tables = append(sec.Tables, rt)
	}
	return sec, true
}

// hvRateChart draws the data written each second, in MB/s (10^6 bytes):
// the seeds' "incoming data rate".
func hvRateChart(r *result.Result) chart {
	c := chart{
		title:   "HV-VES data rate",
		caption: "Bytes written to the collector in each second, frames included, in MB/s (10^6 bytes).",
		xLabel:  "seconds", yLabel: "MB/s",
	}
	if r.HV == nil {
		return c
	}
	c.series = []series{{name: "written", color: colBlue,
		xy: timelineXY(r.Timeline, func(s result.Second) float64 { return float64(s.BytesSent) / 1e6 })}}
	return c
}

// countList writes counts as "a=1, b=2", largest first.
func countList(m map[string]int64) string {
	var parts []string
	for _, k := range byCount(m) {
		parts = append(parts, k+"="+format.Int(m[k]))
	}
	return strings.Join(parts, ", ")
}
