package compare

import "github.com/vesload/vesload/report/result"

// deliveryMetrics are the rows of runs that followed their events onto
// the output topic (--consume): the ONAP pages' "Avg VES processing time"
// and what a 202 cannot show.
func deliveryMetrics() []metric {
	const notFollowed = "did not follow delivery (--consume)"
	e2e := func(f func(result.Summary) float64) func(*result.Result) (float64, bool) {
		return func(r *result.Result) (float64, bool) {
			if r.Delivery == nil {
				return 0, false
			}
			s := r.Delivery.E2E
			if s.Count == 0 {
				s = r.Delivery.Consumed // DMaaP: no record timestamps
			}
			return f(s), recorded(s)
		}
	}
	return []metric{
		{"delivery.e2e_ms.avg", "avg VES processing time (ms)", LowerIsBetter, e2e(func(s result.Summary) float64 { return s.Avg }), notFollowed},
		{"delivery.e2e_ms.p99", "p99 end to end (ms)", LowerIsBetter, e2e(func(s result.Summary) float64 { return s.P99 }), notFollowed},
		{"delivery.lost_pct", "events lost (%)", LowerIsBetter, func(r *result.Result) (float64, bool) {
			d := r.Delivery
			if d == nil || d.Expected == 0 {
				return 0, false
			}
			return 100 * float64(d.Lost) / float64(d.Expected), true
		}, notFollowed},
	}
}
