package metric

import "github.com/vesload/vesload/report/result"

// DeliveryDelivered counts the run's events found on the collector's
// output topic: the verdict holds a followed run to at least one.
const DeliveryDelivered = deliveryPrefix + "delivered"

// E2EP99 is the 99th percentile of the travel time into Kafka, which a
// capacity search keeps for each step that followed its events.
const E2EP99 = e2ePrefix + "p99"

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
	count := func(name, doc string, worse Direction, of func(d *result.Delivery) int64, opts ...option) Metric {
		return declare(Metric{Name: deliveryPrefix + name, Family: deliveryPrefix, Kind: Count, Merge: Sum, Worse: worse, Doc: doc,
			Read: func(r *result.Result) (float64, string) {
				if r.Delivery == nil {
					return 0, noDelivery
				}
				return float64(of(r.Delivery)), ""
			}}, opts...)
	}
	ms := []Metric{
		count("delivered", "the run's events found on the output topic", WorseDown, func(d *result.Delivery) int64 { return d.Delivered }),
		count("lost", "events expected on the output topic and never found", WorseUp, func(d *result.Delivery) int64 { return d.Lost },
			trend(11)),
		count("lost_though_accepted", "events the collector accepted and never published", WorseUp,
			func(d *result.Delivery) int64 { return d.LostThoughAccepted }),
		count("delivered_though_rejected", "events the collector refused and published all the same", WorseUp,
			func(d *result.Delivery) int64 { return d.DeliveredThoughRejected }),
		count("duplicates", "events found more than once", WorseUp, func(d *result.Delivery) int64 { return d.Duplicates }),
		count("out_of_order", "events found before an event due earlier", WorseUp, func(d *result.Delivery) int64 { return d.OutOfOrder }),
		count("foreign", "records of the topic that were not the run's", WorseUp, func(d *result.Delivery) int64 { return d.Foreign }),
	}
	ms = append(ms, distribution(e2ePrefix, "the end-to-end latency", noDelivery, endToEnd, map[string][]option{
		"avg": {row(14, "delivery.e2e_ms.avg", "avg VES processing time (ms)", notFollowed)},
		"p99": {row(15, "delivery.e2e_ms.p99", "p99 end to end (ms)", notFollowed), trend(12)},
	})...)
	return append(ms, declare(Metric{Name: "delivery.lost_pct", Kind: Percent, Unit: "%", Merge: Derived, Worse: WorseUp,
		Doc: "events lost, in percent of those expected", CompareOnly: true,
		Read: func(r *result.Result) (float64, string) {
			d := r.Delivery
			switch {
			case d == nil:
				return 0, noDelivery
			case d.Expected == 0:
				return 0, "no events were expected"
			}
			return 100 * float64(d.Lost) / float64(d.Expected), ""
		}}, row(16, "delivery.lost_pct", "events lost (%)", notFollowed)))
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
