package html

import (
	"fmt"

	"github.com/vesload/vesload/internal/redact"
	"github.com/vesload/vesload/report/result"
)

// deliverySection shows what the consumer of the output topic saw: the
// proof, past the 202, that the events arrived.
func deliverySection(d *result.Delivery) section {
	pct := "n/a"
	if d.Expected > 0 {
		pct = fmtPct(100 * float64(d.Delivered) / float64(d.Expected))
	}
	expected := fmt.Sprintf("%d (%d answered 2xx)", d.Expected, d.Accepted)
	if d.NoAnswers {
		expected = fmt.Sprintf("%d written (the protocol answers nothing)", d.Expected)
	}
	lost := cell{Text: fmtInt(d.Lost), Class: "num pass"}
	if d.Lost > 0 {
		lost.Class = "num fail"
	}
	counts := table{Caption: "Events", Rows: [][]cell{
		{key("expected"), num(expected)},
		{key("delivered"), num(fmtInt(d.Delivered) + " (" + pct + ")")},
		{key("lost"), lost},
		{key("lost though accepted"), num(fmtInt(d.LostThoughAccepted))},
		{key("delivered though the request failed"), num(fmtInt(d.DeliveredThoughRejected))},
		{key("duplicates / out of order"), num(fmtInt(d.Duplicates) + " / " + fmtInt(d.OutOfOrder))},
		{key("foreign records / all records"), num(fmtInt(d.Foreign) + " / " + fmtInt(d.Records))},
		{key("consumer lag max"), num(fmtInt(d.LagMax))},
	}}
	dist := table{
		Caption: "End to end (ms)",
		Head:    head(1, "", "min", "avg", "p50", "p90", "p95", "p99", "p99.9", "max", "count"),
		Rows: [][]cell{
			summaryRow("due time → record timestamp", d.E2E),
			summaryRow("due time → read by vesload", d.Consumed),
		},
	}
	s := section{ID: "delivery", Title: "Delivery",
		Paras: []string{fmt.Sprintf("Events followed on %s (record timestamps: %s), waiting %gs after the last request.",
			redact.URL(d.Source), d.TimestampType, d.GraceS)},
		Tables: []table{counts, dist}}
	if d.ClockSkewed > 0 {
		s.Notes = append(s.Notes, fmt.Sprintf("%d record timestamps were before their event was due: the clocks differ.", d.ClockSkewed))
	}
	return s
}
