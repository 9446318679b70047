package selfmetrics

import (
	"testing"
	"time"
)

// burnCPU spins until the process has used at least one clock tick of
// CPU, so that process_cpu_seconds_total is positive even in a test
// binary that has only just started; it gives up after 5 s.
func burnCPU(t *testing.T) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for x := 0; time.Now().Before(deadline); x++ {
		if st, ok := readStat(); ok && st.UTime+st.STime > 0 {
			return
		}
		for i := range 1_000_000 {
			x ^= i
		}
	}
	t.Log("the process used no clock tick of CPU in 5 s")
}
