package loadgen

import (
	"context"
	"syscall"
	"testing"
	"time"
)

// BenchmarkSleeperWait reports the process's voluntary context switches
// per wait (switches/op): at 100 requests/s a wait of 10 ms comes before
// every request, and in a virtual machine a switch costs as much as a
// request's own work. A wait of 5 or 10 ms reads the timerfd, then rides
// the Go timer for its last millisecond: two wake-ups, where the Go timer
// alone cost about 3.6 (the runtime's monitor thread woke with it, and
// the poll ended early). One of 500 µs rides the Go timer and its kick.
func BenchmarkSleeperWait(b *testing.B) {
	for _, w := range []time.Duration{500 * time.Microsecond, 5 * time.Millisecond, 10 * time.Millisecond} {
		b.Run(w.String(), func(b *testing.B) {
			s := newSleeper(newPoller())
			defer s.close()
			ctx := context.Background()
			var before, after syscall.Rusage
			if err := syscall.Getrusage(syscall.RUSAGE_SELF, &before); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				if !s.until(ctx, time.Now().Add(w), nil) {
					b.Fatal("until reported a stop that did not happen")
				}
			}
			if err := syscall.Getrusage(syscall.RUSAGE_SELF, &after); err != nil {
				b.Fatal(err)
			}
			b.ReportMetric(float64(after.Nvcsw-before.Nvcsw)/float64(b.N), "switches/op")
		})
	}
}
