package hv

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	hvemu "github.com/vesload/vesload/testserver/hv"
)

func seconds(bytes ...int64) []int64 { return bytes }

func TestPeakRate(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name    string
		tl      []int64
		elapsed float64
		want    float64 // bytes/s
	}{
		{"shorter than a second: the average", seconds(410_000), 0.49, 410_000 / 0.49},
		{"whole seconds", seconds(1e6, 2e6, 1e6), 3, 2e6},
		{"a partial last second joins the one before", seconds(1e6, 1e6, 5e5), 2.5, 1e6},
		{"a sliver at the end does not spike", seconds(1e6, 1e6, 1000), 2.001, 1_001_000 / 1.001},
		{"nothing ran", nil, 0, 0},
	} {
		if got := peakRate(c.tl, c.elapsed); math.Abs(got-c.want) > 1e-6*max(c.want, 1) {
			t.Errorf("%s: peak %.1f B/s, want %.1f", c.name, got, c.want)
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 1000 {
		n := 1 + rng.IntN(5)
		tl := make([]int64, n)
		var total int64
		for i := range tl {
			tl[i] = rng.Int64N(1e6)
			total += tl[i]
		}
		elapsed := float64(n-1) + rng.Float64()
		if avg, peak := float64(total)/elapsed, peakRate(tl, elapsed); peak < avg*(1-1e-12) {
			t.Fatalf("%v over %.3fs: peak %.1f below the average %.1f", tl, elapsed, peak, avg)
		}
	}
}

// TestShortRunPeakNotBelowAverage is the half-second run a user saw with
// a peak second at half the average.
func TestShortRunPeakNotBelowAverage(t *testing.T) {
	s := emulator(t, hvemu.Options{})
	cfg := Config{Addr: s.Addr(), Producers: 1, Messages: 50, Size: 8192, Interval: 10 * time.Millisecond, RunID: "pk"}
	r, err := run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if r.HV.PeakMBps < r.HV.MBps || r.HV.MBps <= 0 {
		t.Errorf("peak %.3f MB/s below the average %.3f", r.HV.PeakMBps, r.HV.MBps)
	}
}

// The peak second is the data rate the collector saw, by the second in
// which writes ended, not the schedule's (the engine's timeline holds a
// message in its due second, so its seconds never exceed the schedule):
// a producer that falls behind and then catches up writes a second's
// backlog at once, and the peak shows it.
func TestPeakIsOfWritesNotOfDueTimes(t *testing.T) {
	t.Parallel()
	w := newWrittenSeconds(3 * time.Second)
	start := time.Unix(1000, 0)
	// 100 messages of 1,000 bytes a second are due for 3 seconds; the
	// first second's are written in the second one, with its own.
	for s := range 3 {
		done := start.Add(time.Duration(max(s, 1))*time.Second + 500*time.Millisecond)
		for range 100 {
			w.add(start, done, 1000)
		}
	}
	if got := w.seconds(); len(got) != 3 || got[0] != 0 || got[1] != 200_000 || got[2] != 100_000 {
		t.Fatalf("bytes by second written %v, want [0 200000 100000]", got)
	}
	if peak := peakRate(w.seconds(), 3); peak != 200_000 {
		t.Errorf("peak %v B/s, want 200000 (the backlog's second), above the schedule's 100000", peak)
	}
	// A write past the seconds made for the run counts in the last one.
	w.add(start, start.Add(time.Hour), 7)
	if got := w.seconds(); got[len(got)-1] != 7 || len(got) != w.n {
		t.Errorf("a late write: %d seconds, last %d", len(got), got[len(got)-1])
	}
}
