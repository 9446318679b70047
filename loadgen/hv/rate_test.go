package hv

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/vesload/vesload/report/result"
	hvemu "github.com/vesload/vesload/testserver/hv"
)

func seconds(bytes ...int64) []result.Second {
	tl := make([]result.Second, len(bytes))
	for i, b := range bytes {
		tl[i] = result.Second{T: int64(i), BytesSent: b}
	}
	return tl
}

func TestPeakRate(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name    string
		tl      []result.Second
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
		tl := make([]result.Second, n)
		var total int64
		for i := range tl {
			tl[i].BytesSent = rng.Int64N(1e6)
			total += tl[i].BytesSent
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
