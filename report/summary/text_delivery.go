package summary

import (
	"fmt"

	"github.com/vesload/vesload/report/format"
	"github.com/vesload/vesload/report/result"
)

// textDelivery prints what the consumer of the output topic saw: the
// proof, past the 202, that the events arrived.
func textDelivery(t *textWriter, r *result.Result) {
	d := r.Delivery
	if d == nil {
		return
	}
	t.section(fmt.Sprintf("Delivery (%s; record timestamps: %s; grace %gs)", d.Source, d.TimestampsLabel(), d.GraceS))
	pct := 0.0
	if d.Expected > 0 {
		pct = 100 * float64(d.Delivered) / float64(d.Expected)
	}
	if d.NoAnswers {
		t.Printf("  expected   %8d  events written (the protocol answers nothing)\n", d.Expected)
	} else {
		t.Printf("  expected   %8d  events of the requests sent (%d answered 2xx)\n", d.Expected, d.Accepted)
	}
	t.Printf("  delivered  %8d  %s%%\n", d.Delivered, format.Pct(pct))
	lost := fmt.Sprintf("  lost       %8d  of which answered 2xx: %d (lost though accepted)", d.Lost, d.LostThoughAccepted)
	if d.NoAnswers {
		lost = fmt.Sprintf("  lost       %8d", d.Lost)
	}
	if d.Lost > 0 || d.LostThoughAccepted > 0 {
		t.Printf("%s\n", t.paint(ansiRed, lost))
	} else {
		t.Println(lost)
	}
	if !d.NoAnswers {
		t.Printf("  delivered though the request failed %d\n", d.DeliveredThoughRejected)
	}
	t.Printf("  duplicates %d; out of order %d; foreign records %d of %d\n", d.Duplicates, d.OutOfOrder, d.Foreign, d.Records)
	if d.LagMax >= 0 {
		t.Printf("  consumer lag max %d records\n", d.LagMax)
	}
	t.Printf("  end to end (ms)   %8s %8s %8s %8s %8s %8s\n", "avg", "p50", "p95", "p99", "max", "count")
	row := func(name string, s result.Summary) {
		if s.Count == 0 {
			return
		}
		t.Printf("  %-17s %8s %8s %8s %8s %8s %8d\n", name, format.Ms(s.Avg), format.Ms(s.P50), format.Ms(s.P95), format.Ms(s.P99), format.Ms(s.Max), s.Count)
	}
	row("to the record", d.E2E)
	row("to the read", d.Consumed)
	for _, n := range d.ResolutionNotes() {
		t.Println("  " + n)
	}
	if d.SourceErrors > 0 {
		t.warn("  ", fmt.Sprintf("%d reads of the topic failed and were retried (last: %s)", d.SourceErrors, d.LastError))
	}
	if d.ClockSkewed > 0 {
		t.warn("  ", fmt.Sprintf("%d record timestamps were before their event was due: the clocks differ", d.ClockSkewed))
	}
}
