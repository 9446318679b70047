package threshold

import (
	"fmt"
	"strings"

	"github.com/vesload/vesload/report/result"
)

const noDelivery = "delivery was not followed (--consume)"

// deliveryMetric resolves delivery.<count> and e2e_<stat> (end to end:
// due time → record timestamp, or → read when the source has no
// timestamps).
func deliveryMetric(name string) (metric, *nameError, bool) {
	if stat, ok := strings.CutPrefix(name, "e2e_"); ok {
		m, err := summaryMetric("e2e_", stat, noDelivery, e2e, len("e2e_"))
		return m, err, true
	}
	field, ok := strings.CutPrefix(name, "delivery.")
	if !ok {
		return metric{}, nil, false
	}
	get, ok := deliveryCounts[field]
	if !ok {
		return metric{}, &nameError{len("delivery."), fmt.Sprintf("unknown delivery count %q (want %s)", field, deliveryList)}, true
	}
	return metric{name: name, kind: kindCount, get: func(r *result.Result) (float64, string) {
		if r.Delivery == nil {
			return 0, noDelivery
		}
		return float64(get(r.Delivery)), ""
	}}, nil, true
}

const deliveryList = "delivered, lost, lost_though_accepted, delivered_though_rejected, duplicates, out_of_order, foreign"

var deliveryCounts = map[string]func(d *result.Delivery) int64{
	"delivered":                 func(d *result.Delivery) int64 { return d.Delivered },
	"lost":                      func(d *result.Delivery) int64 { return d.Lost },
	"lost_though_accepted":      func(d *result.Delivery) int64 { return d.LostThoughAccepted },
	"delivered_though_rejected": func(d *result.Delivery) int64 { return d.DeliveredThoughRejected },
	"duplicates":                func(d *result.Delivery) int64 { return d.Duplicates },
	"out_of_order":              func(d *result.Delivery) int64 { return d.OutOfOrder },
	"foreign":                   func(d *result.Delivery) int64 { return d.Foreign },
}

// e2e is the end-to-end distribution a gate reads.
func e2e(r *result.Result) result.Summary {
	switch d := r.Delivery; {
	case d == nil:
		return result.Summary{}
	case d.E2E.Count > 0:
		return d.E2E
	}
	return r.Delivery.Consumed
}
