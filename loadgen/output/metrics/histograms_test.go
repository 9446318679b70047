package metrics

import (
	"maps"
	"math"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"

	"github.com/vesload/vesload/report/result"
)

// nativeCounts decodes a native histogram's positive spans and deltas
// into counts by bucket index.
func nativeCounts(h *dto.Histogram) map[int]int64 {
	out := map[int]int64{}
	i, d := 0, 0
	var count int64
	for n, span := range h.GetPositiveSpan() {
		if n == 0 {
			i = int(span.GetOffset())
		} else {
			i += int(span.GetOffset())
		}
		for range span.GetLength() {
			count += h.GetPositiveDelta()[d]
			if count != 0 {
				out[i] = count
			}
			d++
			i++
		}
	}
	return out
}

// TestHistogramsAsClientGolangWouldObserve: the histograms rendered from
// the engine's merged seconds have the buckets, count and sum that
// client_golang's own histogram, with the same layout, gets from
// observing every request, for values the engine's histograms hold
// exactly.
func TestHistogramsAsClientGolangWouldObserve(t *testing.T) {
	t.Parallel()
	values := []time.Duration{time.Microsecond, 3 * time.Microsecond, 17 * time.Microsecond, 250 * time.Microsecond,
		999 * time.Microsecond, 1500 * time.Microsecond, 2047 * time.Microsecond, 5 * time.Millisecond,
		3 * time.Millisecond, 40 * time.Millisecond, 1500 * time.Millisecond}
	want := prometheus.NewHistogram(prometheus.HistogramOpts{
		Name: "want", Buckets: latencyBuckets(),
		NativeHistogramBucketFactor: 1.1, NativeHistogramZeroThreshold: nativeZeroThreshold,
		NativeHistogramMaxBucketNumber: nativeMaxBuckets,
	})
	h := newHistograms(time.Unix(0, 0))
	for i, v := range values {
		want.Observe(v.Seconds())
		sec := result.NewTally() // a second per value, merged as they come
		for range i + 1 {
			sec.Add(result.Outcome{Class: result.OutcomeOK, Latency: v, Service: v})
		}
		h.add(&sec)
		for range i {
			want.Observe(v.Seconds())
		}
	}
	var w dto.Metric
	if err := want.Write(&w); err != nil {
		t.Fatal(err)
	}
	ch := make(chan prometheus.Metric, 2)
	h.Collect(ch)
	close(ch)
	n := 0
	for m := range ch {
		n++
		var got dto.Metric
		if err := m.Write(&got); err != nil {
			t.Fatal(err)
		}
		g, wh := got.GetHistogram(), w.GetHistogram()
		if g.GetSampleCount() != wh.GetSampleCount() || math.Abs(g.GetSampleSum()-wh.GetSampleSum()) > 1e-3*wh.GetSampleSum() {
			t.Errorf("%s: count %d sum %v, want %d and %v", m.Desc(), g.GetSampleCount(), g.GetSampleSum(), wh.GetSampleCount(), wh.GetSampleSum())
		}
		if len(g.GetBucket()) != len(wh.GetBucket()) {
			t.Fatalf("%s: %d classic buckets, want %d", m.Desc(), len(g.GetBucket()), len(wh.GetBucket()))
		}
		for i, b := range wh.GetBucket() {
			if gb := g.GetBucket()[i]; gb.GetUpperBound() != b.GetUpperBound() || gb.GetCumulativeCount() != b.GetCumulativeCount() {
				t.Errorf("%s: bucket le=%v holds %d, want le=%v %d", m.Desc(), gb.GetUpperBound(), gb.GetCumulativeCount(), b.GetUpperBound(), b.GetCumulativeCount())
			}
		}
		if g.GetSchema() != wh.GetSchema() || g.GetZeroThreshold() != wh.GetZeroThreshold() || g.GetZeroCount() != wh.GetZeroCount() {
			t.Errorf("%s: schema %d, zero %v/%d; want %d, %v/%d", m.Desc(), g.GetSchema(), g.GetZeroThreshold(), g.GetZeroCount(),
				wh.GetSchema(), wh.GetZeroThreshold(), wh.GetZeroCount())
		}
		if gn, wn := nativeCounts(g), nativeCounts(wh); !maps.Equal(gn, wn) || len(wn) == 0 {
			t.Errorf("%s: native buckets %v, want %v", m.Desc(), gn, wn)
		}
	}
	if n != 2 {
		t.Errorf("collected %d histograms, want latency and service time", n)
	}
}

// TestWidenHalvesTheResolution: bucket i of schema s lands in bucket
// ⌈i/2⌉ of schema s-1, on both sides of 1.
func TestWidenHalvesTheResolution(t *testing.T) {
	t.Parallel()
	got := widen(map[int]int64{-3: 1, -2: 2, -1: 3, 0: 4, 1: 5, 2: 6, 7: 7})
	want := map[int]int64{-1: 3, 0: 7, 1: 11, 4: 7}
	if !maps.Equal(got, want) {
		t.Errorf("widen = %v, want %v", got, want)
	}
}
