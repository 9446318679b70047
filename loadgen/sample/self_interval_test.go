package sample

import (
	"context"
	"runtime"
	"sync"
	"testing"
	"time"
)

// The generator's CPU share is its CPU time over the time between the two
// reads of it, not between the instants its caller passed: on a busy
// machine (after a stall, catching up) the read comes well after the
// instant the ticker took. Here the instant passed is the one of the
// sampler's priming, and the process then spins two goroutines for
// 200 ms: the share must stay within the cores, where the instants'
// interval, microseconds long, made it thousands of percent.
func TestSelfCPUOverItsOwnInterval(t *testing.T) {
	t.Parallel()
	s, err := NewSelf()
	if err != nil {
		t.Skipf("the process cannot be read here: %v", err)
	}
	now := time.Now()
	var wg sync.WaitGroup
	for range 2 {
		wg.Go(func() {
			for time.Since(now) < 200*time.Millisecond {
			}
		})
	}
	wg.Wait()
	r, err := s.Sample(context.Background(), now)
	if err != nil {
		t.Fatal(err)
	}
	if ceiling := 100 * float64(runtime.NumCPU()); r.NoCPU || r.CPUPct <= 0 || r.CPUPct > 1.05*ceiling {
		t.Errorf("CPU %.1f %% (NoCPU %v), want a share of the 200 ms spin within the %d cores' %.0f %%",
			r.CPUPct, r.NoCPU, runtime.NumCPU(), ceiling)
	}
}
