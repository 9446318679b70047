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
	r := spinAndSample(t, 2, 200*time.Millisecond)
	if ceiling := 100 * float64(runtime.NumCPU()); r.NoCPU || r.CPUPct <= 0 || r.CPUPct > 1.05*ceiling {
		t.Errorf("CPU %.1f %% (NoCPU %v), want a share of the 200 ms spin within the %d cores' %.0f %%",
			r.CPUPct, r.NoCPU, runtime.NumCPU(), ceiling)
	}
}

// More goroutines busy at once than there are cores wait their turns of
// the runtime's time slice (10 ms): the reading must show waits of
// milliseconds, where a process with cores to spare shows tens of
// microseconds.
func TestSelfShowsTheWaitToRun(t *testing.T) {
	t.Parallel()
	n := 4 * runtime.GOMAXPROCS(0)
	if r := spinAndSample(t, n, 300*time.Millisecond); r.SchedP99Ms < 1 {
		t.Errorf("wait to run p99 %.3f ms with %d goroutines spinning on %d Ps: want 1 ms or more", r.SchedP99Ms, n, runtime.GOMAXPROCS(0))
	}
}

// spinAndSample primes the self sampler, keeps n goroutines busy for d and
// takes one reading, passing it the instant of the priming.
func spinAndSample(t *testing.T, n int, d time.Duration) Reading {
	t.Helper()
	s, err := NewSelf()
	if err != nil {
		t.Skipf("the process cannot be read here: %v", err)
	}
	now := time.Now()
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() {
			for time.Since(now) < d {
			}
		})
	}
	wg.Wait()
	r, err := s.Sample(context.Background(), now)
	if err != nil {
		t.Fatal(err)
	}
	return r
}
