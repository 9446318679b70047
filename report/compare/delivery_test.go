package compare

import (
	"strings"
	"testing"

	"github.com/vesload/vesload/report/result"
)

// TestCompareDelivery compares end-to-end time and losses when both
// sides followed their events, and says so when one side did not.
func TestCompareDelivery(t *testing.T) {
	t.Parallel()
	follow := func(rs []*result.Result, avg float64, lost int64) []*result.Result {
		for i, r := range rs {
			r.Delivery = &result.Delivery{Expected: 1000, Delivered: 1000 - lost, Lost: lost,
				E2E: result.Summary{Count: 1000 - lost, Avg: avg + float64(i), P99: 10 * (avg + float64(i))}}
		}
		return rs
	}
	a := follow(side(t, 10, 1, 1, 1.02, 0.98), 20, 0)
	b := follow(side(t, 10, 11, 1, 1.01, 0.99), 80, 50)
	c, err := Compare(a, b, Options{})
	if err != nil {
		t.Fatal(err)
	}
	avg := rowOf(t, c, "delivery.e2e_ms.avg")
	if avg.A.Center != 21 || avg.B.Center != 81 || !avg.Significant {
		t.Errorf("processing time row %+v: want 21 vs 81 ms, significant", avg)
	}
	if lost := rowOf(t, c, "delivery.lost_pct"); lost.A.Center != 0 || lost.B.Center != 5 {
		t.Errorf("lost row %+v: want 0 %% vs 5 %%", lost)
	}
	plain := side(t, 10, 21, 1, 1.02, 0.98)
	c, err = Compare(a, plain, Options{})
	if err != nil {
		t.Fatal(err)
	}
	notes := strings.Join(c.Notes, "\n")
	if !strings.Contains(notes, "delivery.e2e_ms.avg") || !strings.Contains(notes, "did not follow delivery") {
		t.Errorf("notes %q: want the delivery rows named as not compared", notes)
	}
	c, err = Compare(plain, side(t, 10, 31, 1, 1.02, 0.98), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(strings.Join(metricNames(c), " ")+strings.Join(c.Notes, " "), "delivery") {
		t.Error("runs that never followed delivery get delivery rows or notes")
	}
}
