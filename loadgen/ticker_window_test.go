package loadgen

import (
	"testing"
	"time"

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
	p99 := func() time.Duration { return time.Duration(tk.winSum.ValueAtQuantile(99)) * time.Microsecond }
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
