package sample

import (
	"math"
	"runtime/metrics"
	"testing"
)

// Each reading is of the waits since the previous one, whose counts the
// runtime keeps adding to.
func TestRunWaitReadsItsOwnInterval(t *testing.T) {
	t.Parallel()
	buckets := []float64{math.Inf(-1), 0.0001, 0.001, 0.01, math.Inf(1)}
	var w runWait
	for _, tc := range []struct {
		name   string
		counts []uint64
		wantMs float64
	}{
		{"the first reading counts from nothing", []uint64{0, 990, 10, 0}, 1},
		{"nothing waited since", []uint64{0, 990, 10, 0}, 0},
		{"all of the interval's waits long", []uint64{0, 990, 10, 5}, 10},
		{"99 short waits, one long: p99 is a short one", []uint64{0, 1089, 10, 6}, 1},
		{"one of two waits long: p99 is the long one", []uint64{0, 1090, 10, 7}, 10},
	} {
		if got := w.since(&metrics.Float64Histogram{Counts: tc.counts, Buckets: buckets}); got != tc.wantMs {
			t.Errorf("%s: %g ms, want %g", tc.name, got, tc.wantMs)
		}
	}
}

func TestBucketQuantile(t *testing.T) {
	t.Parallel()
	buckets := []float64{math.Inf(-1), 1, 2, math.Inf(1)}
	for _, tc := range []struct {
		name   string
		counts []uint64
		q      float64
		want   float64
	}{
		{"empty", []uint64{0, 0, 0}, 0.99, 0},
		{"below the first bound", []uint64{5, 0, 0}, 0.99, 1},
		{"in the middle", []uint64{0, 5, 0}, 0.99, 2},
		{"the unbounded last bucket: its lower bound", []uint64{0, 0, 5}, 0.99, 2},
		{"the rank falls in the first of two", []uint64{0, 99, 1}, 0.99, 2},
		{"the rank falls in the second", []uint64{0, 98, 2}, 0.99, 2},
	} {
		total := uint64(0)
		for _, c := range tc.counts {
			total += c
		}
		if got := bucketQuantile(tc.counts, buckets, total, tc.q); got != tc.want {
			t.Errorf("%s: %g, want %g", tc.name, got, tc.want)
		}
	}
}
