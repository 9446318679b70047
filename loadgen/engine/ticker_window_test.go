package engine

import (
	"math/rand/v2"
	"testing"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/vesload/vesload/report/result"
)

// The live percentiles cover the last LiveWindow seconds: a stall stays
// in view for that long after it ends, then leaves it.
func TestLiveWindowKeepsAStallInView(t *testing.T) {
	t.Parallel()
	tk := &ticker{}
	tk.initWindow()
	second := func(latency time.Duration, n int) {
		h := result.NewHistogram()
		for range n {
			if err := h.RecordValue(result.Micros(latency)); err != nil {
				t.Fatal(err)
			}
		}
		tk.slide(h)
		tk.sec++
	}
	p99 := func() time.Duration { return time.Duration(tk.winSum.ValueAtPercentile(99)) * time.Microsecond }
	for range 3 {
		second(time.Millisecond, 100)
	}
	second(1300*time.Millisecond, 100) // the requests a freeze held back
	for i := 1; i < LiveWindow; i++ {
		second(time.Millisecond, 100)
		if got := p99(); got < time.Second {
			t.Fatalf("%d s after the stall, p99 %v: the stall left the view", i, got)
		}
	}
	second(time.Millisecond, 100)
	if got := p99(); got > 2*time.Millisecond {
		t.Errorf("%d s after the stall, p99 %v: want the stall out of the window", LiveWindow, got)
	}
}

// The live target is the schedule's own rate: 100/s on a constant
// 100/s schedule whatever was counted due in the last tick, the line of a
// ramp, and the last rate once the schedule is over.
func TestLiveTargetIsTheSchedulesRate(t *testing.T) {
	t.Parallel()
	s, err := NewSchedule(Segment{From: 100, To: 100, Duration: 5 * time.Second}, Segment{From: 100, To: 200, Duration: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	start := time.Unix(1700000000, 0)
	tk := &ticker{e: &Engine{cfg: Config{Load: s}}, started: start}
	tk.last.attempted = 4
	tests := []struct {
		at        time.Duration
		attempted int64
		want      float64
	}{
		{1 * time.Second, 100, 100}, // 96 counted due in the tick
		{2*time.Second + 3*time.Millisecond, 101, 100},
		{7500 * time.Millisecond, 50, 150},
		{12 * time.Second, 0, 200},
	}
	for _, tc := range tests {
		if got := tk.targetRate(start.Add(tc.at), tc.attempted); got < tc.want-0.01 || got > tc.want+0.01 {
			t.Errorf("at %v: target %g, want %g", tc.at, got, tc.want)
		}
	}
}

// The sparse live window reads the percentiles that dense histograms of
// the same precision, merged second by second, read.
func TestLiveWindowMatchesDenseHistograms(t *testing.T) {
	t.Parallel()
	tk := &ticker{}
	tk.initWindow()
	var dense [LiveWindow]*hdrhistogram.Histogram
	for i := range dense {
		dense[i] = hdrhistogram.New(result.HistogramLowestUs, result.HistogramHighestUs, liveSigFigs)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for sec := range 3 * LiveWindow {
		h := result.NewHistogram()
		for range 1 + rng.IntN(500) {
			// Mostly fast, a few up to the top of the range.
			us := 50 + rng.Int64N(2_000)
			if rng.IntN(50) == 0 {
				us = 1 + rng.Int64N(result.HistogramHighestUs)
			}
			if err := h.RecordValue(us); err != nil {
				t.Fatal(err)
			}
		}
		tk.slide(h)
		d := dense[tk.sec%LiveWindow]
		d.Reset()
		d.Merge(h)
		sum := hdrhistogram.New(result.HistogramLowestUs, result.HistogramHighestUs, liveSigFigs)
		for _, w := range dense {
			sum.Merge(w)
		}
		tk.sec++
		for _, q := range []float64{50, 99} {
			if got, want := tk.winSum.ValueAtPercentile(q), sum.ValueAtQuantile(q); got != want {
				t.Errorf("second %d: p%v %d µs, dense histograms say %d µs", sec, q, got, want)
			}
		}
		if got, want := tk.winSum.TotalCount(), sum.TotalCount(); got != want {
			t.Errorf("second %d: %d latencies in the window, dense histograms hold %d", sec, got, want)
		}
	}
}
