package html

import (
	"fmt"
	"slices"

	"github.com/vesload/vesload/internal/redact"
	"github.com/vesload/vesload/report/format"
	"github.com/vesload/vesload/report/result"
)

// deliverySection shows what the consumer of the output topic saw: how
// many of the run's events arrived, which were lost though the collector
// accepted them, and the end-to-end latency. A run without --consume has
// no such section.
func deliverySection(r *result.Result) (section, bool) {
	d := r.Delivery
	if d == nil {
		return section{}, false
	}
	share := "n/a"
	if d.Expected > 0 {
		share = format.Pct(100*float64(d.Delivered)/float64(d.Expected)) + "%"
	}
	lost := cell{Text: format.Int(d.Lost) + " / " + format.Int(d.LostThoughAccepted), Class: "num"}
	if d.Lost > 0 || d.LostThoughAccepted > 0 {
		lost.Class = "num fail"
	}
	counts := table{Caption: "Events", Rows: [][]cell{
		{key("expected (of the requests sent)"), num(format.Int(d.Expected))},
		{key("accepted (answered 2xx)"), num(format.Int(d.Accepted))},
		{key("delivered"), num(format.Int(d.Delivered) + " (" + share + ")")},
		{key("lost / of which accepted"), lost},
		{key("delivered though the request failed"), num(format.Int(d.DeliveredThoughRejected))},
		{key("duplicates / out of order"), num(format.Int(d.Duplicates) + " / " + format.Int(d.OutOfOrder))},
		{key("foreign records / records read"), num(format.Int(d.Foreign) + " / " + format.Int(d.Records))},
	}}
	if d.NoAnswers { // HV-VES: nothing is answered, so nothing is "accepted" or "failed"
		lost.Text = format.Int(d.Lost)
		counts.Rows = slices.Concat([][]cell{
			{key("expected (of the messages written)"), num(format.Int(d.Expected))},
			{key("accepted"), txt("n/a: the protocol answers nothing")},
			{key("delivered"), num(format.Int(d.Delivered) + " (" + share + ")")},
			{key("lost"), lost},
		}, counts.Rows[5:])
	}
	if d.LagMax >= 0 {
		counts.Rows = append(counts.Rows, []cell{key("consumer lag max"), num(format.Int(d.LagMax) + " records")})
	}
	dist := table{
		Caption: "End to end (ms, from each event's due time)",
		Head:    distributionHead(),
		Rows: [][]cell{
			summaryRow("to the record's timestamp", d.E2E),
			summaryRow("to the read by vesload", d.Consumed),
		},
	}
	s := section{ID: "delivery", Title: "Delivery (end to end)",
		Paras: []string{fmt.Sprintf("Read from %s; record timestamps: %s; grace %s after the run.",
			redact.URL(d.Source), d.TimestampsLabel(), format.Seconds(d.GraceS))},
		Tables: []table{counts, dist}}
	s.Notes = append(s.Notes, d.ResolutionNotes()...)
	if d.ClockSkewed > 0 {
		s.Notes = append(s.Notes, fmt.Sprintf("%d record timestamps were before their event was due: the clocks differ, and those were recorded as 0.", d.ClockSkewed))
	}
	return s, true
}

// deliveryCharts draw the delivery timeline, by the second the events
// were read: end-to-end latency, and events delivered with the
// consumer's lag.
func deliveryCharts(d *result.Delivery) []figure {
	const none = "The consumer recorded no per-second delivery timeline."
	lat := chart{
		title:   "End-to-end latency per second",
		caption: "p50, p99 and maximum from each event's due time to its record's timestamp on the output topic, by the second it was read.",
		xLabel:  "seconds", yLabel: "ms",
	}
	flow := chart{
		title:   "Events delivered per second",
		caption: "The run's events read from the output topic in each second, and the consumer's lag (records behind the end of the topic).",
		xLabel:  "seconds", yLabel: "events",
	}
	var p50, p99, mx, got, lag []point
	for _, s := range d.Timeline {
		x := float64(s.T)
		if s.Delivered > 0 {
			p50 = append(p50, point{x, s.P50Ms})
			p99 = append(p99, point{x, s.P99Ms})
			mx = append(mx, point{x, s.MaxMs})
		}
		got = append(got, point{x, float64(s.Delivered)})
		if d.LagMax >= 0 {
			lag = append(lag, point{x, float64(s.Lag)})
		}
	}
	lat.series = []series{
		{name: "max", color: colGrey, thin: true, xy: mx},
		{name: "p99", color: colOrange, xy: p99},
		{name: "p50", color: colBlue, xy: p50},
	}
	flow.series = []series{
		{name: "delivered", color: colGreen, xy: got},
		{name: "consumer lag", color: colPurple, dashed: true, xy: lag},
	}
	return []figure{lat.figure(none), flow.figure(none)}
}
