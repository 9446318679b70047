package metrics

import (
	"math"
	"sync"
	"testing"
	"time"

	"github.com/vesload/vesload/internal/promtext"
)

func TestHistogramBuckets(t *testing.T) {
	t.Parallel()
	h := newHistogram([]float64{0.001, 0.01, 1})
	for _, d := range []time.Duration{
		500 * time.Microsecond, time.Millisecond, // ≤ 0.001: le is inclusive
		1001 * time.Microsecond, 10 * time.Millisecond, // ≤ 0.01
		time.Second,     // ≤ 1
		2 * time.Second, // +Inf
	} {
		h.observe(d)
	}
	var w promtext.Writer
	h.write(&w, "h_seconds", "A test histogram.")
	samples, err := promtext.Parse(w.Bytes(), promtext.Text)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]float64{"0.001": 2, "0.01": 4, "1": 5, "+Inf": 6}
	for _, s := range samples {
		switch s.Name {
		case "h_seconds_bucket":
			le, _ := s.Label("le")
			if s.Value != want[le] {
				t.Errorf("bucket le=%s holds %v, want %v", le, s.Value, want[le])
			}
			delete(want, le)
		case "h_seconds_count":
			if s.Value != 6 {
				t.Errorf("count %v, want 6", s.Value)
			}
		case "h_seconds_sum":
			if math.Abs(s.Value-3.012501) > 1e-9 {
				t.Errorf("sum %v, want 3.012501", s.Value)
			}
		}
	}
	if len(want) != 0 {
		t.Errorf("buckets missing: %v", want)
	}
}

// TestHistogramConcurrent observes from several goroutines at once: no
// observation may be lost, in the buckets or in the sum.
func TestHistogramConcurrent(t *testing.T) {
	t.Parallel()
	h := newHistogram(latencyBuckets())
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for range 1000 {
				h.observe(time.Millisecond)
			}
		})
	}
	wg.Wait()
	var n uint64
	for i := range h.buckets {
		n += h.buckets[i].Load()
	}
	if sum := math.Float64frombits(h.sumBits.Load()); n != 4000 || math.Abs(sum-4) > 1e-9 {
		t.Errorf("%d observations summing to %v s, want 4000 and 4 s", n, sum)
	}
}

// TestHistogramNative checks the native buckets: a value on a bucket's
// upper bound is in that bucket, tiny values go to the zero bucket, huge
// ones to the last bucket, and everything adds up to the count.
func TestHistogramNative(t *testing.T) {
	t.Parallel()
	h := newHistogram(latencyBuckets())
	for _, d := range []time.Duration{time.Nanosecond, time.Second, time.Second, 1001 * time.Millisecond, 100 * time.Hour} {
		h.observe(d)
	}
	classic, native, zero, _ := h.snapshot()
	var nClassic, nNative uint64
	for _, n := range classic {
		nClassic += n
	}
	for _, n := range native {
		nNative += n
	}
	if zero != 1 || nNative+zero != nClassic || nClassic != 5 {
		t.Errorf("zero %d, native %d, classic %d; want 1, 4, 5", zero, nNative, nClassic)
	}
	if n := native[0-nativeMinIndex]; n != 2 { // 1 s = 2^0 closes bucket 0
		t.Errorf("bucket 0 holds %d, want 2", n)
	}
	if n := native[1-nativeMinIndex]; n != 1 {
		t.Errorf("bucket 1 holds %d, want 1", n)
	}
	if n := native[len(native)-1]; n != 1 {
		t.Errorf("last bucket holds %d, want the 100 h observation", n)
	}
}
