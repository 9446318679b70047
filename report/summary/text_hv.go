package summary

import (
	"strings"

	"github.com/vesload/vesload/report/format"
	"github.com/vesload/vesload/report/result"
	"github.com/vesload/vesload/report/seed"
	"github.com/vesload/vesload/report/table"
)

// textHV prints an HV-VES run the way ONAP's HV-VES performance pages
// tabulate theirs, then what the producers saw.
func textHV(t *textWriter, r *result.Result) {
	hv := r.HV
	if hv == nil {
		return
	}
	t.section("HV-VES (MB = 10^6 bytes; difference = written - received; CPU % of one core)")
	tb := table.Table{Cols: seed.HVColumns()}
	tb.Add(seed.HVRow(r)...)
	t.Lines(tb.Pipe(""))

	s := hv.Sent
	t.section("Messages")
	t.Printf("  %d producers × %d messages of %s every %s (%s), %s\n", hv.Producers, hv.Messages,
		format.Bytes(int64(hv.SizeBytes)), format.Seconds(hv.IntervalS), hv.Domain, transport(hv))
	t.Printf("  scheduled %s = sent %s + not sent %s; sent = written %s + failed %s\n",
		format.Int(s.Scheduled), format.Int(s.Sent), format.Int(s.NotSent), format.Int(s.Written), format.Int(s.Failed))
	if len(hv.NotSentBy) > 0 {
		t.Printf("  not sent by reason: %s", counts(hv.NotSentBy))
		if hv.NotSentBy[result.ClassDisconnected] > 0 {
			t.Printf(" (no connection at the due time: counted as errors)")
		}
		t.Println("")
	}
	t.Printf("  data: %s written, %s MB/s average, %s MB/s peak second\n",
		format.Bytes(s.Bytes), format.Round(hv.MBps, 2), format.Round(hv.PeakMBps, 2))
	t.Printf("  write blocked (back-pressure) ms: p50 %s, p99 %s, max %s\n",
		format.Ms(hv.WriteBlocked.P50), format.Ms(hv.WriteBlocked.P99), format.Ms(hv.WriteBlocked.Max))
	t.Printf("  connections: %d made (%d reconnects); connect ms p50 %s max %s", hv.Connects, hv.Reconnects,
		format.Ms(hv.Connect.P50), format.Ms(hv.Connect.Max))
	if hv.TLS {
		t.Printf("; TLS handshake ms p50 %s max %s", format.Ms(hv.Handshake.P50), format.Ms(hv.Handshake.Max))
	}
	t.Println("")
	if len(hv.Disconnects) > 0 {
		t.Printf("  disconnects by cause: %s\n", counts(hv.Disconnects))
	}
	if len(hv.DialErrors) > 0 {
		t.Printf("  failed reconnects by cause: %s\n", counts(hv.DialErrors))
	}
	if line := BrokenLine(hv); line != "" {
		t.Printf("  %s\n", line)
	}
	textHVReceiver(t, hv.Receiver)
	textHVProducers(t, hv)
}

func textHVReceiver(t *textWriter, rc *result.HVReceiver) {
	if rc == nil {
		return
	}
	dup := na
	if rc.Duplicates != nil {
		dup = format.Int(*rc.Duplicates)
	}
	received := format.Int(rc.Received)
	if rc.Extra > 0 {
		received += " (" + format.Int(rc.Extra) + " more than this run wrote: traffic from elsewhere)"
	}
	t.Printf("  receiver (%s): received %s, accepted %s, lost %s, duplicates %s", rc.Source,
		received, format.Int(rc.Accepted), format.Int(max(rc.Lost, 0)), dup)
	if len(rc.Dropped) > 0 {
		t.Printf(", dropped %s", counts(rc.Dropped))
	}
	t.Println("")
	var parts []string
	for _, v := range []struct {
		name string
		ms   float64
	}{{"avg", rc.TravelAvgMs}, {"p50", rc.TravelP50Ms}, {"p99", rc.TravelP99Ms}, {"max", rc.TravelMaxMs}} {
		if v.ms > 0 {
			parts = append(parts, v.name+" "+format.Ms(v.ms))
		}
	}
	if len(parts) > 0 {
		t.Printf("  travel time (due → received) ms: %s\n", strings.Join(parts, ", "))
	}
}

// textHVProducers lists producers when there are few enough to read.
func textHVProducers(t *textWriter, hv *result.HV) {
	if len(hv.ByProducer) == 0 || len(hv.ByProducer) > 20 {
		return
	}
	t.section("By producer")
	tb := table.Table{Cols: []table.Column{table.Left("Source"), table.Right("Written"), table.Right("Failed"),
		table.Right("Not sent"), table.Right("Bytes"), table.Right("Reconnects")}}
	for _, p := range hv.ByProducer {
		tb.Add(table.EscapeCell(p.Source), format.Int(p.Counts.Written), format.Int(p.Counts.Failed), format.Int(p.Counts.NotSent),
			format.Bytes(p.Counts.Bytes), format.Int(p.Reconnects))
	}
	t.Lines(tb.Pipe(""))
}

func transport(hv *result.HV) string {
	if hv.TLS {
		return "TLS to " + hv.Addr
	}
	return "TCP to " + hv.Addr
}

// counts writes a table of counts as "a=1, b=2", largest first.
func counts(m map[string]int64) string {
	var parts []string
	for _, k := range byCount(m) {
		parts = append(parts, k+"="+format.Int(m[k]))
	}
	return strings.Join(parts, ", ")
}

// BrokenLine says how many messages were written into connections that
// then broke, which the written count holds although they may not have
// arrived; empty when none were. Without a receiver's view nothing tells
// how many did. The text summary, the Markdown and the HTML report say it
// alike.
func BrokenLine(hv *result.HV) string {
	if hv == nil || hv.WrittenIntoBroken == 0 {
		return ""
	}
	s := format.Int(hv.WrittenIntoBroken) + " of the written messages went into connections that then broke " +
		"(a later write failed): the kernel took them, the collector may or may not have read them"
	if hv.Receiver == nil {
		return s + "; no receiver was observed to tell"
	}
	return s + "; the receiver's count above tells what arrived"
}
