package metric

import "github.com/vesload/vesload/report/result"

// DeliveryDelivered counts the run's events found on the collector's
// output topic: the verdict holds a followed run to at least one.
const DeliveryDelivered = deliveryPrefix + "delivered"

const (
	deliveryPrefix = "delivery."
	e2ePrefix      = "e2e_"
	noDelivery     = "delivery was not followed (--consume)"
	notFollowed    = "did not follow delivery (--consume)"
)

// delivery declares the follower's metrics (with --consume): counts of
// events, the end-to-end latency from the due time to the output topic's
// record timestamp (to the read when the source has none), and the share
// of events lost that only a comparison shows.
func delivery() []Metric {
	count := func(name, doc string, worse Direction, of func(d *result.Delivery) int64) Metric {
		return Metric{Name: deliveryPrefix + name, Family: deliveryPrefix, Kind: Count, Merge: Sum, Worse: worse, Doc: doc,
			Read: func(r *result.Result) (float64, string) {
				if r.Delivery == nil {
					return 0, noDelivery
				}
				return float64(of(r.Delivery)), ""
			}}
	}
	ms := []Metric{
		count("delivered", "the run's events found on the output topic", WorseDown, func(d *result.Delivery) int64 { return d.Delivered }),
		count("lost", "events expected on the output topic and never found", WorseUp, func(d *result.Delivery) int64 { return d.Lost }),
		count("lost_though_accepted", "events the collector accepted and never published", WorseUp,
			func(d *result.Delivery) int64 { return d.LostThoughAccepted }),
		count("delivered_though_rejected", "events the collector refused and published all the same", WorseUp,
			func(d *result.Delivery) int64 { return d.DeliveredThoughRejected }),
		count("duplicates", "events found more than once", WorseUp, func(d *result.Delivery) int64 { return d.Duplicates }),
		count("out_of_order", "events found before an event due earlier", WorseUp, func(d *result.Delivery) int64 { return d.OutOfOrder }),
		count("foreign", "records of the topic that were not the run's", WorseUp, func(d *result.Delivery) int64 { return d.Foreign }),
	}
	ms[1].Trend = 11
	e2e := distribution(e2ePrefix, "the end-to-end latency", noDelivery, endToEnd)
	for i := range e2e {
		switch e2e[i].Name {
		case e2ePrefix + "avg":
			e2e[i].Row, e2e[i].Field, e2e[i].Label, e2e[i].Lacks = 14, "delivery.e2e_ms.avg", "avg VES processing time (ms)", notFollowed
		case e2ePrefix + "p99":
			e2e[i].Row, e2e[i].Field, e2e[i].Label, e2e[i].Lacks, e2e[i].Trend = 15, "delivery.e2e_ms.p99", "p99 end to end (ms)", notFollowed, 12
		}
	}
	ms = append(ms, e2e...)
	return append(ms, Metric{Name: "delivery.lost_pct", Kind: Percent, Unit: "%", Merge: Derived, Worse: WorseUp,
		Doc: "events lost, in percent of those expected", CompareOnly: true,
		Row: 16, Field: "delivery.lost_pct", Label: "events lost (%)", Lacks: notFollowed,
		Read: func(r *result.Result) (float64, string) {
			d := r.Delivery
			switch {
			case d == nil:
				return 0, noDelivery
			case d.Expected == 0:
				return 0, "no events were expected"
			}
			return 100 * float64(d.Lost) / float64(d.Expected), ""
		}})
}

// endToEnd is the end-to-end distribution: to the record timestamp, or
// to the read when the source has no timestamps (DMaaP).
func endToEnd(r *result.Result) result.Summary {
	switch d := r.Delivery; {
	case d == nil:
		return result.Summary{}
	case d.E2E.Count > 0:
		return d.E2E
	}
	return r.Delivery.Consumed
}

// deliveryFamily names the delivery counts after their prefix.
func deliveryFamily() Family {
	return Family{Prefix: deliveryPrefix, Spelling: "delivery.<count>", Noun: "delivery count",
		Want: members(delivery(), deliveryPrefix, false)}
}
