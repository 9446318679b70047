package merge

import (
	"fmt"
	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
	"github.com/vesload/vesload/report/result"
	"math"
	"slices"
	"sort"
	"strings"
)

// mergeDelivery sums the delivery sections of the inputs that have one
// and merges their end-to-end histograms exactly; nil when none has.
func mergeDelivery(rs []*result.Result, label func(int) string, enc *result.HistogramEncoder) (*result.Delivery, error) {
	var m *result.Delivery
	var sources []string
	for _, r := range rs {
		d := r.Delivery
		if d == nil {
			continue
		}
		if m == nil {
			m = &result.Delivery{TimestampType: d.TimestampType, LagMax: -1}
		}
		if !slices.Contains(sources, d.Source) {
			sources = append(sources, d.Source)
		}
		m.TimestampResolutionMs = max(m.TimestampResolutionMs, d.TimestampResolutionMs)
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
		get  func(*result.Result) (string, result.Summary)
		sum  *result.Summary
		out  *string
	}{
		{"delivery e2e", func(r *result.Result) (string, result.Summary) { return deliveryHist(r, true) }, &m.E2E, &m.Histograms.E2E},
		{"delivery consumed", func(r *result.Result) (string, result.Summary) { return deliveryHist(r, false) }, &m.Consumed, &m.Histograms.Consumed},
	} {
		merged, err := mergeOne(rs, label, h.kind, h.get)
		if err != nil {
			return nil, err
		}
		*h.sum = result.Summarize(merged)
		if *h.out, err = enc.Encode(merged); err != nil {
			return nil, fmt.Errorf("merge: %w", err)
		}
	}
	return m, nil
}

func addDelivery(m, d *result.Delivery) {
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
func deliveryHist(r *result.Result, e2e bool) (string, result.Summary) {
	d := r.Delivery
	switch {
	case d == nil:
		return "", result.Summary{}
	case e2e:
		return d.Histograms.E2E, d.E2E
	}
	return d.Histograms.Consumed, d.Consumed
}

// mergeDeliveryTimelines adds the seconds of every input, aligned on the
// first start: counts and lags sum, the percentiles keep the worst.
func mergeDeliveryTimelines(rs []*result.Result) []result.DeliverySecond {
	start := rs[0].Started
	byT := map[int64]*result.DeliverySecond{}
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
				d = &result.DeliverySecond{T: s.T + off}
				byT[d.T] = d
			}
			d.Delivered += s.Delivered
			d.Lag += s.Lag
			d.P50Ms = math.Max(d.P50Ms, s.P50Ms)
			d.P99Ms = math.Max(d.P99Ms, s.P99Ms)
			d.MaxMs = math.Max(d.MaxMs, s.MaxMs)
		}
	}
	out := make([]result.DeliverySecond, 0, len(byT))
	for _, d := range byT {
		out = append(out, *d)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].T < out[j].T })
	return out
}

// mergeOne merges one kind of histogram of every input. It returns nil
// when no input recorded anything, so that the merged result carries no
// histogram either.
func mergeOne(rs []*result.Result, label func(int) string, kind string, get func(*result.Result) (string, result.Summary)) (*hdrhistogram.Histogram, error) {
	var out *hdrhistogram.Histogram
	for i, r := range rs {
		enc, sum := get(r)
		h, err := result.ReadHistogram(enc, sum, kind)
		if err != nil {
			return nil, labelled(label(i), err)
		}
		switch {
		case h == nil:
		case out == nil:
			out = h // ReadHistogram's own copy, in the standard geometry
		default:
			out.Merge(h)
		}
	}
	return out, nil
}
