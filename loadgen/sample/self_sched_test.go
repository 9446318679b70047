package sample

import (
	"context"
	"math"
	"runtime"
	"runtime/metrics"
	"sync"
	"testing"
	"time"
)

// More goroutines busy at once than there are cores wait their turns of
// the runtime's time slice (10 ms): the reading must show waits of
// milliseconds, where a process with cores to spare shows tens of
// microseconds.
func TestSelfShowsTheWaitToRun(t *testing.T) {
	t.Parallel()
	s, err := NewSelf()
	if err != nil {
		t.Skipf("the process cannot be read here: %v", err)
	}
	now := time.Now()
	var wg sync.WaitGroup
	for range 4 * runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for time.Since(now) < 300*time.Millisecond {
			}
		})
	}
	wg.Wait()
	r, err := s.Sample(context.Background(), now)
	if err != nil {
		t.Fatal(err)
	}
	if r.SchedP99Ms < 1 {
		t.Errorf("wait to run p99 %.3f ms with %d goroutines spinning on %d Ps: want 1 ms or more",
			r.SchedP99Ms, 4*runtime.GOMAXPROCS(0), runtime.GOMAXPROCS(0))
	}
}

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
