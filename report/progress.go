package report

import (
	"fmt"
	"time"

	"github.com/vesload/vesload/loadgen"
)

// ProgressLine is the live line of one second of a run, as vesload prints
// it on stderr: elapsed of total, the rate sent against the schedule's,
// in flight, the latency percentiles of the last loadgen.LiveWindow
// seconds, errors and, when sampled, the target's CPU. A REST run's line
// shows the pool exhausted; an HV-VES run's (messages) shows the data rate
// since prev, the previous second's figures, and the disconnected
// messages instead, since its pool never runs out.
func ProgressLine(s, prev *loadgen.Progress, messages bool) string {
	var line string
	if messages {
		mbps := 0.0
		if dt := (s.Elapsed - prev.Elapsed).Seconds(); dt > 0 {
			mbps = float64(s.BytesSent-prev.BytesSent) / dt / 1e6
		}
		line = fmt.Sprintf("[%s/%s] %6.0f msg/s (target %.0f/s)  %.2f MB/s  in flight %d  p50 %s  p99 %s (last %ds)  errors %d  disconnected %d",
			s.Elapsed.Round(time.Second), s.Total.Round(time.Second), s.RPS, s.TargetRPS, mbps, s.InFlight,
			progressMs(s.P50), progressMs(s.P99), loadgen.LiveWindow, s.Errors, s.Disconnected)
	} else {
		line = fmt.Sprintf("[%s/%s] %6.0f/s (target %.0f/s)  in flight %d  p50 %s  p99 %s (last %ds)  errors %d  pool exhausted %d",
			s.Elapsed.Round(time.Second), s.Total.Round(time.Second), s.RPS, s.TargetRPS, s.InFlight,
			progressMs(s.P50), progressMs(s.P99), loadgen.LiveWindow, s.Errors, s.PoolExhausted)
	}
	if s.Target != nil {
		line += fmt.Sprintf("  target cpu %.0f%%", s.Target.CPUPct)
	}
	return line
}

func progressMs(d time.Duration) string {
	return fmt.Sprintf("%.1fms", float64(d)/float64(time.Millisecond))
}
