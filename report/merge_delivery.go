package report

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
)

// mergeDelivery sums the delivery sections of the inputs that have one
// and merges their end-to-end histograms exactly; nil when none has.
func mergeDelivery(rs []*Result, label func(int) string) (*Delivery, error) {
	var m *Delivery
	var sources []string
	for _, r := range rs {
		d := r.Delivery
		if d == nil {
			continue
		}
		if m == nil {
			m = &Delivery{TimestampType: d.TimestampType, LagMax: -1}
		}
		if !slices.Contains(sources, d.Source) {
			sources = append(sources, d.Source)
		}
		if m.TimestampType != d.TimestampType {
			m.TimestampType = "mixed"
		}
		addDelivery(m, d)
	}
	if m == nil {
		return nil, nil
	}
	m.Source = strings.Join(sources, ", ")
	m.Timeline = mergeDeliveryTimelines(rs)
	for _, h := range []struct {
		kind string
		get  func(*Result) (string, Summary)
		sum  *Summary
		enc  *string
	}{
		{"delivery e2e", func(r *Result) (string, Summary) { return deliveryHist(r, true) }, &m.E2E, &m.Histograms.E2E},
		{"delivery consumed", func(r *Result) (string, Summary) { return deliveryHist(r, false) }, &m.Consumed, &m.Histograms.Consumed},
	} {
		merged, err := mergeOne(rs, label, h.kind, h.get)
		if err != nil {
			return nil, err
		}
		*h.sum = Summarize(merged)
		if *h.enc, err = EncodeHistogram(merged); err != nil {
			return nil, fmt.Errorf("merge: %w", err)
		}
	}
	return m, nil
}

func addDelivery(m, d *Delivery) {
	m.GraceS = math.Max(m.GraceS, d.GraceS)
	m.Expected += d.Expected
	m.Accepted += d.Accepted
	m.Delivered += d.Delivered
	m.Lost += d.Lost
	m.LostThoughAccepted += d.LostThoughAccepted
	m.DeliveredThoughRejected += d.DeliveredThoughRejected
	m.Duplicates += d.Duplicates
	m.OutOfOrder += d.OutOfOrder
	m.Foreign += d.Foreign
	m.Records += d.Records
	m.ClockSkewed += d.ClockSkewed
	m.LagMax = max(m.LagMax, d.LagMax)
}

// deliveryHist reads one of a result's delivery histograms for mergeOne.
func deliveryHist(r *Result, e2e bool) (string, Summary) {
	d := r.Delivery
	switch {
	case d == nil:
		return "", Summary{}
	case e2e:
		return d.Histograms.E2E, d.E2E
	}
	return d.Histograms.Consumed, d.Consumed
}

// mergeDeliveryTimelines adds the seconds of every input, aligned on the
// first start: counts and lags sum, the percentiles keep the worst.
func mergeDeliveryTimelines(rs []*Result) []DeliverySecond {
	start := rs[0].Started
	byT := map[int64]*DeliverySecond{}
	for _, r := range rs {
		if r.Delivery == nil {
			continue
		}
		var off int64
		if !start.IsZero() && !r.Started.IsZero() {
			off = int64(r.Started.Sub(start) / 1e9)
		}
		for _, s := range r.Delivery.Timeline {
			d := byT[s.T+off]
			if d == nil {
				d = &DeliverySecond{T: s.T + off}
				byT[d.T] = d
			}
			d.Delivered += s.Delivered
			d.Lag += s.Lag
			d.P50Ms = math.Max(d.P50Ms, s.P50Ms)
			d.P99Ms = math.Max(d.P99Ms, s.P99Ms)
			d.MaxMs = math.Max(d.MaxMs, s.MaxMs)
		}
	}
	out := make([]DeliverySecond, 0, len(byT))
	for _, d := range byT {
		out = append(out, *d)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].T < out[j].T })
	return out
}
