package summary

import (
	"strconv"

	"github.com/vesload/vesload/report/format"
	"github.com/vesload/vesload/report/result"
	"github.com/vesload/vesload/report/table"
)

// textData reports what a high-volume run moved: events (a batch carries
// several per request), events unsent, and the peak data rate of any
// second, the figures the producer tests publish. "Unsent" counts every
// request that was due but not sent, pool_exhausted included, so it is
// not the "not sent" row (cut off by the stop) and says so.
func textData(t *textWriter, r *result.Result) {
	if r.HV != nil {
		return // the HV-VES section has the messages, the unsent ones by reason and the peak rate
	}
	var peak int64
	for _, s := range r.Timeline {
		peak = max(peak, s.BytesSent)
	}
	if peak == 0 {
		return
	}
	perRequest := int64(max(r.Config.Batch, 1))
	notSent := r.Requests.Scheduled - r.Requests.Sent
	t.Printf("  events: %s sent, %s unsent (pool_exhausted + not_sent); data: %s sent, peak %s MB/s\n",
		format.Int(r.Requests.Sent*perRequest), format.Int(notSent*perRequest),
		format.Bytes(r.Bytes.Sent), strconv.FormatFloat(float64(peak)/1e6, 'f', 2, 64))
}

// textByRequest breaks a request mix down per request kind.
func textByRequest(t *textWriter, r *result.Result) {
	if len(r.ByRequest) == 0 {
		return
	}
	t.section("By request (latency from due time, ms)")
	tb := table.Table{Cols: append([]table.Column{table.Left("Request"), table.Right("Weight"), table.Right("Sent"), table.Right("OK"),
		table.Right("Errors")}, latencyColumns()...)}
	for _, q := range r.ByRequest {
		tb.Add(append([]string{table.EscapeCell(q.Name), strconv.Itoa(q.Weight), format.Int(q.Requests.Sent), format.Int(q.Requests.OK),
			format.Int(q.Requests.Errors)}, latencyCells(q.Latency)...)...)
	}
	t.Lines(tb.Pipe(""))
}

// textSteps reports a closed-model ramp step by step, the way the ingress
// concurrency tests read: where does latency bend as concurrency grows.
func textSteps(t *textWriter, r *result.Result) {
	if len(r.Steps) == 0 {
		return
	}
	t.section("Steps (closed model; latency ms)")
	tb := table.Table{Cols: append([]table.Column{table.Right("Concurrency"), table.Right("Start s"), table.Right("Sent"), table.Right("req/s"),
		table.Right("Errors")}, latencyColumns()...)}
	for _, s := range r.Steps {
		tb.Add(append([]string{strconv.Itoa(s.Concurrency), format.Round(s.StartS, 1), format.Int(s.Sent), format.Num(s.RPS),
			format.Int(s.Errors)}, latencyCells(s.Latency)...)...)
	}
	t.Lines(tb.Pipe(""))
}

// latencyColumns and latencyCells are the latency columns of a breakdown
// table (by request kind, by step): p50, p95, p99 and max, in ms, as the
// seed table shows them.
func latencyColumns() []table.Column {
	return []table.Column{table.Right("p50"), table.Right("p95"), table.Right("p99"), table.Right("Max")}
}

func latencyCells(s result.Summary) []string {
	return []string{format.Ms(s.P50), format.Ms(s.P95), format.Ms(s.P99), format.Ms(s.Max)}
}
