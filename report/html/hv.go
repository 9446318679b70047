package html

import (
	"fmt"

	"github.com/vesload/vesload/report"
	"github.com/vesload/vesload/report/result"
)

// withHV puts the HV-VES section after the summary of an HV-VES run.
func withHV(sections []section, r *result.Result) []section {
	if r.HV == nil || len(sections) == 0 {
		return sections
	}
	out := append([]section{sections[0], hvSection(r)}, sections[1:]...)
	return out
}

// hvSection is ONAP's HV-VES table and the producers' accounting.
func hvSection(r *result.Result) section {
	h := r.HV
	seed := table{Head: head(0, report.HVSeedHeader()...)}
	var row []cell
	for _, v := range report.HVSeedRow(r) {
		row = append(row, num(v))
	}
	seed.Rows = [][]cell{row}
	s := h.Sent
	msgs := table{Caption: "Messages", Rows: [][]cell{
		{key("scheduled"), num(fmtInt(s.Scheduled))},
		{key("written"), num(fmtInt(s.Written))},
		{key("failed"), num(fmtInt(s.Failed))},
		{key("not sent"), num(fmtInt(s.NotSent))},
		{key("data written"), num(report.FormatBytes(s.Bytes))},
		{key("average / peak MB/s"), num(fmtNum(h.MBps) + " / " + fmtNum(h.PeakMBps))},
		{key("connections made / reconnects"), num(fmt.Sprintf("%d / %d", h.Connects, h.Reconnects))},
	}}
	if rc := h.Receiver; rc != nil {
		msgs.Rows = append(msgs.Rows,
			[]cell{key("received (" + rc.Source + ")"), num(fmtInt(rc.Received))},
			[]cell{key("lost"), num(fmtInt(rc.Lost))})
	}
	producers := table{Caption: "By producer", Head: head(1, "source", "written", "failed", "not sent", "bytes", "reconnects")}
	for _, p := range h.ByProducer {
		producers.Rows = append(producers.Rows, []cell{key(p.Source), num(fmtInt(p.Counts.Written)),
			num(fmtInt(p.Counts.Failed)), num(fmtInt(p.Counts.NotSent)), num(report.FormatBytes(p.Counts.Bytes)),
			num(fmtInt(p.Reconnects))})
	}
	return section{
		ID: "hv", Title: "HV-VES",
		Paras: []string{fmt.Sprintf("%d producers × %d messages of %d bytes every %s over %s. "+
			"MB = 10^6 bytes; the difference is written − received; latency runs from each message's due time "+
			"to the end of its write, service time is the time blocked in the write.",
			h.Producers, h.Messages, h.SizeBytes, fmtDuration(h.IntervalS), transportName(h))},
		Tables: []table{seed, msgs, producers},
	}
}

func transportName(h *result.HV) string {
	if h.TLS {
		return "TLS to " + h.Addr
	}
	return "TCP to " + h.Addr
}
